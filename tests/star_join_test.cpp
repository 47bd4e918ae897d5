// The fused star join (execution/star_join.hpp, kernels/star_join.cu): which
// plans it recognises (everywhere), and on the GPU that it gives exactly
// the host executor's answers -- the SSB queries, and the cases where it
// must decline and leave the query to the general operators (duplicate or
// sparse dimension keys, sums that might overflow, NULL group columns).
#include <catch2/catch.hpp>

#include <cstring>
#include <optional>
#include <variant>

#include "bench/ssb/ssb_generator.hpp"
#include "bench/ssb/ssb_queries.hpp"
#include "engine/database_impl.hpp"
#include "planner/plan.hpp"
#include "execution/star_join.hpp"
#include "kernels/star_join.hpp"
#include "parser/parser.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;
using namespace gpusql::test;

namespace {

Plan plan_of(Database& db, const std::string& sql) {
  std::vector<ast::Statement> statements = parse_sql(sql);
  const auto& select = std::get<ast::SelectStatement>(statements.at(0).body);
  return plan_query(bind_query(select, db.impl().catalog, sql, db.impl().table_function_reader()));
}

const PlanNode* aggregate_of(const PlanNode& root) {
  for (const PlanNode* n = &root; n; n = n->child.get())
    if (n->kind == PlanKind::Aggregate) return n;
  return nullptr;
}

std::optional<StarJoin> star_of(Database& db, const std::string& sql) {
  Plan plan = plan_of(db, sql);
  const PlanNode* aggregate = aggregate_of(*plan.root);
  if (!aggregate) return std::nullopt;
  auto star = match_star_join(*aggregate);
  // The plan dies with this function: keep only what the tests look at.
  if (star) star->fact_scan = nullptr, star->fact_filter = nullptr;
  return star;
}

std::vector<std::shared_ptr<Table>> ssb_tables() {
  ssb::GeneratorOptions options;
  options.scale_factor = 0.01;
  options.columns = ssb::columns_read(ssb::standard_queries());
  return ssb::generate(options);
}

// A small star: fact f with NULL and dangling keys, dimensions a (INTEGER
// keys), b (BIGINT keys with gaps), and the awkward ones: dup (a key twice),
// sparse (keys a billion apart), nullgroup (a NULL in a group column),
// nullkey (a NULL key).
void load_star(Database& db, const TempDir& dir) {
  std::string f = "fk_a,fk_b,fk_c,fk_w,v,w,d,s\n";
  for (int i = 0; i < 5000; ++i) {
    std::string fk_a = i % 97 == 0 ? "" : std::to_string(1 + (i * 7) % 23);  // 21..23 dangle
    std::string fk_b = std::to_string(100 + (i * 13) % 40);                   // gaps in b
    std::string v = i % 11 == 0 ? "" : std::to_string((i * 31) % 1000 - 300);
    std::string w = std::to_string(4000000000000000000ll + i);                // sums overflow BIGINT
    std::string d = std::to_string(i % 50) + "." + std::to_string(10 + i % 89);
    f += fk_a + "," + fk_b + "," + std::to_string(i % 6) + "," + std::to_string(i % 4999) + "," + v + "," + w + "," + d + ",s" + std::to_string(i % 4) +
         "\n";
  }
  std::string a = "a_key,a_name,a_grp,a_flag\n";
  for (int k = 1; k <= 20; ++k)
    a += std::to_string(k) + ",name" + std::to_string(k % 7) + "," + std::to_string(k % 3) + "," +
         (k % 2 ? "true" : "false") + "\n";
  std::string b = "b_key,b_region\n";
  for (int k = 100; k < 140; ++k)
    if (k % 5 != 0) b += std::to_string(k) + "," + (k % 3 == 0 ? "EUROPE" : k % 3 == 1 ? "ASIA" : "AMERICA") + "\n";
  std::string dup = "k,label\n0,zero\n1,one\n2,two\n2,again\n3,three\n4,four\n5,five\n";
  std::string sparse = "k,label\n0,zero\n1,one\n2,two\n1000000000,far\n";
  std::string nullgroup = "k,label\n0,zero\n1,\n2,two\n3,three\n4,four\n5,five\n";
  std::string nullkey = "k,label\n0,zero\n,nothing\n2,two\n3,three\n4,four\n5,five\n";
  std::string wide = "k,label\n";  // 4999 groups: more state than shared memory holds
  for (int k = 4998; k >= 0; --k) wide += std::to_string(k) + ",w" + std::to_string(k) + "\n";
  // Declared types: a DECIMAL column, BIGINT keys on both sides of b.
  db.query("CREATE TABLE f (fk_a INTEGER, fk_b BIGINT, fk_c INTEGER, fk_w INTEGER, v INTEGER, w BIGINT, d DECIMAL(15,2), s VARCHAR)");
  db.query("CREATE TABLE a (a_key INTEGER, a_name VARCHAR, a_grp INTEGER, a_flag BOOLEAN)");
  db.query("CREATE TABLE b (b_key BIGINT, b_region VARCHAR)");
  for (const char* name : {"dup", "sparse", "nullgroup", "nullkey", "wide"})
    db.query(std::string("CREATE TABLE ") + name + " (k INTEGER, label VARCHAR)");
  for (auto [name, csv] : {std::pair{"f", f}, {"a", a}, {"b", b}, {"dup", dup}, {"sparse", sparse},
                           {"nullgroup", nullgroup}, {"nullkey", nullkey}, {"wide", wide}})
    db.query(std::string("COPY ") + name + " FROM '" + dir.write(std::string(name) + ".csv", csv) + "' (HEADER true)");
}

// The fused queries over the small star, and the declined ones.
const char* const kFused[] = {
    "SELECT a_name, b_region, SUM(v), COUNT(*), COUNT(v), MIN(v), MAX(v), AVG(v), SUM(d), AVG(d) "
    "FROM f, a, b WHERE fk_a = a_key AND fk_b = b_key GROUP BY a_name, b_region",
    "SELECT a_grp, b_region, SUM(v) FROM f JOIN a ON fk_a = a_key JOIN b ON fk_b = b_key "
    "WHERE v > 3 AND a_grp <> 1 AND b_region < 'EUROPE' GROUP BY a_grp, b_region ORDER BY a_grp, b_region",
    "SELECT SUM(v), COUNT(*), MIN(d), MAX(v), AVG(v) FROM f JOIN a ON fk_a = a_key WHERE a_flag",
    "SELECT a_flag, COUNT(*) FROM f JOIN a ON a_key = fk_a GROUP BY a_flag HAVING COUNT(*) > 10",
    "SELECT label, COUNT(*), SUM(v) FROM f JOIN nullkey ON fk_c = k GROUP BY label",
    "SELECT b_region, a_name, label, SUM(d), COUNT(v) FROM f, a, b, nullkey "
    "WHERE fk_a = a_key AND fk_b = b_key AND fk_c = k AND s <> 's2' GROUP BY b_region, a_name, label "
    "ORDER BY 4 DESC, 1, 2, 3 LIMIT 7",
    "SELECT label, COUNT(*), SUM(v), MIN(d), MAX(w) FROM f JOIN wide ON fk_w = k GROUP BY label",
    "SELECT label, a_flag, SUM(d), COUNT(v) FROM f JOIN wide ON fk_w = k JOIN a ON fk_a = a_key "
    "WHERE a_grp <> 2 GROUP BY a_flag, label",
    // Dimension filters the kernels evaluate: LIKE through its lookup, IN,
    // OR, and one that overflows (the same error on both executors).
    "SELECT a_name, b_region, SUM(v) FROM f, a, b WHERE fk_a = a_key AND fk_b = b_key AND a_name LIKE 'name1%' "
    "AND b_region IN ('ASIA', 'EUROPE') GROUP BY a_name, b_region ORDER BY 3 DESC",
    "SELECT b_region, COUNT(*) FROM f JOIN a ON fk_a = a_key JOIN b ON fk_b = b_key "
    "WHERE (a_grp = 0 OR a_key > 15) AND NOT a_flag GROUP BY b_region ORDER BY b_region",
    "SELECT SUM(v) FROM f JOIN a ON fk_a = a_key WHERE a_key * 2147483647 > 0",
};
const char* const kDeclined[] = {
    "SELECT label, SUM(v) FROM f JOIN dup ON fk_c = k GROUP BY label",           // key 2 twice
    "SELECT label, SUM(v) FROM f JOIN sparse ON fk_c = k GROUP BY label",        // keys a billion apart
    "SELECT label, SUM(v) FROM f JOIN nullgroup ON fk_c = k GROUP BY label",     // a NULL group
    "SELECT a_name, SUM(w) FROM f JOIN a ON fk_a = a_key GROUP BY a_name",        // might overflow
    // A dimension that keeps no row: the join is empty, but the fact filter
    // runs on every fact row as on the host (the last one overflows there).
    "SELECT SUM(v), COUNT(*) FROM f JOIN a ON fk_a = a_key WHERE a_grp = 999",
    "SELECT a_name, SUM(v) FROM f JOIN a ON fk_a = a_key WHERE a_grp = 999 GROUP BY a_name",
    "SELECT SUM(v) FROM f JOIN a ON fk_a = a_key WHERE a_grp = 999 AND v * 9223372036854775807 > 1",
};

// Shapes of a star whose aggregate argument, fact filter or dimension
// filter has a 128-bit step, which the kernel cannot evaluate: the general
// operators take them (the CUDA executor's differential runs, seeds 290
// and 323, reached the kernel's "internal" error).
const char* const kWideSteps[] = {
    "SELECT a_name, SUM(12345678901234567890.5) FROM f JOIN a ON fk_a = a_key GROUP BY a_name",
    "SELECT CAST(SUM(v * 12345678901234567890.5) AS DOUBLE) FROM f JOIN a ON fk_a = a_key",
    "SELECT a_name, SUM(v) FROM f JOIN a ON fk_a = a_key WHERE 12345678901234567890.5 <= v * 10 GROUP BY a_name",
    "SELECT a_name, SUM(v) FROM f JOIN a ON fk_a = a_key WHERE a_grp * 12345678901234567890.5 > 1 GROUP BY a_name",
};

// A fused query whose dimension filter, fact filter and aggregate argument
// each run past the 128 operations an ExprProgram holds in itself.
std::string long_programs_query() {
  std::string dimension, fact, argument = "v";
  for (int k = 1; k <= 30; ++k) {
    dimension += fmt("%s(a_key > %d AND a_grp <> %d)", k == 1 ? "" : " OR ", k % 20, k % 3);
    fact += fmt("%s(v > %d AND fk_c <> %d)", k == 1 ? "" : " OR ", k * 20 - 300, k % 6);
    argument += fmt(" + v * %d", k);
  }
  return "SELECT a_name, COUNT(*), MIN(" + argument + "), MAX(" + argument + ") FROM f JOIN a ON fk_a = a_key WHERE (" +
         dimension + ") AND (" + fact + ") GROUP BY a_name";
}

// "" when identical (doubles by their bits), else where they first differ.
std::string difference(const Result& expected, const Result& actual) {
  if (expected.column_count() != actual.column_count()) return "column counts differ";
  if (expected.row_count() != actual.row_count())
    return "rows: host " + std::to_string(expected.row_count()) + ", gpu " + std::to_string(actual.row_count());
  for (std::size_t c = 0; c < expected.column_count(); ++c)
    if (expected.column_name(c) != actual.column_name(c) || expected.column_type(c) != actual.column_type(c))
      return "column " + std::to_string(c) + " differs in name or type";
  for (std::size_t r = 0; r < expected.row_count(); ++r)
    for (std::size_t c = 0; c < expected.column_count(); ++c) {
      Value x = expected.value(r, c), y = actual.value(r, c);
      const double* dx = std::get_if<double>(&x);
      const double* dy = std::get_if<double>(&y);
      bool same = dx ? dy && std::memcmp(dx, dy, sizeof(double)) == 0 : x == y;
      if (!same)
        return "row " + std::to_string(r) + ", column " + std::to_string(c) + ": host " + expected.text(r, c) +
               ", gpu " + actual.text(r, c);
    }
  return "";
}

// Runs `sql` on both databases; they must agree (or fail with the same error).
void check_same(Database& host, Database& gpu, const std::string& sql) {
  INFO(sql);
  std::string host_error, gpu_error;
  std::optional<Result> expected, actual;
  try {
    expected = host.query(sql);
  } catch (const Error& e) {
    host_error = e.what();
  }
  try {
    actual = gpu.query(sql);
  } catch (const Error& e) {
    gpu_error = e.what();
  }
  CHECK(gpu_error == host_error);
  if (expected && actual) {
    INFO("host:\n" << to_string(to_rows(*expected)) << "gpu:\n" << to_string(to_rows(*actual)));
    CHECK(difference(*expected, *actual) == "");
  }
}

}  // namespace

