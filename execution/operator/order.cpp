// ORDER_BY: a stable sort of the positions by the sort keys. TOP_N (under a
// LIMIT): only the first OFFSET + LIMIT, which the backend may select
// without sorting the others.
#include "execution/operator/operators.hpp"

namespace gpusql {
namespace {

class Order final : public WholeInputSink {
 public:
  Order(const PlanNode& sort, std::optional<std::size_t> top)
      : WholeInputSink(top ? "TOP_N" : "ORDER_BY", &sort), top_(top) {}

 protected:
  Chunk compute(ExecutionContext& context, const Chunk& input) override {
    const std::optional<std::size_t> limit = top_ && *top_ < input.count ? top_ : std::nullopt;
    return compose(context.backend, input, context.backend.order(input, node()->sort_keys, limit));
  }

 private:
  std::optional<std::size_t> top_;
};

}  // namespace

std::unique_ptr<PhysicalOperator> make_order(const PlanNode& sort, std::optional<std::size_t> top) {
  return std::make_unique<Order>(sort, top);
}

}  // namespace gpusql
