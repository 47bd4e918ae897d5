// The shell: its statement splitter and command line as units, then the
// built binary end to end, run with scripts and compared with expected output.
#include <catch2/catch.hpp>

#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gpusql/gpusql.hpp"
#include "shell/options.hpp"
#include "shell/statement_splitter.hpp"

namespace {

using gpusql::shell::InputItem;
using gpusql::shell::split_statements;
using gpusql::shell::StatementReader;
using Strings = std::vector<std::string>;

}  // namespace

// ---------------------------------------------------------------- splitter

TEST_CASE("splitter: statements end at top-level semicolons", "[shell]") {
  auto split = split_statements("SELECT 1; SELECT 2;\n  SELECT\n  3 ;");
  CHECK(split.statements == Strings{"SELECT 1", "SELECT 2", "SELECT\n  3"});
  CHECK(split.rest.empty());
  CHECK(split.rest_is_blank);
}

TEST_CASE("splitter: text after the last semicolon is the pending rest", "[shell]") {
  auto split = split_statements("SELECT 1; SELECT 2");
  CHECK(split.statements == Strings{"SELECT 1"});
  CHECK(split.rest == " SELECT 2");
  CHECK_FALSE(split.rest_is_blank);
}

TEST_CASE("splitter: semicolons in strings, identifiers and comments do not split", "[shell]") {
  auto split = split_statements(
      "SELECT 'a;b', \"c;d\" FROM t; -- not; here\n"
      "SELECT 'it''s; still' /* nor; here */ FROM \"x\"\"y;\";");
  CHECK(split.statements ==
        Strings{"SELECT 'a;b', \"c;d\" FROM t", "-- not; here\nSELECT 'it''s; still' /* nor; here */ FROM \"x\"\"y;\""});
  CHECK(split.rest_is_blank);
}

TEST_CASE("splitter: statements of nothing but blanks and comments are dropped", "[shell]") {
  auto split = split_statements(";; ; -- just a comment\n; /* and; another */ ;\n\t;");
  CHECK(split.statements.empty());
  CHECK(split.rest_is_blank);
}

TEST_CASE("splitter: what is blank and what is pending", "[shell]") {
  CHECK(split_statements("").rest_is_blank);
  CHECK(split_statements("  \n\t").rest_is_blank);
  CHECK(split_statements("SELECT 1; -- done").rest_is_blank);
  CHECK(split_statements("/* closed */").rest_is_blank);
  CHECK_FALSE(split_statements("/* open").rest_is_blank);
  CHECK_FALSE(split_statements("SELECT 'open;").rest_is_blank);
  CHECK_FALSE(split_statements("SELECT \"open;").rest_is_blank);
  CHECK_FALSE(split_statements("SELECT 1 -- no semicolon yet").rest_is_blank);
  // A lone '-' or '/' is code, not the start of a comment.
  CHECK(split_statements("SELECT 4-1; SELECT 4/2;").statements == Strings{"SELECT 4-1", "SELECT 4/2"});
}

TEST_CASE("reader: statements may span lines", "[shell]") {
  StatementReader reader;
  CHECK(reader.feed_line("SELECT").empty());
  CHECK(reader.pending());
  CHECK(reader.feed_line("  1").empty());
  auto items = reader.feed_line("; SELECT 2; SELECT");
  REQUIRE(items.size() == 2);
  CHECK(items[0].kind == InputItem::Kind::Sql);
  CHECK(items[0].text == "SELECT\n  1");
  CHECK(items[0].terminated);
  CHECK(items[1].text == "SELECT 2");
  CHECK(reader.pending());
  auto last = reader.finish();
  REQUIRE(last);
  CHECK(last->text == "SELECT");
  CHECK_FALSE(last->terminated);
  CHECK_FALSE(reader.pending());
  CHECK_FALSE(reader.finish());
}

TEST_CASE("reader: a dot-command is a line starting with '.' between statements", "[shell]") {
  StatementReader reader;
  auto items = reader.feed_line("  .mode csv  ");
  REQUIRE(items.size() == 1);
  CHECK(items[0].kind == InputItem::Kind::DotCommand);
  CHECK(items[0].text == ".mode csv");
  // Inside a statement a leading '.' is just SQL.
  CHECK(reader.feed_line("SELECT 1").empty());
  items = reader.feed_line(".5;");
  REQUIRE(items.size() == 1);
  CHECK(items[0].kind == InputItem::Kind::Sql);
  CHECK(items[0].text == "SELECT 1\n.5");
}

TEST_CASE("reader: blank and comment lines leave nothing pending", "[shell]") {
  StatementReader reader;
  CHECK(reader.feed_line("").empty());
  CHECK(reader.feed_line("-- a comment").empty());
  CHECK(reader.feed_line("SELECT 1; -- trailing").size() == 1);
  CHECK_FALSE(reader.pending());
  CHECK(reader.feed_line("/* open").empty());
  CHECK(reader.pending());
  CHECK(reader.feed_line("   closed */").empty());
  CHECK_FALSE(reader.pending());
}

TEST_CASE("reader: CRLF line ends and clear()", "[shell]") {
  StatementReader reader;
  auto items = reader.feed_line(".tables\r");
  REQUIRE(items.size() == 1);
  CHECK(items[0].text == ".tables");
  CHECK(reader.feed_line("SELECT 1\r").empty());
  reader.clear();
  CHECK_FALSE(reader.pending());
  CHECK_FALSE(reader.finish());
}

// ------------------------------------------------------------ command line

