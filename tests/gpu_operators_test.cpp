// The device operators -- hash join, nested-loop join, GROUP BY, ORDER BY,
// DISTINCT, COUNT(DISTINCT), packed ARG_MIN/ARG_MAX -- against the host
// executor: the same SQL on the same data must give the same rows in the
// same order, doubles with the same bits, and the same errors. Every GPU
// query runs twice and must repeat itself (no race decides an answer).
//
// The [gpu] cases need a device; the host-only case below runs the same
// queries on the host executor everywhere, so a query that stops binding or
// planning is noticed without a GPU too.
#include <catch2/catch.hpp>

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>

#include "engine/database_impl.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;
using namespace gpusql::test;

namespace {

// ---- data ----

// t: 40 rows with duplicate and NULL keys, -0.0 next to 0.0, ties
// everywhere; u: 25 rows sharing some keys with t; one: a single row;
// empty: no row (header and one typed row filtered away by queries).
std::string table_t() {
  const char* words[] = {"pear", "apple", "fig", "", "kiwi"};
  const char* floats[] = {"-0.0", "0.0", "1.5", "-2.25", "", "3", "1.5"};
  std::string csv = "id,k,f,s,b,d\n";
  for (int i = 0; i < 40; ++i) {
    std::string k = i % 6 == 0 ? "" : std::to_string((i * 7) % 5);
    std::string s = i % 7 == 3 ? "" : std::string("\"") + words[i % 5] + "\"";
    long long b = (i % 4 == 0 ? -1 : 1) * (static_cast<long long>(i % 9) * 1000000000000000ll + 5000000000ll);
    std::string d = i % 8 == 5 ? "" : fmt("%.3f", (i % 11) * 0.25 - 1.0);
    csv += fmt("%d,%s,%s,%s,%lld,%s\n", i, k.c_str(), floats[i % 7], s.c_str(), b, d.c_str());
  }
  return csv;
}

std::string table_u() {
  const char* floats[] = {"0.0", "-0.0", "1.5", "7.5", ""};
  std::string csv = "id,k,f,w\n";
  for (int i = 0; i < 25; ++i) {
    std::string k = i % 5 == 4 ? "" : std::to_string(i % 4);
    csv += fmt("%d,%s,%s,%d\n", 100 + i, k.c_str(), floats[i % 5], (i * 37) % 11 - 5);
  }
  return csv;
}

// big: `rows` rows; g10 has 10 values and NULLs (dense), gk 10^4 values
// spread over the BIGINT range (hash table), gm about a million (dense),
// v random doubles with NULLs, s six strings, w small integers.
std::string table_big(int rows) {
  const char* words[] = {"alpha", "beta", "gamma", "delta", "", "epsilon"};
  std::string csv = "id,g10,gk,gm,v,s,w,x\n";
  csv.reserve(static_cast<std::size_t>(rows) * 64);
  uint64_t state = 12345;
  char line[160];
  for (int i = 0; i < rows; ++i) {
    uint64_t r = next_random(state), q = next_random(state);
    char g10[16] = "";
    if (i % 997 != 0) std::snprintf(g10, sizeof g10, "%d", static_cast<int>(r % 10));
    long long gk = static_cast<long long>((r >> 8) % 10000) * 1000000007ll - 5000000000000ll;
    int gm = static_cast<int>((q >> 3) % 1000000);
    char v[32] = "";
    if (i % 101 != 7) std::snprintf(v, sizeof v, "%.17g", static_cast<double>(q >> 11) / 9007199254740992.0 * 2000.0 - 1000.0);
    std::snprintf(line, sizeof line, "%d,%s,%lld,%d,%s,%s,%d,%.17g\n", i, g10, gk, gm, v, words[(r >> 20) % 6],
                  static_cast<int>((q >> 40) % 2001) - 1000, static_cast<double>((r >> 30) % 100000) / 7.0 - 5000.0);
    csv += line;
  }
  return csv;
}

// ---- comparison ----

std::string cell(const Result& r, std::size_t row, std::size_t column) {
  Value v = r.value(row, column);
  if (auto* d = std::get_if<double>(&v)) {
    uint64_t bits;
    std::memcpy(&bits, d, sizeof bits);
    return fmt("%.17g (bits %016" PRIx64 ")", *d, bits);
  }
  return r.text(row, column);
}

// "" when identical (doubles by their bits), else where they first differ.
std::string difference(const Result& expected, const Result& actual) {
  if (expected.column_count() != actual.column_count())
    return fmt("columns: host %zu, gpu %zu", expected.column_count(), actual.column_count());
  for (std::size_t c = 0; c < expected.column_count(); ++c) {
    if (expected.column_name(c) != actual.column_name(c))
      return "column " + std::to_string(c) + " name: host " + expected.column_name(c) + ", gpu " + actual.column_name(c);
    if (expected.column_type(c) != actual.column_type(c)) return "column " + std::to_string(c) + ": types differ";
  }
  if (expected.row_count() != actual.row_count())
    return fmt("rows: host %zu, gpu %zu", expected.row_count(), actual.row_count());
  for (std::size_t r = 0; r < expected.row_count(); ++r)
    for (std::size_t c = 0; c < expected.column_count(); ++c) {
      Value x = expected.value(r, c), y = actual.value(r, c);
      bool same;
      if (auto* dx = std::get_if<double>(&x)) {
        auto* dy = std::get_if<double>(&y);
        same = dy && std::memcmp(dx, dy, sizeof(double)) == 0;
      } else {
        same = x == y;
      }
      if (!same)
        return fmt("row %zu of %zu, column %zu (%s): host ", r, expected.row_count(), c, expected.column_name(c).c_str()) +
               cell(expected, r, c) + ", gpu " + cell(actual, r, c);
    }
  return "";
}

struct Outcome {
  std::optional<Result> result;
  std::string error;  // what() of the Error thrown, when one was
};

Outcome run(Database& db, const std::string& sql) {
  Outcome o;
  try {
    o.result = db.query(sql);
  } catch (const Error& e) {
    o.error = e.what();
  }
  return o;
}

// The same tables in a host and (where wanted) a GPU database.
class Pair {
 public:
  explicit Pair(bool with_gpu) : host_(Options{ExecutorKind::Host}) {
    if (with_gpu) gpu_ = std::make_unique<Database>(Options{ExecutorKind::Gpu});
  }

