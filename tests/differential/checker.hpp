// Runs one generated query on gpusql and on an oracle -- SQLite, or DuckDB
// (duckdb_oracle.hpp) -- and decides: the same answer, a known and accepted
// difference, a feature gpusql does not have yet (skipped), or a mismatch --
// which is then shrunk to a small reproducer.
#pragma once

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/database_impl.hpp"
#include "gpusql/gpusql.hpp"
#include "tests/differential/data_generator.hpp"
#include "tests/differential/duckdb_oracle.hpp"
#include "tests/differential/oracle.hpp"
#include "tests/differential/query_generator.hpp"
#include "tests/test_support.hpp"

namespace gpusql::test::diff {

// Where SQLite's semantics knowingly differ from gpusql's, and how each is
// handled -- nowhere else is a difference allowed:
//  1. rowid is 0-based in gpusql (as DuckDB), 1-based in SQLite: SQLite's
//     text reads rowid - 1 (query_generator.hpp).
//  2. % on doubles is fmod in gpusql; SQLite truncates the operands to
//     integers: SQLite's text calls gpusql_fmod (oracle.hpp).
//  3. An INTEGER/BIGINT compared with a DOUBLE is compared as doubles in
//     gpusql (as DuckDB); SQLite compares exactly: SQLite's text casts the
//     integer side to REAL. Likewise a DOUBLE CASE casts every branch.
//  4. Floating SUM and AVG add in gpusql's fixed tree order, SQLite in row
//     order: these columns may differ by the summation error bound,
//     2 (n + 2) eps sum|x| (plus rounding of the quotient for AVG), with n and
//     sum|x| taken from SQLite. AVG over integers sums exactly in gpusql and
//     in doubles in SQLite: the same bound.
//  5. Integer overflow in + - * / and unary minus is an error in gpusql;
//     SQLite silently switches to REAL: gpusql's overflow error is accepted
//     when SQLite finds a REAL in some integer subexpression of the query.
//  6. Integer SUM overflow: gpusql sums exactly (as DuckDB) and fails only
//     when the total leaves int64; SQLite fails when a partial sum in its row
//     order does: SQLite's overflow is accepted when sum |x| reaches 2^63,
//     and gpusql's when SQLite's overflows too. AVG never overflows in
//     either.
//  7. NaN: SQLite turns it into NULL; a NaN from gpusql matches a NULL.
//     NaN comes only from infinities (inf - inf, 0 * inf, fmod(inf, x)), and
//     SQLite's NULL then behaves differently (skipped by aggregates, NULL in
//     comparisons): a different answer is accepted when some floating
//     subexpression of the query is infinite on some row.
//  8. BOOLEAN results are 0/1 integers in SQLite; compared as integers.
//  9. LIKE is case-sensitive in gpusql: SQLite runs with case_sensitive_like.
// 10. ORDER BY's default NULL placement differs: every generated ORDER BY
//     says NULLS FIRST or NULLS LAST.
// 11. Without ORDER BY rows are compared as multisets; with ORDER BY,
//     gpusql's rows must be in order on the keys; with LIMIT, under an order
//     over every output column, row by row.
// 12. DECIMALs are 64-bit in gpusql: a DECIMAL + - * % (or CASE) result, or
//     an operand rescaled into it, past 18 digits is an overflow error;
//     SQLite computes in REAL: gpusql's overflow is accepted when SQLite
//     finds such a value (unscaled, |x| 10^scale >= 10^18, less one part in
//     10^9 for REAL's rounding) in a DECIMAL subexpression on some row of its
//     tables (or group) (D10 of duckdb_oracle.hpp, with the same probe). A
//     DECIMAL SUM is 128-bit and never overflows.
// 13. DECIMAL arithmetic is exact in gpusql; SQLite computes it in REAL,
//     which rounds past 2^53: a different answer is accepted when some
//     DECIMAL + - * % (or CASE) has a value or operand of at least 2^53
//     unscaled (less one part in 10^9) on some row of its tables (or group),
//     the probe of difference 12.
// Known gpusql bugs, accepted until fixed (each has a tests/sql/pending/ file):
// none at present.
// Against DuckDB only the list at the top of duckdb_oracle.hpp applies (its
// D9 and the comparison rules are 4, 10 and 11 here, its D10 is 12); none of
// SQLite's categories 1-3 and 5-9 does.

enum class OracleKind { Sqlite, Duckdb };

inline const char* oracle_name(OracleKind kind) { return kind == OracleKind::Duckdb ? "DuckDB" : "SQLite"; }
inline Dialect dialect_of(OracleKind kind) { return kind == OracleKind::Duckdb ? Dialect::Duckdb : Dialect::Sqlite; }

enum class Verdict { Pass, Known, Skip, Mismatch };

struct Outcome {
  bool ok = true;
  ErrorKind kind = ErrorKind::Invalid;
  std::string error;    // what(): with the position and caret
  std::string message;  // "Kind Error: message", first line only
  Rows rows;
};

struct CheckResult {
  Verdict verdict = Verdict::Pass;
  std::string category;  // Known: which difference; Skip: what is not supported; Mismatch: what differs
  std::string detail;    // Mismatch: the two answers
  Outcome gpusql;
  OracleKind oracle_kind = OracleKind::Sqlite;
  OracleResult oracle;  // the oracle's answer
};

inline std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// The tables of one case loaded into gpusql (and, on the GPU, into a host
// database too, for a bit-for-bit comparison of the executors) and the
// oracle: SQLite, or DuckDB. `settings`: gpusql's (scans in chunks, loaded
// strings kept plain).
class Fixture {
 public:
  Fixture(const std::vector<TableData>& tables, ExecutorKind kind, OracleKind oracle = OracleKind::Sqlite,
          Settings settings = {})
      : oracle_kind_(oracle) {
    // Correlated subqueries are narrowed to the outer keys whatever their
    // size (by default only over 10 M rows), so the generator's small
    // tables check the narrowed plans against the oracle too.
    Settings narrowing = settings;
    narrowing.narrow_subquery_rows = 0;
    db_.emplace(Options{kind, narrowing});
    if (kind == ExecutorKind::Gpu) host_.emplace(Options{ExecutorKind::Host, narrowing});
    if (oracle == OracleKind::Sqlite) {
      sqlite_.emplace();
    } else {
      duckdb_.emplace();
      if (!duckdb_->available()) {
        load_error_ = duckdb_->unavailable_reason();
        return;
      }
    }
    for (const auto& t : tables) {
      std::string path = dir_.write(t.name + ".csv", to_csv(t));
      // DECIMAL and DATE columns: the table is declared with them and the
      // inferred types of the others (a first load tells), then COPY reads
      // the file into it: each value parsed as its column's type, exactly.
      const bool typed = std::any_of(t.intents.begin(), t.intents.end(),
                                     [](Intent intent) { return !intent_type(intent).empty(); });
      try {
        for (Database* db : {&*db_, host_ ? &*host_ : nullptr}) {
          if (!db) continue;
          db->load_csv(typed ? t.name + "_csv" : t.name, path);
          if (!typed) continue;
          Result inferred = db->query("SELECT * FROM " + t.name + "_csv WHERE FALSE");
          std::string columns;
          for (std::size_t c = 0; c < t.columns.size(); ++c) {
            const std::string type = intent_type(t.intents[c]);
            columns += (c ? ", " : "") + t.columns[c] + " " + (type.empty() ? std::string(type_name(inferred.column_type(c))) : type);
          }
          db->query("CREATE TABLE " + t.name + " (" + columns + ")");
          db->query("COPY " + t.name + " FROM '" + path + "' (HEADER true, DELIMITER ',')");
        }
      } catch (const Error& e) {
        load_error_ = "loading " + t.name + ": " + e.what();
        return;
      }
      // The column types from the catalog: a query reading every column
      // would encode the columns of plain strings, in one database only,
      // and the queries' LIKEs would never read them row by row.
      std::shared_ptr<const Table> loaded = db_->impl().catalog.find(t.name);
      std::vector<Type> types;
      std::vector<std::string> affinities, duckdb_types;
      for (std::size_t c = 0; c < loaded->columns.size(); ++c) {
        Type type = loaded->columns[c].type.id;
        types.push_back(type);
        affinities.push_back(type == Type::Double || type == Type::Real || type == Type::Decimal ? "REAL"
                             : type == Type::Varchar || type == Type::Date                          ? "TEXT"
                                                                                                    : "INTEGER");
        duckdb_types.push_back(type == Type::Decimal ? intent_type(t.intents[c]) : duckdb_type(type));
      }
      Rows rows;
      for (const auto& row : t.rows) {
        std::vector<Cell> cells;
        for (std::size_t c = 0; c < row.size(); ++c) cells.push_back(typed_value(row[c], types[c]));
        rows.push_back(std::move(cells));
      }
      if (sqlite_) sqlite_->create_table(t.name, t.columns, affinities, rows);
      if (duckdb_) {
        // The columns the generator does not use (types it has no VType
        // for) go in as text: no query reads them.
        for (std::size_t c = 0; c < types.size(); ++c)
          if (duckdb_types[c] == "VARCHAR" && types[c] != Type::Varchar)
            for (std::size_t r = 0; r < rows.size(); ++r)
              rows[r][c] = t.rows[r][c] ? Cell(*t.rows[r][c]) : Cell(std::monostate{});
        duckdb_->create_table(t.name, t.columns, duckdb_types, rows);
      }
      types_.push_back(std::move(types));
    }
  }

