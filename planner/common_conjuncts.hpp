// A rewrite of WHERE and ON conditions: a conjunct common to every branch of
// an OR is pulled out of it, (A AND B) OR (A AND C) => A AND (B OR C), which
// holds in SQL's three-valued logic (Kleene's AND and OR distribute). TPC-H
// Q19 writes its join key p_partkey = l_partkey inside each of three OR
// branches: pulled out, it becomes a hash join instead of a cross product.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "planner/bound_expression.hpp"

namespace gpusql {

// The conjuncts `condition` amounts to: the common ones first, then what is
// left of the OR (nothing when a branch held only common conjuncts).
// Anything but an OR with common conjuncts comes back whole, alone.
std::vector<BoundExpr> factor_common_conjuncts(BoundExpr condition);

// A condition an OR implies, of the conjuncts `wanted` takes (those reading
// one table): the OR over its branches of one wanted conjunct of each, an
// equality of a column with a constant or an IN list (so the OR is a filter
// the kernels run at full speed and keeps few rows) -- nullopt when some
// branch has none. TPC-H Q7's
// (n1.n_name = 'FRANCE' AND n2.n_name = 'GERMANY') OR (n1.n_name = 'GERMANY'
// AND n2.n_name = 'FRANCE') implies n1.n_name = 'FRANCE' OR n1.n_name =
// 'GERMANY', a filter for n1's scan: a row the OR keeps satisfies it, so
// the OR above still decides. Only conjuncts that cannot fail at run time
// are taken: the filter reads rows the OR would never have seen.
std::optional<BoundExpr> implied_condition(const BoundExpr& condition,
                                           const std::function<bool(const BoundExpr&)>& wanted);

}  // namespace gpusql
