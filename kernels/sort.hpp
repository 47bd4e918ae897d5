// Device-wide primitives the operators share -- stable radix sorts, prefix
// sums, compaction of ids -- and ORDER BY. The CUB device-wide templates
// behind them are instantiated in kernels/sort.cu only, so no other
// translation unit pays for compiling them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/expr_program.hpp"
#include "storage/device_memory.hpp"

namespace gpusql::kernels {

// Number of low bits that values 0..max_value need (0 for max_value 0).
inline int bits_for(uint64_t max_value) {
  int bits = 0;
  while (bits < 64 && (max_value >> bits) != 0) ++bits;
  return bits;
}

// Stable LSD radix sorts (CUB) of `count` items over key bits
// [begin_bit, end_bit), ascending. The results end up in `keys`/`values`:
// the buffers are swapped with CUB's alternates when the last pass wrote
// there, so no copy is made. Buffers must hold `count` items. No-op for
// count < 2 or an empty bit range. Does not synchronize.
void sort_pairs(DeviceBuffer& keys, DeviceBuffer& values, std::size_t count, int begin_bit, int end_bit,
                bool keys_64bit, DeviceContext& context);
inline void sort_pairs_u32(DeviceBuffer& keys, DeviceBuffer& values, std::size_t count, int end_bit,
                           DeviceContext& context) {
  sort_pairs(keys, values, count, 0, end_bit, false, context);
}
inline void sort_pairs_u64(DeviceBuffer& keys, DeviceBuffer& values, std::size_t count, int end_bit,
                           DeviceContext& context) {
  sort_pairs(keys, values, count, 0, end_bit, true, context);
}
// Keys only: uint32_t or uint64_t.
void sort_keys(DeviceBuffer& keys, std::size_t count, int end_bit, bool keys_64bit, DeviceContext& context);

// In-place exclusive prefix sum of `count` values; returns the total (the
// sum of all inputs), which needs one synchronization.
uint64_t exclusive_scan(uint64_t* d_values, std::size_t count, DeviceContext& context);
uint32_t exclusive_scan(uint32_t* d_values, std::size_t count, DeviceContext& context);

// The CUB reference compactions the benchmark compares the filter against:
// the positions i < count with d_flags[i] != 0 (Flagged), or with
// d_values[i] < threshold (If), written in order to d_out; the number
// written goes to *d_count. `temp` grows as needed. No synchronization.
void cub_select_flagged(const uint8_t* d_flags, std::size_t count, uint32_t* d_out, uint32_t* d_count,
                        DeviceBuffer& temp, DeviceContext& context);
void cub_select_less(const float* d_values, float threshold, std::size_t count, uint32_t* d_out, uint32_t* d_count,
                     DeviceBuffer& temp, DeviceContext& context);

// One ORDER BY key: a program reading one column, its type and direction.
struct OrderKey {
  ExprProgram program;
  Type type = Type::Integer;
  bool descending = false;
  bool nulls_first = false;
};

// The stable order of `count` positions by `keys` (all programs over
// `columns`): returns a buffer of `count` positions such that reading the
// input at them gives the rows sorted, ties kept in input order. NULLs come
// last unless nulls_first (whatever the direction); -0.0 ties with 0.0.
// Each key, from the last to the first, is encoded into order-preserving
// unsigned bits (sign flip for integers, the IEEE flip for floats, inverted
// for DESC) and sorted as (key, position) pairs by CUB's radix sort over only
// the bits in which the keys differ. Run-time errors are OR-ed into *d_error.
DeviceBuffer order_positions(const std::vector<OrderKey>& keys, const ColumnSet& columns, std::size_t count,
                             uint32_t* d_error, DeviceContext& context);

}  // namespace gpusql::kernels