  // The DuckDB type of a gpusql column type: DuckDB spells each as gpusql
  // does (INTEGER stays 32-bit: D1 of duckdb_oracle.hpp); a DECIMAL's
  // precision and scale come from its intent (the caller's business).
  static std::string duckdb_type(Type type) { return std::string(type_name(type)); }

  bool ok() const { return load_error_.empty(); }
  const std::string& load_error() const { return load_error_; }
  Database& db() { return *db_; }
  Database* host() { return host_ ? &*host_ : nullptr; }
  OracleKind oracle_kind() const { return oracle_kind_; }
  Oracle& oracle() {
    if (!sqlite_) throw std::logic_error("this fixture's oracle is DuckDB");
    return *sqlite_;
  }
  DuckdbOracle& duckdb() {
    if (!duckdb_) throw std::logic_error("this fixture's oracle is SQLite");
    return *duckdb_;
  }
  // The oracle's answer to a query in its dialect.
  OracleResult oracle_query(const std::string& sql) { return sqlite_ ? sqlite_->query(sql) : duckdb_->query(sql); }
  const std::vector<std::vector<Type>>& types() const { return types_; }

 private:
  OracleKind oracle_kind_;
  TempDir dir_;
  std::optional<Database> db_;
  std::optional<Database> host_;
  std::optional<Oracle> sqlite_;
  std::optional<DuckdbOracle> duckdb_;
  std::vector<std::vector<Type>> types_;
  std::string load_error_;
};

inline std::optional<VType> vtype_of(Type type) {
  switch (type) {
    case Type::Integer:
    case Type::BigInt: return VType::Int;
    case Type::Double:
    case Type::Decimal: return VType::Double;
    case Type::Date: return VType::Date;
    case Type::Varchar: return VType::Text;
    default: return std::nullopt;  // types the generator does not use yet
  }
}

// Shortest round-trip text of a double, as gpusql prints it.
inline std::string double_string(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, d);
  return std::string(buffer, end);
}

inline std::string cell_string(const Cell& c, VType type) {
  if (std::holds_alternative<std::monostate>(c)) return "NULL";
  if (auto* i = std::get_if<int64_t>(&c)) return type == VType::Bool ? (*i ? "true" : "false") : std::to_string(*i);
  if (auto* d = std::get_if<double>(&c)) return double_string(*d);
  const std::string& s = std::get<std::string>(c);
  return s.empty() ? "(empty)" : s;
}

inline bool is_nan(const Cell& c) {
  auto* d = std::get_if<double>(&c);
  return d && std::isnan(*d);
}

// A total order on cells for sorting multisets: NULL (and NaN, which SQLite
// makes NULL) first, then numbers, then strings byte-wise.
inline int cell_compare(const Cell& a, const Cell& b) {
  auto rank = [](const Cell& c) {
    if (std::holds_alternative<std::monostate>(c) || is_nan(c)) return 0;
    return std::holds_alternative<std::string>(c) ? 2 : 1;
  };
  int ra = rank(a), rb = rank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  if (ra == 0) return 0;
  if (ra == 2) {
    int c = std::get<std::string>(a).compare(std::get<std::string>(b));
    return c < 0 ? -1 : c > 0;
  }
  auto* ia = std::get_if<int64_t>(&a);
  auto* ib = std::get_if<int64_t>(&b);
  if (ia && ib) return *ia < *ib ? -1 : *ia > *ib;
  long double x = ia ? static_cast<long double>(*ia) : std::get<double>(a);
  long double y = ib ? static_cast<long double>(*ib) : std::get<double>(b);
  return x < y ? -1 : x > y;
}

// The categories of difference 12 (SQLite) and D10 (DuckDB).
inline const std::string kDecimalPast64Sqlite = "DECIMAL arithmetic past 64 bits (SQLite computes in REAL)";
inline const std::string kDecimalPast64Duckdb = "DECIMAL arithmetic past 64 bits (DuckDB widens to 128 bits)";

class Checker {
 public:
  Checker(Fixture& fixture, const Query& q)
      : f_(fixture), q_(q), duckdb_(fixture.oracle_kind() == OracleKind::Duckdb) {}

  CheckResult run() {
    CheckResult r = run_once();
    if (r.verdict != Verdict::Mismatch || !q_.set_operation || (r.gpusql.ok && r.oracle.ok)) return r;
    // An error one side reports and the other does not comes from one
    // operand: the probes judge each operand as a query of its own.
    Query left = q_;
    left.set_operation.reset();
    Query right = left;
    right.where = q_.set_operation->where;
    for (const Query* part : {&left, &right}) {
      CheckResult p = Checker(f_, *part).run();
      if (p.verdict == Verdict::Known) {
        r.verdict = Verdict::Known;
        r.category = p.category + " (in an operand of a set operation)";
        return r;
      }
      // gpusql runs both operands; DuckDB skips the right one of INTERSECT
      // or EXCEPT when the left is empty, and stops at the first error.
      if (p.verdict == Verdict::Pass && !p.gpusql.ok && !r.gpusql.ok) {
        r.verdict = Verdict::Known;
        r.category = "an error of one operand of a set operation, alone in both (DuckDB may not evaluate it)";
        return r;
      }
    }
    return r;
  }

  CheckResult run_once() {
    CheckResult r;
    r.oracle_kind = f_.oracle_kind();
    if (!duckdb_ && q_.duckdb_only) {
      r.verdict = Verdict::Skip;
      r.category = "DuckDB only (DECIMAL, DATE, CAST or NULL shapes SQLite cannot judge)";
      return r;
    }
    if (duckdb_ && q_.sqlite_only) {
      r.verdict = Verdict::Skip;
      r.category = "SQLite only (row values, which DuckDB compares as STRUCTs: D28)";
      return r;
    }
    std::string sql = q_.sql(Dialect::Gpusql);
    r.gpusql = run_gpusql(f_.db(), sql, duckdb_);
    if (!r.gpusql.ok && r.gpusql.kind == ErrorKind::NotSupported) {
      r.verdict = Verdict::Skip;
      r.category = r.gpusql.message;
      return r;
    }
    if (Database* host = f_.host()) {
      Outcome h = run_gpusql(*host, sql, duckdb_);
      if (!same_bits(r.gpusql, h)) {
        r.verdict = Verdict::Mismatch;
        r.category = "the CUDA and host executors differ";
        r.detail = "gpu:\n" + describe(r.gpusql) + "host:\n" + describe(h);
        return r;
      }
    }
    if (duckdb_) return against_duckdb(r);
    r.oracle = f_.oracle().query(q_.sql(Dialect::Sqlite));
    const Outcome& g = r.gpusql;
    const OracleResult& s = r.oracle;
    auto mismatch = [&](const std::string& category) {
      r.verdict = Verdict::Mismatch;
      r.category = category;
      r.detail = "gpusql:\n" + describe(g) + "sqlite:\n" + describe(s);
      return r;
    };
    auto known = [&](const std::string& category) {
      r.verdict = Verdict::Known;
      r.category = category;
      return r;
    };
    bool sqlite_overflow = !s.ok && s.error.find("integer overflow") != std::string::npos;
    if (g.ok && s.ok) {
      if (auto difference = compare(g.rows, s.rows)) {
        if (infinity_possible()) return known("NaN from infinities (SQLite makes it NULL)");
        if (decimal_may_overflow(true)) return known("exact DECIMAL arithmetic past 2^53 (SQLite rounds in REAL)");
        mismatch("wrong result");
        r.detail = *difference + r.detail;
      }
      return r;
    }
    if (!g.ok && g.kind == ErrorKind::Execution && g.error.find("integer overflow in SUM") != std::string::npos) {
      // The total leaves int64, so SQLite's partial sums do too -- where it
      // evaluates them at all (not under LIMIT 0, say).
      if (sqlite_overflow || sum_may_overflow()) return known("integer SUM overflow (SQLite fails on a partial sum)");
      return mismatch("gpusql reports a SUM overflow SQLite does not see");
    }
    if (!g.ok && g.kind == ErrorKind::Execution && g.error.find("overflow") != std::string::npos) {
      if (g.error.find("integer overflow") != std::string::npos &&
          (arithmetic_may_overflow() || (sqlite_overflow && sum_may_overflow())))
        return known("integer arithmetic overflow (SQLite switches to REAL)");
      if (decimal_may_overflow()) return known(kDecimalPast64Sqlite);
      return mismatch("gpusql reports an overflow SQLite does not see");
    }
    if (!g.ok && !s.ok) return mismatch("both fail (a generator bug?)");
    if (!g.ok) return mismatch(std::string("gpusql fails: ") + std::string(error_kind_name(g.kind)));
    if (sqlite_overflow && sum_may_overflow()) return known("integer SUM overflow (order of partial sums)");
    return mismatch("SQLite fails");
  }