  void load(const std::string& name, const std::string& csv) {
    std::string path = dir_.write(name + ".csv", csv);
    host_.load_csv(name, path);
    if (gpu_) gpu_->load_csv(name, path);
  }
  void load_sample(const std::string& name) {
    host_.load_csv(name, sample(name));
    if (gpu_) gpu_->load_csv(name, sample(name));
  }

  // Runs `sql` on the host and, with a GPU, twice on it; the GPU must give
  // the host's result or error both times. Returns the host's result (none
  // when it failed and `error_expected`).
  std::optional<Result> check(const std::string& sql, bool error_expected = false) {
    INFO("query: " << sql);
    Outcome expected = run(host_, sql);
    if (!error_expected && !expected.error.empty()) FAIL("the host executor failed: " << expected.error);
    if (error_expected) CHECK_FALSE(expected.error.empty());
    if (!gpu_) return expected.result;
    for (int attempt = 0; attempt < 2; ++attempt) {
      INFO("GPU run " << attempt + 1);
      Outcome actual = run(*gpu_, sql);
      if (!expected.error.empty() || !actual.error.empty()) {
        CHECK(actual.error == expected.error);
        continue;
      }
      std::string diff = difference(*expected.result, *actual.result);
      INFO(diff);
      CHECK(diff.empty());
    }
    return expected.result;
  }

  std::size_t rows(const std::string& sql) {
    auto r = check(sql);
    return r ? r->row_count() : 0;
  }

  Database* gpu() { return gpu_.get(); }

  // A statement run once in each database (DDL: `check` runs the GPU's twice).
  void exec(const std::string& sql) {
    host_.query(sql);
    if (gpu_) gpu_->query(sql);
  }

  std::string explain(const std::string& sql) {
    Result r = host_.query("EXPLAIN " + sql);
    std::string text;
    for (std::size_t i = 0; i < r.row_count(); ++i) text += r.text(i, 0) + "\n";
    return text;
  }

