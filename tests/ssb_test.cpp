// The Star Schema Benchmark at a small scale: the generator (bench/ssb), the
// benchmark's 13 queries and the host executor agree with SQLite on the same
// generated data. The GPU runner checks the CUDA executor against the host
// executor at scale; this test anchors the host executor to SQLite.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "bench/ssb/ssb_generator.hpp"
#include "bench/ssb/ssb_queries.hpp"
#include "engine/database_impl.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;
using namespace gpusql::test;

namespace {

constexpr double kTestScale = 0.01;

std::vector<std::shared_ptr<Table>> generate(double sf, std::vector<std::string> columns = {}, unsigned threads = 0) {
  ssb::GeneratorOptions options;
  options.scale_factor = sf;
  options.columns = std::move(columns);
  options.threads = threads;
  return ssb::generate(options);
}

const Table& table_named(const std::vector<std::shared_ptr<Table>>& tables, const std::string& name) {
  for (const auto& t : tables)
    if (t->name == name) return *t;
  throw std::invalid_argument("no table " + name);
}

template <class T>
std::span<const T> column(const Table& table, const std::string& name) {
  int c = table.find_column(name);
  if (c < 0) throw std::invalid_argument("no column " + name);
  return table.host[static_cast<std::size_t>(c)].values<T>();
}

std::string text(const Table& table, const std::string& name, std::size_t row) {
  const HostColumn& c = table.host[static_cast<std::size_t>(table.find_column(name))];
  return std::string(c.dictionary->values[c.values<uint32_t>()[row]]);
}

}  // namespace