  // The DuckDB half of run(): the differences of duckdb_oracle.hpp's list.
  CheckResult& against_duckdb(CheckResult& r) {
    r.oracle = f_.duckdb().query(q_.sql(Dialect::Duckdb));
    const Outcome& g = r.gpusql;
    const OracleResult& s = r.oracle;
    auto mismatch = [&](const std::string& category) -> CheckResult& {
      r.verdict = Verdict::Mismatch;
      r.category = category;
      r.detail = "gpusql:\n" + describe(g) + "duckdb:\n" + describe(s);
      return r;
    };
    auto known = [&](const std::string& category) -> CheckResult& {
      r.verdict = Verdict::Known;
      r.category = category;
      return r;
    };
    bool gpusql_overflow = !g.ok && g.kind == ErrorKind::Execution && g.error.find("overflow") != std::string::npos;
    bool duckdb_overflows = !s.ok && duckdb_overflow(s.error);
    if (g.ok && s.ok) {
      if (auto difference = compare(g.rows, s.rows)) {
        if (nan_possible()) return known("NaN (IEEE in gpusql; DuckDB's NaN equals NaN, above every number)");
        if (decimal_to_double()) {
          ulps_ = 4;
          const bool close = !compare(g.rows, s.rows);
          ulps_ = 0;
          if (close) return known("DECIMAL to DOUBLE past 2^53, rounded differently in the last bits (D14)");
          if (decimal_modulo()) return known("DECIMAL to DOUBLE past 2^53, rounded differently, then % (D14)");
        }
        if (decimal_to_real()) {
          ulps_ = 1 << 30;  // a REAL's unit in the last place, in a DOUBLE's
          const bool close = !compare(g.rows, s.rows);
          ulps_ = 0;
          if (close) return known("a DECIMAL cast to REAL, which DuckDB divides in single precision (D22)");
        }
        if (real_to_decimal()) {
          real_decimals_ = true;
          const bool close = !compare(g.rows, s.rows);
          real_decimals_ = false;
          if (close) return known("a REAL cast to DECIMAL, which DuckDB scales in single precision (D17)");
        }
        if (std::optional<Query> narrow = with_integer_case_operands()) {
          OracleResult n = f_.duckdb().query(narrow->sql(Dialect::Duckdb));
          if (n.ok && !compare(g.rows, n.rows))
            return known("a CASE DuckDB types with fewer digits after the point, a BIGINT widened to 128 bits (D26)");
        }
        if (has_null_literal()) {
          loose_numbers_ = true;
          const bool same_values = !compare(g.rows, s.rows);
          loose_numbers_ = false;
          if (same_values) return known("the same values, typed otherwise: DuckDB folds a NULL operand first (D15)");
        }
        if (duckdb_filter_contradicts_itself())
          return known("DuckDB's WHERE drops rows its own projection of the condition keeps (D24)");
        mismatch("wrong result");
        r.detail = *difference + r.detail;
      }
      return r;
    }
    if (gpusql_overflow && duckdb_overflows) return r;  // both leave a type's range: the same answer
    // A correlated scalar subquery without an aggregate gives a row that
    // reaches it more than one row: DuckDB's error in both (D21).
    const bool gpusql_rows = !g.ok && g.error.find(kMoreThanOneRow) != std::string::npos;
    const bool duckdb_rows = !s.ok && s.error.find(kMoreThanOneRow) != std::string::npos;
    if (gpusql_rows && duckdb_rows) return r;
    if (gpusql_rows && s.ok && subquery_rows_repeat())
      return known("more than one row for a scalar subquery whose comparison DuckDB's optimizer drops (D21)");
    if (duckdb_rows && g.ok && subquery_rows_repeat(/*gpusql_too=*/true))
      return known("more than one row for a scalar subquery DuckDB joins before a condition gpusql applies first (D21)");
    if ((gpusql_rows || duckdb_rows) && !g.ok && !s.ok && subquery_rows_repeat())
      return known("both fail, one first on a scalar subquery's second row, the other on another error (D21)");
    // DuckDB too keeps a result of 64-bit DECIMALs a DECIMAL(18) and fails
    // to cast an operand that needs more digits into it: gpusql's overflow
    // past 18 digits is the same answer (D10).
    if (gpusql_overflow && !s.ok && s.error.rfind("Conversion Error: Casting value", 0) == 0 &&
        s.error.find("to type DECIMAL(18,") != std::string::npos)
      return r;
    bool gpusql_conversion = !g.ok && g.kind == ErrorKind::Conversion;
    if (gpusql_conversion && !s.ok && s.error.rfind("Conversion Error", 0) == 0) return r;  // both fail a CAST
    // Both fail, each on a different value: a CAST in one, an overflow in
    // the other (or a CAST DuckDB never reaches, in a CASE branch whose
    // other branches overflow first; an overflow in gpusql's rescaling to
    // compare where DuckDB's CAST fails first): the same answer when the
    // probes find some failing CAST or overflow.
    bool duckdb_conversion = !s.ok && s.error.rfind("Conversion Error", 0) == 0;
    if ((gpusql_conversion && duckdb_overflows) || (gpusql_overflow && duckdb_conversion))
      if (cast_may_fail() || duckdb_may_overflow() || decimal_may_overflow()) return r;
    if (gpusql_conversion && s.ok) {
      if (cast_may_fail()) return known("a CAST failing on rows or branches DuckDB does not evaluate");
      return mismatch("gpusql fails a CAST DuckDB does not");
    }
    // Sums are exact in both: a BIGINT SUM fails in gpusql exactly where
    // DuckDB's HUGEINT SUM fails its CAST to BIGINT (D5), handled above --
    // except in a group DuckDB drops before the CAST (HAVING) (D7).
    if (gpusql_overflow && g.error.find("integer overflow in SUM") != std::string::npos) {
      if (sum_leaves_bigint()) return known("integer SUM past BIGINT in a group DuckDB drops first");
      if (s.ok && q_.outer() && sum_leaves_bigint(true))
        return known("integer SUM past BIGINT that DuckDB wraps (SUM of a constant over an outer join, D13)");
      return mismatch("gpusql reports a SUM overflow DuckDB does not see");
    }
    if (gpusql_overflow) {
      if (duckdb_may_overflow()) return known("integer overflow on rows or branches DuckDB does not evaluate");
      if (decimal_may_overflow()) return known(kDecimalPast64Duckdb);
      return mismatch("gpusql reports an overflow DuckDB does not see");
    }
    if (!g.ok && !s.ok) return mismatch("both fail (a generator bug?)");
    if (!g.ok) return mismatch(std::string("gpusql fails: ") + std::string(error_kind_name(g.kind)));
    if (duckdb_overflows && duckdb_may_overflow(true))
      return known("integer overflow in a constant DuckDB folds (gpusql evaluates it per row)");
    if (duckdb_overflows && reassociated_constants_overflow())
      return known("integer overflow of two constants DuckDB brings together, (x + c1) + c2 (D16)");
    if (duckdb_overflows && reassociated_product_overflow())
      return known("integer overflow of constant factors DuckDB brings together, (c1 * x) * c2 (D16)");
    if (duckdb_conversion && cast_may_fail(true))
      return known("a failing CAST of a constant DuckDB folds (gpusql evaluates it per row)");
    if (duckdb_conversion && s.error.find("to type DECIMAL(38,") != std::string::npos && decimal_may_overflow())
      return known("a 128-bit DECIMAL DuckDB casts to a comparison's common type, out of its range (D20)");
    if (duckdb_overflows && q_.from.size() > 1 && duckdb_may_overflow())
      return known("integer overflow on rows DuckDB filters before the join (gpusql after)");
    if (duckdb_conversion && q_.from.size() > 1 && cast_may_fail())
      return known("a failing CAST on rows DuckDB filters before the join (gpusql after)");
    // A subquery in WHERE may join (IN, EXISTS, a correlated comparison),
    // and gpusql evaluates the rest of WHERE on the rows the join keeps.
    if (duckdb_overflows && subquery_in(q_.where) && duckdb_may_overflow())
      return known("integer overflow on rows a subquery's join removes first in gpusql");
    if (duckdb_conversion && subquery_in(q_.where) && cast_may_fail())
      return known("a failing CAST on rows a subquery's join removes first in gpusql");
    // And a HAVING with a subquery: DuckDB may compute the select list of
    // groups it then drops (D25).
    if (duckdb_overflows && subquery_in(q_.having) && duckdb_may_overflow())
      return known("integer overflow in a group a HAVING with a subquery drops (D25)");
    if (duckdb_conversion && subquery_in(q_.having) && cast_may_fail())
      return known("a failing CAST in a group a HAVING with a subquery drops (D25)");
    if (duckdb_overflows && q_.having && s.error.find("HUGEINT addition") != std::string::npos &&
        wide_sum_may_overflow())
      return known("a DECIMAL SUM past 128 bits in a group HAVING drops (DuckDB checks every group's, gpusql the "
                   "groups it returns: D23)");
    return mismatch(duckdb_overflows ? "DuckDB reports an overflow gpusql does not see" : "DuckDB fails");
  }

  static bool subquery_in(const std::optional<Node>& clause) {
    bool found = false;
    if (clause)
      collect(*clause, [&](const Node& n) {
        found = found || n.kind == Node::Kind::Scalar || n.kind == Node::Kind::InSelect ||
                n.kind == Node::Kind::Exists || n.kind == Node::Kind::Quantified;
      });
    return found;
  }

  // Text of an outcome: its rows (at most 40) or its error.
  static std::string describe(const Outcome& o) {
    if (!o.ok) return "  error: " + first_line(o.error) + "\n";
    return rows_text(o.rows);
  }
  static std::string describe(const OracleResult& o) {
    if (!o.ok) return "  error: " + o.error + "\n";
    return rows_text(o.rows);
  }

 private:
  Fixture& f_;
  const Query& q_;
  bool duckdb_;  // the oracle is DuckDB (else SQLite)
  std::map<std::size_t, double> tolerance_;
  int ulps_ = 0;  // > 0: DOUBLE cells may differ by that many units in the last place (D14)
  bool loose_numbers_ = false;  // a DECIMAL's text equals an integer or DOUBLE of the same value (D15)
  bool real_decimals_ = false;  // DECIMAL texts within 10^-6, relative (D17)
  std::size_t exact_columns_ = 0;

