// DISTINCT: the first occurrence of each distinct row, in input order.
#include "execution/operator/operators.hpp"

namespace gpusql {
namespace {

class Distinct final : public WholeInputSink {
 public:
  explicit Distinct(const PlanNode& distinct) : WholeInputSink("DISTINCT", &distinct) {}

 protected:
  Chunk compute(ExecutionContext& context, const Chunk& input) override {
    return compose(context.backend, input, context.backend.distinct(input));
  }
};

}  // namespace

std::unique_ptr<PhysicalOperator> make_distinct(const PlanNode& distinct) {
  return std::make_unique<Distinct>(distinct);
}

}  // namespace gpusql
