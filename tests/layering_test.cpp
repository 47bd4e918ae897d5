// The folders' layering (../shared/ARCHITECTURE.md): shell -> engine ->
// execution -> {planner -> parser, kernels} -> storage -> core -> common, the public
// header under everything. A folder includes only its own headers and those
// of the folders below it; this test reads every source file's includes.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "tests/test_support.hpp"

namespace {

// What each folder may include besides itself.
const std::map<std::string, std::set<std::string>>& allowed() {
  static const std::map<std::string, std::set<std::string>> rules{
      {"common", {"gpusql"}},
      {"core", {"gpusql", "common"}},
      {"storage", {"gpusql", "common", "core"}},
      {"kernels", {"gpusql", "common", "core", "storage"}},
      {"parser", {"gpusql", "common"}},
      {"planner", {"gpusql", "common", "core", "storage", "parser"}},
      {"execution", {"gpusql", "common", "core", "storage", "kernels", "parser", "planner"}},
      {"engine", {"gpusql", "common", "core", "storage", "kernels", "parser", "planner", "execution"}},
      {"shell", {"gpusql", "common", "core", "storage", "kernels", "parser", "planner", "execution", "engine"}},
  };
  return rules;
}

}  // namespace

TEST_CASE("layering: no folder includes a header of a folder above it", "[layering]") {
  namespace fs = std::filesystem;
  const std::regex include_line(R"(^\s*#\s*include\s*"([a-z_]+)/)");
  std::size_t files = 0;
  for (const auto& [folder, may] : allowed()) {
    const fs::path dir = fs::path(gpusql::test::source_dir()) / folder;
    REQUIRE(fs::is_directory(dir));
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file()) continue;
      ++files;
      std::ifstream in(entry.path());
      std::string line;
      for (int number = 1; std::getline(in, line); ++number) {
        std::smatch m;
        if (!std::regex_search(line, m, include_line)) continue;
        const std::string target = m[1];
        INFO(entry.path().string() << ":" << number << ": " << line);
        CHECK((target == folder || may.count(target) == 1));
      }
    }
  }
  CHECK(files > 100);
}
