#include "kernels/aggregate.hpp"
#include "kernels/column_reduce.hpp"
#include "kernels/fast_predicate.cuh"
#include "kernels/lean_ops.cuh"
#include "kernels/launch.hpp"

#include <optional>

namespace gpusql::kernels {
namespace {

struct AggregateParams {
  ExprProgram predicate;
  AggSpec specs[kMaxAggregates];
  int32_t spec_count;
};

__device__ __forceinline__ AggState shuffle_down(const AggState& s, int offset) {
  AggState r;
  r.i = __shfl_down_sync(0xffffffffu, s.i, offset);
  r.d = __shfl_down_sync(0xffffffffu, s.d, offset);
  r.count = __shfl_down_sync(0xffffffffu, s.count, offset);
  r.position = __shfl_down_sync(0xffffffffu, s.position, offset);
  return r;
}

// The tree of warp_tree_host(): lane i combines with lane i + offset. Only
// lanes below `offset` combine: the others would fold their own state in
// again, which lane 0 never reads but which could raise a false overflow.
__device__ __forceinline__ AggState warp_tree(AggKind kind, Cls cls, AggState s, uint32_t& error) {
  const int lane = threadIdx.x % kWarp;
#pragma unroll
  for (int offset = kWarp / 2; offset > 0; offset /= 2) {
    AggState other = shuffle_down(s, offset);
    if (lane < offset) s = agg_combine(kind, cls, s, other, error);
  }
  return s;
}

// block_tree_host() on the device; the result is valid in thread 0.
__device__ __forceinline__ AggState block_tree(AggKind kind, Cls cls, AggState s, AggState* warp_states,
                                               uint32_t& error) {
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  s = warp_tree(kind, cls, s, error);
  if (lane == 0) warp_states[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = lane < kReduceThreads / kWarp ? warp_states[lane] : AggState{};
    s = warp_tree(kind, cls, s, error);
  }
  __syncthreads();  // warp_states is reused by the next aggregate
  return s;
}

// Pass 1: one chunk of kReduceChunk positions per iteration; thread t folds
// positions chunk + k*256 + t for k = 0..7, as the host does. AGGREGATES is
// a compile-time count so each thread's states live in registers. FAST: the
// predicate is `fast`, whose terms load all of a thread's items at once
// (TPC-H Q6: the filter is 98 % of the rows read, the 128-bit product of
// the sum is evaluated on the 2 % it keeps); else the program's.
// AGGREGATES is 1, 2, 4 or 8, at least params.spec_count: the kernels for
// the counts between them would cost compile time (each inlines the fold
// of every aggregate twice) for no speed that shows.
template <int AGGREGATES, bool FAST>
__global__ void __launch_bounds__(kReduceThreads)
    fold_rows_kernel(FastPredicate fast, const AggregateParams* __restrict__ parameters,
                     const ColumnSet* __restrict__ column_set, const uint32_t* __restrict__ selection,
                     uint64_t count, uint64_t chunks, AggState* __restrict__ partials, uint32_t* __restrict__ error_word) {
  __shared__ AggState warp_states[kReduceThreads / kWarp];
  const AggregateParams& params = *parameters;
  const ColumnSet& columns = *column_set;
  const int aggregates = params.spec_count;
  uint32_t error = 0;
  for (uint64_t chunk = blockIdx.x; chunk < chunks; chunk += gridDim.x) {
    AggState states[AGGREGATES];
#pragma unroll
    for (int a = 0; a < AGGREGATES; ++a) states[a] = AggState{};
    uint32_t live = 0;
    if constexpr (FAST) live = fast_predicate_flags<kReduceThreads, kReduceItems>(fast, selection, chunk * kReduceChunk, count);
#pragma unroll 2
    for (int k = 0; k < kReduceItems; ++k) {
      uint64_t position = chunk * kReduceChunk + static_cast<uint64_t>(k) * kReduceThreads + threadIdx.x;
      if (position >= count) break;
      int64_t row = selection ? selection[position] : static_cast<int64_t>(position);
      if constexpr (FAST) {
        if (!((live >> k) & 1u)) continue;
      } else if (!evaluate_predicate(params.predicate, columns, row, error)) {
        continue;
      }
#pragma unroll
      for (int a = 0; a < AGGREGATES; ++a) {
        if (a >= aggregates) break;
        const AggSpec& spec = params.specs[a];
        Slot v{};
        if (spec.kind != AggKind::CountStar) v = evaluate(spec.arg, columns, row, error);
        agg_fold_value(spec.kind, spec.cls, states[a], v, error, row);
      }
    }
#pragma unroll
    for (int a = 0; a < AGGREGATES; ++a) {
      if (a >= aggregates) break;
      AggState total = block_tree(params.specs[a].kind, params.specs[a].cls, states[a], warp_states, error);
      if (threadIdx.x == 0) partials[a * chunks + chunk] = total;
    }
  }
  if (error) atomicOr(error_word, error);
}

// What the passes over chunk states need of each aggregate.
struct AggKinds {
  AggKind kind[kMaxAggregates];
  Cls cls[kMaxAggregates];
  int32_t count;
};

// Pass 2..n: the same scheme over chunk states, combining instead of folding.
__global__ void __launch_bounds__(kReduceThreads)
    combine_partials_kernel(AggKinds kinds, const AggState* __restrict__ in, uint64_t count,
                            AggState* __restrict__ out, uint64_t chunks, uint32_t* __restrict__ error_word) {
  __shared__ AggState warp_states[kReduceThreads / kWarp];
  uint32_t error = 0;
  for (uint64_t chunk = blockIdx.x; chunk < chunks; chunk += gridDim.x) {
    for (int a = 0; a < kinds.count; ++a) {
      const AggKind kind = kinds.kind[a];
      const Cls cls = kinds.cls[a];
      // All 8 states loaded before the first combine: agg_combine() branches
      // on the kind, which kept the loads one round trip apart (9 us for
      // the 65536 chunk states of 2^27 values, H100).
      AggState items[kReduceItems];
#pragma unroll
      for (int k = 0; k < kReduceItems; ++k) {
        const uint64_t position = chunk * kReduceChunk + static_cast<uint64_t>(k) * kReduceThreads + threadIdx.x;
        items[k] = position < count ? in[a * count + position] : AggState{};
      }
      AggState s{};
#pragma unroll
      for (int k = 0; k < kReduceItems; ++k) {
        const uint64_t position = chunk * kReduceChunk + static_cast<uint64_t>(k) * kReduceThreads + threadIdx.x;
        if (position < count) s = agg_combine(kind, cls, s, items[k], error);
      }
      AggState total = block_tree(kind, cls, s, warp_states, error);
      if (threadIdx.x == 0) out[a * chunks + chunk] = total;
    }
  }
  if (error) atomicOr(error_word, error);
}

// ---- the lean path: COUNT(*), and COUNT/SUM/MIN/MAX/AVG of a plain column ----
//
// The same order as above, but a thread's state is one 64-bit value (int64
// or double bits) and a count, the column is read by typed loads issued
// all at once, and there is no interpreter. AggState appears only per chunk.
// AVG of a BIGINT or DECIMAL column takes the general path (make_lean()).

struct LeanAggregate {
  const void* data = nullptr;
  const uint32_t* validity = nullptr;
  const uint32_t* rows = nullptr;
  Type type = Type::Integer;
  LeanOp op = LeanOp::CountStar;
};

struct LeanAggregates {
  LeanAggregate aggregates[kMaxAggregates];
  int32_t count = 0;
};

// count == 0: the empty state; then bits == 0, as AggState{} has i == 0, d == 0.0.
struct LeanState {
  int64_t bits;
  uint32_t count;
};

// agg_combine() for the lean ops.
__device__ __forceinline__ LeanState lean_combine(LeanOp op, LeanState a, LeanState b, uint32_t& error) {
  if (a.count == 0) return b;
  if (b.count == 0) return a;
  LeanState r{a.bits, a.count + b.count};
  switch (op) {
    case LeanOp::SumInt: r.bits = live_combine<LeanOp::SumInt>(a.bits, b.bits, error); break;
    case LeanOp::SumDouble: r.bits = live_combine<LeanOp::SumDouble>(a.bits, b.bits, error); break;
    case LeanOp::MinInt: r.bits = live_combine<LeanOp::MinInt>(a.bits, b.bits, error); break;
    case LeanOp::MinDouble: r.bits = live_combine<LeanOp::MinDouble>(a.bits, b.bits, error); break;
    case LeanOp::MaxInt: r.bits = live_combine<LeanOp::MaxInt>(a.bits, b.bits, error); break;
    case LeanOp::MaxDouble: r.bits = live_combine<LeanOp::MaxDouble>(a.bits, b.bits, error); break;
    default: break;  // COUNT, COUNT(*): the counts alone
  }
  return r;
}

__device__ __forceinline__ LeanState lean_warp_tree(LeanOp op, LeanState s, uint32_t& error) {
  const int lane = threadIdx.x % kWarp;
#pragma unroll
  for (int offset = kWarp / 2; offset > 0; offset /= 2) {
    LeanState other{static_cast<int64_t>(__shfl_down_sync(0xffffffffu, static_cast<long long>(s.bits), offset)),
                    __shfl_down_sync(0xffffffffu, s.count, offset)};
    if (lane < offset) s = lean_combine(op, s, other, error);
  }
  return s;
}

// The values of the thread's live items (bit k of `live`), as int64 or as
// double bits by the column's class; clears the bits of NULL rows.
template <class T>
__device__ __forceinline__ void lean_load(const LeanAggregate& a, const uint32_t* __restrict__ selection,
                                          uint64_t base, uint32_t& live, int64_t (&values)[kReduceItems]) {
  const T* __restrict__ data = static_cast<const T*>(a.data);
  uint32_t valid = live;
#pragma unroll
  for (int k = 0; k < kReduceItems; ++k) {
    const bool on = (live >> k) & 1u;
    uint64_t position = base + static_cast<uint64_t>(k) * kReduceThreads + threadIdx.x;
    uint32_t row = static_cast<uint32_t>(position);
    if (selection && on) row = selection[position];
    if (a.rows && on) row = a.rows[row];
    T v = on ? __ldg(data + row) : T{};
    if constexpr (std::is_floating_point_v<T>) values[k] = as_bits(static_cast<double>(v));
    else values[k] = static_cast<int64_t>(v);
    if (a.validity && on && !row_is_valid(a.validity, row)) valid &= ~(1u << k);
  }
  live = valid;
}

// agg_fold_value() over the thread's items k = 0..7, in order.
__device__ __forceinline__ LeanState lean_fold(const LeanAggregate& a, const uint32_t* __restrict__ selection,
                                               uint64_t base, uint32_t live, uint32_t& error) {
  LeanState s{0, 0};
  if (a.op == LeanOp::CountStar) {
    s.count = __popc(live);
    return s;
  }
  int64_t values[kReduceItems];
  switch (a.type) {
    case Type::Boolean: lean_load<uint8_t>(a, selection, base, live, values); break;
    case Type::Integer:
    case Type::Date: lean_load<int32_t>(a, selection, base, live, values); break;
    case Type::Varchar: lean_load<uint32_t>(a, selection, base, live, values); break;
    case Type::BigInt:
    case Type::Decimal: lean_load<int64_t>(a, selection, base, live, values); break;
    case Type::Real: lean_load<float>(a, selection, base, live, values); break;
    case Type::Double: lean_load<double>(a, selection, base, live, values); break;
  }
  if (a.op == LeanOp::Count) {
    s.count = __popc(live);
    return s;
  }
#pragma unroll
  for (int k = 0; k < kReduceItems; ++k) {
    if (!((live >> k) & 1u)) continue;
    const int64_t v = values[k];
    const bool first = s.count == 0;
    ++s.count;
    switch (a.op) {
      case LeanOp::SumInt: {
        uint32_t e = 0;
        s.bits = first ? v : checked_add(s.bits, v, e);
        if (e) error |= kEvalSumOverflow;
        break;
      }
      case LeanOp::SumDouble: s.bits = first ? v : as_bits(as_double(s.bits) + as_double(v)); break;
      case LeanOp::MinInt: s.bits = (first || v < s.bits) ? v : s.bits; break;
      case LeanOp::MinDouble: s.bits = (first || as_double(v) < as_double(s.bits)) ? v : s.bits; break;
      case LeanOp::MaxInt: s.bits = (first || v > s.bits) ? v : s.bits; break;
      case LeanOp::MaxDouble: s.bits = (first || as_double(v) > as_double(s.bits)) ? v : s.bits; break;
      default: break;
    }
  }
  return s;
}

__device__ __forceinline__ AggState to_agg_state(LeanOp op, LeanState s) {
  AggState r;
  r.count = s.count;
  switch (op) {
    case LeanOp::SumInt:
    case LeanOp::MinInt:
    case LeanOp::MaxInt: r.i = s.bits; break;
    case LeanOp::SumDouble:
    case LeanOp::MinDouble:
    case LeanOp::MaxDouble: r.d = as_double(s.bits); break;
    default: break;
  }
  return r;
}

// Pass 1 of the lean path: one chunk of kReduceChunk positions per
// iteration. Each aggregate's thread states reduce by warp shuffles right
// away; the warps' states wait in shared memory, and warp a finishes
// aggregate a's block tree.
template <bool GENERAL_PREDICATE>
__global__ void __launch_bounds__(kReduceThreads)
    lean_fold_kernel(FastPredicate fast, const ExprProgram* __restrict__ program,
                     const ColumnSet* __restrict__ columns, LeanAggregates aggregates,
                     const uint32_t* __restrict__ selection, uint64_t count, uint64_t chunks,
                     AggState* __restrict__ partials, uint32_t* __restrict__ error_word) {
  constexpr int WARPS = kReduceThreads / kWarp;
  __shared__ LeanState warp_states[kMaxAggregates * WARPS];
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  uint32_t error = 0;
  for (uint64_t chunk = blockIdx.x; chunk < chunks; chunk += gridDim.x) {
    const uint64_t base = chunk * kReduceChunk;
    // The block's next chunk into L2 while it works on this one.
    if (chunk + gridDim.x < chunks && !selection) {
      const uint64_t begin = (chunk + gridDim.x) * kReduceChunk;
      const uint64_t end = count < begin + kReduceChunk ? count : begin + kReduceChunk;
      if constexpr (!GENERAL_PREDICATE) prefetch_predicate_l2(fast, selection, begin, end);
      for (int a = 0; a < aggregates.count; ++a) {
        const LeanAggregate& g = aggregates.aggregates[a];
        if (g.op != LeanOp::CountStar && !g.rows) prefetch_rows_l2(g.data, g.type, begin, end);
      }
    }
    uint32_t live;
    if constexpr (GENERAL_PREDICATE) {
      live = general_predicate_flags<kReduceThreads, kReduceItems>(*program, *columns, selection, base, count, error);
    } else {
      live = fast_predicate_flags<kReduceThreads, kReduceItems>(fast, selection, base, count);
    }
#pragma unroll 1
    for (int a = 0; a < aggregates.count; ++a) {
      const LeanOp op = aggregates.aggregates[a].op;
      LeanState s = lean_fold(aggregates.aggregates[a], selection, base, live, error);
      s = lean_warp_tree(op, s, error);
      if (lane == 0) warp_states[a * WARPS + warp] = s;
    }
    __syncthreads();
    if (warp < aggregates.count) {
      const LeanOp op = aggregates.aggregates[warp].op;
      LeanState s = lane < WARPS ? warp_states[warp * WARPS + lane] : LeanState{0, 0};
      s = lean_warp_tree(op, s, error);
      if (lane == 0) partials[warp * chunks + chunk] = to_agg_state(op, s);
    }
    __syncthreads();  // warp_states is reused by the next chunk
  }
  if (error) atomicOr(error_word, error);
}

// ---- the dense path: the lean path where every position is its row ----
//
// No selection vector, every column (aggregated or compared) read at its own
// position, no interpreter. One warp folds a whole chunk, so no block-wide
// barrier stalls the loads: hardware lane l holds V consecutive canonical
// threads (t = V*l + j of a group of 32*V), reads their items k = 0..7 as
// one V-value vector each (16 bytes for DOUBLE with V = 2), and runs the
// canonical warp tree on them: shuffles over lanes for offsets >= V, in
// registers below. The 8 warp states of the chunk then meet in the block
// tree's order, again by shuffles. Same operations, same order, same bits
// as lean_fold_kernel.

constexpr int kDenseV = 2;                                 // canonical threads per lane
constexpr int kDenseGroup = kWarp / kDenseV;               // lanes per canonical warp
constexpr int kDenseSteps = kReduceThreads / (kWarp * kDenseV);  // lane groups per chunk
constexpr int kDenseBits = kReduceItems * kDenseV;         // flag bits per lane: k * V + j

// The V values of items (k, 0..V-1) at position p, p a multiple of V: one
// aligned vector load in a full chunk, guarded scalar loads past `count`.
template <bool FULL, class T>
__device__ __forceinline__ void dense_load(const T* __restrict__ data, uint64_t p, uint64_t count,
                                           T (&out)[kDenseV]) {
  constexpr int kBytes = kDenseV * static_cast<int>(sizeof(T));
  if constexpr (FULL) {
    if constexpr (kBytes == 16) {
      const uint4 w = __ldg(reinterpret_cast<const uint4*>(data + p));
      __builtin_memcpy(out, &w, 16);
    } else if constexpr (kBytes == 8) {
      const uint2 w = __ldg(reinterpret_cast<const uint2*>(data + p));
      __builtin_memcpy(out, &w, 8);
    } else if constexpr (kBytes == 4) {
      const unsigned w = __ldg(reinterpret_cast<const unsigned*>(data + p));
      __builtin_memcpy(out, &w, 4);
    } else {
      static_assert(kBytes == 2, "vector of 2..16 bytes");
      const unsigned short w = __ldg(reinterpret_cast<const unsigned short*>(data + p));
      __builtin_memcpy(out, &w, 2);
    }
  } else {
#pragma unroll
    for (int j = 0; j < kDenseV; ++j) out[j] = p + j < count ? __ldg(data + p + j) : T{};
  }
}

// Bits k*V + j of the lane's items whose rows are not NULL (validity may be
// null: all). V divides 32, so an item's V positions share a validity word.
__device__ __forceinline__ uint32_t dense_valid(const uint32_t* __restrict__ validity, uint64_t segment,
                                                uint32_t flags) {
  if (!validity) return flags;
  uint32_t valid = 0;
#pragma unroll
  for (int k = 0; k < kReduceItems; ++k) {
    const uint32_t mine = (flags >> (k * kDenseV)) & ((1u << kDenseV) - 1);
    if (!mine) continue;  // also keeps the read within the bitmap past `count`
    const uint64_t p = segment + static_cast<uint64_t>(k) * kReduceThreads;
    valid |= ((__ldg(validity + (p >> 5)) >> (p & 31)) & mine) << (k * kDenseV);
  }
  return valid;
}

// term_flags() for the lane's items.
template <class T, bool FULL>
__device__ __forceinline__ uint32_t dense_term_flags(const FastTerm& t, uint64_t segment, uint64_t count,
                                                     uint32_t flags) {
  const T* __restrict__ data = static_cast<const T*>(t.data);
  T values[kReduceItems][kDenseV];
#pragma unroll
  for (int k = 0; k < kReduceItems; ++k)
    dense_load<FULL>(data, segment + static_cast<uint64_t>(k) * kReduceThreads, count, values[k]);
  uint32_t valid = dense_valid(t.validity, segment, flags);
#pragma unroll
  for (int k = 0; k < kReduceItems; ++k)
#pragma unroll
    for (int j = 0; j < kDenseV; ++j) {
      int outcome;
      if constexpr (std::is_floating_point_v<T>) {
        double v = static_cast<double>(values[k][j]), c = t.value.d;
        outcome = (v != v || c != c) ? 3 : v < c ? 0 : v == c ? 1 : 2;
      } else {
        int64_t v = static_cast<int64_t>(values[k][j]), c = t.value.i;
        outcome = v < c ? 0 : v == c ? 1 : 2;
      }
      if (!((t.outcomes >> outcome) & 1u)) valid &= ~(1u << (k * kDenseV + j));
    }
  return valid;
}

// fast_predicate_flags() for the lane's items.
template <bool FULL>
__device__ __forceinline__ uint32_t dense_predicate_flags(const FastPredicate& p, uint64_t segment, uint64_t count,
                                                          uint32_t flags) {
  return clause_flags(p, flags, [&](const FastTerm& t, uint32_t f) {
    switch (t.type) {
      case Type::Boolean: return dense_term_flags<uint8_t, FULL>(t, segment, count, f);
      case Type::Integer:
      case Type::Date: return dense_term_flags<int32_t, FULL>(t, segment, count, f);
      case Type::Varchar: return dense_term_flags<uint32_t, FULL>(t, segment, count, f);
      case Type::BigInt:
      case Type::Decimal: return dense_term_flags<int64_t, FULL>(t, segment, count, f);
      case Type::Real: return dense_term_flags<float, FULL>(t, segment, count, f);
      default: return dense_term_flags<double, FULL>(t, segment, count, f);  // Double
    }
  });
}

// agg_fold_value() of the live items into each canonical thread's state,
// items k = 0..7 in order; OP fixed so no item pays for a switch. Values
// widen as lean_load() widens them: int64, or double bits.
template <LeanOp OP, class T>
__device__ __forceinline__ void dense_fold_values(const T (&raw)[kReduceItems][kDenseV], uint32_t live,
                                                  LeanState (&states)[kDenseV], uint32_t& error) {
#pragma unroll
  for (int k = 0; k < kReduceItems; ++k)
#pragma unroll
    for (int j = 0; j < kDenseV; ++j) {
      if (!((live >> (k * kDenseV + j)) & 1u)) continue;
      LeanState& s = states[j];
      int64_t v;
      if constexpr (std::is_floating_point_v<T>) v = as_bits(static_cast<double>(raw[k][j]));
      else v = static_cast<int64_t>(raw[k][j]);
      const bool first = s.count == 0;
      ++s.count;
      if constexpr (OP == LeanOp::SumInt) {
        uint32_t e = 0;
        s.bits = first ? v : checked_add(s.bits, v, e);
        if (e) error |= kEvalSumOverflow;
      } else if constexpr (OP == LeanOp::SumDouble) {
        s.bits = first ? v : as_bits(as_double(s.bits) + as_double(v));
      } else if constexpr (OP == LeanOp::MinInt) {
        s.bits = (first || v < s.bits) ? v : s.bits;
      } else if constexpr (OP == LeanOp::MinDouble) {
        s.bits = (first || as_double(v) < as_double(s.bits)) ? v : s.bits;
      } else if constexpr (OP == LeanOp::MaxInt) {
        s.bits = (first || v > s.bits) ? v : s.bits;
      } else {
        static_assert(OP == LeanOp::MaxDouble);
        s.bits = (first || as_double(v) > as_double(s.bits)) ? v : s.bits;
      }
    }
}

// lean_fold() for the lane's V canonical threads of one lane group.
template <class T, bool FULL>
__device__ __forceinline__ void dense_fold_column(const LeanAggregate& a, uint64_t segment, uint64_t count,
                                                  uint32_t live, LeanState (&states)[kDenseV], uint32_t& error) {
  const T* __restrict__ data = static_cast<const T*>(a.data);
  T raw[kReduceItems][kDenseV];
#pragma unroll
  for (int k = 0; k < kReduceItems; ++k)
    dense_load<FULL>(data, segment + static_cast<uint64_t>(k) * kReduceThreads, count, raw[k]);
  live = dense_valid(a.validity, segment, live);
  if constexpr (std::is_floating_point_v<T>) {
    switch (a.op) {
      case LeanOp::SumDouble: dense_fold_values<LeanOp::SumDouble>(raw, live, states, error); break;
      case LeanOp::MinDouble: dense_fold_values<LeanOp::MinDouble>(raw, live, states, error); break;
      case LeanOp::MaxDouble: dense_fold_values<LeanOp::MaxDouble>(raw, live, states, error); break;
      default: break;
    }
  } else {
    switch (a.op) {
      case LeanOp::SumInt: dense_fold_values<LeanOp::SumInt>(raw, live, states, error); break;
      case LeanOp::MinInt: dense_fold_values<LeanOp::MinInt>(raw, live, states, error); break;
      case LeanOp::MaxInt: dense_fold_values<LeanOp::MaxInt>(raw, live, states, error); break;
      default: break;
    }
  }
}

// The bits of canonical thread j's items.
__device__ __forceinline__ uint32_t thread_bits(uint32_t flags, int j) {
  uint32_t mask = 0;
#pragma unroll
  for (int k = 0; k < kReduceItems; ++k) mask |= 1u << (k * kDenseV + j);
  return flags & mask;
}

template <bool FULL>
__device__ __forceinline__ void dense_fold(const LeanAggregate& a, uint64_t segment, uint64_t count,
                                           uint32_t live, LeanState (&states)[kDenseV], uint32_t& error) {
#pragma unroll
  for (int j = 0; j < kDenseV; ++j) states[j] = LeanState{0, 0};
  if (a.op == LeanOp::CountStar || a.op == LeanOp::Count) {
    if (a.op == LeanOp::Count) live = dense_valid(a.validity, segment, live);
#pragma unroll
    for (int j = 0; j < kDenseV; ++j) states[j].count = __popc(thread_bits(live, j));
    return;
  }
  switch (a.type) {
    case Type::Boolean: dense_fold_column<uint8_t, FULL>(a, segment, count, live, states, error); break;
    case Type::Integer:
    case Type::Date: dense_fold_column<int32_t, FULL>(a, segment, count, live, states, error); break;
    case Type::Varchar: dense_fold_column<uint32_t, FULL>(a, segment, count, live, states, error); break;
    case Type::BigInt:
    case Type::Decimal: dense_fold_column<int64_t, FULL>(a, segment, count, live, states, error); break;
    case Type::Real: dense_fold_column<float, FULL>(a, segment, count, live, states, error); break;
    case Type::Double: dense_fold_column<double, FULL>(a, segment, count, live, states, error); break;
  }
}

// lean_warp_tree() over the 32 canonical threads that a group of
// kDenseGroup lanes holds; the result is in states[0] of the group's first lane.
__device__ __forceinline__ void dense_warp_tree(LeanOp op, LeanState (&states)[kDenseV], uint32_t& error) {
  const int in_group = threadIdx.x % kDenseGroup;
#pragma unroll
  for (int offset = kWarp / 2; offset >= kDenseV; offset /= 2) {
    const int lanes = offset / kDenseV;  // canonical lane i + offset is V*(l + lanes) + j
#pragma unroll
    for (int j = 0; j < kDenseV; ++j) {
      LeanState other{static_cast<int64_t>(__shfl_down_sync(0xffffffffu, static_cast<long long>(states[j].bits), lanes)),
                      __shfl_down_sync(0xffffffffu, states[j].count, lanes)};
      if (in_group < lanes) states[j] = lean_combine(op, states[j], other, error);
    }
  }
#pragma unroll
  for (int offset = kDenseV / 2; offset > 0; offset /= 2)
    if (in_group == 0)
#pragma unroll
      for (int j = 0; j < offset; ++j) states[j] = lean_combine(op, states[j], states[j + offset], error);
}

// ---- every item live: a full chunk, no WHERE, a column without NULLs ----
//
// The same folds and tree as dense_fold_values() and dense_warp_tree(), on
// the bits alone: every state holds items, so lean_combine()'s empty-state
// tests always fail and the counts are known (8 items a canonical thread,
// 256 a canonical warp). ncu on SUM of 2^27 DOUBLEs (H100): the general
// form issued 139 M warp instructions and took 377 us (85 % of DRAM peak),
// this one 70 M and 360 us (89 %); CUB's reduce issues 19 M, 347 us.

// The canonical warp state of the lane's group, in its first lane (as
// dense_fold() then dense_warp_tree() leave it).
template <LeanOp OP, class T>
__device__ __forceinline__ LeanState dense_live_warp(const T* __restrict__ data, uint64_t segment, uint32_t& error) {
  T raw[kReduceItems][kDenseV];
#pragma unroll
  for (int k = 0; k < kReduceItems; ++k)
    dense_load<true>(data, segment + static_cast<uint64_t>(k) * kReduceThreads, 0, raw[k]);
  auto widen = [](T v) -> int64_t {
    if constexpr (std::is_floating_point_v<T>) return as_bits(static_cast<double>(v));
    else return static_cast<int64_t>(v);
  };
  int64_t s[kDenseV];
#pragma unroll
  for (int j = 0; j < kDenseV; ++j) {
    s[j] = widen(raw[0][j]);
#pragma unroll
    for (int k = 1; k < kReduceItems; ++k) s[j] = live_combine<OP>(s[j], widen(raw[k][j]), error);
  }
  const int in_group = threadIdx.x % kDenseGroup;
#pragma unroll
  for (int offset = kWarp / 2; offset >= kDenseV; offset /= 2) {
    const int lanes = offset / kDenseV;
#pragma unroll
    for (int j = 0; j < kDenseV; ++j) {
      const int64_t other = __shfl_down_sync(0xffffffffu, static_cast<long long>(s[j]), lanes);
      if (in_group < lanes) s[j] = live_combine<OP>(s[j], other, error);
    }
  }
#pragma unroll
  for (int offset = kDenseV / 2; offset > 0; offset /= 2)
    if (in_group == 0)  // as in dense_warp_tree(): no other lane may raise an overflow
#pragma unroll
      for (int j = 0; j < offset; ++j) s[j] = live_combine<OP>(s[j], s[j + offset], error);
  return LeanState{s[0], static_cast<uint32_t>(kWarp * kReduceItems)};
}

template <class T>
__device__ __forceinline__ LeanState dense_live_column(const LeanAggregate& a, uint64_t segment, uint32_t& error) {
  const T* __restrict__ data = static_cast<const T*>(a.data);
  switch (a.op) {
    case LeanOp::SumInt: return dense_live_warp<LeanOp::SumInt>(data, segment, error);
    case LeanOp::SumDouble: return dense_live_warp<LeanOp::SumDouble>(data, segment, error);
    case LeanOp::MinInt: return dense_live_warp<LeanOp::MinInt>(data, segment, error);
    case LeanOp::MinDouble: return dense_live_warp<LeanOp::MinDouble>(data, segment, error);
    case LeanOp::MaxInt: return dense_live_warp<LeanOp::MaxInt>(data, segment, error);
    default: return dense_live_warp<LeanOp::MaxDouble>(data, segment, error);
  }
}

// Whether dense_live() folds `a`: a column without NULLs (make_lean()
// matched a SUM's, MIN's or MAX's op to the column's class), or COUNT(*).
__device__ __forceinline__ bool dense_live_applies(const LeanAggregate& a) {
  return !a.validity;
}

// A canonical warp's state of `a` over a full chunk's step, every item live.
__device__ __forceinline__ LeanState dense_live(const LeanAggregate& a, uint64_t segment, uint32_t& error) {
  if (a.op == LeanOp::CountStar || a.op == LeanOp::Count) return LeanState{0, static_cast<uint32_t>(kWarp * kReduceItems)};
  switch (a.type) {
    case Type::Boolean: return dense_live_column<uint8_t>(a, segment, error);
    case Type::Integer:
    case Type::Date: return dense_live_column<int32_t>(a, segment, error);
    case Type::Varchar: return dense_live_column<uint32_t>(a, segment, error);
    case Type::BigInt:
    case Type::Decimal: return dense_live_column<int64_t>(a, segment, error);
    case Type::Real: return dense_live_column<float>(a, segment, error);
    default: return dense_live_column<double>(a, segment, error);  // Double
  }
}

// One chunk by one warp: its 8 warp states into `partials`. FULL: every
// position of the chunk is below `count` (all but the last chunk).
template <bool PREDICATE, bool FULL>
__device__ __forceinline__ void dense_chunk(const FastPredicate& fast, const LeanAggregates& aggregates, uint64_t count,
                                            uint64_t chunks, uint64_t chunk, LeanState* warp_states,
                                            AggState* __restrict__ partials, uint32_t& error) {
  constexpr int WARPS = kReduceThreads / kWarp;  // canonical warps per chunk
  const int lane = threadIdx.x % kWarp;
  const uint64_t base = chunk * kReduceChunk;
#pragma unroll 1
  for (int step = 0; step < kDenseSteps; ++step) {
    // Item (k, j) of this lane: position segment + k*256 + j.
    const uint64_t segment = base + static_cast<uint64_t>(step) * kWarp * kDenseV + lane * kDenseV;
    uint32_t live = (1u << kDenseBits) - 1;
    if constexpr (!FULL) {
      live = 0;
#pragma unroll
      for (int k = 0; k < kReduceItems; ++k)
#pragma unroll
        for (int j = 0; j < kDenseV; ++j)
          if (segment + static_cast<uint64_t>(k) * kReduceThreads + j < count) live |= 1u << (k * kDenseV + j);
    }
    if constexpr (PREDICATE) live = dense_predicate_flags<FULL>(fast, segment, count, live);
#pragma unroll 1
    for (int a = 0; a < aggregates.count; ++a) {
      const LeanAggregate& g = aggregates.aggregates[a];
      LeanState state;
      if (FULL && !PREDICATE && dense_live_applies(g)) {
        state = dense_live(g, segment, error);
      } else {
        LeanState states[kDenseV];
        dense_fold<FULL>(g, segment, count, live, states, error);
        dense_warp_tree(g.op, states, error);
        state = states[0];
      }
      if (lane % kDenseGroup == 0) warp_states[a * WARPS + step * kDenseV + lane / kDenseGroup] = state;
    }
  }
  __syncwarp();
#pragma unroll 1
  for (int a = 0; a < aggregates.count; ++a) {
    const LeanOp op = aggregates.aggregates[a].op;
    LeanState s = lane < WARPS ? warp_states[a * WARPS + lane] : LeanState{0, 0};
    s = lean_warp_tree(op, s, error);
    if (lane == 0) partials[a * chunks + chunk] = to_agg_state(op, s);
  }
  __syncwarp();  // warp_states is reused by the next chunk
}

// Chunks go to warps, grid-stride. The chunk's 8 warp states wait in the
// warp's slice of shared memory: [aggregate][canonical warp].
// Resident blocks asked of ptxas: 2, with a WHERE or without (117-126
// registers, no spills). At 3 blocks (80 registers) the kernel without a
// WHERE spilled 88 bytes and SUM of a 1 GiB DOUBLE column took 0.443 ms; at
// 4 (64 registers, 240 bytes spilled) 0.482; at 2, 0.406 (H100, medians of
// 20 runs in one process, 2026-11-23). With dense_live() a kernel of its own
// for the all-live chunks fitted 4 blocks (56 registers) and took the same
// 360 us as this one at 2 (ncu), so the two stay one kernel. Also measured
// on the all-live SUM and not kept (kernel 356-362 us each, CUB's reduce
// 337-345 us, 2026-11-23): loads as ld.global.cs or .nc with an L2::256B
// prefetch hint; two steps' loads in flight before either folds; a
// cp.async.bulk L2 prefetch of the warp's next chunk (600 us: it evicted
// itself) or of the current chunk's second half (366 us); lanes holding 8
// adjacent canonical threads so each load reads 2 KB contiguous (the same
// bits, the same time); a grid whose last round of chunks is full.
constexpr int kDenseBlocksPerSm = 2;

template <bool PREDICATE>
__global__ void __launch_bounds__(kReduceThreads, kDenseBlocksPerSm)
    dense_fold_kernel(FastPredicate fast, LeanAggregates aggregates, uint64_t count, uint64_t chunks,
                      AggState* __restrict__ partials, uint32_t* __restrict__ error_word) {
  extern __shared__ LeanState dense_warp_states[];
  LeanState* warp_states = dense_warp_states + (threadIdx.x / kWarp) * aggregates.count * (kReduceThreads / kWarp);
  constexpr uint64_t kWarpsPerBlock = kReduceThreads / kWarp;
  const uint64_t warps = static_cast<uint64_t>(gridDim.x) * kWarpsPerBlock;
  const uint64_t full_chunks = count / kReduceChunk;
  uint32_t error = 0;
  for (uint64_t chunk = static_cast<uint64_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.x / kWarp; chunk < chunks;
       chunk += warps) {
    if (chunk < full_chunks)
      dense_chunk<PREDICATE, true>(fast, aggregates, count, chunks, chunk, warp_states, partials, error);
    else
      dense_chunk<PREDICATE, false>(fast, aggregates, count, chunks, chunk, warp_states, partials, error);
  }
  if (error) atomicOr(error_word, error);
}

// Whether the dense path applies: positions are rows for every column
// read, and each column's start is aligned for its V-value vectors.
bool make_dense(const LeanAggregates& lean, const FastPredicate& fast, const uint32_t* d_selection) {
  if (d_selection) return false;
  auto aligned = [](const void* data, Type type) {
    return reinterpret_cast<uintptr_t>(data) % (static_cast<uintptr_t>(storage_bytes(type)) * kDenseV) == 0;
  };
  for (int i = 0; i < fast.count; ++i)
    if (!fast.terms[i].never && (fast.terms[i].rows || !aligned(fast.terms[i].data, fast.terms[i].type))) return false;
  for (int a = 0; a < lean.count; ++a) {
    const LeanAggregate& g = lean.aggregates[a];
    if (g.op == LeanOp::CountStar) continue;
    if (g.rows || !aligned(g.data, g.type)) return false;
  }
  return true;
}

template <bool PREDICATE>
unsigned dense_grid(uint64_t chunks, const DeviceContext& context) {
  // Occupancy with the most shared memory (8 aggregates).
  constexpr std::size_t kMostShared =
      sizeof(LeanState) * kMaxAggregates * kReduceThreads / kWarp * (kReduceThreads / kWarp);
  const uint64_t blocks = (chunks + kReduceThreads / kWarp - 1) / (kReduceThreads / kWarp);
  return grid_for(blocks, context, resident_blocks_per_sm<dense_fold_kernel<PREDICATE>, kReduceThreads, kMostShared>());
}

// The lean description of `specs`, or false when one needs the general path.
bool make_lean(const std::vector<AggSpec>& specs, const ColumnSet& columns, LeanAggregates& out) {
  out = LeanAggregates{};
  for (const AggSpec& spec : specs) {
    LeanAggregate& a = out.aggregates[out.count++];
    if (spec.kind == AggKind::CountStar) {
      a.op = LeanOp::CountStar;
      continue;
    }
    if (spec.arg.shape != Shape::Column) return false;
    const ColumnPointer& c = columns.columns[spec.arg.terms[0].slot];
    if (!plain_column(c) || is_double_type(c.type) != (spec.cls == Cls::Double)) return false;
    a.data = c.data;
    a.validity = c.validity;
    a.rows = c.rows;
    a.type = c.type;
    const bool dbl = spec.cls == Cls::Double;
    // AVG over integers may pass the int64 range and carry (add_wide()),
    // which a lean state has no room for. 2048 values of 4 bytes cannot: a
    // chunk's total fits, and the chunk states combine as AggStates. A SUM
    // of 8-byte values folds checked (lean_sums_may_overflow()).
    if (spec.kind == AggKind::Avg && !dbl && storage_bytes(c.type) > 4) return false;
    switch (spec.kind) {
      case AggKind::Count: a.op = LeanOp::Count; break;
      case AggKind::Sum:
      case AggKind::Avg: a.op = dbl ? LeanOp::SumDouble : LeanOp::SumInt; break;
      case AggKind::Min: a.op = dbl ? LeanOp::MinDouble : LeanOp::MinInt; break;
      case AggKind::Max: a.op = dbl ? LeanOp::MaxDouble : LeanOp::MaxInt; break;
      default: return false;
    }
  }
  return true;
}

// Whether a SUM of `lean` adds 8-byte integers: its 64-bit chunk state may
// overflow part way where the exact total still fits.
bool lean_sums_may_overflow(const LeanAggregates& lean) {
  for (int a = 0; a < lean.count; ++a)
    if (lean.aggregates[a].op == LeanOp::SumInt && storage_bytes(lean.aggregates[a].type) > 4) return true;
  return false;
}

// Resident blocks of the lean kernel (its occupancy on every
// multiprocessor), no more than there are chunks.
template <bool GENERAL_PREDICATE>
unsigned lean_grid(uint64_t chunks, const DeviceContext& context) {
  return grid_for(chunks, context, resident_blocks_per_sm<lean_fold_kernel<GENERAL_PREDICATE>, kReduceThreads>());
}

// Pass 1 of the lean path: a state per aggregate and chunk into `partials`.
void fold_lean(const ExprProgram& predicate, const LeanAggregates& lean, const ColumnSet& columns,
               const uint32_t* d_selection, std::size_t count, uint64_t chunks, AggState* partials,
               uint32_t* d_error, DeviceContext& context) {
  DeviceObjects objects;
  FastPredicate fast;
  const bool fast_predicate = make_fast_predicate(predicate, columns, fast);
  std::size_t p = 0, c = 0;
  if (!fast_predicate) {
    p = objects.add(predicate);
    c = objects.add(columns);
    objects.upload(context);
  }
  if (fast_predicate && make_dense(lean, fast, d_selection)) {
    const std::size_t smem = sizeof(LeanState) * static_cast<std::size_t>(lean.count) * kReduceThreads / kWarp *
                             (kReduceThreads / kWarp);
    if (fast.count > 0)
      dense_fold_kernel<true><<<dense_grid<true>(chunks, context), kReduceThreads, smem, context.stream()>>>(
          fast, lean, count, chunks, partials, d_error);
    else
      dense_fold_kernel<false><<<dense_grid<false>(chunks, context), kReduceThreads, smem, context.stream()>>>(
          fast, lean, count, chunks, partials, d_error);
  } else if (fast_predicate) {
    lean_fold_kernel<false><<<lean_grid<false>(chunks, context), kReduceThreads, 0, context.stream()>>>(
        fast, nullptr, nullptr, lean, d_selection, count, chunks, partials, d_error);
  } else {
    lean_fold_kernel<true><<<lean_grid<true>(chunks, context), kReduceThreads, 0, context.stream()>>>(
        fast, objects.at<ExprProgram>(p), objects.at<ColumnSet>(c), lean, d_selection, count, chunks, partials,
        d_error);
  }
  GPUSQL_CHECK_LAUNCH();
}

// Pass 1 of the general path: the interpreter's values, exact sums.
void fold_general(const ExprProgram& predicate, const std::vector<AggSpec>& specs, const ColumnSet& columns,
                  const uint32_t* d_selection, std::size_t count, uint64_t chunks, AggState* partials,
                  uint32_t* d_error, DeviceContext& context) {
  const std::size_t n_specs = specs.size();
  AggregateParams params;
  params.predicate = predicate;
  params.spec_count = static_cast<int32_t>(n_specs);
  for (std::size_t a = 0; a < n_specs; ++a) params.specs[a] = specs[a];
  DeviceObjects objects;
  std::size_t p = objects.add(params), c = objects.add(columns);
  objects.upload(context);
  FastPredicate fast;
  const bool is_fast = make_fast_predicate(predicate, columns, fast, /*pairs=*/true) && fast.count > 0;
  auto fold = [&](auto fast_kernel, auto general_kernel) {
    auto kernel = is_fast ? fast_kernel : general_kernel;
    kernel<<<grid_for(chunks, context), kReduceThreads, 0, context.stream()>>>(
        fast, objects.at<AggregateParams>(p), objects.at<ColumnSet>(c), d_selection, count, chunks, partials, d_error);
  };
  static_assert(kMaxAggregates == 8);
  if (n_specs == 1) fold(fold_rows_kernel<1, true>, fold_rows_kernel<1, false>);
  else if (n_specs == 2) fold(fold_rows_kernel<2, true>, fold_rows_kernel<2, false>);
  else if (n_specs <= 4) fold(fold_rows_kernel<4, true>, fold_rows_kernel<4, false>);
  else fold(fold_rows_kernel<8, true>, fold_rows_kernel<8, false>);
  GPUSQL_CHECK_LAUNCH();
}

// The passes over the chunk states, then the final states to the host.
std::vector<AggState> combine_chunks(const std::vector<AggSpec>& specs, DeviceBuffer partials, uint64_t chunks,
                                     uint32_t* d_error, DeviceContext& context) {
  const std::size_t n_specs = specs.size();
  AggKinds kinds{};
  kinds.count = static_cast<int32_t>(n_specs);
  for (std::size_t a = 0; a < n_specs; ++a) {
    kinds.kind[a] = specs[a].kind;
    kinds.cls[a] = specs[a].cls;
  }
  while (chunks > 1) {
    uint64_t next_chunks = (chunks + kReduceChunk - 1) / kReduceChunk;
    DeviceBuffer next(context, n_specs * next_chunks * sizeof(AggState));
    combine_partials_kernel<<<grid_for(next_chunks, context), kReduceThreads, 0, context.stream()>>>(
        kinds, partials.as<AggState>(), chunks, next.as<AggState>(), next_chunks, d_error);
    GPUSQL_CHECK_LAUNCH();
    partials = std::move(next);
    chunks = next_chunks;
  }
  std::vector<AggState> result(n_specs);
  context.copy_to_host(result.data(), partials.data(), n_specs * sizeof(AggState));
  return result;
}

}  // namespace

std::vector<AggState> aggregate_rows(const ExprProgram& predicate, const std::vector<AggSpec>& specs,
                                     const ColumnSet& columns, const uint32_t* d_selection, std::size_t count,
                                     uint32_t* d_error, DeviceContext& context) {
  const std::size_t n_specs = specs.size();
  if (n_specs > static_cast<std::size_t>(kMaxAggregates))
    throw Error(ErrorKind::NotSupported, "not supported yet: more than 8 aggregates in one operator");
  std::vector<AggState> result(n_specs);
  if (count == 0 || n_specs == 0) return result;
  // One SUM, MIN, MAX or AVG over a whole column with no WHERE: one kernel
  // that also does the passes over the chunk states (column_reduce.cu).
  if (n_specs == 1 && !d_selection && predicate.shape == Shape::Empty && specs[0].arg.shape == Shape::Column &&
      reduce_column(specs[0], columns.columns[specs[0].arg.terms[0].slot], count, d_error, context, result[0]))
    return result;
  const uint64_t chunks = (count + kReduceChunk - 1) / kReduceChunk;
  LeanAggregates lean;
  if (make_lean(specs, columns, lean)) {
    // A checked 64-bit sum that overflowed part way gives way to the
    // general path's exact sums, and the lean pass's other errors (of a
    // general predicate) are raised again there.
    const bool may_overflow = lean_sums_may_overflow(lean);
    std::optional<OwnErrorWord> own;
    if (may_overflow) own.emplace(context);
    uint32_t* error = may_overflow ? own->get() : d_error;
    DeviceBuffer partials(context, n_specs * chunks * sizeof(AggState));
    fold_lean(predicate, lean, columns, d_selection, count, chunks, partials.as<AggState>(), error, context);
    result = combine_chunks(specs, std::move(partials), chunks, error, context);
    if (!may_overflow || own->read(context) == 0) return result;
  }
  DeviceBuffer partials(context, n_specs * chunks * sizeof(AggState));
  fold_general(predicate, specs, columns, d_selection, count, chunks, partials.as<AggState>(), d_error, context);
  return combine_chunks(specs, std::move(partials), chunks, d_error, context);
}

}  // namespace gpusql::kernels
