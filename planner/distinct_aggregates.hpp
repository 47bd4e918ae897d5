// SUM(DISTINCT x) and AVG(DISTINCT x) as two GROUP BYs, so that no operator
// needs a distinct set per group: the rows are first grouped by the query's
// keys and x, each group keeping the partial aggregates the other
// aggregates need, then grouped again by the keys alone:
//   SELECT k, SUM(DISTINCT x), COUNT(*), MAX(y) FROM t WHERE c GROUP BY k
// reads
//   SELECT k, SUM(v), COALESCE(SUM(n), 0), MAX(m)
//   FROM (SELECT k, x AS v, COUNT(*) AS n, MAX(y) AS m FROM t WHERE c GROUP BY k, x)
//   GROUP BY k
// Here every DISTINCT aggregate has the same argument (several arguments:
// distinct_aggregates_rewritten() below); the others may be
// COUNT, SUM, MIN, MAX and AVG (a floating SUM or AVG then adds partial
// sums: the same value up to rounding). AVG(y) reads
//   "avg of partials"(SUM(h), SUM(l), COALESCE(SUM(n), 0), MIN(m))
// over the inner groups' "avg high part"(y) AS h, "avg low part"(y) AS l,
// COUNT(y) AS n and MIN(y) AS m: the quotient AVG itself computes
// (Op::AvgQuotient) of the exact total. For an integer y the parts are the
// SUMs of y / 2^32 and y % 2^32, so that neither leaves BIGINT in any group
// (AVG never overflows) and the total is h * 2^32 + l in 128 bits; for
// other types h is SUM(y) (l unused). MIN(m) is there for y's type alone.
// ARG_MIN and ARG_MAX have no partials (below). Anything else is "not
// supported yet".
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
// The rewritten query's inner level names group key k "group key k".
inline constexpr std::string_view kGroupKeyPrefix = "group key ";
inline constexpr const char* kWideLowPart = "wide low part";
inline constexpr const char* kWideFromParts = "wide from parts";

// The query's group keys as the binder resolves them: GROUP BY 1 and GROUP
// BY alias name the select items they stand for, and an expression is a
// key when it binds to the same value (`t.g` is the key `g`).
struct GroupKeys {
  std::vector<ast::ExprPtr> exprs;  // GROUP BY's, positions and aliases resolved
  // The key `e` (neither an aggregate nor a subquery in it) is, if any.
  std::function<std::optional<std::size_t>(const ast::Expr& e)> index_of;
};

// Whether `s` needs distinct_aggregates_rewritten(): it has a SUM or AVG
// (DISTINCT ...), or with `every_distinct` any DISTINCT aggregate.
bool has_distinct_aggregate_to_rewrite(const ast::SelectStatement& s, bool every_distinct = false);

// The two-level form of `s` when it has a SUM or AVG (DISTINCT ...), or
// with `every_distinct` any DISTINCT aggregate (COUNT(DISTINCT x) of a
// 128-bit x: the inner GROUP BY keys on x's halves, where the distinct
// count's 64-bit keys cannot hold it); nullopt when it has none. `sql`: the
// text `s` was parsed from (the outputs keep the names their text gives
// them).
//
// DISTINCT aggregates of several arguments: without GROUP BY, each other
// argument's aggregate is a query of its own, a constant of the query
// (OtherDistinctArguments in the .cpp). With GROUP BY, the query is one
// part per argument, each grouped by the same keys over the same rows (so
// each has the same groups, one row each), joined on the keys by IS NOT
// DISTINCT FROM (a NULL key is a group too):
//   SELECT k, SUM(DISTINCT x), COUNT(DISTINCT y), MAX(z) FROM t GROUP BY k
// reads
//   SELECT p0."group key 0", p0."aggregate 0", p1."aggregate 0", p0."aggregate 1"
//   FROM (SELECT k AS "group key 0", SUM(DISTINCT x) AS "aggregate 0", MAX(z) AS "aggregate 1"
//         FROM t GROUP BY k) AS p0
//   JOIN (SELECT k AS "group key 0", COUNT(DISTINCT y) AS "aggregate 0" FROM t GROUP BY k) AS p1
//     ON p0."group key 0" IS NOT DISTINCT FROM p1."group key 0"
// with HAVING as the join's WHERE; each part binds in the two levels above.
// ARG_MIN and ARG_MAX have no partials for the two levels: beside a
// DISTINCT aggregate, the aggregates without DISTINCT are a part of their
// own (without GROUP BY too: each part is then one row, cross joined).
std::optional<ast::SelectStatement> distinct_aggregates_rewritten(const ast::SelectStatement& s, std::string_view sql,
                                                                  const GroupKeys& keys, bool every_distinct = false);

// `s` with its groups and aggregates first, as a derived table of one row a
// group, and the rest over it (the one-part form above: no GROUP BY around
// it, HAVING its WHERE):
//   SELECT k, SUM(x) IN (SELECT y FROM u WHERE u.k = t.k) FROM t GROUP BY k
// reads
//   SELECT p0."group key 0", p0."aggregate 0" IN (SELECT y FROM u WHERE u.k = p0."group key 0")
//   FROM (SELECT k AS "group key 0", SUM(x) AS "aggregate 0" FROM t GROUP BY k) AS p0
// so that a correlated IN whose left side is an aggregate is one over rows.
// Nullopt where no two-level form can stand for `s` (a * in its select
// list, nested aggregates).
std::optional<ast::SelectStatement> aggregates_first_rewritten(const ast::SelectStatement& s, std::string_view sql,
                                                               const GroupKeys& keys);

// The two-level form of `s` for its MIN and MAX of `argument` (the text of
// a 128-bit DECIMAL(precision, scale) expression).
ast::SelectStatement wide_extremes_rewritten(const ast::SelectStatement& s, std::string_view sql, const GroupKeys& keys,
                                             const std::string& argument, int precision, int scale);

}  // namespace gpusql
