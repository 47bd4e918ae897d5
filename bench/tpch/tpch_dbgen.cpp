// Writes the TPC-H tables as dbgen does: DIR/<table>.tbl, '|'-separated, no
// header, a '|' at the end of every line, every column of the specification
// -- and DIR/load.sql, the CREATE TABLE and COPY statements that load them
// with the specification's names and types (gpusql's shell: .read
// DIR/load.sql; DuckDB reads the same text). Same generator (and so the same
// data, for the same --sf and --seed) as the in-memory tables gpusql_tpch
// builds.
//
// With --csv: DIR/<table>.csv instead, comma-separated with a header row (a
// value holding a comma quoted), and DIR/schema.sql, whose COPY statements
// name the files by DIR as given (relative paths stay relative: run the
// script from the directory the generator ran in). sample_data/tpch/ is made
// this way (sample_data/README.md).
//
//   gpusql_tpch_dbgen --sf N --out DIR [--csv] [--seed S] [--threads T]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "bench/tpch/tpch_generator.hpp"

namespace {

// CREATE TABLE over several lines, a column a line: the script is read by
// people too (the demo echoes it).
std::string create_table_lines(const std::string& table) {
  std::string sql = "CREATE TABLE " + table + " (\n";
  const auto& list = gpusql::tpch::columns(table);
  for (std::size_t c = 0; c < list.size(); ++c)
    sql += "  " + list[c].name + " " + list[c].type.to_string() + " NOT NULL" + (c + 1 < list.size() ? ",\n" : "\n");
  return sql + ")";
}

}  // namespace

int main(int argc, char** argv) {
  gpusql::tpch::GeneratorOptions options;
  std::string out_dir;
  bool csv = false, usage = false;
  for (int i = 1; i < argc && !usage; ++i) {
    if (!std::strcmp(argv[i], "--csv")) {
      csv = true;
      continue;
    }
    if (i + 1 == argc) {
      usage = true;
    } else if (!std::strcmp(argv[i], "--sf")) {
      options.scale_factor = std::stod(argv[++i]);
    } else if (!std::strcmp(argv[i], "--out")) {
      out_dir = argv[++i];
    } else if (!std::strcmp(argv[i], "--seed")) {
      options.seed = std::stoull(argv[++i]);
    } else if (!std::strcmp(argv[i], "--threads")) {
      options.threads = static_cast<unsigned>(std::stoul(argv[++i]));
    } else {
      std::fprintf(stderr, "unknown argument %s\n", argv[i]);
      usage = true;
    }
  }
  if (out_dir.empty() || usage) {
    std::fprintf(stderr, "usage: gpusql_tpch_dbgen --sf N --out DIR [--csv] [--seed S] [--threads T]\n");
    return 2;
  }
  try {
    std::filesystem::create_directories(out_dir);
    auto start = std::chrono::steady_clock::now();
    gpusql::tpch::TextFormat format;
    if (csv) format = {.delimiter = ',', .header = true, .trailing_delimiter = false};
    std::string load;
    if (csv) {
      char line[160];
      std::snprintf(line, sizeof line, "-- TPC-H at SF %g (seed %llu), written by gpusql_tpch_dbgen --csv\n",
                    options.scale_factor, static_cast<unsigned long long>(options.seed));
      load += line;
    }
    for (const auto& table : gpusql::tpch::generate(options)) {
      const std::string path = out_dir + "/" + table->name + (csv ? ".csv" : ".tbl");
      gpusql::tpch::write_text(*table, path, format, options.threads);
      std::printf("%s: %zu rows, %zu columns\n", path.c_str(), table->rows, table->columns.size());
      if (csv) {
        load += create_table_lines(table->name) + ";\nCOPY " + table->name + " FROM '" + path + "' (HEADER);\n";
      } else {
        const std::string absolute = std::filesystem::absolute(path).string();
        load += gpusql::tpch::create_table_sql(table->name) + ";\nCOPY " + table->name + " FROM '" + absolute +
                "' (DELIMITER '|');\n";
      }
    }
    const std::string load_path = out_dir + (csv ? "/schema.sql" : "/load.sql");
    std::ofstream(load_path, std::ios::binary) << load;
    std::printf("%s: CREATE TABLE and COPY for each\n", load_path.c_str());
    std::printf("done in %.1f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpusql_tpch_dbgen: %s\n", e.what());
    return 1;
  }
  return 0;
}
