// DuckDB as the second differential oracle. gpusql follows DuckDB's SQL
// wherever it can, so this oracle needs far fewer allowances than SQLite.
// The library is loaded at run time (dlopen): scripts/install-deps.sh puts
// DuckDB 1.5.6's libduckdb.so into .deps/duckdb/ (GPUSQL_DUCKDB_LIBRARY, set
// by tests/CMakeLists.txt; the environment variable of that name overrides
// it). Without it the [duckdb] tests skip with a warning. No header ships with
// the npm package, so the few C API functions used are declared here.
//
// Every difference from DuckDB that the project keeps on purpose, and how the
// DuckDB dialect (query_generator.hpp) or the checker (checker.hpp) papers
// over it -- nowhere else is a difference allowed:
//  D1. Integer arithmetic (+ - * / % and unary minus) is 64-bit in gpusql:
//      INTEGER operands give BIGINT. DuckDB computes INTEGER op INTEGER in 32
//      bits (an overflow error past 2^31): the DuckDB text casts the integer
//      operands to BIGINT.
//  D2. Integer / truncates toward zero in gpusql (as C and SQLite); DuckDB's /
//      on integers is DOUBLE division: the DuckDB text writes //, which
//      truncates toward zero, gives NULL for a zero divisor and an overflow
//      error for INT64_MIN // -1, as gpusql's / does.
//  D3. x % -1 is 0 in gpusql for every x; DuckDB reports an overflow for
//      INT64_MIN % -1: the DuckDB text calls the macro gpusql_mod (below),
//      CASE WHEN b = -1 THEN a * 0 ELSE a % b END.
//  D4. A zero divisor gives NULL for / and % on every type in gpusql (as
//      SQLite, and DuckDB before 1.1); DuckDB 1.5 gives +-inf or NaN for
//      DOUBLE operands: the oracle runs SET ieee_floating_point_ops = false,
//      DuckDB's setting for exactly that. (Overflow to +-inf and NaN from
//      infinities stay IEEE in both.)
//  D5. SUM over integers is BIGINT in gpusql, an error when the total leaves
//      the BIGINT range; DuckDB's is HUGEINT (128 bits): the DuckDB text reads
//      CAST(SUM(x) AS BIGINT), which fails where gpusql's SUM does -- but
//      only in the groups it keeps, where gpusql's fails in every group, a
//      HAVING or not: gpusql's SUM overflow is accepted when some group's
//      exact total leaves the BIGINT range.
//  D6. (none: gpusql's partial sums were checked for overflow; they are
//      exact now, as DuckDB's.)
//  D7. gpusql evaluates a WHERE on every row, both sides of AND/OR and every
//      CASE branch, so an integer overflow there is an error even on rows or
//      branches DuckDB never evaluates: gpusql's overflow is accepted when
//      some integer subexpression overflows on DuckDB over all rows of its
//      tables (or all groups). Both engines failing with an overflow is the
//      same answer. Conversely, DuckDB may push a filter below a join and
//      evaluate it on rows that no pair keeps, where gpusql evaluates it on
//      the joined pairs only: DuckDB's overflow is accepted in a join query
//      when the same probe finds an overflowing integer subexpression. And
//      DuckDB folds constant subexpressions while planning, so an overflow
//      in one is an error even where no row reaches it (an empty table, a
//      projection of filtered-out rows); gpusql evaluates it per row: DuckDB's
//      overflow is accepted when a constant integer subexpression overflows.
//  D8. NaN compares unequal to everything in gpusql (IEEE, as SQLite); DuckDB
//      holds NaN equal to NaN and above every number (in comparisons, MIN/MAX,
//      GROUP BY, DISTINCT): a different answer is accepted when some floating
//      subexpression is NaN on some row (NaN comes only from infinities:
//      inf - inf, 0 * inf, fmod(inf, x), inf / inf).
//  D9. Floating SUM and AVG add in gpusql's fixed tree order, DuckDB in its
//      own: these columns may differ by the summation error bound (difference
//      4 of checker.hpp, with n and sum |x| taken from DuckDB).
// D10. DECIMAL columns, literals and CASTs of at most 18 digits are 64-bit
//      in gpusql; wider ones (to 38 digits: the generator's DECIMAL(38,2)
//      columns), a SUM (DECIMAL(38,s)) and arithmetic beside them are
//      128-bit, as in DuckDB. A 64-bit DECIMAL + - * % result, or an operand
//      rescaled to its scale (an INTEGER or BIGINT operand joins as
//      DECIMAL(10,0) or (19,0)), or a CASE branch rescaled to the CASE's
//      scale, that needs more than 18 digits or leaves int64 is an overflow
//      error. DuckDB widens to 128-bit DECIMAL where an operand has more than
//      18 digits (a BIGINT) and answers. gpusql's overflow is accepted when some
//      such subexpression (DECIMAL in gpusql's typing: decimal_scale in
//      query_generator.hpp) has, on some row of its tables over all rows (or
//      some group, as D7's probe), a value or operand whose unscaled
//      magnitude |x| 10^scale reaches 10^18 -- or DuckDB's own 18-digit
//      check fails on the probe. D7 covers DECIMAL arithmetic too
//      (DuckDB's overflow in a constant it folds, or below a join). Where
//      DuckDB itself keeps a result of 64-bit DECIMALs a DECIMAL(18) and so
//      fails to cast an operand into it ("Casting value ... to type
//      DECIMAL(18,s)"), gpusql's overflow is the same answer.
// D11. DATE + INTERVAL and DATE - INTERVAL are a DATE in gpusql; DuckDB makes
//      them a TIMESTAMP: the DuckDB text reads CAST((d + INTERVAL ...) AS
//      DATE) (query_generator.hpp).
// D12. Not gpusql's difference but DuckDB 1.5's bug (duckdb#23979): a
//      correlated EXISTS whose subquery compares inner <> outer is TRUE in
//      DuckDB for a NULL outer value (no row has c <> NULL: FALSE in SQLite
//      and the standard). The DuckDB text reads ((inner <> outer) IS TRUE),
//      which DuckDB answers right (query_generator.hpp).
// D13. DuckDB 1.5.6's bug: SUM(9223372036854775807) over a LEFT JOIN whose ON
//      leaves the right side empty wraps (2 rows give -2, not
//      18446744073709551614, so the CAST to BIGINT of D5 does not fail);
//      gpusql reports the overflow. Accepted where the sum in DOUBLE passes
//      2^63 (checker.hpp).
// D14. A DECIMAL becomes a DOUBLE as its unscaled integer (in DOUBLE) divided
//      by 10^scale in gpusql, two roundings when the integer passes 2^53;
//      DuckDB converts its 128-bit value otherwise, and the two may differ
//      in the last bits (gpusql's was the nearer in the case found:
//      -32329960677665718.0 / 1e10). Accepted where the query converts some
//      DECIMAL subexpression to DOUBLE and every DOUBLE cell is within 4
//      units in the last place of DuckDB's (checker.hpp). A DOUBLE remainder
//      (%) of such a value may then differ by whole units: accepted where
//      the query takes one (decimal_modulo()).
// D15. DuckDB folds an operator with a NULL literal operand to an untyped
//      NULL before it types what holds it (0.0 * (NULL + 3) is NULL of no
//      type, so a CASE with it as a branch takes its other branches' type:
//      BIGINT, where gpusql's is DECIMAL). Accepted where the query has a
//      NULL literal and every cell holds the same number as DuckDB's.
// D16. DuckDB reassociates (x + c1) + c2 into x + (c1 + c2), and (c1 + x) +
//      (c2 + x) likewise, and folds the constants, failing on every row when
//      c1 + c2 leaves BIGINT, where gpusql adds as written ((-3 +
//      9223372036854775807) + 2 fits). Accepted where two integer literals of
//      one chain of + and - overflow together.
// D17. DuckDB casts a REAL to DECIMAL by scaling it in single precision:
//      CAST(CAST(-39972.15 AS REAL) AS DECIMAL(18,4)) is -39972.1472 there
//      (-39972.1484375 * 10^4 rounds to -399721472 as a float), where gpusql
//      gives the REAL's value rounded to the scale, -39972.1484. Accepted
//      where a CAST to DECIMAL holds a REAL below it and every cell is within
//      10^-6 (relative) of DuckDB's (checker.hpp).
// D18. CAST(TRUE AS DECIMAL(p,p)) is a Conversion Error in gpusql (1 does not
//      fit, as CAST(1 AS DECIMAL(3,3)) fails in both); DuckDB 1.5 gives the
//      unscaled 1 (.001). The generator's DECIMAL targets all have a digit
//      before the point, so it never draws the shape
//      (tests/sql/types/cast_from_varchar.test has it).
// D19. 'nan', 'inf', 'infinity' and a DOUBLE literal past its range (1e400)
//      are Conversion Errors in gpusql (literals, CASTs and CSV alike; no
//      NaN or infinity is read from text); DuckDB reads NaN and infinity.
//      The generator writes neither.
// D20. DuckDB compares two DECIMALs in one common type, DECIMAL(38,s) with
//      the larger scale when the digits pass 38, and fails to cast a value
//      with more whole digits than that keeps (SUM(b * 12345678901234567890.5)
//      < 99.99: a 37-digit sum in DECIMAL(38,2)); gpusql compares the 128-bit
//      values exactly and answers. Accepted where DuckDB's error is such a
//      cast to DECIMAL(38,s) and D10's probe finds a DECIMAL value of 18
//      digits or more (checker.hpp).
// D21. A correlated scalar subquery without an aggregate (or with GROUP BY) that gives a row
//      more than one row is an error in both; but DuckDB first prunes a
//      comparison with it that its column statistics say cannot hold
//      ((SELECT s.b1 ...) = 5 where every b1 is 10^10 or more) and answers
//      no rows without running the subquery; or it joins the subquery's
//      rows before a condition of WHERE that gpusql applies first, which
//      leaves no row to check. Either is accepted where a probe finds a row
//      of the query's FROM with more than one row for the subquery, on
//      DuckDB and (the second) on gpusql too (checker.hpp).
// D22. CAST(DECIMAL AS REAL): gpusql rounds the exact value once to the
//      nearest REAL (-6106846464.34 is -6106846720); DuckDB converts the
//      unscaled integer to a float and divides in single precision
//      (-6106846208). Accepted where every cell is within a REAL's unit in
//      the last place of DuckDB's (checker.hpp).
// D23. A DECIMAL SUM whose partial sums leave 128 bits in a group that
//      HAVING drops: DuckDB fails as it adds (Overflow in HUGEINT
//      addition); gpusql sums a 128-bit value as three 64-bit parts and
//      joins them, checking, after HAVING, in the groups it returns only.
//      Accepted where a probe finds a group whose SUM of |x| reaches 1.7e38
//      unscaled (checker.hpp). A gpusql difference to mend: DuckDB's is the
//      standard's answer (every group's aggregates are computed).
// D24. A DuckDB bug: its WHERE keeps fewer rows than its own projection of
//      the condition says are TRUE (over a column whose values are all NULL,
//      `b >= 'b' OR 'abc' IS DISTINCT FROM b` keeps no row). Accepted where
//      the two counts differ on DuckDB (checker.hpp).
// D25. DuckDB may compute the select list of a group that a HAVING with a
//      subquery then drops, and fail there: CAST(SUM(x) AS DECIMAL(18,2))
//      out of range in a group `HAVING NOT EXISTS (...)` removes, in an
//      INTERSECT whose operands share that subquery (the same SELECT alone
//      answers). gpusql applies HAVING first, as the standard orders the
//      clauses. Accepted where the CAST (or the overflowing expression)
//      fails over all groups on DuckDB (checker.hpp).
// D26. DuckDB types DECIMAL(p,s) * BIGINT (and + - %) as a 128-bit
//      DECIMAL(p+19,s), where gpusql keeps a 64-bit DECIMAL(18,s) that fails
//      past 18 digits (D10). The widths differ, and a CASE over it and a
//      DECIMAL of a larger scale then has DuckDB's common type of at most 38
//      digits, with fewer after the point: CASE ... THEN CAST(-2 AS
//      DECIMAL(18,0)) * rowid ELSE 0.125 END is DECIMAL(38,1) there, and
//      0.125 reads 0.1 (seed 5867). Accepted where DuckDB gives gpusql's
//      answer with those integer operands cast to INTEGER, which DuckDB
//      types as gpusql does (checker.hpp).
// D27. A DuckDB 1.5.6 bug: SUBSTRING whose window reaches before the
//      string's first character from a negative start, or past its last
//      from a negative length, answers by which path a vector of strings
//      takes. When every string in the vector is ASCII, the window is moved
//      inside the string (substring(s, -4, 1) of 'Zz' is 'Z', of 'hello'
//      with -10, 3 'hel'; substring(s, 5, -1) of 'aa' is 'a'); when any
//      string is not, and for a constant, the part outside is cut off (''
//      each time), which is what gpusql answers for every string
//      (tests/sql/expressions/substring.test). The generator's SUBSTRING
//      starts at 0 or later, and has a negative length only from 0, 1 or 2.
// D28. Row values: DuckDB 1.5.6 compares (a, b) = (c, d), <, IN a list of
//      rows and IS DISTINCT FROM as STRUCTs, where NULL equals NULL and
//      sorts last: (1, NULL) = (1, NULL) is TRUE there, (1, 2) > (1, NULL)
//      FALSE, (1, NULL) IN ((1, 2), (2, 3)) FALSE, and (NULL, 5) NOT IN
//      (SELECT 1, 2) keeps no row in WHERE. gpusql compares them as the SQL
//      standard, SQLite and PostgreSQL do, a pair at a time in three-valued
//      logic: NULL, NULL, NULL and TRUE (ast::make_row_comparison(),
//      tests/sql/expressions/row_values.test). Where no NULL is compared the
//      answers agree, and (a, b) IN (SELECT ...) in the select list agrees
//      with DuckDB's either way. The differential generator writes row
//      values for the SQLite run only.
// D7 covers CASTs as well: gpusql's failing CAST (a Conversion Error, even a
// constant one it folds on an empty table) is accepted when the same CAST
// fails on DuckDB over all rows of its tables (or groups); both failing with
// a Conversion Error is the same answer, and so is one engine's failing CAST
// against the other's overflow when the probes find both. DuckDB's failing
// CAST of a constant, which it folds while planning, is accepted where
// gpusql evaluates it on no row, and so is DuckDB's failing CAST in a
// filter it runs before a join, on rows the join would have dropped
// (gpusql filters after the join), when the probe finds the CAST failing.
// Issue #27's shapes (DECIMAL and DATE columns, DECIMAL literals of any
// scale, DATE arithmetic, CASTs, NULL literals: Features::types) are judged
// by DuckDB only: Query::duckdb_only, and the SQLite run leaves them out.
// Not differences but rules of the comparison:
//  - Without ORDER BY (GROUP BY included: gpusql's groups come in key order,
//    DuckDB's in no particular order) rows are compared as multisets; every
//    generated ORDER BY says NULLS FIRST or NULLS LAST.
//  - BOOLEAN values are 0/1 integers on both sides.
//  - DECIMAL values are compared exactly, by value: both sides become their
//    decimal text without trailing zeros ("1.50" and "1.5" are one value; the
//    scale is the type's business, as INTEGER and BIGINT both read as
//    integers). A DECIMAL on one side and a DOUBLE on the other differ.
//  - rowid is 0-based in both (in insertion order): no rewriting.
//  - DATE values are their 'YYYY-MM-DD' text on both sides (ORDER BY checks
//    compare them by year first); REAL values are the float's value as a
//    double on both sides.
#pragma once

