// What stops a statement from outside: Database::interrupt() (the shell's
// Ctrl-C) and SET memory_limit. Each leaves the database, its tables and its
// settings as they were, on either executor.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>

#include "common/query_control.hpp"
#include "engine/database_impl.hpp"
#include "engine/settings.hpp"
#include "parser/parser.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;
using gpusql::test::TempDir;

namespace {

using Clock = std::chrono::steady_clock;

// `rows` rows of (k, x): k = 1 on every row (a self-join on k is rows^2
// pairs), x = the row number.
std::string write_table(const TempDir& dir, std::size_t rows) {
  std::string text = "k,x\n";
  for (std::size_t i = 0; i < rows; ++i) text += "1," + std::to_string(i) + "\n";
  return dir.write("t.csv", text);
}

ErrorKind kind_of_failure(Database& db, const std::string& sql, std::string* message = nullptr) {
  try {
    db.query(sql);
  } catch (const Error& e) {
    if (message) *message = e.what();
    return e.kind();
  }
  FAIL("no error from: " << sql);
  return ErrorKind::Invalid;
}

// Interrupts `sql` after `delay` from another thread; returns the error
// kind and how long the statement took to stop after the request.
std::pair<ErrorKind, double> interrupt_after(Database& db, const std::string& sql, std::chrono::milliseconds delay) {
  Clock::time_point asked;
  std::thread interrupter([&] {
    std::this_thread::sleep_for(delay);
    asked = Clock::now();
    db.interrupt();
  });
  std::string message;
  ErrorKind kind = kind_of_failure(db, sql, &message);
  const Clock::time_point stopped = Clock::now();
  interrupter.join();
  const double seconds = std::chrono::duration<double>(stopped - asked).count();
  if (kind == ErrorKind::Interrupt) CHECK(message == "INTERRUPT Error: Interrupted!");
  return {kind, seconds};
}

void check_interrupt(ExecutorKind executor) {
  TempDir dir;
  Database db(Options{executor});
  REQUIRE(db.executor() == executor);
  db.load_csv("t", write_table(dir, 40000));

  // An interrupt asked while nothing runs is no request for the next statement.
  db.interrupt();
  CHECK(db.query("SELECT COUNT(*) FROM t").get<int64_t>(0, 0) == 40000);

  // One long statement (the host: a nested-loop join of 1.6e9 pairs; the
  // GPU finishes that in milliseconds) and a script of many short ones: both
  // stop within a second of the request.
  if (executor == ExecutorKind::Host) {
    auto [kind, seconds] =
        interrupt_after(db, "SELECT COUNT(*) FROM t a, t b WHERE a.x + b.x < 0", std::chrono::milliseconds(300));
    CHECK(kind == ErrorKind::Interrupt);
    CHECK(seconds < 1.0);
    // A CREATE TABLE AS stopped creates nothing.
    auto created = interrupt_after(db, "CREATE TABLE u AS SELECT a.x FROM t a, t b WHERE a.x + b.x < 0",
                                   std::chrono::milliseconds(300));
    CHECK(created.first == ErrorKind::Interrupt);
    CHECK(db.table_names() == std::vector<std::string>{"t"});
  }
  // Enough statements that the GPU is still running them at 300 ms (a
  // script stopped while it is parsed is the test below).
  const int statements = executor == ExecutorKind::Gpu ? 20000 : 2000;
  std::string script;
  for (int i = 0; i < statements; ++i) script += "SELECT SUM(x) FROM t WHERE x > " + std::to_string(i % 1000) + ";";
  auto [kind, seconds] = interrupt_after(db, script, std::chrono::milliseconds(300));
  CHECK(kind == ErrorKind::Interrupt);
  CHECK(seconds < 1.0);

  // Everything is as it was, and the next statement runs.
  CHECK(db.table_names() == std::vector<std::string>{"t"});
  Result after = db.query("SELECT COUNT(*), SUM(x), MIN(k), MAX(k) FROM t");
  CHECK(after.get<int64_t>(0, 0) == 40000);
  CHECK(after.text(0, 1) == "799980000");
  CHECK(after.text(0, 2) == "1");

}

void check_memory_limit(ExecutorKind executor) {
  TempDir dir;
  Database db(Options{executor});
  REQUIRE(db.executor() == executor);
  db.load_csv("t", write_table(dir, 3000));
  // 64 MiB above what the process holds now: the join's 9 M rows of two
  // INTEGER columns (72 MB on the host, wherever they were computed) pass it.
  const std::size_t limit = resident_bytes() + (std::size_t{64} << 20);
  db.query("SET memory_limit = '" + std::to_string(limit) + "B'");
  CHECK(db.impl().control.memory_limit() == limit);
  std::string message;
  CHECK(kind_of_failure(db, "SELECT a.x, b.x FROM t a JOIN t b ON a.k = b.k", &message) == ErrorKind::OutOfMemory);
  CHECK_THAT(message, Catch::StartsWith("Out of Memory Error: ") && Catch::Contains("of host memory; the process holds") &&
                          Catch::Contains("SET memory_limit"));
  // The session and its tables survive; a small answer still fits.
  CHECK(db.query("SELECT COUNT(*), SUM(x) FROM t").text(0, 1) == "4498500");
  // A load that would pass the limit creates no table.
  db.query("SET memory_limit = '" + std::to_string(resident_bytes() + (std::size_t{1} << 20)) + "B'");
  std::string big = "k,x\n";
  for (int i = 0; i < 400000; ++i) big += "1," + std::to_string(i) + "\n";
  const std::string big_path = dir.write("big.csv", big);
  CHECK(kind_of_failure(db, "CREATE TABLE big AS SELECT * FROM read_csv('" + big_path + "')") == ErrorKind::OutOfMemory);
  CHECK(db.table_names() == std::vector<std::string>{"t"});
  // With the limit lifted the same join runs.
  db.query("RESET memory_limit");
  CHECK(db.impl().control.memory_limit() == default_memory_limit());
  Result joined = db.query("SELECT a.x, b.x FROM t a JOIN t b ON a.k = b.k");
  CHECK(joined.row_count() == 9000000);
  db.query("CREATE TABLE big AS SELECT * FROM read_csv('" + big_path + "')");
  CHECK(db.query("SELECT COUNT(*) FROM big").get<int64_t>(0, 0) == 400000);
}

}  // namespace