  static std::string rows_text(const Rows& rows) {
    std::string s;
    for (std::size_t r = 0; r < rows.size() && r < 40; ++r) s += "  " + first_line(to_string(Rows{rows[r]})) + "\n";
    if (rows.size() > 40) s += "  ... " + std::to_string(rows.size()) + " rows\n";
    if (rows.empty()) s += "  (no rows)\n";
    return s;
  }

  // DECIMAL values as their canonical text when the oracle is DuckDB (which
  // has them exactly), as doubles for SQLite (which holds them as REAL).
  // For SQLite the double nearest the exact value (its text through strtod:
  // Decimal::to_double divides a rounded unscaled value, two roundings).
  static Rows gpusql_rows(const Result& result, bool exact_decimals) {
    Rows rows = to_rows(result);
    for (std::size_t c = 0; c < result.column_count(); ++c) {
      if (result.column_type(c) != Type::Decimal) continue;
      for (std::size_t r = 0; r < rows.size(); ++r) {
        Value v = result.value(r, c);
        if (auto* decimal = std::get_if<Decimal>(&v))
          rows[r][c] = exact_decimals ? Cell(canonical_decimal(to_string(*decimal)))
                                      : Cell(std::strtod(to_string(*decimal).c_str(), nullptr));
      }
    }
    return rows;
  }

  static Outcome run_gpusql(Database& db, const std::string& sql, bool exact_decimals) {
    Outcome o;
    try {
      o.rows = gpusql_rows(db.query(sql), exact_decimals);
    } catch (const Error& e) {
      o.ok = false;
      o.kind = e.kind();
      o.error = e.what();
      o.message = first_line(std::string(error_kind_name(e.kind())) + ": " + e.message());
    }
    return o;
  }

  static bool same_bits(const Outcome& a, const Outcome& b) {
    if (a.ok != b.ok) return false;
    if (!a.ok) return a.kind == b.kind && first_line(a.error) == first_line(b.error);
    if (a.rows.size() != b.rows.size()) return false;
    for (std::size_t r = 0; r < a.rows.size(); ++r) {
      if (a.rows[r].size() != b.rows[r].size()) return false;
      for (std::size_t c = 0; c < a.rows[r].size(); ++c) {
        auto* x = std::get_if<double>(&a.rows[r][c]);
        auto* y = std::get_if<double>(&b.rows[r][c]);
        if (x && y ? std::memcmp(x, y, sizeof(double)) != 0 : a.rows[r][c] != b.rows[r][c]) return false;
      }
    }
    return true;
  }

  // The allowed difference in an approximate output column (difference 4).
  double tolerance(std::size_t column, double expected) {
    auto it = tolerance_.find(column);
    if (it == tolerance_.end()) {
      const Node& agg = q_.outputs[column].expr;
      Dialect d = dialect_of(f_.oracle_kind());
      std::string argument = render(agg.args[0], d);
      std::string abs_sum = duckdb_ ? "COALESCE(SUM(ABS(CAST(" + argument + " AS DOUBLE))), 0)"
                                    : "TOTAL(ABS(CAST(" + argument + " AS REAL)))";
      auto groups = [&](const std::string& where) {
        return "SELECT COUNT(" + argument + ") AS n, " + abs_sum + " AS s" + q_.from_sql(d) + where + q_.group_sql(d);
      };
      std::string inner = groups(q_.where_sql(d));
      if (q_.set_operation)  // the groups of both operands
        inner += " UNION ALL " +
                 groups(q_.set_operation->where ? " WHERE " + render(*q_.set_operation->where, d) : "");
      std::string sql = "SELECT MAX(n), MAX(s), MAX(CASE WHEN n > 0 THEN s / n END) FROM (" + inner + ")";
      OracleResult r = f_.oracle_query(sql);
      double bound = std::numeric_limits<double>::infinity();
      if (r.ok && !r.rows.empty()) {
        auto number = [](const Cell& c) {
          if (auto* i = std::get_if<int64_t>(&c)) return static_cast<double>(*i);
          if (auto* d = std::get_if<double>(&c)) return *d;
          return 0.0;
        };
        double n = number(r.rows[0][0]), sum = number(r.rows[0][1]), mean = number(r.rows[0][2]);
        bound = 2 * (n + 2) * std::numeric_limits<double>::epsilon() * (agg.text == "AVG" ? mean : sum);
      }
      it = tolerance_.emplace(column, bound).first;
    }
    return it->second + 4 * std::numeric_limits<double>::epsilon() * std::fabs(expected);
  }

  // Whether output `column` may differ by the summation bound. Against
  // DuckDB, AVG of integers and DECIMALs is exact: both divide the exact
  // total in the same 80-bit long double (core/aggregate_state.hpp), to the
  // bit (TPC-H Q1's avg_disc differed in its last digit before).
  bool approximate(std::size_t column) const {
    const Output& o = q_.outputs[column];
    const bool exact_average = duckdb_ && o.expr.kind == Node::Kind::Agg && o.expr.text == "AVG" &&
                               !o.expr.args.empty() &&
                               (o.expr.args[0].type == VType::Int || decimal_scale(o.expr.args[0]).has_value());
    return o.approximate && !exact_average;
  }

  bool cells_equal(const Cell& g, const Cell& s, std::size_t column) {
    if (duckdb_) {
      if (is_nan(g) && is_nan(s)) return true;
    } else if (is_nan(g) && std::holds_alternative<std::monostate>(s)) {
      return true;  // difference 7
    }
    auto* gd = std::get_if<double>(&g);
    auto* sd = std::get_if<double>(&s);
    if (gd && sd && approximate(column) && *gd != *sd)
      return std::fabs(*gd - *sd) <= tolerance(column, *sd);
    if (gd && sd && ulps_ > 0 && *gd != *sd)
      return std::fabs(*gd - *sd) <= ulps_ * std::numeric_limits<double>::epsilon() * std::fabs(*sd);
    if (real_decimals_ && g.index() == s.index() && g != s) {
      auto* gt = std::get_if<std::string>(&g);
      auto* st = std::get_if<std::string>(&s);
      if (gt && st) {
        char *gend = nullptr, *send = nullptr;
        const long double a = std::strtold(gt->c_str(), &gend), b = std::strtold(st->c_str(), &send);
        if (gend && *gend == '\0' && send && *send == '\0' && !gt->empty() && !st->empty())
          return std::fabs(a - b) <= 1e-6L * std::max(std::fabs(a), std::fabs(b));
      }
    }
    if (loose_numbers_ && g.index() != s.index()) {
      auto number = [](const Cell& c) -> std::optional<long double> {
        if (auto* i = std::get_if<int64_t>(&c)) return static_cast<long double>(*i);
        if (auto* d = std::get_if<double>(&c)) return static_cast<long double>(*d);
        if (auto* t = std::get_if<std::string>(&c)) {
          char* end = nullptr;
          const long double v = std::strtold(t->c_str(), &end);
          if (end && *end == '\0' && !t->empty()) return v;
        }
        return std::nullopt;
      };
      auto a = number(g), b = number(s);
      return a && b && *a == *b;
    }
    return g == s;
  }

  // D15: a NULL literal among the query's operands.
  bool has_null_literal() const {
    bool found = false;
    each_node([&](const Node& n) { found = found || (n.kind == Node::Kind::Literal && n.text == "NULL"); });
    return found;
  }

  // D16: DuckDB reassociates a chain of + and - -- (x + c1) + c2, and
  // (c1 + x) + (c2 + x) -- gathering its constants and folding them, so the
  // overflow of any two of them (with their signs) is an error on every row.
  bool reassociated_constants_overflow() const {
    auto constant = [](const Node& n) -> std::optional<__int128> {
      if (n.kind != Node::Kind::Literal || n.type != VType::Int) return std::nullopt;
      char* end = nullptr;
      const long long v = std::strtoll(n.text.c_str(), &end, 10);
      if (!end || *end != '\0' || n.text.empty()) return std::nullopt;
      return static_cast<__int128>(v);
    };
    auto additive = [](const Node& n) {
      return n.kind == Node::Kind::Arith && (n.text == "+" || n.text == "-") && n.args.size() == 2;
    };
    // The constants of the chain under n, each with its sign.
    std::function<void(const Node&, bool, std::vector<__int128>&)> gather = [&](const Node& n, bool negative,
                                                                                 std::vector<__int128>& out) {
      if (additive(n)) {
        gather(n.args[0], negative, out);
        gather(n.args[1], n.text == "-" ? !negative : negative, out);
      } else if (const auto c = constant(n)) {
        out.push_back(negative ? -*c : *c);
      }
    };
    bool found = false;
    each_node([&](const Node& n) {
      if (found || !additive(n)) return;
      std::vector<__int128> constants;
      gather(n, false, constants);
      for (std::size_t i = 0; i < constants.size() && !found; ++i)
        for (std::size_t j = i + 1; j < constants.size() && !found; ++j) {
          const __int128 total = constants[i] + constants[j];
          found = total > INT64_MAX || total < INT64_MIN;
        }
    });
    return found;
  }

