// Radix sorts, prefix sums and ORDER BY. The heavy CUB device-wide headers
// live in this one file; the other kernel files call the wrappers declared
// in kernels/sort.hpp.
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>

#include "kernels/gather.hpp"
#include "kernels/launch.hpp"
#include "kernels/sort.hpp"
#include "kernels/sort_column.hpp"

namespace gpusql::kernels {

void sort_row_ids(uint32_t* d_ids, std::size_t count, std::size_t max_row, DeviceContext& context) {
  if (count < 2) return;
  int end_bit = 1;
  while (end_bit < 32 && (std::size_t{1} << end_bit) <= max_row) ++end_bit;
  DeviceBuffer alternate(context, count * sizeof(uint32_t));
  cub::DoubleBuffer<uint32_t> keys(d_ids, alternate.as<uint32_t>());
  // Positions are 32-bit, so counts are too: CUB's 32-bit offsets pick its
  // tuned policies (more items per thread than with 64-bit offsets).
  const uint32_t n = static_cast<uint32_t>(count);
  run_cub(
      [&](void* temp, std::size_t& temp_bytes) {
        return cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys, n, 0, end_bit, context.stream());
      },
      context);
  if (keys.Current() != d_ids)
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(d_ids, keys.Current(), count * sizeof(uint32_t), cudaMemcpyDeviceToDevice,
                                    context.stream()));
}