TEST_CASE("options: flags fill in the options, -c and -f in order", "[shell]") {
  using namespace gpusql::shell;
  ShellOptions o = parse_arguments({"-device", "host", "--load", "t=a.csv", "-load", "u=b=c.csv", "-c", "SELECT 1",
                                    "-f", "x.sql", "-json", "-bail", "-echo"});
  CHECK(o.executor == gpusql::ExecutorKind::Host);
  REQUIRE(o.loads.size() == 2);
  CHECK(o.loads[0].name == "t");
  CHECK(o.loads[0].path == "a.csv");
  CHECK(o.loads[1].name == "u");
  CHECK(o.loads[1].path == "b=c.csv");
  REQUIRE(o.batch.size() == 2);
  CHECK(o.batch[0].kind == BatchInput::Kind::Sql);
  CHECK(o.batch[0].text == "SELECT 1");
  CHECK(o.batch[1].kind == BatchInput::Kind::File);
  CHECK(o.batch[1].text == "x.sql");
  CHECK(o.mode == RenderMode::Json);
  CHECK(o.bail);
  CHECK(o.echo);
  CHECK_FALSE(o.help);

  CHECK(parse_arguments({"--device", "gpu"}).executor == gpusql::ExecutorKind::Gpu);
  CHECK(parse_arguments({"-device", "auto"}).executor == gpusql::ExecutorKind::Auto);
  CHECK(parse_arguments({"-box", "-markdown"}).mode == RenderMode::Markdown);
  CHECK(parse_arguments({"-list"}).mode == RenderMode::List);
  CHECK(parse_arguments({"-line"}).mode == RenderMode::Line);
  ShellOptions list = parse_arguments({"-noheader", "-nullvalue", "NULL", "-separator", ";"});
  CHECK_FALSE(list.render.headers);
  CHECK(list.render.null_value == "NULL");
  CHECK(list.render.separator == ";");
  CHECK(parse_arguments({"-noheader", "-header"}).render.headers);
  ShellOptions startup = parse_arguments({"-cmd", ".mode list", "-init", "setup.sql", "-cmd", "SELECT 1"});
  REQUIRE(startup.startup.size() == 3);
  CHECK(startup.startup[0].kind == BatchInput::Kind::Sql);
  CHECK(startup.startup[0].text == ".mode list");
  CHECK(startup.startup[1].kind == BatchInput::Kind::File);
  CHECK(startup.startup[1].text == "setup.sql");
  CHECK(startup.startup[2].text == "SELECT 1");
  CHECK(startup.batch.empty());
  CHECK_FALSE(parse_arguments({}).mode);
  CHECK(parse_arguments({"--help"}).help);
  CHECK(parse_arguments({"-version"}).version);
}

TEST_CASE("options: bad command lines are usage errors", "[shell]") {
  using gpusql::shell::parse_arguments;
  using gpusql::shell::UsageError;
  CHECK_THROWS_WITH(parse_arguments({"-nope"}), "unknown option: -nope");
  CHECK_THROWS_WITH(parse_arguments({"-c"}), Catch::Contains("needs an argument"));
  CHECK_THROWS_WITH(parse_arguments({"-device", "tpu"}), Catch::Contains("host, gpu or auto"));
  CHECK_THROWS_AS(parse_arguments({"-load", "noequals"}), UsageError);
  CHECK_THROWS_AS(parse_arguments({"-load", "=path"}), UsageError);
  CHECK_THROWS_AS(parse_arguments({"-load", "name="}), UsageError);
  CHECK_THROWS_WITH(parse_arguments({"SELECT 1"}), Catch::Contains("unexpected argument"));
}

TEST_CASE("options: --help is generated from the flag table", "[shell]") {
  std::string usage = gpusql::shell::usage_text();
  for (const char* line : {"-bail", "-box", "-c SQL", "-cmd COMMAND", "-csv", "-device host|gpu|auto", "-echo", "-f FILE", "-help",
                           "-header", "-init FILE", "-json", "-line", "-list", "-load NAME=PATH", "-markdown", "-noheader",
                           "-nullvalue TEXT", "-separator SEP", "-trash", "-version"})
    CHECK_THAT(usage, Catch::Contains(std::string("   ") + line + " "));
}

// -------------------------------------------------------------- end to end

#ifdef GPUSQL_SHELL_PATH

