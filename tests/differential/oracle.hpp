// SQLite as the differential oracle: typed inserts, errors as values, and the
// few functions that let SQLite's text of a query follow gpusql's semantics
// where the two knowingly differ (see known_differences in checker.hpp).
#pragma once

#include <sqlite3.h>

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/test_support.hpp"

namespace gpusql::test::diff {

// A value to insert: NULL, an integer, a double or text.
using Cell = gpusql::test::Cell;
using Rows = gpusql::test::Rows;

struct OracleResult {
  bool ok = true;
  std::string error;  // when !ok
  Rows rows;
};

class Oracle {
 public:
  Oracle() {
    if (sqlite3_open(":memory:", &db_) != SQLITE_OK) throw std::runtime_error("sqlite3_open failed");
    // gpusql's % on doubles is fmod, with NULL for a zero divisor; SQLite's
    // own % would truncate both operands to integers.
    sqlite3_create_function(db_, "gpusql_fmod", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr, &fmod_function,
                            nullptr, nullptr);
    // LIKE is case-sensitive in gpusql, as in DuckDB and PostgreSQL.
    exec("PRAGMA case_sensitive_like = ON");
  }
  ~Oracle() { sqlite3_close(db_); }
  Oracle(const Oracle&) = delete;
  Oracle& operator=(const Oracle&) = delete;

  void exec(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
      std::string message = error ? error : "?";
      sqlite3_free(error);
      throw std::runtime_error("sqlite: " + message + " in: " + sql);
    }
  }

  // CREATE TABLE name (columns...) with the given affinities, then the rows.
  void create_table(const std::string& name, const std::vector<std::string>& columns,
                    const std::vector<std::string>& affinities, const Rows& rows) {
    std::string create = "CREATE TABLE " + name + " (";
    std::string placeholders;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      create += (c ? ", " : "") + columns[c] + " " + affinities[c];
      placeholders += c ? ",?" : "?";
    }
    exec(create + ")");
    exec("BEGIN");
    sqlite3_stmt* insert = nullptr;
    if (sqlite3_prepare_v2(db_, ("INSERT INTO " + name + " VALUES (" + placeholders + ")").c_str(), -1, &insert,
                           nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string("sqlite prepare insert: ") + sqlite3_errmsg(db_));
    for (const auto& row : rows) {
      sqlite3_reset(insert);
      for (std::size_t c = 0; c < row.size(); ++c) {
        int at = static_cast<int>(c + 1);
        const Cell& v = row[c];
        if (std::holds_alternative<std::monostate>(v)) sqlite3_bind_null(insert, at);
        else if (auto* i = std::get_if<int64_t>(&v)) sqlite3_bind_int64(insert, at, *i);
        else if (auto* d = std::get_if<double>(&v)) sqlite3_bind_double(insert, at, *d);
        else {
          const std::string& s = std::get<std::string>(v);
          sqlite3_bind_text(insert, at, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
        }
      }
      if (sqlite3_step(insert) != SQLITE_DONE) throw std::runtime_error(std::string("sqlite insert: ") + sqlite3_errmsg(db_));
    }
    sqlite3_finalize(insert);
    exec("COMMIT");
  }

  OracleResult query(const std::string& sql) const {
    OracleResult result;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      result.ok = false;
      result.error = sqlite3_errmsg(db_);
      return result;
    }
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      std::vector<Cell> row;
      for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
        switch (sqlite3_column_type(stmt, c)) {
          case SQLITE_NULL: row.emplace_back(std::monostate{}); break;
          case SQLITE_INTEGER: row.emplace_back(static_cast<int64_t>(sqlite3_column_int64(stmt, c))); break;
          case SQLITE_FLOAT: row.emplace_back(sqlite3_column_double(stmt, c)); break;
          default: {
            const char* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
            row.emplace_back(std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt, c))));
          }
        }
      }
      result.rows.push_back(std::move(row));
    }
    if (rc != SQLITE_DONE) {
      result.ok = false;
      result.error = sqlite3_errmsg(db_);
      result.rows.clear();
    }
    sqlite3_finalize(stmt);
    return result;
  }

 private:
  ::sqlite3* db_ = nullptr;

  static void fmod_function(sqlite3_context* context, int, sqlite3_value** argv) {
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
      sqlite3_result_null(context);
      return;
    }
    double a = sqlite3_value_double(argv[0]), b = sqlite3_value_double(argv[1]);
    if (b == 0.0) sqlite3_result_null(context);
    else sqlite3_result_double(context, std::fmod(a, b));
  }
};

}  // namespace gpusql::test::diff
