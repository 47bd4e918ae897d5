// ORDER BY, ORDER BY ... LIMIT (top-k) and nested-loop joins on the device
// against the host executor's stable sort and pair order: the same SQL on
// the same data must give the same rows in the same order, doubles with the
// same bits. Every GPU query runs twice and must repeat itself.
//
// The tables are large enough that ORDER BY ... LIMIT k takes the top-k
// path (kernels::top_positions needs rows >= 8k + 1024) and that the select
// runs more than one histogram round; keys of every type, with and without
// NULLs (a column without NULLs has no validity bitmap and takes the
// one-pass encode), ties across the k-th value, -0.0 next to 0.0, NaN.
//
// Inputs of 2 to kernels::kSmallSortRows (4096) rows take the small-input
// path (a rank count, no synchronization): a table of 4096 rows and one of
// 4097, GROUP BY results, filtered inputs straddling the 256-row chunks, 8
// and 9 keys; each such query runs with the path on and off
// (SET small_sort = false), both against the host.
//
// The [gpu] cases need a device; the host-only case runs the same queries on
// the host executor everywhere, so a query that stops binding is noticed.
#include <catch2/catch.hpp>

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>

#include "engine/database_impl.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;
using namespace gpusql::test;

namespace {

// "" when identical (doubles by their bits), else where they first differ.
std::string difference(const Result& expected, const Result& actual) {
  if (expected.column_count() != actual.column_count())
    return fmt("columns: host %zu, gpu %zu", expected.column_count(), actual.column_count());
  for (std::size_t c = 0; c < expected.column_count(); ++c)
    if (expected.column_type(c) != actual.column_type(c)) return "column " + std::to_string(c) + ": types differ";
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
        return fmt("row %zu of %zu, column %zu: host ", r, expected.row_count(), c) + expected.text(r, c) + ", gpu " +
               actual.text(r, c);
    }
  return "";
}

// The same statements on a host and (where wanted) a GPU database.
class Pair {
 public:
  explicit Pair(bool with_gpu) : host_(Options{ExecutorKind::Host}) {
    if (with_gpu) gpu_ = std::make_unique<Database>(Options{ExecutorKind::Gpu});
  }

  std::string write(const std::string& name, const std::string& contents) { return dir_.write(name, contents); }
  DeviceContext& device() { return *gpu_->impl().device; }  // with a GPU only
  void execute(const std::string& sql) {
    host_.query(sql);
    if (gpu_) gpu_->query(sql);
  }

  // Runs `sql` on the host and, with a GPU, twice on it: the GPU must give
  // the host's result both times. Returns the host's row count.
  std::size_t check(const std::string& sql) {
    INFO("query: " << sql);
    Result expected = host_.query(sql);
    if (gpu_)
      for (int attempt = 0; attempt < 2; ++attempt) {
        INFO("GPU run " << attempt + 1);
        Result actual = gpu_->query(sql);
        std::string diff = difference(expected, actual);
        INFO(diff);
        CHECK(diff.empty());
      }
    return expected.row_count();
  }

  // Like check(), but the GPU runs `sql` once with the small-input ORDER BY
  // path allowed and once with SET small_sort = false: both must give the
  // host's result.
  std::size_t check_sort_paths(const std::string& sql) {
    INFO("query: " << sql);
    Result expected = host_.query(sql);
    if (gpu_)
      for (const char* small_sort : {"true", "false"}) {
        INFO("SET small_sort = " << small_sort);
        gpu_->query(std::string("SET small_sort = ") + small_sort);
        Result actual = gpu_->query(sql);
        gpu_->query("RESET small_sort");
        std::string diff = difference(expected, actual);
        INFO(diff);
        CHECK(diff.empty());
      }
    return expected.row_count();
  }

 private:
  TempDir dir_;
  Database host_;
  std::unique_ptr<Database> gpu_;
};