namespace {

namespace fs = std::filesystem;

struct ShellRun {
  int status = -1;
  std::string out;
  std::string err;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_file(const fs::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string shell_quote(const std::string& word) {
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// A scratch folder with a small CSV file, removed afterwards.
class Scratch {
 public:
  Scratch() {
    static std::atomic<int> counter{0};
    dir_ = fs::temp_directory_path() /
           ("gpusql_shell_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
    fs::create_directories(dir_);
    write_file(dir_ / "people.csv",
               "id,name,score\n"
               "1,ann,1.5\n"
               "2,bob,2.5\n"
               "3,\"c,d\",4\n");
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  fs::path path(const std::string& name) const { return dir_ / name; }
  std::string people() const { return path("people.csv").string(); }
  std::string load_people() const { return "t=" + people(); }

  // Runs the shell with `arguments` and `input` on standard input (not a
  // terminal, so no REPL), collecting its output, errors and exit status.
  // With `cwd`, the shell runs there (relative paths in scripts).
  ShellRun run(const std::vector<std::string>& arguments, const std::string& input = "",
               const std::string& cwd = "") const {
    std::string command = shell_quote(GPUSQL_SHELL_PATH);
    for (const std::string& a : arguments) command += " " + shell_quote(a);
    if (!cwd.empty()) command = "cd " + shell_quote(cwd) + " && " + command;
    return run_command(command, input);
  }

  // Runs a /bin/sh command line the same way.
  ShellRun run_command(std::string command, const std::string& input = "") const {
    write_file(dir_ / "stdin", input);
    command = "(" + command + ") <" + shell_quote(path("stdin").string()) + " >" +
              shell_quote(path("stdout").string()) + " 2>" + shell_quote(path("stderr").string());
    int status = std::system(command.c_str());
    ShellRun run;
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.out = read_file(path("stdout"));
    run.err = read_file(path("stderr"));
    return run;
  }

  // Writes `text` as the script `name` and returns its path.
  std::string script(const std::string& name, std::string_view text) const {
    write_file(path(name), text);
    return path(name).string();
  }

 private:
  fs::path dir_;
};

}  // namespace

TEST_CASE("e2e: -version and -help need no database", "[shell]") {
  Scratch s;
  ShellRun version = s.run({"-version"});
  CHECK(version.status == 0);
  CHECK(version.out == gpusql::shell::version_text() + "\n");
  ShellRun help = s.run({"--help"});
  CHECK(help.status == 0);
  CHECK(help.out == gpusql::shell::usage_text());
  CHECK(help.err.empty());
}

TEST_CASE("e2e: a bad command line prints the error and the usage, exit 1", "[shell]") {
  Scratch s;
  ShellRun r = s.run({"-nope"});
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err == "gpusql: unknown option: -nope\n\n" + gpusql::shell::usage_text());
  CHECK(s.run({"-c"}).status == 1);
  CHECK(s.run({"-device", "tpu", "-c", "SELECT 1"}).status == 1);
}

TEST_CASE("e2e: -c runs SQL, csv when stdout is not a terminal, executor on stderr", "[shell]") {
  Scratch s;
  ShellRun r = s.run({"-device", "host", "-load", s.load_people(), "-c", "SELECT COUNT(*) FROM t"});
  CHECK(r.status == 0);
  CHECK(r.out == "COUNT(*)\n3\n");
  CHECK_THAT(r.err, Catch::StartsWith("executor: host"));
}

TEST_CASE("e2e: each statement of -c prints its own result", "[shell]") {
  Scratch s;
  ShellRun r = s.run({"-device", "host", "-load", s.load_people(), "-csv", "-c",
                      "SELECT COUNT(*) FROM t; SELECT name FROM t WHERE id = 3;"});
  CHECK(r.status == 0);
  CHECK(r.out == "COUNT(*)\n3\nname\n\"c,d\"\n");
}

TEST_CASE("e2e: a syntax error prints the caret on stderr, exit 1", "[shell]") {
  Scratch s;
  ShellRun r = s.run({"-device", "host", "-c", "SELEC 1"});
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::Contains("Parser Error: "));
  CHECK_THAT(r.err, Catch::Contains("LINE 1: SELEC 1\n        ^\n"));
}

TEST_CASE("e2e: -f runs a script and prints every result", "[shell]") {
  Scratch s;
  std::string script = s.script("two.sql",
                                "-- two statements\n"
                                "SELECT COUNT(*) FROM t;\n"
                                "SELECT name\n"
                                "  FROM t\n"
                                "  WHERE id = 1;\n");
  ShellRun r = s.run({"-device", "host", "-load", s.load_people(), "-f", script});
  CHECK(r.status == 0);
  CHECK(r.out == "COUNT(*)\n3\nname\nann\n");
}

TEST_CASE("e2e: a failing statement: the script goes on, exit 1; with -bail it stops", "[shell]") {
  Scratch s;
  std::string script = s.script("bad.sql",
                                "SELECT COUNT(*) FROM t;\n"
                                "SELECT nope FROM t;\n"
                                "SELECT name FROM t WHERE id = 2;\n");
  ShellRun r = s.run({"-device", "host", "-load", s.load_people(), "-f", script});
  CHECK(r.status == 1);
  CHECK(r.out == "COUNT(*)\n3\nname\nbob\n");
  CHECK_THAT(r.err, Catch::Contains("nope"));

  ShellRun bailed = s.run({"-device", "host", "-load", s.load_people(), "-bail", "-f", script});
  CHECK(bailed.status == 1);
  CHECK(bailed.out == "COUNT(*)\n3\n");

  // -bail also skips the -c and -f that follow.
  ShellRun rest = s.run({"-device", "host", "-bail", "-c", "SELEC 1", "-c", ".help"});
  CHECK(rest.status == 1);
  CHECK(rest.out.empty());
}

TEST_CASE("e2e: status lines go to stderr, so -csv output is only the results", "[shell]") {
  Scratch s;
  std::string script = s.script("status.sql",
                                "CREATE TABLE e (a INTEGER, b VARCHAR, c DOUBLE);\n"
                                "INSERT INTO e VALUES (1, 'x', 0.5), (2, 'y', 1);\n"
                                "COPY e FROM '" + s.people() + "' (HEADER);\n"
                                "SELECT a, b FROM e ORDER BY a;\n");
  ShellRun r = s.run({"-device", "host", "-csv", "-f", script});
  CHECK(r.status == 0);
  CHECK(r.out == "a,b\n1,x\n1,ann\n2,y\n2,bob\n3,\"c,d\"\n");
  CHECK_THAT(r.err, Catch::Contains("inserted 2 rows into e\n"));
  CHECK_THAT(r.err, Catch::Contains("loaded 3 rows into e\n"));
}

TEST_CASE("e2e: -f or .read of a directory is an error, exit 1", "[shell]") {
  Scratch s;
  ShellRun r = s.run({"-device", "host", "-f", s.path("").string()});
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains("it is a directory"));
  ShellRun dot = s.run({"-device", "host", "-c", ".read " + s.path("").string()});
  CHECK(dot.status == 1);
  CHECK_THAT(dot.err, Catch::Contains("it is a directory"));
}

TEST_CASE("e2e: a column reference names its output column, quoted or qualified", "[shell]") {
  Scratch s;
  ShellRun r = s.run({"-device", "host", "-load", s.load_people(), "-csv", "-c",
                      "SELECT \"id\", t.name, \"t\".\"score\", id + 1 FROM t WHERE id = 1"});
  CHECK(r.status == 0);
  CHECK(r.out == "id,name,score,id + 1\n1,ann,1.5,2\n");
}

TEST_CASE("e2e: semicolons inside strings and comments do not split statements", "[shell]") {
  Scratch s;
  ShellRun r = s.run({"-device", "host", "-load", s.load_people(), "-c",
                      "SELECT COUNT(*) FROM t WHERE name = 'a;b'; -- a ; comment\n"
                      "/* ; */ SELECT COUNT(*) FROM t WHERE name <> 'x;y'"});
  CHECK(r.status == 0);
  CHECK(r.out == "COUNT(*)\n0\nCOUNT(*)\n3\n");
}

TEST_CASE("e2e: dot-commands in scripts: .mode, .tables, .import, .read, .echo", "[shell]") {
  Scratch s;
  s.script("inner.sql", "SELECT COUNT(*) FROM people;\n");
  std::string script = s.script("dots.sql",
                                ".import " + s.people() + " people\n" +
                                ".tables\n"
                                ".mode json\n"
                                "SELECT id, name FROM people WHERE id = 3;\n"
                                ".mode markdown\n"
                                ".read " + s.path("inner.sql").string() + "\n" +
                                ".echo on\n"
                                ".mode csv\n"
                                "SELECT id FROM people WHERE id = 2;\n");
  ShellRun r = s.run({"-device", "host", "-f", script});
  CHECK(r.status == 0);
  CHECK(r.err.find("Error") == std::string::npos);
  CHECK(r.out ==
        "people\n"
        "[{\"id\":3,\"name\":\"c,d\"}]\n"
        "| COUNT(*) |\n"
        "|---------:|\n"
        "|        3 |\n"
        ".mode csv\n"
        "SELECT id FROM people WHERE id = 2;\n"
        "id\n"
        "2\n");
}

TEST_CASE("e2e: -echo shows the input as sqlite3 does, each statement before its result", "[shell]") {
  Scratch s;
  const std::string once = s.path("once.csv").string();
  // Comments and blank lines between statements are shown as they are, a
  // statement's first line without its indentation; echo and result go
  // where .once sends them; the statement that fails is shown too.
  std::string script = s.script("echo.sql",
                                "-- count the people\n"
                                "SELECT COUNT(*) AS n\n"
                                "  FROM people;\n"
                                "\n"
                                "   SELECT name FROM people WHERE id = 1; -- ann\n"
                                ".mode list\n"
                                "SELECT nope FROM people;\n"
                                ".once " + once + "\n" +
                                "SELECT id FROM people WHERE id = 2;\n"
                                ".echo off\n"
                                "SELECT 3 AS three;\n");
  ShellRun r = s.run({"-device", "host", "-csv", "-echo", "-load", "people=" + s.people(), "-f", script});
  CHECK(r.status == 1);
  CHECK(r.out ==
        "-- count the people\n"
        "SELECT COUNT(*) AS n\n"
        "  FROM people;\n"
        "n\n"
        "3\n"
        "\n"
        "SELECT name FROM people WHERE id = 1; -- ann\n"
        "name\n"
        "ann\n"
        ".mode list\n"
        "SELECT nope FROM people;\n"
        ".once " + once + "\n" +
        ".echo off\n"
        "three\n"
        "3\n");
  CHECK(read_file(once) == "SELECT id FROM people WHERE id = 2;\nid\n2\n");
  CHECK_THAT(r.err, Catch::Contains("Binder Error") && Catch::Contains("nope"));
  // -c text is a script too; .show lists echo.
  ShellRun c = s.run({"-device", "host", "-csv", "-echo", "-c", "SELECT 1 AS one; SELECT 2 AS two;\n.show"});
  CHECK(c.status == 0);
  CHECK_THAT(c.out, Catch::StartsWith("SELECT 1 AS one; SELECT 2 AS two;\none\n1\ntwo\n2\n.show\n     bail: off\n"
                                      "     echo: on\n"));
}

TEST_CASE("e2e: column and table modes as sqlite3 prints them; .schema; dot-command prefixes", "[shell]") {
  Scratch s;
  const std::string q = "SELECT 1 AS a, 'hello' AS b, 2.5 AS c UNION ALL SELECT 100, 'x', NULL;\n";
  // Byte for byte what sqlite3 3.40 prints for the same statement.
  ShellRun r = s.run({"-device", "host", "-c", ".mode table\n" + q + ".mode column\n" + q + ".headers off\n" + q});
  CHECK(r.status == 0);
  CHECK(r.out ==
        "+-----+-------+-----+\n"
        "|  a  |   b   |  c  |\n"
        "+-----+-------+-----+\n"
        "| 1   | hello | 2.5 |\n"
        "| 100 | x     |     |\n"
        "+-----+-------+-----+\n"
        "a    b      c  \n"
        "---  -----  ---\n"
        "1    hello  2.5\n"
        "100  x         \n"
        "1    hello  2.5\n"
        "100  x         \n");
  CHECK(s.run({"-device", "host", "-table", "-c", "SELECT 7 AS n;"}).out == "+---+\n| n |\n+---+\n| 7 |\n+---+\n");
  // .schema: tables from DESCRIBE, views from their query; one by name; prefixes (.sc, .hea) stand for commands.
  ShellRun schema = s.run({"-device", "host", "-c",
                           "CREATE TABLE t (a INTEGER NOT NULL, b VARCHAR, c DECIMAL(15,2));\n"
                           "CREATE VIEW v AS SELECT a FROM t WHERE a > 1;\n"
                           ".schema\n.sc t\n.hea off\n.schema nothing\n"});
  CHECK(schema.status == 0);
  CHECK(schema.out ==
        "CREATE TABLE t(a INTEGER NOT NULL, b VARCHAR, c DECIMAL(15,2));\n"
        "CREATE VIEW v AS SELECT a FROM t WHERE (a > 1);\n"
        "CREATE TABLE t(a INTEGER NOT NULL, b VARCHAR, c DECIMAL(15,2));\n");
}

TEST_CASE("e2e: .import as sqlite3 has it: a new table from the header, an existing one appended", "[shell]") {
  Scratch s;
  write_file(s.path("more.csv"), "4,dee,5.5\n5,eve,6\n");
  write_file(s.path("piped.txt"), "id|name|score\n6|fay|7\n");
  const std::string people = s.people(), more = s.path("more.csv").string(), piped = s.path("piped.txt").string();
  ShellRun r = s.run({"-device", "host", "-list", "-noheader", "-c",
                      ".import --csv " + people + " t\n"      // new: names and types from the file
                      ".import --csv " + more + " t\n"              // existing: every row is data
                      ".import --csv --skip 1 " + people + " t\n"   // existing, the header row left out
                      ".import --skip 1 " + piped + " t\n"          // list mode: its separator, as sqlite3
                      "SELECT id, name, score FROM t ORDER BY id, name;\n"});
  CHECK(r.status == 0);
  CHECK(r.out ==
        "1|ann|1.5\n1|ann|1.5\n2|bob|2.5\n2|bob|2.5\n3|c,d|4.0\n3|c,d|4.0\n4|dee|5.5\n5|eve|6.0\n6|fay|7.0\n");
  CHECK_THAT(r.err, !Catch::Contains("Error"));
  // Errors: the file, a bad row (nothing appended), the arguments.
  write_file(s.path("bad.csv"), "7,gil,8\nnot a number,x,1\n");
  ShellRun e = s.run({"-device", "host", "-list", "-noheader", "-c",
                      ".import --csv " + people + " t\n"
                      ".import " + s.path("missing.csv").string() + " t\n"
                      ".import --csv " + s.path("bad.csv").string() + " t\n"
                      ".import --skip 1 " + people + " fresh\n"
                      ".import --skip 2 " + people + " t\n"
                      ".import --tsv " + people + " t\n"
                      ".import " + people + "\n"
                      "SELECT COUNT(*) FROM t;\n"});
  CHECK(e.out == "3\n");
  CHECK_THAT(e.err, Catch::Contains("IO Error: cannot open CSV file") && Catch::Contains("missing.csv"));
  CHECK_THAT(e.err, Catch::Contains("bad.csv") && Catch::Contains("line 2"));
  CHECK_THAT(e.err, Catch::Contains("--skip applies to an existing table"));
  CHECK_THAT(e.err, Catch::Contains("--skip takes 0 or 1"));
  CHECK_THAT(e.err, Catch::Contains("unknown option '--tsv'"));
  CHECK_THAT(e.err, Catch::Contains("usage: .import ?--csv? ?--skip N? FILE TABLE"));
}

TEST_CASE("e2e: list and line modes with .headers, .nullvalue, .separator and .show", "[shell]") {
  Scratch s;
  ShellRun r = s.run({"-device", "host", "-load", s.load_people(), "-c",
                      ".mode list\nSELECT id, name FROM t WHERE id < 3 ORDER BY id;\n"
                      ".headers off\n.separator \" ; \"\n.nullvalue NULL\nSELECT id, NULL FROM t WHERE id = 1;\n"
                      ".mode line\nSELECT id, name AS who FROM t WHERE id = 2;\nSET threads TO 2;\n"
                      "SET memory_limit = '2GiB';\n.show"});
  CHECK(r.status == 0);
  CHECK(r.out ==
        "id|name\n"
        "1|ann\n"
        "2|bob\n"
        "1 ; NULL\n"
        " id = 2\n"
        "who = bob\n"
        "     bail: off\n"
        "     echo: off\n"
        "  headers: off\n"
        "  maxrows: 40\n"
        "     mode: line\n"
        "nullvalue: \"NULL\"\n"
        "separator: \" ; \"\n"
        "    timer: off\n"
        "    trace: false\n"
        "  threads: 2\n"
        "filter_kernel: 'auto'\n"
        "small_sort: true\n"
        "pair_program: true\n"
        "narrow_subquery_rows: 10000000\n"
        "memory_limit: '2.0 GiB'\n" "chunk_rows: 0\n"
        "plain_strings_rows: 1048576\n"
        "host_mirror: false\n");
  ShellRun flags = s.run({"-device", "host", "-list", "-noheader", "-separator", ",", "-nullvalue", "-", "-c",
                          "SELECT 1 AS a, NULL AS b"});
  CHECK(flags.status == 0);
  CHECK(flags.out == "1,-\n");
}

TEST_CASE("e2e: -init and -cmd run first, then the batch or standard input", "[shell]") {
  Scratch s;
  std::string init = s.script("init.sql", ".mode line\nCREATE TABLE x AS SELECT 7 AS seven;\n");
  ShellRun r = s.run({"-device", "host", "-init", init, "-cmd", "SELECT seven FROM x", "-c", ".mode list\nSELECT seven + 1 AS eight FROM x"});
  CHECK(r.status == 0);
  CHECK(r.out == "seven = 7\neight\n8\n");
  ShellRun piped = s.run({"-device", "host", "-cmd", ".mode list", "-cmd", ".headers off"}, "SELECT 2 * 21;\n");
  CHECK(piped.status == 0);
  CHECK(piped.out == "42\n");
  ShellRun quits = s.run({"-device", "host", "-cmd", ".quit", "-c", "SELECT 1"});
  CHECK(quits.status == 0);
  CHECK(quits.out == "");
  ShellRun missing = s.run({"-device", "host", "-init", s.path("none.sql").string(), "-c", "SELECT 1 AS one"});
  CHECK(missing.status == 1);
  CHECK(missing.out == "one\n1\n");
}

TEST_CASE("e2e: .once and .output send results to a file", "[shell]") {
  Scratch s;
  const std::string once = s.path("once.csv").string(), all = s.path("all.csv").string();
  ShellRun r = s.run({"-device", "host", "-csv", "-c",
                      ".once " + once + "\nSELECT 1 AS a;\nSELECT 2 AS b;\n.output " + all +
                          "\nSELECT 3 AS c;\nCREATE TABLE t AS SELECT 4 AS d;\nSELECT d FROM t;\n.output\nSELECT 5 AS e;"});
  CHECK(r.status == 0);
  CHECK(r.out == "b\n2\ne\n5\n");
  CHECK(read_file(once) == "a\n1\n");
  CHECK(read_file(all) == "c\n3\nd\n4\n");
  CHECK_THAT(r.err, Catch::Contains("created table t"));  // status lines stay on stderr
  ShellRun bad = s.run({"-device", "host", "-c", ".output " + s.path("no/such/dir/x.csv").string() + "\nSELECT 6 AS f"});
  CHECK(bad.status == 1);
  CHECK_THAT(bad.err, Catch::Contains("cannot open '"));
  CHECK(bad.out == "f\n6\n");
}

TEST_CASE("e2e: -box draws the box with types under the names", "[shell]") {
  Scratch s;
  ShellRun r = s.run({"-device", "host", "-load", s.load_people(), "-box", "-c", "SELECT COUNT(*) FROM t"});
  CHECK(r.status == 0);
  CHECK(r.out ==
        "┌──────────┐\n"
        "│ COUNT(*) │\n"
        "│  bigint  │\n"
        "├──────────┤\n"
        "│        3 │\n"
        "└──────────┘\n");
}

TEST_CASE("e2e: .timer prints the run time after each statement", "[shell]") {
  Scratch s;
  ShellRun r = s.run({"-device", "host", "-load", s.load_people(), "-c", ".timer on\nSELECT COUNT(*) FROM t;"});
  CHECK(r.status == 0);
  CHECK(std::regex_match(r.out, std::regex("COUNT\\(\\*\\)\n3\nRun Time: [0-9]+\\.[0-9]{6} s\n")));
}

TEST_CASE("e2e: .quit ends the script; .exit too", "[shell]") {
  Scratch s;
  ShellRun r = s.run({"-device", "host", "-load", s.load_people(), "-c", "SELECT COUNT(*) FROM t;\n.quit\nSELEC 1;",
                      "-c", "SELEC 2"});
  CHECK(r.status == 0);
  CHECK(r.out == "COUNT(*)\n3\n");
  CHECK(s.run({"-device", "host", "-c", ".exit", "-c", "SELEC 1"}).status == 0);
}

TEST_CASE("e2e: dot-command errors print and count", "[shell]") {
  Scratch s;
  ShellRun r = s.run({"-device", "host", "-c", ".frobnicate"});
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains("Error: unknown command '.frobnicate'"));
  CHECK_THAT(s.run({"-device", "host", "-c", ".mode tabular"}).err, Catch::Contains("unknown mode 'tabular'"));
  // .load is sqlite3's and DuckDB's command for extensions: it says so, and what loads a file.
  ShellRun load = s.run({"-device", "host", "-c", ".load " + s.people()});
  CHECK(load.status == 1);
  CHECK_THAT(load.err, Catch::Contains("loads an extension") && Catch::Contains(".import FILE TABLE"));
  // A prefix of several commands stands for none of them.
  CHECK_THAT(s.run({"-device", "host", "-c", ".s"}).err, Catch::Contains("unknown command '.s'"));
  CHECK_THAT(s.run({"-device", "host", "-c", ".timer maybe"}).err, Catch::Contains("expected on or off"));
  CHECK_THAT(s.run({"-device", "host", "-c", ".timer"}).err, Catch::Contains("usage: .timer on|off"));
  ShellRun missing = s.run({"-device", "host", "-c", ".read " + s.path("missing.sql").string()});
  CHECK(missing.status == 1);
  CHECK_THAT(missing.err, Catch::Contains("cannot open"));
  ShellRun no_script = s.run({"-device", "host", "-f", s.path("missing.sql").string()});
  CHECK(no_script.status == 1);
  CHECK_THAT(no_script.err, Catch::Contains("cannot open"));
}

TEST_CASE("e2e: a .read that reads itself stops", "[shell]") {
  Scratch s;
  std::string script = s.path("self.sql").string();
  s.script("self.sql", ".read " + script + "\n");
  ShellRun r = s.run({"-device", "host", "-f", script});
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains("nested"));
}

