// Flattens bound expressions into the postfix programs both executors run.
#pragma once

#include <vector>

#include "engine/bound_expression.hpp"

namespace gpusql {

// Maps the input columns a set of programs reads to the slots of one
// ColumnSet, so the fused kernel receives only the columns it touches.
class SlotMap {
 public:
  int slot_of(int column);  // adds the column on first use
  const std::vector<int>& columns() const { return columns_; }

 private:
  std::vector<int> columns_;  // slot -> input column
};

// Throws Error(NotSupported) when the expression is too long or too deep for
// one program.
ExprProgram compile_expression(const BoundExpr& expr, SlotMap& slots);
Cls compute_class(DataType type);

}  // namespace gpusql
