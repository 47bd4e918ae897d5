// Gather of row ids: composes a relation's row-id vector with the positions
// an operator selected (late materialization: values are never copied).
#pragma once

#include <cstddef>
#include <cstdint>

#include "storage/device_memory.hpp"

namespace gpusql::kernels {

// out[i] = rows ? rows[positions[i]] : positions[i], for i < count.
void gather_row_ids(const uint32_t* d_rows, const uint32_t* d_positions, std::size_t count, uint32_t* d_out,
                    DeviceContext& context);

// out[i] = map[codes[i]] for i < count, or 0 where `d_validity` (when not
// null) says row i is NULL: dictionary codes made anew, a NULL's never read.
void map_codes(const uint32_t* d_map, const uint32_t* d_codes, const uint32_t* d_validity, std::size_t count,
               uint32_t* d_out, DeviceContext& context);

// out[i] = first + i, for i < count.
void sequence(uint32_t first, std::size_t count, uint32_t* d_out, DeviceContext& context);

// Bits [0, count) of `d_bits` into bits [offset, offset + count) of `d_out`
// (validity bitmaps of several chunks put one after another); the other bits
// of `d_out` stay as they are.
void copy_bits(const uint32_t* d_bits, std::size_t count, uint32_t* d_out, std::size_t offset, DeviceContext& context);

}  // namespace gpusql::kernels
