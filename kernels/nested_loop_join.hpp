// Nested-loop join: any join predicate, evaluated on every pair.
#pragma once

#include "engine/expr_program.hpp"
#include "kernels/join_pairs.hpp"

namespace gpusql::kernels {

// Every pair (l, r), l < left_count, r < right_count, for which `predicate`
// is TRUE, ordered by (left, right); an empty predicate is a cross join.
// The predicate reads left columns at the pair's left position and columns
// with side = 1 at its right position.
//
// Work is cut into tasks of one left position and a tile of 256 right
// positions; one warp runs a task, lane l testing right positions
// tile + k*32 + l (k = 0..7, loads coalesce, the left values are the same for
// the whole warp). A count pass stores each task's matches, an exclusive scan
// of the counts -- laid out (left, tile), the output order -- gives each task
// its output range, and the write pass fills it, each match placed by a
// ballot. Throws Error(Execution) when left_count * right_count exceeds
// kMaxJoinPairs. Run-time errors are OR-ed into *d_error.
JoinPairs nested_loop_join(const ExprProgram& predicate, const ColumnSet& columns, std::size_t left_count,
                           std::size_t right_count, uint32_t* d_error, DeviceContext& context);

}  // namespace gpusql::kernels
