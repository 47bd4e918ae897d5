// The filter's path for predicates over plain columns of one width: one
// pass that reads each column once, evaluates the predicate on bitmasks and
// writes the selected ids in order. Included
// by kernels/filter.cu only (it needs fast_predicate.cuh's FastPredicate).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/fast_predicate.cuh"
#include "storage/device_memory.hpp"

namespace gpusql::kernels {

// Whether bitmask_filter() takes `p`: positions are rows (no selection
// vector, no row-id vector), no column has NULLs, every column read has the
// same storage width (1, 4 or 8 bytes) and starts on a 16-byte boundary, and
// at least one term reads a column.
bool bitmask_filter_applies(const FastPredicate& p, const uint32_t* d_selection);

// The positions 0..count-1 whose rows `p` selects, written to d_out in
// ascending order; returns how many (synchronizes). One pass over the
// columns (16-byte vector loads) that finds each tile's offset by
// look-back while it evaluates the next tile.
std::size_t bitmask_filter(const FastPredicate& p, std::size_t count, uint32_t* d_out, DeviceContext& context);

}  // namespace gpusql::kernels
