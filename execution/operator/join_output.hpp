// What the join operators share: a join's output from its pairs.
#pragma once

#include "execution/physical_operator.hpp"

namespace gpusql {

// Both sides' columns side by side: the left's rows at the pairs' left
// positions, the right's at their right positions.
Chunk join_output(ComputeBackend& backend, const Chunk& left, const Chunk& right, const JoinPositions& pairs);

// A LEFT or FULL JOIN's output: join_output() of its pairs, a side's
// columns evaluated as NULL where its position is kNoMatch (the right
// side's for a left row with no match; with `full`, the left side's for a
// right row with no match too). A side with no rows is not read: its
// columns are NULL constants.
Chunk outer_join_output(ComputeBackend& backend, const Chunk& left, const Chunk& right, JoinPositions& pairs,
                        bool full);

}  // namespace gpusql