// `table` (s): `rows` rows, typed. i/ni INTEGER, b/nb BIGINT (spanning the
// whole range), d/nd DOUBLE (-0.0 and 0.0, ties), r REAL, v VARCHAR, dt DATE,
// dc DECIMAL, g INTEGER of 10 values, c a constant, p BOOLEAN; the n* columns
// and g, c have no NULL, the others about 3% NULLs. The same seed for every
// table: a table's rows are the first rows of a longer one.
void load_s(Pair& db, int rows, const std::string& table = "s") {
  const char* words[] = {"pear", "apple", "fig", "", "kiwi", "plum", "apricot"};
  std::string csv;
  csv.reserve(static_cast<std::size_t>(rows) * 120);
  uint64_t state = 99;
  for (int i = 0; i < rows; ++i) {
    const uint64_t a = next_random(state), b = next_random(state);
    auto maybe = [&](int salt, const std::string& value) { return (a >> salt) % 31 == 0 ? std::string() : value; };
    const int small = static_cast<int>(a % 2001) - 1000;
    const long long big = static_cast<long long>(b);  // the whole BIGINT range
    const double dv = (a >> 40) % 7 == 0 ? ((a >> 8) % 2 ? -0.0 : 0.0)
                                         : static_cast<double>(static_cast<long long>(b >> 20) % 20001 - 10000) / 8.0;
    const double nd = static_cast<double>(b >> 11) / 9007199254740992.0 * 2000.0 - 1000.0;
    csv += fmt("%d,%s,%d,%s,%lld,%s,%.17g,%s,%s,%s,%s,%d,7,%s\n", i, maybe(3, std::to_string(small)).c_str(),
               static_cast<int>(b % 100000) - 50000, maybe(5, std::to_string(big)).c_str(), big,
               maybe(7, fmt("%.17g", dv)).c_str(), nd, maybe(9, fmt("%.3f", dv / 3.0)).c_str(),
               maybe(11, words[(b >> 30) % 7]).c_str(),
               maybe(13, fmt("19%02d-%02d-%02d", static_cast<int>((b >> 5) % 100), static_cast<int>((b >> 12) % 12) + 1,
                             static_cast<int>((b >> 17) % 28) + 1))
                   .c_str(),
               maybe(15, fmt("%.2f", static_cast<double>(small) / 7.0)).c_str(), static_cast<int>((b >> 40) % 10),
               maybe(17, (b >> 50) % 2 ? "true" : "false").c_str());
  }
  std::string path = db.write(table + ".csv", csv);
  db.execute("CREATE TABLE " + table +
             " (id INTEGER NOT NULL, i INTEGER, ni INTEGER NOT NULL, b BIGINT, nb BIGINT NOT NULL, d DOUBLE, "
             "nd DOUBLE NOT NULL, r REAL, v VARCHAR, dt DATE, dc DECIMAL(12,2), g INTEGER NOT NULL, "
             "c INTEGER NOT NULL, p BOOLEAN)");
  db.execute("COPY " + table + " FROM '" + path + "' (HEADER false)");
}

void sorts(Pair& db) {
  // One key of each type, both directions, NULLs first and last; rowid shows
  // that ties keep input order.
  for (const char* column : {"i", "ni", "b", "nb", "d", "nd", "r", "v", "dt", "dc", "g", "c", "p", "rowid"})
    for (const char* order : {"", " DESC", " NULLS FIRST", " DESC NULLS LAST", " DESC NULLS FIRST"})
      db.check(fmt("SELECT rowid, %s FROM s ORDER BY %s%s", column, column, order));
  // Several keys, mixed directions and NULL placements.
  db.check("SELECT rowid, g, i, v FROM s ORDER BY g, i DESC, v NULLS FIRST");
  db.check("SELECT rowid, v, d, b FROM s ORDER BY v DESC NULLS FIRST, d, b DESC");
  db.check("SELECT rowid, dt, r FROM s ORDER BY dt DESC, r NULLS FIRST");
  db.check("SELECT rowid, g, nd FROM s ORDER BY g DESC, nd");
  db.check("SELECT rowid, c, g FROM s ORDER BY c, g DESC");
  db.check("SELECT id, dc, ni FROM s ORDER BY dc NULLS FIRST, ni DESC");
  // Keys over a filtered input (positions through row ids) and expressions.
  db.check("SELECT rowid, i, d FROM s WHERE id % 3 = 1 ORDER BY d DESC, i");
  db.check("SELECT id, ni % 7 AS m FROM s ORDER BY m, id DESC");
  db.check("SELECT id FROM s ORDER BY ni - 3, i * 2 DESC NULLS FIRST");
  // A small range around zero (the codes cross a boundary: rebased), a
  // BIGINT of small range (sorted as 32-bit codes).
  db.check("SELECT id, ni % 5 AS x FROM s ORDER BY x, id");
  db.check("SELECT id, CAST(g AS BIGINT) - 5 AS x FROM s ORDER BY x DESC");
  // NaN (inf - inf) sorts after every other value; its bits differ between
  // the executors, so only the order is compared.
  db.execute("CREATE TABLE n AS SELECT id, i, d * 1e308 * 10 - d * 1e308 * 10 AS x FROM s WHERE id < 3000");
  db.check("SELECT id, x IS NULL FROM n ORDER BY x, id DESC");
  db.check("SELECT id FROM n ORDER BY x DESC NULLS FIRST, i");
  db.check("SELECT id FROM n ORDER BY x DESC LIMIT 40");
  db.check("SELECT id FROM n ORDER BY x NULLS FIRST LIMIT 400 OFFSET 3");
  // Empty, one and two rows.
  db.check("SELECT * FROM s WHERE id < 0 ORDER BY d, v DESC");
  db.check("SELECT * FROM s WHERE id = 5 ORDER BY d DESC");
  db.check("SELECT id, i FROM s WHERE id < 2 ORDER BY i DESC, id");
}

