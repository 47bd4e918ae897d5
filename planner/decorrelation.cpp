#include "planner/decorrelation.hpp"

#include <algorithm>

namespace gpusql {

namespace {

void collect_columns(const ast::Expr& e, std::vector<const ast::Expr*>& out) {
  if (e.kind == ast::ExprKind::Column) out.push_back(&e);
  for (const auto& a : e.args) collect_columns(*a, out);  // a nested subquery's own clauses are not args
}

// Functions whose value is NULL when an argument is.
constexpr const char* kNullInNullOut[] = {"floor", "ceil",  "ceiling", "abs",  "round", "substring", "substr",
                                          "length", "upper", "lower",   "trim", "ltrim", "rtrim"};

// Whether a NULL `column` makes `e` NULL: `e` reads it through operators
// that are NULL when that operand is.
bool null_with(const ast::Expr& e, const std::string& column) {
  using ast::ExprKind;
  auto any = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to && i < e.args.size(); ++i)
      if (null_with(*e.args[i], column)) return true;
    return false;
  };
  switch (e.kind) {
    case ExprKind::Column: return ast::to_string(e) == column;
    case ExprKind::Unary:  // -x, NOT x
    case ExprKind::Cast: return null_with(*e.args[0], column);
    case ExprKind::Binary:
      if (e.binary_op == ast::BinaryOp::And || e.binary_op == ast::BinaryOp::Or)  // FALSE AND NULL is FALSE
        return null_with(*e.args[0], column) && null_with(*e.args[1], column);
      return any(0, 2);
    case ExprKind::Like: return any(0, e.args.size());
    case ExprKind::Between:  // x BETWEEN NULL AND 1 is FALSE for x = 2
    case ExprKind::InList: return any(0, 1);  // 1 IN (NULL, 1) is TRUE
    case ExprKind::Function:
      return std::find_if(std::begin(kNullInNullOut), std::end(kNullInNullOut),
                          [&](const char* name) { return e.name == name; }) != std::end(kNullInNullOut) &&
             any(0, e.args.size());
    default: return false;
  }
}

// Whether a NULL `column` keeps `e` from being TRUE (NULL or FALSE).
bool not_true_with(const ast::Expr& e, const std::string& column) {
  if (e.kind == ast::ExprKind::Between)
    return std::any_of(e.args.begin(), e.args.end(), [&](const ast::ExprPtr& a) { return null_with(*a, column); });
  if (e.kind == ast::ExprKind::Binary && e.binary_op == ast::BinaryOp::And)
    return not_true_with(*e.args[0], column) || not_true_with(*e.args[1], column);
  if (e.kind == ast::ExprKind::Binary && e.binary_op == ast::BinaryOp::Or)
    return not_true_with(*e.args[0], column) && not_true_with(*e.args[1], column);
  return null_with(e, column);
}

}  // namespace

void split_and(const ast::Expr& e, std::vector<const ast::Expr*>& parts) {
  if (e.kind == ast::ExprKind::Binary && e.binary_op == ast::BinaryOp::And) {
    split_and(*e.args[0], parts);
    split_and(*e.args[1], parts);
  } else {
    parts.push_back(&e);
  }
}

std::string outer_value_name(std::size_t i) { return "outer " + std::to_string(i); }

std::vector<const ast::Expr*> subquery_columns(const ast::SelectStatement& s, bool items) {
  std::vector<const ast::Expr*> out;
  if (items)
    for (const auto& item : s.items) collect_columns(*item.expr, out);
  for (const auto& ref : s.from)
    if (ref.on) collect_columns(*ref.on, out);
  if (s.where) collect_columns(*s.where, out);
  for (const auto& g : s.group_by) collect_columns(*g, out);
  if (s.having) collect_columns(*s.having, out);
  return out;
}

bool rejects_nulls_of(const ast::Expr* where, const std::string& column) {
  if (!where) return false;
  std::vector<const ast::Expr*> parts;
  split_and(*where, parts);
  return std::any_of(parts.begin(), parts.end(), [&](const ast::Expr* p) { return not_true_with(*p, column); });
}

ast::ExprPtr over_outer_values(const ast::Expr& e, const std::vector<std::string>& outer, const std::string& values) {
  if (e.kind == ast::ExprKind::Column) {
    const auto found = std::find(outer.begin(), outer.end(), ast::to_string(e));
    if (found != outer.end())
      return ast::make_column(values, outer_value_name(static_cast<std::size_t>(found - outer.begin())), e.offset);
  }
  ast::ExprPtr copy = ast::clone(e);
  copy->args.clear();
  for (const auto& a : e.args) copy->args.push_back(over_outer_values(*a, outer, values));
  return copy;
}

ast::SelectStatement over_outer_values(const ast::SelectStatement& s, const std::vector<std::string>& outer,
                                       const std::string& values, const std::vector<ast::SelectItem>& items,
                                       bool group, bool distinct) {
  const std::size_t at = s.from.empty() ? 0 : s.from.front().offset;
  ast::SelectStatement out;
  out.with = s.with;
  out.distinct = distinct;
  for (std::size_t i = 0; i < outer.size(); ++i) {
    out.items.push_back({ast::make_column(values, outer_value_name(i), at), outer_value_name(i)});
    if (group) out.group_by.push_back(ast::make_column(values, outer_value_name(i), at));
  }
  for (const auto& item : items) out.items.push_back({over_outer_values(*item.expr, outer, values), item.alias});
  ast::TableRef d;
  d.name = values;
  d.offset = at;
  out.from.push_back(std::move(d));
  for (const auto& ref : s.from) {
    ast::TableRef copy = ast::clone(ref);
    if (ref.on) copy.on = over_outer_values(*ref.on, outer, values);
    out.from.push_back(std::move(copy));
  }
  if (s.where) out.where = over_outer_values(*s.where, outer, values);
  return out;
}

}  // namespace gpusql
