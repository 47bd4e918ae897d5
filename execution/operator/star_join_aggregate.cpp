// STAR_JOIN_AGGREGATE: an Aggregate over a star join (execution/star_join.hpp)
// in one pass over the fact table, on a backend that has the fused kernel.
// Where the kernel declines at run time (a dimension key that is not
// unique, key ranges too wide, a sum that might overflow) the general
// operators under it run instead, with the same answer.
#include "execution/operator/operators.hpp"
#include "execution/pipeline.hpp"

namespace gpusql {
namespace {

class StarJoinAggregate final : public PhysicalOperator {
 public:
  StarJoinAggregate(const PlanNode& aggregate, StarJoin star, std::unique_ptr<PhysicalOperator> general)
      : PhysicalOperator(Role::Source, "STAR_JOIN_AGGREGATE", &aggregate), star_(std::move(star)) {
    children.push_back(std::move(general));
  }

  std::optional<Chunk> produce(ExecutionContext& context) override {
    if (done_) return std::nullopt;
    done_ = true;
    std::optional<GroupedChunk> fused = context.backend.star_join_aggregate(*node(), star_);
    if (!fused) {
      note_ = "declined: the general operators ran";
      return run_to_chunk(*children.at(0), context);
    }
    const std::size_t dimensions = star_.dimensions.size();
    note_ = "fused star join over " + std::to_string(dimensions) + " dimension" + (dimensions == 1 ? "" : "s");
    const PlanNode& aggregate = *node();
    if (!aggregate.key_order || aggregate.group_keys.empty() || fused->key_ordered) return std::move(fused->chunk);
    const std::vector<SortKey> order = group_order(aggregate.group_keys.size());
    return compose(context.backend, fused->chunk, context.backend.order(fused->chunk, order, std::nullopt));
  }

 private:
  StarJoin star_;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<PhysicalOperator> make_star_join_aggregate(const PlanNode& aggregate, StarJoin star,
                                                          std::unique_ptr<PhysicalOperator> general) {
  return std::make_unique<StarJoinAggregate>(aggregate, std::move(star), std::move(general));
}

}  // namespace gpusql