TEST_CASE("e2e: standard input that is not a terminal runs as a script", "[shell]") {
  Scratch s;
  ShellRun r = s.run({"-device", "host", "-load", s.load_people()},
                     ".mode csv\nSELECT COUNT(*)\nFROM t;\nSELECT name FROM t WHERE id = 2");
  CHECK(r.status == 0);
  // Results only: no banner, no prompts.
  CHECK(r.out == "COUNT(*)\n3\nname\nbob\n");
  CHECK(s.run({"-device", "host"}, "SELEC 1;\n").status == 1);
  ShellRun empty = s.run({"-device", "host"}, "-- nothing but a comment\n\n");
  CHECK(empty.status == 0);
  CHECK(empty.out.empty());
}

TEST_CASE("e2e: -load of a missing file fails before anything runs", "[shell]") {
  Scratch s;
  ShellRun r = s.run({"-device", "host", "-load", "t=" + s.path("missing.csv").string(), "-c", ".tables"});
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK_FALSE(r.err.empty());
}

TEST_CASE("e2e: the sample records load and count", "[shell]") {
  const std::string records = std::string(GPUSQL_SOURCE_DIR) + "/sample_data/records.csv";
  if (!fs::exists(records)) {
    WARN("sample_data/records.csv is missing: skipped");
    return;
  }
  Scratch s;
  ShellRun r = s.run({"-device", "host", "-load", "records=" + records, "-csv", "-c", "SELECT COUNT(*) FROM records"});
  CHECK(r.status == 0);
  CHECK(r.out == "COUNT(*)\n100\n");
}

