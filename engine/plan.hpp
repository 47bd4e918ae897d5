// The physical plan: a tree of operators, each a small const description of
// what to compute. Both executors run the same tree; the CUDA executor fuses
// adjacent operators (Filter into the Aggregate above it) into one kernel.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/binder.hpp"

namespace gpusql {

enum class PlanKind { Scan, Filter, Aggregate, Project };

struct PlanNode {
  PlanKind kind = PlanKind::Scan;
  std::unique_ptr<PlanNode> child;

  std::shared_ptr<const Table> table;      // Scan: all of the table's columns
  BoundExpr predicate;                     // Filter: over the child's columns
  std::vector<BoundAggregate> aggregates;  // Aggregate: one row out, a column each
  std::vector<BoundExpr> expressions;      // Project: over the child's columns
  std::vector<std::string> names;          // Project: the output names

  // Names of this operator's output columns.
  std::vector<std::string> output_names() const;
  // The tree as EXPLAIN prints it, one operator a line.
  std::string to_string(int indent = 0) const;
};

// Scan -> [Filter] -> [Aggregate] -> Project.
std::unique_ptr<PlanNode> plan_select(BoundSelect select);

}  // namespace gpusql
