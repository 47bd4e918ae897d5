// SUM(DISTINCT x) and AVG(DISTINCT x) as two GROUP BYs, so that no operator
// needs a distinct set per group: the rows are first grouped by the query's
// keys and x, each group keeping the partial aggregates the other
// aggregates need, then grouped again by the keys alone:
//   SELECT k, SUM(DISTINCT x), COUNT(*), MAX(y) FROM t WHERE c GROUP BY k
// reads
//   SELECT k, SUM(v), COALESCE(SUM(n), 0), MAX(m)
//   FROM (SELECT k, x AS v, COUNT(*) AS n, MAX(y) AS m FROM t WHERE c GROUP BY k, x)
//   GROUP BY k
// Every DISTINCT aggregate must have the same argument; the others may be
// COUNT, SUM, MIN and MAX (a floating SUM then adds partial sums: the same
// value up to rounding). Anything else is "not supported yet".
#pragma once

#include <optional>
#include <string_view>

#include "parser/ast.hpp"

namespace gpusql {

// The two-level form of `s` when it has a SUM or AVG (DISTINCT ...);
// nullopt when it has none. `sql`: the text `s` was parsed from (the
// outputs keep the names their text gives them).
std::optional<ast::SelectStatement> distinct_aggregates_rewritten(const ast::SelectStatement& s, std::string_view sql);

}  // namespace gpusql
