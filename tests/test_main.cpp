// The test binary's entry point. Tests that need a GPU carry the [gpu] tag;
// where no device is usable they are skipped, and the run says so.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "gpusql/gpusql.hpp"

int main(int argc, char* argv[]) {
  Catch::Session session;
  if (int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;
  std::string why;
  if (!gpusql::gpu_available(&why)) {
    std::fprintf(stderr, "gpusql_tests: no usable GPU (%s): [gpu] tests are SKIPPED\n", why.c_str());
    auto& config = session.configData();
    std::string spec;
    for (const auto& s : config.testsOrTags) spec += (spec.empty() ? "" : " ") + s;
    config.testsOrTags.clear();
    // With no spec of its own a run leaves out the hidden ([.]) cases too, as
    // Catch does: a negated tag alone would select them.
    config.testsOrTags.push_back(spec.empty() ? "~[gpu]~[.]" : spec + " ~[gpu]");
    session.useConfigData(config);
  } else {
    std::fprintf(stderr, "gpusql_tests: GPU usable: [gpu] tests run\n");
  }
  return session.run();
}
