// x IN (a set of values) as one search, not a chain of ORs: the distinct
// values, sorted, are searched for x on every row (Rank) and the value found
// there (Lookup) compared with x. IN (SELECT ...) outside a join and long IN
// lists of constants both take it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "planner/bound_expression.hpp"

namespace gpusql {

// A Rank or Lookup table of sorted (Rank) or indexed (Lookup) 64-bit values.
std::shared_ptr<LookupTable> bigint_table(const std::vector<int64_t>& values);

// Rank (position of `child` in the sorted table) or Lookup (the table's
// value at position `child`), BIGINT.
BoundExpr table_node(Op op, std::shared_ptr<LookupTable> table, BoundExpr child, std::size_t at);

// `x IN (keys)`, x being a 64-bit integer value of the keys' kind (INTEGER,
// BIGINT, DATE, a DECIMAL of their scale, a dictionary code), with SQL's
// NULLs: x NULL gives NULL, and `has_null` (a NULL among the values) makes
// a miss NULL. `keys` need not be sorted or distinct; they may be empty
// when no value of the set can equal x (strings missing from x's
// dictionary). A set of no values at all is the caller's case: IN is FALSE
// then, whatever x is.
BoundExpr sorted_set_membership(BoundExpr x, std::vector<int64_t> keys, bool has_null, std::size_t at);

// The same for a DOUBLE x and DOUBLE keys: searched in the doubles' total
// order (order_bits), then compared as doubles, so -0.0 finds 0.0.
BoundExpr sorted_double_set_membership(BoundExpr x, std::vector<double> keys, bool has_null, std::size_t at);

// CASE searched WHEN k1 THEN v1 ... ELSE otherwise END with constant keys
// and constant, non-NULL results of `type` (INTEGER, BIGINT, DATE, a narrow
// DECIMAL, DOUBLE, or VARCHAR codes of `type`'s dictionary): one search in
// the sorted keys, then the result at the key's place. A key given twice
// keeps its first branch, as CASE takes the first match. searched is a
// 64-bit integer value of the keys' kind; NULL finds nothing (ELSE).
bool case_lookup_holds(const DataType& type);
BoundExpr sorted_case_lookup(BoundExpr searched, std::vector<std::pair<int64_t, BoundExpr>> branches,
                             BoundExpr otherwise, const DataType& type, std::size_t at);

}  // namespace gpusql
