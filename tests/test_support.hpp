// Shared by the tests: SQLite as the oracle, result comparison, temp files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "gpusql/gpusql.hpp"

struct sqlite3;

namespace gpusql::test {

// A cell as both engines can express it: NULL, an integer, a double or text.
using Cell = std::variant<std::monostate, int64_t, double, std::string>;
using Rows = std::vector<std::vector<Cell>>;

std::string source_dir();

// Settings the suites run every case under again: table scans in chunks of
// `rows` (every pipeline pushes many chunks, every sink combines them), and
// every loaded VARCHAR column kept as plain strings (encoded when a
// statement reads it, matched row by row by LIKE). The answers must not change.
inline Settings in_chunks_of(uint64_t rows) {
  Settings settings;
  settings.chunk_rows = rows;
  return settings;
}
inline Settings plain_strings() {
  Settings settings;
  settings.plain_strings_rows = 0;
  return settings;
}
std::string sample(const std::string& table);  // path of sample_data/<table>.csv

// A fresh temporary directory for one test; removed on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  std::string write(const std::string& name, const std::string& contents) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// An in-memory SQLite database holding the same CSV files. Columns get the
// type gpusql inferred for them (INTEGER, REAL or TEXT affinity), values go
// in as text, and SQLite converts them itself.
class Sqlite {
 public:
  Sqlite();
  ~Sqlite();
  Sqlite(const Sqlite&) = delete;
  Sqlite& operator=(const Sqlite&) = delete;
  // Loads a header CSV without quotes (the sample files): empty fields NULL.
  void load_csv(const std::string& table, const std::string& path, const Result& schema);
  Rows query(const std::string& sql) const;
  // Runs statements that return no rows (CREATE TABLE ...).
  void execute(const std::string& sql);
  // Inserts rows of text values (nullopt: NULL) into `table`; SQLite converts
  // each by its column's affinity, as its CSV import does.
  void insert(const std::string& table, const std::vector<std::vector<std::optional<std::string>>>& rows);

 private:
  ::sqlite3* db_ = nullptr;
};

// DATE values become their 'YYYY-MM-DD' text and DECIMAL values doubles, as
// SQLite holds them (TEXT and REAL affinity).
Rows to_rows(const Result& result);
std::string to_string(const Rows& rows);

// Where SQLite's semantics knowingly differ from gpusql's, the comparison
// allows for it -- and only there:
//  - floating SUM and AVG: SQLite adds in row order, gpusql in a fixed
//    parallel tree order (aggregate_state.hpp), so the last bits may differ:
//    relative tolerance 1e-12 on the columns listed in `approximate`.
bool same_rows(const Rows& expected, const Rows& actual, const std::vector<std::size_t>& approximate = {});

// A deterministic 64-bit random stream for generated test data (an LCG
// step, then a murmur-style finalizer): the same data on every machine.
uint64_t next_random(uint64_t& state);

// printf into a std::string (up to 511 characters).
std::string fmt(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace gpusql::test
