// The order of a query's inner joins: a bushy tree over its tables that
// makes the fewest intermediate rows (the C_out cost of Cluet and Moerkotte),
// found by dynamic programming over the subsets of tables (DPsub), as
// DuckDB and most optimizers do below a dozen relations.
//
// Only pure numbers come in: each relation's estimated rows and the join
// conditions as sets of relations with a selectivity. The planner turns
// conjuncts into those and the tree into operators (plan.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace gpusql {

// The most relations order_joins() takes (3^12 subset pairs); beyond, the
// planner joins greedily.
constexpr std::size_t kMaxOrderedJoins = 12;

// A condition between relations, as bit sets over their indices. An
// equality joins `left` and `right` (each side reads only its own set) and
// can make a hash join between any two sets that contain them; any other
// condition (an `equality` false, `left` every relation it reads, `right`
// empty) only keeps its fraction of the rows of every set that holds them all.
struct JoinCondition {
  uint64_t left = 0;
  uint64_t right = 0;
  double selectivity = 1;
  bool equality = true;
};

struct JoinTree {
  uint64_t relations = 0;  // the bit set it joins
  double rows = 0;         // estimated rows of the join of them all
  std::unique_ptr<JoinTree> a, b;  // both empty for a single relation
};

// The cheapest tree joining all of `rows` (at least one, at most
// kMaxOrderedJoins): every join of it is connected by an equality when the
// conditions connect the relations; when they do not, a set that no
// equality splits is joined by a cross product of its cheapest parts.
// The rows of a set are the product of its relations' rows and of the
// selectivities of every condition it holds, whatever the order.
std::unique_ptr<JoinTree> order_joins(const std::vector<double>& rows, const std::vector<JoinCondition>& conditions);

}  // namespace gpusql
