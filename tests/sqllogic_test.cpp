// The SQL logic tests: every tests/sql/**/*.test file (tests/sql/pending/
// aside) on the host executor, and on the CUDA executor where a GPU is
// usable -- the same files, the same expected results. The format is
// described in tests/sqllogic/runner.hpp.
//
//   GPUSQL_SQL_TESTS=aggregates     runs only the files whose path contains it
//   gpusql_tests "[pending]"        reports which pending files pass by now
#include <catch2/catch.hpp>

#include <cstdlib>

#include "tests/sqllogic/runner.hpp"

using namespace gpusql;
using namespace gpusql::test;

namespace {

std::string relative_name(const std::filesystem::path& file) {
  return std::filesystem::relative(file, source_dir()).generic_string();
}

bool selected(const std::string& name) {
  const char* filter = std::getenv("GPUSQL_SQL_TESTS");
  return filter == nullptr || name.find(filter) != std::string::npos;
}

void run_all(ExecutorKind kind, const std::string& executor, Settings settings = {}) {
  auto files = sqllogic::test_files(false);
  REQUIRE(!files.empty());
  sqllogic::Runner runner(kind, executor, settings);
  std::size_t ran = 0;
  for (const auto& file : files) {
    std::string name = relative_name(file);
    if (!selected(name)) continue;
    ++ran;
    for (const auto& failure : runner.run_file(file.string(), name)) FAIL_CHECK(failure);
  }
  WARN("sqllogic (" << executor << (settings.chunk_rows ? ", chunks of " + std::to_string(settings.chunk_rows) + " rows" : "")
                    << (settings.plain_strings_rows == 0 ? ", plain strings" : "") << "): " << ran << " files, "
                    << runner.records_run() << " records run of " << runner.records_seen());
}

}  // namespace

TEST_CASE("SQL logic tests on the host executor", "[sql]") { run_all(ExecutorKind::Host, "host"); }

TEST_CASE("SQL logic tests on the CUDA executor", "[sql][gpu]") { run_all(ExecutorKind::Gpu, "gpu"); }

TEST_CASE("SQL logic tests on the host executor, scans in chunks of 3 rows", "[sql][chunks]") {
  run_all(ExecutorKind::Host, "host", in_chunks_of(3));
}

TEST_CASE("SQL logic tests on the CUDA executor, scans in chunks of 3 rows", "[sql][gpu][chunks]") {
  run_all(ExecutorKind::Gpu, "gpu", in_chunks_of(3));
}

TEST_CASE("SQL logic tests on the host executor, loaded strings kept plain", "[sql][plain]") {
  run_all(ExecutorKind::Host, "host", plain_strings());
}

TEST_CASE("SQL logic tests on the CUDA executor, loaded strings kept plain", "[sql][gpu][plain]") {
  run_all(ExecutorKind::Gpu, "gpu", plain_strings());
}

// Not part of the run: the pending files hold tests of features not landed
// yet and reproducers of bugs not fixed yet. This lists which pass by now, so
// they can move out of pending/.
TEST_CASE("pending SQL logic tests (report only)", "[.][pending]") {
  sqllogic::Runner runner(ExecutorKind::Host, "host");
  for (const auto& file : sqllogic::test_files(true)) {
    std::string name = relative_name(file);
    if (!selected(name)) continue;
    auto failures = runner.run_file(file.string(), name);
    if (failures.empty()) WARN("PASSES now, move it out of pending/: " << name);
    else WARN("still failing (" << failures.size() << "): " << name << "\n" << failures.front());
  }
}

