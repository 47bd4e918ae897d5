// The physical operators, one file each beside this header; the physical
// planner (execution/physical_plan.cpp) makes them from plan operators and
// hangs their children under them.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>

#include "execution/physical_operator.hpp"
#include "execution/star_join.hpp"

namespace gpusql {

// Source: the table's rows, a chunk of context.chunk_rows at a time.
std::unique_ptr<PhysicalOperator> make_table_scan(const PlanNode& scan);
// Operator: the positions where the predicate holds.
std::unique_ptr<PhysicalOperator> make_filter(const PlanNode& filter);
// Operator: the select list's expressions (a bare column passes through).
std::unique_ptr<PhysicalOperator> make_projection(const PlanNode& project);
// Operator: OFFSET and LIMIT over the chunks as they pass.
std::unique_ptr<PhysicalOperator> make_limit(const PlanNode& limit);
// Join by equal keys: streams the left side when the right one builds;
// a Sink of both sides when the left builds or the join is FULL (their
// output order needs every probe row first).
std::unique_ptr<PhysicalOperator> make_hash_join(const PlanNode& join);
// Join: streams the left side over the right one's rows.
std::unique_ptr<PhysicalOperator> make_nested_loop_join(const PlanNode& join);
// Sink: GROUP BY and its aggregates.
std::unique_ptr<PhysicalOperator> make_hash_aggregate(const PlanNode& aggregate);
// Sink: aggregates without GROUP BY; with `filter` (the Filter under the
// Aggregate, fused), every position keeps its place in the reduction order.
std::unique_ptr<PhysicalOperator> make_ungrouped_aggregate(const PlanNode& aggregate, const BoundExpr* filter);
// Source: the star join under `aggregate` in one pass (backends that have
// it); where it declines at run time, `general` (the same Aggregate as the
// general operators run it) runs instead.
std::unique_ptr<PhysicalOperator> make_star_join_aggregate(const PlanNode& aggregate, StarJoin star,
                                                          std::unique_ptr<PhysicalOperator> general);
// Sink: the first occurrence of each distinct row.
std::unique_ptr<PhysicalOperator> make_distinct(const PlanNode& distinct);
// Sink: ORDER BY; with `top` (a LIMIT above: its OFFSET + LIMIT), only
// the first `top` rows (TOP_N).
std::unique_ptr<PhysicalOperator> make_order(const PlanNode& sort, std::optional<std::size_t> top);

}  // namespace gpusql
