// Settings: SET / PRAGMA / RESET from SQL and gpusql::Options, what each
// changes, and the errors a wrong name or value gets.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "engine/database_impl.hpp"
#include "engine/settings.hpp"
#include "parser/parser.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;

namespace {

const Settings& settings_of(Database& db) { return db.impl().settings; }

std::string value_of(Database& db, const std::string& name) {
  for (const auto& [n, v] : setting_values(settings_of(db)))
    if (n == name) return v;
  return "(none)";
}

}  // namespace

TEST_CASE("settings: SET, SET ... TO, PRAGMA and RESET change the database's settings", "[settings]") {
  Database db(Options{ExecutorKind::Host});
  CHECK(value_of(db, "threads") == "0");
  db.query("SET threads = 3");
  CHECK(settings_of(db).threads == 3);
  db.query("set THREADS to 5;");
  CHECK(settings_of(db).threads == 5);
  db.query("PRAGMA threads = 2");
  CHECK(value_of(db, "threads") == "2");
  db.query("RESET threads");
  CHECK(settings_of(db).threads == 0);

  // Booleans: true/false, on/off, 1/0, as words or strings.
  for (const char* on : {"true", "on", "1", "'on'", "'TRUE'"}) {
    db.query(std::string("SET small_sort = false"));
    CHECK_FALSE(settings_of(db).small_sort);
    db.query(std::string("SET small_sort = ") + on);
    CHECK(settings_of(db).small_sort);
  }
  db.query("SET pair_program = off");
  CHECK(value_of(db, "pair_program") == "false");
  db.query("SET filter_kernel = 'cub'");
  CHECK(settings_of(db).filter_kernel == FilterKernel::Cub);
  db.query("SET filter_kernel = ordered");
  CHECK(value_of(db, "filter_kernel") == "'ordered'");
  db.query("RESET filter_kernel");
  CHECK(settings_of(db).filter_kernel == FilterKernel::Auto);
  CHECK(settings_of(db).narrow_subquery_rows == 10000000);
  db.query("SET narrow_subquery_rows = 0");
  CHECK(value_of(db, "narrow_subquery_rows") == "0");
  db.query("PRAGMA narrow_subquery_rows = 281474976710656");
  CHECK(settings_of(db).narrow_subquery_rows == (uint64_t{1} << 48));
  CHECK_THROWS_WITH(db.query("SET narrow_subquery_rows = 'many'"), Catch::Contains("a whole number from 0 to"));

  // Every setting is listed, in a fixed order.
  std::string names;
  for (const auto& [name, value] : setting_values(settings_of(db))) names += name + " ";
  CHECK(names == "trace threads filter_kernel small_sort pair_program narrow_subquery_rows memory_limit chunk_rows plain_strings_rows host_mirror ");
}

TEST_CASE("settings: Options gives the first values; a statement's result is empty", "[settings]") {
  Options options{ExecutorKind::Host};
  options.settings.threads = 7;
  options.settings.small_sort = false;
  Database db(options);
  CHECK(settings_of(db).threads == 7);
  CHECK_FALSE(settings_of(db).small_sort);
  Result r = db.query("SET threads = 1");
  CHECK(r.column_count() == 0);
  // RESET goes back to the built-in default, not Options'.
  db.query("RESET small_sort");
  CHECK(settings_of(db).small_sort);
}

TEST_CASE("settings: an unknown name gets a suggestion, a bad value an error; nothing changes", "[settings]") {
  Database db(Options{ExecutorKind::Host});
  db.query("SET threads = 4");
  CHECK_THROWS_WITH(db.query("SET thread = 2"),
                    Catch::StartsWith("Catalog Error: unrecognized configuration parameter \"thread\"") &&
                        Catch::Contains("\nDid you mean \"threads\"?") &&
                        Catch::Contains("LINE 1: SET thread = 2\n            ^"));
  CHECK_THROWS_WITH(db.query("SET threads = 5000"), Catch::Contains("setting \"threads\" takes a whole number"));
  CHECK_THROWS_WITH(db.query("SET threads = 'many'"), Catch::Contains("setting \"threads\" takes a whole number"));
  CHECK_THROWS_WITH(db.query("SET small_sort = 2"), Catch::Contains("takes a boolean"));
  CHECK_THROWS_WITH(db.query("SET filter_kernel = 'fast'"),
                    Catch::Contains("one of 'auto', 'cub', 'ordered'"));
  CHECK_THROWS_WITH(db.query("RESET nothing"), Catch::Contains("unrecognized configuration parameter \"nothing\""));
  CHECK(settings_of(db).threads == 4);
  // Malformed: a value is needed, and an = or TO before it.
  CHECK_THROWS_WITH(db.query("SET threads"), Catch::StartsWith("Parser Error"));
  CHECK_THROWS_WITH(db.query("SET threads 4"), Catch::StartsWith("Parser Error"));
  CHECK_THROWS_WITH(db.query("PRAGMA threads TO 4"), Catch::StartsWith("Parser Error"));
}

TEST_CASE("settings: the parser's statement", "[settings][parser]") {
  auto set = [](const std::string& sql) { return std::get<ast::SetStatement>(parse_sql(sql).at(0).body); };
  ast::SetStatement s = set("SET \"Threads\" TO 8");
  CHECK(s.name == "threads");
  CHECK(s.name_offset == 4);
  REQUIRE(s.value);
  CHECK(s.value->kind == ast::Literal::Kind::Integer);
  CHECK(s.value->integer == 8);
  CHECK(s.value_offset == 17);
  s = set("pragma trace = on ");
  CHECK(s.value->kind == ast::Literal::Kind::String);
  CHECK(s.value->text == "on");
  s = set("RESET trace");
  CHECK_FALSE(s.value);
  // `reset`, `pragma` and `to` stay usable as names.
  Database db(Options{ExecutorKind::Host});
  db.query("CREATE TABLE reset (pragma INTEGER, to_ INTEGER); INSERT INTO reset VALUES (1, 2)");
  CHECK(db.query("SELECT pragma FROM reset").get<int32_t>(0, 0) == 1);
}

TEST_CASE("settings: trace prints each statement's time marks to stderr", "[settings]") {
  Database db(Options{ExecutorKind::Host});
  test::TempDir dir;
  const std::string path = dir.path() + "/stderr.txt";
  // stderr into a file for the statements, then back.
  std::fflush(stderr);
  const int saved = ::dup(2);
  const int file = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  REQUIRE(saved >= 0);
  REQUIRE(file >= 0);
  ::dup2(file, 2);
  ::close(file);
  db.query("SELECT 1");
  db.query("SET trace = true");
  db.query("SELECT 2");
  db.query("SET trace = false");
  db.query("SELECT 3");
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // A line for SELECT 2 (parse, bind, plan, ...), and one for the SET that
  // turned trace off; none for the statements before or after.
  CHECK(text.find("trace: parse ") != std::string::npos);
  CHECK(text.find(" bind ") != std::string::npos);
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n';
  CHECK(lines == 2);
}
