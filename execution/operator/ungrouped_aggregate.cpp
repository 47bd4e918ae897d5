// UNGROUPED_AGGREGATE: aggregates without GROUP BY, one row. The Filter
// under it, when the physical planner fused it in, is evaluated inline:
// every input position keeps its place in the reduction order (a rejected
// one as an empty state), no positions are compacted.
#include "execution/operator/operators.hpp"

namespace gpusql {
namespace {

class UngroupedAggregate final : public PhysicalOperator {
 public:
  UngroupedAggregate(const PlanNode& aggregate, const BoundExpr* filter)
      : PhysicalOperator(Role::Sink, filter ? "FILTER_UNGROUPED_AGGREGATE" : "UNGROUPED_AGGREGATE", &aggregate),
        filter_(filter) {}

  void sink(ExecutionContext&, Chunk input, int) override { chunks_.push_back(std::move(input)); }

  void finalize(ExecutionContext& context) override {
    const Chunk input = combine(context.backend, std::move(chunks_));
    result_.set(context.backend.aggregate(input, filter_, node()->aggregates));
  }

  std::optional<Chunk> produce(ExecutionContext&) override { return result_.take(); }

 private:
  const BoundExpr* filter_;
  std::vector<Chunk> chunks_;
  SinkResult result_;
};

}  // namespace

std::unique_ptr<PhysicalOperator> make_ungrouped_aggregate(const PlanNode& aggregate, const BoundExpr* filter) {
  return std::make_unique<UngroupedAggregate>(aggregate, filter);
}

}  // namespace gpusql
