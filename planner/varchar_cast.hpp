// CAST(x AS VARCHAR) of a value that is not a constant. A VARCHAR is a code
// into a sorted dictionary known at bind time, so the cast builds its
// dictionary when it is bound: from the values its argument can take. The
// argument must depend on one base-table column; its distinct values (read
// from the table's host copy) each go through the argument's expression and
// are printed as results print them (format_fixed). A row then finds its
// column value's rank among those distinct values (Rank: a binary search)
// and the rank's code (Lookup) -- the same two table reads on both
// executors, with no operator knowing about casts.
#pragma once

#include <optional>

#include "planner/bound_expression.hpp"

namespace gpusql {

// `arg` as VARCHAR codes of a dictionary of its printed values, or nullopt
// when it does not depend on exactly one base-table column, or has a
// 128-bit DECIMAL step. Building the
// dictionary reads the whole column (a sort of its values): its cost is
// the column's, at every bind. An error the expression raises for one of
// the column's values (an overflow) is raised here, for any row.
std::optional<BoundExpr> cast_to_varchar(const BoundExpr& arg);

}  // namespace gpusql