TEST_CASE("SSB generator: cardinalities and schema", "[ssb]") {
  ssb::Cardinalities sf1 = ssb::cardinalities(1);
  CHECK(sf1.orders == 1'500'000);
  CHECK(sf1.customer == 30'000);
  CHECK(sf1.supplier == 2'000);
  CHECK(sf1.part == 200'000);
  CHECK(sf1.date == 2556);
  CHECK(ssb::cardinalities(10).part == 800'000);  // 200,000 x (1 + floor(log2 SF)), as dbgen
  CHECK(ssb::cardinalities(20).part == 1'000'000);
  CHECK(ssb::cardinalities(20).customer == 600'000);
  CHECK(ssb::cardinalities(0.01).supplier == 20);
  CHECK_THROWS(ssb::cardinalities(0));
  CHECK_THROWS(ssb::cardinalities(1000));

  auto tables = generate(kTestScale);
  REQUIRE(tables.size() == 5);
  for (const auto& t : tables) {
    INFO(t->name);
    std::vector<std::string> names;
    for (const auto& c : t->columns) names.push_back(c.name);
    CHECK(names == ssb::column_names(t->name));
    for (const auto& h : t->host) CHECK(h.size == t->rows);
  }
  const Table& lineorder = table_named(tables, "lineorder");
  // 1..7 lines an order: about 4 x 15,000.
  CHECK(lineorder.rows > 55'000);
  CHECK(lineorder.rows < 65'000);
  CHECK(table_named(tables, "date").rows == 2556);
}

TEST_CASE("SSB generator: value domains follow the specification", "[ssb]") {
  auto tables = generate(kTestScale);
  const Table& lo = table_named(tables, "lineorder");
  const Table& date = table_named(tables, "date");
  const Table& part = table_named(tables, "part");
  const Table& customer = table_named(tables, "customer");

  auto datekeys = column<int32_t>(date, "d_datekey");
  CHECK(datekeys.front() == 19920101);
  CHECK(datekeys.back() == 19981230);  // 2556 days, as dbgen
  std::set<int32_t> valid(datekeys.begin(), datekeys.end());
  CHECK(valid.size() == 2556);

  auto quantity = column<int32_t>(lo, "lo_quantity");
  auto discount = column<int32_t>(lo, "lo_discount");
  auto orderdate = column<int32_t>(lo, "lo_orderdate");
  auto commitdate = column<int32_t>(lo, "lo_commitdate");
  auto partkey = column<int32_t>(lo, "lo_partkey");
  auto suppkey = column<int32_t>(lo, "lo_suppkey");
  auto custkey = column<int32_t>(lo, "lo_custkey");
  auto extendedprice = column<int32_t>(lo, "lo_extendedprice");
  auto revenue = column<int32_t>(lo, "lo_revenue");
  std::vector<std::size_t> discounts(11);
  for (std::size_t i = 0; i < lo.rows; ++i) {
    REQUIRE(quantity[i] >= 1);
    REQUIRE(quantity[i] <= 50);
    REQUIRE(discount[i] >= 0);
    REQUIRE(discount[i] <= 10);
    REQUIRE(valid.count(orderdate[i]));
    REQUIRE(orderdate[i] <= 19980802);
    REQUIRE(valid.count(commitdate[i]));
    REQUIRE(commitdate[i] > orderdate[i]);
    REQUIRE(partkey[i] >= 1);
    REQUIRE(static_cast<std::size_t>(partkey[i]) <= part.rows);
    REQUIRE(suppkey[i] >= 1);
    REQUIRE(static_cast<std::size_t>(suppkey[i]) <= table_named(tables, "supplier").rows);
    REQUIRE(custkey[i] >= 1);
    REQUIRE(static_cast<std::size_t>(custkey[i]) <= customer.rows);
    REQUIRE(revenue[i] == static_cast<int32_t>(int64_t{extendedprice[i]} * (100 - discount[i]) / 100));
    ++discounts[static_cast<std::size_t>(discount[i])];
  }
  for (std::size_t d : discounts) CHECK(d > lo.rows / 11 * 9 / 10);  // uniform

  // Week 6 of 1994 is 1994-02-04 .. 1994-02-10 (dbgen's numbering, Q1.3).
  auto week = column<int32_t>(date, "d_weeknuminyear");
  auto year = column<int32_t>(date, "d_year");
  std::vector<int32_t> week6;
  for (std::size_t i = 0; i < date.rows; ++i)
    if (year[i] == 1994 && week[i] == 6) week6.push_back(datekeys[i]);
  CHECK(week6 == std::vector<int32_t>{19940204, 19940205, 19940206, 19940207, 19940208, 19940209, 19940210});
  CHECK(text(date, "d_yearmonth", 2555) == "Dec1998");
  CHECK(text(date, "d_date", 0) == "January 1, 1992");
  CHECK(text(date, "d_dayofweek", 0) == "Wednesday");

  for (std::size_t i = 0; i < part.rows; ++i) {
    std::string mfgr = text(part, "p_mfgr", i), category = text(part, "p_category", i),
                brand = text(part, "p_brand1", i);
    REQUIRE(std::regex_match(mfgr, std::regex("MFGR#[1-5]")));
    REQUIRE(category.substr(0, 6) == mfgr);
    REQUIRE(std::regex_match(category, std::regex("MFGR#[1-5][1-5]")));
    REQUIRE(brand.substr(0, 7) == category);
    REQUIRE(std::stoi(brand.substr(7)) >= 1);
    REQUIRE(std::stoi(brand.substr(7)) <= 40);
  }
  for (std::size_t i = 0; i < customer.rows; ++i) {
    std::string nation = text(customer, "c_nation", i), city = text(customer, "c_city", i);
    REQUIRE(city.size() == 10);
    std::string prefix = nation.substr(0, 9);
    prefix.resize(9, ' ');
    REQUIRE(city.substr(0, 9) == prefix);
  }
  std::set<std::string> cities;
  for (std::size_t i = 0; i < customer.rows; ++i) cities.insert(text(customer, "c_city", i));
  CHECK(cities.count("UNITED KI1"));
}

TEST_CASE("SSB generator: deterministic, whatever the thread count", "[ssb]") {
  const std::vector<std::string> columns = {"lo_orderkey", "lo_partkey", "lo_revenue", "lo_orderdate",
                                            "c_city",      "p_brand1",   "s_phone"};
  // SF 0.05: 75,000 orders, enough for lineorder to be split over 3 threads.
  auto one = generate(0.05, columns, 1);
  auto three = generate(0.05, columns, 3);
  REQUIRE(one.size() == three.size());
  for (std::size_t t = 0; t < one.size(); ++t) {
    INFO(one[t]->name);
    REQUIRE(one[t]->rows == three[t]->rows);
    REQUIRE(one[t]->columns.size() == three[t]->columns.size());
    for (std::size_t c = 0; c < one[t]->host.size(); ++c) {
      CHECK(one[t]->host[c].bytes == three[t]->host[c].bytes);
      if (one[t]->host[c].dictionary) CHECK(one[t]->host[c].dictionary->values == three[t]->host[c].dictionary->values);
    }
  }
  // Only the columns asked for are built (date has none of them).
  CHECK(table_named(one, "lineorder").columns.size() == 4);
  CHECK(table_named(one, "date").columns.empty());
}

TEST_CASE("SSB: each query's column list is exactly the columns its SQL names", "[ssb]") {
  const std::regex column_name("\\b(lo|c|s|p|d)_[a-z0-9]+\\b");
  for (const auto& q : ssb::standard_queries()) {
    INFO(q.name);
    std::string sql = ssb::query_sql(q);
    std::set<std::string> named;
    for (auto it = std::sregex_iterator(sql.begin(), sql.end(), column_name); it != std::sregex_iterator(); ++it)
      named.insert(it->str());
    std::set<std::string> listed(q.columns.begin(), q.columns.end());
    CHECK(listed.size() == q.columns.size());
    CHECK(named == listed);
  }
}

TEST_CASE("SSB: the 13 queries on the host executor agree with SQLite at SF 0.01", "[ssb][sqlite]") {
  // Only the columns the queries read: SQLite's loader here splits on ','
  // and d_date ("January 1, 1992") holds one.
  auto tables = generate(kTestScale, ssb::columns_read(ssb::standard_queries()));
  Database db(Options{ExecutorKind::Host});
  Sqlite oracle;
  TempDir dir;
  for (const auto& t : tables) {
    db.impl().add_table(t);
    const std::string path = dir.path() + "/" + t->name + ".csv";
    ssb::write_text(*t, path, {',', true, false});
    oracle.load_csv(t->name, path, db.query("SELECT * FROM " + t->name + " WHERE 1 = 0"));
  }
  std::size_t nonempty = 0;
  for (const auto& q : ssb::standard_queries()) {
    const std::string sql = ssb::query_sql(q);
    INFO(q.title << ":\n" << sql);
    Rows expected = oracle.query(sql);
    Rows actual = to_rows(db.query(sql));
    INFO("sqlite:\n" << to_string(expected) << "gpusql:\n" << to_string(actual));
    CHECK(same_rows(expected, actual));
    if (!expected.empty()) ++nonempty;
  }
  // At this scale only the most selective (Q3.3, Q3.4: 1 in a million) may
  // come out empty.
  CHECK(nonempty >= 11);
}

TEST_CASE("SSB: dbgen-format files load through the CSV loader", "[ssb]") {
  auto tables = generate(kTestScale);
  TempDir dir;
  Database db(Options{ExecutorKind::Host});
  for (const std::string name : {"date", "supplier", "customer"}) {
    const Table& t = table_named(tables, name);
    const std::string path = dir.path() + "/" + name + ".tbl";
    ssb::write_text(t, path);
    std::ifstream file(path);
    std::string first_line;
    std::getline(file, first_line);
    CHECK(first_line.back() == '|');
    CsvOptions dbgen;
    dbgen.delimiter = '|';
    dbgen.header = false;
    db.load_csv(name, path, dbgen);
    Result r = db.query("SELECT COUNT(*), SUM(column0), MAX(column3) FROM " + name);
    INFO(name);
    CHECK(r.get<int64_t>(0, 0) == static_cast<int64_t>(t.rows));
    int64_t key_sum = 0;
    for (int32_t k : t.host[0].values<int32_t>()) key_sum += k;
    CHECK(r.get<int64_t>(0, 1) == key_sum);
    const HostColumn& fourth = t.host[3];
    // A fixed domain's dictionary may hold values no row has: the largest code present.
    std::string max_text =
        fourth.dictionary
            ? std::string(fourth.dictionary->values[*std::max_element(fourth.values<uint32_t>().begin(),
                                                                      fourth.values<uint32_t>().end())])
            : std::to_string(*std::max_element(fourth.values<int32_t>().begin(), fourth.values<int32_t>().end()));
    CHECK(r.text(0, 2) == max_text);
  }
  Result first = db.query("SELECT column0, column1, column6 FROM date WHERE column0 = 19940204");
  REQUIRE(first.row_count() == 1);
  CHECK(first.text(0, 1) == "February 4, 1994");
  CHECK(first.text(0, 2) == "Feb1994");
}