#include <dlfcn.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "tests/differential/oracle.hpp"
#include "tests/test_support.hpp"

namespace gpusql::test::diff {

// The library's path: $GPUSQL_DUCKDB_LIBRARY, else the one the build names.
inline std::string duckdb_library_path() {
  if (const char* v = std::getenv("GPUSQL_DUCKDB_LIBRARY"); v && *v) return v;
#ifdef GPUSQL_DUCKDB_LIBRARY
  return GPUSQL_DUCKDB_LIBRARY;
#else
  return ".deps/duckdb/libduckdb.so";
#endif
}

// The numeric text of a DECIMAL as the comparison holds it: no trailing
// fractional zeros, no lone point, no negative zero ("-1.500" -> "-1.5",
// "2.00" -> "2", "-0.00" -> "0").
inline std::string canonical_decimal(std::string s) {
  if (s.find('.') != std::string::npos) {
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
  }
  if (s == "-0" || s.empty()) s = "0";
  return s;
}

namespace duckdb_c {

// The C API's types, as duckdb.h (1.x) lays them out.
using idx_t = uint64_t;
using duckdb_state = int;  // DuckDBSuccess = 0, DuckDBError = 1
using duckdb_type = int;   // enum DUCKDB_TYPE
using duckdb_database = void*;    // pointer to an opaque struct
using duckdb_connection = void*;  // likewise
using duckdb_appender = void*;    // likewise
struct duckdb_result {
  idx_t deprecated_column_count;
  idx_t deprecated_row_count;
  idx_t deprecated_rows_changed;
  void* deprecated_columns;
  char* deprecated_error_message;
  void* internal_data;
};
enum : duckdb_type {
  BOOLEAN = 1, TINYINT = 2, SMALLINT = 3, INTEGER = 4, BIGINT = 5, UTINYINT = 6, USMALLINT = 7, UINTEGER = 8,
  UBIGINT = 9, FLOAT = 10, DOUBLE = 11, HUGEINT = 16, VARCHAR = 17, DECIMAL = 19, UHUGEINT = 32,
};

// The functions, resolved once per process; the library stays loaded.
struct Api {
  duckdb_state (*open)(const char*, duckdb_database*);
  duckdb_state (*connect)(duckdb_database, duckdb_connection*);
  void (*disconnect)(duckdb_connection*);
  void (*close)(duckdb_database*);
  duckdb_state (*query)(duckdb_connection, const char*, duckdb_result*);
  const char* (*result_error)(duckdb_result*);
  void (*destroy_result)(duckdb_result*);
  idx_t (*column_count)(duckdb_result*);
  idx_t (*row_count)(duckdb_result*);
  duckdb_type (*column_type)(duckdb_result*, idx_t);
  bool (*value_is_null)(duckdb_result*, idx_t, idx_t);
  bool (*value_boolean)(duckdb_result*, idx_t, idx_t);
  int64_t (*value_int64)(duckdb_result*, idx_t, idx_t);
  double (*value_double)(duckdb_result*, idx_t, idx_t);
  char* (*value_varchar)(duckdb_result*, idx_t, idx_t);
  void (*free)(void*);
  duckdb_state (*appender_create)(duckdb_connection, const char*, const char*, duckdb_appender*);
  const char* (*appender_error)(duckdb_appender);
  duckdb_state (*appender_end_row)(duckdb_appender);
  duckdb_state (*appender_close)(duckdb_appender);
  duckdb_state (*appender_destroy)(duckdb_appender*);
  duckdb_state (*append_null)(duckdb_appender);
  duckdb_state (*append_int64)(duckdb_appender, int64_t);
  duckdb_state (*append_double)(duckdb_appender, double);
  duckdb_state (*append_varchar_length)(duckdb_appender, const char*, idx_t);
  const char* (*library_version)();
};

// The API from `path`, or nullptr with the reason in `why`. Each library is
// loaded once and stays loaded.
inline const Api* load(const std::string& path, std::string* why = nullptr) {
  struct Loaded {
    Api api{};
    std::string error;
  };
  static std::map<std::string, Loaded> cache;
  auto [it, fresh] = cache.try_emplace(path);
  Loaded& l = it->second;
  if (fresh) {
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* e = dlerror();
      l.error = e ? e : "dlopen failed";
    } else {
      auto bind = [&](auto& function, const char* name) {
        void* symbol = dlsym(handle, name);
        if (!symbol && l.error.empty()) l.error = std::string("no symbol ") + name + " in " + path;
        function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(symbol);
      };
      Api& a = l.api;
      bind(a.open, "duckdb_open");
      bind(a.connect, "duckdb_connect");
      bind(a.disconnect, "duckdb_disconnect");
      bind(a.close, "duckdb_close");
      bind(a.query, "duckdb_query");
      bind(a.result_error, "duckdb_result_error");
      bind(a.destroy_result, "duckdb_destroy_result");
      bind(a.column_count, "duckdb_column_count");
      bind(a.row_count, "duckdb_row_count");
      bind(a.column_type, "duckdb_column_type");
      bind(a.value_is_null, "duckdb_value_is_null");
      bind(a.value_boolean, "duckdb_value_boolean");
      bind(a.value_int64, "duckdb_value_int64");
      bind(a.value_double, "duckdb_value_double");
      bind(a.value_varchar, "duckdb_value_varchar");
      bind(a.free, "duckdb_free");
      bind(a.appender_create, "duckdb_appender_create");
      bind(a.appender_error, "duckdb_appender_error");
      bind(a.appender_end_row, "duckdb_appender_end_row");
      bind(a.appender_close, "duckdb_appender_close");
      bind(a.appender_destroy, "duckdb_appender_destroy");
      bind(a.append_null, "duckdb_append_null");
      bind(a.append_int64, "duckdb_append_int64");
      bind(a.append_double, "duckdb_append_double");
      bind(a.append_varchar_length, "duckdb_append_varchar_length");
      bind(a.library_version, "duckdb_library_version");
    }
  }
  if (!l.error.empty() && why) *why = l.error;
  return l.error.empty() ? &l.api : nullptr;
}

}  // namespace duckdb_c

