// Writes the TPC-H tables as dbgen does: DIR/<table>.tbl, '|'-separated, no
// header, a '|' at the end of every line, every column of the specification
// -- and DIR/load.sql, the CREATE TABLE and COPY statements that load them
// with the specification's names and types (gpusql's shell: .read
// DIR/load.sql; DuckDB reads the same text). Same generator (and so the same
// data, for the same --sf and --seed) as the in-memory tables gpusql_tpch
// builds.
//
//   gpusql_tpch_dbgen --sf N --out DIR [--seed S] [--threads T]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "bench/tpch/tpch_generator.hpp"

int main(int argc, char** argv) {
  gpusql::tpch::GeneratorOptions options;
  std::string out_dir;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--sf"))
      options.scale_factor = std::stod(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--out"))
      out_dir = argv[i + 1];
    else if (!std::strcmp(argv[i], "--seed"))
      options.seed = std::stoull(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--threads"))
      options.threads = static_cast<unsigned>(std::stoul(argv[i + 1]));
    else {
      std::fprintf(stderr, "unknown argument %s\n", argv[i]);
      out_dir.clear();
      break;
    }
  }
  if (out_dir.empty() || argc % 2 == 0) {
    std::fprintf(stderr, "usage: gpusql_tpch_dbgen --sf N --out DIR [--seed S] [--threads T]\n");
    return 2;
  }
  try {
    std::filesystem::create_directories(out_dir);
    auto start = std::chrono::steady_clock::now();
    std::string load;
    for (const auto& table : gpusql::tpch::generate(options)) {
      const std::string path = out_dir + "/" + table->name + ".tbl";
      gpusql::tpch::write_text(*table, path, {}, options.threads);
      std::printf("%s: %zu rows, %zu columns\n", path.c_str(), table->rows, table->columns.size());
      const std::string absolute = std::filesystem::absolute(path).string();
      load += gpusql::tpch::create_table_sql(table->name) + ";\nCOPY " + table->name + " FROM '" + absolute +
              "' (DELIMITER '|');\n";
    }
    const std::string load_path = out_dir + "/load.sql";
    std::ofstream(load_path, std::ios::binary) << load;
    std::printf("%s: CREATE TABLE and COPY for each\n", load_path.c_str());
    std::printf("done in %.1f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpusql_tpch_dbgen: %s\n", e.what());
    return 1;
  }
  return 0;
}