namespace {

// Item counts go to CUB as 32-bit integers: CUB sizes its offsets by the
// count's type, and its tuned SM90 policy for 32-bit keys assumes 32-bit
// offsets (23 items per thread for pairs against 17 with 64-bit ones).
// Positions are 32-bit, so no sorted sequence is longer.
void check_count(std::size_t count) {
  if (count > UINT32_MAX) throw Error(ErrorKind::Execution, "internal: a sort of over 2^32 items");
}

template <class K, class N = uint32_t>
void sort_pairs_impl(DeviceBuffer& keys, DeviceBuffer& values, std::size_t count, int begin_bit, int end_bit,
                     DeviceContext& context) {
  DeviceBuffer keys_alt(context, count * sizeof(K));
  DeviceBuffer values_alt(context, count * sizeof(uint32_t));
  cub::DoubleBuffer<K> k(keys.as<K>(), keys_alt.as<K>());
  cub::DoubleBuffer<uint32_t> v(values.as<uint32_t>(), values_alt.as<uint32_t>());
  run_cub(
      [&](void* temp, std::size_t& temp_bytes) {
        return cub::DeviceRadixSort::SortPairs(temp, temp_bytes, k, v, static_cast<N>(count), begin_bit, end_bit,
                                               context.stream());
      },
      context);
  if (k.Current() != keys.as<K>()) std::swap(keys, keys_alt);
  if (v.Current() != values.as<uint32_t>()) std::swap(values, values_alt);
}

template <class K, class N = uint32_t>
void sort_keys_impl(DeviceBuffer& keys, std::size_t count, int end_bit, DeviceContext& context) {
  DeviceBuffer keys_alt(context, count * sizeof(K));
  cub::DoubleBuffer<K> k(keys.as<K>(), keys_alt.as<K>());
  run_cub(
      [&](void* temp, std::size_t& temp_bytes) {
        return cub::DeviceRadixSort::SortKeys(temp, temp_bytes, k, static_cast<N>(count), 0, end_bit,
                                              context.stream());
      },
      context);
  if (k.Current() != keys.as<K>()) std::swap(keys, keys_alt);
}

template <class T>
T exclusive_scan_impl(T* d_values, std::size_t count, DeviceContext& context) {
  if (count == 0) return 0;
  // The total is the last input plus the last output: keep the last input.
  DeviceBuffer last(context, 2 * sizeof(T));
  GPUSQL_CUDA_TRY(cudaMemcpyAsync(last.as<T>(), d_values + count - 1, sizeof(T), cudaMemcpyDeviceToDevice,
                                  context.stream()));
  run_cub(
      [&](void* temp, std::size_t& temp_bytes) {
        return cub::DeviceScan::ExclusiveSum(temp, temp_bytes, d_values, d_values, static_cast<int64_t>(count),
                                             context.stream());
      },
      context);
  GPUSQL_CUDA_TRY(cudaMemcpyAsync(last.as<T>() + 1, d_values + count - 1, sizeof(T), cudaMemcpyDeviceToDevice,
                                  context.stream()));
  T host[2] = {0, 0};
  context.copy_to_host(host, last.data(), sizeof host);
  return host[0] + host[1];
}

struct LessThan {
  float threshold;
  __host__ __device__ bool operator()(float v) const { return v < threshold; }
};

// ---- ORDER BY ----

constexpr int kOrderThreads = 256;
constexpr int kOrderItems = 4;  // keys per thread per tile, loaded before any is used
constexpr uint64_t kOrderTile = static_cast<uint64_t>(kOrderThreads) * kOrderItems;
constexpr unsigned kFullMask = 0xffffffffu;

// Whether a type's order-preserving code fits 32 bits.
__host__ __device__ inline bool narrow_type(Type type) {
  return type == Type::Integer || type == Type::Date || type == Type::Varchar || type == Type::Boolean ||
         type == Type::Real;
}

// The order-preserving code of a valid value: ascending unsigned order of
// codes is the ascending SQL order of values, equal values (-0.0 and 0.0
// included) get equal codes, every NaN gets the largest code (NaN sorts
// after +inf, as in DuckDB and PostgreSQL); DESC inverts the value bits.
__device__ __forceinline__ uint64_t value_code(Type type, bool descending, const Slot& s) {
  uint64_t u;
  switch (type) {
    case Type::Integer:
    case Type::Date: u = static_cast<uint32_t>(static_cast<int32_t>(s.i)) ^ 0x80000000u; break;
    case Type::Varchar:
    case Type::Boolean: u = static_cast<uint32_t>(s.i); break;
    case Type::Real: {
      float f = static_cast<float>(s.d);
      uint32_t b = __float_as_uint(f == 0.0f ? 0.0f : f);
      u = f != f ? 0xffffffffu : (b & 0x80000000u) ? ~b : (b | 0x80000000u);
      break;
    }
    case Type::Double: {
      uint64_t b = static_cast<uint64_t>(__double_as_longlong(s.d == 0.0 ? 0.0 : s.d));
      u = s.d != s.d ? ~0ull : (b >> 63) ? ~b : (b | (1ull << 63));
      break;
    }
    default: u = static_cast<uint64_t>(s.i) ^ (1ull << 63); break;  // BIGINT, DECIMAL, rowid
  }
  if (descending) u = narrow_type(type) ? (~u & 0xffffffffull) : ~u;
  return u;
}

// How a key's values become the unsigned codes that are sorted: a valid
// value's code minus `base` (mod 2^64), a NULL `null_code`. With base = the
// smallest code (one less for NULLS FIRST) and null_code = 0 or one past the
// largest, NULLs fold into the same key and the codes need only the bits of
// their range.
struct Fold {
  uint64_t base = 0;
  uint64_t null_code = 0;
  Type type = Type::Integer;
  bool descending = false;
};

__device__ __forceinline__ uint64_t folded_code(const Fold& fold, const Slot& s) {
  return s.valid ? value_code(fold.type, fold.descending, s) - fold.base : fold.null_code;
}

__device__ __forceinline__ uint64_t shift_right(uint64_t x, int bits) { return bits >= 64 ? 0 : x >> bits; }

// Where a key's values come from: any program (through the interpreter), or
// -- the common case, an ORDER BY column of a base table -- the column's
// array read directly with its type known at compile time.
struct ProgramSource {
  const ExprProgram* program;
  const ColumnSet* columns;
  __device__ __forceinline__ Slot operator()(int64_t position, uint32_t& error) const {
    return evaluate(*program, *columns, position, error);
  }
};

template <Type TYPE>
struct ColumnSource {
  const void* data;
  const uint32_t* validity;
  __device__ __forceinline__ Slot operator()(int64_t row, uint32_t&) const {
    Slot s = load_raw(data, TYPE, row);
    s.valid = row_is_valid(validity, row);
    return s;
  }
};

// Loads one tile's values: item j of thread t is position
// tile + j * kOrderThreads + t (coalesced), read at perm[...] unless IDENTITY.
template <class Source, bool IDENTITY>
__device__ __forceinline__ void load_tile(const Source& source, const uint32_t* __restrict__ perm, uint64_t tile,
                                          uint64_t count, Slot (&values)[kOrderItems], uint32_t& error) {
#pragma unroll
  for (int j = 0; j < kOrderItems; ++j) {
    const uint64_t i = tile + static_cast<uint64_t>(j) * kOrderThreads + threadIdx.x;
    if (i < count) values[j] = source(IDENTITY ? static_cast<int64_t>(i) : static_cast<int64_t>(perm[i]), error);
  }
}

struct KeyStats {
  unsigned long long min;
  unsigned long long max;
  unsigned long long all_and;  // AND of the codes: bits set in every code
  unsigned long long any_or;   // OR of the codes
  unsigned int any_null;
  unsigned int any_valid;
  unsigned int any_nan;  // counted by the stats pass for CUB's own order only
};

constexpr KeyStats kEmptyStats{~0ull, 0ull, ~0ull, 0ull, 0u, 0u, 0u};

// Per-thread partial stats of valid codes.
struct StatsAccumulator {
  uint64_t lo = ~0ull, hi = 0, all = ~0ull, any = 0;
  bool any_null = false, any_valid = false, any_nan = false;
  __device__ __forceinline__ void add(uint64_t code) {
    lo = min(lo, code);
    hi = max(hi, code);
    all &= code;
    any |= code;
    any_valid = true;
  }
};

// Block-wide reduction of the accumulators, one atomic of each per block.
// Every thread of the block must call it. The flags go through the same
// shared partials as the values, behind one plain barrier. With one
// __syncthreads_or() a flag (a third for the NaN flag), the top-k select's
// histogram kernel stopped on an illegal instruction at one of them, which
// nvcc 13 had placed after thread 0's first atomics (seen in its SASS).
__device__ __forceinline__ void publish_stats(StatsAccumulator a, KeyStats* __restrict__ stats) {
  __shared__ uint64_t partial[5][kOrderThreads / 32];
  enum : unsigned { kAnyNull = 1, kAnyValid = 2, kAnyNan = 4 };
  unsigned flags = (a.any_null ? kAnyNull : 0u) | (a.any_valid ? kAnyValid : 0u) | (a.any_nan ? kAnyNan : 0u);
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    a.lo = min(a.lo, __shfl_xor_sync(kFullMask, a.lo, offset));
    a.hi = max(a.hi, __shfl_xor_sync(kFullMask, a.hi, offset));
    a.all &= __shfl_xor_sync(kFullMask, a.all, offset);
    a.any |= __shfl_xor_sync(kFullMask, a.any, offset);
  }
  flags = __reduce_or_sync(kFullMask, flags);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) {
    partial[0][warp] = a.lo;
    partial[1][warp] = a.hi;
    partial[2][warp] = a.all;
    partial[3][warp] = a.any;
    partial[4][warp] = flags;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < kOrderThreads / 32; ++w) {
      a.lo = min(a.lo, partial[0][w]);
      a.hi = max(a.hi, partial[1][w]);
      a.all &= partial[2][w];
      a.any |= partial[3][w];
      flags |= static_cast<unsigned>(partial[4][w]);
    }
    if (flags & kAnyValid) {
      atomicMin(&stats->min, static_cast<unsigned long long>(a.lo));
      atomicMax(&stats->max, static_cast<unsigned long long>(a.hi));
      atomicAnd(&stats->all_and, static_cast<unsigned long long>(a.all));
      atomicOr(&stats->any_or, static_cast<unsigned long long>(a.any));
      atomicOr(&stats->any_valid, 1u);
    }
    if (flags & kAnyNull) atomicOr(&stats->any_null, 1u);
    if (flags & kAnyNan) atomicOr(&stats->any_nan, 1u);
  }
}

// The key CUB's radix sort ranks a column's value by when it sorts the
// column's own values (kernels/sort_column.cu), up to an inversion of all
// bits -- which leaves the bits in which keys differ and max - min as they
// are, all the stats the sort needs: the sign flipped (integers), or the
// IEEE flip (floats) with both zeros given one key. CUB gives them the
// flipped +0.0 ascending; descending it inverts the flipped bits and then
// gives the inverted +0.0 the flipped bits of +0.0 -- the inverted -0.0 --
// so here, before the inversion, the flipped -0.0. NaNs are ranked by their
// bits; is_nan says there is one (that path is then not taken).
template <class T>
__device__ __forceinline__ uint64_t cub_rank_key(T value, bool descending, bool& is_nan) {
  if constexpr (std::is_same_v<T, int32_t>) {
    return static_cast<uint32_t>(value) ^ 0x80000000u;
  } else if constexpr (std::is_same_v<T, float>) {
    const uint32_t b = __float_as_uint(value);
    is_nan |= (b & 0x7fffffffu) > 0x7f800000u;
    if ((b << 1) == 0) return descending ? 0x7fffffffu : 0x80000000u;
    return (b >> 31) ? ~b : (b | 0x80000000u);
  } else {
    static_assert(std::is_same_v<T, double>);
    const uint64_t b = static_cast<uint64_t>(__double_as_longlong(value));
    is_nan |= (b & ~(1ull << 63)) > 0x7ff0000000000000ull;
    if ((b << 1) == 0) return descending ? ~(1ull << 63) : 1ull << 63;
    return (b >> 63) ? ~b : (b | (1ull << 63));
  }
}

