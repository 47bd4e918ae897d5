// DISTINCT: the first occurrence of each distinct row, in input order.
#include "execution/operator/operators.hpp"

namespace gpusql {
namespace {

class Distinct final : public PhysicalOperator {
 public:
  explicit Distinct(const PlanNode& distinct) : PhysicalOperator(Role::Sink, "DISTINCT", &distinct) {}

  void sink(ExecutionContext&, Chunk input, int) override { chunks_.push_back(std::move(input)); }

  void finalize(ExecutionContext& context) override {
    const Chunk input = combine(context.backend, std::move(chunks_));
    result_.set(compose(context.backend, input, context.backend.distinct(input)));
  }

  std::optional<Chunk> produce(ExecutionContext&) override { return result_.take(); }

 private:
  std::vector<Chunk> chunks_;
  SinkResult result_;
};

}  // namespace

std::unique_ptr<PhysicalOperator> make_distinct(const PlanNode& distinct) {
  return std::make_unique<Distinct>(distinct);
}

}  // namespace gpusql
