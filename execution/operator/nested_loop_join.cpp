// NESTED_LOOP_JOIN: every (left, right) pair for which the condition holds
// (a cross join without one), in (left, right) order: the right side whole,
// the left streaming through it chunk by chunk.
#include "execution/operator/join_output.hpp"
#include "execution/operator/operators.hpp"

namespace gpusql {
namespace {

class NestedLoopJoin final : public PhysicalOperator {
 public:
  explicit NestedLoopJoin(const PlanNode& join)
      : PhysicalOperator(Role::Join, join.predicate ? "NESTED_LOOP_JOIN" : "CROSS_PRODUCT", &join) {}

  void sink(ExecutionContext&, Chunk input, int) override { right_chunks_.push_back(std::move(input)); }
  void finalize(ExecutionContext& context) override { right_ = combine(context.backend, std::move(right_chunks_)); }

  Chunk execute(ExecutionContext& context, Chunk left) override {
    if (static_cast<double>(left.count) * static_cast<double>(right_.count) > 4e9)
      throw Error(ErrorKind::Execution, "a join without an equality would produce over 4 billion pairs");
    const std::optional<BoundExpr>& condition = node()->predicate;
    JoinPositions pairs = context.backend.nested_loop_join(left, right_, condition ? &*condition : nullptr);
    Chunk joined = join_output(context.backend, left, right_, pairs);
    if (!pairs.condition_pending) return joined;
    return compose(context.backend, joined, context.backend.select(joined, *condition));
  }

 private:
  std::vector<Chunk> right_chunks_;
  Chunk right_;
};

}  // namespace

std::unique_ptr<PhysicalOperator> make_nested_loop_join(const PlanNode& join) {
  return std::make_unique<NestedLoopJoin>(join);
}

}  // namespace gpusql