// The stats of cub_rank_key() over a whole column without NULLs, and
// whether any value is NaN: a read of the column, four loads in flight a
// thread.
template <class T>
__global__ void __launch_bounds__(kOrderThreads)
    column_rank_stats_kernel(const T* __restrict__ values, uint64_t count, bool descending,
                             KeyStats* __restrict__ stats) {
  StatsAccumulator a;
  bool nan = false;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < count; i += 4 * stride) {
    T v[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) v[j] = values[i + j * stride];
#pragma unroll
    for (int j = 0; j < 4; ++j) a.add(cub_rank_key(v[j], descending, nan));
  }
  for (; i < count; i += stride) a.add(cub_rank_key(values[i], descending, nan));
  a.any_nan = nan;
  publish_stats(a, stats);
}

// The stats of the codes (fold.base = 0) of the valid values, and whether
// any value is NULL. Reads the key only.
template <class Source, bool IDENTITY>
__global__ void __launch_bounds__(kOrderThreads)
    order_stats_kernel(Source source, Fold fold, const uint32_t* __restrict__ perm, uint64_t count,
                       KeyStats* __restrict__ stats, uint32_t* __restrict__ error_word) {
  uint32_t error = 0;
  StatsAccumulator a;
  for (uint64_t tile = blockIdx.x * kOrderTile; tile < count; tile += gridDim.x * kOrderTile) {
    Slot values[kOrderItems] = {};
    load_tile<Source, IDENTITY>(source, perm, tile, count, values, error);
#pragma unroll
    for (int j = 0; j < kOrderItems; ++j) {
      if (tile + static_cast<uint64_t>(j) * kOrderThreads + threadIdx.x >= count) continue;
      if (values[j].valid) a.add(value_code(fold.type, fold.descending, values[j]));
      else a.any_null = true;
    }
  }
  publish_stats(a, stats);
  if (error) atomicOr(error_word, error);
}

// Writes each position's folded code to `codes` (and, for IDENTITY, the
// position itself to `positions`: the sort's values, no separate pass).
// STATS: also the stats of the codes written, for keys without NULLs.
template <class Source, class K, bool IDENTITY, bool STATS>
__global__ void __launch_bounds__(kOrderThreads)
    order_encode_kernel(Source source, Fold fold, const uint32_t* __restrict__ perm, uint64_t count,
                        K* __restrict__ codes, uint32_t* __restrict__ positions, KeyStats* __restrict__ stats,
                        uint32_t* __restrict__ error_word) {
  uint32_t error = 0;
  StatsAccumulator a;
  for (uint64_t tile = blockIdx.x * kOrderTile; tile < count; tile += gridDim.x * kOrderTile) {
    Slot values[kOrderItems] = {};
    load_tile<Source, IDENTITY>(source, perm, tile, count, values, error);
#pragma unroll
    for (int j = 0; j < kOrderItems; ++j) {
      const uint64_t i = tile + static_cast<uint64_t>(j) * kOrderThreads + threadIdx.x;
      if (i >= count) continue;
      const uint64_t code = folded_code(fold, values[j]);
      codes[i] = static_cast<K>(code);
      if (IDENTITY) positions[i] = static_cast<uint32_t>(i);
      if (STATS) a.add(code);
    }
  }
  if (STATS) publish_stats(a, stats);
  if (error) atomicOr(error_word, error);
}

// out[i] = in[i] - base (in place when in == out).
template <class In, class Out>
__global__ void __launch_bounds__(kOrderThreads)
    order_rebase_kernel(const In* in, Out* out, uint64_t count, uint64_t base) {
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<Out>(static_cast<uint64_t>(in[i]) - base);
}

// The NULL rank (0 sorts first) of each position of `perm`: for keys whose
// valid codes span all 2^64 values, so NULLs cannot fold into them.
__global__ void __launch_bounds__(kOrderThreads)
    order_nulls_kernel(ProgramSource source, bool nulls_first, const uint32_t* __restrict__ perm, uint64_t count,
                       uint32_t* __restrict__ out, uint32_t* __restrict__ error_word) {
  uint32_t error = 0;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    Slot s = source(perm[i], error);
    out[i] = nulls_first ? (s.valid ? 1u : 0u) : (s.valid ? 0u : 1u);
  }
  if (error) atomicOr(error_word, error);
}

// ---- small inputs: ranks by counting, no host round trip ----

constexpr int kSmallSortThreads = 256;  // positions i per block, and positions j per staged chunk

// What the small-path kernels know of one key; all keys go by value.
struct SmallSortKey {
  const ExprProgram* program;
  Type type;
  bool descending;
  bool nulls_first;
};

struct SmallSortKeys {
  SmallSortKey key[kSmallSortKeys];
  int count;
  const ColumnSet* columns;
};

// Per position i and key k: codes[k * count + i], the value's code (0 for a
// NULL), and bit k of sides[i], set when the value sorts on the later side of
// the NULL/non-NULL split (NULLs under NULLS LAST, valid values under NULLS
// FIRST). Comparing (bit, code) then orders a key as the radix path's fold
// does: two NULLs tie, NULLs go to their end, valid values by code.
__global__ void __launch_bounds__(kSmallSortThreads)
    small_sort_encode_kernel(SmallSortKeys keys, uint32_t count, uint64_t* __restrict__ codes,
                             uint32_t* __restrict__ sides, uint32_t* __restrict__ error_word) {
  uint32_t error = 0;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    uint32_t side = 0;
    for (int k = 0; k < keys.count; ++k) {
      const SmallSortKey& key = keys.key[k];
      const Slot s = ProgramSource{key.program, keys.columns}(i, error);
      codes[static_cast<uint64_t>(k) * count + i] = s.valid ? value_code(key.type, key.descending, s) : 0;
      if (s.valid == key.nulls_first) side |= 1u << k;
    }
    sides[i] = side;
  }
  if (error) atomicOr(error_word, error);
}