  // D16 for products: DuckDB also gathers the constant factors of a chain
  // of *, folding what reads no column (DATE arithmetic included), so
  // (c1 * (x - x)) * 9223372036854775807 overflows though x - x is 0. Taken
  // where a chain holds an integer literal past 2^31 and another factor
  // that reads no column.
  bool reassociated_product_overflow() const {
    auto product = [](const Node& n) { return n.kind == Node::Kind::Arith && n.text == "*" && n.args.size() == 2; };
    std::function<bool(const Node&)> reads_column = [&](const Node& n) {
      if (n.kind == Node::Kind::Column || n.kind == Node::Kind::RowId || n.kind == Node::Kind::Agg) return true;
      for (const Node& a : n.args)
        if (reads_column(a)) return true;
      return false;
    };
    std::function<void(const Node&, std::vector<const Node*>&)> factors = [&](const Node& n,
                                                                          std::vector<const Node*>& out) {
      if (product(n)) {
        factors(n.args[0], out);
        factors(n.args[1], out);
      } else {
        out.push_back(&n);
      }
    };
    bool found = false;
    each_node([&](const Node& n) {
      if (found || !product(n)) return;
      std::vector<const Node*> parts;
      factors(n, parts);
      for (std::size_t i = 0; i < parts.size() && !found; ++i) {
        const Node& big = *parts[i];
        if (big.kind != Node::Kind::Literal || big.type != VType::Int) continue;
        const long long v = std::strtoll(big.text.c_str(), nullptr, 10);
        if (v > -(1LL << 31) && v < (1LL << 31)) continue;
        for (std::size_t j = 0; j < parts.size() && !found; ++j) found = j != i && !reads_column(*parts[j]);
      }
    });
    return found;
  }

  // D17 of duckdb_oracle.hpp: a CAST to DECIMAL with a CAST to REAL below it.
  bool real_to_decimal() const {
    bool found = false;
    each_node([&](const Node& n) {
      if (n.kind != Node::Kind::Cast || n.text.rfind("DECIMAL(", 0) != 0) return;
      collect(n, [&](const Node& below) { found = found || (below.kind == Node::Kind::Cast && below.text == "REAL"); });
    });
    return found;
  }

  // D26: the query with each integer column that is an operand of DECIMAL
  // arithmetic in a CASE value of DECIMALs cast to INTEGER -- DuckDB's
  // types then gpusql's (DECIMAL(18,s), not a 128-bit one) -- or nullopt
  // where there is none.
  std::optional<Query> with_integer_case_operands() const {
    using K = Node::Kind;
    Query narrow = q_;
    bool found = false;
    std::function<void(Node&)> visit = [&](Node& n) {
      for (Node& a : n.args) visit(a);
      if (n.kind != K::Case || decimal_scale(n).value_or(0) == 0) return;
      for (std::size_t i = 0; i < n.args.size(); ++i) {
        Node& v = n.args[i];
        if (!(i % 2 == 1 || i + 1 == n.args.size()) || v.kind != K::Arith || v.text == "/" || !decimal_scale(v))
          continue;
        for (Node& operand : v.args)
          if (operand.type == VType::Int && operand.kind != K::Literal && operand.kind != K::Cast) {
            Node cast;
            cast.kind = K::Cast;
            cast.type = VType::Int;
            cast.text = "INTEGER";
            cast.args.push_back(std::move(operand));
            operand = std::move(cast);
            found = true;
          }
      }
    };
    for (Node& i : narrow.items) visit(i);
    for (Output& o : narrow.outputs) visit(o.expr);
    for (Node& k : narrow.group_by) visit(k);
    for (auto* n : {&narrow.where, &narrow.having})
      if (*n) visit(**n);
    if (narrow.set_operation && narrow.set_operation->where) visit(*narrow.set_operation->where);
    if (!found) return std::nullopt;
    return narrow;
  }

  // D14 of duckdb_oracle.hpp: does the query make a DOUBLE of a DECIMAL
  // (arithmetic with a DOUBLE, a CAST, a comparison's common type)?
  // D22: a CAST(DECIMAL expression AS REAL).
  bool decimal_to_real() const {
    bool found = false;
    each_node([&](const Node& n) {
      found = found || (n.kind == Node::Kind::Cast && n.text == "REAL" && !n.args.empty() &&
                        decimal_scale(n.args[0]).has_value());
    });
    return found;
  }

  // D14 through %: a DOUBLE remainder of a DECIMAL expression, where a
  // last-bit difference of the conversion changes the remainder by whole units.
  bool decimal_modulo() const {
    bool found = false;
    each_node([&](const Node& n) {
      if (n.kind != Node::Kind::Arith || n.text != "%" || n.type != VType::Double) return;
      for (const Node& a : n.args) found = found || decimal_scale(a).has_value();
    });
    return found;
  }

  bool decimal_to_double() const {
    bool found = false;
    each_node([&](const Node& n) {
      if (n.type != VType::Double && n.kind != Node::Kind::Compare) return;
      for (const Node& a : n.args) found = found || decimal_scale(a).has_value();
    });
    return found;
  }

  bool rows_equal(const std::vector<Cell>& g, const std::vector<Cell>& s) {
    if (g.size() != s.size()) return false;
    for (std::size_t c = 0; c < g.size(); ++c)
      if (!cells_equal(g[c], s[c], c)) return false;
    return true;
  }