TEST_CASE("interrupt: a running statement stops within a second, the database as it was", "[control]") {
  check_interrupt(ExecutorKind::Host);
}

namespace {

// `text` (which takes the parser seconds and ends in a syntax error: an
// Interrupt, not a Parser error, shows the parse stopped on its way there)
// interrupted 50 ms in: stopped within `most` seconds, the session usable.
void check_parse_interrupted(const std::string& text, double most) {
  Database db(Options{ExecutorKind::Host});
  auto [kind, seconds] = interrupt_after(db, text, std::chrono::milliseconds(50));
  CHECK(kind == ErrorKind::Interrupt);
  CHECK(seconds < most);
  CHECK(db.query("SELECT 41 + 1 AS answer").get<int64_t>(0, 0) == 42);
}

}  // namespace

TEST_CASE("interrupt: a long script stops while it is parsed, the database as it was", "[control]") {
  std::string script;  // 200,000 statements
  for (int i = 0; i < 200000; ++i) script += "SELECT 1;";
  check_parse_interrupted(script + "SELEC 2;", 2.0);
}

TEST_CASE("interrupt: one statement of megabytes stops while it is parsed", "[control]") {
  // An IN list of 700,000 values (4.8 MB): 2 s to parse.
  std::string sql = "SELECT COUNT(*) FROM (SELECT 1 AS x) AS t WHERE x IN (0";
  for (int i = 1; i < 700000; ++i) sql += "," + std::to_string(i);
  check_parse_interrupted(sql + "))", 1.0);
}