// rank[i] += the number of positions j of this block's chunk (blockIdx.y)
// that sort before i: a smaller tuple, or an equal one at j < i. Over all
// chunks each rank is the number of positions before i: distinct ranks, the
// stable order. rank must start at 0.
__global__ void __launch_bounds__(kSmallSortThreads)
    small_sort_rank_kernel(int key_count, uint32_t count, const uint64_t* __restrict__ codes,
                           const uint32_t* __restrict__ sides, uint32_t* __restrict__ rank) {
  __shared__ uint64_t chunk_codes[kSmallSortKeys][kSmallSortThreads];
  __shared__ uint32_t chunk_sides[kSmallSortThreads];
  const uint32_t chunk = blockIdx.y * kSmallSortThreads;
  const uint32_t j_end = min(count - chunk, static_cast<uint32_t>(kSmallSortThreads));
  if (threadIdx.x < j_end) {
    for (int k = 0; k < key_count; ++k)
      chunk_codes[k][threadIdx.x] = codes[static_cast<uint64_t>(k) * count + chunk + threadIdx.x];
    chunk_sides[threadIdx.x] = sides[chunk + threadIdx.x];
  }
  __syncthreads();
  const uint32_t i = blockIdx.x * kSmallSortThreads + threadIdx.x;
  if (i >= count) return;
  // This thread's own tuple in registers: the unrolled loops index it with
  // constants only.
  uint64_t own[kSmallSortKeys];
#pragma unroll
  for (int k = 0; k < static_cast<int>(kSmallSortKeys); ++k)
    own[k] = k < key_count ? codes[static_cast<uint64_t>(k) * count + i] : 0;
  const uint32_t own_side = sides[i];
  uint32_t before = 0;
  for (uint32_t j = 0; j < j_end; ++j) {
    bool less = chunk + j < i;  // equal tuples: the earlier position first
#pragma unroll
    for (int k = 0; k < static_cast<int>(kSmallSortKeys); ++k) {
      if (k >= key_count) break;
      const uint32_t side_j = (chunk_sides[j] >> k) & 1u, side_i = (own_side >> k) & 1u;
      if (side_j != side_i) {
        less = side_j < side_i;
        break;
      }
      const uint64_t code_j = chunk_codes[k][j];
      if (code_j != own[k]) {
        less = code_j < own[k];
        break;
      }
    }
    before += less;
  }
  if (before) atomicAdd(&rank[i], before);
}

__global__ void __launch_bounds__(kSmallSortThreads)
    small_sort_scatter_kernel(uint32_t count, const uint32_t* __restrict__ rank, uint32_t* __restrict__ perm) {
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) perm[rank[i]] = i;
}

// ---- top-k: an MSD radix select on the folded codes of the first key ----

constexpr int kSelectDigitBits = 12;
constexpr int kSelectBins = 1 << kSelectDigitBits;

// Counts, among the positions whose code agrees with `prefix` above bit
// shift + digit_bits, the codes' `digit_bits` bits from bit `shift` on.
// STATS: also the min/max of all codes (NULLs' included).
template <class Source, bool STATS>
__global__ void __launch_bounds__(kOrderThreads)
    select_histogram_kernel(Source source, Fold fold, uint64_t count, int shift, int digit_bits, uint64_t prefix,
                            uint32_t* __restrict__ histogram, KeyStats* __restrict__ stats,
                            uint32_t* __restrict__ error_word) {
  __shared__ uint32_t bins[kSelectBins];
  const int bin_count = 1 << digit_bits;
  for (int b = threadIdx.x; b < bin_count; b += blockDim.x) bins[b] = 0;
  __syncthreads();
  uint32_t error = 0;
  StatsAccumulator a;
  for (uint64_t tile = blockIdx.x * kOrderTile; tile < count; tile += gridDim.x * kOrderTile) {
    Slot values[kOrderItems] = {};
    load_tile<Source, true>(source, nullptr, tile, count, values, error);
#pragma unroll
    for (int j = 0; j < kOrderItems; ++j) {
      if (tile + static_cast<uint64_t>(j) * kOrderThreads + threadIdx.x >= count) continue;
      const uint64_t code = folded_code(fold, values[j]);
      if (STATS) a.add(code);
      if (shift_right(code, shift + digit_bits) == prefix)
        atomicAdd(&bins[(code >> shift) & static_cast<uint64_t>(bin_count - 1)], 1u);
    }
  }
  if (STATS) publish_stats(a, stats);
  __syncthreads();
  for (int b = threadIdx.x; b < bin_count; b += blockDim.x)
    if (bins[b]) atomicAdd(&histogram[b], bins[b]);
  if (error) atomicOr(error_word, error);
}

// Appends (in no particular order) every position whose code's bits from
// `shift` up are at most `threshold`.
template <class Source>
__global__ void __launch_bounds__(kOrderThreads)
    select_candidates_kernel(Source source, Fold fold, uint64_t count, int shift, uint64_t threshold,
                             uint32_t* __restrict__ out, uint32_t* __restrict__ written,
                             uint32_t* __restrict__ error_word) {
  uint32_t error = 0;
  const unsigned lane = threadIdx.x % 32;
  for (uint64_t tile = blockIdx.x * kOrderTile; tile < count; tile += gridDim.x * kOrderTile) {
    Slot values[kOrderItems] = {};
    load_tile<Source, true>(source, nullptr, tile, count, values, error);
#pragma unroll
    for (int j = 0; j < kOrderItems; ++j) {
      const uint64_t i = tile + static_cast<uint64_t>(j) * kOrderThreads + threadIdx.x;
      const bool selected = i < count && shift_right(folded_code(fold, values[j]), shift) <= threshold;
      const unsigned ballot = __ballot_sync(kFullMask, selected);  // the loop is uniform across the block
      if (ballot == 0) continue;
      const int leader = __ffs(ballot) - 1;
      uint32_t base = 0;
      if (static_cast<int>(lane) == leader) base = atomicAdd(written, static_cast<uint32_t>(__popc(ballot)));
      base = __shfl_sync(kFullMask, base, leader);
      if (selected) out[base + __popc(ballot & ((1u << lane) - 1u))] = static_cast<uint32_t>(i);
    }
  }
  if (error) atomicOr(error_word, error);
}

// ---- host side of ORDER BY ----

// Calls f(source, IDENTITY) with the cheapest source that reads `key`: a
// typed column source for a plain column read without a permutation,
// the interpreter otherwise.
template <class F>
void with_source(const OrderKey& key, const ColumnSet& columns, const ExprProgram* d_program,
                 const ColumnSet* d_columns, bool identity, F&& f) {
  if (identity && key.program.shape == Shape::Column) {
    const ColumnPointer& c = columns.columns[key.program.terms[0].slot];
    if (!c.rows && !c.is_rowid) {
      switch (c.type) {
        case Type::Integer:
        case Type::Date: return f(ColumnSource<Type::Integer>{c.data, c.validity}, std::true_type{});
        case Type::Varchar: return f(ColumnSource<Type::Varchar>{c.data, c.validity}, std::true_type{});
        case Type::BigInt:
        case Type::Decimal: return f(ColumnSource<Type::BigInt>{c.data, c.validity}, std::true_type{});
        case Type::Double: return f(ColumnSource<Type::Double>{c.data, c.validity}, std::true_type{});
        case Type::Real: return f(ColumnSource<Type::Real>{c.data, c.validity}, std::true_type{});
        default: break;
      }
    }
  }
  const ProgramSource program{d_program, d_columns};
  if (identity) f(program, std::true_type{});
  else f(program, std::false_type{});
}

