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
struct SelectStatement;

enum class ExprKind {
  Literal,   // literal
  Column,    // [table.]name; name may be "rowid"
  Star,      // * or table.*  (select list and COUNT(*) only)
  Unary,     // unary_op args[0]
  Binary,    // args[0] binary_op args[1]
  Function,  // name(args...); aggregates too: COUNT, SUM, MIN, MAX, AVG, ARG_MIN, MIN_BY, ...
  Between,   // args[0] [NOT] BETWEEN args[1] AND args[2]          (negated)
  InList,    // args[0] [NOT] IN (args[1], ...)                    (negated)
  Like,      // args[0] [NOT] LIKE args[1]                         (negated)
  IsNull,    // args[0] IS [NOT] NULL                              (negated)
  Cast,      // CAST(args[0] AS cast_type)
  Case,      // CASE [operand] WHEN w THEN t ... [ELSE e] END:
             //   args = [operand if has_operand] w1 t1 w2 t2 ... [e if has_else]
  Extract,   // EXTRACT(name FROM args[0]); name is "year", "month" or "day"
  Subquery,  // (subquery): a scalar subquery
  InSubquery,  // args[0] [NOT] IN (subquery)                      (negated)
  Exists,    // EXISTS (subquery)
  Quantified,  // args[0] binary_op ANY|ALL (subquery)              (all: ALL)
  Row,       // (args[0], args[1], ...): a row value, of two or more values
};

enum class UnaryOp { Negate, Not };

enum class BinaryOp { Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge, And, Or, Concat };

// A literal as written. Integers that fit int64 are Integer; other numbers
// (with a '.', an exponent, or too large) are Number and keep their text so
// the binder can choose DECIMAL or DOUBLE without a lossy round trip.
struct Literal {
  enum class Kind { Null, Boolean, Integer, Number, String, Date, Interval } kind = Kind::Null;
  bool boolean = false;
  int64_t integer = 0;
  // Number: the digits as written; String: the unescaped value;
  // Date: the quoted text of DATE '1998-12-01'; Interval: the quoted text of
  // INTERVAL '3' MONTH ("3").
  std::string text;
  std::string unit;  // Interval: "day", "month" or "year"
};

// A type as written in CAST or CREATE TABLE: the name lower-cased
// ("integer", "int", "decimal", "varchar", ...) and its parameters.
struct TypeName {
  std::string name;
  std::vector<int64_t> parameters;  // DECIMAL(15,2) -> {15, 2}; VARCHAR(10) -> {10}
  std::size_t offset = 0;
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
  bool negated = false;     // Between, InList, Like, IsNull: the NOT form
  bool all = false;         // Quantified: ALL (else ANY, SOME)
  bool has_operand = false; // Case: CASE x WHEN ...
  bool has_else = false;    // Case
  // Case: the parser's a IS [NOT] DISTINCT FROM b, whose ELSE is a <> b
  // (DISTINCT) or a = b; the binder binds it as equalities a join keys on.
  bool distinct_from = false;
  TypeName cast_type;       // Cast
  std::vector<ExprPtr> args;  // see ExprKind; Function: its arguments (COUNT(*): one Star)
  std::shared_ptr<const SelectStatement> subquery;  // Subquery, InSubquery, Exists, Quantified
};

struct SelectItem {
  ExprPtr expr;
  std::string alias;  // "" when none
};

enum class JoinKind {
  Comma,  // FROM a, b  (joined through WHERE); also the first table
  Inner,  // [INNER] JOIN b ON condition
  Cross,  // CROSS JOIN b
  Left,   // LEFT [OUTER] JOIN b ON condition
  Right,  // RIGHT [OUTER] JOIN b ON condition: the item before it is the nullable side
  Full,   // FULL [OUTER] JOIN b ON condition: both are
};

// JOIN ... USING (a, b) or NATURAL JOIN: the columns both sides have, equal.
struct UsingColumns {
  std::vector<std::pair<std::string, std::size_t>> names;  // each with its offset
  bool natural = false;  // NATURAL: every name both sides have
  std::size_t offset = 0;
  bool empty() const { return names.empty() && !natural; }
};

