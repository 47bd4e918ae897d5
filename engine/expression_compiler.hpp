// Flattens bound expressions into the postfix programs both executors run.
#pragma once

#include <vector>

#include "engine/bound_expression.hpp"

namespace gpusql {

// Maps the input columns a set of programs reads to the slots of one
// ColumnSet, so the fused kernel receives only the columns it touches.
class SlotMap {
 public:
  // What a slot reads: an input column, or a lookup table.
  struct Source {
    int column = -1;
    const LookupTable* lookup = nullptr;
  };
  int slot_of(int column);  // adds the column on first use
  int slot_of_lookup(const LookupTable* table);
  const std::vector<Source>& sources() const { return sources_; }

 private:
  int add(Source source);
  std::vector<Source> sources_;  // slot -> what it reads
};

// A lookup table (in host memory) as the ColumnSet entry of its slot.
ColumnPointer host_pointer(const LookupTable& table);

struct HostColumn;
// The ColumnSet for programs (compiled into `slots`) that read one input
// column, held in host memory as `column`: every column slot reads it, every
// lookup slot its table.
ColumnSet host_column_set(const SlotMap& slots, const HostColumn& column);

// Throws Error(NotSupported) when the expression is too long or too deep for
// one program.
ExprProgram compile_expression(const BoundExpr& expr, SlotMap& slots);
Cls compute_class(DataType type);

}  // namespace gpusql
