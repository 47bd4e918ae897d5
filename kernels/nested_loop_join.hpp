// Nested-loop join: any join predicate, evaluated on every pair.
#pragma once

#include "core/expr_program.hpp"
#include "kernels/join_pairs.hpp"

namespace gpusql::kernels {

// Every pair (l, r), l < left_count, r < right_count, for which `predicate`
// is TRUE, ordered by (left, right); an empty predicate is a cross join.
// The predicate reads left columns at the pair's left position and columns
// with side = 1 at its right position.
//
// A block takes 256 left positions, one per thread, and a tile of 256 right
// positions: it stages the tile's values of every right-side column in
// shared memory (with the predicate and a column set pointing there), and
// each thread tests its left position against the whole tile. A count pass
// stores the matches of each (left, tile), an exclusive scan of the counts
// -- laid out (left, tile), the output order -- gives each its output range,
// and the write pass fills it in right order. Right sides too wide to stage
// (over 48 KiB a tile) take a warp-per-(left, tile) kernel with the same
// layout. The pair test: a predicate over columns without NULLs, of DOUBLE
// arithmetic, comparisons and logic, runs as a register program
// (kernels/pair_program.hpp; SET pair_program = false turns it off), any other
// through the general interpreter; both give evaluate_predicate()'s answer.
// Throws Error(Execution) when left_count * right_count exceeds
// kMaxJoinPairs. Run-time errors are OR-ed into *d_error. `staged` = false
// forces the unstaged kernel (the benchmark compares the two).
JoinPairs nested_loop_join(const ExprProgram& predicate, const ColumnSet& columns, std::size_t left_count,
                           std::size_t right_count, uint32_t* d_error, DeviceContext& context, bool staged = true);

}  // namespace gpusql::kernels
