// UNGROUPED_AGGREGATE: aggregates without GROUP BY, one row. The Filter
// under it, when the physical planner fused it in, is evaluated inline:
// every input position keeps its place in the reduction order (a rejected
// one as an empty state), no positions are compacted.
#include "execution/operator/operators.hpp"

namespace gpusql {
namespace {

class UngroupedAggregate final : public WholeInputSink {
 public:
  UngroupedAggregate(const PlanNode& aggregate, const BoundExpr* filter)
      : WholeInputSink(filter ? "FILTER_UNGROUPED_AGGREGATE" : "UNGROUPED_AGGREGATE", &aggregate), filter_(filter) {}

 protected:
  Chunk compute(ExecutionContext& context, const Chunk& input) override {
    return context.backend.aggregate(input, filter_, node()->aggregates);
  }

 private:
  const BoundExpr* filter_;
};

}  // namespace

std::unique_ptr<PhysicalOperator> make_ungrouped_aggregate(const PlanNode& aggregate, const BoundExpr* filter) {
  return std::make_unique<UngroupedAggregate>(aggregate, filter);
}

}  // namespace gpusql
