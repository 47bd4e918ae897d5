// The planner's choices, pinned through EXPLAIN: pushdown, join kinds, join
// order and build side, and the operators above the joins.
#include <catch2/catch.hpp>

#include "engine/database_impl.hpp"
#include "parser/parser.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;
using namespace gpusql::test;

namespace {

// What EXPLAIN prints for `sql` (built from the stages directly, so these
// tests pin the planner whatever the grammar accepts).
Plan plan_of(Database& db, const std::string& sql) {
  auto statements = parse_sql(sql);
  return plan_query(bind_query(std::get<ast::SelectStatement>(statements.at(0).body), db.impl().catalog, sql));
}

std::string explain(Database& db, const std::string& sql) {
  Plan plan = plan_of(db, sql);
  return plan.root->to_string(plan.column_names);
}

}  // namespace

TEST_CASE("filters are pushed to scans and equalities become hash joins", "[plan]") {
  Database db(Options{ExecutorKind::Host});
  for (const char* t : {"arecords", "brecords", "pairs"}) db.load_csv(t, sample(t));
  // Estimated after the pushed filters, b (100 rows) is the largest and
  // probes; a (~33) then p (~99) are smaller and build.
  CHECK(explain(db, "SELECT COUNT(*) FROM arecords a, brecords b, pairs p "
                    "WHERE a.id = b.id AND p.x = a.id AND p.y > 3 AND a.weight < 0.5") ==
        "PROJECT count_star()  (~1 rows)\n"
        "  AGGREGATE count_star()  (~1 rows)\n"
        "    HASH JOIN a.id = p.x (build right)  (~100 rows)\n"
        "      HASH JOIN b.id = a.id (build right)  (~100 rows)\n"
        "        SCAN brecords AS b  (~100 rows)\n"
        "        FILTER (a.weight < 0.5)  (~33 rows)\n"
        "          SCAN arecords AS a  (~100 rows)\n"
        "      FILTER (p.y > 3)  (~99 rows)\n"
        "        SCAN pairs AS p  (~300 rows)\n");
  // A small dimension joins a large fact table: the dimension builds.
  CHECK(explain(db, "SELECT SUM(p.y) FROM arecords a, pairs p WHERE p.x = a.id AND a.weight < 0.1") ==
        "PROJECT sum(p.y)  (~1 rows)\n"
        "  AGGREGATE sum(p.y)  (~1 rows)\n"
        "    HASH JOIN p.x = a.id (build right)  (~300 rows)\n"
        "      SCAN pairs AS p  (~300 rows)\n"
        "      FILTER (a.weight < 0.1)  (~33 rows)\n"
        "        SCAN arecords AS a  (~100 rows)\n");
}

TEST_CASE("a condition common to every OR branch is pulled out: a hash join (TPC-H Q19)", "[plan]") {
  Database db(Options{ExecutorKind::Host});
  for (const char* t : {"arecords", "pairs"}) db.load_csv(t, sample(t));
  CHECK(explain(db, "SELECT COUNT(*) FROM arecords a, pairs p "
                    "WHERE (p.x = a.id AND p.y > 3) OR (p.x = a.id AND a.weight < 0.5)") ==
        "PROJECT count_star()  (~1 rows)\n"
        "  AGGREGATE count_star()  (~1 rows)\n"
        "    FILTER ((p.y > 3) OR (a.weight < 0.5))  (~198 rows)\n"
        "      HASH JOIN p.x = a.id (build right)  (~300 rows)\n"
        "        SCAN pairs AS p  (~300 rows)\n"
        "        SCAN arecords AS a  (~100 rows)\n");
  // Common to two of three branches only: the OR stays whole, a nested-loop join.
  CHECK_THAT(explain(db, "SELECT COUNT(*) FROM arecords a, pairs p "
                         "WHERE (p.x = a.id AND p.y > 3) OR (p.x = a.id AND a.weight < 0.5) OR p.y = a.id"),
             Catch::Contains("NESTED LOOP JOIN"));
}

TEST_CASE("other join conditions become nested-loop joins", "[plan]") {
  Database db(Options{ExecutorKind::Host});
  db.load_csv("points", sample("points"));
  CHECK(explain(db, "SELECT a.rowid, b.rowid FROM points a, points b WHERE "
                    "(a.x - b.x) * (a.x - b.x) < 1 AND a.rowid <> b.rowid") ==
        "PROJECT a.rowid, b.rowid  (~11880 rows)\n"
        "  NESTED LOOP JOIN ((((a.x - b.x) * (a.x - b.x)) < 1) AND (a.rowid <> b.rowid))  (~11880 rows)\n"
        "    SCAN points AS a  (~200 rows)\n"
        "    SCAN points AS b  (~200 rows)\n");
}

TEST_CASE("EXPLAIN ANALYZE's profile has every operator's rows", "[plan]") {
  Database db(Options{ExecutorKind::Host});
  db.load_csv("records", sample("records"));
  Plan plan = plan_of(db, "SELECT COUNT(*) FROM records WHERE weight < 0.1");
  Profile profile;
  auto result = db.impl().executor->execute(plan, &profile);
  std::string text = plan.root->to_string(plan.column_names, &profile);
  CHECK(text.find("PROJECT count_star()  (~1 rows)  [1 rows, ") == 0);
  CHECK(text.find("\n      SCAN records  (~100 rows)  [100 rows, ") != std::string::npos);
  REQUIRE(result->rows == 1);
}

TEST_CASE("groups keep key order unless an ORDER BY names every key", "[plan]") {
  Database db(Options{ExecutorKind::Host});
  db.load_csv("pairs", sample("pairs"));
  auto key_order = [&](const std::string& sql) {
    Plan plan = plan_of(db, sql);
    const PlanNode* node = plan.root.get();
    while (node->kind != PlanKind::Aggregate) node = node->child.get();
    return node->key_order;
  };
  CHECK(key_order("SELECT x, COUNT(*) FROM pairs GROUP BY x"));
  CHECK(key_order("SELECT x, y, COUNT(*) FROM pairs GROUP BY x, y ORDER BY x"));
  CHECK(key_order("SELECT x, COUNT(*) AS n FROM pairs GROUP BY x ORDER BY n"));
  CHECK(key_order("SELECT x + 1, COUNT(*) FROM pairs GROUP BY x ORDER BY 1"));  // an expression of the key
  CHECK_FALSE(key_order("SELECT x, y, COUNT(*) FROM pairs GROUP BY x, y ORDER BY y DESC, x"));
  CHECK_FALSE(key_order("SELECT COUNT(*), x FROM pairs GROUP BY x ORDER BY x NULLS FIRST"));
  CHECK_FALSE(key_order("SELECT COUNT(*) FROM pairs"));
}