TEST_CASE("e2e: the bundled TPC-H tables load with their declared types", "[shell]") {
  const std::string source = GPUSQL_SOURCE_DIR;
  if (!fs::exists(source + "/sample_data/tpch/schema.sql")) {
    WARN("sample_data/tpch/schema.sql is missing: skipped");
    return;
  }
  Scratch s;
  // schema.sql names the CSV files relative to the source folder, as the demo runs it.
  ShellRun r = s.run({"-device", "host", "-list", "-noheader", "-c",
                      ".read sample_data/tpch/schema.sql\n"
                      "SELECT COUNT(*) FROM lineitem;\n"
                      "DESCRIBE lineitem;\n"
                      "SELECT SUM(l_extendedprice * l_discount) FROM lineitem\n"
                      "WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'\n"
                      "  AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24;\n"},
                     "", source);
  CHECK(r.status == 0);
  CHECK_THAT(r.err, !Catch::Contains("Error"));
  for (const char* loaded : {"1000 rows into part", "50 rows into supplier", "4000 rows into partsupp",
                             "750 rows into customer", "7500 rows into orders", "29783 rows into lineitem",
                             "25 rows into nation", "5 rows into region"})
    CHECK_THAT(r.err, Catch::Contains(loaded));
  CHECK_THAT(r.out, Catch::StartsWith("29783\n"));
  CHECK_THAT(r.out, Catch::Contains("l_extendedprice|DECIMAL(15,2)|NO|") && Catch::Contains("l_shipdate|DATE|NO|"));
  // TPC-H Q6 on this data, as DuckDB answers it.
  CHECK_THAT(r.out, Catch::EndsWith("\n503221.5966\n"));
}