 private:
  TempDir dir_;
  Database host_;
  std::unique_ptr<Database> gpu_;
};

void load_small(Pair& db) {
  db.load("t", table_t());
  db.load("u", table_u());
  db.load("one", "id,k,f,s\n7,2,-0.0,\"pear\"\n");
  db.load("empty", "id,k,f\n1,2,0.5\n");  // queries read it as `(SELECT ... WHERE id < 0)`-like filters
}

// ---- the query lists ----

void hash_joins(Pair& db) {
  // Duplicate keys on both sides, NULL keys never matching.
  CHECK(db.rows("SELECT a.id, b.id, a.k FROM t a JOIN u b ON a.k = b.k") > 40);
  db.check("SELECT a.id, b.id FROM u b JOIN t a ON b.k = a.k");
  db.check("SELECT * FROM t a JOIN u b ON a.k = b.k WHERE a.id > 5 AND b.w < 2");
  db.check("SELECT a.rowid, b.rowid, a.k, b.w FROM t a JOIN u b ON a.k + 1 = b.k * 1");
  // Multi-column keys; float keys where -0.0 equals 0.0; NULL floats.
  CHECK(db.rows("SELECT a.id, b.id, a.f, b.f FROM t a JOIN u b ON a.f = b.f") > 0);
  db.check("SELECT a.id, b.id FROM t a JOIN u b ON a.k = b.k AND a.f = b.f");
  db.check("SELECT a.id, b.id FROM t a JOIN u b ON a.f = b.f AND a.k = b.k AND a.id < 30");
  // VARCHAR keys (one dictionary: a self-join), BIGINT keys, the empty string.
  CHECK(db.rows("SELECT a.id, b.id, a.s FROM t a JOIN t b ON a.s = b.s") > 40);
  db.check("SELECT a.id, b.id FROM t a JOIN t b ON a.b = b.b AND a.s = b.s");
  // Empty and one-row sides; nothing matching.
  db.check("SELECT * FROM t a JOIN u b ON a.k = b.k WHERE b.id < 0");
  db.check("SELECT * FROM t a JOIN u b ON a.k = b.k WHERE a.id < 0");
  db.check("SELECT * FROM t a JOIN one o ON a.k = o.k");
  db.check("SELECT * FROM one o JOIN t a ON o.f = a.f");
  db.check("SELECT a.id, b.id FROM t a JOIN u b ON a.k = b.k + 100");
  // Both build sides: the planner builds the side it estimates smaller --
  // here the left, a join its two filters are guessed to shrink.
  const std::string build_left =
      "SELECT a.id, b.id, c.id, c.w FROM t a JOIN u b ON a.k = b.k AND a.id + 100 > b.id AND b.id + 100 > a.id "
      "JOIN u c ON b.f = c.f";
  CHECK_THAT(db.explain(build_left), Catch::Contains("(build left)"));
  CHECK(db.rows(build_left) > 100);
  db.check("SELECT a.id, b.id FROM t a JOIN u b ON a.k = b.k WHERE a.id = 3 OR a.id = 12");
  db.check("SELECT a.id, b.id, b.w FROM u b JOIN t a ON a.k = b.k WHERE a.id = 3");
  // Chains of joins, and joins under GROUP BY / ORDER BY / DISTINCT.
  db.check("SELECT a.id, b.id, c.id FROM t a JOIN u b ON a.k = b.k JOIN t c ON b.f = c.f");
  db.check("SELECT a.k, COUNT(*), SUM(b.w), SUM(a.f) FROM t a JOIN u b ON a.k = b.k GROUP BY a.k ORDER BY a.k");
  db.check("SELECT DISTINCT a.s, b.w FROM t a JOIN u b ON a.k = b.k ORDER BY b.w DESC, a.s");
  db.check("SELECT COUNT(*), SUM(a.b), MIN(b.id) FROM t a JOIN u b ON a.k = b.k");
  // Outer joins: unmatched rows once, NULL-extended (rowids, VARCHARs and
  // floats too); conditions on one side alone; empty sides. The order
  // without ORDER BY is the executors' shared one: (left, right) pairs,
  // then a FULL JOIN's unmatched right rows in right order.
  db.check("SELECT * FROM t a LEFT JOIN u b ON a.k = b.k");
  db.check("SELECT a.id, b.rowid, b.f FROM t a LEFT JOIN u b ON a.k = b.k AND a.id < 20 AND b.w > 1");
  db.check("SELECT a.rowid, a.s, b.id FROM t a RIGHT JOIN u b ON a.k = b.k AND a.f > 0");
  // Conditions across the sides beyond the keys, or without any: the pairs
  // they keep, then the left rows without one (the left side twice).
  db.check("SELECT a.id, b.id, b.f FROM t a LEFT JOIN u b ON a.k = b.k AND b.id > a.id");
  db.check("SELECT a.id, b.id FROM t a LEFT JOIN u b ON a.k < b.k AND a.id < 5");
  db.check("SELECT a.id, b.id, c.id FROM t a LEFT JOIN u b ON a.k = b.k LEFT JOIN t c ON c.k = b.k AND c.id <> a.id");
  // A smaller left side is the one built: its rows no right row matched
  // are flagged in the write pass, appended and sorted into place.
  const std::string left_built = "SELECT b.id, b.rowid, a.id, a.rowid, a.s, a.f FROM u b LEFT JOIN t a ON b.k = a.k";
  CHECK_THAT(db.explain(left_built), Catch::Contains("(build left)"));
  CHECK(db.rows(left_built) > 25);
  db.check("SELECT b.id, a.id FROM u b LEFT JOIN t a ON b.k = a.k AND b.id < 10");
  db.check("SELECT * FROM one o LEFT JOIN t a ON o.k = a.k");
  db.check("SELECT b.id, a.id FROM u b LEFT JOIN t a ON b.k = a.k + 100");
  db.check("SELECT b.id, COUNT(a.id), SUM(a.f) FROM u b LEFT JOIN t a ON b.k = a.k GROUP BY b.id ORDER BY b.id");
  db.check("SELECT * FROM (SELECT * FROM u WHERE id < 0) b LEFT JOIN t a ON b.k = a.k");
  db.check("SELECT * FROM u b LEFT JOIN (SELECT * FROM t WHERE id < 0) a ON b.k = a.k");
  CHECK(db.rows("SELECT * FROM t a FULL JOIN u b ON a.k = b.k") > 40);
  db.check("SELECT a.id, a.rowid, a.s, a.f, b.id, b.rowid, b.f FROM t a FULL JOIN u b ON a.k = b.k AND a.id < 20");
  db.check("SELECT a.id, b.id FROM t a FULL JOIN u b ON a.k = b.k WHERE a.id IS NULL OR b.id IS NULL");
  db.check("SELECT * FROM t a FULL JOIN (SELECT * FROM u WHERE id < 0) b ON a.k = b.k");
  db.check("SELECT * FROM (SELECT * FROM t WHERE id < 0) a FULL JOIN u b ON a.k = b.k");
  db.check("SELECT * FROM (SELECT * FROM t WHERE id < 0) a FULL JOIN (SELECT * FROM u WHERE id < 0) b ON a.k = b.k");
  db.check("SELECT a.s, COUNT(*), COUNT(b.id), SUM(b.f) FROM t a FULL JOIN t b ON a.s = b.s AND b.id > 20 GROUP BY a.s ORDER BY a.s");
  db.check("SELECT * FROM one o FULL JOIN t a ON o.k = a.k AND o.s = a.s");
}

void nested_loop_joins(Pair& db) {
  CHECK(db.rows("SELECT a.id, b.id FROM t a JOIN u b ON a.k < b.k") > 100);
  db.check("SELECT a.id, b.id, a.f, b.f FROM t a JOIN u b ON a.f > b.f OR b.k IS NULL");
  db.check("SELECT a.id, b.id FROM t a JOIN u b ON a.k <> b.k AND a.id + b.id > 120");
  // Cross joins, with an empty and a one-row side.
  CHECK(db.rows("SELECT a.id, b.id FROM t a, u b") == 1000);
  db.check("SELECT * FROM t a, one o");
  db.check("SELECT * FROM one o, t a WHERE a.k = 3 OR a.id < 2");
  db.check("SELECT * FROM t a, u b WHERE b.id < 0");
  db.check("SELECT a.id, b.id FROM t a JOIN t b ON a.rowid < b.rowid AND a.s = b.s");
  // Three inputs: a cross join under an equi-join.
  db.check("SELECT a.id, b.id, c.id FROM one c, t a JOIN u b ON a.k = b.k WHERE c.k <= a.k");
  db.check("SELECT COUNT(*), SUM(a.id * b.w) FROM t a JOIN u b ON a.id % 7 = b.w + 3 OR a.f < b.f");
  // Errors raised by the predicate are the host's errors.
  db.check("SELECT a.id FROM t a JOIN u b ON a.b * 100000 > b.w", true);
}

void group_bys(Pair& db) {
  // One NULL group; groups in order of first appearance.
  CHECK(db.rows("SELECT k, COUNT(*), COUNT(f), SUM(f), AVG(f), MIN(f), MAX(f), SUM(b) FROM t GROUP BY k") == 6);
  db.check("SELECT COUNT(*), k FROM t GROUP BY k HAVING COUNT(*) > 6");
  // VARCHAR keys, float keys (-0.0 groups with 0.0; the key is its first value).
  db.check("SELECT s, COUNT(*), MIN(id), MAX(id), MIN(s), SUM(d), AVG(d) FROM t GROUP BY s");
  db.check("SELECT f, COUNT(*), SUM(id), MIN(s), MAX(s) FROM t GROUP BY f");
  db.check("SELECT b, COUNT(*), AVG(b) FROM t GROUP BY b");
  db.check("SELECT d, COUNT(*) FROM t GROUP BY d");
  // Several keys and expressions.
  db.check("SELECT k, s, COUNT(*), SUM(id) FROM t GROUP BY k, s");
  db.check("SELECT s, k, f, COUNT(*) FROM t GROUP BY s, k, f");
  db.check("SELECT k % 2 AS parity, f * 2, COUNT(*), SUM(f) FROM t GROUP BY parity, f * 2");
  db.check("SELECT id / 10, COUNT(*), SUM(b) FROM t GROUP BY id / 10");
  // ARG_MIN/ARG_MAX: ties go to the lowest position; DOUBLE, INTEGER,
  // BIGINT and VARCHAR orderings; NULL orderings skipped.
  db.check("SELECT k, ARG_MIN(id, f), ARG_MAX(id, f), ARG_MIN(s, k), ARG_MAX(id, s), ARG_MIN(f, b), ARG_MAX(d, id) "
           "FROM t GROUP BY k");
  db.check("SELECT s, ARG_MIN(rowid, k), ARG_MAX(rowid, k), ARG_MIN(k, d) FROM t GROUP BY s");
  // COUNT(DISTINCT): NULLs not counted, -0.0 and 0.0 one value.
  db.check("SELECT k, COUNT(DISTINCT f), COUNT(DISTINCT s), COUNT(DISTINCT k), COUNT(*) FROM t GROUP BY k");
  db.check("SELECT s, COUNT(DISTINCT b), COUNT(DISTINCT d) FROM t WHERE id > 3 GROUP BY s");
  // Filters below and above; none and all selected; one row.
  db.check("SELECT k, SUM(f) FROM t WHERE id >= 10 AND f IS NOT NULL GROUP BY k");
  db.check("SELECT k, SUM(f), COUNT(*) FROM t WHERE id < 0 GROUP BY k");
  db.check("SELECT k, SUM(f) FROM t WHERE id >= 0 GROUP BY k HAVING SUM(f) > 0");
  db.check("SELECT k, s, f, COUNT(*), SUM(f), ARG_MIN(id, f) FROM one GROUP BY k, s, f");
  db.check("SELECT k, COUNT(*) FROM empty WHERE id < 0 GROUP BY k");
  // An aggregate query without aggregates is a grouping.
  db.check("SELECT k FROM t GROUP BY k");
  db.check("SELECT k, s FROM t GROUP BY k, s ORDER BY s DESC, k NULLS FIRST");
  // Overflow in one group's SUM is the host's error.
  db.check("SELECT k, SUM(b * 1000) FROM t GROUP BY k", true);
}

void order_bys(Pair& db) {
  // Ties keep input order: rowid shows it.
  db.check("SELECT rowid, k FROM t ORDER BY k");
  db.check("SELECT rowid, k FROM t ORDER BY k DESC");
  db.check("SELECT rowid, k FROM t ORDER BY k NULLS FIRST");
  db.check("SELECT rowid, k FROM t ORDER BY k DESC NULLS LAST");
  db.check("SELECT rowid, k FROM t ORDER BY k DESC NULLS FIRST");
  // Several keys, mixed directions, doubles with -0.0, strings, BIGINTs.
  db.check("SELECT rowid, k, f, s FROM t ORDER BY k, f DESC, s");
  db.check("SELECT rowid, f FROM t ORDER BY f");
  db.check("SELECT rowid, f FROM t ORDER BY f DESC NULLS FIRST");
  db.check("SELECT rowid, s, b FROM t ORDER BY s DESC NULLS FIRST, b");
  db.check("SELECT rowid, b, d FROM t ORDER BY b DESC, d NULLS FIRST");
  db.check("SELECT rowid, d, k FROM t ORDER BY d, k DESC NULLS LAST");
  db.check("SELECT id, k * 3 - id AS x FROM t ORDER BY x, id DESC");
  db.check("SELECT id FROM t ORDER BY f * 0, s, rowid DESC");
  // A key of one value: nothing to sort, the input order stays.
  db.check("SELECT rowid, k FROM t WHERE k = 2 ORDER BY k DESC");
  // LIMIT and OFFSET around the sort.
  db.check("SELECT id, f FROM t ORDER BY f DESC, id LIMIT 5");
  db.check("SELECT id, f FROM t ORDER BY f, id DESC LIMIT 7 OFFSET 3");
  db.check("SELECT id FROM t ORDER BY id LIMIT 0");
  db.check("SELECT id FROM t ORDER BY id LIMIT 10 OFFSET 100");
  db.check("SELECT id, s FROM t LIMIT 4 OFFSET 2");
  // Empty and one row.
  db.check("SELECT * FROM t WHERE id < 0 ORDER BY f, s DESC");
  db.check("SELECT * FROM one ORDER BY f DESC, s");
  // Ordering by an aggregate and by a key of a join.
  db.check("SELECT s, SUM(f) AS total FROM t GROUP BY s ORDER BY total DESC NULLS LAST, s");
  db.check("SELECT a.id, b.id FROM t a JOIN u b ON a.k = b.k ORDER BY b.w, a.f DESC, b.id");
}

void distincts(Pair& db) {
  CHECK(db.rows("SELECT DISTINCT k FROM t") == 6);
  db.check("SELECT DISTINCT f FROM t");  // -0.0 and 0.0 are one value: the first one stays
  db.check("SELECT DISTINCT s FROM t");
  db.check("SELECT DISTINCT k, s FROM t");
  db.check("SELECT DISTINCT k, f, s, b FROM t");
  db.check("SELECT DISTINCT k % 2, s FROM t ORDER BY s");
  db.check("SELECT DISTINCT * FROM t");
  db.check("SELECT DISTINCT id FROM t WHERE id < 0");
  db.check("SELECT DISTINCT f, s FROM one");
  db.check("SELECT DISTINCT k FROM t ORDER BY k DESC LIMIT 3");
}

void global_aggregates(Pair& db) {
  db.check("SELECT COUNT(DISTINCT k), COUNT(DISTINCT f), COUNT(DISTINCT s), COUNT(DISTINCT b), COUNT(*) FROM t");
  db.check("SELECT COUNT(DISTINCT f), SUM(f), COUNT(DISTINCT s) FROM t WHERE id > 20");
  db.check("SELECT COUNT(DISTINCT k) FROM t WHERE id < 0");
  // ARG_MIN/ARG_MAX: packed (INTEGER, VARCHAR, REAL, DATE orderings) and
  // generic (DOUBLE, BIGINT), ties to the lowest position.
  db.check("SELECT MIN(k), ARG_MIN(rowid, k), MAX(k), ARG_MAX(rowid, k) FROM t");
  db.check("SELECT ARG_MIN(id, s), ARG_MAX(id, s), ARG_MIN(s, id), ARG_MAX(f, k) FROM t");
  db.check("SELECT ARG_MIN(id, f), ARG_MAX(id, f), ARG_MIN(id, b), ARG_MAX(id, b) FROM t");
  db.check("SELECT ARG_MIN(id, CAST(f AS REAL)), ARG_MAX(id, CAST(f AS REAL)), ARG_MAX(id, CAST(d AS REAL)) FROM t");
  db.check("SELECT ARG_MIN(id, k), ARG_MAX(id, k), COUNT(*) FROM t WHERE id > 10 AND k IS NOT NULL");
  db.check("SELECT ARG_MIN(id, k), ARG_MAX(s, k) FROM t WHERE id < 0");
  db.check("SELECT ARG_MIN(id, k) FROM t WHERE k IS NULL");
  db.check("SELECT ARG_MIN(id, k * 3000000000), ARG_MAX(id, k - 5) FROM t");
}

// A value with a 128-bit step (a comparison with a SUM's DECIMAL(38, 3))
// in an aggregate's argument, a group key and a join condition: the GPU
// evaluates it into a column first (the aggregate and pair kernels have no
// 128-bit interpreter; before, this was an internal error there).
void wide_steps(Pair& db) {
  const std::string total = "(SELECT SUM(CAST(d AS DECIMAL(10,3))) FROM t)";
  CHECK(db.check("SELECT " + total)->text(0, 0) == "4.500");  // hand-computed from table_t()
  db.check("SELECT AVG(CASE WHEN id >= " + total + " THEN b ELSE id END), COUNT(*) FROM t");
  db.check("SELECT SUM(CASE WHEN id < " + total + " THEN id ELSE -id END), MAX(f) FROM t WHERE k > 1");
  db.check("SELECT COUNT(DISTINCT CASE WHEN id < " + total + " THEN k END), MIN(id) FROM t");
  db.check("SELECT k, SUM(CASE WHEN id < " + total + " THEN id ELSE -id END), MIN(CAST(id + " + total +
           " AS DECIMAL(18,3))) FROM t GROUP BY k ORDER BY k");
  auto halves = db.check("SELECT CASE WHEN id < " + total + " THEN 'low' ELSE 'high' END AS half, COUNT(*) FROM t " +
                         "GROUP BY half ORDER BY half");
  REQUIRE(halves);
  CHECK(halves->text(0, 0) == "high");
  CHECK(halves->get<int64_t>(0, 1) == 35);  // ids 5..39
  CHECK(halves->get<int64_t>(1, 1) == 5);   // ids 0..4, below 4.500
  CHECK(db.rows("SELECT a.id, b.id FROM t a JOIN u b ON a.id + b.w < " + total + " AND a.k < b.k ORDER BY a.id, b.id") > 0);
}

void sample_data_seeds(Pair& db) {
  for (const char* t : {"records", "arecords", "brecords", "points", "vals", "scores", "pairs"}) db.load_sample(t);
  db.check("SELECT * FROM arecords a JOIN brecords b ON a.id = b.id WHERE a.weight < 0.1");
  db.check("SELECT MIN(v), ARG_MIN(rowid, v) FROM vals");
  db.check("SELECT MAX(v), ARG_MAX(rowid, v) FROM vals");
  CHECK(db.rows("SELECT a.rowid, b.rowid FROM points a JOIN points b ON (a.x-b.x)*(a.x-b.x) + (a.y-b.y)*(a.y-b.y) < "
                "1.9*1.9 AND a.rowid <> b.rowid") > 0);
  db.check("SELECT CAST(FLOOR(score + 0.5) AS INTEGER) AS bucket, COUNT(*) FROM scores WHERE score BETWEEN 0 AND 100 "
           "GROUP BY bucket ORDER BY bucket");
  db.check("SELECT x, y FROM pairs ORDER BY x, y");
  db.check("SELECT x, y FROM pairs ORDER BY x DESC, y DESC");
  db.check("SELECT SUM(v) FROM vals");
  db.check("SELECT DISTINCT x FROM pairs");
  db.check("SELECT x, COUNT(*), SUM(y), COUNT(DISTINCT y) FROM pairs GROUP BY x ORDER BY COUNT(*) DESC, x");
}

// A lookup table a dictionary keeps (a LIKE's matches) stays on the device
// while the dictionary lives: a query run again reads that upload (check()
// runs each query twice on the GPU), and a table dropped and loaded again
// with other strings gets uploads of its own, also where a new host table
// lands at a dead one's address.
void lookup_uploads(Pair& db) {
  for (int round = 0; round < 3; ++round) {
    INFO("round " << round);
    std::string csv = "id,s\n";
    for (int i = 0; i < 300; ++i) csv += std::to_string(i) + "," + std::string(round + 1, 'x') + std::to_string(i * (round + 3)) + "\n";
    db.load("words", csv);
    for (const char* pattern : {"%1%", "x2%", "%5", "xx%0"})
      CHECK(db.rows("SELECT id, s FROM words WHERE s LIKE '" + std::string(pattern) + "' ORDER BY id") < 300);
    db.check("SELECT COUNT(*), MIN(id), MAX(s) FROM words WHERE s NOT LIKE '%1%' OR id > 250");
    db.exec("DROP TABLE words");
  }
}

void run_small(Pair& db) {
  load_small(db);
  SECTION("lookup tables kept on the device") { lookup_uploads(db); }
  SECTION("hash join") { hash_joins(db); }
  SECTION("nested-loop join") { nested_loop_joins(db); }
  SECTION("GROUP BY") { group_bys(db); }
  SECTION("ORDER BY, LIMIT") { order_bys(db); }
  SECTION("DISTINCT") { distincts(db); }
  SECTION("aggregates without GROUP BY") { global_aggregates(db); }
  SECTION("128-bit steps in aggregates, keys and join conditions") { wide_steps(db); }
  SECTION("the seeds' examples") { sample_data_seeds(db); }
}

}  // namespace

