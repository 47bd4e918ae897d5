#include "kernels/launch.hpp"
#include "kernels/nested_loop_join.hpp"
#include "kernels/sort.hpp"

namespace gpusql::kernels {
namespace {

constexpr int kThreads = 256;
constexpr int kTileItems = 8;               // right positions per lane and task
constexpr int kTile = 32 * kTileItems;      // right positions per task
constexpr unsigned kFullMask = 0xffffffffu;

// One warp per task (left position i, right tile): COUNT stores the task's
// matches in counts[task]; otherwise they are written from offsets[task] on.
template <bool WRITE>
__global__ void __launch_bounds__(kThreads)
    nested_loop_kernel(const ExprProgram* __restrict__ d_predicate, const ColumnSet* __restrict__ d_columns,
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
                         evaluate_predicate(predicate, columns, at(static_cast<int64_t>(left), static_cast<int64_t>(right)),
                                            error);
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

}  // namespace

JoinPairs nested_loop_join(const ExprProgram& predicate, const ColumnSet& columns, std::size_t left_count,
                           std::size_t right_count, uint32_t* d_error, DeviceContext& context) {
  JoinPairs pairs;
  if (left_count == 0 || right_count == 0) {
    pairs.left = DeviceBuffer(context, sizeof(uint32_t));
    pairs.right = DeviceBuffer(context, sizeof(uint32_t));
    return pairs;
  }
  if (static_cast<double>(left_count) * static_cast<double>(right_count) > static_cast<double>(kMaxJoinPairs))
    throw Error(ErrorKind::Execution, "a join without an equality would produce over 4 billion pairs");
  const uint64_t tiles = (right_count + kTile - 1) / kTile;
  const uint64_t tasks = left_count * tiles;
  const unsigned grid = grid_for((tasks * 32 + kThreads - 1) / kThreads, context, 8);
  DeviceBuffer counts(context, tasks * sizeof(uint32_t));
  DeviceObjects objects;
  const std::size_t p = objects.add(predicate), c = objects.add(columns);
  objects.upload(context);
  nested_loop_kernel<false><<<grid, kThreads, 0, context.stream()>>>(objects.at<ExprProgram>(p),
                                                                     objects.at<ColumnSet>(c), right_count, tiles,
                                                                     tasks, counts.as<uint32_t>(), nullptr, nullptr,
                                                                     d_error);
  GPUSQL_CHECK_LAUNCH();
  // left_count * right_count fits 32 bits, so the counts' sums do too.
  const uint64_t total = exclusive_scan(counts.as<uint32_t>(), tasks, context);
  pairs.count = total;
  pairs.left = DeviceBuffer(context, std::max<uint64_t>(1, total) * sizeof(uint32_t));
  pairs.right = DeviceBuffer(context, std::max<uint64_t>(1, total) * sizeof(uint32_t));
  if (total == 0) return pairs;
  nested_loop_kernel<true><<<grid, kThreads, 0, context.stream()>>>(
      objects.at<ExprProgram>(p), objects.at<ColumnSet>(c), right_count, tiles, tasks, counts.as<uint32_t>(),
      pairs.left.as<uint32_t>(), pairs.right.as<uint32_t>(), d_error);
  GPUSQL_CHECK_LAUNCH();
  return pairs;
}

}  // namespace gpusql::kernels