// `z`: `rows` rows of NOT NULL columns, which the device sorts as the first
// key by CUB's radix sort over the column's own values (no codes written;
// kernels/sort_column.cu) -- or, where that would not give SQL's order or
// would take more passes, by codes. zd DOUBLE and zr REAL with -0.0 next to
// 0.0, the smallest subnormals, the largest finite values, ties; zi INTEGER
// with its extremes; zt DATE before and after 1970; zs INTEGER in -5..5
// (fewer passes as codes minus their minimum: not sorted as values); zk
// DOUBLE whole numbers (their low bits all zero: fewer bits to sort); zf
// DOUBLE within 2^32 codes of each other (sorted as 32-bit codes); zc a
// constant DOUBLE.
void load_z(Pair& db, int rows) {
  const char* doubles[] = {"-0.0", "0.0", "4.9406564584124654e-324", "-4.9406564584124654e-324",
                           "1.7976931348623157e+308", "-1.7976931348623157e+308", "1.5", "-1.5", "2.5e-310"};
  const char* reals[] = {"-0.0", "0.0", "1.40129846e-45", "-1.40129846e-45", "3.40282347e+38", "-3.40282347e+38",
                         "1.5", "-1.5", "0.25"};
  std::string csv;
  uint64_t state = 5;
  for (int i = 0; i < rows; ++i) {
    const uint64_t a = next_random(state), b = next_random(state);
    const std::string zd = a % 3 == 0 ? doubles[(a >> 8) % 9]
                                      : fmt("%.17g", static_cast<double>(static_cast<int64_t>(b)) * 1e-10);
    const std::string zr = (a >> 4) % 3 == 0 ? reals[(a >> 12) % 9]
                                             : fmt("%.9g", static_cast<double>(static_cast<int32_t>(b >> 32)) / 64.0);
    const int extremes[] = {INT32_MIN, INT32_MAX, 0, -1};
    const int zi = (a >> 16) % 5 == 0 ? extremes[(a >> 20) % 4] : static_cast<int32_t>(b);
    csv += fmt("%d,%s,%s,%d,19%02d-%02d-%02d,%d,%d,%.17g,%.17g,2.5\n", i, zd.c_str(), zr.c_str(), zi,
               static_cast<int>((b >> 5) % 100), static_cast<int>((b >> 12) % 12) + 1,
               static_cast<int>((b >> 17) % 28) + 1, static_cast<int>((a >> 24) % 11) - 5,
               static_cast<int>((a >> 28) % 1000), static_cast<double>((a >> 32) % 1000),
               1.0 + static_cast<double>((b >> 40) % 1000) / 1073741824.0);
  }
  db.execute("CREATE TABLE z (id INTEGER NOT NULL, zd DOUBLE NOT NULL, zr REAL NOT NULL, zi INTEGER NOT NULL, "
             "zt DATE NOT NULL, zs INTEGER NOT NULL, zm INTEGER NOT NULL, zk DOUBLE NOT NULL, zf DOUBLE NOT NULL, "
             "zc DOUBLE NOT NULL)");
  db.execute("COPY z FROM '" + db.write("z.csv", csv) + "' (HEADER false)");
}