// Whether an error of DuckDB's is a value leaving its type's range (integer
// or DECIMAL arithmetic, or the CAST of a HUGEINT SUM to BIGINT).
inline bool duckdb_overflow(const std::string& error) {
  return error.find("Overflow in") != std::string::npos ||
         error.find("out of range for the destination type") != std::string::npos;
}

// An in-memory DuckDB database, one connection. create_table and query have
// the SQLite Oracle's shape; results come back as the same Cells gpusql's
// do (checker.hpp): NULL, BOOLEAN and integers as int64, REAL and DOUBLE as
// double, DECIMAL as its canonical text (canonical_decimal), VARCHAR as text.
class DuckdbOracle {
 public:
  explicit DuckdbOracle(const std::string& library = duckdb_library_path()) : library_(library) {
    api_ = duckdb_c::load(library, &why_);
    if (!api_) return;
    if (api_->open(nullptr, &db_) != 0) {
      why_ = "duckdb_open failed";
      api_ = nullptr;
      return;
    }
    if (api_->connect(db_, &con_) != 0) {
      why_ = "duckdb_connect failed";
      api_->close(&db_);
      api_ = nullptr;
      return;
    }
    // One thread: reproducible floating sums, and no thread start-up cost on
    // these small tables. D3 and D4 of the list above.
    exec("SET threads = 1");
    exec("SET ieee_floating_point_ops = false");
    exec("CREATE MACRO gpusql_mod(a, b) AS CASE WHEN b = -1 THEN a * 0 ELSE a % b END");
  }
  ~DuckdbOracle() {
    if (!api_) return;
    api_->disconnect(&con_);
    api_->close(&db_);
  }
  DuckdbOracle(const DuckdbOracle&) = delete;
  DuckdbOracle& operator=(const DuckdbOracle&) = delete;