TEST_CASE("interrupt: parse_sql checks the interrupt before each statement", "[control]") {
  QueryControl control;
  CHECK(parse_sql("SELECT 1; SELECT 2", &control).size() == 2);
  control.request_interrupt();
  CHECK_THROWS_WITH(parse_sql("SELECT 1; SELECT 2", &control), "INTERRUPT Error: Interrupted!");
  CHECK(parse_sql("SELECT 1; SELECT 2").size() == 2);  // no control: nothing to stop it
}

TEST_CASE("interrupt: the GPU executor stops between kernels", "[gpu][control]") {
  check_interrupt(ExecutorKind::Gpu);
}

TEST_CASE("memory_limit: a join's output past the limit fails, the session survives", "[control]") {
  check_memory_limit(ExecutorKind::Host);
}

TEST_CASE("memory_limit: the GPU executor keeps the host copy of a result under it", "[gpu][control]") {
  check_memory_limit(ExecutorKind::Gpu);
}

TEST_CASE("memory_limit: sizes as DuckDB writes them; the default is 80 % of memory", "[control][settings]") {
  Database db(Options{ExecutorKind::Host});
  auto shown = [&] {
    for (const auto& [name, value] : setting_values(db.impl().settings))
      if (name == "memory_limit") return value;
    return std::string("(none)");
  };
  const uint64_t machine = default_memory_limit();
  CHECK(machine > 0);
  CHECK(db.impl().control.memory_limit() == machine);
  CHECK(shown() == "'" + format_bytes(machine) + "'");
  db.query("SET memory_limit = '4GB'");
  CHECK(db.impl().control.memory_limit() == 4000000000ULL);
  CHECK(shown() == "'3.7 GiB'");
  db.query("SET memory_limit = '512MiB'");
  CHECK(db.impl().control.memory_limit() == 536870912ULL);
  CHECK(shown() == "'512.0 MiB'");
  db.query("PRAGMA memory_limit = ' 1.5 gb'");
  CHECK(db.impl().control.memory_limit() == 1500000000ULL);
  db.query("SET memory_limit = '100kb'");
  CHECK(db.impl().control.memory_limit() == 100000ULL);
  db.query("SET memory_limit = '2T'");
  CHECK(db.impl().control.memory_limit() == 2000000000000ULL);
  db.query("SET memory_limit = 'none'");
  CHECK(db.impl().control.memory_limit() == UINT64_MAX);
  CHECK(shown() == "'none'");
  db.query("SET memory_limit = '1GiB'");
  db.query("SET memory_limit = -1");
  CHECK(db.impl().control.memory_limit() == UINT64_MAX);
  for (const char* bad : {"'3x'", "'GB'", "'0GB'", "5", "'1.2.3GB'", "true"}) {
    INFO(bad);
    std::string message;
    CHECK(kind_of_failure(db, std::string("SET memory_limit = ") + bad, &message) == ErrorKind::Invalid);
    CHECK_THAT(message, Catch::Contains("setting \"memory_limit\" takes a size such as '4GB'"));
  }
  CHECK(db.impl().control.memory_limit() == UINT64_MAX);  // unchanged by the errors
  db.query("RESET memory_limit");
  CHECK(db.impl().control.memory_limit() == machine);
  // Options sets the first value.
  Settings settings;
  settings.memory_limit = 123456789;
  Database given(Options{ExecutorKind::Host, settings});
  CHECK(given.impl().control.memory_limit() == 123456789);
}

TEST_CASE("format_bytes: DuckDB's way of printing a size", "[control]") {
  CHECK(format_bytes(0) == "0 bytes");
  CHECK(format_bytes(1023) == "1023 bytes");
  CHECK(format_bytes(1024) == "1.0 KiB");
  CHECK(format_bytes(1536) == "1.5 KiB");
  CHECK(format_bytes(4000000000ULL) == "3.7 GiB");
  CHECK(format_bytes(UINT64_MAX) == "16384.0 PiB");
}
