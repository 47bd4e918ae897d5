// A guess of the fraction of rows a condition keeps, from statistics where
// there are some: the join order weighs its sets by it, and the binder
// whether narrowing a subquery to the outer keys pays.
#pragma once

#include <functional>
#include <vector>

#include "planner/bound_expression.hpp"
#include "storage/column_statistics.hpp"

namespace gpusql {

// What is known of a bare column (a program's column `int`): its number of
// distinct values (0 where unknown) and the range of its values (!known
// where unknown). Either function may be empty.
struct ColumnKnowledge {
  std::function<double(int)> distinct;
  std::function<ValueRange(int)> range;
};

// `x = constant` keeps 1/distinct and `x <> constant` the rest; a range
// comparison of x with a constant the share of x's range on its side, and
// several of one column in a conjunction (BETWEEN) the share of the
// interval they leave, at least 1/1000; a LIKE keeps the share of the
// dictionary it matches; AND multiplies, OR adds less the overlap, NOT
// takes the rest; anything else keeps a third (an equality without
// statistics a tenth).
double selectivity(const BoundExpr& e, const ColumnKnowledge& columns);
// The conjunction of `conjuncts`, as an AND of them.
double selectivity(const std::vector<BoundExpr>& conjuncts, const ColumnKnowledge& columns);

// With no statistics (conditions over anything but a query's tables: HAVING).
double selectivity(const BoundExpr& e);

}  // namespace gpusql