// Whether `key` can be NULL at all: a plain column without a validity
// bitmap (or rowid) cannot; any other program is assumed to.
bool may_be_null(const OrderKey& key, const ColumnSet& columns) {
  if (key.program.shape != Shape::Column) return true;
  const ColumnPointer& c = columns.columns[key.program.terms[0].slot];
  return !c.is_rowid && c.validity != nullptr;
}

int radix_passes(int bits) { return (bits + 7) / 8; }  // CUB's onesweep sorts 8 bits a pass

unsigned order_grid(std::size_t count, DeviceContext& context) {
  return grid_for((count + kOrderTile - 1) / kOrderTile, context, 8);
}

KeyStats read_stats(const DeviceBuffer& buffer, DeviceContext& context) {
  KeyStats stats;
  context.copy_to_host(&stats, buffer.data(), sizeof stats);
  return stats;
}

void reset_stats(DeviceBuffer& buffer, DeviceContext& context) {
  context.copy_to_device(buffer.data(), &kEmptyStats, sizeof kEmptyStats);
}

// The stats of `key`'s codes over the positions of `perm` (all positions
// when identity). Synchronizes.
KeyStats key_stats(const OrderKey& key, const ColumnSet& columns, const ExprProgram* d_program,
                   const ColumnSet* d_columns, const uint32_t* perm, std::size_t count, bool identity,
                   DeviceBuffer& stats_buffer, uint32_t* d_error, DeviceContext& context) {
  reset_stats(stats_buffer, context);
  const Fold fold{0, 0, key.type, key.descending};
  with_source(key, columns, d_program, d_columns, identity, [&](auto source, auto is_identity) {
    order_stats_kernel<decltype(source), decltype(is_identity)::value>
        <<<order_grid(count, context), kOrderThreads, 0, context.stream()>>>(source, fold, perm, count,
                                                                            stats_buffer.as<KeyStats>(), d_error);
    GPUSQL_CHECK_LAUNCH();
  });
  return read_stats(stats_buffer, context);
}

// Launches the encode pass of `key` into `codes` (K: uint32_t or uint64_t).
template <class K, bool STATS>
void encode_key(const OrderKey& key, const ColumnSet& columns, const ExprProgram* d_program,
                const ColumnSet* d_columns, const Fold& fold, DeviceBuffer& perm, std::size_t count, bool identity,
                DeviceBuffer& codes, DeviceBuffer& stats_buffer, uint32_t* d_error, DeviceContext& context) {
  with_source(key, columns, d_program, d_columns, identity, [&](auto source, auto is_identity) {
    constexpr bool kIdentity = decltype(is_identity)::value;
    order_encode_kernel<decltype(source), K, kIdentity, STATS><<<order_grid(count, context), kOrderThreads, 0,
                                                                 context.stream()>>>(
        source, fold, kIdentity ? nullptr : perm.as<uint32_t>(), count, codes.as<K>(),
        kIdentity ? perm.as<uint32_t>() : nullptr, stats_buffer.as<KeyStats>(), d_error);
    GPUSQL_CHECK_LAUNCH();
  });
}

// The fold that puts NULLs first or last (see Fold), from the stats of the
// valid codes; false when they cannot fold (valid codes span all 64 bits).
bool fold_of(const OrderKey& key, const KeyStats& stats, Fold& fold, uint64_t& top) {
  fold = Fold{0, 0, key.type, key.descending};
  const uint64_t range = stats.any_valid ? stats.max - stats.min : 0;
  if (!stats.any_valid) {  // all NULL
    top = 0;
    return true;
  }
  if (!stats.any_null) {
    fold.base = stats.min;
    top = range;
    return true;
  }
  if (range == ~0ull) return false;
  fold.base = key.nulls_first ? stats.min - 1 : stats.min;
  fold.null_code = key.nulls_first ? 0 : range + 1;
  top = range + 1;
  return true;
}

// The first key sorted (perm not written yet) when it is a plain column of
// a base table, without NULLs, of a type CUB sorts in SQL's order: CUB's
// radix sort ranks the column's own values and no codes are written -- one
// read of the column for the bits to sort, where the encode pass reads it
// and writes codes as wide. Not when CUB's order is not SQL's (a NaN, which
// it ranks by its bits) or when codes minus their minimum would take fewer
// passes (-5..5), or fit 32 bits: then it returns false, perm written as
// the identity, and the encode pass does the sort. Also when its buffers do
// not fit: it holds 28 bytes a row of doubles (CUB's sorted keys, which go
// unused, and the two buffers its passes alternate between, besides the
// positions in and out) where the encode path holds 24, so a sort that
// fits the one may still fit the other.
bool sort_column_values(const OrderKey& key, const ColumnSet& columns, DeviceBuffer& perm, std::size_t count,
                        DeviceBuffer& stats_buffer, DeviceContext& context) {
  if (key.program.shape != Shape::Column) return false;
  const ColumnPointer& c = columns.columns[key.program.terms[0].slot];
  if (c.rows || c.is_rowid || c.validity || c.type != key.type || !column_sort_type(c.type)) return false;
  reset_stats(stats_buffer, context);
  const unsigned grid = grid_for((count + kOrderThreads - 1) / kOrderThreads, context, 8);
  auto launch = [&](auto* values) {
    column_rank_stats_kernel<<<grid, kOrderThreads, 0, context.stream()>>>(values, count, key.descending,
                                                                          stats_buffer.as<KeyStats>());
    GPUSQL_CHECK_LAUNCH();
  };
  if (c.type == Type::Double) launch(static_cast<const double*>(c.data));
  else if (c.type == Type::Real) launch(static_cast<const float*>(c.data));
  else launch(static_cast<const int32_t*>(c.data));  // INTEGER, DATE
  // The positions are written while the stats come back.
  KeyStats stats;
  context.copy_to_host_meanwhile(&stats, stats_buffer.data(), sizeof stats,
                                 [&] { sequence(0, count, perm.as<uint32_t>(), context); });
  if (stats.any_nan) return false;
  const uint64_t varying = stats.all_and ^ stats.any_or;
  if (varying == 0) return true;  // one value: the order stays
  const int begin_bit = __builtin_ctzll(varying), end_bit = 64 - __builtin_clzll(varying);
  const int range_bits = bits_for(stats.max - stats.min);
  if (!narrow_type(key.type) && range_bits <= 32) return false;  // 32-bit codes: half the bytes a pass
  if (radix_passes(range_bits) < radix_passes(end_bit - begin_bit)) return false;
  check_count(count);
  try {
    sort_column_pairs(c.data, c.type, key.descending, perm, count, begin_bit, end_bit, context);
  } catch (const Error& e) {
    // Thrown by an allocation, before CUB ran: perm is as it was.
    if (e.kind() != ErrorKind::OutOfMemory) throw;
    return false;
  }
  return true;
}

