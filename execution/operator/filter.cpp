// FILTER: each chunk at the positions where the predicate is TRUE.
#include "execution/operator/operators.hpp"

namespace gpusql {
namespace {

class Filter final : public PhysicalOperator {
 public:
  explicit Filter(const PlanNode& filter) : PhysicalOperator(Role::Operator, "FILTER", &filter) {}

  Chunk execute(ExecutionContext& context, Chunk input) override {
    PositionsPtr selected = context.backend.select(input, *node()->predicate);
    return compose(context.backend, input, selected);
  }
};

}  // namespace

std::unique_ptr<PhysicalOperator> make_filter(const PlanNode& filter) { return std::make_unique<Filter>(filter); }

}  // namespace gpusql
