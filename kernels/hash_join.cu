#include "kernels/gather.hpp"
#include "kernels/hash_join.hpp"
#include "kernels/hash_table.cuh"
#include "kernels/launch.hpp"
#include "kernels/sort.hpp"

namespace gpusql::kernels {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(std::size_t items, const DeviceContext& context) {
  return grid_for((items + kThreads - 1) / kThreads, context, 16);
}

// The run [begin, end) of each used slot in the slot-sorted build positions.
// Positions left out of the table (slot == left_out) sort last and are skipped.
__global__ void __launch_bounds__(kThreads)
    slot_runs_kernel(const uint32_t* __restrict__ sorted_slots, uint64_t count, uint64_t left_out,
                     uint32_t* __restrict__ run_begin, uint32_t* __restrict__ run_end) {
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    const uint32_t s = sorted_slots[i];
    if (s >= left_out) continue;
    if (i == 0 || sorted_slots[i - 1] != s) run_begin[s] = static_cast<uint32_t>(i);
    if (i == count - 1 || sorted_slots[i + 1] != s) run_end[s] = static_cast<uint32_t>(i + 1);
  }
}

// Count pass: each probe position's matching slot (kEmptySlot: none) and
// number of matches. KEYED: the table holds key words (see hash_table.hpp);
// the word kKeySentinel matches the reserved slot `capacity`, whose run is
// empty when no build row has it.
// OUTER: a position with no match counts one (its unmatched pair).
template <bool KEYED, bool OUTER>
__global__ void __launch_bounds__(kThreads)
    probe_count_kernel(const void* __restrict__ table, uint64_t mask, const KeyView build, const KeyView probe,
                       const uint32_t* __restrict__ run_begin, const uint32_t* __restrict__ run_end,
                       uint32_t* __restrict__ match_slot, uint64_t* __restrict__ counts) {
  for (uint64_t p = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < probe.count;
       p += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    int64_t slot = -1;
    if (probe.nulls[p] == 0) {
      if constexpr (KEYED) {
        const int64_t word = probe.bits[p];
        slot = word == kKeySentinel ? static_cast<int64_t>(mask + 1)
                                    : find_word(static_cast<const unsigned long long*>(table), mask, word);
      } else {
        slot = find_slot(static_cast<const uint32_t*>(table), mask, build, probe, p);
      }
    }
    match_slot[p] = slot < 0 ? kEmptySlot : static_cast<uint32_t>(slot);
    const uint64_t matches = slot < 0 ? 0 : run_end[slot] - run_begin[slot];
    counts[p] = OUTER && matches == 0 ? 1 : matches;
  }
}

// Write pass: probe position p's matches go to [offsets[p], offsets[p] + count),
// build positions ascending. `build_unmatched` (a FULL JOIN's, else null):
// a build position's byte is cleared once a probe position matches it.
__global__ void __launch_bounds__(kThreads)
    probe_write_kernel(const uint32_t* __restrict__ match_slot, const uint64_t* __restrict__ offsets,
                       uint64_t probe_count, const uint32_t* __restrict__ run_begin,
                       const uint32_t* __restrict__ run_end, const uint32_t* __restrict__ build_positions,
                       bool outer, uint32_t* __restrict__ probe_out, uint32_t* __restrict__ build_out,
                       uint8_t* __restrict__ build_unmatched) {
  for (uint64_t p = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < probe_count;
       p += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    const uint32_t slot = match_slot[p];
    uint64_t o = offsets[p];
    if (slot == kEmptySlot || run_begin[slot] == run_end[slot]) {
      if (outer) {
        probe_out[o] = static_cast<uint32_t>(p);
        build_out[o] = kNoMatch;
      }
      continue;
    }
    for (uint32_t i = run_begin[slot]; i < run_end[slot]; ++i, ++o) {
      probe_out[o] = static_cast<uint32_t>(p);
      build_out[o] = build_positions[i];
      if (build_unmatched) build_unmatched[build_positions[i]] = 0;
    }
  }
}

__global__ void __launch_bounds__(kThreads)
    split_unmatched_kernel(uint32_t* __restrict__ right, uint64_t count, uint8_t* __restrict__ matched) {
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    const bool found = right[i] != kNoMatch;
    matched[i] = found;
    if (!found) right[i] = 0;
  }
}