struct TableRef {
  std::string name;   // table name, or the table function's name ("read_csv"); "" for a subquery
  std::string alias;  // "" when none
  std::vector<std::string> column_aliases;  // AS alias(a, b, ...): new names of its first columns
  std::size_t offset = 0;
  JoinKind join = JoinKind::Comma;  // how it joins the tables before it
  ExprPtr on;                       // Inner, Left, Right, Full: the ON condition
  UsingColumns using_columns;       // or USING (...) / NATURAL in its place
  // Joins in parentheses, `JOIN (b JOIN c ON ...) ON ...`: the FROM items
  // the group spans, this first (its `join` and `on` are the group's).
  std::size_t group_size = 1;
  // A table function call: read_csv('path', delim => '|', header => true).
  bool is_function = false;
  std::vector<ExprPtr> function_args;                              // positional
  std::vector<std::pair<std::string, ExprPtr>> function_named_args;  // name lower-cased
  // A derived table: FROM (SELECT ...) [AS] alias.
  std::shared_ptr<const SelectStatement> subquery;
  // Joins that run first, as one item, their tables keeping their names:
  // subquery's FROM (`SELECT *` of it). The parser makes one of joins an
  // outer join extends with NULLs as a whole -- `a LEFT JOIN (b LEFT JOIN
  // c ON ...) ON ...`, the left side of `a LEFT JOIN b ON ... RIGHT JOIN c`,
  // a side of a FULL JOIN with more than one table -- which the binder's
  // one level of outer joins cannot nest.
  bool joins = false;
};

struct OrderItem {
  ExprPtr expr;
  bool descending = false;
  std::optional<bool> nulls_first;  // absent: the default, NULLS LAST for ASC and DESC (DuckDB's)
};

// WITH name [(a, b, ...)] AS (SELECT ...): a query FROM may name, as a
// derived table (it sees the ones before it).
struct CommonTableExpression {
  std::string name;
  std::vector<std::string> column_aliases;
  std::shared_ptr<const SelectStatement> query;
  std::size_t offset = 0;
};

// left UNION [ALL] right, left INTERSECT right, left EXCEPT right.
struct SetOperation {
  enum class Kind { Union, Intersect, Except } kind = Kind::Union;
  bool all = false;  // UNION ALL (INTERSECT ALL, EXCEPT ALL): keep duplicates
  std::shared_ptr<const SelectStatement> left, right;
  std::size_t offset = 0;  // of the operator's keyword
};

// A query: a SELECT, or a set operation of two (then only `with`,
// `order_by`, `limit` and `offset` are its own; they apply to the whole).
struct SelectStatement {
  std::vector<CommonTableExpression> with;
  std::shared_ptr<const SetOperation> set_operation;  // null: a plain SELECT
  bool distinct = false;
  std::vector<SelectItem> items;
  std::vector<TableRef> from;
  ExprPtr where;  // null when absent
  std::vector<ExprPtr> group_by;
  ExprPtr having;  // null when absent
  std::vector<OrderItem> order_by;
  ExprPtr limit;   // null when absent
  ExprPtr offset;  // null when absent
};

// EXPLAIN [ANALYZE] <select>
struct ExplainStatement {
  bool analyze = false;
  SelectStatement select;
};

struct ColumnDefinitionAst {
  std::string name;
  TypeName type;
  bool not_null = false;
  bool primary_key = false;  // col TYPE PRIMARY KEY
  bool unique = false;       // col TYPE UNIQUE
  std::size_t offset = 0;
};

// PRIMARY KEY (a, b) or UNIQUE (a, b) after the columns of CREATE TABLE.
struct KeyConstraintAst {
  bool primary_key = false;
  std::vector<std::string> columns;
  std::size_t offset = 0;
};