// Sorts `perm` (`count` positions) stably by one key. identity: perm is not
// written yet and stands for 0, 1, ..., count - 1 (the encode pass writes
// it, so the first key costs no separate pass for the positions).
void sort_by_key(const OrderKey& key, const ColumnSet& columns, const ExprProgram* d_program,
                 const ColumnSet* d_columns, DeviceBuffer& perm, std::size_t count, bool identity,
                 DeviceBuffer& stats_buffer, uint32_t* d_error, DeviceContext& context) {
  const bool narrow = narrow_type(key.type);
  if (identity && !may_be_null(key, columns) &&
      sort_column_values(key, columns, perm, count, stats_buffer, context))
    return;
  if (!may_be_null(key, columns)) {
    // One pass: raw codes, the positions and the codes' stats together; the
    // range decides afterwards which bits to sort.
    reset_stats(stats_buffer, context);
    const Fold raw{0, 0, key.type, key.descending};
    DeviceBuffer codes(context, count * (narrow ? sizeof(uint32_t) : sizeof(uint64_t)));
    if (narrow)
      encode_key<uint32_t, true>(key, columns, d_program, d_columns, raw, perm, count, identity, codes, stats_buffer,
                                 d_error, context);
    else
      encode_key<uint64_t, true>(key, columns, d_program, d_columns, raw, perm, count, identity, codes, stats_buffer,
                                 d_error, context);
    const KeyStats stats = read_stats(stats_buffer, context);
    const uint64_t varying = stats.all_and ^ stats.any_or;  // the bits in which codes differ
    if (varying == 0) return;                               // one value: the order stays
    const int begin_bit = __builtin_ctzll(varying), end_bit = 64 - __builtin_clzll(varying);
    const int range_bits = bits_for(stats.max - stats.min);
    const unsigned grid = grid_for((count + kOrderThreads - 1) / kOrderThreads, context, 8);
    if (!narrow && range_bits <= 32) {
      // Wide keys of a narrow range (BIGINT ids, say): sort 32-bit codes.
      DeviceBuffer narrow_codes(context, count * sizeof(uint32_t));
      order_rebase_kernel<uint64_t, uint32_t><<<grid, kOrderThreads, 0, context.stream()>>>(
          codes.as<uint64_t>(), narrow_codes.as<uint32_t>(), count, stats.min);
      GPUSQL_CHECK_LAUNCH();
      codes = DeviceBuffer();
      sort_pairs(narrow_codes, perm, count, 0, range_bits, false, context);
    } else if (radix_passes(range_bits) < radix_passes(end_bit - begin_bit)) {
      // Values of a small range around a boundary of the codes (-5..5):
      // minus the minimum they need fewer passes.
      if (narrow)
        order_rebase_kernel<uint32_t, uint32_t><<<grid, kOrderThreads, 0, context.stream()>>>(
            codes.as<uint32_t>(), codes.as<uint32_t>(), count, stats.min);
      else
        order_rebase_kernel<uint64_t, uint64_t><<<grid, kOrderThreads, 0, context.stream()>>>(
            codes.as<uint64_t>(), codes.as<uint64_t>(), count, stats.min);
      GPUSQL_CHECK_LAUNCH();
      sort_pairs(codes, perm, count, 0, range_bits, !narrow, context);
    } else {
      sort_pairs(codes, perm, count, begin_bit, end_bit, !narrow, context);
    }
    return;
  }
  // Keys that may be NULL: the stats first, then codes with NULLs folded in.
  const KeyStats stats = key_stats(key, columns, d_program, d_columns, perm.as<uint32_t>(), count, identity,
                                   stats_buffer, d_error, context);
  Fold fold;
  uint64_t top = 0;
  if (!fold_of(key, stats, fold, top)) {
    // Valid codes over all 64 bits and NULLs: sort the values, then the NULL
    // rank (each pass stable).
    const Fold raw{0, 0, key.type, key.descending};
    DeviceBuffer codes(context, count * sizeof(uint64_t));
    encode_key<uint64_t, false>(key, columns, d_program, d_columns, raw, perm, count, identity, codes, stats_buffer,
                                d_error, context);
    sort_pairs(codes, perm, count, 0, 64, true, context);
    DeviceBuffer ranks(context, count * sizeof(uint32_t));
    order_nulls_kernel<<<grid_for((count + kOrderThreads - 1) / kOrderThreads, context, 8), kOrderThreads, 0,
                         context.stream()>>>(ProgramSource{d_program, d_columns}, key.nulls_first,
                                             perm.as<uint32_t>(), count, ranks.as<uint32_t>(), d_error);
    GPUSQL_CHECK_LAUNCH();
    sort_pairs(ranks, perm, count, 0, 1, false, context);
    return;
  }
  if (top == 0) {  // one value or all NULL: the order stays
    if (identity) sequence(0, count, perm.as<uint32_t>(), context);
    return;
  }
  const int bits = bits_for(top);
  const bool wide = bits > 32;
  DeviceBuffer codes(context, count * (wide ? sizeof(uint64_t) : sizeof(uint32_t)));
  if (wide)
    encode_key<uint64_t, false>(key, columns, d_program, d_columns, fold, perm, count, identity, codes, stats_buffer,
                                d_error, context);
  else
    encode_key<uint32_t, false>(key, columns, d_program, d_columns, fold, perm, count, identity, codes, stats_buffer,
                                d_error, context);
  sort_pairs(codes, perm, count, 0, bits, wide, context);
}

// The keys and columns as kernels read them.
struct DeviceKeys {
  DeviceObjects objects;
  std::size_t columns = 0;
  std::vector<std::size_t> programs;
  DeviceKeys(const std::vector<OrderKey>& keys, const ColumnSet& set, DeviceContext& context) {
    columns = objects.add(set);
    for (const auto& key : keys) programs.push_back(objects.add(key.program));
    objects.upload(context);
  }
  const ExprProgram* program(std::size_t i) const { return objects.at<ExprProgram>(programs[i]); }
  const ColumnSet* column_set() const { return objects.at<ColumnSet>(columns); }
};

