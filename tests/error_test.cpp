// Binder and catalog errors: the exact text a user sees, caret included.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <utility>

#include "storage/cuda_architectures.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;
using namespace gpusql::test;

namespace {

std::string error_of(Database& db, const std::string& sql) {
  try {
    db.query(sql);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("binder and catalog errors point at the name", "[errors]") {
  Database db(Options{ExecutorKind::Host});
  db.load_csv("records", sample("records"));

  CHECK(error_of(db, "SELECT weigth FROM records") ==
        "Binder Error: Referenced column \"weigth\" not found in FROM clause! (line 1, column 8)\n"
        "Did you mean \"records.weight\"?\n"
        "LINE 1: SELECT weigth FROM records\n"
        "               ^");
  CHECK(error_of(db, "SELECT x FROM records") ==
        "Binder Error: Referenced column \"x\" not found in FROM clause! (line 1, column 8)\n"
        "Candidate bindings: \"records.height\", \"records.weight\"\n"
        "LINE 1: SELECT x FROM records\n"
        "               ^");
  CHECK(error_of(db, "SELECT *\nFROM recordz") ==
        "Catalog Error: Table with name recordz does not exist! (line 2, column 6)\n"
        "Did you mean \"records\"?\n"
        "LINE 2: FROM recordz\n"
        "             ^");
  CHECK(error_of(db, "SELECT height, COUNT(*) FROM records") ==
        "Binder Error: column \"height\" must appear in the GROUP BY clause or must be part of an aggregate "
        "function (line 1, column 8)\n"
        "LINE 1: SELECT height, COUNT(*) FROM records\n"
        "               ^");
  CHECK(error_of(db, "SELECT * FROM records WHERE weight") ==
        "Binder Error: WHERE clause must be a boolean expression, not DOUBLE (line 1, column 29)\n"
        "LINE 1: SELECT * FROM records WHERE weight\n"
        "                                    ^");
  CHECK(error_of(db, "SELECT * FROM records WHERE COUNT(*) > 1") ==
        "Binder Error: WHERE clause cannot contain aggregates (line 1, column 29)\n"
        "LINE 1: SELECT * FROM records WHERE COUNT(*) > 1\n"
        "                                    ^");
  CHECK(error_of(db, "SELECT sum(weight, height) FROM records") ==
        "Binder Error: sum() takes exactly one argument (line 1, column 8)\n"
        "LINE 1: SELECT sum(weight, height) FROM records\n"
        "               ^");
  CHECK(error_of(db, "SELECT summ(weight) FROM records") ==
        "Binder Error: Scalar Function with name summ does not exist! (line 1, column 8)\n"
        "Did you mean \"sum\"?\n"
        "LINE 1: SELECT summ(weight) FROM records\n"
        "               ^");
  CHECK(error_of(db, "SELECT weight FROM records WHERE weight < 'x'") ==
        "Binder Error: Cannot compare values of type DOUBLE and VARCHAR (line 1, column 43)\n"
        "LINE 1: SELECT weight FROM records WHERE weight < 'x'\n"
        "                                                  ^");
  CHECK(error_of(db, "SELECT r.weight FROM records AS t") ==
        "Binder Error: Referenced table \"r\" not found! (line 1, column 8)\n"
        "LINE 1: SELECT r.weight FROM records AS t\n"
        "               ^");
  CHECK(error_of(db, "SELECT * FROM records, records") ==
        "Binder Error: Duplicate alias \"records\" in query! (line 1, column 24)\n"
        "LINE 1: SELECT * FROM records, records\n"
        "                               ^");
  CHECK(error_of(db, "SELECT height FROM records r, records s") ==
        "Binder Error: Ambiguous reference to column name \"height\" (use: \"r.height\", \"s.height\") (line 1, column 8)\n"
        "LINE 1: SELECT height FROM records r, records s\n"
        "               ^");
  CHECK(error_of(db, "SELECT SUM(COUNT(*)) FROM records") ==
        "Binder Error: aggregate function calls cannot be nested (line 1, column 12)\n"
        "LINE 1: SELECT SUM(COUNT(*)) FROM records\n"
        "                   ^");
  // Qualified names and aliases resolve.
  CHECK(db.query("SELECT r.weight FROM records r WHERE r.height > 0.99").row_count() ==
        db.query("SELECT weight FROM records WHERE height > 0.99").row_count());
  // After all of that the table is intact.
  CHECK(db.query("SELECT COUNT(*) FROM records").get<int64_t>(0, 0) == 100);
}

TEST_CASE("the Database API reports misuse clearly", "[errors]") {
  Database db(Options{ExecutorKind::Host});
  db.load_csv("records", sample("records"));
  Result r = db.query("SELECT COUNT(*) FROM records");
  CHECK_THROWS_WITH(r.get<double>(0, 0), Catch::Contains("is BIGINT, not the type asked for"));
  CHECK_THROWS_WITH(r.value(1, 0), "Invalid Input Error: row index 1 out of range (1 rows)");
  CHECK_THROWS_WITH(r.value(0, 1), "Invalid Input Error: column index 1 out of range (1 columns)");
  CHECK(db.query("").row_count() == 0);
  CHECK(db.query("  ; ;").column_count() == 0);
}

TEST_CASE("asking for the GPU where there is none is a clear error", "[errors]") {
  std::string why;
  if (gpu_available(&why)) {
    SUCCEED("a GPU is usable here");
    return;
  }
  // A machine without the NVIDIA driver hears so, not of an "insufficient" one.
  if (void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) dlclose(driver);
  else CHECK(why == "no NVIDIA driver found (libcuda.so.1 is not installed)");
  CHECK_THROWS_WITH(Database(Options{ExecutorKind::Gpu}),
                    "Device Error: the GPU executor was asked for, but no GPU is usable: " + why);
  Database fallback;  // Auto falls back to the host
  CHECK(fallback.executor() == ExecutorKind::Host);
  CHECK(fallback.executor_description() == "host (no usable GPU: " + why + ")");
}

TEST_CASE("the embedding example runs", "[example]") {
  std::string command = std::string(GPUSQL_EXAMPLE_PATH) + " " + sample("records") + " host 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::string output;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
  int status = pclose(pipe);
  CHECK(status == 0);
  Database db(Options{ExecutorKind::Host});
  db.load_csv("records", sample("records"));
  Result r = db.query("SELECT COUNT(*), MIN(weight) FROM records WHERE weight < 0.1");
  CHECK(output == "executor: host (as asked)\n"
                  "n BIGINT\n"
                  "lightest DOUBLE\n"
                  "n=" + r.text(0, 0) + " lightest=" + r.text(0, 1) + " (" + r.text(0, 1) + ")\n"
                  "arrow: +s of 1 row(s): n l lightest g, n=" + r.text(0, 0) + "\n"
                  "error at line 1, column 8:\n"
                  "Binder Error: Referenced column \"weigth\" not found in FROM clause! (line 1, column 8)\n"
                  "Did you mean \"records.weight\"?\n"
                  "LINE 1: SELECT weigth FROM records\n"
                  "               ^\n");
}

TEST_CASE("a build's GPU code runs on the devices its architectures cover", "[errors]") {
  CHECK(architectures_run_on("90", 9, 0));     // sm_90 machine code
  CHECK_FALSE(architectures_run_on("90", 8, 0));
  CHECK(architectures_run_on("90", 10, 0));    // compute_90 PTX, compiled by the driver
  CHECK(architectures_run_on("86", 8, 9));     // same major, newer minor
  CHECK_FALSE(architectures_run_on("90-real", 10, 0));
  CHECK_FALSE(architectures_run_on("89-real", 8, 6));
  CHECK(architectures_run_on("90;80-virtual", 8, 6));
  CHECK_FALSE(architectures_run_on("90;80-virtual", 7, 5));
  // The default build: sm_90 machine code, compute_80 PTX for the rest.
  for (auto [major, minor] : {std::pair{9, 0}, {8, 0}, {8, 6}, {8, 9}, {10, 0}, {12, 0}})
    CHECK(architectures_run_on("90-real;80-virtual", major, minor));
  CHECK_FALSE(architectures_run_on("90-real;80-virtual", 7, 5));
  CHECK(architectures_run_on("90-real 80-virtual", 8, 6));  // as the build passes them
  CHECK_FALSE(architectures_run_on("90-real 80-virtual", 7, 5));
  CHECK(architectures_run_on("all-major", 7, 0));
  CHECK(architectures_run_on("native", 8, 0));
}

TEST_CASE("a long line shows a window around the caret, not the whole statement", "[errors]") {
  Database db{Options{ExecutorKind::Host}};
  db.query("CREATE TABLE t (a INTEGER)");
  std::string sql = "SELECT a FROM t WHERE a = 1 AND" + std::string(20000, ' ') + "zz = 2 AND " +
                    std::string(20000, ' ') + "a = 1";
  try {
    db.query(sql);
    FAIL("the unknown column zz should fail");
  } catch (const Error& e) {
    const std::string what = e.what();
    CHECK(what.size() < 600);
    CHECK(*e.column() == sql.find("zz") + 1);  // the position itself is not cut
    const std::size_t line_at = what.find("LINE 1: ...");
    REQUIRE(line_at != std::string::npos);
    const std::size_t line_end = what.find('\n', line_at);
    const std::string line = what.substr(line_at, line_end - line_at);
    const std::string caret = what.substr(line_end + 1);
    CHECK(caret.back() == '^');
    CHECK(line.substr(caret.size() - 1, 2) == "zz");
    CHECK(line.size() <= std::string("LINE 1: ").size() + 3 + 160 + 3);
  }
  // A short line is shown whole, as before.
  CHECK_THROWS_WITH(db.query("SELECT zz FROM t"), Catch::Contains("LINE 1: SELECT zz FROM t\n               ^"));
}