// CREATE TABLE [IF NOT EXISTS] t (col TYPE [NOT NULL], ...) | CREATE TABLE t AS SELECT ...
struct CreateTableStatement {
  std::string name;
  std::size_t name_offset = 0;
  bool if_not_exists = false;
  std::vector<ColumnDefinitionAst> columns;
  std::vector<KeyConstraintAst> keys;
  std::optional<SelectStatement> as_select;
};

// CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON t (a, b)
struct CreateIndexStatement {
  std::string name;
  std::size_t name_offset = 0;
  std::string table;
  std::size_t table_offset = 0;
  std::vector<std::string> columns;
  bool unique = false;
  bool if_not_exists = false;
};

// UPDATE t SET a = e, ... [WHERE cond]
struct UpdateStatement {
  std::string table;
  std::size_t table_offset = 0;
  struct Assignment {
    std::string column;
    std::size_t offset = 0;
    ExprPtr value;
  };
  std::vector<Assignment> assignments;
  ExprPtr where;  // null: every row
};

// DELETE FROM t [WHERE cond]
struct DeleteStatement {
  std::string table;
  std::size_t table_offset = 0;
  ExprPtr where;  // null: every row
};

// COPY t FROM 'path' [(DELIMITER '|', HEADER true, NULL 'x', QUOTE '"')]
// (also accepted: WITH (...) and the option names in any case)
struct CopyStatement {
  std::string table;              // "" for COPY (SELECT ...) TO
  std::size_t table_offset = 0;   // of the table, or of the query
  bool to = false;                // COPY ... TO 'path': write a CSV file
  std::optional<SelectStatement> query;  // COPY (SELECT ...) TO
  std::string path;
  std::vector<std::pair<std::string, Literal>> options;  // name lower-cased
};

// INSERT INTO t [(cols)] VALUES (...), (...) | INSERT INTO t [(cols)] SELECT ...
struct InsertStatement {
  std::string table;
  std::size_t table_offset = 0;
  std::vector<std::string> columns;  // empty: all, in order
  std::vector<std::vector<ExprPtr>> values;
  std::optional<SelectStatement> select;
};

// DROP TABLE|VIEW|INDEX [IF EXISTS] t
struct DropTableStatement {
  std::string name;
  std::size_t name_offset = 0;
  bool if_exists = false;
  bool view = false;   // DROP VIEW
  bool index = false;  // DROP INDEX
};

// CREATE VIEW v [(a, b, ...)] AS SELECT ...
struct CreateViewStatement {
  std::string name;
  std::size_t name_offset = 0;
  std::vector<std::string> column_aliases;
  std::shared_ptr<const SelectStatement> query;
};

struct ShowTablesStatement {};

// DESCRIBE t; SUMMARIZE t (`summarize`)
struct DescribeStatement {
  std::string name;
  std::size_t name_offset = 0;
  bool summarize = false;
};

// SET name = value (also SET name TO value, PRAGMA name = value); RESET name.
struct SetStatement {
  std::string name;  // lower-cased
  std::size_t name_offset = 0;
  // The value: a literal, or a bare word (on, off, auto) as a String
  // literal; none for RESET.
  std::optional<Literal> value;
  std::size_t value_offset = 0;
};

struct Statement {
  std::variant<SelectStatement, ExplainStatement, CreateTableStatement, CopyStatement, InsertStatement,
               DropTableStatement, ShowTablesStatement, DescribeStatement, CreateViewStatement, CreateIndexStatement,
               UpdateStatement, DeleteStatement, SetStatement>
      body;
  std::size_t offset = 0;  // where the statement starts in the SQL text
  std::size_t end = 0;     // one past its last character (before the ';')
};