// Sorts `perm` by all keys, the least significant first: each pass is
// stable, so the earlier keys decide and ties keep the order the later keys
// (and the positions' order in perm) gave.
void sort_by_keys(const std::vector<OrderKey>& keys, const ColumnSet& columns, const DeviceKeys& device,
                  DeviceBuffer& perm, std::size_t count, bool identity, uint32_t* d_error, DeviceContext& context) {
  DeviceBuffer stats_buffer(context, sizeof(KeyStats));
  for (std::size_t i = keys.size(); i-- > 0;) {
    sort_by_key(keys[i], columns, device.program(i), device.column_set(), perm, count, identity, stats_buffer,
                d_error, context);
    identity = false;
  }
}

// SET small_sort = false turns the small path off, so that a test compares
// both paths in one process.
bool takes_small_sort(const std::vector<OrderKey>& keys, std::size_t count, const DeviceContext& context) {
  return count >= 2 && count <= kSmallSortRows && !keys.empty() && keys.size() <= kSmallSortKeys &&
         context.settings().small_sort;
}

// order_positions for small inputs (see kernels/sort.hpp): encode, rank,
// scatter; no synchronization.
void small_sort(const std::vector<OrderKey>& keys, const ColumnSet& columns, std::size_t count, DeviceBuffer& perm,
                uint32_t* d_error, DeviceContext& context) {
  const DeviceKeys device(keys, columns, context);
  SmallSortKeys described{};
  described.count = static_cast<int>(keys.size());
  described.columns = device.column_set();
  for (std::size_t k = 0; k < keys.size(); ++k)
    described.key[k] = SmallSortKey{device.program(k), keys[k].type, keys[k].descending, keys[k].nulls_first};
  const uint32_t n = static_cast<uint32_t>(count);
  // One allocation: the codes (8-byte aligned at the start), sides, ranks.
  DeviceBuffer scratch(context, (keys.size() * sizeof(uint64_t) + 2 * sizeof(uint32_t)) * count);
  uint64_t* codes = scratch.as<uint64_t>();
  uint32_t* sides = reinterpret_cast<uint32_t*>(codes + keys.size() * count);
  uint32_t* rank = sides + count;
  GPUSQL_CUDA_TRY(cudaMemsetAsync(rank, 0, count * sizeof(uint32_t), context.stream()));
  const unsigned blocks = static_cast<unsigned>((count + kSmallSortThreads - 1) / kSmallSortThreads);
  small_sort_encode_kernel<<<blocks, kSmallSortThreads, 0, context.stream()>>>(described, n, codes, sides, d_error);
  GPUSQL_CHECK_LAUNCH();
  small_sort_rank_kernel<<<dim3(blocks, blocks), kSmallSortThreads, 0, context.stream()>>>(described.count, n, codes,
                                                                                          sides, rank);
  GPUSQL_CHECK_LAUNCH();
  small_sort_scatter_kernel<<<blocks, kSmallSortThreads, 0, context.stream()>>>(n, rank, perm.as<uint32_t>());
  GPUSQL_CHECK_LAUNCH();
}

}  // namespace

namespace {
template <class V>
void sort_pairs_copy_impl(const uint32_t* keys_in, const V* values_in, uint32_t* keys_out, V* values_out,
                          std::size_t count, int end_bit, DeviceContext& context) {
  const uint32_t n = static_cast<uint32_t>(count);
  run_cub(
      [&](void* temp, std::size_t& temp_bytes) {
        return cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys_in, keys_out, values_in, values_out, n, 0,
                                               end_bit, context.stream());
      },
      context);
}
}  // namespace

void sort_pairs_copy(const uint32_t* keys_in, const void* values_in, int value_bytes, uint32_t* keys_out,
                     void* values_out, std::size_t count, int end_bit, DeviceContext& context) {
  if (count == 0) return;
  check_count(count);
  if (count < 2 || end_bit <= 0) {
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(keys_out, keys_in, count * sizeof(uint32_t), cudaMemcpyDeviceToDevice,
                                    context.stream()));
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(values_out, values_in, count * value_bytes, cudaMemcpyDeviceToDevice,
                                    context.stream()));
    return;
  }
  if (value_bytes == 8)
    sort_pairs_copy_impl(keys_in, static_cast<const uint64_t*>(values_in), keys_out, static_cast<uint64_t*>(values_out),
                         count, end_bit, context);
  else
    sort_pairs_copy_impl(keys_in, static_cast<const uint32_t*>(values_in), keys_out, static_cast<uint32_t*>(values_out),
                         count, end_bit, context);
}

void sort_pairs(DeviceBuffer& keys, DeviceBuffer& values, std::size_t count, int begin_bit, int end_bit,
                bool keys_64bit, DeviceContext& context) {
  if (count < 2 || end_bit <= begin_bit) return;
  check_count(count);
  if (keys_64bit) sort_pairs_impl<uint64_t>(keys, values, count, begin_bit, end_bit, context);
  else sort_pairs_impl<uint32_t>(keys, values, count, begin_bit, end_bit, context);
}

void sort_keys(DeviceBuffer& keys, std::size_t count, int end_bit, bool keys_64bit, DeviceContext& context) {
  if (count < 2 || end_bit <= 0) return;
  check_count(count);
  if (keys_64bit) sort_keys_impl<uint64_t>(keys, count, end_bit, context);
  else sort_keys_impl<uint32_t>(keys, count, end_bit, context);
}

uint64_t exclusive_scan(uint64_t* d_values, std::size_t count, DeviceContext& context) {
  return exclusive_scan_impl(d_values, count, context);
}
uint32_t exclusive_scan(uint32_t* d_values, std::size_t count, DeviceContext& context) {
  return exclusive_scan_impl(d_values, count, context);
}

void cub_select_flagged(const uint8_t* d_flags, std::size_t count, uint32_t* d_out, uint32_t* d_count,
                        DeviceBuffer& temp, DeviceContext& context) {
  thrust::counting_iterator<uint32_t> positions(0);
  std::size_t temp_bytes = 0;
  GPUSQL_CUDA_TRY(cub::DeviceSelect::Flagged(nullptr, temp_bytes, positions, d_flags, d_out, d_count,
                                             static_cast<int64_t>(count), context.stream()));
  if (temp.size() < temp_bytes) temp = DeviceBuffer(context, temp_bytes);
  GPUSQL_CUDA_TRY(cub::DeviceSelect::Flagged(temp.data(), temp_bytes, positions, d_flags, d_out, d_count,
                                             static_cast<int64_t>(count), context.stream()));
}

