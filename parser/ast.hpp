// The syntax tree the parser produces and the binder consumes. It holds what
// the user wrote, with the byte offset of every node in the SQL text so later
// stages can put a caret under it; it holds no types and no catalog lookups.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace gpusql::ast {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

enum class ExprKind {
  Literal,   // literal
  Column,    // [table.]name; name may be "rowid"
  Star,      // * or table.*  (select list and COUNT(*) only)
  Unary,     // unary_op children[0]
  Binary,    // children[0] binary_op children[1]
  Function,  // name(args...); aggregates too: COUNT, SUM, MIN, MAX, ...
};

enum class UnaryOp { Negate, Not };

enum class BinaryOp { Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge, And, Or };

// A literal as written. Integers that fit int64 are Integer; other numbers
// (with a '.', an exponent, or too large) are Number and keep their text so
// the binder can choose DECIMAL or DOUBLE without a lossy round trip.
struct Literal {
  enum class Kind { Null, Boolean, Integer, Number, String } kind = Kind::Null;
  bool boolean = false;
  int64_t integer = 0;
  std::string text;  // Number: the digits as written; String: the unescaped value
};

struct Expr {
  ExprKind kind = ExprKind::Literal;
  std::size_t offset = 0;  // byte offset of the node's first character in the SQL text
  std::size_t end = 0;     // one past its last character: [offset, end) is its source text

  Literal literal;          // Literal
  std::string table;        // Column, Star: the qualifier, "" when none
  std::string name;         // Column: the column; Function: the name, lower-cased
  UnaryOp unary_op = UnaryOp::Negate;
  BinaryOp binary_op = BinaryOp::Add;
  bool distinct = false;    // Function: f(DISTINCT ...)
  std::vector<ExprPtr> args;  // Unary: 1, Binary: 2, Function: its arguments (COUNT(*): one Star)
};

struct SelectItem {
  ExprPtr expr;
  std::string alias;  // "" when none
};

struct TableRef {
  std::string name;
  std::string alias;  // "" when none
  std::size_t offset = 0;
};

struct SelectStatement {
  std::vector<SelectItem> items;
  std::vector<TableRef> from;
  ExprPtr where;  // null when absent
};

struct Statement {
  std::variant<SelectStatement> body;
  std::size_t offset = 0;  // where the statement starts in the SQL text
  std::size_t end = 0;     // one past its last character (before the ';')
};

// Builders, so that tests and the parser's actions read the same.
ExprPtr make_literal(Literal literal, std::size_t offset);
ExprPtr make_column(std::string table, std::string name, std::size_t offset);
ExprPtr make_star(std::string table, std::size_t offset);
ExprPtr make_unary(UnaryOp op, ExprPtr operand, std::size_t offset);
ExprPtr make_binary(BinaryOp op, ExprPtr left, ExprPtr right, std::size_t offset);
ExprPtr make_function(std::string name, std::vector<ExprPtr> args, bool distinct, std::size_t offset);

// SQL text of an expression, fully parenthesised, for tests and EXPLAIN.
std::string to_string(const Expr& expr);
std::string to_string(BinaryOp op);

}  // namespace gpusql::ast
