// A rewrite of WHERE and ON conditions: a conjunct common to every branch of
// an OR is pulled out of it, (A AND B) OR (A AND C) => A AND (B OR C), which
// holds in SQL's three-valued logic (Kleene's AND and OR distribute). TPC-H
// Q19 writes its join key p_partkey = l_partkey inside each of three OR
// branches: pulled out, it becomes a hash join instead of a cross product.
#pragma once

#include <vector>

#include "engine/bound_expression.hpp"

namespace gpusql {

// The conjuncts `condition` amounts to: the common ones first, then what is
// left of the OR (nothing when a branch held only common conjuncts).
// Anything but an OR with common conjuncts comes back whole, alone.
std::vector<BoundExpr> factor_common_conjuncts(BoundExpr condition);

}  // namespace gpusql