// Builders, so that tests and the parser's actions read the same.
ExprPtr make_literal(Literal literal, std::size_t offset);
ExprPtr make_integer_literal(int64_t value, std::size_t offset);
ExprPtr make_bool_literal(bool value, std::size_t offset);
ExprPtr make_null_literal(std::size_t offset);
ExprPtr make_column(std::string table, std::string name, std::size_t offset);
ExprPtr make_star(std::string table, std::size_t offset);
ExprPtr make_unary(UnaryOp op, ExprPtr operand, std::size_t offset);
ExprPtr make_binary(BinaryOp op, ExprPtr left, ExprPtr right, std::size_t offset);
ExprPtr make_function(std::string name, std::vector<ExprPtr> args, bool distinct, std::size_t offset);
// x IS [NOT] NULL.
ExprPtr make_is_null(ExprPtr operand, bool negated, std::size_t offset);
// CASE WHEN `when` THEN `then` ELSE `otherwise` END.
ExprPtr make_case(ExprPtr when, ExprPtr then, ExprPtr otherwise, std::size_t offset);
// a IS [NOT] DISTINCT FROM b (`distinct`: without NOT) as the CASE that
// computes it, never NULL: WHEN a IS NULL THEN b IS [NOT] NULL WHEN b IS
// NULL THEN `distinct` ELSE a <> b (a = b), marked Expr::distinct_from.
ExprPtr make_distinct_from(ExprPtr a, ExprPtr b, bool distinct, std::size_t offset);

// Row values, (a1, ..., an), compared as the SQL standard compares them
// (SQLite and PostgreSQL too), in three-valued logic, so that a NULL the
// answer depends on makes it NULL: = is every pair equal, <> some pair
// unequal, and a1 < b1 OR (a1 = b1 AND (a2 < b2 OR ...)) orders them (<=
// and >= only at the last pair). DuckDB compares them as STRUCTs, where
// NULL equals NULL (tests/differential/duckdb_oracle.hpp: D28). Each takes
// two ExprKind::Row of as many values (rows_comparable()).
bool rows_comparable(const Expr& a, const Expr& b);
ExprPtr make_row_comparison(BinaryOp op, const Expr& a, const Expr& b, std::size_t offset);
// Every pair IS NOT DISTINCT FROM (`distinct`: some pair IS DISTINCT FROM).
ExprPtr make_row_distinct_from(const Expr& a, const Expr& b, bool distinct, std::size_t offset);
// row [NOT] IN (items...): the row equal to some item (each a row).
ExprPtr make_row_in_list(const Expr& row, const std::vector<ExprPtr>& items, bool negated, std::size_t offset);

// The leftmost plain SELECT of a set operation, `select` itself when it is
// none: its items name the columns.
const SelectStatement& leftmost_select(const SelectStatement& select);

// A deep copy (subqueries are shared: they are never changed once parsed).
ExprPtr clone(const Expr& expr);
TableRef clone(const TableRef& ref);
SelectStatement clone(const SelectStatement& select);
// A copy of `select` whose every expression -- items, ON conditions, WHERE,
// GROUP BY, HAVING, ORDER BY, LIMIT, OFFSET -- is `map`'s of the original
// (clone() is this with ast::clone); the rest is copied, its set operation,
// WITH queries and subqueries shared.
template <class Map>
SelectStatement map_expressions(const SelectStatement& select, Map map);

// SQL text of an expression, fully parenthesised, for tests and EXPLAIN.
std::string to_string(const Expr& expr);
std::string to_string(BinaryOp op);
// The whole SELECT, every clause, in a form parse_sql reads back to the same tree.
std::string to_string(const SelectStatement& select);

template <class Map>
SelectStatement map_expressions(const SelectStatement& select, Map map) {
  SelectStatement out;
  out.with = select.with;
  out.set_operation = select.set_operation;
  out.distinct = select.distinct;
  for (const auto& item : select.items) out.items.push_back({map(*item.expr), item.alias});
  for (const auto& ref : select.from) {
    TableRef copy = clone(ref);
    if (ref.on) copy.on = map(*ref.on);
    out.from.push_back(std::move(copy));
  }
  if (select.where) out.where = map(*select.where);
  for (const auto& key : select.group_by) out.group_by.push_back(map(*key));
  if (select.having) out.having = map(*select.having);
  for (const auto& o : select.order_by) out.order_by.push_back({map(*o.expr), o.descending, o.nulls_first});
  if (select.limit) out.limit = map(*select.limit);
  if (select.offset) out.offset = map(*select.offset);
  return out;
}

}  // namespace gpusql::ast
