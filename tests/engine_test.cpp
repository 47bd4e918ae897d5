// Every query case on the host executor, compared with SQLite on the same files.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tests/query_cases.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;
using namespace gpusql::test;

namespace {

struct SampleDatabases {
  Database db{Options{ExecutorKind::Host}};
  Sqlite oracle;
  SampleDatabases() {
    for (const auto& t : sample_tables()) {
      db.load_csv(t, sample(t));
      oracle.load_csv(t, sample(t), db.query("SELECT * FROM " + t + " WHERE 1 = 0"));
    }
  }
};

}  // namespace

TEST_CASE("host executor matches SQLite on every query case", "[engine][sqlite]") {
  SampleDatabases s;
  REQUIRE(s.db.executor() == ExecutorKind::Host);
  for (const auto& c : query_cases()) {
    INFO("query: " << c.sql);
    Rows expected = s.oracle.query(c.sqlite_sql.empty() ? c.sql : c.sqlite_sql);
    Rows actual = to_rows(s.db.query(c.sql));
    if (c.unordered) {
      std::sort(expected.begin(), expected.end());
      std::sort(actual.begin(), actual.end());
    }
    INFO("sqlite:\n" << to_string(expected) << "gpusql:\n" << to_string(actual));
    CHECK(same_rows(expected, actual, c.approximate));
  }
}

TEST_CASE("the foundation's acceptance query, values pinned", "[engine]") {
  Database db(Options{ExecutorKind::Host});
  db.load_csv("records", sample("records"));
  Result r = db.query(
      "SELECT COUNT(*), SUM(weight), MIN(weight), MAX(height) FROM records WHERE weight < 0.1 OR height > 0.9");
  REQUIRE(r.row_count() == 1);
  REQUIRE(r.column_count() == 4);
  CHECK(r.column_name(0) == "COUNT(*)");
  CHECK(r.column_name(1) == "SUM(weight)");
  CHECK(r.column_type(0) == Type::BigInt);
  CHECK(r.column_type(1) == Type::Double);
  // Hand-checked against sqlite3 on sample_data/records.csv.
  Sqlite oracle;
  oracle.load_csv("records", sample("records"), db.query("SELECT * FROM records WHERE 1 = 0"));
  Rows expected = oracle.query(
      "SELECT COUNT(*), SUM(weight), MIN(weight), MAX(height) FROM records WHERE weight < 0.1 OR height > 0.9");
  CHECK(r.get<int64_t>(0, 0) == std::get<int64_t>(expected[0][0]));
  CHECK(r.get<double>(0, 2) == std::get<double>(expected[0][2]));
  CHECK(r.get<double>(0, 3) == std::get<double>(expected[0][3]));
}

TEST_CASE("strings compare on dictionary codes and NULLs follow SQL", "[engine][sqlite]") {
  TempDir dir;
  std::string path = dir.write("fruit.csv",
                               "name,qty,price\n"
                               "cherry,3,1.5\n"
                               "apple,,0.25\n"
                               ",7,\n"
                               "banana,2,0.5\n"
                               "apple,5,0.75\n"
                               "date,,\n"
                               "Zucchini,1,2.0\n");
  Database db(Options{ExecutorKind::Host});
  db.load_csv("fruit", path);
  Sqlite oracle;
  oracle.load_csv("fruit", path, db.query("SELECT * FROM fruit WHERE 1 = 0"));
  const std::vector<std::string> queries = {
      "SELECT * FROM fruit",
      "SELECT name FROM fruit WHERE name = 'apple'",
      "SELECT name FROM fruit WHERE name <> 'apple'",
      "SELECT name FROM fruit WHERE name = 'fig'",
      "SELECT name FROM fruit WHERE name < 'banana'",
      "SELECT name FROM fruit WHERE name <= 'banana'",
      "SELECT name FROM fruit WHERE name > 'b'",
      "SELECT name FROM fruit WHERE name >= 'cherry'",
      "SELECT name FROM fruit WHERE 'c' < name",
      "SELECT name, qty FROM fruit WHERE qty > 2 OR price < 1",
      "SELECT name, qty FROM fruit WHERE NOT (qty > 2)",
      "SELECT COUNT(*), COUNT(name), COUNT(qty), COUNT(price), SUM(qty), MIN(name), MAX(name) FROM fruit",
      "SELECT MIN(qty), MAX(price), AVG(qty) FROM fruit",
      "SELECT qty + 1, price * 2 FROM fruit",
      "SELECT name FROM fruit WHERE name = name",
  };
  for (const auto& q : queries) {
    INFO("query: " << q);
    Rows expected = oracle.query(q);
    Rows actual = to_rows(db.query(q));
    INFO("sqlite:\n" << to_string(expected) << "gpusql:\n" << to_string(actual));
    CHECK(same_rows(expected, actual));
  }
  Result r = db.query("SELECT MIN(name), COUNT(qty) FROM fruit");
  CHECK(r.get<std::string>(0, 0) == "Zucchini");  // byte order: upper case first, as SQLite's BINARY
  CHECK(r.get<int64_t>(0, 1) == 5);
}