void column_sorts(Pair& db) {
  // rowid shows that ties keep input order.
  for (const char* column : {"zd", "zr", "zi", "zt", "zs", "zm", "zk", "zf", "zc"})
    for (const char* order : {"", " DESC"}) {
      db.check(fmt("SELECT rowid, %s FROM z ORDER BY %s%s", column, column, order));
      // As the first key sorted of two (the last one named); over filtered rows
      // (positions through row ids: codes).
      db.check(fmt("SELECT rowid, zm, %s FROM z ORDER BY zm DESC, %s%s", column, column, order));
      db.check(fmt("SELECT rowid, %s FROM z WHERE id %% 3 = 0 ORDER BY %s%s", column, column, order));
    }
  // Infinities (no NULL: still the column's own values), and NaN (inf - inf:
  // by codes, after every other value). NaN's bits differ between the
  // executors, so only the order is compared.
  db.execute("CREATE TABLE zn AS SELECT id, zd * 1e308 * 10 AS zinf, zd * 1e308 * 10 - zd * 1e308 * 10 AS x FROM z");
  for (const char* order : {"", " DESC"}) {
    db.check(fmt("SELECT rowid, zinf FROM zn ORDER BY zinf%s", order));
    db.check(fmt("SELECT rowid FROM zn ORDER BY x%s", order));
    db.check(fmt("SELECT rowid FROM zn WHERE x <> 0 OR x IS NULL ORDER BY x%s", order));
  }
}

void top_ks(Pair& db, int rows) {
  // k = 0, 1, small, at the limit of the top-k path, and past the rows.
  for (const char* column : {"i", "ni", "b", "nb", "d", "nd", "r", "v", "dt", "dc"})
    for (const char* order : {"", " DESC NULLS FIRST", " NULLS FIRST", " DESC"})
      for (const char* limit : {"LIMIT 0", "LIMIT 1", "LIMIT 10", "LIMIT 100 OFFSET 7", "LIMIT 1000"})
        db.check(fmt("SELECT rowid, %s FROM s ORDER BY %s%s %s", column, column, order, limit));
  db.check("SELECT id, i FROM s ORDER BY i LIMIT 4096");
  db.check("SELECT id, i FROM s ORDER BY i LIMIT 4000 OFFSET 96");
  db.check("SELECT id, i FROM s ORDER BY i LIMIT 4000 OFFSET 97");  // past kMaxTopK: the full sort
  db.check(fmt("SELECT id, d FROM s ORDER BY d LIMIT %d", rows + 5));
  db.check(fmt("SELECT id, d FROM s ORDER BY d DESC LIMIT 20 OFFSET %d", rows - 10));
  db.check(fmt("SELECT id FROM s ORDER BY d LIMIT 5 OFFSET %d", rows + 1));
  // Ties across the k-th value: g has 10 values, c one; -0.0 ties with 0.0;
  // the secondary keys order the tie group.
  db.check("SELECT rowid, g FROM s ORDER BY g LIMIT 50");
  db.check("SELECT rowid, g FROM s ORDER BY g DESC LIMIT 777 OFFSET 11");
  db.check("SELECT rowid, g, i FROM s ORDER BY g, i DESC NULLS FIRST LIMIT 300");
  db.check("SELECT rowid, g, v, d FROM s ORDER BY g DESC, v, d DESC LIMIT 2000");
  db.check("SELECT rowid, c FROM s ORDER BY c LIMIT 25");
  db.check("SELECT rowid, c, nd FROM s ORDER BY c, nd DESC LIMIT 25");
  db.check("SELECT rowid, d FROM s WHERE d = 0 OR d > 1200 ORDER BY d LIMIT 90");
  db.check("SELECT rowid, d, v FROM s ORDER BY d NULLS FIRST, v LIMIT 1500");
  // Over filtered input, expressions, aggregates, DISTINCT.
  db.check("SELECT id, nd FROM s WHERE g < 4 ORDER BY nd DESC LIMIT 33");
  db.check("SELECT id, ni * 3 - id AS x FROM s ORDER BY x, id DESC LIMIT 64");
  db.check("SELECT g, COUNT(*), SUM(ni) AS t FROM s GROUP BY g ORDER BY t DESC LIMIT 3");
  db.check("SELECT DISTINCT v FROM s ORDER BY v DESC LIMIT 4");
  db.check("SELECT id FROM s LIMIT 10 OFFSET 5");
}

