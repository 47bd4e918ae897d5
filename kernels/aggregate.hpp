// Aggregate: COUNT/SUM/MIN/MAX/AVG over all rows, with the WHERE predicate
// fused into the same pass, in the reduction order of aggregate_state.hpp.
#pragma once

#include <cstddef>
#include <vector>

#include "core/aggregate_state.hpp"
#include "storage/device_memory.hpp"

namespace gpusql::kernels {

// Folds every input position (row ids from d_selection when given, else
// 0..count-1) that `predicate` selects (an empty program selects all) into
// each aggregate's state: per thread, warp shuffles, a block tree, one state
// per chunk, then further passes over the chunk states until one is left.
// When every aggregate is COUNT(*) or COUNT/SUM/MIN/MAX/AVG of a plain
// column, a lean kernel runs the same order with one 64-bit value and a
// count per thread, typed loads and no interpreter (and, for a conjunction
// of column-vs-constant comparisons, no interpreter for the WHERE either).
// Returns the final states on the host (the one copy back); run-time errors
// are OR-ed into *d_error. No rows or no aggregates: empty states.
std::vector<AggState> aggregate_rows(const ExprProgram& predicate, const std::vector<AggSpec>& specs,
                                     const ColumnSet& columns, const uint32_t* d_selection, std::size_t count,
                                     uint32_t* d_error, DeviceContext& context);

}  // namespace gpusql::kernels
