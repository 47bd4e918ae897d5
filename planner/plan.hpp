// The physical plan: a tree of operators, each a small const description of
// what to compute; both executors run the same tree.
//
// Column spaces. Scan, Filter and the joins produce the query's global
// columns (binder.hpp): a Scan fills its table's columns and rowid and
// leaves the others absent; a join's output has both sides'. Aggregate
// produces [group keys..., aggregates...]; Project produces its expressions;
// Distinct, Sort and Limit pass their input's columns through. The root's
// first `visible` columns are the result.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "planner/binder.hpp"

namespace gpusql {

enum class PlanKind { Scan, Filter, HashJoin, NestedLoopJoin, Aggregate, Project, Distinct, Sort, Limit };

struct JoinKey {
  BoundExpr left;   // over the left input's columns
  BoundExpr right;  // over the right input's columns
};

struct SortKey {
  int column = 0;
  bool descending = false;
  bool nulls_first = false;
};

// What an operator computes, its inputs aside (so it copies).
struct PlanOperator {
  PlanKind kind = PlanKind::Scan;

  // Scan
  BoundTableRef table;
  int table_index = 0;
  int column_count = 0;  // of the global space
  // Filter (over its input), NestedLoopJoin (over both sides' global columns;
  // an empty predicate is a cross join)
  std::optional<BoundExpr> predicate;
  // HashJoin: equal keys; the smaller estimated side builds the hash table
  std::vector<JoinKey> keys;
  bool build_right = true;
  // LEFT JOIN: every left row stays; one with no match once, its right
  // columns NULL (the right side builds).
  bool left_outer = false;
  // FULL JOIN (with left_outer): a right row with no match too, once, its
  // left columns NULL; after the left rows' pairs, in right order.
  bool full_outer = false;
  // Aggregate
  std::vector<BoundExpr> group_keys;
  std::vector<BoundAggregate> aggregates;
  // The groups come out in key order -- as ORDER BY key1, key2, ... (ASC,
  // NULLs last) would give them -- on both executors. False when an ORDER
  // BY above orders by every group key, so no order of the groups shows.
  bool key_order = false;
  // Project
  std::vector<BoundExpr> expressions;
  std::vector<std::string> names;
  // Sort
  std::vector<SortKey> sort_keys;
  // Limit
  std::optional<int64_t> limit;
  int64_t offset = 0;

  std::size_t visible = 0;  // root only: result columns
  double estimated_rows = 0;
};

struct PlanNode : PlanOperator {
  std::unique_ptr<PlanNode> child;  // the input; for joins the left (probe) side
  std::unique_ptr<PlanNode> right;  // joins: the right side

  // Names of this operator's output columns, for EXPLAIN.
  std::vector<std::string> output_names(const std::vector<std::string>& global_names) const;
  // The tree as EXPLAIN prints it, one operator a line; `actual` adds
  // EXPLAIN ANALYZE's measurements (see Profile).
  std::string to_string(const std::vector<std::string>& global_names, const struct Profile* actual = nullptr,
                        int indent = 0) const;
};

// A copy of the tree below `node` (the same operators, new nodes).
std::unique_ptr<PlanNode> copy_plan(const PlanNode& node);

// What EXPLAIN ANALYZE measured for each operator.
struct OperatorProfile {
  const PlanNode* node = nullptr;
  std::size_t rows = 0;
  double milliseconds = 0;  // device time on the GPU (events), wall time on the host
  std::string note;         // how the executor ran it, when not as the plan reads (e.g. fused)
};
struct Profile {
  std::vector<OperatorProfile> operators;
  std::string physical_plan;  // the physical operators as they ran, with their own measurements
  const OperatorProfile* find(const PlanNode* node) const;
};

struct Plan {
  std::unique_ptr<PlanNode> root;
  std::vector<std::string> column_names;  // of the global space
};

Plan plan_query(BoundQuery query);

// Distinct counts of each result column, for a table of the plan's `rows`
// result rows that later plans join (a subquery's): a column's source's
// estimate, or `rows` (each value its own) where the plan does not tell, as
// for an Aggregate's values and its only group key. The same on every
// executor, so a query plans the same around its subquery on each.
std::vector<double> result_distinct_estimates(const Plan& plan, std::size_t rows);

// The sort keys of an Aggregate's key order: its first `keys` output
// columns, ascending, NULLs last.
std::vector<SortKey> group_order(std::size_t keys);

}  // namespace gpusql