TEST_CASE("e2e: scripts/demo.sh runs every statement of the demo", "[shell]") {
  const std::string source = GPUSQL_SOURCE_DIR;
  if (!fs::exists(source + "/scripts/demo.sh")) {
    WARN("scripts/demo.sh is missing: skipped");
    return;
  }
  Scratch s;
  const std::string build = fs::path(GPUSQL_SHELL_PATH).parent_path().string();
  ShellRun r = s.run_command("cd " + shell_quote(source) + " && scripts/demo.sh " + shell_quote(build) + " -device host");
  CHECK(r.status == 0);
  CHECK_THAT(r.err, !Catch::Contains("Error"));
  // Echoed statements come before their results: the last query and its first row.
  CHECK_THAT(r.out, Catch::Contains("LIMIT 5;\n┌───────────┬─────") && Catch::Contains("│ Customer#000000508 │"));
}

TEST_CASE("e2e: -device gpu without a usable GPU fails clearly, exit 1", "[shell]") {
  std::string why;
  if (gpusql::gpu_available(&why)) {
    WARN("a GPU is usable here: skipped");
    return;
  }
  Scratch s;
  ShellRun r = s.run({"-device", "gpu", "-c", ".tables"});
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::Contains("Device Error"));
}

// ---------------------------------------------------------------- Ctrl-C

