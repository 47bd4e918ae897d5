// Radix sorts, prefix sums and ORDER BY. The heavy CUB device-wide headers
// live in this one file; the other kernel files call the wrappers declared
// in kernels/sort.hpp.
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <utility>

#include "kernels/filter.hpp"
#include "kernels/gather.hpp"
#include "kernels/launch.hpp"
#include "kernels/sort.hpp"

namespace gpusql::kernels {

void sort_row_ids(uint32_t* d_ids, std::size_t count, std::size_t max_row, DeviceContext& context) {
  if (count < 2) return;
  int end_bit = 1;
  while (end_bit < 32 && (std::size_t{1} << end_bit) <= max_row) ++end_bit;
  DeviceBuffer alternate(context, count * sizeof(uint32_t));
  cub::DoubleBuffer<uint32_t> keys(d_ids, alternate.as<uint32_t>());
  std::size_t temp_bytes = 0;
  GPUSQL_CUDA_TRY(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, keys, static_cast<int64_t>(count), 0, end_bit,
                                                 context.stream()));
  DeviceBuffer temp(context, std::max<std::size_t>(1, temp_bytes));
  GPUSQL_CUDA_TRY(cub::DeviceRadixSort::SortKeys(temp.data(), temp_bytes, keys, static_cast<int64_t>(count), 0, end_bit,
                                                 context.stream()));
  if (keys.Current() != d_ids)
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(d_ids, keys.Current(), count * sizeof(uint32_t), cudaMemcpyDeviceToDevice,
                                    context.stream()));
}

namespace {

template <class K>
void sort_pairs_impl(DeviceBuffer& keys, DeviceBuffer& values, std::size_t count, int begin_bit, int end_bit,
                     DeviceContext& context) {
  DeviceBuffer keys_alt(context, count * sizeof(K));
  DeviceBuffer values_alt(context, count * sizeof(uint32_t));
  cub::DoubleBuffer<K> k(keys.as<K>(), keys_alt.as<K>());
  cub::DoubleBuffer<uint32_t> v(values.as<uint32_t>(), values_alt.as<uint32_t>());
  std::size_t temp_bytes = 0;
  GPUSQL_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, k, v, static_cast<int64_t>(count), begin_bit,
                                                  end_bit, context.stream()));
  // A null temp pointer would make CUB only report the size: never pass one.
  DeviceBuffer temp(context, std::max<std::size_t>(1, temp_bytes));
  GPUSQL_CUDA_TRY(cub::DeviceRadixSort::SortPairs(temp.data(), temp_bytes, k, v, static_cast<int64_t>(count),
                                                  begin_bit, end_bit, context.stream()));
  if (k.Current() != keys.as<K>()) std::swap(keys, keys_alt);
  if (v.Current() != values.as<uint32_t>()) std::swap(values, values_alt);
}

template <class K>
void sort_keys_impl(DeviceBuffer& keys, std::size_t count, int end_bit, DeviceContext& context) {
  DeviceBuffer keys_alt(context, count * sizeof(K));
  cub::DoubleBuffer<K> k(keys.as<K>(), keys_alt.as<K>());
  std::size_t temp_bytes = 0;
  GPUSQL_CUDA_TRY(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, k, static_cast<int64_t>(count), 0, end_bit,
                                                 context.stream()));
  DeviceBuffer temp(context, std::max<std::size_t>(1, temp_bytes));
  GPUSQL_CUDA_TRY(cub::DeviceRadixSort::SortKeys(temp.data(), temp_bytes, k, static_cast<int64_t>(count), 0, end_bit,
                                                 context.stream()));
  if (k.Current() != keys.as<K>()) std::swap(keys, keys_alt);
}

template <class T>
T exclusive_scan_impl(T* d_values, std::size_t count, DeviceContext& context) {
  if (count == 0) return 0;
  // The total is the last input plus the last output: keep the last input.
  DeviceBuffer last(context, 2 * sizeof(T));
  GPUSQL_CUDA_TRY(cudaMemcpyAsync(last.as<T>(), d_values + count - 1, sizeof(T), cudaMemcpyDeviceToDevice,
                                  context.stream()));
  std::size_t temp_bytes = 0;
  GPUSQL_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, d_values, d_values, static_cast<int64_t>(count),
                                                context.stream()));
  DeviceBuffer temp(context, std::max<std::size_t>(1, temp_bytes));
  GPUSQL_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, d_values, d_values,
                                                static_cast<int64_t>(count), context.stream()));
  GPUSQL_CUDA_TRY(cudaMemcpyAsync(last.as<T>() + 1, d_values + count - 1, sizeof(T), cudaMemcpyDeviceToDevice,
                                  context.stream()));
  T host[2] = {0, 0};
  GPUSQL_CUDA_TRY(cudaMemcpyAsync(host, last.data(), sizeof host, cudaMemcpyDeviceToHost, context.stream()));
  context.synchronize();
  return host[0] + host[1];
}

