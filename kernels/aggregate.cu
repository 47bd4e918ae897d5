#include "kernels/aggregate.hpp"
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

// Pass 2..n: the same scheme over chunk states, combining instead of folding.
__global__ void __launch_bounds__(kReduceThreads)
    combine_partials_kernel(const AggregateParams* __restrict__ parameters, const AggState* __restrict__ in,
                            uint64_t count, AggState* __restrict__ out, uint64_t chunks,
                            uint32_t* __restrict__ error_word) {
  __shared__ AggState warp_states[kReduceThreads / kWarp];
  const AggregateParams& params = *parameters;
  uint32_t error = 0;
  for (uint64_t chunk = blockIdx.x; chunk < chunks; chunk += gridDim.x) {
    for (int a = 0; a < params.spec_count; ++a) {
      const AggSpec& spec = params.specs[a];
      AggState s{};
#pragma unroll
      for (int k = 0; k < kReduceItems; ++k) {
        uint64_t position = chunk * kReduceChunk + static_cast<uint64_t>(k) * kReduceThreads + threadIdx.x;
        if (position < count) s = agg_combine(spec.kind, spec.cls, s, in[a * count + position], error);
      }
      AggState total = block_tree(spec.kind, spec.cls, s, warp_states, error);
      if (threadIdx.x == 0) out[a * chunks + chunk] = total;
    }
  }
  if (error) atomicOr(error_word, error);
}

}  // namespace

std::vector<AggState> aggregate_rows(const ExprProgram& predicate, const std::vector<AggSpec>& specs,
                                     const ColumnSet& columns, const uint32_t* d_selection, std::size_t count,
                                     uint32_t* d_error, DeviceContext& context) {
  const std::size_t n_specs = specs.size();
  std::vector<AggState> result(n_specs);
  if (count == 0 || n_specs == 0) return result;
  AggregateParams params;
  params.predicate = predicate;
  params.spec_count = static_cast<int32_t>(n_specs);
  for (std::size_t a = 0; a < n_specs; ++a) params.specs[a] = specs[a];

  uint64_t chunks = (count + kReduceChunk - 1) / kReduceChunk;
  DeviceBuffer partials(context, n_specs * chunks * sizeof(AggState));
  DeviceObjects objects;
  std::size_t p = objects.add(params), c = objects.add(columns);
  objects.upload(context);
  auto fold = [&](auto kernel) {
    kernel<<<grid_for(chunks, context), kReduceThreads, 0, context.stream()>>>(
        objects.at<AggregateParams>(p), objects.at<ColumnSet>(c), d_selection, count, chunks, partials.as<AggState>(),
        d_error);
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
  GPUSQL_CHECK_LAUNCH();
  while (chunks > 1) {
    uint64_t next_chunks = (chunks + kReduceChunk - 1) / kReduceChunk;
    DeviceBuffer next(context, n_specs * next_chunks * sizeof(AggState));
    combine_partials_kernel<<<grid_for(next_chunks, context), kReduceThreads, 0, context.stream()>>>(
        objects.at<AggregateParams>(p), partials.as<AggState>(), chunks, next.as<AggState>(), next_chunks, d_error);
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
