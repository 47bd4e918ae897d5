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

// An outer join's positions of one side made readable: matched[i] = 1
// where positions[i] is a position, 0 where it is kNoMatch (which becomes
// 0, a row the caller must not read as a value).
void split_unmatched(uint32_t* d_positions, std::size_t count, uint8_t* d_matched, DeviceContext& context);

}  // namespace gpusql::kernels