  bool available() const { return api_ != nullptr; }
  // Why not available: "DuckDB oracle not found at <path>: ..." and the cure.
  std::string unavailable_reason() const {
    return "DuckDB oracle not found at " + library_ + ": run scripts/install-deps.sh (" + why_ + ")";
  }
  std::string version() const { return api_ ? api_->library_version() : ""; }

  void exec(const std::string& sql) {
    require();
    OracleResult r = query(sql);
    if (!r.ok) throw std::runtime_error("duckdb: " + r.error + " in: " + sql);
  }

  // CREATE TABLE name (columns...) with the given DuckDB types, then the
  // rows through an appender (each Cell cast to its column's type).
  void create_table(const std::string& name, const std::vector<std::string>& columns,
                    const std::vector<std::string>& types, const Rows& rows) {
    require();
    std::string create = "CREATE TABLE " + name + " (";
    for (std::size_t c = 0; c < columns.size(); ++c) create += (c ? ", " : "") + columns[c] + " " + types[c];
    exec(create + ")");
    duckdb_c::duckdb_appender appender = nullptr;
    if (api_->appender_create(con_, nullptr, name.c_str(), &appender) != 0) {
      std::string error = appender ? api_->appender_error(appender) : "?";
      api_->appender_destroy(&appender);
      throw std::runtime_error("duckdb appender for " + name + ": " + error);
    }
    auto check = [&](duckdb_c::duckdb_state state) {
      if (state == 0) return;
      const char* e = api_->appender_error(appender);
      std::string error = e ? e : "?";
      api_->appender_destroy(&appender);
      throw std::runtime_error("duckdb append to " + name + ": " + error);
    };
    for (const auto& row : rows) {
      for (const Cell& v : row) {
        if (std::holds_alternative<std::monostate>(v)) check(api_->append_null(appender));
        else if (auto* i = std::get_if<int64_t>(&v)) check(api_->append_int64(appender, *i));
        else if (auto* d = std::get_if<double>(&v)) check(api_->append_double(appender, *d));
        else {
          const std::string& s = std::get<std::string>(v);
          check(api_->append_varchar_length(appender, s.data(), s.size()));
        }
      }
      check(api_->appender_end_row(appender));
    }
    check(api_->appender_close(appender));
    api_->appender_destroy(&appender);
  }

