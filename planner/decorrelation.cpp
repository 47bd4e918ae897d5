#include "planner/decorrelation.hpp"

#include <algorithm>

#include "storage/table.hpp"

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

// Calls f on each expression of s's own clauses: the select list (with
// `items`), the ON conditions of its FROM, WHERE, GROUP BY, HAVING, and
// ORDER BY (with `order_by`).
template <class F>
void for_each_clause(const ast::SelectStatement& s, bool items, bool order_by, F&& f) {
  if (items)
    for (const auto& item : s.items) f(*item.expr);
  for (const auto& ref : s.from)
    if (ref.on) f(*ref.on);
  if (s.where) f(*s.where);
  for (const auto& g : s.group_by) f(*g);
  if (s.having) f(*s.having);
  if (order_by)
    for (const auto& o : s.order_by) f(*o.expr);
}

// `t.c` where t names none of `local`.
bool is_outer_column(const ast::Expr& e, const std::vector<std::string>& local) {
  return e.kind == ast::ExprKind::Column && !e.table.empty() &&
         std::none_of(local.begin(), local.end(), [&](const std::string& n) { return iequals(n, e.table); });
}

ast::ExprPtr replace_in(const ast::Expr& e, const std::vector<std::string>& local,
                        const OuterColumnReplacement& replace, bool into_derived_tables) {
  if (is_outer_column(e, local))
    if (ast::ExprPtr replaced = replace(e)) return replaced;
  ast::ExprPtr copy = ast::clone(e);
  for (std::size_t i = 0; i < copy->args.size(); ++i)
    copy->args[i] = replace_in(*e.args[i], local, replace, into_derived_tables);
  if (e.subquery) copy->subquery = replace_outer_columns(e.subquery, local, replace, into_derived_tables);
  return copy;
}

void each_column(const ast::Expr& e, const std::vector<std::string>& local, const ColumnVisitor& f);

void each_column(const ast::SelectStatement& s, std::vector<std::string> local, const ColumnVisitor& f) {
  if (const ast::SetOperation* op = s.set_operation.get()) {
    each_column(*op->left, local, f);
    each_column(*op->right, local, f);
    return;
  }
  local = with_from_names(std::move(local), s);
  for_each_clause(s, true, true, [&](const ast::Expr& e) { each_column(e, local, f); });
}

void each_column(const ast::Expr& e, const std::vector<std::string>& local, const ColumnVisitor& f) {
  if (e.kind == ast::ExprKind::Column) f(e, local);
  for (const auto& a : e.args) each_column(*a, local, f);
  if (e.subquery) each_column(*e.subquery, local, f);
}

// The outer columns read by the subqueries nested in `e` (`local` names the
// FROM items around e; its own columns are not counted), at any depth.
void subquery_outer_columns(const ast::Expr& e, const std::vector<std::string>& local,
                            std::vector<const ast::Expr*>& out) {
  for (const auto& a : e.args) subquery_outer_columns(*a, local, out);
  if (e.subquery)
    each_column(*e.subquery, local, [&](const ast::Expr& c, const std::vector<std::string>& names) {
      if (is_outer_column(c, names)) out.push_back(&c);
    });
}

}  // namespace

void for_each_column(const ast::Expr& e, const ColumnVisitor& f) { each_column(e, {}, f); }

std::vector<const ast::Expr*> nested_outer_columns(const ast::SelectStatement& s, bool items) {
  const std::vector<std::string> local = with_from_names({}, s);
  std::vector<const ast::Expr*> out;
  for_each_clause(s, items, false, [&](const ast::Expr& e) { subquery_outer_columns(e, local, out); });
  return out;
}

