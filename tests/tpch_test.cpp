// TPC-H at a small scale: the generator (bench/tpch) follows the
// specification's value rules, its .tbl files load back, and the 22 queries
// on gpusql give DuckDB's answers on the same data -- on the host executor,
// and on the CUDA executor where a GPU is usable. The GPU runner
// (gpusql_tpch) checks the CUDA executor against the host executor at
// scale; this test anchors both to DuckDB.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <span>
#include <sstream>

#include "bench/tpch/tpch_generator.hpp"
#include "bench/tpch/tpch_queries.hpp"
#include "engine/database_impl.hpp"
#include "storage/value_text.hpp"
#include "tests/differential/duckdb_oracle.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;
using namespace gpusql::test;

namespace {

constexpr double kTestScale = 0.01;

std::vector<std::shared_ptr<Table>> generate(double sf, std::vector<std::string> columns = {}, unsigned threads = 0) {
  tpch::GeneratorOptions options;
  options.scale_factor = sf;
  options.columns = std::move(columns);
  options.threads = threads;
  return tpch::generate(options);
}

const std::shared_ptr<Table>& shared_table(const std::vector<std::shared_ptr<Table>>& tables, const std::string& name) {
  for (const auto& t : tables)
    if (t->name == name) return t;
  throw std::invalid_argument("no table " + name);
}
const Table& table_named(const std::vector<std::shared_ptr<Table>>& tables, const std::string& name) {
  return *shared_table(tables, name);
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

int32_t date(int y, unsigned m, unsigned d) { return static_cast<int32_t>(days_from_civil(y, m, d)); }

// ---------------------------------------------------------------------------
// Comparing with DuckDB.

// What the comparison needs to know of a query's result beyond its rows.
struct Shape {
  // Output columns of the ORDER BY, in its order: rows must come in DuckDB's
  // order, except among rows equal on all of these (ties may come in any
  // order). Empty: no ORDER BY (every query without one returns one row).
  std::vector<std::size_t> order;
  // Output columns that are AVG results, DOUBLE in both engines, which sum
  // in different orders: compared with a relative tolerance; every other
  // value exactly.
  std::vector<std::size_t> averages;
};

const std::map<std::string, Shape>& shapes() {
  static const std::map<std::string, Shape> shapes = {
      {"q1", {{0, 1}, {6, 7, 8}}}, {"q2", {{0, 2, 1, 3}, {}}}, {"q3", {{1, 2}, {}}},  {"q4", {{0}, {}}},
      {"q5", {{1}, {}}},           {"q6", {{}, {}}},           {"q7", {{0, 1, 2}, {}}}, {"q8", {{0}, {}}},
      {"q9", {{0, 1}, {}}},        {"q10", {{2}, {}}},         {"q11", {{1}, {}}},     {"q12", {{0}, {}}},
      {"q13", {{1, 0}, {}}},       {"q14", {{}, {}}},          {"q15", {{0}, {}}},     {"q16", {{3, 0, 1, 2}, {}}},
      {"q17", {{}, {}}},           {"q18", {{4, 3}, {}}},      {"q19", {{}, {}}},      {"q20", {{0}, {}}},
      {"q21", {{1, 0}, {}}},       {"q22", {{0}, {}}},
  };
  return shapes;
}

// gpusql's answer in the cells DuckDB's oracle gives: integers as int64,
// DOUBLE as double, DECIMAL as its canonical text (exact), DATE as
// 'YYYY-MM-DD', VARCHAR as text.
Rows duckdb_cells(const Result& result) {
  Rows rows = to_rows(result);
  for (std::size_t c = 0; c < result.column_count(); ++c) {
    if (result.column_type(c) != Type::Decimal) continue;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      Value v = result.value(r, c);
      if (auto* decimal = std::get_if<Decimal>(&v)) rows[r][c] = diff::canonical_decimal(to_string(*decimal));
    }
  }
  return rows;
}

bool same_cell(const Cell& expected, const Cell& actual, bool average) {
  auto* e = std::get_if<double>(&expected);
  auto* a = std::get_if<double>(&actual);
  if (e && a && average) return std::fabs(*e - *a) <= 1e-12 * std::max(1.0, std::fabs(*e));
  return expected == actual;
}

std::string cell_text(const Cell& cell) {
  std::string s = to_string(Rows{{cell}});
  if (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

// A total order on rows, to compare a group of ties as a multiset.
bool row_less(const std::vector<Cell>& a, const std::vector<Cell>& b) {
  for (std::size_t c = 0; c < a.size() && c < b.size(); ++c) {
    if (a[c].index() != b[c].index()) return a[c].index() < b[c].index();
    if (a[c] != b[c]) return a[c] < b[c];
  }
  return a.size() < b.size();
}

// Empty when gpusql's `actual` is DuckDB's `expected` under `shape`'s rules;
// else the first difference.
std::string difference(Rows expected, Rows actual, const Shape& shape) {
  if (expected.size() != actual.size())
    return std::to_string(actual.size()) + " rows, DuckDB has " + std::to_string(expected.size());
  // Groups of rows equal on the ORDER BY columns (all rows without one),
  // each compared as a multiset.
  auto same_keys = [&](std::size_t r, std::size_t s) {
    return !shape.order.empty() && std::all_of(shape.order.begin(), shape.order.end(),
                                               [&](std::size_t c) { return expected[r][c] == expected[s][c]; });
  };
  for (std::size_t begin = 0, end = 0; begin < expected.size(); begin = end) {
    end = begin + 1;
    while (end < expected.size() && (shape.order.empty() || same_keys(begin, end))) ++end;
    const auto from = static_cast<std::ptrdiff_t>(begin), to = static_cast<std::ptrdiff_t>(end);
    if (end - begin > 1) {
      std::sort(expected.begin() + from, expected.begin() + to, row_less);
      std::sort(actual.begin() + from, actual.begin() + to, row_less);
    }
    for (std::size_t r = begin; r < end; ++r) {
      if (expected[r].size() != actual[r].size())
        return std::to_string(actual[r].size()) + " columns, DuckDB has " + std::to_string(expected[r].size());
      for (std::size_t c = 0; c < expected[r].size(); ++c) {
        const bool average = std::count(shape.averages.begin(), shape.averages.end(), c) > 0;
        if (!same_cell(expected[r][c], actual[r][c], average))
          return "row " + std::to_string(r) + " column " + std::to_string(c) + ": " + cell_text(actual[r][c]) +
                 " where DuckDB has " + cell_text(expected[r][c]);
      }
    }
  }
  return {};
}

std::string excerpt(const Rows& rows) {
  constexpr std::size_t kShown = 25;
  const auto shown = static_cast<std::ptrdiff_t>(std::min(kShown, rows.size()));
  std::string s = to_string(Rows(rows.begin(), rows.begin() + shown));
  if (rows.size() > kShown) s += "... " + std::to_string(rows.size()) + " rows\n";
  return s.empty() ? "(no rows)\n" : s;
}

// DuckDB holding `tables` -- written as .tbl files and loaded with COPY into
// the same schema -- or, when its library is missing, a warning and false.
bool load_duckdb(diff::DuckdbOracle& duckdb, const std::vector<std::shared_ptr<Table>>& tables) {
  if (!duckdb.available()) {
    WARN(duckdb.unavailable_reason() << ": the TPC-H DuckDB test is skipped");
    return false;
  }
  TempDir dir;
  for (const auto& t : tables) {
    const std::string path = dir.path() + "/" + t->name + ".tbl";
    tpch::write_text(*t, path);
    duckdb.exec(tpch::create_table_sql(t->name));
    duckdb.exec("COPY " + t->name + " FROM '" + path + "' (DELIMITER '|')");
  }
  return true;
}

// Runs the 22 queries on `db` and on `duckdb` and checks every answer; on the
// CUDA executor a query it cannot run yet is a warning. Returns how many
// answers had rows.
std::size_t check_queries(Database& db, diff::DuckdbOracle& duckdb, const std::string& executor) {
  std::size_t nonempty = 0;
  for (const auto& q : tpch::standard_queries()) {
    const tpch::QueryText sql = tpch::query_text(q);
    INFO(q.title << " on the " << executor << " executor:\n" << sql.select);
    for (const auto& statement : sql.setup) duckdb.exec(statement);
    const diff::OracleResult expected = duckdb.query(sql.select);
    for (const auto& statement : sql.teardown) duckdb.exec(statement);
    REQUIRE(expected.ok);

    Rows actual;
    try {
      for (const auto& statement : sql.setup) db.query(statement);
      actual = duckdb_cells(db.query(sql.select));
      for (const auto& statement : sql.teardown) db.query(statement);
    } catch (const Error& e) {
      if (executor == "host" || e.kind() != ErrorKind::NotSupported) throw;
      WARN("not on the GPU yet: " << q.title << ": " << e.message());
      try {  // Q15's view, when it was made
        for (const auto& statement : sql.teardown) db.query(statement);
      } catch (const Error&) {
      }
      continue;
    }
    const std::string diff = difference(expected.rows, actual, shapes().at(q.name));
    INFO("DuckDB:\n" << excerpt(expected.rows) << "gpusql:\n" << excerpt(actual));
    INFO(diff);
    CHECK(diff.empty());
    if (!expected.rows.empty()) ++nonempty;
  }
  return nonempty;
}

}  // namespace

TEST_CASE("TPC-H generator: cardinalities and schema", "[tpch]") {
  tpch::Cardinalities sf1 = tpch::cardinalities(1);
  CHECK(sf1.part == 200'000);
  CHECK(sf1.supplier == 10'000);
  CHECK(sf1.partsupp == 800'000);
  CHECK(sf1.customer == 150'000);
  CHECK(sf1.orders == 1'500'000);
  CHECK(sf1.nation == 25);
  CHECK(sf1.region == 5);
  CHECK(tpch::cardinalities(0.01).supplier == 100);
  CHECK(tpch::cardinalities(1e-9).supplier == 1);
  CHECK_THROWS(tpch::cardinalities(0));
  CHECK_THROWS(tpch::cardinalities(-1));
  CHECK_THROWS(tpch::cardinalities(1000));

  auto tables = generate(kTestScale);
  REQUIRE(tables.size() == 8);
  for (std::size_t i = 0; i < tables.size(); ++i) {
    const Table& t = *tables[i];
    INFO(t.name);
    CHECK(t.name == tpch::table_names()[i]);
    std::vector<std::string> names;
    for (const auto& c : t.columns) {
      names.push_back(c.name);
      CHECK(c.type == tpch::columns(t.name)[names.size() - 1].type);
    }
    CHECK(names == tpch::column_names(t.name));
    for (const auto& h : t.host) CHECK(h.size == t.rows);
  }
  const tpch::Cardinalities n = tpch::cardinalities(kTestScale);
  CHECK(table_named(tables, "part").rows == n.part);
  CHECK(table_named(tables, "partsupp").rows == 4 * n.part);
  CHECK(table_named(tables, "orders").rows == 15'000);
  // 1..7 lines an order: about 4 x 15,000.
  CHECK(table_named(tables, "lineitem").rows > 57'000);
  CHECK(table_named(tables, "lineitem").rows < 63'000);
}

TEST_CASE("TPC-H generator: value rules of the specification", "[tpch]") {
  auto tables = generate(kTestScale);
  const Table& part = table_named(tables, "part");
  const Table& supplier = table_named(tables, "supplier");
  const Table& partsupp = table_named(tables, "partsupp");
  const Table& customer = table_named(tables, "customer");
  const Table& orders = table_named(tables, "orders");
  const Table& lineitem = table_named(tables, "lineitem");
  const int64_t parts = static_cast<int64_t>(part.rows), suppliers = static_cast<int64_t>(supplier.rows);

  // Parts: dbgen's price formula, word lists, five distinct colours a name.
  auto retail = column<int64_t>(part, "p_retailprice");
  std::set<std::string> colours_seen;
  for (std::size_t i = 0; i < part.rows; ++i) {
    const int64_t key = static_cast<int64_t>(i) + 1;
    REQUIRE(retail[i] == 90000 + (key / 10) % 20001 + 100 * (key % 1000));
    const std::string mfgr = text(part, "p_mfgr", i), brand = text(part, "p_brand", i);
    REQUIRE(std::regex_match(mfgr, std::regex("Manufacturer#[1-5]")));
    REQUIRE(std::regex_match(brand, std::regex("Brand#[1-5][1-5]")));
    REQUIRE(brand[6] == mfgr[13]);
    std::istringstream words(text(part, "p_name", i));
    std::set<std::string> name;
    for (std::string w; words >> w;) name.insert(w);
    REQUIRE(name.size() == 5);
    colours_seen.insert(name.begin(), name.end());
  }
  CHECK(colours_seen.size() == 92);
  CHECK(colours_seen.count("green"));
  CHECK(colours_seen.count("forest"));

  // partsupp: four suppliers a part by dbgen's formula, prices in range.
  auto ps_part = column<int32_t>(partsupp, "ps_partkey");
  auto ps_supp = column<int32_t>(partsupp, "ps_suppkey");
  auto ps_cost = column<int64_t>(partsupp, "ps_supplycost");
  std::set<std::pair<int32_t, int32_t>> pairs;
  for (std::size_t r = 0; r < partsupp.rows; ++r) {
    const int64_t p = ps_part[r], i = static_cast<int64_t>(r % 4);
    REQUIRE(p == static_cast<int64_t>(r / 4) + 1);
    REQUIRE(ps_supp[r] == (p + i * (suppliers / 4 + (p - 1) / suppliers)) % suppliers + 1);
    REQUIRE(ps_cost[r] >= 100);
    REQUIRE(ps_cost[r] <= 100000);
    pairs.insert({ps_part[r], ps_supp[r]});
  }
  CHECK(pairs.size() == partsupp.rows);

  // Phones start with the nation key + 10; balances in range.
  auto c_nation = column<int32_t>(customer, "c_nationkey");
  auto c_balance = column<int64_t>(customer, "c_acctbal");
  for (std::size_t i = 0; i < customer.rows; ++i) {
    const std::string phone = text(customer, "c_phone", i);
    REQUIRE(std::regex_match(phone, std::regex("[0-9]{2}-[0-9]{3}-[0-9]{3}-[0-9]{4}")));
    REQUIRE(std::stoi(phone.substr(0, 2)) == c_nation[i] + 10);
    REQUIRE(c_balance[i] >= -99999);
    REQUIRE(c_balance[i] <= 999999);
  }
  std::size_t complaints = 0;
  for (std::size_t i = 0; i < supplier.rows; ++i)
    complaints += std::regex_search(text(supplier, "s_comment", i), std::regex("Customer.*Complaints"));
  CHECK(complaints == 1);  // max(1, round(5 x SF))

  // Orders and their lines.
  auto o_key = column<int32_t>(orders, "o_orderkey");
  auto o_cust = column<int32_t>(orders, "o_custkey");
  auto o_date = column<int32_t>(orders, "o_orderdate");
  auto o_total = column<int64_t>(orders, "o_totalprice");
  auto l_order = column<int32_t>(lineitem, "l_orderkey");
  auto l_part = column<int32_t>(lineitem, "l_partkey");
  auto l_supp = column<int32_t>(lineitem, "l_suppkey");
  auto l_number = column<int32_t>(lineitem, "l_linenumber");
  auto l_quantity = column<int64_t>(lineitem, "l_quantity");
  auto l_price = column<int64_t>(lineitem, "l_extendedprice");
  auto l_discount = column<int64_t>(lineitem, "l_discount");
  auto l_tax = column<int64_t>(lineitem, "l_tax");
  auto l_ship = column<int32_t>(lineitem, "l_shipdate");
  auto l_commit = column<int32_t>(lineitem, "l_commitdate");
  auto l_receipt = column<int32_t>(lineitem, "l_receiptdate");
  const int32_t now = date(1995, 6, 17);
  std::size_t line = 0;
  std::set<int32_t> customers_ordering;
  std::map<std::string, std::size_t> flags;
  for (std::size_t o = 0; o < orders.rows; ++o) {
    const int64_t index = static_cast<int64_t>(o) + 1;
    REQUIRE(o_key[o] == ((index >> 3) << 5) + (index & 7));  // sparse: 1..7, 32..39, 64..71, ...
    REQUIRE(o_cust[o] % 3 != 0);
    REQUIRE(o_date[o] >= date(1992, 1, 1));
    REQUIRE(o_date[o] <= date(1998, 8, 2));
    customers_ordering.insert(o_cust[o]);
    int64_t total = 0;
    std::size_t shipped = 0, lines = 0;
    for (; line < lineitem.rows && l_order[line] == o_key[o]; ++line, ++lines) {
      REQUIRE(l_number[line] == static_cast<int32_t>(lines) + 1);
      REQUIRE(pairs.count({l_part[line], l_supp[line]}));
      REQUIRE(l_part[line] <= parts);
      REQUIRE(l_quantity[line] % 100 == 0);
      REQUIRE(l_quantity[line] >= 100);
      REQUIRE(l_quantity[line] <= 5000);
      REQUIRE(l_price[line] == l_quantity[line] / 100 * retail[static_cast<std::size_t>(l_part[line] - 1)]);
      REQUIRE(l_discount[line] >= 0);
      REQUIRE(l_discount[line] <= 10);
      REQUIRE(l_tax[line] >= 0);
      REQUIRE(l_tax[line] <= 8);
      REQUIRE(l_ship[line] - o_date[o] >= 1);
      REQUIRE(l_ship[line] - o_date[o] <= 121);
      REQUIRE(l_commit[line] - o_date[o] >= 30);
      REQUIRE(l_commit[line] - o_date[o] <= 90);
      REQUIRE(l_receipt[line] - l_ship[line] >= 1);
      REQUIRE(l_receipt[line] - l_ship[line] <= 30);
      const std::string flag = text(lineitem, "l_returnflag", line), status = text(lineitem, "l_linestatus", line);
      REQUIRE((l_receipt[line] <= now ? (flag == "R" || flag == "A") : flag == "N"));
      REQUIRE(status == (l_ship[line] > now ? "O" : "F"));
      ++flags[flag];
      shipped += status == "F";
      total += l_price[line] * (100 - l_discount[line]) / 100 * (100 + l_tax[line]) / 100;
    }
    REQUIRE(lines >= 1);
    REQUIRE(lines <= 7);
    REQUIRE(o_total[o] == total);
    REQUIRE(text(orders, "o_orderstatus", o) == (shipped == lines ? "F" : shipped == 0 ? "O" : "P"));
  }
  CHECK(line == lineitem.rows);
  // One third of the customers place no order; R and A about evenly.
  CHECK(customers_ordering.size() <= customer.rows * 2 / 3 + 1);
  CHECK(customers_ordering.size() > customer.rows * 6 / 10);
  CHECK(flags["R"] > flags["A"] * 9 / 10);
  CHECK(flags["A"] > flags["R"] * 9 / 10);

  // Comments are text of the specification's grammar: Q13's phrase occurs
  // in about one order in a hundred, as in dbgen's data.
  std::size_t special_requests = 0;
  for (std::size_t o = 0; o < orders.rows; ++o)
    special_requests += std::regex_search(text(orders, "o_comment", o), std::regex("special.*requests"));
  CHECK(special_requests > orders.rows / 200);
  CHECK(special_requests < orders.rows / 50);
}

TEST_CASE("TPC-H generator: deterministic, whatever the thread count", "[tpch]") {
  const std::vector<std::string> columns = {"l_orderkey", "l_partkey",  "l_suppkey", "l_extendedprice", "l_shipdate",
                                            "l_comment",  "o_totalprice", "c_phone", "s_comment",       "p_name"};
  // SF 0.05: 75,000 orders, enough for orders and lineitem to be split over 3 threads.
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
  // Only the columns asked for are built (nation has none of them).
  CHECK(table_named(one, "lineitem").columns.size() == 6);
  CHECK(table_named(one, "nation").columns.empty());
  // The lines do not depend on which other columns are built.
  auto alone = generate(0.05, {"l_extendedprice"}, 2);
  auto price = [](const std::vector<std::shared_ptr<Table>>& tables) {
    return column<int64_t>(table_named(tables, "lineitem"), "l_extendedprice");
  };
  CHECK(std::ranges::equal(price(alone), price(one)));
}

TEST_CASE("TPC-H: each query's column list is exactly the schema's columns its SQL names", "[tpch]") {
  const std::regex column_name("\\b(l|o|c|p|ps|s|n|r)_[a-z]+\\b");
  for (const auto& q : tpch::standard_queries()) {
    INFO(q.name);
    const tpch::QueryText sql = tpch::query_text(q);
    std::string all = sql.select;
    for (const auto& s : sql.setup) all += "\n" + s;
    std::set<std::string> named;
    for (auto it = std::sregex_iterator(all.begin(), all.end(), column_name); it != std::sregex_iterator(); ++it)
      if (!tpch::table_of(it->str()).empty()) named.insert(it->str());  // not aliases such as l_year, c_count
    std::set<std::string> listed(q.columns.begin(), q.columns.end());
    CHECK(listed.size() == q.columns.size());
    CHECK(named == listed);
  }
  CHECK(tpch::standard_queries().size() == 22);
  const tpch::QueryText q15 = tpch::query_text(tpch::find_query("Q15"));
  CHECK(q15.setup.size() == 1);
  CHECK(q15.teardown.size() == 1);
  CHECK(q15.select.rfind("select s_suppkey", 0) == 0);
}

TEST_CASE("TPC-H: dbgen-format files load back through COPY", "[tpch]") {
  auto tables = generate(kTestScale, {}, 2);
  TempDir dir;
  Database db(Options{ExecutorKind::Host});
  Database generated(Options{ExecutorKind::Host});
  for (const std::string name : {"supplier", "orders", "nation"}) {
    INFO(name);
    const Table& t = table_named(tables, name);
    const std::string path = dir.path() + "/" + name + ".tbl";
    tpch::write_text(t, path);
    db.query(tpch::create_table_sql(name));
    db.query("COPY " + name + " FROM '" + path + "' (DELIMITER '|')");
    generated.impl().add_table(shared_table(tables, name));
    const std::string all = "SELECT * FROM " + name + " ORDER BY 1";
    Rows loaded = to_rows(db.query(all)), built = to_rows(generated.query(all));
    CHECK(loaded.size() == t.rows);
    CHECK(loaded == built);
  }
}

TEST_CASE("TPC-H: the 22 queries on the host executor give DuckDB's answers at SF 0.01", "[tpch][duckdb]") {
  auto tables = generate(kTestScale);
  diff::DuckdbOracle duckdb;
  if (!load_duckdb(duckdb, tables)) return;
  Database db(Options{ExecutorKind::Host});
  for (const auto& t : tables) db.impl().add_table(t);
  // No agreement on nothing: at this scale every query has rows, if only one
  // (Q18's HAVING SUM(l_quantity) > 300, Q20's parts named 'forest%').
  CHECK(check_queries(db, duckdb, "host") == 22);
}

TEST_CASE("TPC-H: the 22 queries on the CUDA executor give DuckDB's answers at SF 0.01", "[tpch][duckdb][gpu]") {
  // Declared before the tables, so that it outlives their device buffers.
  Database db(Options{ExecutorKind::Gpu});
  auto tables = generate(kTestScale);
  diff::DuckdbOracle duckdb;
  if (!load_duckdb(duckdb, tables)) return;
  for (const auto& t : tables) db.impl().add_table(t);
  check_queries(db, duckdb, "CUDA");
}