struct LessThan {
  float threshold;
  __host__ __device__ bool operator()(float v) const { return v < threshold; }
};

// ---- ORDER BY ----

constexpr int kOrderThreads = 256;

// Whether a type's order-preserving code fits 32 bits; those keys carry the
// NULL rank in bit 32, wider ones sort their NULLs in a separate pass.
__host__ __device__ inline bool narrow_type(Type type) {
  return type == Type::Integer || type == Type::Date || type == Type::Varchar || type == Type::Boolean ||
         type == Type::Real;
}

// The order-preserving code of a valid value: ascending unsigned order of
// codes is the ascending SQL order of values, equal values (-0.0 and 0.0
// included) get equal codes; DESC inverts the value bits.
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
      u = (b & 0x80000000u) ? ~b : (b | 0x80000000u);
      break;
    }
    case Type::Double: {
      uint64_t b = static_cast<uint64_t>(__double_as_longlong(s.d == 0.0 ? 0.0 : s.d));
      u = (b >> 63) ? ~b : (b | (1ull << 63));
      break;
    }
    default: u = static_cast<uint64_t>(s.i) ^ (1ull << 63); break;  // BIGINT, DECIMAL, rowid
  }
  if (descending) u = narrow_type(type) ? (~u & 0xffffffffull) : ~u;
  return u;
}

// The whole code of a position's key: narrow types put the NULL rank above
// the value (0 sorts first); wide types leave NULLs at 0 for the NULL pass.
__device__ __forceinline__ uint64_t order_code(const OrderKey& key, const Slot& s) {
  if (narrow_type(key.type)) {
    uint64_t null_rank = key.nulls_first ? (s.valid ? 1u : 0u) : (s.valid ? 0u : 1u);
    return (null_rank << 32) | (s.valid ? value_code(key.type, key.descending, s) : 0u);
  }
  return s.valid ? value_code(key.type, key.descending, s) : 0u;
}

__device__ __forceinline__ uint64_t warp_min(uint64_t v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v = min(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}
__device__ __forceinline__ uint64_t warp_max(uint64_t v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v = max(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

struct KeyStats {
  unsigned long long min;
  unsigned long long max;
  unsigned int any_null;
  unsigned int any_valid;
};

// The range of the codes (of valid values only, for wide types) and whether
// any value is NULL: one atomic of each per block.
__global__ void __launch_bounds__(kOrderThreads)
    order_stats_kernel(const OrderKey* __restrict__ d_key, const ColumnSet* __restrict__ d_columns,
                       const uint32_t* __restrict__ perm, uint64_t count, KeyStats* __restrict__ stats,
                       uint32_t* __restrict__ error_word) {
  __shared__ uint64_t warp_mins[kOrderThreads / 32], warp_maxs[kOrderThreads / 32];
  const OrderKey& key = *d_key;
  const ColumnSet& columns = *d_columns;
  uint32_t error = 0;
  uint64_t lo = ~0ull, hi = 0;
  bool any_null = false, any_valid = false;
  const bool wide = !narrow_type(key.type);
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    Slot s = evaluate(key.program, columns, perm[i], error);
    any_null |= !s.valid;
    if (wide && !s.valid) continue;
    any_valid = true;
    uint64_t code = order_code(key, s);
    lo = min(lo, code);
    hi = max(hi, code);
  }
  lo = warp_min(lo);
  hi = warp_max(hi);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) {
    warp_mins[warp] = lo;
    warp_maxs[warp] = hi;
  }
  const int nulls = __syncthreads_or(any_null);
  const int valids = __syncthreads_or(any_valid);
  if (threadIdx.x == 0) {
    for (int w = 1; w < kOrderThreads / 32; ++w) {
      lo = min(lo, warp_mins[w]);
      hi = max(hi, warp_maxs[w]);
    }
    if (valids) {
      atomicMin(&stats->min, static_cast<unsigned long long>(lo));
      atomicMax(&stats->max, static_cast<unsigned long long>(hi));
      atomicOr(&stats->any_valid, 1u);
    }
    if (nulls) atomicOr(&stats->any_null, 1u);
  }
  if (error) atomicOr(error_word, error);
}

// Writes code - base (NULLs of wide types: 0) for each position of `perm`.
template <class K>
__global__ void __launch_bounds__(kOrderThreads)
    order_encode_kernel(const OrderKey* __restrict__ d_key, const ColumnSet* __restrict__ d_columns,
                        const uint32_t* __restrict__ perm, uint64_t count, uint64_t base, K* __restrict__ out,
                        uint32_t* __restrict__ error_word) {
  const OrderKey& key = *d_key;
  const ColumnSet& columns = *d_columns;
  uint32_t error = 0;
  const bool wide = !narrow_type(key.type);
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    Slot s = evaluate(key.program, columns, perm[i], error);
    out[i] = (wide && !s.valid) ? K{0} : static_cast<K>(order_code(key, s) - base);
  }
  if (error) atomicOr(error_word, error);
}

