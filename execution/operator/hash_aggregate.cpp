// HASH_GROUP_BY: GROUP BY and its aggregates over the whole input, each
// aggregate reduced per group in the canonical order; the groups put in key
// order when the plan asks for it and the backend's grouping did not give
// it.
#include "execution/operator/operators.hpp"

namespace gpusql {
namespace {

class HashAggregate final : public PhysicalOperator {
 public:
  explicit HashAggregate(const PlanNode& aggregate) : PhysicalOperator(Role::Sink, "HASH_GROUP_BY", &aggregate) {}

  void sink(ExecutionContext&, Chunk input, int) override { chunks_.push_back(std::move(input)); }

  void finalize(ExecutionContext& context) override {
    const PlanNode& aggregate = *node();
    const Chunk input = combine(context.backend, std::move(chunks_));
    GroupedChunk grouped = context.backend.group_aggregate(input, aggregate.group_keys, aggregate.aggregates);
    if (!aggregate.key_order || grouped.key_ordered) {
      result_.set(std::move(grouped.chunk));
      return;
    }
    const std::vector<SortKey> order = group_order(aggregate.group_keys.size());
    result_.set(compose(context.backend, grouped.chunk, context.backend.order(grouped.chunk, order, std::nullopt)));
  }

  std::optional<Chunk> produce(ExecutionContext&) override { return result_.take(); }

 private:
  std::vector<Chunk> chunks_;
  SinkResult result_;
};

}  // namespace

std::unique_ptr<PhysicalOperator> make_hash_aggregate(const PlanNode& aggregate) {
  return std::make_unique<HashAggregate>(aggregate);
}

}  // namespace gpusql
