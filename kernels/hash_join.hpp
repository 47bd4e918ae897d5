// Hash join: the equi-join of two inputs' key columns.
#pragma once

#include "kernels/hash_table.hpp"
#include "kernels/join_pairs.hpp"

namespace gpusql::kernels {

// Every pair of positions whose keys are all equal (as key words: -0.0
// equals 0.0; a NULL key matches nothing), ordered by (left, right).
//
// Build: the build side's keys go into the hash table; its positions are
// sorted by slot (a stable radix sort, so each key's positions are an
// ascending run). Probe: a count pass finds each probe position's run and
// counts its matches, an exclusive scan gives every position its output
// range, and a write pass fills it -- so the output is sized exactly and,
// building the right side, already in (left, right) order; building the left
// side, a stable radix sort by left position finishes it. Duplicate keys on
// both sides give every combination. Throws Error(Execution) for more than
// kMaxJoinPairs pairs.
//
// `left_outer`: a left position with no match gets one pair of its own,
// (left, kNoMatch), in its place in the order, whichever side is built
// (building the left side, the positions no right row matched are flagged
// in the write pass, appended, and sorted into place).
// `full_outer` (with left_outer and build_right): so does a right position
// with no match, (kNoMatch, right), after all the others, in right order.
JoinPairs hash_join(const KeyColumns& left, const KeyColumns& right, bool build_right, DeviceContext& context,
                    bool left_outer = false, bool full_outer = false);

// hash_join()'s build side, built once: the hash table of its keys and its
// positions sorted by slot, each key's an ascending run. It reads `keys`
// (probes compare with them), which must outlive it.
struct JoinTable {
  KeyView keys;
  HashTable table;
  DeviceBuffer positions;  // the build positions, by slot
  DeviceBuffer run_begin, run_end;
};
JoinTable build_join_table(const KeyView& keys, DeviceContext& context);

// The pairs of `probe` positions and `table`'s build positions whose keys
// are equal, ordered by (probe, build): probe positions in `left`, build
// positions in `right`. `probe_outer`: a probe position with no match gets
// (probe, kNoMatch). `build_unmatched` (when given, one byte per build
// position, set to 1 by the caller): the write pass clears the bytes of the
// build positions it matches. Throws as hash_join().
JoinPairs probe_join_table(const JoinTable& table, const KeyColumns& probe, bool probe_outer, DeviceContext& context,
                           uint8_t* build_unmatched = nullptr, std::size_t reserve_after = 0);

// An outer join's positions of one side made readable: matched[i] = 1
// where positions[i] is a position, 0 where it is kNoMatch (which becomes
// 0, a row the caller must not read as a value).
void split_unmatched(uint32_t* d_positions, std::size_t count, uint8_t* d_matched, DeviceContext& context);

}  // namespace gpusql::kernels
