// GROUP BY on the device: which group each position belongs to, groups
// numbered by first appearance, then every aggregate per group in the
// canonical reduction order (core/aggregate_state.hpp), so floating sums
// have the host executor's bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/aggregate_state.hpp"
#include "kernels/hash_table.hpp"

namespace gpusql::kernels {

// Where each key sits in a dense array's slot: slot = sum over keys of
// digit * stride, key 0 the most significant digit, the digit of a valid
// value its value minus `min`, that of NULL `span` (one past the largest).
// Slot order is thus key order: ORDER BY k0, k1, ... ASC NULLS LAST.
struct DenseLayout {
  int64_t min[kMaxKeyColumns];
  uint64_t span[kMaxKeyColumns];    // valid values' range; the NULL digit is span
  uint64_t stride[kMaxKeyColumns];  // mixed radix
  uint64_t digits[kMaxKeyColumns];  // span, plus one where there is a NULL
  int key_count = 0;
};

struct Groups {
  std::size_t count = 0;   // groups (for by_slot groups, known only once aggregate_groups() numbered them)
  std::size_t rows = 0;    // positions
  DeviceBuffer row_group;  // per position: its group; by_slot: its slot
  // First-appearance numbering (every KeyColumns grouping: DISTINCT, and
  // GROUP BY of several keys or of a DOUBLE key): per group its lowest
  // position; ascending, so groups are in order of first appearance.
  DeviceBuffer first;
  // Key-order numbering (the dense array of the program overload): group g
  // is the g-th used slot; group_slot[g] is that slot, from which
  // group_keys() decodes the keys.
  bool key_ordered = false;
  DeviceBuffer group_slot;
  DenseLayout layout{};
  uint64_t slots = 0;
  // Many slots: row_group holds each position's slot (of `slots`), and
  // the groups are the runs of the slots once aggregate_groups() has sorted
  // them -- no per-row lookup of a slot's group.
  bool by_slot = false;
  // Hash-table numbering (one integer key; hash_groups()): by_slot groups
  // whose slots are those of a keyed table, in no key order; group_keys()
  // reads each group's key word from `table` (kKeySentinel's and NULL's
  // reserved slots are past its `table_capacity` slots).
  // With few keys the slots are ranked first: `slots` are then the ranks,
  // and rank_slot[r] is rank r's table slot.
  bool hashed = false;
  DeviceBuffer table;
  uint64_t table_capacity = 0;
  DeviceBuffer rank_slot;
};

// Numbers the distinct keys (a NULL key is a value: one NULL group). When
// every key's 64-bit words span a small range (small integers, dictionary
// codes, dates) the slot of a key is computed directly -- key minus minimum,
// mixed radix over several keys, one extra digit value for NULL -- into a
// dense array (the histogram technique); otherwise keys go into the hash
// table. The lowest position of each slot (atomicMin) orders the groups:
// first appearance, as DISTINCT keeps rows. `dense` false forces the hash
// table (tests and benchmarks).
Groups assign_groups(const KeyColumns& keys, DeviceContext& context, bool dense = true);

// The same for the keys `programs` compute over `columns` (classes[k]: key
// k's compute class) at each of `count` positions, for GROUP BY. Integer
// keys are first evaluated only for their ranges; when the dense array fits,
// a second evaluation gives each position's slot (no key words are written,
// 12 bytes a row per key, read twice more), and groups are numbered in key
// order (DenseLayout), with no first positions: up to kRankedSlots slots,
// the used ones are marked and ranked and each position's group looked up;
// past that the groups are left by_slot. Otherwise the keys are evaluated
// by hash_groups() (one key), or into KeyColumns for the hash table
// numbering by first appearance (several keys).
// Run-time errors of the programs go to *d_error.
// `known`, when given, has per key the bounds its values are known to lie
// in (a VARCHAR column's codes: below its dictionary's size), or none: a
// known key needs no range pass while the known bounds keep the dense
// array within kRankedSlots slots.
struct KeyBounds {
  int64_t min = 0;
  int64_t max = -1;  // below min: no value but NULL
  bool may_be_null = true;
};
Groups assign_groups(const std::vector<ExprProgram>& programs, const std::vector<Cls>& classes,
                     const ColumnSet& columns, std::size_t count, uint32_t* d_error, DeviceContext& context,
                     const std::vector<std::optional<KeyBounds>>& known = {});

// Groups of one integer key, computed by `program` over `columns` at each
// of `count` positions and hashed as it is computed (no key words written
// first), by the slots of a keyed hash table: `hashed` and by_slot, numbered by
// aggregate_groups() in slot order -- no first positions (an atomicMin a
// row) and no per-row lookup of a group number (a random read a row into
// an array of the table's size): 2^27 rows into 10^7 groups 30.1 -> 18.9 ms
// on an H100. Few keys in the first table (kFirstTableCapacity) have their
// slots ranked, when that saves the sort a radix pass (10 keys: 23 bits ->
// 5). The executor sorts the result when key order is asked for. Integer words only: equal words are
// then equal values, so the key read back from the table is every row's;
// a DOUBLE key's -0.0 and 0.0 share a word, and its groups keep first
// positions (assign_groups()).
// Run-time errors of the program go to *d_error.
Groups hash_groups(const ExprProgram& program, const ColumnSet& columns, std::size_t count, uint32_t* d_error,
                   DeviceContext& context);

// Up to this many dense slots a GROUP BY marks its used slots and ranks
// them (the marks and ranks stay in cache); with more, a per-row lookup of
// the rank costs a random read a row, and sorting by the slot itself costs
// less than that lookup.
constexpr uint64_t kRankedSlots = uint64_t{1} << 16;

// Writes key `key` of every group of key_ordered or hashed `groups`
// (decoded from its slot) as a column of `type`: `groups.count` values to
// d_out, validity to d_validity ((count+31)/32 words). Does not synchronize.
void group_keys(const Groups& groups, int key, Type type, void* d_out, uint32_t* d_validity, DeviceContext& context);

// Each position's group number in `groups` (by_slot groups are converted
// first: a lookup per position), e.g. for count_distinct().
const uint32_t* row_groups(Groups& groups, DeviceContext& context);

// Each aggregate's state per group, at [a * groups.count + g]: the group's
// positions in ascending order reduced as their own sequence in the
// canonical order -- chunks of kReduceChunk, "thread" t folding t, t+256,
// ..., a warp tree, a tree over the 8 warps, then the same over the chunk
// states until one is left. The values are first put in group order (the
// argument column sorted along with the group ids, or each argument
// evaluated at the group-sorted positions), so the reduce reads them
// contiguously: a chunk of more than 256 values goes to a warp, which plays
// the 8 warps of the canonical block in turn; a smaller one to a thread.
// COUNT(DISTINCT) states hold the non-NULL count; count_distinct() replaces it.
// by_slot groups are numbered here, from the runs of the sorted slots
// (groups.count and group_slot set), even without aggregates.
DeviceBuffer aggregate_groups(const std::vector<AggSpec>& specs, const ColumnSet& columns, Groups& groups,
                              std::size_t count, uint32_t* d_error, DeviceContext& context);

// Sets d_states[g].count to the number of distinct non-NULL values of `arg`
// (compute class `cls`, compared as key words: -0.0 equals 0.0) among the
// positions of group g. d_row_group null: one group of all positions that
// `predicate` selects (an empty program selects all). Order-independent:
// (group, value) pairs go into the hash table, each new pair counts once.
void count_distinct(const ExprProgram& predicate, const ExprProgram& arg, Cls cls, const ColumnSet& columns,
                    const uint32_t* d_row_group, std::size_t count, std::size_t groups, AggState* d_states,
                    uint32_t* d_error, DeviceContext& context);

// How an aggregate's final value is made from its state: as
// store_aggregate_result() does on the host.
struct AggregateOutput {
  AggKind kind = AggKind::CountStar;
  bool double_argument = false;  // the argument is REAL/DOUBLE
  int decimal_scale = -1;        // a DECIMAL argument's scale; -1 otherwise
  bool narrow_decimal = false;   // a DECIMAL argument of at most 4 digits (final_value)
  Type type = Type::BigInt;      // the result's storage
};

// Writes `groups` final values of one aggregate (states d_states[0..groups))
// to d_out/d_validity (validity by warp ballot, room for (groups+31)/32
// words). ARG_MIN/ARG_MAX write no value: d_positions[g] gets the winning
// position (0 for an empty group) and the validity says whether there is
// one; the executor evaluates the argument there. A BIGINT SUM past the
// int64 range ORs kEvalSumOverflow into *d_error. Does not synchronize.
void finalize_aggregate(const AggregateOutput& output, const AggState* d_states, std::size_t groups, void* d_out,
                        uint32_t* d_validity, uint32_t* d_positions, uint32_t* d_error, DeviceContext& context);

// Whether two programs compute the same value (the same instructions).
bool same_program(const ExprProgram& a, const ExprProgram& b);

// d_validity[w] &= d_mask[w] for w < words.
void and_validity(uint32_t* d_validity, const uint32_t* d_mask, std::size_t words, DeviceContext& context);

}  // namespace gpusql::kernels