// The NULL rank of wide keys (0 sorts first).
__global__ void __launch_bounds__(kOrderThreads)
    order_nulls_kernel(const OrderKey* __restrict__ d_key, const ColumnSet* __restrict__ d_columns,
                       const uint32_t* __restrict__ perm, uint64_t count, uint32_t* __restrict__ out,
                       uint32_t* __restrict__ error_word) {
  const OrderKey& key = *d_key;
  const ColumnSet& columns = *d_columns;
  uint32_t error = 0;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    Slot s = evaluate(key.program, columns, perm[i], error);
    out[i] = key.nulls_first ? (s.valid ? 1u : 0u) : (s.valid ? 0u : 1u);
  }
  if (error) atomicOr(error_word, error);
}

}  // namespace

void sort_pairs(DeviceBuffer& keys, DeviceBuffer& values, std::size_t count, int begin_bit, int end_bit,
                bool keys_64bit, DeviceContext& context) {
  if (count < 2 || end_bit <= begin_bit) return;
  if (keys_64bit) sort_pairs_impl<uint64_t>(keys, values, count, begin_bit, end_bit, context);
  else sort_pairs_impl<uint32_t>(keys, values, count, begin_bit, end_bit, context);
}

void sort_keys(DeviceBuffer& keys, std::size_t count, int end_bit, bool keys_64bit, DeviceContext& context) {
  if (count < 2 || end_bit <= 0) return;
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
  sequence(0, count, perm.as<uint32_t>(), context);
  if (count < 2) return perm;
  const unsigned grid = grid_for((count + kOrderThreads - 1) / kOrderThreads, context, 16);
  DeviceBuffer stats_buffer(context, sizeof(KeyStats));
  DeviceObjects objects;
  const std::size_t c = objects.add(columns);
  std::vector<std::size_t> k;
  for (const auto& key : keys) k.push_back(objects.add(key));
  objects.upload(context);
  // Least significant key first: each pass is stable, so the earlier keys
  // decide and ties keep the order the later keys (and the input) gave.
  for (std::size_t i = keys.size(); i-- > 0;) {
    const OrderKey* key = &keys[i];
    const OrderKey* d_key = objects.at<OrderKey>(k[i]);
    const ColumnSet* d_columns = objects.at<ColumnSet>(c);
    KeyStats stats{~0ull, 0, 0, 0};
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(stats_buffer.data(), &stats, sizeof stats, cudaMemcpyHostToDevice,
                                    context.stream()));
    order_stats_kernel<<<grid, kOrderThreads, 0, context.stream()>>>(d_key, d_columns, perm.as<uint32_t>(), count,
                                                                       stats_buffer.as<KeyStats>(), d_error);
    GPUSQL_CHECK_LAUNCH();
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(&stats, stats_buffer.data(), sizeof stats, cudaMemcpyDeviceToHost,
                                    context.stream()));
    context.synchronize();
    if (stats.any_valid && stats.max > stats.min) {
      // Codes minus their minimum fit in the bits of the range: sort only those.
      const uint64_t range = stats.max - stats.min;
      const int end_bit = bits_for(range);
      const bool wide = range > 0xffffffffull;
      DeviceBuffer codes(context, count * (wide ? sizeof(uint64_t) : sizeof(uint32_t)));
      if (wide)
        order_encode_kernel<uint64_t><<<grid, kOrderThreads, 0, context.stream()>>>(
            d_key, d_columns, perm.as<uint32_t>(), count, stats.min, codes.as<uint64_t>(), d_error);
      else
        order_encode_kernel<uint32_t><<<grid, kOrderThreads, 0, context.stream()>>>(
            d_key, d_columns, perm.as<uint32_t>(), count, stats.min, codes.as<uint32_t>(), d_error);
      GPUSQL_CHECK_LAUNCH();
      sort_pairs(codes, perm, count, 0, end_bit, wide, context);
    }
    if (!narrow_type(key->type) && stats.any_null) {
      DeviceBuffer ranks(context, count * sizeof(uint32_t));
      order_nulls_kernel<<<grid, kOrderThreads, 0, context.stream()>>>(d_key, d_columns, perm.as<uint32_t>(), count,
                                                                        ranks.as<uint32_t>(), d_error);
      GPUSQL_CHECK_LAUNCH();
      sort_pairs(ranks, perm, count, 0, 1, false, context);
    }
  }
  return perm;
}

}  // namespace gpusql::kernels
