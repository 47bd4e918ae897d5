// ORDER_BY: a stable sort of the positions by the sort keys. TOP_N (under a
// LIMIT): only the first OFFSET + LIMIT, which the backend may select
// without sorting the others.
#include "execution/operator/operators.hpp"

namespace gpusql {
namespace {

class Order final : public PhysicalOperator {
 public:
  Order(const PlanNode& sort, std::optional<std::size_t> top)
      : PhysicalOperator(Role::Sink, top ? "TOP_N" : "ORDER_BY", &sort), top_(top) {}

  void sink(ExecutionContext&, Chunk input, int) override { chunks_.push_back(std::move(input)); }

  void finalize(ExecutionContext& context) override {
    const Chunk input = combine(context.backend, std::move(chunks_));
    const std::optional<std::size_t> limit = top_ && *top_ < input.count ? top_ : std::nullopt;
    result_.set(compose(context.backend, input, context.backend.order(input, node()->sort_keys, limit)));
  }

  std::optional<Chunk> produce(ExecutionContext&) override { return result_.take(); }

 private:
  std::optional<std::size_t> top_;
  std::vector<Chunk> chunks_;
  SinkResult result_;
};

}  // namespace

std::unique_ptr<PhysicalOperator> make_order(const PlanNode& sort, std::optional<std::size_t> top) {
  return std::make_unique<Order>(sort, top);
}

}  // namespace gpusql
