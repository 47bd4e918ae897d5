#include <cstdint>
#include <type_traits>

#include "kernels/arg_extreme.hpp"
#include "kernels/launch.hpp"

namespace gpusql::kernels {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kFullMask = 0xffffffffu;

// The identity of the reduction: no candidate yet. No real word equals it,
// as positions stay below 2^32 - 1.
__host__ __device__ constexpr unsigned long long identity(AggKind kind) {
  return kind == AggKind::ArgMin ? ~0ull : 0ull;
}

// The order-preserving 32-bit code of a valid value; false when it has none
// (NaN, or a value out of its type's 32-bit range).
__device__ __forceinline__ bool code32(Type type, const Slot& s, uint32_t& code) {
  switch (type) {
    case Type::Integer:
    case Type::Date:
      if (s.i < INT32_MIN || s.i > INT32_MAX) return false;
      code = static_cast<uint32_t>(static_cast<int32_t>(s.i)) ^ 0x80000000u;
      return true;
    case Type::Varchar:
    case Type::Boolean:
      if (s.i < 0 || s.i > static_cast<int64_t>(UINT32_MAX)) return false;
      code = static_cast<uint32_t>(s.i);
      return true;
    case Type::Real: {
      const float f = static_cast<float>(s.d);
      if (static_cast<double>(f) != s.d) return false;  // NaN too
      const uint32_t b = __float_as_uint(f == 0.0f ? 0.0f : f);
      code = (b & 0x80000000u) ? ~b : (b | 0x80000000u);
      return true;
    }
    default: return false;
  }
}

// ARG_MIN: (code, position), smallest wins. ARG_MAX: (code, ~position),
// largest wins, so the lowest position still wins a tie.
__device__ __forceinline__ unsigned long long pack(AggKind kind, uint32_t code, uint32_t position) {
  const uint32_t low = kind == AggKind::ArgMin ? position : ~position;
  return (static_cast<unsigned long long>(code) << 32) | low;
}

__device__ __forceinline__ unsigned long long better(AggKind kind, unsigned long long a, unsigned long long b) {
  return kind == AggKind::ArgMin ? min(a, b) : max(a, b);
}

__device__ __forceinline__ unsigned long long warp_best(AggKind kind, unsigned long long v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v = better(kind, v, __shfl_xor_sync(kFullMask, v, offset));
  return v;
}

__device__ __forceinline__ void publish(AggKind kind, unsigned long long* result, unsigned long long word) {
  if (word == identity(kind)) return;
  if (kind == AggKind::ArgMin) atomicMin(result, word);
  else atomicMax(result, word);
}

struct PackedParams {
  ExprProgram predicate;
  PackedArg args[kMaxAggregates];
  int32_t count;
};

// The general kernel: programs evaluated per position.
__global__ void __launch_bounds__(kThreads)
    packed_arg_kernel(const PackedParams* __restrict__ d_params, const ColumnSet* __restrict__ d_columns, uint64_t count,
                      unsigned long long* __restrict__ results, unsigned int* __restrict__ unfit,
                      uint32_t* __restrict__ error_word) {
  __shared__ unsigned long long warp_words[kMaxAggregates][kWarps];
  const PackedParams& params = *d_params;
  const ColumnSet& columns = *d_columns;
  uint32_t error = 0;
  bool bad = false;
  unsigned long long best[kMaxAggregates];
  for (int a = 0; a < params.count; ++a) best[a] = identity(params.args[a].kind);
  for (uint64_t p = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < count;
       p += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    if (!evaluate_predicate(params.predicate, columns, static_cast<int64_t>(p), error)) continue;
    for (int a = 0; a < params.count; ++a) {
      const PackedArg& arg = params.args[a];
      const Slot v = evaluate(arg.order, columns, static_cast<int64_t>(p), error);
      if (!v.valid) continue;
      uint32_t code = 0;
      if (!code32(arg.type, v, code)) {
        bad = true;
        continue;
      }
      best[a] = better(arg.kind, best[a], pack(arg.kind, code, static_cast<uint32_t>(p)));
    }
  }
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int a = 0; a < params.count; ++a) {
    const unsigned long long w = warp_best(params.args[a].kind, best[a]);
    if (lane == 0) warp_words[a][warp] = w;
  }
  const int any_bad = __syncthreads_or(bad);
  if (threadIdx.x < params.count) {
    const AggKind kind = params.args[threadIdx.x].kind;
    unsigned long long w = identity(kind);
    for (int i = 0; i < kWarps; ++i) w = better(kind, w, warp_words[threadIdx.x][i]);
    publish(kind, &results[threadIdx.x], w);
  }
  if (threadIdx.x == 0 && any_bad) atomicOr(unfit, 1u);
  if (error) atomicOr(error_word, error);
}

