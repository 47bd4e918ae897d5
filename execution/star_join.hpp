// Star joins: an Aggregate over a chain of hash joins in which one fact
// table probes several dimension tables by their keys (the Star Schema
// Benchmark's shape, and most analytic queries over a warehouse).
//
// The plan's tree (HashJoin over HashJoin over ... the fact Scan, each with a
// dimension Scan, maybe filtered, on its right) is what both executors run
// in general. The CUDA executor recognises the shape with match_star_join()
// and runs it as one pass over the fact table instead (kernels/star_join.cu):
// each fact row that passes its filter looks its keys up in every dimension
// and adds itself to its group, with no join output in between, as the
// Crystal study's hand-written SSB kernels do. A dimension's own filter runs
// inside the kernels that read the dimension (its key ranges, its direct
// map), so its selected rows are never compacted. Where the run-time conditions
// fail (a dimension key that is not unique, key ranges too wide, a sum that
// might overflow) it falls back to the general operators; the answer is the
// same either way.
#pragma once

#include <optional>
#include <vector>

#include "planner/plan.hpp"
#include "kernels/star_join.hpp"  // the kernel's limits (kStarMax...)

namespace gpusql {

struct StarDimension {
  const PlanNode* source = nullptr;  // the dimension's Scan or Filter over its Scan
  const BoundTableRef* table = nullptr;
  int fact_key = -1;       // global column of the fact table's foreign key
  int dimension_key = -1;  // global column of the dimension's key
};

struct StarGroupKey {
  int dimension = 0;  // index into StarJoin::dimensions
  int column = -1;    // global column of that dimension
};

struct StarJoin {
  const PlanNode* fact_scan = nullptr;
  const BoundExpr* fact_filter = nullptr;  // the fact table's own conjuncts, or none
  std::vector<StarDimension> dimensions;   // in the plan's join order
  std::vector<StarGroupKey> group_keys;    // one per GROUP BY key, in order
};

// The star join an Aggregate node computes, when it has that shape:
//  - below it (no Filter in between), HashJoins with one key each, every one
//    with the fact chain on its left and a Scan or Filter(Scan) on its right;
//  - each key a bare column on both sides, of the same integer type
//    (INTEGER, BIGINT or DATE), the dimension's not repeated by its
//    distinct estimate (the kernel checks that it is unique), the dimension
//    table smaller than the fact table;
//  - the fact table's Scan, maybe under a Filter, at the bottom;
//  - GROUP BY keys that are bare columns of the dimensions (integer, DATE,
//    BOOLEAN or VARCHAR codes);
//  - aggregates COUNT(*), COUNT, SUM, MIN, MAX, AVG (no DISTINCT) whose
//    arguments read only the fact table and are not floating point (their
//    sums are exact, so the order of additions cannot change the answer).
std::optional<StarJoin> match_star_join(const PlanNode& aggregate);

}  // namespace gpusql