// ORDER BY over inputs of at most kernels::kSmallSortRows rows -- t (4096
// rows), s (4097, past the small path: the radix and top-k paths), filtered
// and grouped inputs -- each with the small path on and off.
void small_sorts(Pair& db) {
  // One key of each type, both directions, NULLs first and last; rowid shows
  // that ties keep input order.
  for (const char* column : {"i", "ni", "b", "nb", "d", "nd", "r", "v", "dt", "dc", "g", "c", "p", "rowid"})
    for (const char* order : {"", " DESC", " NULLS FIRST", " DESC NULLS LAST", " DESC NULLS FIRST"})
      CHECK(db.check_sort_paths(fmt("SELECT rowid, %s FROM t ORDER BY %s%s", column, column, order)) == 4096);
  // Two and three keys: ties on the first keys (g, c, p, v have few values),
  // NULLs in later keys, mixed directions and NULL placements.
  struct Input {
    const char* table;
    std::size_t rows;
  };
  for (const Input input : {Input{"t", 4096}, Input{"s", 4097}}) {
    const std::string from = std::string(" FROM ") + input.table + " ORDER BY ";
    CHECK(db.check_sort_paths("SELECT rowid, g, i, v" + from + "g, i DESC, v NULLS FIRST") == input.rows);
    db.check_sort_paths("SELECT rowid, v, d, b" + from + "v DESC NULLS FIRST, d, b DESC");
    db.check_sort_paths("SELECT rowid, dt, r" + from + "dt DESC, r NULLS FIRST");
    db.check_sort_paths("SELECT rowid, p, d" + from + "p DESC NULLS FIRST, d DESC NULLS LAST");
    db.check_sort_paths("SELECT rowid, p, g, nd" + from + "p, g DESC, nd");
    db.check_sort_paths("SELECT rowid, c, g" + from + "c, g DESC");
    db.check_sort_paths("SELECT id, dc, ni" + from + "dc NULLS FIRST, ni DESC");
    db.check_sort_paths("SELECT rowid, v, d" + from + "v, d NULLS FIRST");
    db.check_sort_paths("SELECT rowid, g, nb, r" + from + "g DESC, nb, r DESC");
    db.check_sort_paths("SELECT id, i, d" + from + "i DESC NULLS FIRST, d, id DESC");
    // LIMIT: t takes the small path where s takes the top-k select.
    db.check_sort_paths("SELECT rowid, d" + from + "d LIMIT 10");
    db.check_sort_paths("SELECT rowid, g, v" + from + "g DESC, v NULLS FIRST LIMIT 100 OFFSET 5");
    db.check_sort_paths("SELECT rowid, b" + from + "b DESC LIMIT 1000");
  }
  // 8 keys (the most the small path takes) and 9 (the radix path).
  db.check_sort_paths("SELECT rowid FROM t ORDER BY g, c, p, v DESC, dt, i NULLS FIRST, r, b DESC");
  db.check_sort_paths("SELECT rowid FROM t ORDER BY g, c, p, v DESC, dt, i NULLS FIRST, r, b DESC, d");
  db.check_sort_paths("SELECT rowid FROM t ORDER BY c, p NULLS FIRST, g DESC, v, d, r, dc, ni");
  // Sizes around the 256-position chunks of the rank count (positions
  // through row ids: a filtered input), and 2 and 3 rows.
  for (int rows : {2, 3, 31, 255, 256, 257, 511, 512, 513, 1000, 4095, 4096}) {
    const std::string where = fmt(" FROM t WHERE id < %d ORDER BY ", rows);
    CHECK(db.check_sort_paths("SELECT rowid, g, d" + where + "g, d DESC") == static_cast<std::size_t>(rows));
    db.check_sort_paths("SELECT rowid, v, p, i" + where + "v NULLS FIRST, p DESC, i");
    db.check_sort_paths("SELECT rowid, nd" + where + "nd DESC");
  }
  db.check_sort_paths("SELECT rowid, i, d FROM t WHERE id % 3 = 1 ORDER BY d DESC, i");
  db.check_sort_paths("SELECT rowid, i, d FROM s WHERE id % 3 <> 1 ORDER BY i NULLS FIRST, d");
  // Keys that are expressions.
  db.check_sort_paths("SELECT id, ni % 7 AS m FROM t ORDER BY m, id DESC");
  db.check_sort_paths("SELECT id, i > 0 AS q FROM t ORDER BY q DESC NULLS FIRST, id");
  db.check_sort_paths("SELECT id FROM t ORDER BY ni - 3, i * 2 DESC NULLS FIRST");
  // GROUP BY results of 7 to a few thousand rows, as analytic queries sort
  // them. The aggregates are of exact types (a MIN or MAX of doubles could
  // pick either of -0.0 and 0.0); each order ends in the group keys, so no
  // tie depends on the groups' order.
  db.check_sort_paths("SELECT v, COUNT(*) AS n FROM t GROUP BY v ORDER BY n DESC, v");
  db.check_sort_paths("SELECT g, v, COUNT(*) AS n, SUM(ni) AS total FROM t GROUP BY g, v ORDER BY g, total DESC, v");
  db.check_sort_paths("SELECT v, p, SUM(nb % 1000) AS total FROM s GROUP BY v, p ORDER BY v DESC, p NULLS FIRST");
  db.check_sort_paths("SELECT ni % 50 AS m, g, SUM(ni) AS total, MAX(dc) AS top FROM t GROUP BY m, g "
                      "ORDER BY top DESC NULLS FIRST, m, g");
  db.check_sort_paths("SELECT dt, COUNT(*) AS n, MIN(b) AS low FROM s GROUP BY dt ORDER BY n DESC, low, dt");
  // NaN (inf - inf) sorts after every other value; its bits differ between
  // the executors, so only the order is compared.
  db.execute("CREATE TABLE tn AS SELECT id, i, d, d * 1e308 * 10 - d * 1e308 * 10 AS x FROM t WHERE id < 3000");
  db.check_sort_paths("SELECT id, x IS NULL FROM tn ORDER BY x, id DESC");
  db.check_sort_paths("SELECT id FROM tn ORDER BY x DESC NULLS FIRST, i");
  db.check_sort_paths("SELECT id, d FROM tn ORDER BY x NULLS FIRST, d DESC, i");
  // Empty and one row: nothing to sort.
  db.check_sort_paths("SELECT * FROM t WHERE id < 0 ORDER BY d, v DESC");
  db.check_sort_paths("SELECT * FROM t WHERE id = 5 ORDER BY d DESC");
}

