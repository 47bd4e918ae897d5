#include <cub/block/block_scan.cuh>

#include "kernels/filter.hpp"
#include "kernels/launch.hpp"

namespace gpusql::kernels {
namespace {

constexpr int kFilterThreads = 256;
constexpr int kFilterItems = 8;
constexpr int kFilterTile = kFilterThreads * kFilterItems;

// One tile per iteration of a grid-stride loop. Items are striped across the
// block (item k of thread t is position tile + k*BLOCK + t) so loads coalesce.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__global__ void __launch_bounds__(BLOCK_THREADS)
    filter_compact_kernel(const ExprProgram* __restrict__ predicate, const ColumnSet* __restrict__ columns,
                          const uint32_t* __restrict__ selection,
                          uint64_t count, uint32_t* __restrict__ out, unsigned int* __restrict__ counter,
                          uint32_t* __restrict__ error_word) {
  using BlockScan = cub::BlockScan<int, BLOCK_THREADS>;
  __shared__ typename BlockScan::TempStorage scan_storage;
  __shared__ unsigned int block_base;
  constexpr uint64_t TILE = static_cast<uint64_t>(BLOCK_THREADS) * ITEMS_PER_THREAD;
  uint32_t error = 0;
  for (uint64_t tile = static_cast<uint64_t>(blockIdx.x) * TILE; tile < count; tile += gridDim.x * TILE) {
    // One bit per item: no per-item arrays, so nothing spills to local memory.
    uint32_t flags = 0;
#pragma unroll 2
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
      uint64_t position = tile + static_cast<uint64_t>(k) * BLOCK_THREADS + threadIdx.x;
      if (position < count) {
        int64_t row = selection ? selection[position] : static_cast<int64_t>(position);
        if (evaluate_predicate(*predicate, *columns, row, error)) flags |= 1u << k;
      }
    }
    int offset, block_total;
    BlockScan(scan_storage).ExclusiveSum(__popc(flags), offset, block_total);
    // One atomic per block, not per row: the block's rows are written to a
    // range reserved at once.
    if (threadIdx.x == 0) block_base = block_total ? atomicAdd(counter, static_cast<unsigned int>(block_total)) : 0;
    __syncthreads();
    unsigned int write = block_base + offset;
    for (int k = 0; flags; ++k, flags >>= 1) {
      if (!(flags & 1)) continue;
      uint64_t position = tile + static_cast<uint64_t>(k) * BLOCK_THREADS + threadIdx.x;
      out[write++] = selection ? selection[position] : static_cast<uint32_t>(position);
    }
    __syncthreads();  // block_base and scan_storage are reused by the next tile
  }
  if (error) atomicOr(error_word, error);
}

}  // namespace

std::size_t filter_rows(const ExprProgram& predicate, const ColumnSet& columns, const uint32_t* d_selection,
                        std::size_t count, uint32_t* d_out, uint32_t* d_error, DeviceContext& context) {
  if (count == 0) return 0;
  DeviceBuffer counter(context, sizeof(unsigned int));
  GPUSQL_CUDA_TRY(cudaMemsetAsync(counter.data(), 0, sizeof(unsigned int), context.stream()));
  std::size_t tiles = (count + kFilterTile - 1) / kFilterTile;
  DeviceObjects objects;
  std::size_t p = objects.add(predicate), c = objects.add(columns);
  objects.upload(context);
  filter_compact_kernel<kFilterThreads, kFilterItems><<<grid_for(tiles, context), kFilterThreads, 0, context.stream()>>>(
      objects.at<ExprProgram>(p), objects.at<ColumnSet>(c), d_selection, count, d_out, counter.as<unsigned int>(),
      d_error);
  GPUSQL_CHECK_LAUNCH();
  unsigned int selected = 0;
  GPUSQL_CUDA_TRY(cudaMemcpyAsync(&selected, counter.data(), sizeof selected, cudaMemcpyDeviceToHost, context.stream()));
  context.synchronize();
  return selected;
}

}  // namespace gpusql::kernels
