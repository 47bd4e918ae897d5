// The host backend on several threads (Settings::threads) gives its
// one-thread answers bit for bit: positions selected slice by slice and put
// back in order, groups numbered per slice and merged by first appearance,
// aggregates reduced chunk by chunk in the canonical order, computed
// columns written slice by slice with their NULLs.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "bench/tpch/tpch_generator.hpp"
#include "bench/tpch/tpch_queries.hpp"
#include "engine/database_impl.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;
using namespace gpusql::test;

namespace {

Database host_with_threads(unsigned threads) {
  Settings settings;
  settings.threads = threads;
  return Database(Options{ExecutorKind::Host, settings});
}

// Every value of both results, compared exactly (a double by its bits).
void check_same(const Result& one, const Result& many) {
  REQUIRE(one.column_count() == many.column_count());
  REQUIRE(one.row_count() == many.row_count());
  for (std::size_t r = 0; r < one.row_count(); ++r)
    for (std::size_t c = 0; c < one.column_count(); ++c) {
      INFO("row " << r << ", column " << c << ": " << one.text(r, c) << " against " << many.text(r, c));
      const Value a = one.value(r, c), b = many.value(r, c);
      if (std::holds_alternative<double>(a) && std::holds_alternative<double>(b)) {
        const double x = std::get<double>(a), y = std::get<double>(b);
        CHECK(std::memcmp(&x, &y, sizeof x) == 0);
      } else {
        CHECK(a == b);
      }
    }
}

}  // namespace

TEST_CASE("host backend: the TPC-H queries on 4 threads give the one-thread answers, bit for bit", "[host][threads]") {
  // SF 0.05: lineitem's 300,000 rows are 9 slices of positions.
  tpch::GeneratorOptions options;
  options.scale_factor = 0.05;
  const auto tables = tpch::generate(options);
  Database one = host_with_threads(1), many = host_with_threads(4);
  for (const auto& t : tables) {
    one.impl().add_table(t);
    many.impl().add_table(t);
  }
  for (const tpch::Query& query : tpch::standard_queries()) {
    INFO(query.title);
    const tpch::QueryText text = tpch::query_text(query);
    for (Database* db : {&one, &many})
      for (const std::string& sql : text.setup) db->query(sql);
    check_same(one.query(text.select), many.query(text.select));
    for (Database* db : {&one, &many})
      for (const std::string& sql : text.teardown) db->query(sql);
  }
}

TEST_CASE("host backend: floating sums, NULLs, groups and joins on 4 threads give the one-thread answers",
          "[host][threads]") {
  // 200,000 rows: keys with NULLs, doubles whose sums depend on the order
  // of additions, strings.
  TempDir dir;
  std::string csv = "k,g,d,s\n";
  uint64_t state = 42;
  for (int i = 0; i < 200000; ++i) {
    const uint64_t r = next_random(state);
    csv += (r % 13 == 0 ? std::string() : std::to_string(r % 50000)) + "," + std::to_string(i % 7) + "," +
           std::to_string(static_cast<double>(r % 1000003) / 7.0 - 70000.0) + "," + "s" + std::to_string(r % 301) +
           "\n";
  }
  const std::string path = dir.write("t.csv", csv);
  Database one = host_with_threads(1), many = host_with_threads(4);
  one.load_csv("t", path);
  many.load_csv("t", path);
  const std::vector<std::string> queries = {
      "SELECT SUM(d), AVG(d), MIN(d), MAX(d), COUNT(*), COUNT(k), SUM(k) FROM t",
      "SELECT SUM(d), COUNT(*) FROM t WHERE k % 3 = 1 OR k IS NULL",
      "SELECT g, SUM(d), AVG(d), COUNT(k) FROM t GROUP BY g ORDER BY g",
      "SELECT k, SUM(d), MIN(s), COUNT(*) FROM t GROUP BY k ORDER BY k NULLS FIRST",
      "SELECT s, g, COUNT(*), SUM(d) FROM t GROUP BY s, g",
      "SELECT COUNT(DISTINCT k), COUNT(DISTINCT s), ARG_MIN(k, d), ARG_MAX(s, d) FROM t",
      "SELECT g, COUNT(DISTINCT k), ARG_MIN(k, d) FROM t GROUP BY g ORDER BY g",
      "SELECT DISTINCT k % 777, s FROM t",
      "SELECT k, d, CASE WHEN k % 2 = 0 THEN NULL ELSE d * 2 END FROM t WHERE d > 10000",
      "SELECT k, d FROM t ORDER BY d DESC, k LIMIT 20",
      "SELECT k, s FROM t ORDER BY s, k NULLS LAST",
      "SELECT a.k, a.d, b.g FROM t AS a JOIN (SELECT k, g FROM t WHERE g = 3) AS b ON a.k = b.k WHERE a.g = 1",
      "SELECT COUNT(*), SUM(a.d + b.d) FROM t AS a LEFT JOIN (SELECT k, d FROM t WHERE g = 5) AS b ON a.k = b.k",
  };
  for (const std::string& sql : queries) {
    INFO(sql);
    check_same(one.query(sql), many.query(sql));
  }
}
