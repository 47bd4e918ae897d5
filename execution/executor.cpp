#include "execution/executor.hpp"

#include "common/trace.hpp"
#include "execution/physical_plan.hpp"
#include "execution/pipeline.hpp"

namespace gpusql {
namespace {

// The measurements of the operators under `op` into `profile`, children
// first: where a fused operator declined and its general subtree ran, the
// plan operator's actuals are the subtree's.
void record(const PhysicalOperator& op, const std::map<const PhysicalOperator*, OperatorStats>& stats,
            Profile& profile) {
  for (const auto& child : op.children) record(*child, stats, profile);
  auto it = stats.find(&op);
  if (op.node() && it != stats.end())
    profile.operators.push_back({op.node(), it->second.rows, it->second.milliseconds, op.note()});
}

std::vector<std::string> result_names(const Plan& plan) {
  const PlanNode& projection = projection_of(*plan.root);
  return {projection.names.begin(), projection.names.begin() + static_cast<std::ptrdiff_t>(plan.root->visible)};
}

}  // namespace

Executor::Executor(std::unique_ptr<ComputeBackend> backend, const QueryControl& control)
    : backend_(std::move(backend)), control_(control) {}

void Executor::configure(const Settings& settings) {
  chunk_rows_ = static_cast<std::size_t>(settings.chunk_rows);
  backend_->configure(settings);
}

std::shared_ptr<ResultData> Executor::execute(const Plan& plan, Profile* profile) {
  std::unique_ptr<PhysicalOperator> root = plan_physical(*plan.root, *backend_);
  std::map<const PhysicalOperator*, OperatorStats> stats;
  ExecutionContext context{*backend_, control_, chunk_rows_, profile ? &stats : nullptr};
  backend_->begin_query();
  Chunk result = run_to_chunk(*root, context);
  trace::mark("operators");
  auto data = std::make_shared<ResultData>();
  data->names = result_names(plan);
  data->columns = backend_->to_host(result, data->names.size());
  data->rows = result.count;
  if (profile) {
    record(*root, stats, *profile);
    profile->physical_plan = describe_physical_plan(*root, &stats);
  }
  return data;
}

std::shared_ptr<Table> Executor::execute_to_table(const Plan& plan, std::string name) {
  std::unique_ptr<PhysicalOperator> root = plan_physical(*plan.root, *backend_);
  ExecutionContext context{*backend_, control_, chunk_rows_, nullptr};
  backend_->begin_query();
  Chunk result = run_to_chunk(*root, context);
  trace::mark("operators");
  return backend_->to_table(std::move(result), result_names(plan), std::move(name));
}

std::string Executor::explain(const Plan& plan) {
  std::unique_ptr<PhysicalOperator> root = plan_physical(*plan.root, *backend_);
  return describe_physical_plan(*root);
}

const PlanNode& projection_of(const PlanNode& root) {
  const PlanNode* n = &root;
  while (n->kind != PlanKind::Project) n = n->child.get();
  return *n;
}

}  // namespace gpusql