TEST_CASE("device operators: the queries bind and run on the host executor", "[operators]") {
  Pair db(false);
  run_small(db);
}

TEST_CASE("device operators give the host executor's answers", "[gpu][operators]") {
  Pair db(true);
  run_small(db);
}

namespace {

// Dense GROUP BY past 2^16 slots numbers its groups as the runs of the
// sorted slots, in one pass over them (kernels/one_pass_select.cuh): warp
// spans of 1024 positions, tiles of 8192. Sizes one short of a whole span,
// exactly 9 tiles, and one past them; runs of 1, 3, 1000 and 1024 (across
// lanes, spans and tiles: when every span holds a run start, each group is
// one task of the reduce, without a task table) and of 3000 (several
// chunks a group, through the table), shuffled keys, NULL keys, and no
// aggregates.
void run_numbering(Pair& db) {
  for (int rows : {66559, 73728, 81921}) {
    INFO("rows " << rows);
    std::string csv = "id,v,d\n";
    for (int i = 0; i < rows; ++i) {
      const int v = (i * 37) % 1001 - 500;
      csv += std::to_string(i) + "," + std::to_string(v) + "," + fmt("%.17g", v / 7.0) + "\n";
    }
    const std::string t = "runs" + std::to_string(rows);
    db.load(t, csv);
    const std::string n = std::to_string(rows);
    auto groups = [&](int run) { return static_cast<std::size_t>((rows + run - 1) / run); };
    CHECK(db.rows("SELECT id, COUNT(*), SUM(v), SUM(d) FROM " + t + " GROUP BY id") == groups(1));
    CHECK(db.rows("SELECT id / 3 * 3 AS k, COUNT(*), SUM(v), MAX(v), AVG(d) FROM " + t + " GROUP BY k") == groups(3));
    for (int run : {1000, 1024, 3000}) {
      const std::string k = "id / " + std::to_string(run) + " * " + std::to_string(run);
      CHECK(db.rows("SELECT " + k + " AS k, COUNT(*), MIN(v), SUM(v), SUM(d), MIN(d), MAX(d), AVG(d) FROM " + t +
                    " GROUP BY k") == groups(run));
    }
    CHECK(db.rows("SELECT (id * 7919) % " + n + " AS k, COUNT(*), SUM(v) FROM " + t + " GROUP BY k") == groups(1));
    db.check("SELECT CASE WHEN id % 10 = 0 THEN NULL ELSE id / 2 * 2 END AS k, COUNT(*), SUM(v) FROM " + t +
             " GROUP BY k");
    CHECK(db.rows("SELECT id / 5 * 5 AS k FROM " + t + " GROUP BY k") == groups(5));
    // Keys in row order: one plain column's values sorted along, and
    // positions through a filter.
    CHECK(db.rows("SELECT id / 3 * 3 AS k, SUM(v), MIN(v), COUNT(*) FROM " + t + " GROUP BY k") == groups(3));
    db.check("SELECT id / 2 * 2 AS k, SUM(d), MAX(v), COUNT(*) FROM " + t + " WHERE v > 0 GROUP BY k");
  }
}

}  // namespace

