#include <cub/agent/single_pass_scan_operators.cuh>
#include <cuda/std/functional>

#include "kernels/fast_predicate.cuh"
#include "kernels/filter.hpp"
#include "kernels/launch.hpp"

namespace gpusql::kernels {
namespace {

constexpr int kWarpThreads = 32;
constexpr int kFilterThreads = 256;
constexpr int kFilterItems = 16;
constexpr int kFilterTile = kFilterThreads * kFilterItems;

using TileState = cub::ScanTileState<uint32_t>;
// The look-back polls at once and then every 128 ns. CUB's default first
// sleeps 450 ns before each tile's look-back when the grid has 500 blocks or
// more, to spare L2 in grids of one block per tile; here only the resident
// blocks look back, and a tile's predecessor was taken just before it.
using LookBackDelay = cub::detail::fixed_delay_constructor_t<128, 0>;
using TilePrefix = cub::TilePrefixCallbackOp<uint32_t, ::cuda::std::plus<uint32_t>, TileState, LookBackDelay>;

// Tile statuses to "not yet", and the tile counter to 0.
__global__ void init_tiles_kernel(TileState tile_state, int tiles, unsigned int* tile_counter) {
  tile_state.InitializeStatus(tiles);
  if (blockIdx.x == 0 && threadIdx.x == 0) *tile_counter = 0;
}

// Tiles of BLOCK_THREADS * ITEMS positions. Item k of thread t is position
// tile + k*BLOCK_THREADS + t (striped: loads coalesce), so in position order
// the items go k, then warp, then lane. A warp ballot per k gives each
// (k, warp) group's selected lanes; a scan over the groups' counts in that
// order gives every selected row its place within the tile, and the tile's
// place comes from decoupled look-back over the tiles before it
// (cub::TilePrefixCallbackOp). Output is thus in ascending position order in
// one pass, and each warp writes a contiguous run per k.
//
// Blocks stay resident and take tiles from an atomic counter, so tiles are
// processed in ticket order and every tile a block waits for belongs to a
// block that is already running or that will reach it after tiles of its
// own that come earlier. A block holds the ticket of its next tile while it
// works on the current one (and asks for the one after), so the fast path
// can prefetch the next tile's columns into L2 and the atomic's latency is
// hidden.
template <int BLOCK_THREADS, int ITEMS, bool GENERAL>
__global__ void __launch_bounds__(BLOCK_THREADS)
    ordered_filter_kernel(FastPredicate fast, const ExprProgram* __restrict__ program,
                          const ColumnSet* __restrict__ columns, const uint32_t* __restrict__ selection,
                          uint64_t count, int tiles, TileState tile_state, unsigned int* __restrict__ tile_counter,
                          uint32_t* __restrict__ out, uint32_t* __restrict__ total, uint32_t* __restrict__ error_word) {
  constexpr int WARPS = BLOCK_THREADS / kWarpThreads;
  constexpr int GROUPS = ITEMS * WARPS;
  constexpr int GROUPS_PER_LANE = (GROUPS + kWarpThreads - 1) / kWarpThreads;
  static_assert(ITEMS <= kWarpThreads, "lane k holds group k's count");
  static_assert(GROUPS_PER_LANE * kWarpThreads == GROUPS, "the groups fill warp 0's lanes evenly");
  __shared__ typename TilePrefix::TempStorage prefix_storage;
  __shared__ uint32_t group_offset[GROUPS];
  __shared__ int shared_tickets[2];
  __shared__ uint32_t tile_offset;

  const int lane = threadIdx.x % kWarpThreads, warp = threadIdx.x / kWarpThreads;
  constexpr uint64_t TILE = static_cast<uint64_t>(BLOCK_THREADS) * ITEMS;
  if (threadIdx.x == 0) {
    shared_tickets[0] = static_cast<int>(atomicAdd(tile_counter, 1u));
    shared_tickets[1] = static_cast<int>(atomicAdd(tile_counter, 1u));
  }
  __syncthreads();
  int tile = shared_tickets[0], next = shared_tickets[1];
  uint32_t error = 0;
  while (tile < tiles) {
    int ticket = 0;
    if (threadIdx.x == 0) ticket = static_cast<int>(atomicAdd(tile_counter, 1u));
    if constexpr (!GENERAL) {
      if (next < tiles)
        prefetch_predicate_l2(fast, selection, next * TILE, count < (next + 1) * TILE ? count : (next + 1) * TILE);
    }
    const uint64_t base = static_cast<uint64_t>(tile) * TILE;

    uint32_t flags;
    if constexpr (GENERAL) {
      flags = general_predicate_flags<BLOCK_THREADS, ITEMS>(*program, *columns, selection, base, count, error);
    } else {
      flags = fast_predicate_flags<BLOCK_THREADS, ITEMS>(fast, selection, base, count);
    }

    // Each (k, warp) group's count, at index k*WARPS + warp.
    uint32_t group_count = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      uint32_t ballot = __ballot_sync(0xffffffffu, (flags >> k) & 1u);
      if (lane == k) group_count = __popc(ballot);
    }
    if (lane < ITEMS) group_offset[lane * WARPS + warp] = group_count;
    __syncthreads();

    if (warp == 0) {
      // Lane l scans groups l*GROUPS_PER_LANE ...; the lanes' sums by shuffles.
      uint32_t local[GROUPS_PER_LANE];
      uint32_t sum = 0;
#pragma unroll
      for (int g = 0; g < GROUPS_PER_LANE; ++g) {
        local[g] = sum;
        sum += group_offset[lane * GROUPS_PER_LANE + g];
      }
      uint32_t inclusive = sum;
#pragma unroll
      for (int offset = 1; offset < kWarpThreads; offset *= 2) {
        uint32_t other = __shfl_up_sync(0xffffffffu, inclusive, offset);
        if (lane >= offset) inclusive += other;
      }
      const uint32_t exclusive = inclusive - sum;
      const uint32_t tile_total = __shfl_sync(0xffffffffu, inclusive, kWarpThreads - 1);
#pragma unroll
      for (int g = 0; g < GROUPS_PER_LANE; ++g) group_offset[lane * GROUPS_PER_LANE + g] = exclusive + local[g];

      uint32_t before;
      if (tile == 0) {
        before = 0;
        if (lane == 0) tile_state.SetInclusive(0, tile_total);
      } else {
        TilePrefix prefix(tile_state, prefix_storage, ::cuda::std::plus<uint32_t>(), tile);
        before = prefix(tile_total);
      }
      if (lane == 0) {
        tile_offset = before;
        if (tile == tiles - 1) *total = before + tile_total;
      }
    }
    __syncthreads();

    const uint32_t tile_base = tile_offset;
    const uint32_t lanes_below = (1u << lane) - 1u;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const bool selected = (flags >> k) & 1u;
      uint32_t ballot = __ballot_sync(0xffffffffu, selected);
      if (selected) {
        uint64_t position = base + static_cast<uint64_t>(k) * BLOCK_THREADS + threadIdx.x;
        uint32_t id = selection ? selection[position] : static_cast<uint32_t>(position);
        out[tile_base + group_offset[k * WARPS + warp] + __popc(ballot & lanes_below)] = id;
      }
    }
    if (threadIdx.x == 0) shared_tickets[0] = ticket;
    __syncthreads();  // group_offset, tile_offset and shared_tickets are reused
    tile = next;
    next = shared_tickets[0];
  }
  if (GENERAL && error) atomicOr(error_word, error);
}

