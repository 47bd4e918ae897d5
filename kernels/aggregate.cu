#include "kernels/aggregate.hpp"
#include "kernels/fast_predicate.cuh"
#include "kernels/launch.hpp"

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
// a compile-time count so each thread's states live in registers.
template <int AGGREGATES>
__global__ void __launch_bounds__(kReduceThreads)
    fold_rows_kernel(const AggregateParams* __restrict__ parameters, const ColumnSet* __restrict__ column_set,
                     const uint32_t* __restrict__ selection,
                     uint64_t count, uint64_t chunks, AggState* __restrict__ partials, uint32_t* __restrict__ error_word) {
  __shared__ AggState warp_states[kReduceThreads / kWarp];
  const AggregateParams& params = *parameters;
  const ColumnSet& columns = *column_set;
  uint32_t error = 0;
  for (uint64_t chunk = blockIdx.x; chunk < chunks; chunk += gridDim.x) {
    AggState states[AGGREGATES];
#pragma unroll
    for (int a = 0; a < AGGREGATES; ++a) states[a] = AggState{};
#pragma unroll 2
    for (int k = 0; k < kReduceItems; ++k) {
      uint64_t position = chunk * kReduceChunk + static_cast<uint64_t>(k) * kReduceThreads + threadIdx.x;
      if (position >= count) break;
      int64_t row = selection ? selection[position] : static_cast<int64_t>(position);
      if (!evaluate_predicate(params.predicate, columns, row, error)) continue;
#pragma unroll
      for (int a = 0; a < AGGREGATES; ++a) {
        const AggSpec& spec = params.specs[a];
        Slot v{};
        if (spec.kind != AggKind::CountStar) v = evaluate(spec.arg, columns, row, error);
        agg_fold_value(spec.kind, spec.cls, states[a], v, error, row);
      }
    }
#pragma unroll
    for (int a = 0; a < AGGREGATES; ++a) {
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
      AggState s{};
#pragma unroll
      for (int k = 0; k < kReduceItems; ++k) {
        uint64_t position = chunk * kReduceChunk + static_cast<uint64_t>(k) * kReduceThreads + threadIdx.x;
        if (position < count) s = agg_combine(kind, cls, s, in[a * count + position], error);
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

enum class LeanOp : uint8_t { CountStar, Count, SumInt, SumDouble, MinInt, MinDouble, MaxInt, MaxDouble };

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

__device__ __forceinline__ double as_double(int64_t bits) { return __longlong_as_double(bits); }
__device__ __forceinline__ int64_t as_bits(double d) { return __double_as_longlong(d); }

// agg_combine() for the lean ops.
__device__ __forceinline__ LeanState lean_combine(LeanOp op, LeanState a, LeanState b, uint32_t& error) {
  if (a.count == 0) return b;
  if (b.count == 0) return a;
  LeanState r{a.bits, a.count + b.count};
  switch (op) {
    case LeanOp::SumInt: {
      uint32_t e = 0;
      r.bits = checked_add(a.bits, b.bits, e);
      if (e) error |= kEvalSumOverflow;
      break;
    }
    case LeanOp::SumDouble: r.bits = as_bits(as_double(a.bits) + as_double(b.bits)); break;
    case LeanOp::MinInt: r.bits = b.bits < a.bits ? b.bits : a.bits; break;
    case LeanOp::MinDouble: r.bits = as_double(b.bits) < as_double(a.bits) ? b.bits : a.bits; break;
    case LeanOp::MaxInt: r.bits = b.bits > a.bits ? b.bits : a.bits; break;
    case LeanOp::MaxDouble: r.bits = as_double(b.bits) > as_double(a.bits) ? b.bits : a.bits; break;
    default: break;
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

// Resident blocks of the lean kernel (its occupancy on every
// multiprocessor), no more than there are chunks.
template <bool GENERAL_PREDICATE>
unsigned lean_grid(uint64_t chunks, const DeviceContext& context) {
  static const int per_sm = [] {
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, lean_fold_kernel<GENERAL_PREDICATE>, kReduceThreads,
                                                      0) != cudaSuccess)
      (void)cudaGetLastError();
    return blocks < 1 ? 1 : blocks;
  }();
  return grid_for(chunks, context, per_sm);
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
  AggKinds kinds{};
  kinds.count = static_cast<int32_t>(n_specs);
  for (std::size_t a = 0; a < n_specs; ++a) {
    kinds.kind[a] = specs[a].kind;
    kinds.cls[a] = specs[a].cls;
  }

  uint64_t chunks = (count + kReduceChunk - 1) / kReduceChunk;
  DeviceBuffer partials(context, n_specs * chunks * sizeof(AggState));
  DeviceObjects objects;
  LeanAggregates lean;
  FastPredicate fast;
  if (make_lean(specs, columns, lean)) {
    const bool fast_predicate = make_fast_predicate(predicate, columns, fast);
    std::size_t p = 0, c = 0;
    if (!fast_predicate) {
      p = objects.add(predicate);
      c = objects.add(columns);
      objects.upload(context);
    }
    if (fast_predicate) {
      lean_fold_kernel<false><<<lean_grid<false>(chunks, context), kReduceThreads, 0, context.stream()>>>(
          fast, nullptr, nullptr, lean, d_selection, count, chunks, partials.as<AggState>(), d_error);
    } else {
      lean_fold_kernel<true><<<lean_grid<true>(chunks, context), kReduceThreads, 0, context.stream()>>>(
          fast, objects.at<ExprProgram>(p), objects.at<ColumnSet>(c), lean, d_selection, count, chunks,
          partials.as<AggState>(), d_error);
    }
  } else {
    AggregateParams params;
    params.predicate = predicate;
    params.spec_count = static_cast<int32_t>(n_specs);
    for (std::size_t a = 0; a < n_specs; ++a) params.specs[a] = specs[a];
    std::size_t p = objects.add(params), c = objects.add(columns);
    objects.upload(context);
    auto fold = [&](auto kernel) {
      kernel<<<grid_for(chunks, context), kReduceThreads, 0, context.stream()>>>(
          objects.at<AggregateParams>(p), objects.at<ColumnSet>(c), d_selection, count, chunks,
          partials.as<AggState>(), d_error);
    };
    switch (n_specs) {
      case 1: fold(fold_rows_kernel<1>); break;
      case 2: fold(fold_rows_kernel<2>); break;
      case 3: fold(fold_rows_kernel<3>); break;
      case 4: fold(fold_rows_kernel<4>); break;
      case 5: fold(fold_rows_kernel<5>); break;
      case 6: fold(fold_rows_kernel<6>); break;
      case 7: fold(fold_rows_kernel<7>); break;
      default: fold(fold_rows_kernel<kMaxAggregates>); break;
    }
  }
  GPUSQL_CHECK_LAUNCH();
  while (chunks > 1) {
    uint64_t next_chunks = (chunks + kReduceChunk - 1) / kReduceChunk;
    DeviceBuffer next(context, n_specs * next_chunks * sizeof(AggState));
    combine_partials_kernel<<<grid_for(next_chunks, context), kReduceThreads, 0, context.stream()>>>(
        kinds, partials.as<AggState>(), chunks, next.as<AggState>(), next_chunks, d_error);
    GPUSQL_CHECK_LAUNCH();
    partials = std::move(next);
    chunks = next_chunks;
  }
  GPUSQL_CUDA_TRY(cudaMemcpyAsync(result.data(), partials.data(), n_specs * sizeof(AggState), cudaMemcpyDeviceToHost,
                                  context.stream()));
  context.synchronize();
  return result;
}

}  // namespace gpusql::kernels
