// LIMIT: OFFSET rows skipped and at most LIMIT kept, counted over the chunks
// as they pass.
#include <algorithm>

#include "execution/operator/operators.hpp"

namespace gpusql {
namespace {

class Limit final : public PhysicalOperator {
 public:
  explicit Limit(const PlanNode& limit)
      : PhysicalOperator(Role::Operator, "LIMIT", &limit),
        skip_(static_cast<std::size_t>(limit.offset)),
        keep_(limit.limit ? std::optional<std::size_t>(static_cast<std::size_t>(*limit.limit)) : std::nullopt) {}

  Chunk execute(ExecutionContext& context, Chunk input) override {
    const std::size_t skipped = std::min(input.count, skip_);
    skip_ -= skipped;
    std::size_t kept = input.count - skipped;
    if (keep_) {
      kept = std::min(kept, *keep_);
      *keep_ -= kept;
    }
    if (skipped == 0 && kept == input.count) return input;
    return compose(context.backend, input, context.backend.sequence(skipped, kept));
  }

 private:
  std::size_t skip_;
  std::optional<std::size_t> keep_;
};

}  // namespace

std::unique_ptr<PhysicalOperator> make_limit(const PlanNode& limit) { return std::make_unique<Limit>(limit); }

}  // namespace gpusql