// The build side's positions no probe position matched (`unmatched` != 0),
// appended in order to the `count` pairs: a FULL JOIN's right ones as
// (kNoMatch, right); a LEFT JOIN's that built its left side as (left,
// kNoMatch), which the sort by left position puts in their place.
void append_unmatched(JoinPairs& pairs, const DeviceBuffer& unmatched, std::size_t build_count, bool build_right,
                      DeviceContext& context) {
  DeviceBuffer& positions = build_right ? pairs.right : pairs.left;
  DeviceBuffer& none = build_right ? pairs.left : pairs.right;
  DeviceBuffer temp(context, 1), found(context, sizeof(uint32_t));
  cub_select_flagged(unmatched.as<uint8_t>(), build_count, positions.as<uint32_t>() + pairs.count,
                     found.as<uint32_t>(), temp, context);
  uint32_t added = 0;
  context.copy_to_host(&added, found.data(), sizeof added);
  if (added > 0)
    GPUSQL_CUDA_TRY(cudaMemsetAsync(none.as<uint32_t>() + pairs.count, 0xff, added * sizeof(uint32_t),
                                    context.stream()));
  pairs.count += added;
}

// Every position of one side (the left's with `left`) unmatched, in order.
JoinPairs unmatched_pairs(std::size_t count, bool left, DeviceContext& context) {
  JoinPairs pairs;
  pairs.count = count;
  pairs.left = DeviceBuffer(context, std::max<std::size_t>(1, count) * sizeof(uint32_t));
  pairs.right = DeviceBuffer(context, std::max<std::size_t>(1, count) * sizeof(uint32_t));
  sequence(0, count, (left ? pairs.left : pairs.right).as<uint32_t>(), context);
  GPUSQL_CUDA_TRY(cudaMemsetAsync((left ? pairs.right : pairs.left).data(), 0xff, count * sizeof(uint32_t),
                                  context.stream()));
  return pairs;
}

}  // namespace

JoinPairs hash_join(const KeyColumns& left, const KeyColumns& right, bool build_right, DeviceContext& context,
                    bool left_outer, bool full_outer) {
  if (full_outer && !(left_outer && build_right))
    throw Error(ErrorKind::Invalid, "internal: a FULL JOIN is a LEFT JOIN that builds its right side");
  const KeyColumns& build = build_right ? right : left;
  const KeyColumns& probe = build_right ? left : right;
  // The unmatched positions a LEFT JOIN keeps: the probe side's when it
  // probes with its left side, else the build side's, flagged in the write
  // pass (as a FULL JOIN's right side is).
  const bool probe_outer = left_outer && build_right;
  const bool build_outer = full_outer || (left_outer && !build_right);
  JoinPairs pairs;
  if (probe.count >= kEmptySlot) throw Error(ErrorKind::NotSupported, "not supported yet: 2^32 or more rows");
  if (full_outer && left.count == 0) return unmatched_pairs(right.count, false, context);  // every right row
  if (left_outer && right.count == 0) return unmatched_pairs(left.count, true, context);  // every left row
  if (build.count == 0 || probe.count == 0) {
    pairs.left = DeviceBuffer(context, sizeof(uint32_t));
    pairs.right = DeviceBuffer(context, sizeof(uint32_t));
    return pairs;
  }

  JoinTable table = build_join_table(build.view(), context);
  DeviceBuffer build_unmatched(context, build_outer ? build.count : 1);
  if (build_outer) GPUSQL_CUDA_TRY(cudaMemsetAsync(build_unmatched.data(), 1, build.count, context.stream()));
  pairs = probe_join_table(table, probe, probe_outer, context, build_outer ? build_unmatched.as<uint8_t>() : nullptr,
                           build_outer ? build.count : 0);
  if (!build_right) std::swap(pairs.left, pairs.right);
  if (build_outer) append_unmatched(pairs, build_unmatched, build.count, build_right, context);
  // Ordered by (right, left) when the left side was built: a stable sort by
  // left position makes it (left, right).
  if (!build_right && pairs.count > 0)
    sort_pairs_u32(pairs.left, pairs.right, pairs.count, bits_for(left.count - 1), context);
  return pairs;
}

