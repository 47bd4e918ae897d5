#include "kernels/column_reduce.hpp"
#include "kernels/fast_predicate.cuh"
#include "kernels/launch.hpp"
#include "kernels/lean_ops.cuh"

#include <cstring>
#include <type_traits>

namespace gpusql::kernels {
namespace {

// The shape: a block is the canonical block of aggregate_state.hpp's order
// and takes one chunk of kReduceChunk rows at a time, grid-stride, with the
// next chunk's loads issued before this chunk's tree, so loads stay in
// flight through the barrier. The passes over the chunk states run at the
// kernel's end (the last-block pattern): a group is kReduceChunk chunk
// states, which each block counts off once it has written all of its own;
// the block whose count completes a group combines it, and the one that
// completes the groups combines those.
//
// Measured on SUM of 2^27 DOUBLEs (H100, 2026-11-23):
// - a stand-alone copy of this shape (bench/experiments/sum_shapes.cu):
//   the fold 349-353 us, with the two passes as kernels 355-356; CUB's
//   reduce 353.6-359.4 in the same runs; a warp a chunk (aggregate_rows()'
//   dense fold) 355-361. Counting off each chunk as it is written, instead
//   of once at the end, took 429 us: the fence before each count held back
//   the block's next loads.
// - this file's first form, which loaded the next chunk as int64 bits into
//   a second array: 408-420 us (ncu), 77 % of DRAM peak. Its SASS loaded
//   into other registers and copied them back at the loop's end, which
//   waited for the loads. The form here keeps the column's own type in the
//   loop, as the stand-alone copy does; it has not run on a GPU yet.
constexpr int kColumnBlocksPerSm = 3;  // stand-alone: 3 and 4 a multiprocessor best (349-353 us), 8: 368
constexpr uint64_t kMaxGroups = 1024;  // 2^32 rows: 2^21 chunks, 1024 groups
constexpr unsigned kFullMask = 0xffffffffu;

struct ColumnReduce {
  uint64_t count;          // rows
  uint64_t chunks;         // of kReduceChunk rows
  uint64_t groups;         // of kReduceChunk chunk states
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

// How many of the chunks below x block b takes under the grid-stride loop
// (those that are b mod grid).
__device__ __forceinline__ uint64_t owned_below(uint64_t x, uint64_t b, uint64_t grid) {
  return x > b ? (x - 1 - b) / grid + 1 : 0;
}

template <LeanOp OP, class T>
__global__ void __launch_bounds__(kReduceThreads, kColumnBlocksPerSm)
    column_reduce_kernel(const T* __restrict__ data, ColumnReduce r) {
  __shared__ int64_t ws[2][kReduceThreads / kWarp];
  __shared__ uint32_t completed[kMaxGroups / 32];
  __shared__ uint32_t last_flag;
  uint32_t error = 0;
  int p = 0;
  const uint64_t full_chunks = r.count / kReduceChunk;
  T v[kReduceItems];
  uint64_t chunk = blockIdx.x;
  if (chunk < full_chunks) load_chunk(data, chunk, v);
  for (; chunk < full_chunks; chunk += gridDim.x, p ^= 1) {
    int64_t s = thread_fold<OP, true>(v, kReduceChunk, error);
    if (chunk + gridDim.x < full_chunks) load_chunk(data, chunk + gridDim.x, v);
    s = block_tree<OP, true>(s, kReduceChunk, ws[p], error);
    if (threadIdx.x == 0) r.chunk_states[chunk] = s;
  }
  if (chunk < r.chunks) {  // the last chunk, part full: its block is the next in turn
    const uint64_t base = chunk * kReduceChunk;
    const uint32_t present = static_cast<uint32_t>(r.count - base);
#pragma unroll
    for (int k = 0; k < kReduceItems; ++k) {
      const uint32_t i = static_cast<uint32_t>(k * kReduceThreads) + threadIdx.x;
      v[k] = i < present ? data[base + i] : T{};
    }
    const int64_t s = chunk_tree<OP>(v, present, ws[p], error);
    if (threadIdx.x == 0) r.chunk_states[chunk] = s;
    p ^= 1;
  }

  // Count off this block's chunks in each group; a completed group's bit.
  for (uint32_t i = threadIdx.x; i < kMaxGroups / 32; i += kReduceThreads) completed[i] = 0;
  __syncthreads();
  __threadfence();  // thread 0's chunk states before any count of them
  for (uint64_t g = threadIdx.x; g < r.groups; g += kReduceThreads) {
    const uint64_t lo = g * kReduceChunk, hi = min(r.chunks, lo + kReduceChunk);
    const uint32_t mine = static_cast<uint32_t>(owned_below(hi, blockIdx.x, gridDim.x) -
                                                owned_below(lo, blockIdx.x, gridDim.x));
    if (mine == 0) continue;
    const uint32_t before = atomicAdd(&r.arrivals[g], mine);
    if (before + mine == hi - lo) {
      r.arrivals[g] = 0;  // no other block counts this group again
      atomicOr(&completed[g / 32], 1u << (g % 32));
    }
  }
  __syncthreads();
  int64_t states[kReduceItems];  // state bits: widen() leaves them as they are
  for (uint64_t g = 0; g < r.groups; ++g) {
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
void launch(const void* data, const ColumnReduce& r, DeviceContext& context) {
  const unsigned grid = grid_for(r.chunks, context, kColumnBlocksPerSm);
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
  r.error_word = d_error;
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
  out = AggState{};
  out.count = count;
  if (real) std::memcpy(&out.d, &bits, sizeof bits);
  else out.i = bits;
  return true;
}

}  // namespace gpusql::kernels
