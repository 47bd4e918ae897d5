// The physical planner's rules and the pipelines they cut, pinned through
// EXPLAIN's physical plan: the same operators on every backend, so the GPU
// machine's runs of these queries take the same steps.
#include <catch2/catch.hpp>

#include "engine/database_impl.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;
using namespace gpusql::test;

namespace {

// EXPLAIN's lines from "physical plan:" on.
std::string physical(Database& db, const std::string& sql, const std::string& explain = "EXPLAIN ") {
  Result r = db.query(explain + sql);
  std::string text;
  bool physical = false;
  for (std::size_t i = 0; i < r.row_count(); ++i) {
    const std::string line = r.text(i, 0);
    physical = physical || line == "physical plan:";
    if (physical && line != "physical plan:" && line.rfind("total: ", 0) != 0) text += line + "\n";
  }
  return text;
}

}  // namespace

TEST_CASE("physical plan: operators and pipelines as EXPLAIN prints them", "[plan][physical]") {
  Database db(Options{ExecutorKind::Host});
  for (const char* t : {"arecords", "brecords", "pairs"}) db.load_csv(t, sample(t));
  // The filter under an aggregate without GROUP BY runs inside it.
  CHECK(physical(db, "SELECT COUNT(*), SUM(weight) FROM arecords WHERE weight < 0.5") ==
        "PROJECTION\n"
        "  FILTER_UNGROUPED_AGGREGATE\n"
        "    TABLE_SCAN arecords\n"
        "pipeline 1: TABLE_SCAN -> FILTER_UNGROUPED_AGGREGATE\n"
        "pipeline 2: FILTER_UNGROUPED_AGGREGATE -> PROJECTION -> RESULT\n");
  // With GROUP BY it stays an operator of its own; ORDER BY under a LIMIT
  // sorts only the rows the limit keeps; a join's build side is a pipeline
  // of its own, which its probe's pipeline runs after.
  CHECK(physical(db, "SELECT a.id, COUNT(*) AS n FROM arecords a JOIN pairs p ON p.x = a.id WHERE p.y > 0 "
                     "GROUP BY a.id ORDER BY n DESC LIMIT 3") ==
        "LIMIT\n"
        "  TOP_N\n"
        "    PROJECTION\n"
        "      HASH_GROUP_BY\n"
        "        HASH_JOIN\n"
        "          FILTER\n"
        "            TABLE_SCAN pairs\n"
        "          TABLE_SCAN arecords\n"
        "pipeline 1: TABLE_SCAN -> HASH_JOIN (build side)\n"
        "pipeline 2: TABLE_SCAN -> FILTER -> HASH_JOIN -> HASH_GROUP_BY\n"
        "pipeline 3: HASH_GROUP_BY -> PROJECTION -> TOP_N\n"
        "pipeline 4: TOP_N -> LIMIT -> RESULT\n");
  // A FULL JOIN takes both sides whole (a sink of two), as does DISTINCT;
  // a join without an equality is a nested loop.
  CHECK(physical(db, "SELECT DISTINCT a.id, b.id FROM arecords a FULL JOIN brecords b ON a.id = b.id") ==
        "DISTINCT\n"
        "  PROJECTION\n"
        "    HASH_JOIN\n"
        "      TABLE_SCAN arecords\n"
        "      TABLE_SCAN brecords\n"
        "pipeline 1: TABLE_SCAN -> HASH_JOIN\n"
        "pipeline 2: TABLE_SCAN -> HASH_JOIN (build side)\n"
        "pipeline 3: HASH_JOIN -> PROJECTION -> DISTINCT\n"
        "pipeline 4: DISTINCT -> RESULT\n");
  CHECK_THAT(physical(db, "SELECT COUNT(*) FROM pairs p, arecords a WHERE p.x < a.id"),
             Catch::Contains("NESTED_LOOP_JOIN\n") && Catch::Contains("-> NESTED_LOOP_JOIN (build side)\n"));
}

TEST_CASE("physical plan: EXPLAIN ANALYZE measures each physical operator", "[plan][physical]") {
  Database db(Options{ExecutorKind::Host});
  db.load_csv("pairs", sample("pairs"));
  // Scans in chunks of 100 rows: the scan produces 300 rows in 3 chunks,
  // and the filter's rows are the sum over them.
  db.query("SET chunk_rows = 100");
  const std::string text = physical(db, "SELECT x, COUNT(*) FROM pairs WHERE y > 3 GROUP BY x", "EXPLAIN ANALYZE ");
  CHECK_THAT(text, Catch::Contains("    FILTER  [60 rows, ") && Catch::Contains("      TABLE_SCAN pairs  [300 rows, "));
  CHECK(db.query("SELECT COUNT(*) FROM pairs WHERE y > 3").get<int64_t>(0, 0) == 60);
}