void cub_select_less(const float* d_values, float threshold, std::size_t count, uint32_t* d_out, uint32_t* d_count,
                     DeviceBuffer& temp, DeviceContext& context) {
  // Selects positions by their value: FlaggedIf with the values as flags.
  thrust::counting_iterator<uint32_t> positions(0);
  std::size_t temp_bytes = 0;
  GPUSQL_CUDA_TRY(cub::DeviceSelect::FlaggedIf(nullptr, temp_bytes, positions, d_values, d_out, d_count,
                                               static_cast<int64_t>(count), LessThan{threshold}, context.stream()));
  if (temp.size() < temp_bytes) temp = DeviceBuffer(context, temp_bytes);
  GPUSQL_CUDA_TRY(cub::DeviceSelect::FlaggedIf(temp.data(), temp_bytes, positions, d_values, d_out, d_count,
                                               static_cast<int64_t>(count), LessThan{threshold}, context.stream()));
}

DeviceBuffer order_positions(const std::vector<OrderKey>& keys, const ColumnSet& columns, std::size_t count,
                             uint32_t* d_error, DeviceContext& context) {
  DeviceBuffer perm(context, std::max<std::size_t>(1, count) * sizeof(uint32_t));
  if (count < 2 || keys.empty()) {
    sequence(0, count, perm.as<uint32_t>(), context);
    return perm;
  }
  if (takes_small_sort(keys, count, context)) {
    small_sort(keys, columns, count, perm, d_error, context);
    return perm;
  }
  const DeviceKeys device(keys, columns, context);
  sort_by_keys(keys, columns, device, perm, count, true, d_error, context);
  return perm;
}

DeviceBuffer top_positions(const std::vector<OrderKey>& keys, const ColumnSet& columns, std::size_t count,
                           std::size_t limit, uint32_t* d_error, DeviceContext& context) {
  const std::size_t k = std::min(limit, count);
  // A select costs a few reads of the first key; past these sizes the full
  // sort is as cheap.
  if (keys.empty() || k > kMaxTopK || count < 8 * k + 1024 || takes_small_sort(keys, count, context))
    return order_positions(keys, columns, count, d_error, context);
  if (k == 0) return DeviceBuffer(context, sizeof(uint32_t));
  const DeviceKeys device(keys, columns, context);
  const OrderKey& first = keys[0];
  DeviceBuffer stats_buffer(context, sizeof(KeyStats));
  reset_stats(stats_buffer, context);
  // The select needs codes that never decrease along the sorted order, not
  // distinct ones: the first round reads the raw codes, NULLs clamped to the
  // lowest or highest code (they may tie with it), and their min/max in the
  // same pass; where the codes' range needs fewer bits than are left, the
  // next rounds start over on codes minus the minimum.
  const bool narrow = narrow_type(first.type);
  Fold fold{0, first.nulls_first ? 0 : (narrow ? 0xffffffffull : ~0ull), first.type, first.descending};
  constexpr std::size_t kCandidateCap = std::size_t{1} << 18;
  DeviceBuffer histogram(context, kSelectBins * sizeof(uint32_t));
  std::vector<uint32_t> bins(kSelectBins);
  int shift = narrow ? 32 : 64;
  uint64_t prefix = 0;
  std::size_t less = 0, ties = count;
  bool first_round = true;
  while (shift > 0) {
    const int digit_bits = std::min(kSelectDigitBits, shift);
    shift -= digit_bits;
    GPUSQL_CUDA_TRY(cudaMemsetAsync(histogram.data(), 0, kSelectBins * sizeof(uint32_t), context.stream()));
    with_source(first, columns, device.program(0), device.column_set(), true, [&](auto source, auto) {
      if (first_round)
        select_histogram_kernel<decltype(source), true><<<order_grid(count, context), kOrderThreads, 0,
                                                          context.stream()>>>(
            source, fold, count, shift, digit_bits, prefix, histogram.as<uint32_t>(), stats_buffer.as<KeyStats>(),
            d_error);
      else
        select_histogram_kernel<decltype(source), false><<<order_grid(count, context), kOrderThreads, 0,
                                                           context.stream()>>>(
            source, fold, count, shift, digit_bits, prefix, histogram.as<uint32_t>(), nullptr, d_error);
      GPUSQL_CHECK_LAUNCH();
    });
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(bins.data(), histogram.data(), (std::size_t{1} << digit_bits) * sizeof(uint32_t),
                                    cudaMemcpyDeviceToHost, context.stream()));
    KeyStats stats = kEmptyStats;
    if (first_round)
      GPUSQL_CUDA_TRY(cudaMemcpyAsync(&stats, stats_buffer.data(), sizeof stats, cudaMemcpyDeviceToHost,
                                      context.stream()));
    context.synchronize();
    std::size_t below = 0;
    uint64_t bin = 0;
    for (; bin + 1 < (uint64_t{1} << digit_bits); ++bin) {
      if (less + below + bins[bin] >= k) break;
      below += bins[bin];
    }
    less += below;
    ties = bins[bin];
    prefix = (prefix << digit_bits) | bin;
    if (less + ties <= kCandidateCap) break;
    if (first_round) {
      first_round = false;
      const uint64_t range = stats.max - stats.min;
      if (range == 0) return order_positions(keys, columns, count, d_error, context);  // one code: all tie
      if (bits_for(range) < shift) {
        fold.base = stats.min;
        fold.null_code -= stats.min;
        shift = bits_for(range);
        prefix = 0;
        less = 0;
        ties = count;
      }
    }
  }
  const std::size_t candidates = less + ties;
  if (candidates > count / 2) return order_positions(keys, columns, count, d_error, context);
  DeviceBuffer positions(context, std::max<std::size_t>(1, candidates) * sizeof(uint32_t));
  DeviceBuffer written(context, sizeof(uint32_t));
  GPUSQL_CUDA_TRY(cudaMemsetAsync(written.data(), 0, sizeof(uint32_t), context.stream()));
  with_source(first, columns, device.program(0), device.column_set(), true, [&](auto source, auto) {
    select_candidates_kernel<decltype(source)><<<order_grid(count, context), kOrderThreads, 0, context.stream()>>>(
        source, fold, count, shift, prefix, positions.as<uint32_t>(), written.as<uint32_t>(), d_error);
    GPUSQL_CHECK_LAUNCH();
  });
  // Input order among the candidates, then the stable sort of them alone.
  sort_row_ids(positions.as<uint32_t>(), candidates, count - 1, context);
  sort_by_keys(keys, columns, device, positions, candidates, false, d_error, context);
  return positions;
}

}  // namespace gpusql::kernels