JoinTable build_join_table(const KeyView& keys, DeviceContext& context) {
  JoinTable out;
  out.keys = keys;
  const std::size_t count = keys.count;
  if (count == 0) return out;  // probe_join_table() finds nothing in it
  DeviceBuffer slots(context, count * sizeof(uint32_t));
  out.table = build_hash_table(keys, true, slots.as<uint32_t>(), nullptr, context);
  out.positions = DeviceBuffer(context, count * sizeof(uint32_t));
  sequence(0, count, out.positions.as<uint32_t>(), context);
  const uint64_t left_out = out.table.left_out();  // slots below it have runs (keyed: `capacity` too)
  sort_pairs_u32(slots, out.positions, count, bits_for(left_out), context);
  out.run_begin = DeviceBuffer(context, left_out * sizeof(uint32_t));
  out.run_end = DeviceBuffer(context, left_out * sizeof(uint32_t));
  if (out.table.keyed) {  // the reserved slot's run: empty unless a build row has it
    GPUSQL_CUDA_TRY(
        cudaMemsetAsync(out.run_begin.as<uint32_t>() + out.table.capacity, 0, sizeof(uint32_t), context.stream()));
    GPUSQL_CUDA_TRY(
        cudaMemsetAsync(out.run_end.as<uint32_t>() + out.table.capacity, 0, sizeof(uint32_t), context.stream()));
  }
  slot_runs_kernel<<<blocks_for(count, context), kThreads, 0, context.stream()>>>(
      slots.as<uint32_t>(), count, left_out, out.run_begin.as<uint32_t>(), out.run_end.as<uint32_t>());
  GPUSQL_CHECK_LAUNCH();
  return out;
}

JoinPairs probe_join_table(const JoinTable& table, const KeyColumns& probe, bool probe_outer, DeviceContext& context,
                           uint8_t* build_unmatched, std::size_t reserve_after) {
  if (probe.count >= kEmptySlot) throw Error(ErrorKind::NotSupported, "not supported yet: 2^32 or more rows");
  JoinPairs pairs;
  if (probe.count == 0) {
    pairs.left = DeviceBuffer(context, std::max<std::size_t>(1, reserve_after) * sizeof(uint32_t));
    pairs.right = DeviceBuffer(context, std::max<std::size_t>(1, reserve_after) * sizeof(uint32_t));
    return pairs;
  }
  if (table.keys.count == 0) {
    if (probe_outer) return unmatched_pairs(probe.count, true, context);  // every probe position, unmatched
    pairs.left = DeviceBuffer(context, sizeof(uint32_t));
    pairs.right = DeviceBuffer(context, sizeof(uint32_t));
    return pairs;
  }
  // Count, scan, write.
  DeviceBuffer match_slot(context, probe.count * sizeof(uint32_t)), offsets(context, probe.count * sizeof(uint64_t));
  const unsigned grid = blocks_for(probe.count, context);
  const bool keyed = table.table.keyed;
  auto probe_count = keyed ? (probe_outer ? probe_count_kernel<true, true> : probe_count_kernel<true, false>)
                           : (probe_outer ? probe_count_kernel<false, true> : probe_count_kernel<false, false>);
  probe_count<<<grid, kThreads, 0, context.stream()>>>(
      table.table.slots.data(), table.table.capacity - 1, table.keys, probe.view(), table.run_begin.as<uint32_t>(),
      table.run_end.as<uint32_t>(), match_slot.as<uint32_t>(), offsets.as<uint64_t>());
  GPUSQL_CHECK_LAUNCH();
  const uint64_t total = exclusive_scan(offsets.as<uint64_t>(), probe.count, context);
  const uint64_t most = total + reserve_after;  // with room for the build side's unmatched rows
  if (most > kMaxJoinPairs)
    throw Error(ErrorKind::Execution, "a join would produce over 4 billion pairs (" + std::to_string(most) + ")");
  pairs.count = total;
  pairs.left = DeviceBuffer(context, std::max<uint64_t>(1, most) * sizeof(uint32_t));
  pairs.right = DeviceBuffer(context, std::max<uint64_t>(1, most) * sizeof(uint32_t));
  if (total == 0) return pairs;
  probe_write_kernel<<<grid, kThreads, 0, context.stream()>>>(
      match_slot.as<uint32_t>(), offsets.as<uint64_t>(), probe.count, table.run_begin.as<uint32_t>(),
      table.run_end.as<uint32_t>(), table.positions.as<uint32_t>(), probe_outer, pairs.left.as<uint32_t>(),
      pairs.right.as<uint32_t>(), build_unmatched);
  GPUSQL_CHECK_LAUNCH();
  return pairs;
}

void split_unmatched(uint32_t* d_right, std::size_t count, uint8_t* d_matched, DeviceContext& context) {
  if (count == 0) return;
  split_unmatched_kernel<<<blocks_for(count, context), kThreads, 0, context.stream()>>>(d_right, count, d_matched);
  GPUSQL_CHECK_LAUNCH();
}

}  // namespace gpusql::kernels
