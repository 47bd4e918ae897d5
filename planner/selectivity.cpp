#include "planner/selectivity.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "planner/expression_compiler.hpp"

namespace gpusql {
namespace {

void collect_columns(const BoundExpr& e, std::set<int>& out) {
  if (e.op == Op::Column) out.insert(e.column);
  for (const auto& c : e.children) collect_columns(c, out);
}

const BoundExpr* bare_column(const BoundExpr& x) {
  const BoundExpr* c = &x;
  while (c->op == Op::ToWide && c->children.size() == 1) c = &c->children[0];
  return c->op == Op::Column ? c : nullptr;
}

bool is_range_comparison(Op op) { return op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge; }

// A column's values kept by range comparisons with constants: those in
// [low, high].
struct Interval {
  double low = -1e308, high = 1e308;
};

// `column op constant` (either way round) as the bound it puts on a column
// of known range; nullopt for anything else.
std::optional<std::pair<int, Interval>> range_bound(const BoundExpr& e, const ColumnKnowledge& columns) {
  if (!is_range_comparison(e.op) || e.children.size() != 2 || !columns.range) return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    const BoundExpr* column = bare_column(e.children[static_cast<std::size_t>(side)]);
    const BoundExpr& constant = e.children[static_cast<std::size_t>(1 - side)];
    if (!column || constant.op != Op::Constant || constant.constant.null_constant) continue;
    const Cls cls = compute_class(constant.type);
    if (cls == Cls::Wide || cls != compute_class(column->type)) continue;
    if (!columns.range(column->column).known) continue;
    const double value = cls == Cls::Double ? constant.constant.value.d : static_cast<double>(constant.constant.value.i);
    const Op op = side == 0 ? e.op : mirrored(e.op);  // column op value
    Interval bound;
    if (op == Op::Lt || op == Op::Le) bound.high = value;
    else bound.low = value;
    return std::make_pair(column->column, bound);
  }
  return std::nullopt;
}

// The share of a column's range that an interval keeps: at least a
// thousandth, so that no estimate reaches 0 (the range is a snapshot, and a
// plan built for no rows is the worst one for a few).
double interval_share(const ValueRange& range, const Interval& kept) {
  const double low = std::max(kept.low, range.min), high = std::min(kept.high, range.max);
  double share = 0;
  if (range.max <= range.min) share = low <= high ? 1 : 0;
  else share = std::max(0.0, high - low) / (range.max - range.min);
  return std::clamp(share, 0.001, 1.0);
}

void flatten_and(const BoundExpr& e, std::vector<const BoundExpr*>& out) {
  if (e.op == Op::And && e.children.size() == 2) {
    flatten_and(e.children[0], out);
    flatten_and(e.children[1], out);
  } else {
    out.push_back(&e);
  }
}

double conjunction(const std::vector<const BoundExpr*>& parts, const ColumnKnowledge& columns) {
  std::map<int, Interval> intervals;
  double keep = 1;
  for (const BoundExpr* part : parts) {
    if (auto bound = range_bound(*part, columns)) {
      Interval& i = intervals[bound->first];
      i.low = std::max(i.low, bound->second.low);
      i.high = std::min(i.high, bound->second.high);
    } else {
      keep *= selectivity(*part, columns);
    }
  }
  for (const auto& [column, interval] : intervals) keep *= interval_share(columns.range(column), interval);
  return keep;
}

}  // namespace

double selectivity(const BoundExpr& e, const ColumnKnowledge& columns) {
  auto constant = [](const BoundExpr& x) {
    std::set<int> used;
    collect_columns(x, used);
    return used.empty();
  };
  // 1 / the distinct values of the column compared with a constant, if known.
  auto one_value = [&]() -> double {
    if (!columns.distinct) return 0;
    for (int side = 0; side < 2; ++side) {
      const BoundExpr* c = bare_column(e.children[static_cast<std::size_t>(side)]);
      if (c && constant(e.children[static_cast<std::size_t>(1 - side)])) {
        const double d = columns.distinct(c->column);
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
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: {
      const auto bound = range_bound(e, columns);
      return bound ? interval_share(columns.range(bound->first), bound->second) : 0.33;
    }
    case Op::And: {
      std::vector<const BoundExpr*> parts;
      flatten_and(e, parts);
      return conjunction(parts, columns);
    }
    case Op::Or: {
      const double a = selectivity(e.children[0], columns), b = selectivity(e.children[1], columns);
      return std::min(1.0, a + b - a * b);
    }
    case Op::Not: return 1 - selectivity(e.children[0], columns);
    case Op::Lookup:  // a LIKE: the fraction of dictionary entries it matches
      if (e.lookup && e.lookup->type == Type::Boolean && e.lookup->entries > 0)
        return std::max<double>(1, static_cast<double>(e.lookup->true_entries)) / static_cast<double>(e.lookup->entries);
      return 0.33;
    default: return 0.33;
  }
}

double selectivity(const std::vector<BoundExpr>& conjuncts, const ColumnKnowledge& columns) {
  std::vector<const BoundExpr*> parts;
  for (const BoundExpr& c : conjuncts) flatten_and(c, parts);
  return conjunction(parts, columns);
}

double selectivity(const BoundExpr& e) { return selectivity(e, ColumnKnowledge{}); }

}  // namespace gpusql
