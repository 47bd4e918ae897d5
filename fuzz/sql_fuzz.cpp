// libFuzzer target over the SQL front end: any bytes go through parse_sql,
// then through Database::query -- binder, planner and the host executor -- on
// a small fixed catalog. Every input must end in a result or a gpusql::Error:
// any other exception, a crash, a hang, or a sanitizer report is a finding.
// Built and run by scripts/fuzz-sql.sh (clang, -fsanitize=fuzzer,address,undefined).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "gpusql/gpusql.hpp"
#include "parser/parser.hpp"

namespace {

// Inputs longer than this add little but time.
constexpr std::size_t kMaxInput = 4096;

[[noreturn]] void fail(const char* what, const gpusql::Error& e) {
  std::fprintf(stderr, "sql_fuzz: %s\n%s\n", what, e.what());
  std::abort();
}

// Tables every input can name: integers, doubles, strings, NULLs, a date
// column, an empty table; few rows, so that any query stays fast.
const char* const kTables[][2] = {
    {"t", "a,b,c,d,e\n1,10000000000,1.5,x,1998-12-01\n-2,,-0.25,,\n,9223372036854775807,,\"y,z\",2000-02-29\n"
          "3,-4,1e300,\"\",1970-01-01\n"},
    {"u", "x,s\n1,apple\n2,Banana\n2,\n"},
    {"e", "k,v\n"},
};

// The directory inputs run in (the process changes into it): empty, so that
// COPY and read_csv find no file. libFuzzer's paths must be absolute.
char work_directory_name[] = "/tmp/gpusql-sql-fuzz-XXXXXX";

const char* work_directory() {
  static const bool made = [] {
    if (!mkdtemp(work_directory_name) || chdir(work_directory_name) != 0) std::abort();
    std::atexit([] { rmdir(work_directory_name); });
    return true;
  }();
  (void)made;
  return work_directory_name;
}

gpusql::Database make_database() {
  gpusql::Database db(gpusql::Options{gpusql::ExecutorKind::Host});
  for (const auto& table : kTables) {
    std::string path = std::string(work_directory()) + "/" + table[0] + ".csv";
    std::ofstream(path, std::ios::binary) << table[1];
    db.load_csv(table[0], path);
    std::remove(path.c_str());
  }
  return db;
}

// Inputs the harness only parses: paths out of the empty directory (COPY
// from /dev/zero reads forever) and joins of many tables (a cross join of
// ten is a million rows): slow by design, not findings.
bool only_parse(std::string_view sql, const std::vector<gpusql::ast::Statement>& statements) {
  if (sql.find("'/") != std::string_view::npos || sql.find("..") != std::string_view::npos) return true;
  for (const auto& statement : statements) {
    const gpusql::ast::SelectStatement* select = std::get_if<gpusql::ast::SelectStatement>(&statement.body);
    if (const auto* explain = std::get_if<gpusql::ast::ExplainStatement>(&statement.body)) select = &explain->select;
    if (const auto* create = std::get_if<gpusql::ast::CreateTableStatement>(&statement.body))
      if (create->as_select) select = &*create->as_select;
    if (const auto* insert = std::get_if<gpusql::ast::InsertStatement>(&statement.body))
      if (insert->select) select = &*insert->select;
    if (select && select->from.size() > 4) return true;
  }
  return false;
}

void check_error(const gpusql::Error& e, std::string_view sql, bool positioned) {
  if (std::string_view(e.what()).empty()) fail("an error without text", e);
  if (e.offset() && *e.offset() > sql.size()) fail("an error offset past the end of the input", e);
  if (positioned && e.offset() && !(e.line() && e.column())) fail("a positioned error without line and column", e);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return 0;
  static gpusql::Database db = make_database();
  static const std::vector<std::string> tables = db.table_names();
  std::string_view sql(reinterpret_cast<const char*>(data), size);
  try {
    if (only_parse(sql, gpusql::parse_sql(sql))) return 0;
  } catch (const gpusql::Error& e) {
    check_error(e, sql, false);
  }
  try {
    db.query(sql);
  } catch (const gpusql::Error& e) {
    check_error(e, sql, true);
  }
  // Statements that change the catalog (once they exist) must not leak into
  // the next input: start again from the fixed catalog.
  if (db.table_names() != tables) db = make_database();
  return 0;
}
