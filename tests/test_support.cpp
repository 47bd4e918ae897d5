#include "tests/test_support.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gpusql::test {

std::string source_dir() { return GPUSQL_SOURCE_DIR; }
std::string sample(const std::string& table) { return source_dir() + "/sample_data/" + table + ".csv"; }

TempDir::TempDir() {
  char pattern[] = "/tmp/gpusql-test-XXXXXX";
  const char* made = mkdtemp(pattern);
  if (!made) throw std::runtime_error("mkdtemp failed");
  path_ = made;
}
TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}
std::string TempDir::write(const std::string& name, const std::string& contents) const {
  std::string file = path_ + "/" + name;
  std::ofstream(file, std::ios::binary) << contents;
  return file;
}

Sqlite::Sqlite() {
  if (sqlite3_open(":memory:", &db_) != SQLITE_OK) throw std::runtime_error("sqlite3_open failed");
}
Sqlite::~Sqlite() { sqlite3_close(db_); }

static void exec(sqlite3* db, const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error ? error : "?";
    sqlite3_free(error);
    throw std::runtime_error("sqlite: " + message + " in: " + sql);
  }
}

void Sqlite::load_csv(const std::string& table, const std::string& path, const Result& schema) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::string create = "CREATE TABLE " + table + " (";
  for (std::size_t c = 0; c < schema.column_count(); ++c) {
    Type t = schema.column_type(c);
    const char* affinity = t == Type::Double || t == Type::Real || t == Type::Decimal ? "REAL"
                           : t == Type::Varchar || t == Type::Date                  ? "TEXT"
                                                                                      : "INTEGER";
    create += (c ? ", " : "") + schema.column_name(c) + " " + affinity;
  }
  exec(db_, create + ")");
  exec(db_, "BEGIN");
  sqlite3_stmt* insert = nullptr;
  std::string placeholders;
  for (std::size_t c = 0; c < schema.column_count(); ++c) placeholders += c ? ",?" : "?";
  sqlite3_prepare_v2(db_, ("INSERT INTO " + table + " VALUES (" + placeholders + ")").c_str(), -1, &insert, nullptr);
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::vector<std::string> fields;
    std::stringstream ss(line);
    std::string field;
    while (std::getline(ss, field, ',')) fields.push_back(field);
    if (!line.empty() && line.back() == ',') fields.push_back("");
    sqlite3_reset(insert);
    for (std::size_t c = 0; c < schema.column_count(); ++c) {
      if (c >= fields.size() || fields[c].empty()) sqlite3_bind_null(insert, static_cast<int>(c + 1));
      else sqlite3_bind_text(insert, static_cast<int>(c + 1), fields[c].c_str(), -1, SQLITE_TRANSIENT);
    }
    if (sqlite3_step(insert) != SQLITE_DONE) throw std::runtime_error("sqlite insert failed");
  }
  sqlite3_finalize(insert);
  exec(db_, "COMMIT");
}

void Sqlite::execute(const std::string& sql) { exec(db_, sql); }

void Sqlite::insert(const std::string& table, const std::vector<std::vector<std::optional<std::string>>>& rows) {
  if (rows.empty()) return;
  std::string placeholders;
  for (std::size_t c = 0; c < rows[0].size(); ++c) placeholders += c ? ",?" : "?";
  sqlite3_stmt* statement = nullptr;
  std::string sql = "INSERT INTO " + table + " VALUES (" + placeholders + ")";
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK)
    throw std::runtime_error(std::string("sqlite prepare: ") + sqlite3_errmsg(db_) + " in: " + sql);
  exec(db_, "BEGIN");
  for (const auto& row : rows) {
    sqlite3_reset(statement);
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (row[c]) sqlite3_bind_text(statement, static_cast<int>(c + 1), row[c]->data(), static_cast<int>(row[c]->size()),
                                    SQLITE_TRANSIENT);
      else sqlite3_bind_null(statement, static_cast<int>(c + 1));
    }
    if (sqlite3_step(statement) != SQLITE_DONE) {
      sqlite3_finalize(statement);
      throw std::runtime_error(std::string("sqlite insert: ") + sqlite3_errmsg(db_));
    }
  }
  sqlite3_finalize(statement);
  exec(db_, "COMMIT");
}

Rows Sqlite::query(const std::string& sql) const {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    throw std::runtime_error(std::string("sqlite prepare: ") + sqlite3_errmsg(db_) + " in: " + sql);
  Rows rows;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    std::vector<Cell> row;
    for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
      switch (sqlite3_column_type(stmt, c)) {
        case SQLITE_NULL: row.emplace_back(std::monostate{}); break;
        case SQLITE_INTEGER: row.emplace_back(static_cast<int64_t>(sqlite3_column_int64(stmt, c))); break;
        case SQLITE_FLOAT: row.emplace_back(sqlite3_column_double(stmt, c)); break;
        default: row.emplace_back(std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, c)))); break;
      }
    }
    rows.push_back(std::move(row));
  }
  sqlite3_finalize(stmt);
  return rows;
}

Rows to_rows(const Result& result) {
  Rows rows;
  for (std::size_t r = 0; r < result.row_count(); ++r) {
    std::vector<Cell> row;
    for (std::size_t c = 0; c < result.column_count(); ++c) {
      Value v = result.value(r, c);
      if (std::holds_alternative<std::monostate>(v)) row.emplace_back(std::monostate{});
      else if (auto* b = std::get_if<bool>(&v)) row.emplace_back(static_cast<int64_t>(*b));
      else if (auto* i = std::get_if<int32_t>(&v)) row.emplace_back(static_cast<int64_t>(*i));
      else if (auto* l = std::get_if<int64_t>(&v)) row.emplace_back(*l);
      else if (auto* d = std::get_if<double>(&v)) row.emplace_back(*d);
      else if (auto* date = std::get_if<Date>(&v)) row.emplace_back(to_string(*date));
      else if (auto* decimal = std::get_if<Decimal>(&v)) row.emplace_back(decimal->to_double());
      else row.emplace_back(std::get<std::string>(v));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string to_string(const Rows& rows) {
  std::ostringstream out;
  out.precision(17);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      out << (c ? " | " : "");
      const Cell& cell = row[c];
      if (std::holds_alternative<std::monostate>(cell)) out << "NULL";
      else if (auto* i = std::get_if<int64_t>(&cell)) out << *i;
      else if (auto* d = std::get_if<double>(&cell)) out << *d << "d";
      else out << "'" << std::get<std::string>(cell) << "'";
    }
    out << "\n";
  }
  return out.str();
}

bool same_rows(const Rows& expected, const Rows& actual, const std::vector<std::size_t>& approximate) {
  if (expected.size() != actual.size()) return false;
  for (std::size_t r = 0; r < expected.size(); ++r) {
    if (expected[r].size() != actual[r].size()) return false;
    for (std::size_t c = 0; c < expected[r].size(); ++c) {
      const Cell& e = expected[r][c];
      const Cell& a = actual[r][c];
      bool loose = std::find(approximate.begin(), approximate.end(), c) != approximate.end();
      auto* ed = std::get_if<double>(&e);
      auto* ad = std::get_if<double>(&a);
      if (ed && ad && loose) {
        if (std::fabs(*ed - *ad) > 1e-12 * std::max(1.0, std::fabs(*ed))) return false;
        continue;
      }
      if (e != a) return false;
    }
  }
  return true;
}

uint64_t next_random(uint64_t& state) {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  uint64_t x = state;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

std::string fmt(const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  return buffer;
}

}  // namespace gpusql::test
