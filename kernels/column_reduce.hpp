// One aggregate over a whole column: SUM, MIN or MAX (or AVG of a REAL or
// DOUBLE column) of a column without NULLs, with no WHERE -- `SELECT SUM(v)
// FROM big`. The same order, so the same bits, as aggregate_rows(); one
// kernel instead of a fold and its passes over the chunk states.
//
// Not yet on the query path: aggregate_rows() does not call it. Its first
// form was slower than aggregate_rows()' dense fold (kernel 408-420 us
// against 356-364 for SUM of 2^27 DOUBLEs, H100); the form here has not run
// on a GPU yet (see column_reduce.cu). The tests and kernel_bench call it
// directly, so the next GPU run says whether it takes the place of the
// dense fold for this case.
#pragma once

#include <cstddef>

#include "engine/aggregate_state.hpp"
#include "storage/device_memory.hpp"

namespace gpusql::kernels {

// The final state of `spec` over rows 0 .. count-1 of `column` into `out`
// (count >= 1), run-time errors OR-ed into *d_error; false, with nothing
// launched, when the aggregate is not of the form above or the column is
// longer than 2^32 rows.
bool reduce_column(const AggSpec& spec, const ColumnPointer& column, std::size_t count, uint32_t* d_error,
                   DeviceContext& context, AggState& out);

}  // namespace gpusql::kernels
