// Writes the SSB tables as dbgen does: DIR/<table>.tbl, '|'-separated, no
// header, a '|' at the end of every line, every column of the specification
// -- and DIR/load.sql, the CREATE TABLE (the specification's column names)
// and COPY statements that load them (bench/tpch/load_with_duckdb.py times
// it).
// Same generator (and so the same data, for the same --sf and --seed) as the
// in-memory tables gpusql_ssb builds.
//
//   gpusql_ssb_dbgen --sf N --out DIR [--seed S] [--threads T]
//
// Loading a file back: Database::load_csv("lineorder", "DIR/lineorder.tbl",
// CsvOptions{.delimiter = '|', .header = false}); the shell's -load detects
// both. Columns then get the loader's default names; the SQL in
// tests/sql_queries/ssb needs the specification's names (see column_names()).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "bench/ssb/ssb_generator.hpp"
#include "gpusql/gpusql.hpp"

int main(int argc, char** argv) {
  gpusql::ssb::GeneratorOptions options;
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
    std::fprintf(stderr, "usage: gpusql_ssb_dbgen --sf N --out DIR [--seed S] [--threads T]\n");
    return 2;
  }
  try {
    std::filesystem::create_directories(out_dir);
    auto start = std::chrono::steady_clock::now();
    std::string load;
    for (const auto& table : gpusql::ssb::generate(options)) {
      const std::string path = out_dir + "/" + table->name + ".tbl";
      gpusql::ssb::write_text(*table, path, {}, options.threads);
      std::printf("%s: %zu rows, %zu columns\n", path.c_str(), table->rows, table->columns.size());
      const std::vector<std::string>& names = gpusql::ssb::column_names(table->name);
      load += "CREATE TABLE " + table->name + " (";
      for (std::size_t c = 0; c < names.size(); ++c)
        load += (c ? ", " : "") + names[c] + " " + std::string(gpusql::type_name(table->columns[c].type.id));
      load += ");\nCOPY " + table->name + " FROM '" + std::filesystem::absolute(path).string() +
              "' (DELIMITER '|');\n";
    }
    std::ofstream(out_dir + "/load.sql", std::ios::binary) << load;
    std::printf("%s/load.sql: CREATE TABLE and COPY for each\n", out_dir.c_str());
    std::printf("done in %.1f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpusql_ssb_dbgen: %s\n", e.what());
    return 1;
  }
  return 0;
}
