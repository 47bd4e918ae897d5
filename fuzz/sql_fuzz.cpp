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

// Tables every input can name: all four column types, NULLs, strings, an
// empty table; few rows, so that any query stays fast.
const char* const kTables[][2] = {
    {"t", "a,b,c,d\n1,10000000000,1.5,x\n-2,,-0.25,\n,9223372036854775807,,\"y,z\"\n3,-4,1e300,\"\"\n"},
    {"u", "x,s\n1,apple\n2,Banana\n2,\n"},
    {"e", "k,v\n"},
};

gpusql::Database make_database() {
  gpusql::Database db(gpusql::Options{gpusql::ExecutorKind::Host});
  char dir[] = "/tmp/gpusql-sql-fuzz-XXXXXX";
  if (!mkdtemp(dir)) std::abort();
  for (const auto& table : kTables) {
    std::string path = std::string(dir) + "/" + table[0] + ".csv";
    std::ofstream(path, std::ios::binary) << table[1];
    db.load_csv(table[0], path);
    std::remove(path.c_str());
  }
  rmdir(dir);
  return db;
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
    gpusql::parse_sql(sql);
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
