#include "engine/selectivity.hpp"

#include <algorithm>
#include <set>

namespace gpusql {
namespace {

void collect_columns(const BoundExpr& e, std::set<int>& out) {
  if (e.op == Op::Column) out.insert(e.column);
  for (const auto& c : e.children) collect_columns(c, out);
}

}  // namespace

double selectivity(const BoundExpr& e, const std::function<double(int)>& column_distinct) {
  auto bare = [](const BoundExpr& x) {
    const BoundExpr* c = &x;
    while (c->op == Op::ToWide && c->children.size() == 1) c = &c->children[0];
    return c->op == Op::Column ? c : nullptr;
  };
  auto constant = [](const BoundExpr& x) {
    std::set<int> columns;
    collect_columns(x, columns);
    return columns.empty();
  };
  // 1 / the distinct values of the column compared with a constant, if known.
  auto one_value = [&]() -> double {
    for (int side = 0; side < 2; ++side) {
      const BoundExpr* c = bare(e.children[static_cast<std::size_t>(side)]);
      if (c && constant(e.children[static_cast<std::size_t>(1 - side)])) {
        const double d = column_distinct(c->column);
        if (d >= 1) return 1 / d;
      }
    }
    return 0;
  };
  switch (e.op) {
    case Op::Eq: {
      const double one = one_value();
      return one > 0 ? one : 0.1;
    }
    case Op::Ne: {
      const double one = one_value();
      return one > 0 ? 1 - one : 0.9;
    }
    case Op::And: return selectivity(e.children[0], column_distinct) * selectivity(e.children[1], column_distinct);
    case Op::Or: {
      const double a = selectivity(e.children[0], column_distinct), b = selectivity(e.children[1], column_distinct);
      return std::min(1.0, a + b - a * b);
    }
    case Op::Not: return 1 - selectivity(e.children[0], column_distinct);
    case Op::Lookup:  // a LIKE: the fraction of dictionary entries it matches
      if (e.lookup && e.lookup->type == Type::Boolean && e.lookup->entries > 0)
        return std::max<double>(1, static_cast<double>(e.lookup->true_entries)) / static_cast<double>(e.lookup->entries);
      return 0.33;
    default: return 0.33;
  }
}

double selectivity(const BoundExpr& e) {
  return selectivity(e, [](int) { return 0.0; });
}

}  // namespace gpusql