TEST_CASE("star join: the SSB queries have the fused shape", "[star]") {
  Database db(Options{ExecutorKind::Host});
  for (const auto& t : ssb_tables()) db.impl().add_table(t);
  for (const auto& q : ssb::standard_queries()) {
    const std::string sql = ssb::query_sql(q);
    INFO(q.title << ":\n" << sql);
    auto star = star_of(db, sql);
    REQUIRE(star);
    const std::size_t expected_dimensions = q.title[1] == '1' ? 1 : q.title[1] == '4' ? 4 : 3;
    CHECK(star->dimensions.size() == expected_dimensions);
    CHECK(star->group_keys.size() == (q.title[1] == '1' ? 0u : q.title == "Q4.1" || q.title[1] == '2' ? 2u : 3u));
  }
}

TEST_CASE("star join: which plans are recognised", "[star]") {
  Database db(Options{ExecutorKind::Host});
  TempDir dir;
  load_star(db, dir);
  for (const char* sql : kFused) {
    INFO(sql);
    CHECK(star_of(db, sql));
  }
  for (const char* sql : kDeclined) {  // the shape fits; the kernel declines at run time
    INFO(sql);
    CHECK(star_of(db, sql));
  }
  auto star = star_of(db, kFused[0]);
  REQUIRE(star);
  REQUIRE(star->dimensions.size() == 2);
  REQUIRE(star->group_keys.size() == 2);
  CHECK(star->group_keys[0].dimension != star->group_keys[1].dimension);

  const char* const not_star[] = {
      "SELECT a_name, SUM(v) FROM f JOIN a ON fk_a = a_key GROUP BY a_name, s",          // a fact group key
      "SELECT a_name, SUM(v * 0.5e0) FROM f JOIN a ON fk_a = a_key GROUP BY a_name",     // floating sum
      "SELECT a_name, SUM(a_grp) FROM f JOIN a ON fk_a = a_key GROUP BY a_name",         // argument on a dimension
      "SELECT COUNT(DISTINCT v) FROM f JOIN a ON fk_a = a_key",                          // DISTINCT
      "SELECT a_name, SUM(v) FROM f JOIN a ON fk_a * 2 = a_key GROUP BY a_name",         // key expression
      "SELECT a_name, SUM(v) FROM f JOIN a ON fk_a = a_key WHERE v > a_grp GROUP BY a_name",  // filter above
      "SELECT a_name, SUM(v) FROM f JOIN a ON fk_a = a_key AND fk_c = a_grp GROUP BY a_name",  // two keys
      "SELECT SUM(v) FROM f JOIN a ON fk_a < a_key",                                     // not an equi-join
      "SELECT SUM(v) FROM f",                                                            // no join
      "SELECT a_name, ARG_MIN(v, d) FROM f JOIN a ON fk_a = a_key GROUP BY a_name",      // ARG_MIN
      "SELECT a_name, SUM(v) FROM f JOIN a ON fk_a = a_grp GROUP BY a_name",  // a dimension key 3 values over 20 rows
  };
  for (const char* sql : not_star) {
    INFO(sql);
    CHECK_FALSE(star_of(db, sql));
  }
  for (const char* sql : kWideSteps) {
    INFO(sql);
    CHECK_FALSE(star_of(db, sql));
  }
  // A dimension table larger than the fact table, filtered below it (TPC-H
  // Q12's lineitem under orders): unique keys, but the general operators.
  std::string big = "k,label\n";
  for (int k = 0; k < 10000; ++k) big += std::to_string(k) + ",l" + std::to_string(k % 5) + "\n";
  db.load_csv("big", dir.write("big.csv", big));
  CHECK(star_of(db, "SELECT label, SUM(v) FROM f JOIN wide ON fk_w = k GROUP BY label"));
  CHECK_FALSE(star_of(db, "SELECT label, SUM(v) FROM f JOIN big ON fk_w = k WHERE k < 4000 GROUP BY label"));
}

