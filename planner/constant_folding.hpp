// Constant folding: an operation whose operands are all constants is
// evaluated once, at bind time, by the same evaluator the executors use.
#pragma once

#include "planner/bound_expression.hpp"

namespace gpusql {

// Returns `e` with itself replaced by a constant when all its children are
// constants (and evaluating it raises no error: that is left to run time).
BoundExpr fold_constants(BoundExpr e);

}  // namespace gpusql
