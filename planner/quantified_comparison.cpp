#include "planner/quantified_comparison.hpp"

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

bool contains_aggregate(const ast::Expr& e) {
  static const char* const kAggregates[] = {"count", "sum", "min", "max", "avg", "arg_min", "arg_max",
                                            "min_by", "max_by", "argmin", "argmax"};
  if (e.kind == ExprKind::Function)
    for (const char* name : kAggregates)
      if (e.name == name) return true;
  for (const auto& a : e.args)
    if (contains_aggregate(*a)) return true;
  return false;
}

class Rewriter {
 public:
  explicit Rewriter(const ast::Expr& e) : e_(e), at_(e.offset), s_(*e.subquery) {
    if (e.args[0]->kind == ExprKind::Row) return;  // = ANY and <> ALL only: IN checks the columns
    const ast::SelectStatement& first = ast::leftmost_select(s_);
    if (first.items.size() != 1 || first.items[0].expr->kind == ExprKind::Star)
      throw Error(ErrorKind::Binder,
                  first.items.size() != 1
                      ? "Subquery returns " + std::to_string(first.items.size()) + " columns - expected 1"
                      : std::string("not supported yet: * in an ANY or ALL subquery"),
                  e.offset);
    plain_ = !s_.set_operation && s_.with.empty() && !s_.distinct && s_.group_by.empty() && !s_.having &&
             !s_.limit && !s_.offset && !s_.from.empty() && !contains_aggregate(*first.items[0].expr);
  }

  ExprPtr rewrite() {
    const BinaryOp op = e_.binary_op;
    if ((op == BinaryOp::Eq && !e_.all) || (op == BinaryOp::Ne && e_.all)) {
      ExprPtr in = node(ExprKind::InSubquery);
      in->args.push_back(ast::clone(*e_.args[0]));
      in->subquery = e_.subquery;
      in->negated = e_.all;
      return in;
    }
    if (e_.args[0]->kind == ExprKind::Row)
      throw Error(ErrorKind::NotSupported,
                  "not supported yet: a row value compared with ANY or ALL other than = ANY and <> ALL", at_);
    // The answer when S has no rows, and when one value decides it.
    const bool empty_answer = e_.all;
    ExprPtr decided;   // some value makes the answer !empty_answer
    ExprPtr otherwise;  // every non-NULL value agrees: TRUE, FALSE or NULL by x alone
    if (op == BinaryOp::Eq || op == BinaryOp::Ne) {  // = ALL, <> ANY
      decided = binary(BinaryOp::Or, binary(BinaryOp::Ne, x(), aggregate("min")),
                       binary(BinaryOp::Ne, x(), aggregate("max")));
      otherwise = binary(op, x(), aggregate("min"));
    } else {
      // x > ANY: x > min; x > ALL: x > max (and the mirror images).
      const bool greater = op == BinaryOp::Gt || op == BinaryOp::Ge;
      const char* bound = greater != e_.all ? "min" : "max";
      decided = binary(op, x(), aggregate(bound));
      if (e_.all) decided = ast::make_unary(ast::UnaryOp::Not, std::move(decided), at_);
      otherwise = binary(op, x(), aggregate(bound));
    }
    ExprPtr c = node(ExprKind::Case);
    c->args.push_back(binary(BinaryOp::Eq, count(false), integer(0)));
    c->args.push_back(boolean(empty_answer));
    c->args.push_back(std::move(decided));
    c->args.push_back(boolean(!empty_answer));
    c->args.push_back(binary(BinaryOp::Gt, count(false), count(true)));
    c->args.push_back(null());
    c->args.push_back(std::move(otherwise));
    c->has_else = true;
    return c;
  }

 private:
  const ast::Expr& e_;
  std::size_t at_;
  const ast::SelectStatement& s_;
  bool plain_ = false;

  ExprPtr node(ExprKind kind) const {
    auto n = std::make_unique<ast::Expr>();
    n->kind = kind;
    n->offset = at_;
    return n;
  }
  ExprPtr x() const { return ast::clone(*e_.args[0]); }
  ExprPtr binary(BinaryOp op, ExprPtr a, ExprPtr b) const { return ast::make_binary(op, std::move(a), std::move(b), at_); }
  ExprPtr literal(ast::Literal l) const { return ast::make_literal(std::move(l), at_); }
  ExprPtr integer(int64_t v) const {
    ast::Literal l;
    l.kind = ast::Literal::Kind::Integer;
    l.integer = v;
    return literal(l);
  }
  ExprPtr boolean(bool v) const {
    ast::Literal l;
    l.kind = ast::Literal::Kind::Boolean;
    l.boolean = v;
    return literal(l);
  }
  ExprPtr null() const { return literal(ast::Literal{}); }

  // (SELECT f(value) FROM ...): over S's FROM and WHERE, or S as a table.
  ExprPtr aggregate(const char* name) const {
    auto select = std::make_shared<ast::SelectStatement>();
    std::vector<ExprPtr> args;
    if (plain_) {
      args.push_back(ast::clone(*s_.items[0].expr));
      for (const auto& ref : s_.from) select->from.push_back(ast::clone(ref));
      if (s_.where) select->where = ast::clone(*s_.where);
    } else {
      args.push_back(ast::make_column("", "quantified value", at_));
      ast::TableRef ref;
      ref.subquery = e_.subquery;
      ref.alias = "quantified";
      ref.column_aliases = {"quantified value"};
      ref.offset = at_;
      select->from.push_back(std::move(ref));
    }
    if (std::string(name) == "count*") {
      args.clear();
      args.push_back(ast::make_star("", at_));
      name = "count";
    }
    select->items.push_back({ast::make_function(name, std::move(args), false, at_), ""});
    ExprPtr sub = node(ExprKind::Subquery);
    sub->subquery = std::move(select);
    return sub;
  }
  ExprPtr count(bool values) const { return aggregate(values ? "count" : "count*"); }
};

}  // namespace

ExprPtr rewrite_quantified_comparison(const ast::Expr& e) { return Rewriter(e).rewrite(); }

}  // namespace gpusql