TEST_CASE("dense GROUP BY numbers runs of sorted slots: sizes around spans and tiles", "[gpu][operators]") {
  Pair db(true);
  run_numbering(db);
}

TEST_CASE("dense GROUP BY's run numbering queries on the host executor", "[operators]") {
  Pair db(false);
  run_numbering(db);
}

namespace {

void run_large(Pair& db) {
  const int rows = 3000000;
  db.load("big", table_big(rows));
  db.load("dim", "k,name,weight\n0,zero,0.5\n1,one,1.5\n2,two,-2.5\n3,three,3.25\n5,five,5.5\n7,seven,7\n9,nine,-9\n");

  {  // GROUP BY
    // Dense keys: 10 values and NULL; every group over many chunks of 2048.
    CHECK(db.rows("SELECT g10, COUNT(*), COUNT(v), SUM(v), AVG(v), MIN(v), MAX(v), SUM(id), SUM(w) "
                  "FROM big GROUP BY g10") == 11);
    // Hash table: 10^4 keys spread over the BIGINT range.
    CHECK(db.rows("SELECT gk, COUNT(*), SUM(v), AVG(w), ARG_MIN(id, v), ARG_MAX(id, w), ARG_MIN(s, w) FROM big "
                  "GROUP BY gk") == 10000);
    // About a million dense groups; 3M groups, dense and hashed.
    CHECK(db.rows("SELECT gm, COUNT(*), SUM(v), MAX(w) FROM big GROUP BY gm") > 900000);
    CHECK(db.rows("SELECT id, SUM(v), COUNT(*) FROM big GROUP BY id") == rows);
    CHECK(db.rows("SELECT id * 1000003 - 7 AS key, SUM(v), MIN(s) FROM big GROUP BY key") == rows);
    CHECK(db.rows("SELECT v, COUNT(*) FROM big GROUP BY v") > 2900000);
    // Aggregates of one plain column without NULLs: its values sorted along
    // with the group ids (4-byte INTEGER, 8-byte BIGINT and DOUBLE), groups
    // of 300,000 rows (full chunks, three levels), of ~1,500 and of ~3.
    db.check("SELECT g10, SUM(w), MIN(w), MAX(w), AVG(w), COUNT(w), COUNT(*) FROM big GROUP BY g10");
    db.check("SELECT w, SUM(gk), MIN(gk), AVG(gk), COUNT(*) FROM big GROUP BY w");
    db.check("SELECT g10, SUM(x), AVG(x), MIN(x), MAX(x) FROM big GROUP BY g10");
    db.check("SELECT gm, SUM(x), COUNT(*) FROM big GROUP BY gm");
    // Past 2^16 dense slots the groups are the runs of the sorted slots:
    // without aggregates, and with COUNT(DISTINCT) (slots -> group numbers).
    db.check("SELECT gm FROM big GROUP BY gm");
    db.check("SELECT gm, COUNT(DISTINCT g10), COUNT(*) FROM big GROUP BY gm");
    // Several keys; COUNT(DISTINCT) per group.
    db.check("SELECT g10, s, COUNT(*), SUM(v), COUNT(DISTINCT w), COUNT(DISTINCT gm) FROM big GROUP BY g10, s");
    db.check("SELECT s, g10, w % 3 AS m, COUNT(*) AS n, SUM(v) FROM big WHERE w > 0 GROUP BY s, g10, m "
             "ORDER BY n DESC, s, g10, m");
    db.check("SELECT gk, g10, SUM(v) FROM big GROUP BY gk, g10 HAVING COUNT(*) > 40");
    // Groups of 100 rows: tasks of 33-256 values, a thread each walking
    // the canonical block's tree (reduce_medium_tasks_kernel); dense, and
    // one integer key in the hash table with its 30,000 slots ranked.
    db.check("SELECT id % 30000 AS m, SUM(v), AVG(w), MIN(x), MAX(s), COUNT(*), ARG_MIN(id, v) FROM big GROUP BY m");
    db.check("SELECT CAST(id % 30000 AS BIGINT) * 1000003 AS m, SUM(x), AVG(v), COUNT(w) FROM big GROUP BY m");
    // Groups of 30,000 rows: 15 chunks each, whose states a second level
    // combines as tasks of at most 32 items (a thread each).
    db.check("SELECT id % 100 AS m, COUNT(*), SUM(v), AVG(w), MIN(v), ARG_MAX(id, v) FROM big GROUP BY m");
    // Seven groups of ~14,000 rows (chunks of 2048: a warp each) beside
    // millions of one-row groups (a thread each) in the same launches.
    db.check("SELECT CASE WHEN id < 100000 THEN id % 7 ELSE id END AS k, SUM(v), COUNT(*), MAX(s) FROM big "
             "GROUP BY k HAVING COUNT(*) > 1 OR k % 100000 = 3");
    // 3M groups, exact and not only counted as above: dense, and in a hash
    // table that first gets 2^22 slots, stops past a million keys and
    // starts again in 2^23 (kernels/hash_table.hpp); 10^4 keys stay in the
    // first table (gk above).
    db.check("SELECT id, SUM(v), COUNT(*), COUNT(DISTINCT s) FROM big GROUP BY id ORDER BY id LIMIT 1000 OFFSET 5000");
    db.check("SELECT id * 1000003 - 7 AS key, SUM(x), MIN(s), ARG_MAX(w, v) FROM big GROUP BY key "
             "ORDER BY key DESC LIMIT 1000");
    db.check("SELECT v, COUNT(*), SUM(w) FROM big GROUP BY v ORDER BY COUNT(*) DESC, v LIMIT 100");
    db.check("SELECT DISTINCT id % 2000000 AS m FROM big ORDER BY m DESC LIMIT 100");
    // One integer key in the hash table: groups in the keyed table's slot
    // order (kernels::hash_groups), their keys read back from the table,
    // sorted into key order for the comparison row by row; with
    // COUNT(DISTINCT) (slots -> group numbers) and without aggregates.
    db.check("SELECT gk, COUNT(*), SUM(v), AVG(w), ARG_MIN(id, v), COUNT(DISTINCT g10) FROM big GROUP BY gk");
    db.check("SELECT id * 1000003 - 7 AS key, COUNT(*), MAX(s) FROM big GROUP BY key");
    db.check("SELECT gk FROM big GROUP BY gk");
  }
  {  // aggregates without GROUP BY
    db.check("SELECT SUM(v), AVG(v), COUNT(DISTINCT gm), COUNT(DISTINCT s), COUNT(DISTINCT v), COUNT(DISTINCT gk) "
             "FROM big");
    db.check("SELECT MIN(w), ARG_MIN(id, w), MAX(w), ARG_MAX(id, w), ARG_MIN(id, gm), ARG_MAX(id, s) FROM big");
    db.check("SELECT ARG_MIN(id, w), ARG_MAX(id, w), ARG_MIN(id, v) FROM big WHERE g10 = 3 AND v > 0");
  }
  {  // ORDER BY and DISTINCT
    db.check("SELECT id, v FROM big ORDER BY v DESC NULLS FIRST, id LIMIT 100000");
    db.check("SELECT id, g10, gk, s FROM big ORDER BY g10 NULLS FIRST, s DESC, gk LIMIT 50000 OFFSET 1000000");
    db.check("SELECT id, w FROM big ORDER BY w, gm DESC LIMIT 20000 OFFSET 2980000");
    db.check("SELECT gm, w FROM big ORDER BY gm LIMIT 1000");
    CHECK(db.rows("SELECT DISTINCT g10, s FROM big") == 66);
    db.check("SELECT DISTINCT gk FROM big");
    db.check("SELECT DISTINCT w, s FROM big ORDER BY w DESC, s LIMIT 3000");
  }
  if (db.gpu()) {  // out of GPU memory mid-query: a clear error, the tables intact, the next query runs
    DeviceContext& device = *db.gpu()->impl().device;
    const std::vector<std::string> queries = {
        "SELECT id * 1000003 AS key, SUM(v) FROM big GROUP BY key",
        "SELECT COUNT(*), SUM(a.v) FROM big a JOIN big b ON a.id = b.gm",
        "SELECT id FROM big ORDER BY v LIMIT 10 OFFSET 5000",  // past kernels::kMaxTopK: the full sort's buffers
        "SELECT DISTINCT gm FROM big",
        "SELECT COUNT(DISTINCT v) FROM big",
    };
    for (const auto& q : queries) {
      INFO(q);
      device.set_memory_cap(device.bytes_in_use() + (4u << 20));
      CHECK_THROWS_WITH(db.gpu()->query(q), Catch::Contains("out of GPU memory"));
      device.set_memory_cap(0);
      db.check(q);
    }
  }
  {  // joins
    db.check("SELECT d.name, COUNT(*), SUM(b.v), SUM(d.weight) FROM big b JOIN dim d ON b.g10 = d.k GROUP BY d.name");
    db.check("SELECT COUNT(*), SUM(a.v), SUM(b.w) FROM big a JOIN big b ON a.id = b.gm");
    db.check("SELECT a.id, b.id FROM big a JOIN big b ON a.gk = b.gk WHERE a.id < 2000 AND b.id < 3000");
    db.check("SELECT a.id, b.id, a.w, b.w FROM big a JOIN big b ON a.w < b.w - 1990 WHERE a.id < 3000 AND b.id < 5000");
  }
}

}  // namespace

