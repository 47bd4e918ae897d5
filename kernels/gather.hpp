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

// out[i] = first + i, for i < count.
void sequence(uint32_t first, std::size_t count, uint32_t* d_out, DeviceContext& context);

}  // namespace gpusql::kernels
