// What every kernel file needs on the host side: grid sizing and the check
// after each launch.
#pragma once

#include <algorithm>
#include <cstddef>

#include "storage/device_memory.hpp"

namespace gpusql::kernels {

// Blocks for a grid-stride loop over `tiles` tiles: enough to fill every
// multiprocessor several times over, never more than there are tiles.
inline unsigned grid_for(std::size_t tiles, const DeviceContext& context, int blocks_per_sm = 8) {
  std::size_t cap = static_cast<std::size_t>(std::max(1, context.multiprocessors())) * blocks_per_sm;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min(tiles, cap)));
}

#define GPUSQL_CHECK_LAUNCH() GPUSQL_CUDA_TRY(cudaGetLastError())

}  // namespace gpusql::kernels
