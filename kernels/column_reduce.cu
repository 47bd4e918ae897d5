#include "kernels/column_reduce.hpp"
#include "kernels/fast_predicate.cuh"
#include "kernels/launch.hpp"
#include "kernels/lean_ops.cuh"

#include <cstring>
#include <optional>
#include <type_traits>

namespace gpusql::kernels {
namespace {

// The shape: a block is the canonical block of aggregate_state.hpp's order
// and takes one chunk of kReduceChunk rows at a time from its own run of
// consecutive chunks (an even share), with the next chunk's loads issued
// before this chunk's tree, so loads stay in flight through the barrier.
// The passes over the chunk states run at the kernel's end (the last-block
// pattern): a group is kReduceChunk chunk states, which each block counts
// off once it has written all of its own; the block whose count completes a
// group combines it, and the one that completes the groups combines those.
//
// Measured on SUM of 2^27 DOUBLEs (H100, 2026-11-23; stand-alone copies in
// bench/experiments/sum_shapes.cu and column_shapes.cu; CUB 353.6-359.4 us):
// - the fold alone, grid-stride or even share, 3 or 4 blocks a
//   multiprocessor: 348-353 us. A warp a chunk (aggregate_rows()' dense
//   fold): 355-361.
// - counting off each chunk as it is written, instead of once at the end:
//   429 us; the fence before each count held back the block's next loads.
// - grid-stride with the count at the end: 415 us. Every block held chunks
//   of every group, so the last block to finish completed all 32 groups and
//   combined them one after another (the count itself cost 2 us). With an
//   even share a group's chunks belong to a dozen blocks, and the groups are
//   combined by different blocks at once.
// - one register set loaded and folded in the same step: ptxas loaded into
//   other registers and copied them back at the loop's end; two sets,
//   unrolled twice, need no copies.
constexpr int kColumnBlocksPerSm = 3;  // stand-alone: 3 and 4 a multiprocessor best (349-353 us), 8: 368
constexpr uint64_t kMaxGroups = 1024;  // 2^32 rows: 2^21 chunks, 1024 groups
constexpr unsigned kFullMask = 0xffffffffu;

struct ColumnReduce {
  uint64_t count;          // rows
  uint64_t chunks;         // of kReduceChunk rows
  uint64_t groups;         // of kReduceChunk chunk states
  uint64_t per_block;      // chunks each block takes; the first `extra` take one more
  uint64_t extra;
  int64_t* chunk_states;   // [chunks]
  int64_t* group_states;   // [groups]
  uint32_t* arrivals;      // [groups + 1]: zero before, left zero
  int64_t* result;         // the final state's bits
  uint32_t* error_word;
};

template <class T>
__device__ __forceinline__ int64_t widen(T v) {
  if constexpr (std::is_floating_point_v<T>) return as_bits(static_cast<double>(v));
  else return static_cast<int64_t>(v);
}

// The canonical order over one chunk whose first `present` positions hold
// values (a prefix; all of them when FULL): item k of thread t is position
// k * 256 + t. thread_fold(): thread t folds its items in order.
// block_tree(): lane i then takes in lane i + o's state for o = 16 .. 1 when
// that lane holds any, and warp 0 does the same over the 8 warps' states
// (lean_warp_tree()'s order, empty states skipped); every thread calls it,
// the result is in thread 0. `ws`: 8 words of shared memory no other call
// uses before this one's barrier has passed again (the caller alternates
// two). Two functions, so the main loop can load the next chunk into the
// registers the fold has just read, before the tree.
template <LeanOp OP, bool FULL, class T>
__device__ __forceinline__ int64_t thread_fold(const T (&v)[kReduceItems], uint32_t present, uint32_t& error) {
  int64_t s = widen(v[0]);
#pragma unroll
  for (int k = 1; k < kReduceItems; ++k)
    if (FULL || static_cast<uint32_t>(k * kReduceThreads) + threadIdx.x < present)
      s = live_combine<OP>(s, widen(v[k]), error);
  return s;
}

template <LeanOp OP, bool FULL>
__device__ __forceinline__ int64_t block_tree(int64_t s, uint32_t present, int64_t* ws, uint32_t& error) {
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
#pragma unroll
  for (int o = kWarp / 2; o > 0; o /= 2) {
    const int64_t other = __shfl_down_sync(kFullMask, static_cast<long long>(s), o);
    if (lane < o && (FULL || threadIdx.x + o < present)) s = live_combine<OP>(s, other, error);
  }
  if (lane == 0) ws[warp] = s;
  __syncthreads();
  if (warp == 0) {
    constexpr int kWarps = kReduceThreads / kWarp;
    s = ws[lane % kWarps];
#pragma unroll
    for (int o = kWarps / 2; o > 0; o /= 2) {
      const int64_t other = __shfl_down_sync(kFullMask, static_cast<long long>(s), o);
      if (lane < o && (FULL || static_cast<uint32_t>((lane + o) * kWarp) < present))
        s = live_combine<OP>(s, other, error);
    }
  }
  return s;
}

// Both, for a chunk that is not part of the main loop.
template <LeanOp OP, class T>
__device__ __forceinline__ int64_t chunk_tree(const T (&v)[kReduceItems], uint32_t present, int64_t* ws,
                                              uint32_t& error) {
  return block_tree<OP, false>(thread_fold<OP, false>(v, present, error), present, ws, error);
}

template <class T>
__device__ __forceinline__ void load_chunk(const T* __restrict__ data, uint64_t chunk, T (&v)[kReduceItems]) {
#pragma unroll
  for (int k = 0; k < kReduceItems; ++k) v[k] = __ldg(data + chunk * kReduceChunk + k * kReduceThreads + threadIdx.x);
}

// One chunk of the main loop: fold `v`, issue the loads of the next chunk
// (if it is below `stop`) into `next`, then the tree, while they are in
// flight.
template <LeanOp OP, class T>
__device__ __forceinline__ void full_chunk(const T* __restrict__ data, uint64_t chunk, uint64_t stop,
                                           const T (&v)[kReduceItems], T (&next)[kReduceItems], int64_t* ws,
                                           int64_t* chunk_states, uint32_t& error) {
  int64_t s = thread_fold<OP, true>(v, kReduceChunk, error);
  if (chunk + 1 < stop) load_chunk(data, chunk + 1, next);
  s = block_tree<OP, true>(s, kReduceChunk, ws, error);
  if (threadIdx.x == 0) chunk_states[chunk] = s;
}

template <LeanOp OP, class T>
__global__ void __launch_bounds__(kReduceThreads, kColumnBlocksPerSm)
    column_reduce_kernel(const T* __restrict__ data, ColumnReduce r) {
  __shared__ int64_t ws[2][kReduceThreads / kWarp];
  __shared__ uint32_t completed[kMaxGroups / 32];
  __shared__ uint32_t last_flag;
  uint32_t error = 0;
  int p = 0;  // which half of ws the next tree uses
  // This block's chunks: [begin, end), never empty (the grid is at most the
  // chunks); those below full_end hold kReduceChunk rows.
  const uint64_t begin = blockIdx.x * r.per_block + min(static_cast<uint64_t>(blockIdx.x), r.extra);
  const uint64_t end = begin + r.per_block + (blockIdx.x < r.extra ? 1 : 0);
  const uint64_t full_end = min(end, r.count / kReduceChunk);
  // Two register sets, unrolled twice, so each step loads into the set the
  // other step folds (see above).
  T a[kReduceItems], b[kReduceItems];
  uint64_t chunk = begin;
  if (chunk < full_end) load_chunk(data, chunk, a);
  while (chunk < full_end) {
    full_chunk<OP>(data, chunk, full_end, a, b, ws[0], r.chunk_states, error);
    if (++chunk >= full_end) {
      p = 1;
      break;
    }
    full_chunk<OP>(data, chunk, full_end, b, a, ws[1], r.chunk_states, error);
    ++chunk;
  }
  if (chunk < end) {  // the last chunk, part full: the last block's
    const uint64_t base = chunk * kReduceChunk;
    const uint32_t present = static_cast<uint32_t>(r.count - base);
#pragma unroll
    for (int k = 0; k < kReduceItems; ++k) {
      const uint32_t i = static_cast<uint32_t>(k * kReduceThreads) + threadIdx.x;
      a[k] = i < present ? data[base + i] : T{};
    }
    const int64_t s = chunk_tree<OP>(a, present, ws[p], error);
    if (threadIdx.x == 0) r.chunk_states[chunk] = s;
    p ^= 1;
  }

  // Count off this block's chunks in each group they fall in (one or a few:
  // a block's chunks are consecutive); a completed group's bit.
  for (uint32_t i = threadIdx.x; i < kMaxGroups / 32; i += kReduceThreads) completed[i] = 0;
  __syncthreads();
  __threadfence();  // thread 0's chunk states before any count of them
  const uint64_t first_group = begin / kReduceChunk, last_group = (end - 1) / kReduceChunk;
  for (uint64_t g = first_group + threadIdx.x; g <= last_group; g += kReduceThreads) {
    const uint64_t lo = g * kReduceChunk, hi = min(r.chunks, lo + kReduceChunk);
    const uint32_t mine = static_cast<uint32_t>(min(end, hi) - max(begin, lo));
    const uint32_t before = atomicAdd(&r.arrivals[g], mine);
    if (before + mine == hi - lo) {
      r.arrivals[g] = 0;  // no other block counts this group again
      atomicOr(&completed[g / 32], 1u << (g % 32));
    }
  }
  __syncthreads();
  int64_t states[kReduceItems];  // state bits: widen() leaves them as they are
  for (uint64_t g = first_group; g <= last_group; ++g) {
    if (!((completed[g / 32] >> (g % 32)) & 1u)) continue;  // the same for every thread
    __threadfence();  // the other blocks' chunk states, after their counts
    const uint64_t lo = g * kReduceChunk;
    const uint32_t present = static_cast<uint32_t>(min(r.chunks, lo + kReduceChunk) - lo);
#pragma unroll
    for (int k = 0; k < kReduceItems; ++k) {
      const uint32_t i = static_cast<uint32_t>(k * kReduceThreads) + threadIdx.x;
      states[k] = i < present ? __ldcg(r.chunk_states + lo + i) : 0;
    }
    int64_t s = chunk_tree<OP>(states, present, ws[p], error);
    p ^= 1;
    if (r.groups == 1) {
      if (threadIdx.x == 0) *r.result = s;
      break;
    }
    if (threadIdx.x == 0) {
      r.group_states[g] = s;
      __threadfence();
      last_flag = atomicAdd(&r.arrivals[r.groups], 1u) == r.groups - 1;
      if (last_flag) r.arrivals[r.groups] = 0;
    }
    __syncthreads();
    if (last_flag) {  // every group's state is written: the final tree
      __threadfence();
#pragma unroll
      for (int k = 0; k < kReduceItems; ++k) {
        const uint32_t i = static_cast<uint32_t>(k * kReduceThreads) + threadIdx.x;
        states[k] = i < r.groups ? __ldcg(r.group_states + i) : 0;
      }
      s = chunk_tree<OP>(states, static_cast<uint32_t>(r.groups), ws[p], error);
      p ^= 1;
      if (threadIdx.x == 0) *r.result = s;
    }
  }
  if (error) atomicOr(r.error_word, error);
}

template <LeanOp OP, class T>
void launch(const void* data, ColumnReduce r, DeviceContext& context) {
  const unsigned grid = grid_for(r.chunks, context, kColumnBlocksPerSm);
  r.per_block = r.chunks / grid;
  r.extra = r.chunks % grid;
  column_reduce_kernel<OP, T><<<grid, kReduceThreads, 0, context.stream()>>>(static_cast<const T*>(data), r);
  GPUSQL_CHECK_LAUNCH();
}

// The launch for the op of `spec`: Int or Real, the column's C++ type.
template <class Int, class Real>
void dispatch(AggKind kind, bool real, const void* data, const ColumnReduce& r, DeviceContext& context) {
  switch (kind) {
    case AggKind::Min:
      real ? launch<LeanOp::MinDouble, Real>(data, r, context) : launch<LeanOp::MinInt, Int>(data, r, context);
      break;
    case AggKind::Max:
      real ? launch<LeanOp::MaxDouble, Real>(data, r, context) : launch<LeanOp::MaxInt, Int>(data, r, context);
      break;
    default:  // SUM, and AVG of REALs and DOUBLEs (takes())
      real ? launch<LeanOp::SumDouble, Real>(data, r, context) : launch<LeanOp::SumInt, Int>(data, r, context);
      break;
  }
}

// Whether this path takes `spec` over `column`. AVG of integers needs the
// wide sums of agg_combine(), which a 64-bit state has no room for.
bool takes(const AggSpec& spec, const ColumnPointer& column, std::size_t count) {
  if (count == 0 || count > (uint64_t{1} << 32) || !plain_column(column) || column.validity || column.rows)
    return false;
  if (spec.kind != AggKind::Sum && spec.kind != AggKind::Min && spec.kind != AggKind::Max &&
      spec.kind != AggKind::Avg)
    return false;
  if (spec.kind == AggKind::Avg && spec.cls != Cls::Double) return false;
  // The state's class follows the column's, as make_lean() asks.
  if (is_double_type(column.type) != (spec.cls == Cls::Double)) return false;
  switch (column.type) {
    case Type::Integer:
    case Type::Date:
    case Type::BigInt:
    case Type::Decimal:
    case Type::Real:
    case Type::Double: return true;
    default: return false;
  }
}

}  // namespace

bool reduce_column(const AggSpec& spec, const ColumnPointer& column, std::size_t count, uint32_t* d_error,
                   DeviceContext& context, AggState& out) {
  if (!takes(spec, column, count)) return false;
  ColumnReduce r{};
  r.count = count;
  r.chunks = (count + kReduceChunk - 1) / kReduceChunk;
  r.groups = (r.chunks + kReduceChunk - 1) / kReduceChunk;
  // A SUM of 64-bit integers may overflow a 64-bit state part way and still
  // end inside the range: such a sum reports into a word of its own and,
  // when it did, leaves the total to aggregate_rows()' exact sums (of at
  // most 2^32 4-byte values, every partial total fits).
  const bool may_overflow = spec.cls != Cls::Double && spec.kind == AggKind::Sum && storage_bytes(column.type) > 4;
  std::optional<OwnErrorWord> own;
  if (may_overflow) own.emplace(context);
  r.error_word = may_overflow ? own->get() : d_error;
  r.arrivals = context.arrival_counters(r.groups + 1);
  DeviceBuffer states(context, (r.chunks + r.groups) * sizeof(int64_t));
  r.chunk_states = states.as<int64_t>();
  r.group_states = r.chunk_states + r.chunks;
  int64_t* mapped = static_cast<int64_t*>(context.mapped_result(sizeof(int64_t)));
  DeviceBuffer fallback(context, mapped ? 0 : sizeof(int64_t));
  r.result = mapped ? mapped : fallback.as<int64_t>();
  const bool real = spec.cls == Cls::Double;
  if (storage_bytes(column.type) == 4) dispatch<int32_t, float>(spec.kind, real, column.data, r, context);
  else dispatch<int64_t, double>(spec.kind, real, column.data, r, context);
  int64_t bits = 0;
  if (mapped) {
    context.synchronize();
    bits = *static_cast<volatile int64_t*>(mapped);
  } else {
    context.copy_to_host(&bits, r.result, sizeof bits);
  }
  if (may_overflow && own->read(context) != 0) return false;
  out = AggState{};
  out.count = count;
  if (real) std::memcpy(&out.d, &bits, sizeof bits);
  else out.i = bits;
  return true;
}

}  // namespace gpusql::kernels
