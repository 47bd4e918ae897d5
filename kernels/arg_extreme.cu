#include <cstdint>
#include <type_traits>

#include "kernels/arg_extreme.hpp"
#include "kernels/launch.hpp"

namespace gpusql::kernels {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kFullMask = 0xffffffffu;

// Every reduction is a minimum over 64-bit keys (see key()), so the
// identity -- no candidate yet -- is ~0 for ARG_MIN and ARG_MAX alike, and
// one memset initializes any mix of them. No real key equals it, as
// positions stay below 2^32 - 1.
constexpr unsigned long long kNoKey = ~0ull;

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

// ARG_MIN: (code, position); ARG_MAX: (~code, position); the smallest key
// wins either way, so among equal values the lowest position does.
__device__ __forceinline__ unsigned long long key(AggKind kind, uint32_t code, uint32_t position) {
  const uint32_t high = kind == AggKind::ArgMin ? code : ~code;
  return (static_cast<unsigned long long>(high) << 32) | position;
}

__device__ __forceinline__ unsigned long long warp_best(unsigned long long v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v = min(v, __shfl_xor_sync(kFullMask, v, offset));
  return v;
}

__device__ __forceinline__ void publish(unsigned long long* result, unsigned long long word) {
  if (word != kNoKey) atomicMin(result, word);
}

// The unfit flag starts as all ones (the memset of the result words) and is
// cleared by a value without a 32-bit code.
__device__ __forceinline__ void flag_unfit(unsigned int* unfit) { atomicAnd(unfit, 0u); }

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
  for (int a = 0; a < params.count; ++a) best[a] = kNoKey;
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
      best[a] = min(best[a], key(arg.kind, code, static_cast<uint32_t>(p)));
    }
  }
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int a = 0; a < params.count; ++a) {
    const unsigned long long w = warp_best(best[a]);
    if (lane == 0) warp_words[a][warp] = w;
  }
  const int any_bad = __syncthreads_or(bad);
  if (threadIdx.x < params.count) {
    unsigned long long w = kNoKey;
    for (int i = 0; i < kWarps; ++i) w = min(w, warp_words[threadIdx.x][i]);
    publish(&results[threadIdx.x], w);
  }
  if (threadIdx.x == 0 && any_bad) flag_unfit(unfit);
  if (error) atomicOr(error_word, error);
}

// The direct kernel for one ordering value that is a plain 32-bit column
// read at its own positions: four values per 16-byte load, four loads in
// flight per thread, no interpreter, and the type, the kind and whether
// there are NULLs fixed at compile time. A thread meets its positions in
// ascending order, so it keeps its best (code, position) as one key and a
// later equal value never replaces it; only REAL has values without a code.
template <class T>
__device__ __forceinline__ uint32_t code_of(uint32_t word, bool& bad) {
  if constexpr (std::is_same_v<T, float>) {
    // code32() for Type::Real: -0 as +0, NaN has no code.
    const float f = __uint_as_float(word);
    if (f != f) bad = true;
    const uint32_t b = f == 0.0f ? 0u : word;
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return word ^ 0x80000000u;  // Integer, Date
  } else {
    return word;  // Varchar codes
  }
}

constexpr int kDirectVector = 4, kDirectUnroll = 4;
// Full occupancy (8 blocks of 256 on every multiprocessor): the grid is
// exactly the resident blocks, so every block streams until the end.
constexpr int kDirectBlocksPerSm = 8;

