#include "kernels/gather.hpp"
#include "kernels/launch.hpp"

namespace gpusql::kernels {
namespace {

constexpr int kGatherThreads = 256;

__global__ void __launch_bounds__(kGatherThreads)
    gather_kernel(const uint32_t* __restrict__ rows, const uint32_t* __restrict__ positions, uint64_t count,
                  uint32_t* __restrict__ out) {
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    out[i] = rows ? rows[positions[i]] : positions[i];
}

__global__ void __launch_bounds__(kGatherThreads) sequence_kernel(uint32_t first, uint64_t count, uint32_t* __restrict__ out) {
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    out[i] = first + static_cast<uint32_t>(i);
}

}  // namespace

void gather_row_ids(const uint32_t* d_rows, const uint32_t* d_positions, std::size_t count, uint32_t* d_out,
                    DeviceContext& context) {
  if (count == 0) return;
  gather_kernel<<<grid_for((count + kGatherThreads - 1) / kGatherThreads, context, 16), kGatherThreads, 0,
                  context.stream()>>>(d_rows, d_positions, count, d_out);
  GPUSQL_CHECK_LAUNCH();
}

void sequence(uint32_t first, std::size_t count, uint32_t* d_out, DeviceContext& context) {
  if (count == 0) return;
  sequence_kernel<<<grid_for((count + kGatherThreads - 1) / kGatherThreads, context, 16), kGatherThreads, 0,
                    context.stream()>>>(first, count, d_out);
  GPUSQL_CHECK_LAUNCH();
}

}  // namespace gpusql::kernels
