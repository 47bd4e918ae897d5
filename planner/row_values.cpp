#include "planner/row_values.hpp"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gpusql/gpusql.hpp"

namespace gpusql {

namespace {

using ast::BinaryOp;
using ast::ExprKind;
using ast::ExprPtr;

// Names with a space, which no column of the row can mean unquoted.
const char* const kAlias = "row values";
std::string value_name(std::size_t i) { return "row value " + std::to_string(i + 1); }

class Rewriter {
 public:
  explicit Rewriter(const ast::Expr& e) : e_(e), row_(*e.args[0]), at_(e.offset), n_(row_.args.size()) {
    const ast::SelectStatement& first = ast::leftmost_select(*e.subquery);
    for (const auto& item : first.items)
      if (item.expr->kind == ExprKind::Star)
        throw Error(ErrorKind::NotSupported, "not supported yet: * in the subquery of a row value's IN",
                    item.expr->offset);
    if (first.items.size() != n_)
      throw Error(ErrorKind::Binder,
                  "Subquery returns " + std::to_string(first.items.size()) + " columns - expected " +
                      std::to_string(n_),
                  at_);
  }

  // EXISTS (SELECT 1 FROM (S) AS r(v1, ..., vn) WHERE AND of each pair's
  // v_i = a_i; `or_null`: OR v_i IS NULL OR a_i IS NULL, a pair not FALSE).
  ExprPtr exists(bool or_null) const {
    auto select = std::make_shared<ast::SelectStatement>();
    select->items.push_back({ast::make_integer_literal(1, at_), ""});
    ast::TableRef ref;
    ref.subquery = e_.subquery;
    ref.alias = kAlias;
    for (std::size_t i = 0; i < n_; ++i) ref.column_aliases.push_back(value_name(i));
    ref.offset = at_;
    select->from.push_back(std::move(ref));
    ExprPtr all;
    for (std::size_t i = 0; i < n_; ++i) {
      ExprPtr t = ast::make_binary(BinaryOp::Eq, value(i), ast::clone(*row_.args[i]), row_.args[i]->offset);
      if (or_null) {
        t = ast::make_binary(BinaryOp::Or, std::move(t), ast::make_is_null(value(i), false, at_), at_);
        t = ast::make_binary(BinaryOp::Or, std::move(t), ast::make_is_null(ast::clone(*row_.args[i]), false, at_), at_);
      }
      all = all ? ast::make_binary(BinaryOp::And, std::move(all), std::move(t), at_) : std::move(t);
    }
    select->where = std::move(all);
    ExprPtr node = std::make_unique<ast::Expr>();
    node->kind = ExprKind::Exists;
    node->offset = at_;
    node->subquery = std::move(select);
    return node;
  }

 private:
  ExprPtr value(std::size_t i) const { return ast::make_column(kAlias, value_name(i), at_); }

  const ast::Expr& e_;
  const ast::Expr& row_;
  std::size_t at_, n_;
};

}  // namespace

ExprPtr row_in_exists(const ast::Expr& e) {
  return Rewriter(e).exists(false);
}

ExprPtr rewrite_row_in_subquery(const ast::Expr& e) {
  const Rewriter r(e);
  const std::size_t at = e.offset;
  ExprPtr c = std::make_unique<ast::Expr>();
  c->kind = ExprKind::Case;
  c->offset = at;
  c->args.push_back(r.exists(false));
  c->args.push_back(ast::make_bool_literal(true, at));
  c->args.push_back(r.exists(true));
  c->args.push_back(ast::make_null_literal(at));
  c->args.push_back(ast::make_bool_literal(false, at));
  c->has_else = true;
  if (!e.negated) return c;
  return ast::make_unary(ast::UnaryOp::Not, std::move(c), at);
}

}  // namespace gpusql