template <class T, AggKind KIND, bool VALIDITY, bool CAS>
__global__ void __launch_bounds__(kThreads, kDirectBlocksPerSm)
    direct_arg_kernel(const T* __restrict__ values, const uint32_t* __restrict__ validity, uint32_t count,
                      unsigned long long* __restrict__ result, unsigned int* __restrict__ unfit) {
  __shared__ unsigned long long warp_words[kWarps];
  bool bad = false;
  unsigned long long best = kNoKey;
  auto consider = [&](uint32_t p, uint32_t word) {
    if constexpr (VALIDITY) {
      if (!((validity[p >> 5] >> (p & 31)) & 1u)) return;
    }
    const unsigned long long k = key(KIND, code_of<T>(word, bad), p);
    best = k < best ? k : best;
  };
  const uint32_t vectors = count / kDirectVector;
  const uint4* __restrict__ v4 = reinterpret_cast<const uint4*>(values);
  const uint32_t stride = gridDim.x * kThreads;
  uint32_t i = blockIdx.x * kThreads + threadIdx.x;
  // Positions stay below 2^32 - 1 (the caller checks), so the index math is
  // 32-bit; only the unrolled loop's bound is tested in 64 bits.
  for (; static_cast<uint64_t>(i) + (kDirectUnroll - 1) * static_cast<uint64_t>(stride) < vectors;
       i += kDirectUnroll * stride) {
    uint4 loaded[kDirectUnroll];
#pragma unroll
    for (int u = 0; u < kDirectUnroll; ++u) loaded[u] = __ldcs(v4 + i + u * stride);
#pragma unroll
    for (int u = 0; u < kDirectUnroll; ++u) {
      const uint32_t p = (i + u * stride) * kDirectVector;
      consider(p, loaded[u].x);
      consider(p + 1, loaded[u].y);
      consider(p + 2, loaded[u].z);
      consider(p + 3, loaded[u].w);
    }
  }
  for (; i < vectors; i += stride) {
    const uint4 loaded = __ldcs(v4 + i);
    const uint32_t p = i * kDirectVector;
    consider(p, loaded.x);
    consider(p + 1, loaded.y);
    consider(p + 2, loaded.z);
    consider(p + 3, loaded.w);
  }
  // The last count % 4 values, by the first threads of the grid.
  {
    const uint32_t g = blockIdx.x * kThreads + threadIdx.x;
    if (g < count % kDirectVector) {
      const uint32_t p = vectors * kDirectVector + g;
      consider(p, reinterpret_cast<const uint32_t*>(values)[p]);
    }
  }

  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned long long w = warp_best(best);
  if constexpr (CAS) {
    // The baseline: one compare-and-swap loop per warp, no block step.
    if (lane == 0 && w != kNoKey) {
      unsigned long long old = *result, assumed;
      do {
        assumed = old;
        if (assumed <= w) break;
        old = atomicCAS(result, assumed, w);
      } while (old != assumed);
    }
  } else {
    if (lane == 0) warp_words[warp] = w;
    __syncthreads();
    if (threadIdx.x == 0) {
      unsigned long long b = kNoKey;
#pragma unroll
      for (int k = 0; k < kWarps; ++k) b = min(b, warp_words[k]);
      publish(result, b);
    }
  }
  if constexpr (std::is_same_v<T, float>) {
    if (__syncthreads_or(bad) && threadIdx.x == 0) flag_unfit(unfit);
  }
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

// The resident blocks of the direct kernel (its occupancy on every
// multiprocessor), no more than the 16-byte vectors need.
template <class T, AggKind KIND, bool VALIDITY, bool CAS>
unsigned direct_grid(std::size_t count, const DeviceContext& context) {
  return grid_for((count / kDirectVector + kThreads - 1) / kThreads + 1, context,
                  resident_blocks_per_sm<direct_arg_kernel<T, KIND, VALIDITY, CAS>, kThreads>());
}

template <class T, AggKind KIND, bool VALIDITY, bool CAS>
void launch_direct(const void* values, const uint32_t* validity, std::size_t count, unsigned long long* result,
                   unsigned int* unfit, DeviceContext& context) {
  direct_arg_kernel<T, KIND, VALIDITY, CAS>
      <<<direct_grid<T, KIND, VALIDITY, CAS>(count, context), kThreads, 0, context.stream()>>>(
          static_cast<const T*>(values), validity, static_cast<uint32_t>(count), result, unfit);
}

template <class T>
void launch_direct_query(AggKind kind, const ColumnPointer& column, std::size_t count, unsigned long long* result,
                         unsigned int* unfit, DeviceContext& context) {
  const bool nulls = column.validity != nullptr;
  if (kind == AggKind::ArgMin) {
    if (nulls) launch_direct<T, AggKind::ArgMin, true, false>(column.data, column.validity, count, result, unfit, context);
    else launch_direct<T, AggKind::ArgMin, false, false>(column.data, nullptr, count, result, unfit, context);
  } else {
    if (nulls) launch_direct<T, AggKind::ArgMax, true, false>(column.data, column.validity, count, result, unfit, context);
    else launch_direct<T, AggKind::ArgMax, false, false>(column.data, nullptr, count, result, unfit, context);
  }
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
  // The result keys, then the unfit flag: all ones (no key, nothing unfit).
  std::vector<unsigned long long> words(args.size() + 1);
  DeviceBuffer d_words(context, words.size() * sizeof(unsigned long long));
  GPUSQL_CUDA_TRY(cudaMemsetAsync(d_words.data(), 0xff, words.size() * sizeof(unsigned long long), context.stream()));
  unsigned int* d_unfit = reinterpret_cast<unsigned int*>(d_words.as<unsigned long long>() + args.size());
  const ColumnPointer* direct = predicate.length == 0 && args.size() == 1 ? direct_column(args[0].order, columns)
                                                                          : nullptr;
  if (direct) {
    unsigned long long* d_result = d_words.as<unsigned long long>();
    if (direct->type == Type::Real) launch_direct_query<float>(args[0].kind, *direct, count, d_result, d_unfit, context);
    else if (direct->type == Type::Varchar)
      launch_direct_query<uint32_t>(args[0].kind, *direct, count, d_result, d_unfit, context);
    else launch_direct_query<int32_t>(args[0].kind, *direct, count, d_result, d_unfit, context);
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
  context.copy_to_host(words.data(), d_words.data(), words.size() * sizeof(unsigned long long));
  const bool fits = (words[args.size()] & 0xffffffffull) == 0xffffffffull;
  for (std::size_t a = 0; a < args.size(); ++a) {
    results[a].fits = fits;
    if (words[a] != kNoKey) results[a].position = static_cast<uint32_t>(words[a] & 0xffffffffull);
  }
  return results;
}

void packed_arg_min_int32(const int32_t* d_values, std::size_t count, unsigned long long* d_result,
                          DeviceContext& context) {
  if (count == 0) return;
  if (count >= 0xffffffffull) throw Error(ErrorKind::NotSupported, "packed_arg_min_int32: 2^32 - 1 values or more");
  launch_direct<int32_t, AggKind::ArgMin, false, false>(d_values, nullptr, count, d_result, nullptr, context);
  GPUSQL_CHECK_LAUNCH();
}

void cas_arg_min_int32(const int32_t* d_values, std::size_t count, unsigned long long* d_result,
                       DeviceContext& context) {
  if (count == 0) return;
  if (count >= 0xffffffffull) throw Error(ErrorKind::NotSupported, "cas_arg_min_int32: 2^32 - 1 values or more");
  launch_direct<int32_t, AggKind::ArgMin, false, true>(d_values, nullptr, count, d_result, nullptr, context);
  GPUSQL_CHECK_LAUNCH();
}

}  // namespace gpusql::kernels
