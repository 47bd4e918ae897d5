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
// COUNT, SUM, MIN, MAX and AVG (a floating SUM or AVG then adds partial
// sums: the same value up to rounding). AVG(y) reads
//   "avg of partials"(SUM(h), SUM(l), COALESCE(SUM(n), 0), MIN(m))
// over the inner groups' "avg high part"(y) AS h, "avg low part"(y) AS l,
// COUNT(y) AS n and MIN(y) AS m: the quotient AVG itself computes
// (Op::AvgQuotient) of the exact total. For an integer y the parts are the
// SUMs of y / 2^32 and y % 2^32, so that neither leaves BIGINT in any group
// (AVG never overflows) and the total is h * 2^32 + l in 128 bits; for
// other types h is SUM(y) (l unused). MIN(m) is there for y's type alone.
// Anything else is "not supported yet".
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "parser/ast.hpp"

namespace gpusql {

// The functions the rewrite calls for AVG beside a DISTINCT aggregate (names
// no SQL text can spell: they have spaces); the last two are aggregates.
inline constexpr const char* kAverageOfPartials = "avg of partials";
inline constexpr const char* kAverageHighPart = "avg high part";
inline constexpr const char* kAverageLowPart = "avg low part";

// MIN and MAX of a 128-bit DECIMAL x take the same two levels, grouped
// first by x's upper half (the aggregates fold 64-bit values):
//   SELECT k, MAX(x), COUNT(*) FROM t GROUP BY k
// reads
//   SELECT k, "wide from parts"(MAX(v), ARG_MAX(m, v), p, s), COALESCE(SUM(n), 0)
//   FROM (SELECT k, "wide high part"(x) AS v, MAX("wide low part"(x)) AS m, COUNT(*) AS n
//         FROM t GROUP BY k, "wide high part"(x))
//   GROUP BY k
// The upper half v is a key of the inner groups, so the greatest one
// names one group, whose m is the greatest lower half beside it (the
// lower half as WideLow gives it: signed order that is the unsigned one).
// p and s are x's precision and scale. The other aggregates are partials
// as above; MIN and MAX of any other 128-bit value, and DISTINCT
// aggregates, are "not supported yet" beside it.
inline constexpr const char* kWideHighPart = "wide high part";
inline constexpr const char* kWideLowPart = "wide low part";
inline constexpr const char* kWideFromParts = "wide from parts";

// The two-level form of `s` when it has a SUM or AVG (DISTINCT ...), or
// with `every_distinct` any DISTINCT aggregate (COUNT(DISTINCT x) of a
// 128-bit x: the inner GROUP BY keys on x's halves, where the distinct
// count's 64-bit keys cannot hold it); nullopt when it has none. `sql`: the
// text `s` was parsed from (the outputs keep the names their text gives
// them).
std::optional<ast::SelectStatement> distinct_aggregates_rewritten(const ast::SelectStatement& s, std::string_view sql,
                                                                  bool every_distinct = false);

// The two-level form of `s` for its MIN and MAX of `argument` (the text of
// a 128-bit DECIMAL(precision, scale) expression).
ast::SelectStatement wide_extremes_rewritten(const ast::SelectStatement& s, std::string_view sql,
                                             const std::string& argument, int precision, int scale);

}  // namespace gpusql