namespace {

// GROUP BY into at most kernels::kFewGroups groups with exact aggregates
// folds with shared-memory atomics (kernels/few_groups.cu), in whatever
// order the rows come: 100,000 rows over several blocks, BIGINT values near
// both ends of the range (a block's partial total passes 2^63 and wraps in
// its low word while the group's total fits), totals past int64 as
// DECIMAL(38), NULL keys and values, 64 groups (the most) and 65 (the
// sorted path), a filter below, and arguments shared by several aggregates.
void run_few_groups(Pair& db) {
  std::string csv = "i,g,h,h65,b,p,w\n";
  for (int i = 0; i < 100000; ++i) {
    const long long shift = i % 1000;
    const long long b = i % 2 == 0 ? 9000000000000000000ll - shift : -9000000000000000000ll + 2 * shift;
    const long long p = 900000000000000000ll + static_cast<long long>(i) * 7919;
    std::string g = i % 101 == 0 ? "" : std::to_string((i / 2) % 7);
    std::string w = i % 13 == 0 ? "" : std::to_string((i * 37) % 2001 - 1000);
    csv += fmt("%d,%s,%d,%d,%lld,%lld,%s\n", i, g.c_str(), i % 64, i % 65, b, p, w.c_str());
  }
  db.load("few", csv);
  CHECK(db.rows("SELECT g, COUNT(*), COUNT(w), SUM(b), MIN(b), MAX(b), AVG(b), SUM(w) FROM few GROUP BY g") == 8);
  db.check("SELECT g, SUM(CAST(p AS DECIMAL(18,0))), AVG(p), SUM(CAST(w AS DECIMAL(10,2)) * 1.5), MIN(p), MAX(w) "
           "FROM few GROUP BY g ORDER BY g");
  CHECK(db.rows("SELECT h, COUNT(*), SUM(w), MIN(w), MAX(w), AVG(w), COUNT(DISTINCT w) FROM few GROUP BY h") == 64);
  CHECK(db.rows("SELECT h65, COUNT(*), SUM(w), MIN(w), MAX(w), AVG(w) FROM few GROUP BY h65") == 65);
  db.check("SELECT g, h % 3 AS k, COUNT(*), SUM(w), AVG(w), MIN(w * 2), MAX(w * 2), SUM(w * 2) FROM few "
           "WHERE w > 0 GROUP BY g, k");
  db.check("SELECT g, SUM(w), COUNT(*) FROM few WHERE w IS NULL GROUP BY g");
  db.check("SELECT COUNT(*), SUM(b), MIN(w) FROM few GROUP BY i % 1");
  // A few groups: every lane of a warp in one of them (contended shared
  // states), int64 totals wrapping (b near both ends), NULL values and
  // keys, extremes.
  db.check("SELECT i % 3 AS k, COUNT(*), COUNT(w), SUM(w), MIN(w), MAX(w), AVG(w), SUM(CAST(p AS DECIMAL(18,0))) "
           "FROM few GROUP BY k ORDER BY k");
  db.check("SELECT i % 3 AS k, MIN(b), MAX(b), MIN(p) FROM few GROUP BY k ORDER BY k");
  // More than 8 aggregates (a kernel's most) run in sets of 8, side by
  // side: few groups, sorted groups, groups numbered by the runs of their
  // sorted slots (100,000), and no GROUP BY.
  const std::string ten = "COUNT(*), COUNT(w), SUM(w), MIN(w), MAX(w), AVG(w), MIN(b), MAX(b), SUM(i), MAX(p)";
  CHECK(db.rows("SELECT i % 3 AS k, " + ten + " FROM few GROUP BY k ORDER BY k") == 3);
  CHECK(db.rows("SELECT h65, " + ten + ", MIN(i) FROM few GROUP BY h65 ORDER BY h65") == 65);
  CHECK(db.rows("SELECT i, " + ten + " FROM few GROUP BY i ORDER BY i") == 100000);
  db.check("SELECT " + ten + ", AVG(i) FROM few WHERE w > 0");
  db.check("SELECT (i / 2) % 4 AS k, SUM(b), AVG(b), COUNT(*) FROM few GROUP BY k ORDER BY k");
  db.check("SELECT g IS NULL AS k, SUM(w), MIN(p), COUNT(w), COUNT(*) FROM few WHERE i % 5 <> 0 GROUP BY k");
  db.check("SELECT CASE WHEN i % 4 = 0 THEN NULL ELSE i % 4 END AS k, SUM(w), MAX(w), SUM(p), COUNT(*) FROM few "
           "WHERE i < 5 GROUP BY k");
  db.check("SELECT b > 0 AS k, SUM(b), COUNT(*) FROM few GROUP BY k", true);
  // A run-time error in an argument is the host's error.
  db.check("SELECT g, SUM(b * 2) FROM few GROUP BY g", true);
  db.check("SELECT g, SUM(b) FROM few WHERE b > 0 GROUP BY g", true);
}

}  // namespace

TEST_CASE("GROUP BY into few groups folds exact aggregates in any order", "[gpu][operators]") {
  Pair db(true);
  run_few_groups(db);
}

TEST_CASE("GROUP BY into few groups: the queries on the host executor", "[operators]") {
  Pair db(false);
  run_few_groups(db);
}

TEST_CASE("device operators at scale: 3M rows, 10 to 3M groups", "[gpu][operators][large]") {
  Pair db(true);
  run_large(db);
}

// The large queries on the host executor alone (slow; run by hand to check
// that they bind and give the expected row counts).
TEST_CASE("device operators at scale: the queries on the host executor", "[.][operators-large-host]") {
  Pair db(false);
  run_large(db);
}
