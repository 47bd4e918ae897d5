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

__global__ void __launch_bounds__(kGatherThreads)
    map_codes_kernel(const uint32_t* __restrict__ map, const uint32_t* __restrict__ codes,
                     const uint32_t* __restrict__ validity, uint64_t count, uint32_t* __restrict__ out) {
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    out[i] = validity && !((validity[i / 32] >> (i % 32)) & 1u) ? 0u : map[codes[i]];
}

__global__ void __launch_bounds__(kGatherThreads) sequence_kernel(uint32_t first, uint64_t count, uint32_t* __restrict__ out) {
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    out[i] = first + static_cast<uint32_t>(i);
}

// One thread a word of `out`: the bits of it that [offset, offset + count)
// covers, read from `bits`.
__global__ void __launch_bounds__(kGatherThreads)
    copy_bits_kernel(const uint32_t* __restrict__ bits, uint64_t count, uint32_t* __restrict__ out, uint64_t offset) {
  const uint64_t first_word = offset / 32, words = (offset + count + 31) / 32 - first_word;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < words;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    const uint64_t word = first_word + i;
    uint32_t value = out[word], mask = 0;
    for (int b = 0; b < 32; ++b) {
      const uint64_t bit = word * 32 + b;
      if (bit < offset || bit >= offset + count) continue;
      const uint64_t from = bit - offset;
      mask |= 1u << b;
      value = (value & ~(1u << b)) | (((bits[from / 32] >> (from % 32)) & 1u) << b);
    }
    if (mask) out[word] = value;
  }
}

}  // namespace

void copy_bits(const uint32_t* d_bits, std::size_t count, uint32_t* d_out, std::size_t offset, DeviceContext& context) {
  if (count == 0) return;
  const std::size_t words = (offset + count + 31) / 32 - offset / 32;
  copy_bits_kernel<<<grid_for((words + kGatherThreads - 1) / kGatherThreads, context, 16), kGatherThreads, 0,
                     context.stream()>>>(d_bits, count, d_out, offset);
  GPUSQL_CHECK_LAUNCH();
}

void gather_row_ids(const uint32_t* d_rows, const uint32_t* d_positions, std::size_t count, uint32_t* d_out,
                    DeviceContext& context) {
  if (count == 0) return;
  gather_kernel<<<grid_for((count + kGatherThreads - 1) / kGatherThreads, context, 16), kGatherThreads, 0,
                  context.stream()>>>(d_rows, d_positions, count, d_out);
  GPUSQL_CHECK_LAUNCH();
}

void map_codes(const uint32_t* d_map, const uint32_t* d_codes, const uint32_t* d_validity, std::size_t count,
               uint32_t* d_out, DeviceContext& context) {
  if (count == 0) return;
  map_codes_kernel<<<grid_for((count + kGatherThreads - 1) / kGatherThreads, context, 16), kGatherThreads, 0,
                     context.stream()>>>(d_map, d_codes, d_validity, count, d_out);
  GPUSQL_CHECK_LAUNCH();
}

void sequence(uint32_t first, std::size_t count, uint32_t* d_out, DeviceContext& context) {
  if (count == 0) return;
  sequence_kernel<<<grid_for((count + kGatherThreads - 1) / kGatherThreads, context, 16), kGatherThreads, 0,
                    context.stream()>>>(first, count, d_out);
  GPUSQL_CHECK_LAUNCH();
}

}  // namespace gpusql::kernels
