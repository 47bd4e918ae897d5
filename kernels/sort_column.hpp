// CUB's radix sort over a column's own values, for ORDER BY's first key when
// it is a plain column: no codes are written, CUB transforms the values'
// bits as it reads them. In a file of its own so that its CUB
// instantiations (int32_t, float and double keys, both directions) compile beside
// kernels/sort.cu's, not after them.
#pragma once

#include <cstddef>

#include "core/expr_program.hpp"
#include "storage/device_memory.hpp"

namespace gpusql::kernels {

// Whether sort_column_pairs() takes columns of `type`.
bool column_sort_type(Type type);

// Sorts `positions` (`count` of them, 32-bit) stably by the values of
// `column` (an array of `type`'s values, read at those positions' indices:
// positions must hold 0..count-1 in order) over the bits
// [begin_bit, end_bit) of CUB's transformed keys, ascending or descending.
// The sorted positions replace `positions` (a new buffer). CUB's order is
// SQL's for these types but for NaNs, which it ranks by their bits: the
// caller keeps them away. count < 2^32 (the caller checks). Does not
// synchronize. Out of memory: Error(OutOfMemory) from an allocation made
// before anything is sorted, `positions` unchanged.
void sort_column_pairs(const void* column, Type type, bool descending, DeviceBuffer& positions, std::size_t count,
                       int begin_bit, int end_bit, DeviceContext& context);

}  // namespace gpusql::kernels