  OracleResult query(const std::string& sql) const {
    require();
    OracleResult out;
    duckdb_c::duckdb_result result{};
    if (api_->query(con_, sql.c_str(), &result) != 0) {
      out.ok = false;
      const char* e = api_->result_error(&result);
      out.error = e ? e : "unknown DuckDB error";
      api_->destroy_result(&result);
      return out;
    }
    const duckdb_c::idx_t columns = api_->column_count(&result), rows = api_->row_count(&result);
    std::vector<duckdb_c::duckdb_type> types;
    for (duckdb_c::idx_t c = 0; c < columns; ++c) types.push_back(api_->column_type(&result, c));
    out.rows.reserve(rows);
    for (duckdb_c::idx_t r = 0; r < rows; ++r) {
      std::vector<Cell> row;
      row.reserve(columns);
      for (duckdb_c::idx_t c = 0; c < columns; ++c) row.push_back(cell(&result, types[c], c, r));
      out.rows.push_back(std::move(row));
    }
    api_->destroy_result(&result);
    return out;
  }

 private:
  std::string library_;
  std::string why_;
  const duckdb_c::Api* api_ = nullptr;
  duckdb_c::duckdb_database db_ = nullptr;
  duckdb_c::duckdb_connection con_ = nullptr;

  void require() const {
    if (!api_) throw std::runtime_error(unavailable_reason());
  }

