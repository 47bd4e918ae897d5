#include "planner/common_conjuncts.hpp"

#include <algorithm>
#include <optional>
#include <utility>

namespace gpusql {
namespace {

// The operands of a tree of `op` (OR branches, AND conjuncts), left to right.
void flatten(const BoundExpr& e, Op op, std::vector<BoundExpr>& out) {
  if (e.op == op) {
    for (const auto& child : e.children) flatten(child, op, out);
    return;
  }
  out.push_back(e);
}

bool contains(const std::vector<BoundExpr>& list, const BoundExpr& e) {
  return std::any_of(list.begin(), list.end(), [&](const BoundExpr& x) { return same_expression(x, e); });
}

BoundExpr boolean_node(Op op, BoundExpr a, BoundExpr b) {
  BoundExpr e;
  e.op = op;
  e.type = DataType::boolean();
  e.offset = a.offset;
  e.children.push_back(std::move(a));
  e.children.push_back(std::move(b));
  return e;
}

// Whether evaluating `e` can raise no run-time error.
bool cannot_fail(const BoundExpr& e) {
  switch (e.op) {
    case Op::Column: case Op::Constant:
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
    case Op::And: case Op::Or: case Op::Not: case Op::IsNull: case Op::IsNotNull:
    case Op::Lookup: case Op::Rank: case Op::ScaleSaturate: case Op::ToDouble: case Op::RoundToReal: case Op::ToWide:
      break;
    default: return false;
  }
  return std::all_of(e.children.begin(), e.children.end(), cannot_fail);
}

// A comparison of a column with a constant, or an OR of them (IN lists).
bool simple_comparisons(const BoundExpr& e) {
  if (e.op == Op::Or) return simple_comparisons(e.children[0]) && simple_comparisons(e.children[1]);
  if (e.op != Op::Eq && e.op != Op::Ne && e.op != Op::Lt && e.op != Op::Le && e.op != Op::Gt && e.op != Op::Ge)
    return false;
  const BoundExpr &a = e.children[0], &b = e.children[1];
  return cannot_fail(e) && ((a.op == Op::Column && b.op == Op::Constant) || (a.op == Op::Constant && b.op == Op::Column));
}

// Equalities only (x = c, an IN list).
bool equalities(const BoundExpr& e) {
  if (e.op == Op::Or) return equalities(e.children[0]) && equalities(e.children[1]);
  return e.op == Op::Eq;
}

}  // namespace

std::optional<BoundExpr> implied_condition(const BoundExpr& condition,
                                           const std::function<bool(const BoundExpr&)>& wanted) {
  if (condition.op != Op::Or) return std::nullopt;
  std::vector<BoundExpr> branches;
  flatten(condition, Op::Or, branches);
  std::optional<BoundExpr> implied;
  for (const BoundExpr& branch : branches) {
    std::vector<BoundExpr> conjuncts;
    flatten(branch, Op::And, conjuncts);
    // One conjunct a branch, an equality or IN list: (A AND B) OR (C AND D)
    // implies A OR C too, and an OR of equalities is a filter the kernels
    // run at full speed and that keeps few rows (an OR of ANDs would go
    // through the interpreter on every row of the table; ranges rarely
    // narrow much).
    const BoundExpr* kept = nullptr;
    for (const auto& c : conjuncts)
      if (!kept && wanted(c) && simple_comparisons(c) && equalities(c)) kept = &c;
    if (!kept) return std::nullopt;
    implied = implied ? boolean_node(Op::Or, std::move(*implied), *kept) : *kept;
  }
  return implied;
}

std::vector<BoundExpr> factor_common_conjuncts(BoundExpr condition) {
  if (condition.op != Op::Or) return {std::move(condition)};
  std::vector<BoundExpr> branches;
  flatten(condition, Op::Or, branches);
  std::vector<std::vector<BoundExpr>> conjuncts(branches.size());
  for (std::size_t b = 0; b < branches.size(); ++b) flatten(branches[b], Op::And, conjuncts[b]);

  std::vector<BoundExpr> common;
  for (const BoundExpr& c : conjuncts[0]) {
    bool everywhere = std::all_of(conjuncts.begin() + 1, conjuncts.end(),
                                  [&](const std::vector<BoundExpr>& branch) { return contains(branch, c); });
    if (everywhere && !contains(common, c)) common.push_back(c);
  }
  if (common.empty()) return {std::move(condition)};

  std::optional<BoundExpr> rest;  // the OR of what each branch keeps
  for (auto& branch : conjuncts) {
    std::optional<BoundExpr> kept;
    for (auto& c : branch) {
      if (contains(common, c)) continue;
      kept = kept ? boolean_node(Op::And, std::move(*kept), std::move(c)) : std::move(c);
    }
    if (!kept) return common;  // this branch is TRUE once the common part holds: so is the OR
    rest = rest ? boolean_node(Op::Or, std::move(*rest), std::move(*kept)) : std::move(*kept);
  }
  common.push_back(std::move(*rest));
  return common;
}

}  // namespace gpusql