  // The column order for sorting multisets: exact columns first.
  std::vector<std::size_t> sort_columns(std::size_t width) {
    std::vector<std::size_t> order;
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t c = 0; c < width; ++c)
        if ((c < q_.outputs.size() && q_.outputs[c].approximate) == (pass == 1)) order.push_back(c);
      if (pass == 0) exact_columns_ = order.size();
    }
    return order;
  }

  // Two decimal numbers written as [-]digits[.digits], compared exactly
  // (-1, 0, 1); nullopt when either is written otherwise.
  static std::optional<int> compare_decimal_text(const std::string& a, const std::string& b) {
    struct Parts {
      bool negative = false;
      std::string whole, fraction;
    };
    auto parse = [](const std::string& s) -> std::optional<Parts> {
      Parts p;
      std::size_t i = 0;
      if (i < s.size() && s[i] == '-') p.negative = true, ++i;
      const std::size_t dot = s.find('.', i);
      p.whole = s.substr(i, dot == std::string::npos ? std::string::npos : dot - i);
      if (dot != std::string::npos) p.fraction = s.substr(dot + 1);
      if (p.whole.empty()) return std::nullopt;
      for (char ch : p.whole + p.fraction)
        if (ch < '0' || ch > '9') return std::nullopt;
      p.whole.erase(0, std::min(p.whole.find_first_not_of('0'), p.whole.size() - 1));
      while (!p.fraction.empty() && p.fraction.back() == '0') p.fraction.pop_back();
      if (p.whole == "0" && p.fraction.empty()) p.negative = false;
      return p;
    };
    std::optional<Parts> x = parse(a), y = parse(b);
    if (!x || !y) return std::nullopt;
    if (x->negative != y->negative) return x->negative ? -1 : 1;
    int magnitude = x->whole.size() != y->whole.size() ? (x->whole.size() < y->whole.size() ? -1 : 1) : 0;
    if (magnitude == 0) {
      const std::size_t width = std::max(x->fraction.size(), y->fraction.size());
      const std::string xd = x->whole + x->fraction + std::string(width - x->fraction.size(), '0');
      const std::string yd = y->whole + y->fraction + std::string(width - y->fraction.size(), '0');
      magnitude = xd < yd ? -1 : xd > yd;
    }
    return x->negative ? -magnitude : magnitude;
  }

  // Whether row a comes after row b on the ORDER BY keys.
  bool out_of_order(const std::vector<Cell>& a, const std::vector<Cell>& b) const {
    for (const OrderKey& k : q_.order_by) {
      const Cell& x = a[k.output];
      const Cell& y = b[k.output];
      bool xn = std::holds_alternative<std::monostate>(x), yn = std::holds_alternative<std::monostate>(y);
      if (xn != yn) return k.nulls_first ? yn : xn;
      int c = cell_compare(x, y);
      // DECIMAL values (DuckDB's checks hold them as text, 128-bit ones
      // gpusql's too) compare by value, digit for digit.
      auto* xs = std::get_if<std::string>(&x);
      auto* ys = std::get_if<std::string>(&y);
      if (xs && ys && q_.outputs[k.output].type != VType::Text && q_.outputs[k.output].type != VType::Date) {
        if (std::optional<int> exact = compare_decimal_text(*xs, *ys)) {
          c = *exact;
        } else if (q_.outputs[k.output].type == VType::Double) {
          long double xv = std::strtold(xs->c_str(), nullptr), yv = std::strtold(ys->c_str(), nullptr);
          c = xv < yv ? -1 : xv > yv;
        }
      }
      // DATEs as text ("10000-09-23" after "5993-06-26"): by year, then the
      // rest; "0012-01-01 (BC)" is year -11 (there is no year 0).
      if (xs && ys && q_.outputs[k.output].type == VType::Date) {
        auto split = [](const std::string& s) {
          std::size_t dash = s.find('-', 1);
          long long year = std::strtoll(s.substr(0, dash).c_str(), nullptr, 10);
          std::string rest = s.substr(dash);
          if (rest.size() > 5 && rest.compare(rest.size() - 5, 5, " (BC)") == 0) {
            year = 1 - year;
            rest.resize(rest.size() - 5);
          }
          return std::make_pair(year, rest);
        };
        auto xd = split(*xs), yd = split(*ys);
        c = xd < yd ? -1 : xd > yd;
      }
      if (c != 0) return k.descending ? c < 0 : c > 0;
    }
    return false;
  }

  std::optional<std::string> compare(Rows g, Rows s) {
    std::size_t width = q_.outputs.size();
    for (const auto& row : g)
      if (row.size() != width)
        return "gpusql returned " + std::to_string(row.size()) + " columns, expected " + std::to_string(width) + "\n";
    for (std::size_t r = 1; r < g.size() && !q_.order_by.empty(); ++r)
      if (out_of_order(g[r - 1], g[r])) return "gpusql's rows are not in ORDER BY order at row " + std::to_string(r) + "\n";
    if (q_.limit) {
      if (g.size() != s.size()) return "row counts differ\n";
      for (std::size_t r = 0; r < g.size(); ++r)
        if (!rows_equal(g[r], s[r])) return "row " + std::to_string(r) + " differs\n";
      return std::nullopt;
    }
    std::vector<std::size_t> order = sort_columns(width);
    auto less = [&](const std::vector<Cell>& a, const std::vector<Cell>& b) {
      for (std::size_t c : order) {
        if (c >= a.size() || c >= b.size()) return a.size() < b.size();
        int x = cell_compare(a[c], b[c]);
        if (x != 0) return x < 0;
      }
      return false;
    };
    std::sort(g.begin(), g.end(), less);
    std::sort(s.begin(), s.end(), less);
    if (g.size() != s.size())
      return "row counts differ: gpusql " + std::to_string(g.size()) + ", " + oracle() + " " + std::to_string(s.size()) +
             "\n";
    std::size_t r = 0;
    while (r < g.size() && rows_equal(g[r], s[r])) ++r;
    if (r == g.size()) return std::nullopt;
    // Approximate columns may sort differently on the two sides: match the
    // rows that agree on the exact columns with each other, within tolerance.
    if (order.size() > exact_columns_ && match_approximately(g, s)) return std::nullopt;
    return "first difference (sorted) at row " + std::to_string(r) + ": gpusql " + first_line(to_string(Rows{g[r]})) +
           ", " + oracle() + " " + first_line(to_string(Rows{s[r]})) + "\n";
  }

  std::string oracle() const { return duckdb_ ? "duckdb" : "sqlite"; }

  // Rows sorted on the exact columns first: within each run of equal exact
  // columns, every gpusql row must pair with its own oracle row.
  bool match_approximately(const Rows& g, const Rows& s) {
    auto same_exact = [&](const std::vector<Cell>& a, const std::vector<Cell>& b) {
      for (std::size_t c = 0; c < a.size() && c < q_.outputs.size(); ++c)
        if (!q_.outputs[c].approximate && cell_compare(a[c], b[c]) != 0) return false;
      return true;
    };
    for (std::size_t begin = 0; begin < g.size();) {
      std::size_t end = begin + 1;
      while (end < g.size() && same_exact(g[begin], g[end])) ++end;
      std::vector<bool> used(end - begin, false);
      for (std::size_t i = begin; i < end; ++i) {
        bool found = false;
        for (std::size_t j = begin; j < end && !found; ++j)
          if (!used[j - begin] && rows_equal(g[i], s[j])) used[j - begin] = found = true;
        if (!found) return false;
      }
      begin = end;
    }
    return true;
  }

  static void collect(const Node& n, const std::function<void(const Node&)>& visit) {
    visit(n);
    for (const auto& a : n.args) collect(a, visit);
  }

  void each_node(const std::function<void(const Node&)>& visit) const {
    for (const auto& i : q_.items) collect(i, visit);
    for (const auto& k : q_.group_by) collect(k, visit);
    for (const auto* n : {&q_.where, &q_.having, &q_.on, &q_.inner_on})
      if (*n) collect(**n, visit);
  }

  bool probe(const std::string& sql) {
    OracleResult r = f_.oracle().query(sql);
    if (!r.ok) return r.error.find("integer overflow") != std::string::npos;
    return !r.rows.empty();
  }

  // SELECT `select` over the rows `n` is evaluated on, LIMIT 1: every row of
  // the tables it reads, or every group of the query. In `select` and
  // `where`, $e names n's value.
  std::string over_rows(const Node& n, const std::string& select, const std::string& where, Dialect d) const {
    std::string e = render(n, d);
    bool grouped = contains_aggregate(n);
    auto with_e = [&](std::string s) {
      for (std::size_t at; (at = s.find("$e")) != std::string::npos;) s.replace(at, 2, grouped ? "v" : e);
      return s;
    };
    if (!grouped) return "SELECT " + with_e(select) + rows_of(n) + " WHERE " + with_e(where) + " LIMIT 1";
    return "SELECT " + with_e(select) + " FROM (SELECT " + e + " AS v" + q_.from_sql(d) + q_.where_sql(d) +
           q_.group_sql(d) + ") WHERE " + with_e(where) + " LIMIT 1";
  }

  // D7 of duckdb_oracle.hpp: does some integer (or DECIMAL) arithmetic
  // subexpression (a constant one, with constants_only) overflow on DuckDB
  // over all rows of its tables (aggregate-level ones: all groups)?
  bool duckdb_may_overflow(bool constants_only = false) {
    bool found = false;
    each_node([&](const Node& n) {
      if (found || (constants_only && !is_constant(n))) return;
      if (n.type != VType::Int && !(n.kind == Node::Kind::Arith && decimal_scale(n))) return;
      bool sum = n.kind == Node::Kind::Agg && n.text == "SUM" && n.type == VType::Int;
      if (n.kind != Node::Kind::Arith && n.kind != Node::Kind::Neg && !sum) return;
      OracleResult r = f_.duckdb().query(over_rows(n, "MAX($e)", "TRUE", Dialect::Duckdb));
      found = !r.ok && duckdb_overflow(r.error);
    });
    return found;
  }

  // D7 for CASTs: does some CAST fail on DuckDB over all rows of its tables
  // (aggregate-level ones: all groups)? With `constants_only`: some CAST of
  // a constant, which DuckDB folds while planning.
  bool cast_may_fail(bool constants_only = false) {
    bool found = false;
    each_node([&](const Node& n) {
      if (found || n.kind != Node::Kind::Cast || (constants_only && !is_constant(n))) return;
      OracleResult r = f_.duckdb().query(over_rows(n, "MIN($e)", "TRUE", Dialect::Duckdb));
      found = !r.ok && r.error.rfind("Conversion Error", 0) == 0;
    });
    return found;
  }

  static constexpr const char* kMoreThanOneRow = "More than one row returned by a subquery";

  // D21 of duckdb_oracle.hpp: does a scalar subquery without an aggregate
  // (or with GROUP BY) give some row of the query's FROM (before WHERE) more than one row, on
  // DuckDB (and, `gpusql_too`, does gpusql find it so as well)?
  bool subquery_rows_repeat(bool gpusql_too = false) {
    bool found = false;
    each_node([&](const Node& n) {
      // An aggregate's one row, unless GROUP BY makes a row per group.
      if (found || n.kind != Node::Kind::Scalar || n.inner.empty()) return;
      if (contains_aggregate(n.inner[0]) && n.tail.find(" GROUP BY ") == std::string::npos) return;
      auto probe = [&](Dialect d) { return "SELECT COUNT(" + render(n, d) + ")" + q_.from_sql(d); };
      OracleResult r = f_.duckdb().query(probe(Dialect::Duckdb));
      found = !r.ok && r.error.find(kMoreThanOneRow) != std::string::npos;
      if (found && gpusql_too) {
        Outcome g = run_gpusql(f_.db(), probe(Dialect::Gpusql), duckdb_);
        found = !g.ok && g.error.find(kMoreThanOneRow) != std::string::npos;
      }
    });
    return found;
  }

  // D8 of duckdb_oracle.hpp: is some floating subexpression NaN on some row?
  bool nan_possible() {
    bool found = false;
    each_node([&](const Node& n) {
      if (found || n.type != VType::Double || n.kind == Node::Kind::Literal || n.kind == Node::Kind::Column) return;
      OracleResult r = f_.duckdb().query(over_rows(n, "1", "isnan(CAST($e AS DOUBLE))", Dialect::Duckdb));
      found = r.ok && !r.rows.empty();
    });
    return found;
  }

  // FROM over every row of the tables `n` reads, unfiltered and unjoined:
  // gpusql may evaluate a predicate on one table before a join (or with
  // the other side empty), so each table counts on its own. The nullable
  // side of an outer join counts with one more row, all NULL (the row an
  // unmatched left row reads).
  std::string rows_of(const Node& n) const {
    std::vector<bool> used(q_.from.size(), false);
    collect(n, [&](const Node& c) {
      if (c.kind != Node::Kind::Column && c.kind != Node::Kind::RowId) return;
      for (std::size_t i = 0; i < q_.from.size(); ++i)
        if (c.qualifier.empty() || c.qualifier == q_.from[i].alias || c.qualifier == q_.from[i].table) used[i] = true;
    });
    std::string s;
    for (std::size_t i = 0; i < q_.from.size(); ++i) {
      if (!used[i]) continue;
      const TableRef& t = q_.from[i];
      std::string source = t.table;
      if (q_.nullable(i))
        source = "(SELECT x.* FROM (SELECT 1 AS n UNION ALL SELECT 2) AS z LEFT JOIN " + t.table + " AS x ON z.n = 1)";
      s += (s.empty() ? " FROM " : ", ") + source + (t.alias.empty() ? "" : " AS " + t.alias);
    }
    return s;
  }

  // Difference 5: does SQLite see a REAL where gpusql computes an integer?
  // Row-level expressions are probed over all rows of their tables (gpusql
  // evaluates a WHERE on every row, both sides of AND/OR and every CASE
  // branch), aggregate-level ones per group.
  bool arithmetic_may_overflow() {
    bool found = false;
    each_node([&](const Node& n) {
      if (found || n.type != VType::Int) return;
      if (n.kind != Node::Kind::Arith && n.kind != Node::Kind::Neg) return;
      std::string e = render(n, Dialect::Sqlite);
      if (!contains_aggregate(n))
        found = probe("SELECT 1" + rows_of(n) + " WHERE typeof(" + e + ") = 'real' LIMIT 1");
      else
        found = probe("SELECT 1 FROM (SELECT " + e + " AS v" + q_.from_sql(Dialect::Sqlite) + q_.where_sql(Dialect::Sqlite) +
                      q_.group_sql(Dialect::Sqlite) + ") WHERE typeof(v) = 'real' LIMIT 1");
    });
    return found;
  }

  // Difference 7: is some floating subexpression infinite on some row?
  bool infinity_possible() {
    bool found = false;
    each_node([&](const Node& n) {
      if (found || n.type != VType::Double || n.kind == Node::Kind::Literal || n.kind == Node::Kind::Column) return;
      std::string e = render(n, Dialect::Sqlite);
      if (!contains_aggregate(n))
        found = probe("SELECT 1" + rows_of(n) + " WHERE ABS(" + e + ") > 1.7976931348623157e308 LIMIT 1");
      else
        found = probe("SELECT 1 FROM (SELECT " + e + " AS v" + q_.from_sql(Dialect::Sqlite) + q_.where_sql(Dialect::Sqlite) +
                      q_.group_sql(Dialect::Sqlite) + ") WHERE ABS(v) > 1.7976931348623157e308 LIMIT 1");
    });
    return found;
  }

  // D5 and D7 against DuckDB: does some integer SUM's exact total leave the
  // BIGINT range in some group (HAVING or not)?
  // `in_double`: summed as DOUBLEs (D13: DuckDB's exact SUM of a constant
  // over a LEFT JOIN wraps), past 2^63 by more than rounding.
  bool sum_leaves_bigint(bool in_double = false) {
    bool found = false;
    each_node([&](const Node& n) {
      if (found || n.kind != Node::Kind::Agg || n.star || n.text != "SUM" || n.args[0].type != VType::Int) return;
      const Dialect d = Dialect::Duckdb;
      const std::string e = render(n.args[0], d);
      OracleResult r = f_.oracle_query("SELECT COUNT(*) FROM (SELECT SUM(" +
                                       (in_double ? "CAST(" + e + " AS DOUBLE)" : e) + ") AS s" + q_.from_sql(d) +
                                       q_.where_sql(d) + q_.group_sql(d) + ") WHERE ABS(s) > " +
                                       (in_double ? "9.2233720368548e18" : "9223372036854775807"));
      if (r.ok && !r.rows.empty())
        if (auto* c = std::get_if<int64_t>(&r.rows[0][0])) found = *c > 0;
    });
    return found;
  }

  // Difference 24: does DuckDB keep fewer rows of the FROM under a WHERE
  // (either operand's) than its own projection of the condition says are
  // TRUE? (A DuckDB bug: over a column whose values are all NULL, `b >= 'b'
  // OR 'abc' IS DISTINCT FROM b` keeps no row, though it is TRUE there.)
  bool duckdb_filter_contradicts_itself() {
    std::vector<const Node*> wheres;
    if (q_.where) wheres.push_back(&*q_.where);
    if (q_.set_operation && q_.set_operation->where) wheres.push_back(&*q_.set_operation->where);
    const Dialect d = Dialect::Duckdb;
    for (const Node* w : wheres) {
      const std::string condition = render(*w, d);
      OracleResult kept = f_.oracle_query("SELECT COUNT(*)" + q_.from_sql(d) + " WHERE " + condition);
      OracleResult projected =
          f_.oracle_query("SELECT COUNT(*) FROM (SELECT (" + condition + ") AS c" + q_.from_sql(d) + ") WHERE c IS TRUE");
      if (!kept.ok || !projected.ok || kept.rows.empty() || projected.rows.empty()) continue;
      if (kept.rows[0][0] != projected.rows[0][0]) return true;
    }
    return false;
  }

  // Difference 23: can a DECIMAL SUM's partial sums leave 128 bits
  // (|unscaled| past 1.7e38) in some group of the FROM, WHERE left out (a
  // set operation's operands differ there)? DuckDB checks each group's SUM
  // as it adds; gpusql a 128-bit SUM where it joins its parts, after
  // HAVING: in a group HAVING drops DuckDB fails, gpusql does not.
  bool wide_sum_may_overflow() {
    bool found = false;
    each_node([&](const Node& n) {
      if (found || n.kind != Node::Kind::Agg || n.star || n.text != "SUM") return;
      const std::optional<int> scale = decimal_scale(n.args[0]);
      if (!scale) return;
      const Dialect d = Dialect::Duckdb;
      OracleResult r = f_.oracle_query("SELECT MAX(s) FROM (SELECT SUM(ABS(CAST(" + render(n.args[0], d) +
                                       " AS DOUBLE))) AS s" + q_.from_sql(d) + q_.group_sql(d) + ")");
      if (r.ok && !r.rows.empty())
        if (auto* v = std::get_if<double>(&r.rows[0][0])) found = *v * std::pow(10.0, *scale) >= 1.7e38;
    });
    return found;
  }

  // Difference 6: can some integer SUM reach 2^63 in magnitude, so that
  // SQLite fails on a partial sum?
  bool sum_may_overflow() {
    bool found = false;
    each_node([&](const Node& n) {
      if (found || n.kind != Node::Kind::Agg || n.star || n.text != "SUM" || n.args[0].type != VType::Int) return;
      const double limit = 9.0e18;
      Dialect d = dialect_of(f_.oracle_kind());
      std::string e = render(n.args[0], d);
      std::string abs_sum = duckdb_ ? "SUM(ABS(CAST(" + e + " AS DOUBLE)))" : "TOTAL(ABS(CAST(" + e + " AS REAL)))";
      OracleResult r = f_.oracle_query("SELECT MAX(s) FROM (SELECT " + abs_sum + " AS s" + q_.from_sql(d) +
                                       q_.where_sql(d) + q_.group_sql(d) + ")");
      if (r.ok && !r.rows.empty())
        if (auto* d = std::get_if<double>(&r.rows[0][0])) found = *d >= limit;
    });
    return found;
  }

  // Difference 12 (D10 against DuckDB): does some DECIMAL + - * % (or a CASE
  // over DECIMAL branches) reach 10^18 unscaled on some row of its tables
  // (aggregate-level ones: some group): its value, or an operand rescaled to
  // its scale (+ - %, CASE) or at its own scale (*)? A probe DuckDB itself
  // fails with an overflow counts too (its own 18-digit check on a row the
  // query does not evaluate). SQLite computes in REAL: there the bound is
  // 10^18 less one part in 10^9.
  // With `real_precision` (SQLite only): does such a value or operand reach
  // 2^53 unscaled, past which REAL may round it (difference 13)?
  static std::string with_try_casts(const std::string& sql) {
    std::string out;
    for (std::size_t i = 0; i < sql.size(); ++i) {
      if (sql.compare(i, 5, "CAST(") == 0 && (i < 4 || sql.compare(i - 4, 4, "TRY_") != 0)) out += "TRY_";
      out += sql[i];
    }
    return out;
  }

  bool decimal_may_overflow(bool real_precision = false) {
    using K = Node::Kind;
    Dialect d = dialect_of(f_.oracle_kind());
    bool found = false;
    each_node([&](const Node& n) {
      if (found || !((n.kind == K::Arith && n.text != "/") || n.kind == K::Case)) return;
      auto scale = decimal_scale(n);
      if (!scale) return;
      std::vector<std::pair<const Node*, int>> values = {{&n, *scale}};
      if (n.kind == K::Case)
        for (const Node* v : case_values(n)) values.push_back({v, *scale});
      else
        for (const Node& a : n.args) values.push_back({&a, n.text == "*" ? decimal_scale(a).value_or(0) : *scale});
      bool grouped = contains_aggregate(n);
      std::string condition, select;
      for (std::size_t i = 0; i < values.size(); ++i) {
        auto [v, s] = values[i];
        if (s > 18) continue;
        std::string e = grouped ? "v" + std::to_string(i) : render(*v, d);
        std::string bound = real_precision       ? double_string(0x1p53 / std::pow(10.0, s) * (1 - 1e-9))
                            : d == Dialect::Sqlite ? "9.99999999e" + std::to_string(17 - s)
                                                   : "1" + std::string(18 - s, '0');
        condition += (condition.empty() ? "" : " OR ") + ("(" + e + " >= " + bound + " OR " + e + " <= -" + bound + ")");
        select += (select.empty() ? "" : ", ") + render(*v, d) + " AS v" + std::to_string(i);
      }
      if (condition.empty()) return;
      std::string sql = grouped ? "SELECT 1 FROM (SELECT " + select + q_.from_sql(d) + q_.where_sql(d) + q_.group_sql(d) +
                                      ") WHERE " + condition + " LIMIT 1"
                                : "SELECT 1" + rows_of(n) + " WHERE " + condition + " LIMIT 1";
      // A CAST that fails on some row must not blind the probe to the other
      // operands: in DuckDB it becomes a TRY_CAST (NULL where it fails).
      if (duckdb_) sql = with_try_casts(sql);
      OracleResult r = f_.oracle_query(sql);
      found = r.ok ? !r.rows.empty() : duckdb_ && duckdb_overflow(r.error);
    });
    return found;
  }
};

