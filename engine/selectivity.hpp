// A guess of the fraction of rows a condition keeps, from statistics where
// there are some: the join order weighs its sets by it, and the binder
// whether narrowing a subquery to the outer keys pays.
#pragma once

#include <functional>

#include "engine/bound_expression.hpp"

namespace gpusql {

// `column_distinct` gives a bare column's number of distinct values (or 0
// where none is known), so that `x = constant` keeps 1/distinct and
// `x <> constant` the rest; a LIKE keeps the share of the dictionary it
// matches; AND multiplies, OR adds less the overlap, NOT takes the rest;
// anything else keeps a third (an equality without statistics a tenth).
double selectivity(const BoundExpr& e, const std::function<double(int)>& column_distinct);

// With no statistics (conditions over anything but a query's tables: HAVING).
double selectivity(const BoundExpr& e);

}  // namespace gpusql