// Resident blocks for `kernel`: its occupancy on every multiprocessor, no
// more than there are tiles.
template <bool GENERAL>
unsigned resident_blocks(int tiles, const DeviceContext& context) {
  static const int per_sm = [] {
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, ordered_filter_kernel<kFilterThreads, kFilterItems, GENERAL>,
                                                      kFilterThreads, 0) != cudaSuccess)
      (void)cudaGetLastError();
    return blocks < 1 ? 1 : blocks;
  }();
  return grid_for(static_cast<std::size_t>(tiles), context, per_sm);
}

}  // namespace

std::size_t filter_rows(const ExprProgram& predicate, const ColumnSet& columns, const uint32_t* d_selection,
                        std::size_t count, uint32_t* d_out, uint32_t* d_error, DeviceContext& context) {
  if (count == 0) return 0;
  const int tiles = static_cast<int>((count + kFilterTile - 1) / kFilterTile);
  std::size_t state_bytes = 0;
  GPUSQL_CUDA_TRY(TileState::AllocationSize(tiles, state_bytes));
  const std::size_t words_at = (state_bytes + 15) / 16 * 16;
  // Tile statuses, then the tile counter and the selected total.
  DeviceBuffer scratch(context, words_at + 2 * sizeof(uint32_t));
  unsigned int* tile_counter = reinterpret_cast<unsigned int*>(static_cast<char*>(scratch.data()) + words_at);
  uint32_t* total = tile_counter + 1;
  TileState tile_state;
  GPUSQL_CUDA_TRY(tile_state.Init(tiles, scratch.data(), state_bytes));
  init_tiles_kernel<<<(tiles + kWarpThreads * 8 - 1) / (kWarpThreads * 8), kWarpThreads * 8, 0, context.stream()>>>(
      tile_state, tiles, tile_counter);
  GPUSQL_CHECK_LAUNCH();

  FastPredicate fast;
  if (make_fast_predicate(predicate, columns, fast)) {
    auto kernel = ordered_filter_kernel<kFilterThreads, kFilterItems, false>;
    kernel<<<resident_blocks<false>(tiles, context), kFilterThreads, 0, context.stream()>>>(
        fast, nullptr, nullptr, d_selection, count, tiles, tile_state, tile_counter, d_out, total, d_error);
    GPUSQL_CHECK_LAUNCH();
  } else {
    DeviceObjects objects;
    std::size_t p = objects.add(predicate), c = objects.add(columns);
    objects.upload(context);
    auto kernel = ordered_filter_kernel<kFilterThreads, kFilterItems, true>;
    kernel<<<resident_blocks<true>(tiles, context), kFilterThreads, 0, context.stream()>>>(
        FastPredicate{}, objects.at<ExprProgram>(p), objects.at<ColumnSet>(c), d_selection, count, tiles, tile_state,
        tile_counter, d_out, total, d_error);
    GPUSQL_CHECK_LAUNCH();
  }
  uint32_t selected = 0;
  GPUSQL_CUDA_TRY(cudaMemcpyAsync(&selected, total, sizeof selected, cudaMemcpyDeviceToHost, context.stream()));
  context.synchronize();
  return selected;
}

}  // namespace gpusql::kernels
