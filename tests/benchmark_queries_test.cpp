// The SQL language issue's acceptance: the 13 Star Schema Benchmark queries
// and TPC-H Q1, Q3, Q5, Q6 and Q10 (single-block SQL, as written in
// tests/sql_queries/) parse and bind against their schemas, EXPLAIN prints a
// plan for each, and each runs (on tiny tables) without error.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "engine/database_impl.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;
using namespace gpusql::test;

namespace {

std::string read_query(const std::string& relative) {
  std::ifstream in(source_dir() + "/tests/sql_queries/" + relative);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A table of `rows` rows with the given columns, values cycling through a few
// each, so every join finds partners and every filter has something to see.
void add_table(Database& db, const std::string& name,
               const std::vector<std::pair<std::string, DataType>>& columns, std::size_t rows,
               const std::vector<std::string>& strings = {"BUILDING", "ASIA", "AMERICA", "MFGR#12", "R", "A"}) {
  auto table = std::make_shared<Table>();
  table->name = name;
  table->rows = rows;
  for (const auto& [column, type] : columns) {
    HostColumn c(type, rows);
    for (std::size_t r = 0; r < rows; ++r) {
      int64_t v = static_cast<int64_t>(r % 7);
      switch (type.id) {
        case Type::Integer: c.values<int32_t>()[r] = static_cast<int32_t>(v); break;
        case Type::Date: c.values<int32_t>()[r] = static_cast<int32_t>(9000 + 30 * v); break;  // 1994-08..1995-02
        case Type::Decimal:
        case Type::BigInt: c.values<int64_t>()[r] = v * 100; break;
        case Type::Double: c.values<double>()[r] = static_cast<double>(v) / 2; break;
        case Type::Varchar: c.values<uint32_t>()[r] = static_cast<uint32_t>(r % strings.size()); break;
        default: break;
      }
    }
    if (type.id == Type::Varchar) {
      std::shared_ptr<Dictionary> dictionary = sorted_dictionary(strings);
      for (std::size_t r = 0; r < rows; ++r)
        c.values<uint32_t>()[r] = dictionary->lower_bound(strings[r % strings.size()]);
      c.dictionary = std::move(dictionary);
    }
    table->columns.push_back({column, type});
    table->host.push_back(std::move(c));
  }
  db.impl().add_table(table);
}

DataType decimal(int p, int s) {
  DataType t{Type::Decimal};
  t.precision = static_cast<uint8_t>(p);
  t.scale = static_cast<uint8_t>(s);
  return t;
}

void add_tpch_schema(Database& db) {
  const DataType I = DataType::integer(), D = DataType::date(), S = DataType::varchar(), M = decimal(15, 2);
  add_table(db, "lineitem",
            {{"l_orderkey", I}, {"l_partkey", I}, {"l_suppkey", I}, {"l_linenumber", I}, {"l_quantity", M},
             {"l_extendedprice", M}, {"l_discount", M}, {"l_tax", M}, {"l_returnflag", S}, {"l_linestatus", S},
             {"l_shipdate", D}, {"l_commitdate", D}, {"l_receiptdate", D}, {"l_shipinstruct", S}, {"l_shipmode", S}},
            50);
  add_table(db, "part",
            {{"p_partkey", I}, {"p_name", S}, {"p_mfgr", S}, {"p_brand", S}, {"p_type", S}, {"p_size", I},
             {"p_container", S}},
            12);
  add_table(db, "partsupp", {{"ps_partkey", I}, {"ps_suppkey", I}, {"ps_availqty", I}, {"ps_supplycost", M}}, 24);
  add_table(db, "orders",
            {{"o_orderkey", I}, {"o_custkey", I}, {"o_orderstatus", S}, {"o_totalprice", M}, {"o_orderdate", D},
             {"o_orderpriority", S}, {"o_shippriority", I}, {"o_comment", S}},
            20);
  add_table(db, "customer",
            {{"c_custkey", I}, {"c_name", S}, {"c_address", S}, {"c_nationkey", I}, {"c_phone", S},
             {"c_acctbal", M}, {"c_mktsegment", S}, {"c_comment", S}},
            10);
  add_table(db, "supplier",
            {{"s_suppkey", I}, {"s_name", S}, {"s_address", S}, {"s_nationkey", I}, {"s_phone", S}, {"s_acctbal", M},
             {"s_comment", S}},
            10);
  add_table(db, "nation", {{"n_nationkey", I}, {"n_name", S}, {"n_regionkey", I}}, 7);
  add_table(db, "region", {{"r_regionkey", I}, {"r_name", S}}, 5);
}

void check_sql(Database& db, const std::string& sql) {
  Result plan = db.query("EXPLAIN " + sql);
  REQUIRE(plan.row_count() > 2);
  CHECK(plan.column_name(0) == "physical_plan");
  bool projects = false, scans = false;
  for (std::size_t i = 0; i < plan.row_count(); ++i) {
    projects |= plan.text(i, 0).find("PROJECT ") != std::string::npos;
    scans |= plan.text(i, 0).find("SCAN ") != std::string::npos;
  }
  CHECK(projects);
  CHECK(scans);
  Result analyzed = db.query("EXPLAIN ANALYZE " + sql);
  CHECK(analyzed.text(analyzed.row_count() - 1, 0).rfind("total: ", 0) == 0);
  Result result = db.query(sql);
  CHECK(result.column_count() > 0);
}

void check_query(Database& db, const std::string& file) {
  INFO(file);
  check_sql(db, read_query(file));
}

}  // namespace

TEST_CASE("the TPC-H queries gpusql runs parse, bind, EXPLAIN and run", "[sql][tpch]") {
  Database db(Options{ExecutorKind::Host});
  add_tpch_schema(db);
  for (const char* q : {"q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9", "q10", "q11", "q12", "q13", "q14", "q16", "q17", "q18", "q19", "q20", "q21", "q22"})
    check_query(db, std::string("tpch/") + q + ".sql");
  // Q15: CREATE VIEW; the query; DROP VIEW.
  {
    INFO("tpch/q15.sql");
    const std::string q15 = read_query("tpch/q15.sql");
    const std::size_t first = q15.find(';'), second = q15.find(';', first + 1);
    db.query(q15.substr(0, first));
    check_sql(db, q15.substr(first + 1, second - first - 1));
    db.query(q15.substr(second + 1));
    CHECK(db.query("SHOW TABLES").row_count() == 8);
  }
  // Q6's answer by hand: l_shipdate in [1994-01-01, 1995-01-01) is every row
  // (days 9000..9180), l_discount 0.05..0.07 is v = ... none: discounts are
  // 0.00..6.00 in steps of 1.00, so the sum is over no row: NULL.
  Result q6 = db.query(read_query("tpch/q6.sql"));
  REQUIRE(q6.row_count() == 1);
  CHECK(q6.is_null(0, 0));
}

TEST_CASE("the 13 SSB queries parse, bind, EXPLAIN and run", "[sql][ssb]") {
  Database db(Options{ExecutorKind::Host});
  const DataType I = DataType::integer(), S = DataType::varchar();
  add_table(db, "lineorder",
            {{"lo_orderdate", I}, {"lo_custkey", I}, {"lo_partkey", I}, {"lo_suppkey", I}, {"lo_quantity", I},
             {"lo_extendedprice", I}, {"lo_discount", I}, {"lo_revenue", I}, {"lo_supplycost", I}},
            30);
  add_table(db, "date", {{"d_datekey", I}, {"d_year", I}, {"d_yearmonthnum", I}, {"d_yearmonth", S},
                         {"d_weeknuminyear", I}}, 7);
  add_table(db, "customer", {{"c_custkey", I}, {"c_city", S}, {"c_nation", S}, {"c_region", S}}, 7);
  add_table(db, "supplier", {{"s_suppkey", I}, {"s_city", S}, {"s_nation", S}, {"s_region", S}}, 7);
  add_table(db, "part", {{"p_partkey", I}, {"p_mfgr", S}, {"p_category", S}, {"p_brand1", S}}, 7);
  for (const char* q : {"q1_1", "q1_2", "q1_3", "q2_1", "q2_2", "q2_3", "q3_1", "q3_2", "q3_3", "q3_4", "q4_1",
                        "q4_2", "q4_3"})
    check_query(db, std::string("ssb/") + q + ".sql");
}
