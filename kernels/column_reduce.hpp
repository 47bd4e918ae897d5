// One aggregate over a whole column: SUM, MIN or MAX (or AVG of a REAL or
// DOUBLE column) of a column without NULLs, with no WHERE -- `SELECT SUM(v)
// FROM big`. The same order, so the same bits, as aggregate_rows(); one
// kernel instead of a fold and its passes over the chunk states.
//
// aggregate_rows() takes this path when it applies: SUM of 2^27 DOUBLEs
// 0.366 ms against CUB's reduce + result to host 0.369, and the dense fold
// with its two passes 0.385-0.399 before (H100, bench/RESULTS.md).
#pragma once

#include <cstddef>

#include "core/aggregate_state.hpp"
#include "storage/device_memory.hpp"

namespace gpusql::kernels {

// The final state of `spec` over rows 0 .. count-1 of `column` into `out`
// (count >= 1), run-time errors OR-ed into *d_error; false, with nothing
// launched, when the aggregate is not of the form above or the column is
// longer than 2^32 rows, and false after a launch when a SUM of 64-bit
// integers overflowed part way (its exact total may still fit).
bool reduce_column(const AggSpec& spec, const ColumnPointer& column, std::size_t count, uint32_t* d_error,
                   DeviceContext& context, AggState& out);

}  // namespace gpusql::kernels
