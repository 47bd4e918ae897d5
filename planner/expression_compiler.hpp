// Flattens bound expressions into the postfix programs both executors run.
#pragma once

#include <memory>
#include <vector>

#include "planner/bound_expression.hpp"
#include "storage/device_memory.hpp"

namespace gpusql {

// Maps the input columns a set of programs reads to the slots of one
// ColumnSet, so the fused kernel receives only the columns it touches, and
// keeps the instructions of those programs longer than ExprProgram holds
// (ExprProgram::overflow): a program runs only while its SlotMap lives.
class SlotMap {
 public:
  // What a slot reads: an input column, or a lookup table.
  struct Source {
    int column = -1;
    std::shared_ptr<const LookupTable> lookup;
  };
  int slot_of(int column);  // adds the column on first use
  int slot_of_lookup(std::shared_ptr<const LookupTable> table);
  const std::vector<Source>& sources() const { return sources_; }
  // Memory for `count` instructions that the host and the device both read.
  Instr* overflow_space(std::size_t count);

 private:
  int add(Source source);
  std::vector<Source> sources_;  // slot -> what it reads
  std::vector<std::shared_ptr<UnifiedBuffer>> overflow_;
};

// A lookup table (in host memory) as the ColumnSet entry of its slot.
ColumnPointer host_pointer(const LookupTable& table);

struct HostColumn;
// The ColumnSet for programs (compiled into `slots`) that read one input
// column, held in host memory as `column`: every column slot reads it, every
// lookup slot its table.
ColumnSet host_column_set(const SlotMap& slots, const HostColumn& column);

// Throws Error(NotSupported) when the expression needs more than kMaxStack
// values at once.
ExprProgram compile_expression(const BoundExpr& expr, SlotMap& slots);
Cls compute_class(DataType type);

// Throws the Error a program's run-time error bits (EvalError) stand for;
// no-op for 0. Of several bits, an arithmetic overflow wins over a SUM
// overflow.
void throw_if_eval_error(uint32_t error);

// DuckDB's error for a scalar subquery that gives more than one row (at
// bind for an uncorrelated one, which runs first; at run time, through
// Op::CheckOneRow, for a correlated one).
Error more_than_one_row(std::optional<std::size_t> offset = std::nullopt);

}  // namespace gpusql