namespace {

// 40,000 rows of (k, x): a self-join on x + x < 0 is 1.6e9 pairs on the host
// executor (many seconds), and its answer is 0.
std::string write_big_table(const Scratch& s) {
  std::string text = "k,x\n";
  for (int i = 0; i < 40000; ++i) text += "1," + std::to_string(i) + "\n";
  write_file(s.path("big.csv"), text);
  return s.path("big.csv").string();
}

// Reads `fd` into `seen` until `text` appears after position `from`, or
// `seconds` pass. Returns the position after the text, or npos.
std::size_t wait_for(int fd, std::string& seen, const std::string& text, std::size_t from, double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (true) {
    if (std::size_t at = seen.find(text, from); at != std::string::npos) return at + text.size();
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::string::npos;
    pollfd input{fd, POLLIN, 0};
    if (poll(&input, 1, static_cast<int>(left.count())) <= 0) continue;
    char buffer[4096];
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n <= 0) return std::string::npos;
    seen.append(buffer, static_cast<std::size_t>(n));
  }
}

void type(int fd, const std::string& text) { REQUIRE(write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size())); }

}  // namespace

TEST_CASE("e2e: Ctrl-C at the terminal stops the running statement; the prompt and the tables stay", "[shell]") {
  Scratch s;
  const std::string big = write_big_table(s);
  int terminal = -1;
  const pid_t pid = forkpty(&terminal, nullptr, nullptr, nullptr);
  REQUIRE(pid >= 0);
  if (pid == 0) {
    setenv("HOME", s.path("").c_str(), 1);  // the history file goes there
    setenv("TERM", "dumb", 1);
    execl(GPUSQL_SHELL_PATH, "gpusql", "-device", "host", "-load", ("t=" + big).c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  std::string seen;
  std::size_t at = wait_for(terminal, seen, "gpusql> ", 0, 60);
  REQUIRE(at != std::string::npos);
  type(terminal, "SELECT COUNT(*) FROM t a, t b WHERE a.x + b.x < 0;\r");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const auto asked = std::chrono::steady_clock::now();
  type(terminal, "\x03");  // the terminal sends SIGINT to the shell
  at = wait_for(terminal, seen, "INTERRUPT Error: Interrupted!", at, 10);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count();
  INFO(seen);
  REQUIRE(at != std::string::npos);
  CHECK(seconds < 1.5);
  at = wait_for(terminal, seen, "gpusql> ", at, 10);
  REQUIRE(at != std::string::npos);
  type(terminal, "SELECT COUNT(*) + 1 AS n FROM t;\r");
  CHECK(wait_for(terminal, seen, "40001", at, 30) != std::string::npos);
  type(terminal, ".quit\r");
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  close(terminal);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("e2e: .echo on at the terminal shows each input line as a script does", "[shell]") {
  Scratch s;
  int terminal = -1;
  const pid_t pid = forkpty(&terminal, nullptr, nullptr, nullptr);
  REQUIRE(pid >= 0);
  if (pid == 0) {
    setenv("HOME", s.path("").c_str(), 1);
    setenv("TERM", "dumb", 1);
    execl(GPUSQL_SHELL_PATH, "gpusql", "-device", "host", static_cast<char*>(nullptr));
    _exit(127);
  }
  std::string seen;
  std::size_t at = wait_for(terminal, seen, "gpusql> ", 0, 60);
  REQUIRE(at != std::string::npos);
  type(terminal, ".echo on\r");
  at = wait_for(terminal, seen, "gpusql> ", at, 10);
  REQUIRE(at != std::string::npos);
  // The line as typed, then the line echoed whole (not statement by
  // statement), then both results.
  const std::string line = "SELECT 70 + 7 AS a; SELECT 80 + 8 AS b;";
  type(terminal, line + "\r");
  const std::size_t typed = wait_for(terminal, seen, line, at, 10);
  const std::size_t echoed = wait_for(terminal, seen, line, typed, 10);
  const std::size_t first = wait_for(terminal, seen, "77", typed, 30);
  CHECK(wait_for(terminal, seen, "88", first, 30) != std::string::npos);
  INFO(seen);
  REQUIRE(typed != std::string::npos);
  CHECK(echoed != std::string::npos);
  CHECK(echoed < first);
  type(terminal, ".quit\r");
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  close(terminal);
  CHECK(WIFEXITED(status));
}

namespace {

// The shell on `args` in a child process, its stdout and stderr into
// s.path("stdout") and s.path("stderr"), no stdin.
pid_t start_shell(Scratch& s, const std::vector<std::string>& args) {
  std::vector<char*> argv{const_cast<char*>("gpusql")};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    freopen("/dev/null", "r", stdin);
    freopen(s.path("stdout").c_str(), "w", stdout);
    freopen(s.path("stderr").c_str(), "w", stderr);
    execv(GPUSQL_SHELL_PATH, argv.data());
    _exit(127);
  }
  return pid;
}

// Waits (up to a minute) until the child's stdout holds `text`.
void wait_for_stdout(Scratch& s, const std::string& text) {
  const auto started = std::chrono::steady_clock::now();
  while (read_file(s.path("stdout")).find(text) == std::string::npos &&
         std::chrono::steady_clock::now() - started < std::chrono::seconds(60))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

// SIGINT to the child, then its exit: it must exit with status 1.
void interrupt_expecting_status_1(pid_t pid) {
  REQUIRE(kill(pid, SIGINT) == 0);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
}

}  // namespace

TEST_CASE("e2e: SIGINT during a script stops it there, with the error and status 1", "[shell]") {
  Scratch s;
  const std::string big = write_big_table(s);
  const std::string script = s.script("long.sql",
                                      "SELECT 41 + 1 AS before;\n"
                                      "SELECT COUNT(*) FROM t a, t b WHERE a.x + b.x < 0;\n"
                                      "SELECT 'not reached' AS after;\n");
  const pid_t pid = start_shell(s, {"-device", "host", "-csv", "-load", "t=" + big, "-f", script});
  REQUIRE(pid >= 0);
  wait_for_stdout(s, "42");  // the first answer is out: the long statement runs
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  interrupt_expecting_status_1(pid);
  CHECK(read_file(s.path("stdout")) == "before\n42\n");
  CHECK_THAT(read_file(s.path("stderr")), Catch::Contains("INTERRUPT Error: Interrupted!"));
}

// Between statements too: here the script is mostly comment lines, which
// the shell reads outside any statement, so the signal lands between two
// of its 2,000 short statements. Before, no handler was there and SIGINT
// ended the process (no exit status, no message).
TEST_CASE("e2e: SIGINT between a script's statements ends it with status 1", "[shell]") {
  Scratch s;
  std::string text;
  for (int k = 0; k < 2000; ++k) {
    text += "SELECT " + std::to_string(k) + " AS k;\n";
    for (int c = 0; c < 200; ++c) text += "-- a comment line between two statements\n";
  }
  text += "SELECT 'not reached' AS after;\n";
  const std::string script = s.script("many.sql", text);
  const pid_t pid = start_shell(s, {"-device", "host", "-csv", "-f", script});
  REQUIRE(pid >= 0);
  wait_for_stdout(s, "\n3\n");
  interrupt_expecting_status_1(pid);
  CHECK(read_file(s.path("stdout")).find("not reached") == std::string::npos);
  CHECK_THAT(read_file(s.path("stderr")), Catch::Contains("INTERRUPT Error: Interrupted!"));
}

TEST_CASE("e2e: SET memory_limit: a join past it fails, the shell and its table stay", "[shell]") {
  Scratch s;
  const std::string big = write_big_table(s);
  ShellRun r = s.run({"-device", "host", "-csv", "-load", "t=" + big},
                     "SET memory_limit = '1MB';\n"
                     "SELECT a.x, b.x FROM t a JOIN t b ON a.k = b.k;\n"
                     "RESET memory_limit;\n"
                     "SELECT COUNT(*) AS n FROM t;\n");
  CHECK(r.status == 1);
  CHECK(r.out == "n\n40000\n");
  CHECK_THAT(r.err, Catch::Contains("Out of Memory Error: ") && Catch::Contains("memory_limit of 976.6 KiB"));
}

#endif  // GPUSQL_SHELL_PATH