// l, r: small tables for nested-loop joins; the right side's sizes straddle
// the device's tile sizes (0, 1, 255, 256, 257, 1000 rows), NULLs on both.
void load_join_tables(Pair& db) {
  std::string l = "id,k,x\n", r = "id,k,x\n";
  uint64_t state = 7;
  for (int i = 0; i < 300; ++i) {
    uint64_t a = next_random(state);
    l += fmt("%d,%s,%s\n", i, a % 13 == 0 ? "" : std::to_string(static_cast<int>(a % 50)).c_str(),
             a % 17 == 0 ? "" : fmt("%.3f", static_cast<double>((a >> 10) % 1000) / 100.0).c_str());
  }
  for (int i = 0; i < 1000; ++i) {
    uint64_t a = next_random(state);
    r += fmt("%d,%s,%s\n", i, a % 11 == 0 ? "" : std::to_string(static_cast<int>(a % 50)).c_str(),
             a % 19 == 0 ? "" : fmt("%.3f", static_cast<double>((a >> 10) % 1000) / 100.0).c_str());
  }
  db.execute("CREATE TABLE l (id INTEGER NOT NULL, k INTEGER, x DOUBLE)");
  db.execute("CREATE TABLE r (id INTEGER NOT NULL, k INTEGER, x DOUBLE)");
  db.execute("COPY l FROM '" + db.write("l.csv", l) + "'");
  db.execute("COPY r FROM '" + db.write("r.csv", r) + "'");
}

void nested_loop_joins(Pair& db, std::initializer_list<int> right_row_counts = {0, 1, 2, 31, 255, 256, 257, 1000}) {
  for (int right_rows : right_row_counts) {
    const std::string w = fmt("b.id < %d", right_rows);
    db.check("SELECT a.id, b.id FROM l a JOIN r b ON a.k < b.k AND " + w);
    db.check("SELECT a.id, b.id, a.x, b.x FROM l a JOIN r b ON (a.x - b.x) * (a.x - b.x) < 0.05 AND " + w);
    db.check("SELECT a.id, b.id FROM l a JOIN r b ON (a.k <> b.k OR b.x IS NULL) AND " + w);
    db.check("SELECT a.id, b.id FROM r b JOIN l a ON a.x > b.x + 9 AND " + w);
  }
  db.check("SELECT a.id, b.id FROM l a, r b WHERE a.id < 3 AND b.id < 300");
  db.check("SELECT COUNT(*), SUM(a.id * b.k) FROM l a JOIN r b ON a.k < b.k OR a.x < b.x");
}