// The direct kernel for one ordering value that is a plain 32-bit column
// read at its own positions: four values per 16-byte load, four loads in
// flight per thread, no interpreter.
template <class T>
__device__ __forceinline__ T from_word(uint32_t word) {
  if constexpr (std::is_same_v<T, float>) return __uint_as_float(word);
  else return static_cast<T>(word);
}

template <class T>
__device__ __forceinline__ bool direct_code(Type type, T raw, uint32_t& code) {
  Slot s;
  s.valid = true;
  if constexpr (std::is_same_v<T, float>) s.d = raw;
  else s.i = raw;
  return code32(type, s, code);
}

template <class T, bool CAS>
__global__ void __launch_bounds__(kThreads)
    direct_arg_kernel(const T* __restrict__ values, const uint32_t* __restrict__ validity, uint64_t count,
                      AggKind kind, Type type, unsigned long long* __restrict__ result, unsigned int* __restrict__ unfit) {
  __shared__ unsigned long long warp_words[kWarps];
  constexpr int kVector = 4, kUnroll = 4;
  bool bad = false;
  unsigned long long best = identity(kind);
  auto consider = [&](uint64_t p, T raw) {
    if (validity && !((validity[p >> 5] >> (p & 31)) & 1u)) return;
    uint32_t code = 0;
    if (!direct_code(type, raw, code)) {
      bad = true;
      return;
    }
    best = better(kind, best, pack(kind, code, static_cast<uint32_t>(p)));
  };
  const uint64_t vectors = count / kVector;
  const uint4* __restrict__ v4 = reinterpret_cast<const uint4*>(values);
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (kUnroll - 1) * stride < vectors; i += kUnroll * stride) {
    uint4 loaded[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) loaded[u] = __ldcs(v4 + i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const uint64_t p = (i + u * stride) * kVector;
      const uint32_t words[kVector] = {loaded[u].x, loaded[u].y, loaded[u].z, loaded[u].w};
#pragma unroll
      for (int e = 0; e < kVector; ++e) consider(p + e, from_word<T>(words[e]));
    }
  }
  for (; i < vectors; i += stride) {
    const uint4 loaded = __ldcs(v4 + i);
    const uint32_t words[kVector] = {loaded.x, loaded.y, loaded.z, loaded.w};
#pragma unroll
    for (int e = 0; e < kVector; ++e) consider(i * kVector + e, from_word<T>(words[e]));
  }
  // The last count % 4 values.
  for (uint64_t p = vectors * kVector + static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < count;
       p += stride)
    consider(p, values[p]);

  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned long long w = warp_best(kind, best);
  if constexpr (CAS) {
    // The baseline: one compare-and-swap loop per warp, no block step.
    if (lane == 0 && w != identity(kind)) {
      unsigned long long old = *result, assumed;
      do {
        assumed = old;
        if (better(kind, assumed, w) == assumed) break;
        old = atomicCAS(result, assumed, w);
      } while (old != assumed);
    }
  } else {
    if (lane == 0) warp_words[warp] = w;
    __syncthreads();
    if (threadIdx.x == 0) {
      unsigned long long b = identity(kind);
      for (int k = 0; k < kWarps; ++k) b = better(kind, b, warp_words[k]);
      publish(kind, result, b);
    }
  }
  if (unfit && __syncthreads_or(bad) && threadIdx.x == 0) atomicOr(unfit, 1u);
}

// Whether `program` is one plain 32-bit column read at the position itself.
const ColumnPointer* direct_column(const ExprProgram& program, const ColumnSet& columns) {
  if (program.length != 1 || program.code[0].op != Op::Column) return nullptr;
  const ColumnPointer& c = columns.columns[program.code[0].slot];
  // Whole 16-byte loads need an aligned start (pool buffers are).
  if (c.rows || c.is_rowid || !c.data || reinterpret_cast<uintptr_t>(c.data) % 16 != 0) return nullptr;
  switch (c.type) {
    case Type::Integer:
    case Type::Date:
    case Type::Varchar:
    case Type::Real: return &c;
    default: return nullptr;
  }
}

unsigned direct_grid(std::size_t count, const DeviceContext& context) {
  return grid_for((count / 4 + kThreads - 1) / kThreads + 1, context, 8);
}

}  // namespace

bool packable_type(Type type) {
  return type == Type::Integer || type == Type::Date || type == Type::Varchar || type == Type::Boolean ||
         type == Type::Real;
}