TEST_CASE("star join on the GPU: the SSB queries, fused, give the host executor's answers", "[gpu][star]") {
  Database host(Options{ExecutorKind::Host}), gpu(Options{ExecutorKind::Gpu});
  for (const auto& t : ssb_tables()) host.impl().add_table(t);
  for (const auto& t : ssb_tables()) gpu.impl().add_table(t);
  for (const auto& q : ssb::standard_queries()) {
    const std::string sql = ssb::query_sql(q);
    const std::size_t before = kernels::star_join_runs();
    check_same(host, gpu, sql);
    INFO(q.title);
    // Fused -- but for a dimension that keeps no row at this small scale
    // (Q3.3's and Q3.4's cities), which the general operators take.
    if (host.query(sql).row_count() > 0) CHECK(kernels::star_join_runs() == before + 1);
    else CHECK(kernels::star_join_runs() <= before + 1);
  }
  // EXPLAIN ANALYZE says how the aggregate ran.
  Result explained = gpu.query("EXPLAIN ANALYZE " + ssb::query_sql(ssb::standard_queries()[3]));
  std::string text;
  for (std::size_t r = 0; r < explained.row_count(); ++r) text += explained.text(r, 0) + "\n";
  CHECK_THAT(text, Catch::Contains("(fused star join over 3 dimensions)"));
}