// ln, rn: the same shapes without NULLs (no validity bitmaps), so the GPU
// tests pairs with the register pair program (kernels/pair_program.hpp);
// nn adds NaN, infinities and -0.0 (CTAS: a CSV cannot spell NaN).
void load_lean_join_tables(Pair& db) {
  std::string l, r;
  uint64_t state = 9;
  for (int i = 0; i < 300; ++i) {
    const uint64_t a = next_random(state);
    l += fmt("%d,%d,%.3f,%.2f\n", i, static_cast<int>(a % 50), static_cast<double>((a >> 10) % 1000) / 100.0,
             static_cast<double>((a >> 30) % 800) / 100.0 - 4.0);
  }
  for (int i = 0; i < 1000; ++i) {
    const uint64_t a = next_random(state);
    r += fmt("%d,%d,%.3f,%.2f\n", i, static_cast<int>(a % 50), static_cast<double>((a >> 10) % 1000) / 100.0,
             static_cast<double>((a >> 30) % 800) / 100.0 - 4.0);
  }
  for (const char* t : {"ln", "rn"})
    db.execute(fmt("CREATE TABLE %s (id INTEGER NOT NULL, k INTEGER NOT NULL, x DOUBLE NOT NULL, f REAL NOT NULL)", t));
  db.execute("COPY ln FROM '" + db.write("ln.csv", l) + "' (HEADER false)");
  db.execute("COPY rn FROM '" + db.write("rn.csv", r) + "' (HEADER false)");
  // x: NaN (inf - inf) where id % 7 = 0, +inf where id % 7 = 1, -0.0 where id % 7 = 2, else x / 2.
  db.execute("CREATE TABLE nn AS SELECT id, k, CASE WHEN id % 7 = 0 THEN 1e308 * 10 - 1e308 * 10 "
             "WHEN id % 7 = 1 THEN 1e308 * 10 WHEN id % 7 = 2 THEN -0.0 ELSE x / 2 END AS x FROM rn WHERE id < 300");
}

void lean_joins(Pair& db, std::initializer_list<int> right_row_counts = {1, 255, 256, 257, 1000}) {
  for (int right_rows : right_row_counts) {
    const std::string w = fmt("b.id < %d", right_rows);
    db.check("SELECT a.id, b.id FROM ln a JOIN rn b ON a.k < b.k AND " + w);
    db.check("SELECT a.id, b.id, a.x, b.x FROM ln a JOIN rn b ON (a.x - b.x) * (a.x - b.x) < 0.05 AND " + w);
    // The seeds' neighbour list, with f for y.
    db.check("SELECT a.rowid, b.rowid FROM ln a JOIN rn b ON (a.x - b.x) * (a.x - b.x) + (a.f - b.f) * (a.f - b.f) "
             "< 1.9 * 1.9 AND a.rowid <> b.rowid AND " + w);
    db.check("SELECT a.id, b.id FROM ln a JOIN rn b ON (a.x > b.x + 9 OR NOT (a.k = b.k)) AND a.k < b.x AND " + w);
    db.check("SELECT a.id, b.id FROM rn b JOIN ln a ON -a.x <= b.f - 3 AND a.f IS NOT NULL AND " + w);
  }
  db.check("SELECT a.id, b.id, a.x, b.x FROM nn a JOIN nn b ON a.x = b.x AND a.id <> b.id");
  db.check("SELECT a.id, b.id FROM nn a JOIN nn b ON a.x < b.x - 1 OR a.x <> b.x AND a.k = b.k");
  db.check("SELECT COUNT(*), SUM(a.id - b.id) FROM nn a JOIN ln b ON a.x >= b.x OR a.x * 0 <> 0");
}

}  // namespace

TEST_CASE("device ORDER BY, top-k and NLJ: the queries run on the host executor", "[sort-host]") {
  Pair db(false);
  const int rows = 20000;
  load_s(db, rows);
  load_z(db, rows);
  load_join_tables(db);
  load_lean_join_tables(db);
  sorts(db);
  column_sorts(db);
  top_ks(db, rows);
  nested_loop_joins(db);
  lean_joins(db);
}

TEST_CASE("small-input ORDER BY path: the queries run on the host executor", "[sort-host]") {
  Pair db(false);
  load_s(db, 4097);
  load_s(db, 4096, "t");
  small_sorts(db);
}

TEST_CASE("device ORDER BY of at most 4096 rows: the small path, the radix path and the host agree",
          "[gpu][sort][small-sort]") {
  Pair db(true);
  load_s(db, 4097);
  load_s(db, 4096, "t");
  small_sorts(db);
}