  std::string text(duckdb_c::duckdb_result* result, duckdb_c::idx_t c, duckdb_c::idx_t r) const {
    char* s = api_->value_varchar(result, c, r);
    std::string out = s ? s : "";
    api_->free(s);
    return out;
  }

  Cell cell(duckdb_c::duckdb_result* result, duckdb_c::duckdb_type type, duckdb_c::idx_t c, duckdb_c::idx_t r) const {
    namespace t = duckdb_c;
    if (api_->value_is_null(result, c, r)) return std::monostate{};
    switch (type) {
      case t::BOOLEAN: return static_cast<int64_t>(api_->value_boolean(result, c, r));
      case t::TINYINT: case t::SMALLINT: case t::INTEGER: case t::BIGINT:
      case t::UTINYINT: case t::USMALLINT: case t::UINTEGER:
        return api_->value_int64(result, c, r);
      case t::UBIGINT: case t::HUGEINT: case t::UHUGEINT: {
        // In the BIGINT range: an integer as gpusql has it; past it (which
        // gpusql cannot hold) the nearest double, so it differs visibly.
        std::string s = text(result, c, r);
        errno = 0;
        char* end = nullptr;
        long long v = std::strtoll(s.c_str(), &end, 10);
        if (errno == 0 && end && *end == '\0') return static_cast<int64_t>(v);
        return std::strtod(s.c_str(), nullptr);
      }
      case t::FLOAT: case t::DOUBLE: return api_->value_double(result, c, r);
      case t::DECIMAL: return canonical_decimal(text(result, c, r));
      default: return text(result, c, r);  // VARCHAR, and any other type as its text
    }
  }
};

}  // namespace gpusql::test::diff
