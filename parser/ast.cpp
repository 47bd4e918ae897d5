// Builders and the SQL rendering of syntax trees.
#include "parser/ast.hpp"

#include <string_view>
#include <utility>

#include "parser/grammar.hpp"

namespace gpusql::ast {

namespace {

ExprPtr make_expr(ExprKind kind, std::size_t offset) {
  auto expr = std::make_unique<Expr>();
  expr->kind = kind;
  expr->offset = offset;
  expr->end = offset;  // leaves: the parser sets the real end
  return expr;
}

bool is_reserved_keyword(std::string_view word) {
  tao::pegtl::memory_input<> in(word.data(), word.size(), "");
  return tao::pegtl::parse<tao::pegtl::seq<grammar::reserved_keyword, tao::pegtl::eof>>(in);
}

// A name as the parser would read it back: bare when it can be, else quoted.
void append_name(std::string& out, std::string_view name) {
  bool bare = !name.empty() && !(name[0] >= '0' && name[0] <= '9');
  for (char c : name)
    bare = bare && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_');
  if (bare && !is_reserved_keyword(name)) {
    out += name;
    return;
  }
  out += '"';
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

void append_literal(std::string& out, const Literal& literal) {
  switch (literal.kind) {
    case Literal::Kind::Null: out += "NULL"; return;
    case Literal::Kind::Boolean: out += literal.boolean ? "TRUE" : "FALSE"; return;
    case Literal::Kind::Integer: out += std::to_string(literal.integer); return;
    case Literal::Kind::Number: out += literal.text; return;
    case Literal::Kind::String:
      out += '\'';
      for (char c : literal.text) {
        if (c == '\'') out += '\'';
        out += c;
      }
      out += '\'';
      return;
  }
}

void append(std::string& out, const Expr& expr) {
  switch (expr.kind) {
    case ExprKind::Literal: append_literal(out, expr.literal); return;
    case ExprKind::Column:
    case ExprKind::Star:
      if (!expr.table.empty()) {
        append_name(out, expr.table);
        out += '.';
      }
      if (expr.kind == ExprKind::Star)
        out += '*';
      else
        append_name(out, expr.name);
      return;
    case ExprKind::Unary:
      out += expr.unary_op == UnaryOp::Not ? "(NOT " : "(-";
      append(out, *expr.args.at(0));
      out += ')';
      return;
    case ExprKind::Binary:
      out += '(';
      append(out, *expr.args.at(0));
      out += ' ';
      out += to_string(expr.binary_op);
      out += ' ';
      append(out, *expr.args.at(1));
      out += ')';
      return;
    case ExprKind::Function:
      append_name(out, expr.name);
      out += '(';
      if (expr.distinct) out += "DISTINCT ";
      for (std::size_t i = 0; i < expr.args.size(); ++i) {
        if (i > 0) out += ", ";
        append(out, *expr.args[i]);
      }
      out += ')';
      return;
  }
}

}  // namespace

ExprPtr make_literal(Literal literal, std::size_t offset) {
  ExprPtr expr = make_expr(ExprKind::Literal, offset);
  expr->literal = std::move(literal);
  return expr;
}

ExprPtr make_column(std::string table, std::string name, std::size_t offset) {
  ExprPtr expr = make_expr(ExprKind::Column, offset);
  expr->table = std::move(table);
  expr->name = std::move(name);
  return expr;
}

ExprPtr make_star(std::string table, std::size_t offset) {
  ExprPtr expr = make_expr(ExprKind::Star, offset);
  expr->table = std::move(table);
  return expr;
}

ExprPtr make_unary(UnaryOp op, ExprPtr operand, std::size_t offset) {
  ExprPtr expr = make_expr(ExprKind::Unary, offset);
  expr->unary_op = op;
  if (operand) expr->end = operand->end;
  expr->args.push_back(std::move(operand));
  return expr;
}

ExprPtr make_binary(BinaryOp op, ExprPtr left, ExprPtr right, std::size_t offset) {
  ExprPtr expr = make_expr(ExprKind::Binary, offset);
  expr->binary_op = op;
  if (right) expr->end = right->end;
  expr->args.push_back(std::move(left));
  expr->args.push_back(std::move(right));
  return expr;
}

ExprPtr make_function(std::string name, std::vector<ExprPtr> args, bool distinct, std::size_t offset) {
  ExprPtr expr = make_expr(ExprKind::Function, offset);
  expr->name = std::move(name);
  expr->args = std::move(args);
  expr->distinct = distinct;
  return expr;
}

std::string to_string(const Expr& expr) {
  std::string out;
  append(out, expr);
  return out;
}

std::string to_string(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    case BinaryOp::Div: return "/";
    case BinaryOp::Mod: return "%";
    case BinaryOp::Eq: return "=";
    case BinaryOp::Ne: return "<>";
    case BinaryOp::Lt: return "<";
    case BinaryOp::Le: return "<=";
    case BinaryOp::Gt: return ">";
    case BinaryOp::Ge: return ">=";
    case BinaryOp::And: return "AND";
    case BinaryOp::Or: return "OR";
  }
  return "?";
}

}  // namespace gpusql::ast
