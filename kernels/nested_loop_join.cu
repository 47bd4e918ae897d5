#include <cstdlib>
#include <cstring>

#include "kernels/launch.hpp"
#include "kernels/nested_loop_join.hpp"
#include "kernels/pair_program.hpp"
#include "kernels/sort.hpp"

namespace gpusql::kernels {
namespace {

constexpr int kThreads = 256;
constexpr int kTileItems = 8;               // right positions per lane and task
constexpr int kTile = 32 * kTileItems;      // right positions per task
constexpr unsigned kFullMask = 0xffffffffu;
// Staged tiles use dynamic shared memory up to the default per-block limit;
// wider right sides take the unstaged kernel.
constexpr std::size_t kMaxStagedShared = 48 * 1024;

// The pair test: the PairProgram when LEAN (kernels/pair_program.hpp), else
// the general interpreter.
template <bool LEAN>
__device__ __forceinline__ bool pair_holds(const ExprProgram& predicate, const PairProgram& pair,
                                           const ColumnSet& columns, const Position& where, uint32_t& error) {
  if constexpr (LEAN) return pair_program_holds(pair, columns, where);
  else return evaluate_predicate(predicate, columns, where, error);
}

// One warp per task (left position i, right tile): COUNT stores the task's
// matches in counts[task]; otherwise they are written from offsets[task] on.
template <bool WRITE, bool LEAN>
__global__ void __launch_bounds__(kThreads)
    nested_loop_kernel(const ExprProgram* __restrict__ d_predicate, const PairProgram* __restrict__ d_pair,
                       const ColumnSet* __restrict__ d_columns,
                       uint64_t right_count, uint64_t tiles, uint64_t tasks, uint32_t* __restrict__ counts,
                       uint32_t* __restrict__ out_left, uint32_t* __restrict__ out_right,
                       uint32_t* __restrict__ error_word) {
  const ExprProgram& predicate = *d_predicate;
  const ColumnSet& columns = *d_columns;
  uint32_t error = 0;
  const unsigned lane = threadIdx.x % 32;
  const unsigned lower_lanes = (1u << lane) - 1u;
  const uint64_t warps = static_cast<uint64_t>(gridDim.x) * (blockDim.x / 32);
  for (uint64_t task = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; task < tasks;
       task += warps) {
    const uint64_t left = task / tiles;
    const uint64_t tile = (task % tiles) * kTile;
    uint32_t found = 0;
    const uint32_t base = WRITE ? counts[task] : 0;
#pragma unroll
    for (int k = 0; k < kTileItems; ++k) {
      if (tile + k * 32 >= right_count) break;  // the same for the whole warp
      const uint64_t right = tile + k * 32 + lane;
      const bool match = right < right_count &&
                         pair_holds<LEAN>(predicate, *d_pair, columns,
                                          at(static_cast<int64_t>(left), static_cast<int64_t>(right)), error);
      const unsigned ballot = __ballot_sync(kFullMask, match);
      if (WRITE && match) {
        const uint32_t o = base + found + __popc(ballot & lower_lanes);
        out_left[o] = static_cast<uint32_t>(left);
        out_right[o] = static_cast<uint32_t>(right);
      }
      found += __popc(ballot);
    }
    if (!WRITE && lane == 0) counts[task] = found;
  }
  if (!WRITE && error) atomicOr(error_word, error);
}

// ---- shared-memory tiles ----
//
// A block takes kThreads left positions (one per thread) and a tile of
// kThreads right positions. It first stages the tile's values of every
// right-side column in shared memory -- typed values as load_value reads
// them, a validity bitmap built by ballots, row ids through `rows` resolved
// -- together with the predicate and a copy of the column set whose
// right-side columns point at the tile (rows == nullptr, positions relative
// to the tile). Then each thread tests its left position against the whole
// tile: the right values are shared-memory broadcasts, read from global
// memory once per block instead of once per warp and left position.

constexpr int kStageTile = kThreads;  // right positions per staged tile

// Bytes one right-side column takes in a staged tile (8-aligned).
__host__ __device__ inline std::size_t staged_bytes(const ColumnPointer& c) {
  std::size_t width = 8;
  if (!c.is_rowid) {
    switch (c.type) {
      case Type::Boolean: width = 1; break;
      case Type::Integer:
      case Type::Date:
      case Type::Varchar:
      case Type::Real: width = 4; break;
      default: width = 8; break;
    }
  }
  return (kStageTile * width + 7) / 8 * 8 + kStageTile / 8;  // values, then the validity bitmap
}

constexpr std::size_t kStagedHeader =
    (sizeof(ColumnSet) + sizeof(ExprProgram) + sizeof(PairProgram) + 15) / 16 * 16;

// The dynamic shared memory a block needs: the column set, the predicate
// and its PairProgram, then each right-side column's values and validity.
std::size_t staged_shared_bytes(const ColumnSet& columns) {
  std::size_t bytes = kStagedHeader;
  for (int c = 0; c < columns.count; ++c)
    if (columns.columns[c].side == 1) bytes += staged_bytes(columns.columns[c]);
  return bytes;
}

template <bool WRITE, bool LEAN>
__global__ void __launch_bounds__(kThreads)
    nested_loop_tiled_kernel(const ExprProgram* __restrict__ d_predicate, const PairProgram* __restrict__ d_pair,
                             const ColumnSet* __restrict__ d_columns,
                             uint64_t left_count, uint64_t right_count, uint64_t tiles, uint64_t chunks,
                             uint32_t* __restrict__ counts, uint32_t* __restrict__ out_left,
                             uint32_t* __restrict__ out_right, uint32_t* __restrict__ error_word) {
  extern __shared__ __align__(16) unsigned char shared[];
  ColumnSet& tile_columns = *reinterpret_cast<ColumnSet*>(shared);
  ExprProgram& predicate = *reinterpret_cast<ExprProgram*>(shared + sizeof(ColumnSet));
  PairProgram& pair = *reinterpret_cast<PairProgram*>(shared + sizeof(ColumnSet) + sizeof(ExprProgram));
  const ColumnSet& columns = *d_columns;
  // The block's copies: 4-byte words, all threads.
  {
    const uint32_t* from = reinterpret_cast<const uint32_t*>(d_columns);
    uint32_t* to = reinterpret_cast<uint32_t*>(shared);
    for (unsigned w = threadIdx.x; w < sizeof(ColumnSet) / 4; w += blockDim.x) to[w] = from[w];
    from = reinterpret_cast<const uint32_t*>(d_predicate);
    to = reinterpret_cast<uint32_t*>(shared + sizeof(ColumnSet));
    for (unsigned w = threadIdx.x; w < sizeof(ExprProgram) / 4; w += blockDim.x) to[w] = from[w];
    if (LEAN) {
      from = reinterpret_cast<const uint32_t*>(d_pair);
      to = reinterpret_cast<uint32_t*>(&pair);
      for (unsigned w = threadIdx.x; w < sizeof(PairProgram) / 4; w += blockDim.x) to[w] = from[w];
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned char* cursor = shared + kStagedHeader;
    for (int c = 0; c < tile_columns.count; ++c) {
      ColumnPointer& p = tile_columns.columns[c];
      if (p.side != 1) continue;
      const std::size_t bytes = staged_bytes(p);
      const bool nullable = p.validity != nullptr;
      if (p.is_rowid) p.type = Type::BigInt;
      p.data = cursor;
      p.validity = nullable ? reinterpret_cast<const uint32_t*>(cursor + bytes - kStageTile / 8) : nullptr;
      p.rows = nullptr;
      p.is_rowid = false;
      cursor += bytes;
    }
  }
  __syncthreads();
  uint32_t error = 0;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (uint64_t task = blockIdx.x; task < chunks * tiles; task += gridDim.x) {
    const uint64_t chunk = task / tiles, tile = task % tiles;
    const uint64_t tile_base = tile * kStageTile;
    const uint64_t tile_rows = right_count - tile_base < kStageTile ? right_count - tile_base : kStageTile;
    __syncthreads();  // the previous tile is no longer read
    {
      const uint64_t right = tile_base + threadIdx.x;
      for (int c = 0; c < tile_columns.count; ++c) {
        const ColumnPointer& staged = tile_columns.columns[c];
        if (staged.side != 1) continue;
        Slot s{};
        s.valid = false;
        if (threadIdx.x < tile_rows) s = load_value(columns.columns[c], at(0, static_cast<int64_t>(right)));
        store_value(const_cast<void*>(staged.data), staged.type, threadIdx.x, s);
        const unsigned valid = __ballot_sync(kFullMask, s.valid);
        if (staged.validity && lane == 0) const_cast<uint32_t*>(staged.validity)[warp] = valid;
      }
    }
    __syncthreads();
    const uint64_t left = chunk * kThreads + threadIdx.x;
    if (left >= left_count) continue;
    const uint64_t slot = left * tiles + tile;
    uint32_t found = 0;
    const uint32_t base = WRITE ? counts[slot] : 0;
    for (uint64_t j = 0; j < tile_rows; ++j) {
      if (!pair_holds<LEAN>(predicate, pair, tile_columns, at(static_cast<int64_t>(left), static_cast<int64_t>(j)),
                            error))
        continue;
      if (WRITE) {
        out_left[base + found] = static_cast<uint32_t>(left);
        out_right[base + found] = static_cast<uint32_t>(tile_base + j);
      }
      ++found;
    }
    if (!WRITE) counts[slot] = found;
  }
  if (!WRITE && error) atomicOr(error_word, error);
}


template <bool LEAN>
JoinPairs join_pairs(const ExprProgram& predicate, const PairProgram& pair, const ColumnSet& columns,
                     std::size_t left_count, std::size_t right_count, uint32_t* d_error, DeviceContext& context,
                     bool staged) {
  JoinPairs pairs;
  if (left_count == 0 || right_count == 0) {
    pairs.left = DeviceBuffer(context, sizeof(uint32_t));
    pairs.right = DeviceBuffer(context, sizeof(uint32_t));
    return pairs;
  }
  if (static_cast<double>(left_count) * static_cast<double>(right_count) > static_cast<double>(kMaxJoinPairs))
    throw Error(ErrorKind::Execution, "a join without an equality would produce over 4 billion pairs");
  DeviceObjects objects;
  const std::size_t p = objects.add(predicate), c = objects.add(columns), q = objects.add(pair);
  objects.upload(context);
  const std::size_t shared_bytes = staged_shared_bytes(columns);
  if (staged && shared_bytes <= kMaxStagedShared) {
    const uint64_t tiles = (right_count + kStageTile - 1) / kStageTile;
    const uint64_t chunks = (left_count + kThreads - 1) / kThreads;
    const uint64_t slots = left_count * tiles;
    const unsigned grid = grid_for(chunks * tiles, context, 8);
    DeviceBuffer counts(context, slots * sizeof(uint32_t));
    nested_loop_tiled_kernel<false, LEAN><<<grid, kThreads, shared_bytes, context.stream()>>>(
        objects.at<ExprProgram>(p), objects.at<PairProgram>(q), objects.at<ColumnSet>(c), left_count, right_count,
        tiles, chunks, counts.as<uint32_t>(), nullptr, nullptr, d_error);
    GPUSQL_CHECK_LAUNCH();
    // Counts laid out (left, tile): the scan places the pairs in (left, right) order.
    const uint64_t total = exclusive_scan(counts.as<uint32_t>(), slots, context);
    pairs.count = total;
    pairs.left = DeviceBuffer(context, std::max<uint64_t>(1, total) * sizeof(uint32_t));
    pairs.right = DeviceBuffer(context, std::max<uint64_t>(1, total) * sizeof(uint32_t));
    if (total == 0) return pairs;
    nested_loop_tiled_kernel<true, LEAN><<<grid, kThreads, shared_bytes, context.stream()>>>(
        objects.at<ExprProgram>(p), objects.at<PairProgram>(q), objects.at<ColumnSet>(c), left_count, right_count,
        tiles, chunks, counts.as<uint32_t>(), pairs.left.as<uint32_t>(), pairs.right.as<uint32_t>(), d_error);
    GPUSQL_CHECK_LAUNCH();
    return pairs;
  }
  const uint64_t tiles = (right_count + kTile - 1) / kTile;
  const uint64_t tasks = left_count * tiles;
  const unsigned grid = grid_for((tasks * 32 + kThreads - 1) / kThreads, context, 8);
  DeviceBuffer counts(context, tasks * sizeof(uint32_t));
  nested_loop_kernel<false, LEAN><<<grid, kThreads, 0, context.stream()>>>(
      objects.at<ExprProgram>(p), objects.at<PairProgram>(q), objects.at<ColumnSet>(c), right_count, tiles, tasks,
      counts.as<uint32_t>(), nullptr, nullptr, d_error);
  GPUSQL_CHECK_LAUNCH();
  // left_count * right_count fits 32 bits, so the counts' sums do too.
  const uint64_t total = exclusive_scan(counts.as<uint32_t>(), tasks, context);
  pairs.count = total;
  pairs.left = DeviceBuffer(context, std::max<uint64_t>(1, total) * sizeof(uint32_t));
  pairs.right = DeviceBuffer(context, std::max<uint64_t>(1, total) * sizeof(uint32_t));
  if (total == 0) return pairs;
  nested_loop_kernel<true, LEAN><<<grid, kThreads, 0, context.stream()>>>(
      objects.at<ExprProgram>(p), objects.at<PairProgram>(q), objects.at<ColumnSet>(c), right_count, tiles, tasks,
      counts.as<uint32_t>(), pairs.left.as<uint32_t>(), pairs.right.as<uint32_t>(), d_error);
  GPUSQL_CHECK_LAUNCH();
  return pairs;
}

}  // namespace

JoinPairs nested_loop_join(const ExprProgram& predicate, const ColumnSet& columns, std::size_t left_count,
                           std::size_t right_count, uint32_t* d_error, DeviceContext& context, bool staged) {
  PairProgram pair;
  // SET pair_program = false: every predicate through the general
  // interpreter (so a benchmark compares both in one process).
  if (context.settings().pair_program && make_pair_program(predicate, columns, pair))
    return join_pairs<true>(predicate, pair, columns, left_count, right_count, d_error, context, staged);
  return join_pairs<false>(predicate, pair, columns, left_count, right_count, d_error, context, staged);
}

}  // namespace gpusql::kernels
