// Device-wide primitives the operators share -- stable radix sorts, prefix
// sums, compaction of ids -- and ORDER BY. The CUB device-wide templates
// behind them are instantiated in kernels/sort.cu (and, for sorts of a
// column's own values, kernels/sort_column.cu) only, so no other
// translation unit pays for compiling them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/expr_program.hpp"
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
// The same over uint32_t keys and 4- or 8-byte values (`value_bytes`), read
// from the inputs (left as they are) and written to the outputs, which hold
// `count` items each: no copy of a column to sort its values along.
void sort_pairs_copy(const uint32_t* keys_in, const void* values_in, int value_bytes, uint32_t* keys_out,
                     void* values_out, std::size_t count, int end_bit, DeviceContext& context);
// Keys only: uint32_t or uint64_t.
void sort_keys(DeviceBuffer& keys, std::size_t count, int end_bit, bool keys_64bit, DeviceContext& context);

// In-place exclusive prefix sum of `count` values; returns the total (the
// sum of all inputs), which needs one synchronization.
uint64_t exclusive_scan(uint64_t* d_values, std::size_t count, DeviceContext& context);
uint32_t exclusive_scan(uint32_t* d_values, std::size_t count, DeviceContext& context);

// CUB's compactions (the references the benchmark compares the filter
// against; a FULL JOIN's unmatched rows): the positions i < count with d_flags[i] != 0 (Flagged), or with
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

// The small-input path of order_positions: up to this many rows (a GROUP BY
// result, say) a quadratic rank count costs less than the radix path's
// synchronizations and launches; past it the count grows as rows squared.
constexpr std::size_t kSmallSortRows = 4096;
// Most keys the small path takes: their descriptions go to its kernels by
// value, and a thread holds its row's codes in registers.
constexpr std::size_t kSmallSortKeys = 8;

// The stable order of `count` positions by `keys` (all programs over
// `columns`): returns a buffer of `count` positions such that reading the
// input at them gives the rows sorted, ties kept in input order. NULLs come
// last unless nulls_first (whatever the direction); -0.0 ties with 0.0; NaN
// sorts after every other value (before them under DESC).
//
// For 2 <= count <= kSmallSortRows and 1 to kSmallSortKeys keys it launches
// kernels only, with no synchronization and nothing read back: one pass
// evaluates every key of every position into its order-preserving code (as
// below) and a bit per key that puts NULLs on their side; a position's rank
// is the number of positions whose keys, compared lexicographically, are
// smaller, or equal at an earlier position (counted in 256 x 256 blocks,
// staged in shared memory); each position is then written at its rank.
// SET small_sort = false (the context's settings) turns this path off, so a
// test can compare both on the same data.
//
// Otherwise each key, from the last to the first, is encoded into
// order-preserving unsigned codes (sign flip for integers, the IEEE flip for
// floats, inverted for DESC) and sorted as (code, position) pairs by CUB's
// radix sort, stable, over only the bits the codes need:
//  - the first key sorted (the last named), when it is an INTEGER, DATE,
//    DOUBLE or REAL column of a base table without a validity bitmap, is
//    not encoded: a stats pass reads it (the bits in which CUB's
//    transformed keys differ, and whether there is a NaN) while the
//    positions are written, and CUB sorts the column's own values with the
//    positions (kernels/sort_column.cu) -- unless there is a NaN (CUB ranks
//    NaNs by their bits) or codes would sort in fewer passes or bytes (as
//    below), when the encode pass follows;
//  - a key that cannot be NULL (a column without a validity bitmap) takes
//    one pass that writes the codes -- 32-bit for types that fit -- with
//    their min/max/AND/OR (and, for the first key, the positions): then the
//    sort covers the bits in which the codes differ, or the bits of
//    max - min after an in-place rebase where that saves radix passes;
//  - a key that may be NULL takes a stats pass first, and NULLs fold into
//    the codes (0, or one past the largest), so no separate NULL pass.
// Run-time errors are OR-ed into *d_error.
DeviceBuffer order_positions(const std::vector<OrderKey>& keys, const ColumnSet& columns, std::size_t count,
                             uint32_t* d_error, DeviceContext& context);

// ORDER BY ... LIMIT: the largest LIMIT + OFFSET that top_positions selects
// instead of sorting everything.
constexpr std::size_t kMaxTopK = 4096;

// The first min(limit, count) positions of order_positions(keys, columns,
// count) -- the same positions, in the same order (the buffer may hold more
// after them). Inputs that order_positions' small path takes go there. For
// limit <= kMaxTopK over many rows it sorts only candidates: an MSD radix
// select on the first key's codes (12-bit digits, one histogram pass each;
// the first also takes the codes' range, and where that needs fewer bits the
// next rounds use codes minus the minimum) finds the code prefix of the
// limit-th row, stopping once at most 2^18 rows share it; the positions whose
// codes are at most that prefix -- every row that can be among the first
// `limit` -- are compacted, put back in input order and sorted stably by all
// keys. Ties across the threshold thus resolve by input position, as in the
// full sort. Full-range keys take two reads of the key column. Otherwise (or
// when more than half the rows are candidates) it is order_positions.
DeviceBuffer top_positions(const std::vector<OrderKey>& keys, const ColumnSet& columns, std::size_t count,
                           std::size_t limit, uint32_t* d_error, DeviceContext& context);

// Sorts `count` row ids ascending in place (CUB radix sort over the bits
// that `max_row` needs): the top-k's candidates back in input order.
void sort_row_ids(uint32_t* d_ids, std::size_t count, std::size_t max_row, DeviceContext& context);

}  // namespace gpusql::kernels