// The small path's kernels over a few chunks only: what compute-sanitizer's
// racecheck runs (the case above takes it far past its time budget).
TEST_CASE("device ORDER BY of 700 rows: the small path over 3 x 3 blocks", "[gpu][sort][small-sort-light]") {
  Pair db(true);
  load_s(db, 700, "t");
  CHECK(db.check_sort_paths("SELECT rowid, g, i, v FROM t ORDER BY g, i DESC, v NULLS FIRST") == 700);
  CHECK(db.check_sort_paths("SELECT rowid, p, d FROM t ORDER BY p DESC NULLS FIRST, d DESC NULLS LAST") == 700);
  CHECK(db.check_sort_paths("SELECT rowid, c, g FROM t ORDER BY c, g DESC") == 700);
}

TEST_CASE("device ORDER BY gives the host executor's stable order", "[gpu][sort]") {
  Pair db(true);
  load_s(db, 20000);
  load_z(db, 20000);
  sorts(db);
  column_sorts(db);
}

// ORDER BY a DOUBLE column without NULLs sorts the column's own values
// (kernels/sort_column.cu), which needs 28 bytes a row of device memory
// where the encode path needs 24. Capped just below what the column path
// took, the query must still give the host's rows: the encode path's.
TEST_CASE("device ORDER BY of a column without NULLs: out of memory for its buffers, the encode path sorts",
          "[gpu][sort]") {
  Pair db(true);
  const std::size_t rows = std::size_t{1} << 18;
  std::string csv;
  uint64_t state = 11;
  for (std::size_t i = 0; i < rows; ++i)
    csv += fmt("%zu,%.17g\n", i, static_cast<double>(static_cast<int64_t>(next_random(state))) * 1e-10);
  db.execute("CREATE TABLE w (id INTEGER NOT NULL, v DOUBLE NOT NULL)");
  db.execute("COPY w FROM '" + db.write("w.csv", csv) + "' (HEADER false)");
  const std::string query = "SELECT id, v FROM w ORDER BY v DESC";
  DeviceContext& device = db.device();
  device.synchronize();
  const std::size_t before = device.bytes_in_use();
  device.reset_peak();
  CHECK(db.check(query) == rows);
  const std::size_t needed = device.peak_bytes_in_use() - before;
  INFO("the uncapped query held " << needed << " bytes at most");
  CHECK(needed >= 28 * rows);
  device.set_memory_cap(before + needed - 2 * rows);  // 2 bytes a row short of the column path
  CHECK(db.check(query) == rows);
  // Well below the encode path's 24 bytes a row: the out-of-memory error.
  device.set_memory_cap(before + 16 * rows);
  CHECK_THROWS_WITH(db.check(query), Catch::Contains("out of GPU memory"));
  device.set_memory_cap(0);
  CHECK(db.check(query) == rows);
}

TEST_CASE("device ORDER BY ... LIMIT (top-k) gives the host executor's rows", "[gpu][topk]") {
  Pair db(true);
  const int rows = 20000;
  load_s(db, rows);
  top_ks(db, rows);
}

TEST_CASE("device top-k over 1.2M rows: several histogram rounds", "[gpu][topk][large]") {
  Pair db(true);
  const int rows = 1200000;
  load_s(db, rows);
  for (const char* q : {"SELECT id, nd FROM s ORDER BY nd LIMIT 10", "SELECT id, nd FROM s ORDER BY nd DESC LIMIT 1000",
                        "SELECT id, d FROM s ORDER BY d NULLS FIRST LIMIT 100", "SELECT id, b FROM s ORDER BY b LIMIT 4096",
                        "SELECT id, g, nd FROM s ORDER BY g, nd LIMIT 500", "SELECT id, ni FROM s ORDER BY ni DESC LIMIT 3000",
                        "SELECT id, nb FROM s ORDER BY nb LIMIT 10 OFFSET 100", "SELECT id, v FROM s ORDER BY v LIMIT 7"})
    db.check(q);
}

TEST_CASE("device nested-loop join gives the host executor's pairs in order", "[gpu][nlj]") {
  Pair db(true);
  load_join_tables(db);
  nested_loop_joins(db);
  load_lean_join_tables(db);
  lean_joins(db);
}

// The same queries with 257 right rows only (two staged tiles, the second of
// one row): small enough for compute-sanitizer racecheck, which checks every
// shared-memory access and needs minutes for the case above.
TEST_CASE("device nested-loop join over two staged tiles", "[gpu][nlj-small]") {
  Pair db(true);
  load_join_tables(db);
  nested_loop_joins(db, {257});
  load_lean_join_tables(db);
  lean_joins(db, {257});
}
