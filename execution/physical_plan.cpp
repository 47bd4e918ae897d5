#include "execution/physical_plan.hpp"

#include <cstdio>

#include "execution/operator/operators.hpp"
#include "execution/pipeline.hpp"

namespace gpusql {
namespace {

// Whether an aggregate's value (its argument, or its ordering) has a
// 128-bit step.
bool has_wide_value(const std::vector<BoundAggregate>& aggregates) {
  for (const BoundAggregate& a : aggregates) {
    const std::optional<BoundExpr>& value = a.order ? a.order : a.argument;
    if (value && has_wide_step(*value)) return true;
  }
  return false;
}

std::unique_ptr<PhysicalOperator> plan_node(const PlanNode& node, const ComputeBackend& backend);

std::unique_ptr<PhysicalOperator> with_children(std::unique_ptr<PhysicalOperator> op, const PlanNode& node,
                                                const ComputeBackend& backend) {
  if (node.child) op->children.push_back(plan_node(*node.child, backend));
  if (node.right) op->children.push_back(plan_node(*node.right, backend));
  return op;
}

std::unique_ptr<PhysicalOperator> plan_aggregate(const PlanNode& node, const ComputeBackend& backend) {
  if (!node.group_keys.empty()) return with_children(make_hash_aggregate(node), node, backend);
  const PlanNode& source = *node.child;
  if (source.kind == PlanKind::Filter && !has_wide_step(*source.predicate) && !has_wide_value(node.aggregates)) {
    auto op = make_ungrouped_aggregate(node, &*source.predicate);
    op->children.push_back(plan_node(*source.child, backend));
    return op;
  }
  return with_children(make_ungrouped_aggregate(node, nullptr), node, backend);
}

std::unique_ptr<PhysicalOperator> plan_node(const PlanNode& node, const ComputeBackend& backend) {
  switch (node.kind) {
    case PlanKind::Scan: return make_table_scan(node);
    case PlanKind::Filter: return with_children(make_filter(node), node, backend);
    case PlanKind::Project: return with_children(make_projection(node), node, backend);
    case PlanKind::HashJoin: return with_children(make_hash_join(node), node, backend);
    case PlanKind::NestedLoopJoin: return with_children(make_nested_loop_join(node), node, backend);
    case PlanKind::Distinct: return with_children(make_distinct(node), node, backend);
    case PlanKind::Sort: return with_children(make_order(node, std::nullopt), node, backend);
    case PlanKind::Aggregate:
      if (backend.runs_star_joins())
        if (std::optional<StarJoin> star = match_star_join(node))
          return make_star_join_aggregate(node, std::move(*star), plan_aggregate(node, backend));
      return plan_aggregate(node, backend);
    case PlanKind::Limit: {
      auto op = make_limit(node);
      if (node.limit && node.child->kind == PlanKind::Sort) {
        const auto offset = static_cast<uint64_t>(node.offset), limit = static_cast<uint64_t>(*node.limit);
        const uint64_t top = limit > UINT64_MAX - offset ? UINT64_MAX : offset + limit;
        op->children.push_back(with_children(make_order(*node.child, static_cast<std::size_t>(top)), *node.child, backend));
        return op;
      }
      return with_children(std::move(op), node, backend);
    }
  }
  throw Error(ErrorKind::Invalid, "internal: unknown plan operator");
}

void describe(const PhysicalOperator& op, const std::map<const PhysicalOperator*, OperatorStats>* stats, int indent,
              std::string& out) {
  std::string line(static_cast<std::size_t>(indent) * 2, ' ');
  line += op.name();
  if (op.node() && op.node()->kind == PlanKind::Scan) line += " " + op.node()->table.table->name;
  if (stats) {
    auto it = stats->find(&op);
    if (it != stats->end()) {
      char measured[96];
      std::snprintf(measured, sizeof measured, "  [%zu rows, %.3f ms]", it->second.rows, it->second.milliseconds);
      line += measured;
    }
    if (!op.note().empty()) line += "  (" + op.note() + ")";
  }
  out += line + "\n";
  for (const auto& child : op.children) describe(*child, stats, indent + 1, out);
}

// A sink that takes nothing: the top of the pipelines EXPLAIN lists.
class ResultSink final : public PhysicalOperator {
 public:
  ResultSink() : PhysicalOperator(Role::Sink, "RESULT", nullptr) {}
};

}  // namespace

std::unique_ptr<PhysicalOperator> plan_physical(const PlanNode& root, const ComputeBackend& backend) {
  return plan_node(root, backend);
}

std::string describe_physical_plan(PhysicalOperator& root,
                                   const std::map<const PhysicalOperator*, OperatorStats>* stats) {
  std::string out;
  describe(root, stats, 0, out);
  ResultSink result;
  out += describe_pipelines(build_pipelines(root, result));
  return out;
}

}  // namespace gpusql