// ---------------------------------------------------------------------------
// Shrinking: smaller data and a simpler query that fail the same way.

struct Case {
  std::vector<TableData> tables;
  Query query;
};

inline void refresh_outputs(Query& q) {
  if (q.star) return;
  q.outputs.clear();
  for (const auto& item : q.items) q.outputs.push_back({item.type, QueryGenerator::approximate(item), item});
}

inline std::vector<Node*> nodes_of(Query& q) {
  std::vector<Node*> out;
  std::function<void(Node&)> walk = [&](Node& n) {
    out.push_back(&n);
    for (auto& a : n.args) walk(a);
  };
  for (auto& i : q.items) walk(i);
  for (auto* n : {&q.where, &q.having, &q.on, &q.inner_on})
    if (*n) walk(**n);
  if (q.set_operation && q.set_operation->where) walk(*q.set_operation->where);
  return out;
}

inline std::vector<Query> simpler_queries(const Query& q) {
  std::vector<Query> out;
  auto with = [&](auto change) {
    Query c = q;
    change(c);
    out.push_back(std::move(c));
  };
  if (q.limit || q.offset) with([](Query& c) { c.limit.reset(), c.offset.reset(); });
  if (!q.order_by.empty()) with([](Query& c) { c.order_by.clear(), c.limit.reset(), c.offset.reset(); });
  if (q.distinct) with([](Query& c) { c.distinct = false; });
  if (q.set_operation) with([](Query& c) { c.set_operation.reset(); });
  if (q.having) with([](Query& c) { c.having.reset(); });
  if (q.where) {
    with([](Query& c) { c.where.reset(); });
    for (const auto& child : q.where->args)
      if (child.type == VType::Bool) with([&](Query& c) { c.where = child; });
  }
  if (!q.star && q.items.size() > 1)
    for (std::size_t i = 0; i < q.items.size(); ++i)
      with([&](Query& c) {
        c.items.erase(c.items.begin() + static_cast<std::ptrdiff_t>(i));
        std::vector<OrderKey> keys;
        for (OrderKey k : c.order_by)
          if (k.output != i) keys.push_back({k.output > i ? k.output - 1 : k.output, k.descending, k.nulls_first});
        c.order_by = keys;
        refresh_outputs(c);
      });
  Query probe = q;
  std::size_t count = nodes_of(probe).size();
  for (std::size_t i = 0; i < count; ++i) {
    Node node = *nodes_of(probe)[i];
    if (node.kind == Node::Kind::Agg) continue;
    for (const auto& child : node.args)
      if (child.type == node.type)
        with([&](Query& c) {
          *nodes_of(c)[i] = child;
          refresh_outputs(c);
        });
    if (node.kind != Node::Kind::Literal && node.kind != Node::Kind::Column) {
      static const std::map<VType, std::string> simple = {
          {VType::Int, "1"}, {VType::Double, "0.5"}, {VType::Bool, "TRUE"}, {VType::Text, "'a'"},
          {VType::Date, "DATE '2000-01-01'"}};
      with([&](Query& c) {
        *nodes_of(c)[i] = literal(node.type, simple.at(node.type));
        refresh_outputs(c);
      });
    }
  }
  return out;
}