std::shared_ptr<const ast::SelectStatement> replace_outer_columns(const std::shared_ptr<const ast::SelectStatement>& s,
                                                                  const std::vector<std::string>& local,
                                                                  const OuterColumnReplacement& replace,
                                                                  bool into_derived_tables) {
  if (!s) return s;
  if (s->set_operation)  // each side has a FROM of its own
    return with_sides_rewritten(*s, [&](const std::shared_ptr<const ast::SelectStatement>& side) {
      return replace_outer_columns(side, local, replace, into_derived_tables);
    });
  const std::vector<std::string> inside = with_from_names(local, *s);
  auto out = std::make_shared<ast::SelectStatement>(ast::map_expressions(
      *s, [&](const ast::Expr& e) { return replace_in(e, inside, replace, into_derived_tables); }));
  if (into_derived_tables)
    for (ast::TableRef& ref : out->from)
      if (ref.subquery) ref.subquery = replace_outer_columns(ref.subquery, local, replace, into_derived_tables);
  return out;
}

void split_and(const ast::Expr& e, std::vector<const ast::Expr*>& parts) {
  if (e.kind == ast::ExprKind::Binary && e.binary_op == ast::BinaryOp::And) {
    split_and(*e.args[0], parts);
    split_and(*e.args[1], parts);
  } else {
    parts.push_back(&e);
  }
}

std::shared_ptr<const ast::SelectStatement> with_sides_rewritten(const ast::SelectStatement& s, const SideRewrite& rewrite) {
  auto sides = std::make_shared<ast::SetOperation>(*s.set_operation);
  sides->left = rewrite(sides->left);
  sides->right = rewrite(sides->right);
  auto out = std::make_shared<ast::SelectStatement>(ast::clone(s));
  out->set_operation = std::move(sides);
  return out;
}

std::vector<std::string> with_from_names(std::vector<std::string> local, const ast::SelectStatement& s) {
  for (const auto& ref : s.from) local.push_back(ref.alias.empty() ? ref.name : ref.alias);
  return local;
}

std::string outer_value_name(std::size_t i) { return "outer " + std::to_string(i); }

std::vector<const ast::Expr*> subquery_columns(const ast::SelectStatement& s, bool items) {
  std::vector<const ast::Expr*> out;
  for_each_clause(s, items, false, [&](const ast::Expr& e) { collect_columns(e, out); });
  return out;
}

bool rejects_nulls_of(const ast::Expr* where, const std::string& column) {
  if (!where) return false;
  std::vector<const ast::Expr*> parts;
  split_and(*where, parts);
  return std::any_of(parts.begin(), parts.end(), [&](const ast::Expr* p) { return not_true_with(*p, column); });
}

ast::ExprPtr over_outer_values(const ast::Expr& e, const std::vector<std::string>& outer, const std::string& values,
                               const std::vector<std::string>& local) {
  auto value_of = [&](const ast::Expr& column) -> ast::ExprPtr {
    const auto found = std::find(outer.begin(), outer.end(), ast::to_string(column));
    if (found == outer.end()) return nullptr;
    return ast::make_column(values, outer_value_name(static_cast<std::size_t>(found - outer.begin())), column.offset);
  };
  if (e.kind == ast::ExprKind::Column)
    if (ast::ExprPtr value = value_of(e)) return value;
  ast::ExprPtr copy = ast::clone(e);
  copy->args.clear();
  for (const auto& a : e.args) copy->args.push_back(over_outer_values(*a, outer, values, local));
  // Correlated derived tables do not bind: their columns stay as they are.
  if (e.subquery) copy->subquery = replace_outer_columns(e.subquery, local, value_of, false);
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
  const std::vector<std::string> local = with_from_names({}, s);
  for (const auto& item : items) out.items.push_back({over_outer_values(*item.expr, outer, values, local), item.alias});
  ast::TableRef d;
  d.name = values;
  d.offset = at;
  out.from.push_back(std::move(d));
  for (const auto& ref : s.from) {
    ast::TableRef copy = ast::clone(ref);
    if (ref.on) copy.on = over_outer_values(*ref.on, outer, values, local);
    out.from.push_back(std::move(copy));
  }
  if (s.where) out.where = over_outer_values(*s.where, outer, values, local);
  return out;
}

}  // namespace gpusql