std::vector<PackedArgResult> packed_arg_extreme(const ExprProgram& predicate, const std::vector<PackedArg>& args,
                                                const ColumnSet& columns, std::size_t count, uint32_t* d_error,
                                                DeviceContext& context) {
  std::vector<PackedArgResult> results(args.size());
  if (args.empty() || count == 0) return results;
  if (args.size() > static_cast<std::size_t>(kMaxAggregates) || count >= 0xffffffffull) {
    for (auto& r : results) r.fits = false;
    return results;
  }
  std::vector<unsigned long long> words(args.size() + 1);
  for (std::size_t a = 0; a < args.size(); ++a) words[a] = identity(args[a].kind);
  words[args.size()] = 0;  // the unfit flag
  DeviceBuffer d_words(context, words.size() * sizeof(unsigned long long));
  GPUSQL_CUDA_TRY(cudaMemcpyAsync(d_words.data(), words.data(), words.size() * sizeof(unsigned long long),
                                  cudaMemcpyHostToDevice, context.stream()));
  unsigned int* d_unfit = reinterpret_cast<unsigned int*>(d_words.as<unsigned long long>() + args.size());
  const ColumnPointer* direct = predicate.length == 0 && args.size() == 1 ? direct_column(args[0].order, columns)
                                                                          : nullptr;
  if (direct) {
    const AggKind kind = args[0].kind;
    const unsigned grid = direct_grid(count, context);
    if (direct->type == Type::Real)
      direct_arg_kernel<float, false><<<grid, kThreads, 0, context.stream()>>>(
          static_cast<const float*>(direct->data), direct->validity, count, kind, direct->type,
          d_words.as<unsigned long long>(), d_unfit);
    else if (direct->type == Type::Varchar)
      direct_arg_kernel<uint32_t, false><<<grid, kThreads, 0, context.stream()>>>(
          static_cast<const uint32_t*>(direct->data), direct->validity, count, kind, direct->type,
          d_words.as<unsigned long long>(), d_unfit);
    else
      direct_arg_kernel<int32_t, false><<<grid, kThreads, 0, context.stream()>>>(
          static_cast<const int32_t*>(direct->data), direct->validity, count, kind, direct->type,
          d_words.as<unsigned long long>(), d_unfit);
  } else {
    PackedParams params{};
    params.predicate = predicate;
    params.count = static_cast<int32_t>(args.size());
    for (std::size_t a = 0; a < args.size(); ++a) params.args[a] = args[a];
    DeviceObjects objects;
    const std::size_t p = objects.add(params), c = objects.add(columns);
    objects.upload(context);
    packed_arg_kernel<<<grid_for((count + kThreads - 1) / kThreads, context, 8), kThreads, 0, context.stream()>>>(
        objects.at<PackedParams>(p), objects.at<ColumnSet>(c), count, d_words.as<unsigned long long>(), d_unfit,
        d_error);
  }
  GPUSQL_CHECK_LAUNCH();
  GPUSQL_CUDA_TRY(cudaMemcpyAsync(words.data(), d_words.data(), words.size() * sizeof(unsigned long long),
                                  cudaMemcpyDeviceToHost, context.stream()));
  context.synchronize();
  const bool fits = (words[args.size()] & 0xffffffffull) == 0;
  for (std::size_t a = 0; a < args.size(); ++a) {
    results[a].fits = fits;
    if (words[a] == identity(args[a].kind)) continue;
    const uint32_t low = static_cast<uint32_t>(words[a] & 0xffffffffull);
    results[a].position = args[a].kind == AggKind::ArgMin ? low : static_cast<uint32_t>(~low);
  }
  return results;
}

void packed_arg_min_int32(const int32_t* d_values, std::size_t count, unsigned long long* d_result,
                          DeviceContext& context) {
  if (count == 0) return;
  direct_arg_kernel<int32_t, false><<<direct_grid(count, context), kThreads, 0, context.stream()>>>(
      d_values, nullptr, count, AggKind::ArgMin, Type::Integer, d_result, nullptr);
  GPUSQL_CHECK_LAUNCH();
}

void cas_arg_min_int32(const int32_t* d_values, std::size_t count, unsigned long long* d_result,
                       DeviceContext& context) {
  if (count == 0) return;
  direct_arg_kernel<int32_t, true><<<direct_grid(count, context), kThreads, 0, context.stream()>>>(
      d_values, nullptr, count, AggKind::ArgMin, Type::Integer, d_result, nullptr);
  GPUSQL_CHECK_LAUNCH();
}

}  // namespace gpusql::kernels
