#include "planner/join_order.hpp"

#include <bit>
#include <limits>
#include <stdexcept>

namespace gpusql {
namespace {

constexpr double kUnplanned = std::numeric_limits<double>::infinity();

bool inside(uint64_t set, uint64_t of) { return (set & ~of) == 0; }

class Enumerator {
 public:
  Enumerator(const std::vector<double>& rows, const std::vector<JoinCondition>& conditions)
      : conditions_(conditions), full_((uint64_t{1} << rows.size()) - 1), rows_(full_ + 1, 1), cost_(full_ + 1, kUnplanned),
        split_(full_ + 1, 0) {
    for (uint64_t s = 1; s <= full_; ++s) {
      const uint64_t low = s & (~s + 1);
      const int index = std::countr_zero(low);
      double r = rows_[s ^ low] * rows[static_cast<std::size_t>(index)];
      for (const JoinCondition& c : conditions_) {
        const uint64_t holds = c.left | c.right;
        if ((holds & low) && inside(holds, s)) r *= c.selectivity;
      }
      rows_[s] = r;
    }
    for (std::size_t i = 0; i < rows.size(); ++i) cost_[uint64_t{1} << i] = 0;
  }

  std::unique_ptr<JoinTree> run() {
    for (uint64_t s = 1; s <= full_; ++s)
      if (std::popcount(s) > 1) plan(s, false);
    if (cost_[full_] == kUnplanned)
      for (uint64_t s = 1; s <= full_; ++s)
        if (std::popcount(s) > 1 && cost_[s] == kUnplanned) plan(s, true);
    return tree(full_);
  }

 private:
  // The cheapest split of `s` into two planned parts, joined by an
  // equality (or, with `cross`, by none).
  void plan(uint64_t s, bool cross) {
    const uint64_t low = s & (~s + 1);
    for (uint64_t a = (s - 1) & s; a != 0; a = (a - 1) & s) {
      if (!(a & low)) continue;  // each split once: the part holding the lowest relation
      const uint64_t b = s ^ a;
      if (cost_[a] == kUnplanned || cost_[b] == kUnplanned) continue;
      if (!cross && !connected(a, b)) continue;
      const double cost = cost_[a] + cost_[b] + rows_[s];
      if (cost < cost_[s]) {
        cost_[s] = cost;
        split_[s] = a;
      }
    }
  }

  bool connected(uint64_t a, uint64_t b) const {
    for (const JoinCondition& c : conditions_)
      if (c.equality && ((inside(c.left, a) && inside(c.right, b)) || (inside(c.left, b) && inside(c.right, a))))
        return true;
    return false;
  }

  std::unique_ptr<JoinTree> tree(uint64_t s) const {
    auto node = std::make_unique<JoinTree>();
    node->relations = s;
    node->rows = rows_[s];
    if (std::popcount(s) > 1) {
      if (cost_[s] == kUnplanned) throw std::logic_error("order_joins: a set left unplanned");
      node->a = tree(split_[s]);
      node->b = tree(s ^ split_[s]);
    }
    return node;
  }

  const std::vector<JoinCondition>& conditions_;
  const uint64_t full_;
  std::vector<double> rows_;     // by set: estimated rows of its join
  std::vector<double> cost_;     // by set: the least sum of intermediate rows that joins it
  std::vector<uint64_t> split_;  // by set: one part of its cheapest split
};

}  // namespace

std::unique_ptr<JoinTree> order_joins(const std::vector<double>& rows, const std::vector<JoinCondition>& conditions) {
  if (rows.empty() || rows.size() > kMaxOrderedJoins) throw std::logic_error("order_joins: 1 to 12 relations");
  return Enumerator(rows, conditions).run();
}

}  // namespace gpusql
