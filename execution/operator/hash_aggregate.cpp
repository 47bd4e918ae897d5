// HASH_GROUP_BY: GROUP BY and its aggregates over the whole input, each
// aggregate reduced per group in the canonical order; the groups put in key
// order when the plan asks for it and the backend's grouping did not give
// it.
#include "execution/operator/operators.hpp"

namespace gpusql {
namespace {

class HashAggregate final : public WholeInputSink {
 public:
  explicit HashAggregate(const PlanNode& aggregate) : WholeInputSink("HASH_GROUP_BY", &aggregate) {}

 protected:
  Chunk compute(ExecutionContext& context, const Chunk& input) override {
    const PlanNode& aggregate = *node();
    GroupedChunk grouped = context.backend.group_aggregate(input, aggregate.group_keys, aggregate.aggregates);
    if (!aggregate.key_order || grouped.key_ordered) return std::move(grouped.chunk);
    const std::vector<SortKey> order = group_order(aggregate.group_keys.size());
    return compose(context.backend, grouped.chunk, context.backend.order(grouped.chunk, order, std::nullopt));
  }
};

}  // namespace

std::unique_ptr<PhysicalOperator> make_hash_aggregate(const PlanNode& aggregate) {
  return std::make_unique<HashAggregate>(aggregate);
}

}  // namespace gpusql