TEST_CASE("star join on the GPU: edge cases and declined shapes give the host executor's answers", "[gpu][star]") {
  TempDir dir;
  Database host(Options{ExecutorKind::Host}), gpu(Options{ExecutorKind::Gpu});
  load_star(host, dir);
  load_star(gpu, dir);
  std::vector<std::string> fused(std::begin(kFused), std::end(kFused));
  fused.push_back(long_programs_query());
  for (const std::string& sql : fused) {
    const std::size_t before = kernels::star_join_runs();
    check_same(host, gpu, sql);
    for (int repeat = 0; repeat < 2; ++repeat) check_same(host, gpu, sql);  // no race decides an answer
    INFO(sql);
    CHECK(kernels::star_join_runs() == before + 3);
  }
  for (const char* sql : kDeclined) {
    const std::size_t before = kernels::star_join_runs();
    check_same(host, gpu, sql);
    INFO(sql);
    CHECK(kernels::star_join_runs() == before);
  }
  for (const char* sql : kWideSteps) check_same(host, gpu, sql);
}

TEST_CASE("star join: which sums need no overflow watch", "[star]") {
  ColumnSet columns;
  columns.count = 3;
  columns.columns[0].type = Type::Integer;
  columns.columns[1].type = Type::BigInt;
  columns.columns[2].type = Type::Boolean;
  auto column = [](uint8_t slot) {
    ExprProgram p;
    p.shape = Shape::Column;
    p.term_count = 1;
    p.terms[0].slot = slot;
    return p;
  };
  auto arithmetic = [](Op op, Term a, Term b) {
    ExprProgram p;
    p.shape = Shape::Arithmetic;
    p.term_count = 2;
    a.op = op;
    p.terms[0] = a;
    p.terms[1] = b;
    return p;
  };
  Term integer, constant, null_constant;
  integer.slot = 0;
  constant.is_constant = true;
  constant.value.i = -100;
  null_constant.is_constant = true;
  null_constant.null_constant = true;
  const std::size_t two31 = std::size_t{1} << 31, two32 = std::size_t{1} << 32;

  // |INTEGER| <= 2^31: 2^31 rows stay below 2^63, 2^32 rows may reach it.
  CHECK(kernels::sum_cannot_overflow(column(0), columns, two31));
  CHECK_FALSE(kernels::sum_cannot_overflow(column(0), columns, two32));
  CHECK_FALSE(kernels::sum_cannot_overflow(column(1), columns, 1));  // BIGINT: no bound
  CHECK(kernels::sum_cannot_overflow(column(2), columns, two32));    // BOOLEAN
  // INTEGER * INTEGER <= 2^62: one row, not two.
  CHECK(kernels::sum_cannot_overflow(arithmetic(Op::Mul, integer, integer), columns, 1));
  CHECK_FALSE(kernels::sum_cannot_overflow(arithmetic(Op::Mul, integer, integer), columns, 2));
  // INTEGER - INTEGER <= 2^32.
  CHECK(kernels::sum_cannot_overflow(arithmetic(Op::Sub, integer, integer), columns, two31 - 1));
  CHECK_FALSE(kernels::sum_cannot_overflow(arithmetic(Op::Sub, integer, integer), columns, two31));
  // A constant counts as |c| + 1: 2^31 * 101 * 1e6 < 2^63.
  CHECK(kernels::sum_cannot_overflow(arithmetic(Op::Mul, integer, constant), columns, 1000000));
  CHECK_FALSE(kernels::sum_cannot_overflow(arithmetic(Op::Mul, integer, null_constant), columns, 1));
  ExprProgram general;
  general.shape = Shape::General;
  CHECK_FALSE(kernels::sum_cannot_overflow(general, columns, 1));
}