TEST_CASE("the runner reads the file format", "[sql]") {
  using sqllogic::Record;
  std::string text =
      "# comment\n"
      "load t\n"
      "a,b\n"
      "1,x\n"
      "\n"
      "skipif gpu\n"
      "query IT rowsort lbl\n"
      "SELECT a,\n"
      "  b FROM t\n"
      "----\n"
      "1\tx\n"
      "\n"
      "loop i 0 2\n"
      "statement error\n"
      "SELECT ${i} FROM nope\n"
      "----\n"
      "Catalog Error\n"
      "\n"
      "endloop\n"
      "halt\n";
  auto records = sqllogic::parse_records("inline.test", text);
  REQUIRE(records.size() == 5);
  CHECK(records[0].kind == Record::Kind::Load);
  CHECK(records[0].csv == std::vector<std::string>{"a,b", "1,x"});
  CHECK(records[1].kind == Record::Kind::Query);
  CHECK(records[1].types == "IT");
  CHECK(records[1].sort == sqllogic::SortMode::RowSort);
  CHECK(records[1].label == "lbl");
  CHECK(records[1].skip_if == std::vector<std::string>{"gpu"});
  CHECK(records[1].sql == "SELECT a,\n  b FROM t");
  CHECK(records[1].expected == std::vector<std::string>{"1\tx"});
  CHECK(records[2].sql == "SELECT 0 FROM nope");
  CHECK(records[3].sql == "SELECT 1 FROM nope");
  CHECK(records[3].line == 14);
  CHECK(records[4].kind == Record::Kind::Halt);
  CHECK_THROWS_WITH(sqllogic::parse_records("bad.test", "query XY\nSELECT 1\n"),
                    Catch::Contains("bad.test:1: malformed test file"));
  CHECK_THROWS_WITH(sqllogic::parse_records("bad.test", "\nsomething else\n"), Catch::Contains("bad.test:2"));

  // A file that fails reports every failing record, with its line.
  TempDir dir;
  std::string path = dir.write("f.test",
                               "load t\na\n1\n2\n\n"
                               "query I\nSELECT a FROM t\n----\n1\n3\n\n"
                               "query I rowsort\nSELECT a FROM t\n----\n2\n1\n\n"
                               "statement error\nSELECT a FROM t\n\n"
                               "statement error\nSELECT b FROM t\n----\nno such text\n\n"
                               "query II\nSELECT a FROM t\n----\n1\n2\n");
  sqllogic::Runner runner(ExecutorKind::Host, "host");
  auto failures = runner.run_file(path, "f.test");
  REQUIRE(failures.size() == 4);
  CHECK_THAT(failures[0], Catch::StartsWith("f.test:6: wrong result"));
  CHECK_THAT(failures[1], Catch::StartsWith("f.test:18: expected an error"));
  CHECK_THAT(failures[2], Catch::StartsWith("f.test:21: wrong error message"));
  CHECK_THAT(failures[3], Catch::StartsWith("f.test:26: the query returned 1 columns"));
}

// Inputs too big for a test file: a 10,000-column select list and
// 1,000-level-deep expressions are rejected with a Parser or Not implemented
// error, and the database works afterwards.
TEST_CASE("huge select lists and deep expressions are rejected cleanly", "[sql][robustness]") {
  Database db(Options{ExecutorKind::Host});
  TempDir dir;
  db.load_csv("t", dir.write("t.csv", "a,b\n1,2\n3,4\n"));
  auto rejected_cleanly = [&](const std::string& sql) {
    INFO(sql.substr(0, 120));
    try {
      db.query(sql);
      FAIL_CHECK("accepted");
    } catch (const Error& e) {
      INFO(std::string(e.what()).substr(0, 300));
      CHECK((e.kind() == ErrorKind::Parser || e.kind() == ErrorKind::NotSupported));
    }
  };
  // A wide select list is rejected, or answered correctly.
  std::string wide = "SELECT a";
  for (int i = 1; i < 10000; ++i) wide += ", a + " + std::to_string(i);
  try {
    Result r = db.query(wide + " FROM t");
    REQUIRE(r.column_count() == 10000);
    REQUIRE(r.row_count() == 2);
    CHECK(r.text(1, 9999) == "10002");
  } catch (const Error& e) {
    INFO(std::string(e.what()).substr(0, 300));
    CHECK((e.kind() == ErrorKind::Parser || e.kind() == ErrorKind::NotSupported));
  }
  std::string deep_parens = "SELECT " + std::string(1000, '(') + "a" + std::string(1000, ')') + " FROM t";
  std::string deep_sum = "SELECT a";
  for (int i = 0; i < 1000; ++i) deep_sum += " + 1";
  std::string deep_nested = "a";
  for (int i = 0; i < 1000; ++i) deep_nested = "(" + deep_nested + " * 1)";
  std::string deep_not = "SELECT * FROM t WHERE ";
  for (int i = 0; i < 1000; ++i) deep_not += "NOT ";
  std::string deep_minus = "SELECT ";
  for (int i = 0; i < 1000; ++i) deep_minus += "- ";
  deep_minus += "a FROM t";
  for (const std::string& sql :
       {deep_parens, deep_sum + " FROM t", "SELECT " + deep_nested + " FROM t", deep_not + "a = 1", deep_minus,
        "SELECT COUNT(*) FROM t WHERE " + deep_nested + " > 0", "SELECT SUM(" + deep_nested + ") FROM t"}) {
    rejected_cleanly(sql);
  }
  // Far deeper than any limit: still an error, not a stack overflow.
  rejected_cleanly("SELECT " + std::string(200000, '(') + "1" + std::string(200000, ')') + " FROM t");
  std::string very_deep_minus = "SELECT ";
  for (int i = 0; i < 200000; ++i) very_deep_minus += "- ";
  rejected_cleanly(very_deep_minus + "1 FROM t");
  CHECK(db.query("SELECT SUM(a) FROM t").get<int64_t>(0, 0) == 4);
}