// Columns the query names (star: all).
inline bool references(const Query& q, const std::string& column) {
  if (q.star) return true;
  bool found = false;
  Query copy = q;
  std::function<void(const Node&)> walk = [&](const Node& n) {
    if (n.kind == Node::Kind::Column && n.text == column) found = true;
    for (const auto& a : n.args) walk(a);
    for (const auto& a : n.inner) walk(a);  // a subquery's
  };
  for (Node* n : nodes_of(copy)) walk(*n);
  for (const auto& k : q.group_by) walk(k);
  return found;
}

class Shrinker {
 public:
  Shrinker(ExecutorKind kind, std::string category, std::chrono::seconds budget,
           OracleKind oracle = OracleKind::Sqlite, Settings settings = {})
      : kind_(kind),
        oracle_(oracle),
        settings_(settings),
        category_(std::move(category)),
        deadline_(std::chrono::steady_clock::now() + budget) {}

  Case shrink(Case c) {
    original_types_ = types_of(c);
    // Tables the query does not read go first.
    std::vector<TableData> used;
    for (const auto& t : c.tables)
      if (std::any_of(c.query.from.begin(), c.query.from.end(), [&](const TableRef& r) { return r.table == t.name; }))
        used.push_back(t);
    Case candidate{used, c.query};
    if (used.size() < c.tables.size() && fails(candidate)) c = candidate;
    for (bool progress = true; progress && !expired();) {
      bool query = shrink_query(c), rows = shrink_rows(c), columns = shrink_columns(c);
      progress = query || rows || columns;
    }
    return c;
  }

  std::size_t attempts() const { return attempts_; }

 private:
  ExecutorKind kind_;
  OracleKind oracle_;
  Settings settings_;
  std::string category_;
  std::chrono::steady_clock::time_point deadline_;
  std::map<std::string, Type> original_types_;
  std::size_t attempts_ = 0;

  bool expired() const { return std::chrono::steady_clock::now() > deadline_ || attempts_ > 3000; }

  std::map<std::string, Type> types_of(const Case& c) {
    std::map<std::string, Type> out;
    Fixture f(c.tables, kind_, oracle_, settings_);
    for (std::size_t t = 0; t < c.tables.size() && t < f.types().size(); ++t)
      for (std::size_t col = 0; col < c.tables[t].columns.size(); ++col)
        out[c.tables[t].name + "." + c.tables[t].columns[col]] = f.types()[t][col];
    return out;
  }

  bool fails(const Case& c) {
    ++attempts_;
    Fixture f(c.tables, kind_, oracle_, settings_);
    if (!f.ok()) return false;
    // The same column types, or the query would mean something else.
    for (std::size_t t = 0; t < c.tables.size(); ++t)
      for (std::size_t col = 0; col < c.tables[t].columns.size(); ++col)
        if (original_types_[c.tables[t].name + "." + c.tables[t].columns[col]] != f.types()[t][col]) return false;
    CheckResult r = Checker(f, c.query).run();
    return r.verdict == Verdict::Mismatch && r.category == category_;
  }

  bool shrink_query(Case& c) {
    bool progress = false;
    for (bool again = true; again && !expired();) {
      again = false;
      for (Query& q : simpler_queries(c.query)) {
        if (expired()) break;
        Case candidate{c.tables, q};
        if (fails(candidate)) {
          c = candidate;
          again = progress = true;
          break;
        }
      }
    }
    return progress;
  }

  bool shrink_rows(Case& c) {
    bool progress = false;
    for (std::size_t t = 0; t < c.tables.size(); ++t) {
      for (std::size_t chunk = std::max<std::size_t>(1, c.tables[t].rows.size() / 2); chunk >= 1 && !expired();
           chunk /= 2) {
        for (std::size_t start = 0; start < c.tables[t].rows.size() && !expired();) {
          Case candidate = c;
          auto& rows = candidate.tables[t].rows;
          rows.erase(rows.begin() + static_cast<std::ptrdiff_t>(start),
                     rows.begin() + static_cast<std::ptrdiff_t>(std::min(rows.size(), start + chunk)));
          if (fails(candidate)) {
            c = std::move(candidate);
            progress = true;
          } else {
            start += chunk;
          }
        }
        if (chunk == 1) break;
      }
    }
    return progress;
  }

  bool shrink_columns(Case& c) {
    bool progress = false;
    for (std::size_t t = 0; t < c.tables.size(); ++t)
      for (std::size_t col = 0; col < c.tables[t].columns.size() && c.tables[t].columns.size() > 1 && !expired();) {
        if (references(c.query, c.tables[t].columns[col])) {
          ++col;
          continue;
        }
        Case candidate = c;
        TableData& table = candidate.tables[t];
        table.columns.erase(table.columns.begin() + static_cast<std::ptrdiff_t>(col));
        table.intents.erase(table.intents.begin() + static_cast<std::ptrdiff_t>(col));
        bool blank_line = false;
        for (auto& row : table.rows) {
          row.erase(row.begin() + static_cast<std::ptrdiff_t>(col));
          blank_line = blank_line || (row.size() == 1 && !row[0]);
        }
        if (!blank_line && fails(candidate)) {
          c = std::move(candidate);
          progress = true;
        } else {
          ++col;
        }
      }
    return progress;
  }
};

// A .test file that reproduces a case, with the oracle's answer as the expected one.
inline std::string reproducer(const Case& c, const CheckResult& r) {
  const std::string oracle = oracle_name(r.oracle_kind);
  std::string out;
  for (const auto& t : c.tables) {
    out += "load " + t.name + "\n";
    std::string csv = to_csv(t);
    out += csv + "\n";
  }
  const Query& q = c.query;
  out += "# " + oracle + " ran: " + q.sql(dialect_of(r.oracle_kind)) + "\n";
  if (!r.oracle.ok) {
    out += "# " + oracle + ": error: " + first_line(r.oracle.error) + "\n";
    out += "statement error\n" + q.sql(Dialect::Gpusql) + "\n";
    return out;
  }
  std::string letters;
  for (const auto& o : q.outputs) letters += o.type == VType::Double ? 'R' : o.type == VType::Text ? 'T' : 'I';
  out += "query " + letters + (q.order_by.empty() ? " rowsort" : " nosort") + "\n" + q.sql(Dialect::Gpusql) + "\n----\n";
  std::vector<std::string> lines;
  for (const auto& row : r.oracle.rows) {
    std::string line;
    for (std::size_t col = 0; col < row.size(); ++col)
      line += (col ? "\t" : "") + cell_string(row[col], col < q.outputs.size() ? q.outputs[col].type : VType::Int);
    lines.push_back(line);
  }
  if (q.order_by.empty()) std::sort(lines.begin(), lines.end());
  for (const auto& l : lines) out += l + "\n";
  return out;
}

}  // namespace gpusql::test::diff