TEST_CASE("floating SUM follows the fixed reduction order over many chunks", "[engine]") {
  // 100,003 values: 49 chunks of 2048 plus a partial one, two reduction passes.
  std::string csv = "v,k\n";
  uint64_t state = 12345;
  for (int i = 0; i < 100003; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    double v = static_cast<double>(state >> 11) / 9007199254740992.0 * 2000.0 - 1000.0;
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.17g,%d\n", v, i % 1000);
    csv += buffer;
  }
  TempDir dir;
  std::string path = dir.write("big.csv", csv);
  Database db(Options{ExecutorKind::Host});
  db.load_csv("big", path);
  Sqlite oracle;
  oracle.load_csv("big", path, db.query("SELECT * FROM big WHERE 1 = 0"));
  for (const std::string q : {"SELECT SUM(v), COUNT(*), MIN(v), MAX(v), SUM(k) FROM big",
                              "SELECT SUM(v), AVG(v), SUM(k) FROM big WHERE k < 500 OR v > 900"}) {
    INFO(q);
    Rows expected = oracle.query(q);
    Rows actual = to_rows(db.query(q));
    INFO("sqlite:\n" << to_string(expected) << "gpusql:\n" << to_string(actual));
    CHECK(same_rows(expected, actual, {0, 1}));
  }
  // Same bits on every run.
  Result first = db.query("SELECT SUM(v) FROM big");
  for (int i = 0; i < 3; ++i) CHECK(db.query("SELECT SUM(v) FROM big").get<double>(0, 0) == first.get<double>(0, 0));
}

TEST_CASE("SUM of a DECIMAL is a 128-bit DECIMAL(38, s) through the API", "[engine]") {
  Database db{Options{ExecutorKind::Host}};
  db.query("CREATE TABLE w (x DECIMAL(18,2)); INSERT INTO w VALUES (9999999999999999.99), (9999999999999999.99)");
  Result r = db.query("SELECT SUM(x), -SUM(x) * 500 FROM w");
  CHECK(r.column_type(0) == Type::Decimal);
  CHECK(r.get<Decimal>(0, 0) == Decimal{1999999999999999998, 2});  // fits in 64 bits: high is 0
  CHECK(r.get<Decimal>(0, 1) == Decimal{-3875820019684211736, 2, -54});
  CHECK(r.text(0, 1) == "-9999999999999999990.00");
  CHECK(r.get<Decimal>(0, 1).to_double() == -1e19);
}

TEST_CASE("integer overflow is an error, not a wrap", "[engine]") {
  TempDir dir;
  std::string path = dir.write("big.csv", "a,b\n9223372036854775807,1\n1,2\n");
  Database db(Options{ExecutorKind::Host});
  db.load_csv("t", path);
  CHECK(db.query("SELECT SUM(b) FROM t").get<int64_t>(0, 0) == 3);
  CHECK_THROWS_WITH(db.query("SELECT SUM(a) FROM t"), Catch::Contains("integer overflow in SUM"));
  CHECK_THROWS_WITH(db.query("SELECT a + b FROM t"), Catch::Contains("integer overflow in arithmetic"));
  CHECK_THROWS_WITH(db.query("SELECT a * 2 FROM t WHERE b = 1"), Catch::Contains("integer overflow"));
  CHECK(db.query("SELECT a * 2 FROM t WHERE b = 2").get<int64_t>(0, 0) == 2);
  // The database is intact after the errors.
  CHECK(db.query("SELECT COUNT(*) FROM t").get<int64_t>(0, 0) == 2);
}
