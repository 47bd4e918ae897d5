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

void append_quoted(std::string& out, std::string_view text) {
  out += '\'';
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  out += '\'';
}

void append_literal(std::string& out, const Literal& literal) {
  switch (literal.kind) {
    case Literal::Kind::Null: out += "NULL"; return;
    case Literal::Kind::Boolean: out += literal.boolean ? "TRUE" : "FALSE"; return;
    case Literal::Kind::Integer: out += std::to_string(literal.integer); return;
    case Literal::Kind::Number: out += literal.text; return;
    case Literal::Kind::String: append_quoted(out, literal.text); return;
    case Literal::Kind::Date:
      out += "DATE ";
      append_quoted(out, literal.text);
      return;
    case Literal::Kind::Interval:
      out += "INTERVAL ";
      append_quoted(out, literal.text);
      out += ' ';
      for (char c : literal.unit) out += (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
      return;
  }
}

void append_type(std::string& out, const TypeName& type) {
  if (type.name == "double precision")
    out += type.name;
  else
    append_name(out, type.name);
  if (type.parameters.empty()) return;
  out += '(';
  for (std::size_t i = 0; i < type.parameters.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(type.parameters[i]);
  }
  out += ')';
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
    case ExprKind::Unary: {
      std::string operand;
      append(operand, *expr.args.at(0));
      out += expr.unary_op == UnaryOp::Not ? "(NOT " : "(-";
      // Before a negative number, "--" would start a comment, and "- -" or
      // "-(-" would read back as one folded number (the parser folds minus
      // signs into 9223372036854775808); a '+' between keeps the two apart.
      if (expr.unary_op == UnaryOp::Negate && !operand.empty() && operand[0] == '-') out += '+';
      out += operand;
      out += ')';
      return;
    }
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
      // extract(...) would read back as EXTRACT(field FROM ...).
      if (expr.name == "extract")
        out += "\"extract\"";
      else
        append_name(out, expr.name);
      out += '(';
      if (expr.distinct) out += "DISTINCT ";
      for (std::size_t i = 0; i < expr.args.size(); ++i) {
        if (i > 0) out += ", ";
        append(out, *expr.args[i]);
      }
      out += ')';
      return;
    case ExprKind::Between:
      out += '(';
      append(out, *expr.args.at(0));
      out += expr.negated ? " NOT BETWEEN " : " BETWEEN ";
      append(out, *expr.args.at(1));
      out += " AND ";
      append(out, *expr.args.at(2));
      out += ')';
      return;
    case ExprKind::Subquery:
      out += "(" + to_string(*expr.subquery) + ")";
      return;
    case ExprKind::Exists:
      out += "(EXISTS (" + to_string(*expr.subquery) + "))";
      return;
    case ExprKind::InSubquery:
      out += '(';
      append(out, *expr.args.at(0));
      out += expr.negated ? " NOT IN (" : " IN (";
      out += to_string(*expr.subquery) + "))";
      return;
    case ExprKind::Quantified:
      out += '(';
      append(out, *expr.args.at(0));
      out += " " + to_string(expr.binary_op) + (expr.all ? " ALL (" : " ANY (");
      out += to_string(*expr.subquery) + "))";
      return;
    case ExprKind::Row:
      out += '(';
      for (std::size_t i = 0; i < expr.args.size(); ++i) {
        if (i > 0) out += ", ";
        append(out, *expr.args[i]);
      }
      out += ')';
      return;
    case ExprKind::InList:
      out += '(';
      append(out, *expr.args.at(0));
      out += expr.negated ? " NOT IN (" : " IN (";
      for (std::size_t i = 1; i < expr.args.size(); ++i) {
        if (i > 1) out += ", ";
        append(out, *expr.args[i]);
      }
      out += "))";
      return;
    case ExprKind::Like:
      out += '(';
      append(out, *expr.args.at(0));
      out += expr.negated ? " NOT LIKE " : " LIKE ";
      append(out, *expr.args.at(1));
      out += ')';
      return;
    case ExprKind::IsNull:
      out += '(';
      append(out, *expr.args.at(0));
      out += expr.negated ? " IS NOT NULL)" : " IS NULL)";
      return;
    case ExprKind::Cast:
      out += "CAST(";
      append(out, *expr.args.at(0));
      out += " AS ";
      append_type(out, expr.cast_type);
      out += ')';
      return;
    case ExprKind::Case: {
      out += "CASE";
      std::size_t i = 0;
      if (expr.has_operand) {
        out += ' ';
        append(out, *expr.args.at(i++));
      }
      const std::size_t whens_end = expr.args.size() - (expr.has_else ? 1 : 0);
      for (; i + 2 <= whens_end; i += 2) {
        out += " WHEN ";
        append(out, *expr.args.at(i));
        out += " THEN ";
        append(out, *expr.args.at(i + 1));
      }
      if (expr.has_else) {
        out += " ELSE ";
        append(out, *expr.args.back());
      }
      out += " END";
      return;
    }
    case ExprKind::Extract:
      out += "EXTRACT(";
      out += expr.name;
      out += " FROM ";
      append(out, *expr.args.at(0));
      out += ')';
      return;
  }
}

void append_list(std::string& out, const std::vector<ExprPtr>& exprs) {
  for (std::size_t i = 0; i < exprs.size(); ++i) {
    if (i > 0) out += ", ";
    append(out, *exprs[i]);
  }
}

void append_from(std::string& out, const std::vector<TableRef>& from);

void append_table_ref(std::string& out, const TableRef& ref) {
  if (ref.joins) {
    out += "(";
    append_from(out, ref.subquery->from);
    out += ")";
  } else if (ref.subquery) {
    out += "(" + to_string(*ref.subquery) + ")";
  }
  else append_name(out, ref.name);
  if (ref.is_function) {
    out += '(';
    append_list(out, ref.function_args);
    for (std::size_t i = 0; i < ref.function_named_args.size(); ++i) {
      if (i > 0 || !ref.function_args.empty()) out += ", ";
      append_name(out, ref.function_named_args[i].first);
      out += " => ";
      append(out, *ref.function_named_args[i].second);
    }
    out += ')';
  }
  if (!ref.alias.empty()) {
    out += " AS ";
    append_name(out, ref.alias);
  }
}

// ON condition or USING (a, b).
void append_join_condition(std::string& out, const TableRef& ref) {
  if (ref.on) {
    out += " ON ";
    append(out, *ref.on);
  }
  for (std::size_t c = 0; c < ref.using_columns.names.size(); ++c) {
    out += c == 0 ? " USING (" : ", ";
    append_name(out, ref.using_columns.names[c].first);
    if (c + 1 == ref.using_columns.names.size()) out += ")";
  }
}

// How `ref` joins the items before it, as written.
const char* join_keyword(const TableRef& ref) {
  const bool natural = ref.using_columns.natural;
  switch (ref.join) {
    case JoinKind::Comma: return ", ";
    case JoinKind::Inner: return natural ? " NATURAL JOIN " : " JOIN ";
    case JoinKind::Left: return natural ? " NATURAL LEFT JOIN " : " LEFT JOIN ";
    case JoinKind::Right: return natural ? " NATURAL RIGHT JOIN " : " RIGHT JOIN ";
    case JoinKind::Full: return natural ? " NATURAL FULL JOIN " : " FULL JOIN ";
    case JoinKind::Cross: return " CROSS JOIN ";
  }
  return ", ";
}

// FROM's items, joins in parentheses as written.
void append_from(std::string& out, const std::vector<TableRef>& from) {
  std::vector<const TableRef*> groups;  // open parentheses, by their first item
  for (std::size_t i = 0; i < from.size(); ++i) {
    const TableRef& ref = from[i];
    if (i > 0) out += join_keyword(ref);
    if (ref.group_size > 1) {
      out += "(";
      groups.push_back(&ref);
    }
    append_table_ref(out, ref);
    for (std::size_t c = 0; c < ref.column_aliases.size(); ++c) {
      out += c == 0 ? "(" : ", ";
      append_name(out, ref.column_aliases[c]);
      if (c + 1 == ref.column_aliases.size()) out += ")";
    }
    if (ref.group_size == 1) append_join_condition(out, ref);
    // Close the groups that end here, each with its own condition.
    while (!groups.empty() && &from[0] + i + 1 == groups.back() + groups.back()->group_size) {
      out += ")";
      append_join_condition(out, *groups.back());
      groups.pop_back();
    }
  }
}

}  // namespace

ExprPtr make_literal(Literal literal, std::size_t offset) {
  ExprPtr expr = make_expr(ExprKind::Literal, offset);
  expr->literal = std::move(literal);
  return expr;
}

ExprPtr make_integer_literal(int64_t value, std::size_t offset) {
  Literal literal;
  literal.kind = Literal::Kind::Integer;
  literal.integer = value;
  return make_literal(literal, offset);
}

ExprPtr make_bool_literal(bool value, std::size_t offset) {
  Literal literal;
  literal.kind = Literal::Kind::Boolean;
  literal.boolean = value;
  return make_literal(literal, offset);
}

ExprPtr make_null_literal(std::size_t offset) {
  Literal literal;
  literal.kind = Literal::Kind::Null;
  return make_literal(literal, offset);
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

ExprPtr make_is_null(ExprPtr operand, bool negated, std::size_t offset) {
  ExprPtr e = make_expr(ExprKind::IsNull, offset);
  e->negated = negated;
  e->args.push_back(std::move(operand));
  return e;
}

ExprPtr make_case(ExprPtr when, ExprPtr then, ExprPtr otherwise, std::size_t offset) {
  ExprPtr c = make_expr(ExprKind::Case, offset);
  c->args.push_back(std::move(when));
  c->args.push_back(std::move(then));
  c->args.push_back(std::move(otherwise));
  c->has_else = true;
  return c;
}

ExprPtr make_distinct_from(ExprPtr a, ExprPtr b, bool distinct, std::size_t offset) {
  ExprPtr c = make_expr(ExprKind::Case, offset);
  c->args.push_back(make_is_null(clone(*a), false, offset));
  c->args.push_back(make_is_null(clone(*b), distinct, offset));
  c->args.push_back(make_is_null(clone(*b), false, offset));
  c->args.push_back(make_bool_literal(distinct, offset));
  c->args.push_back(make_binary(distinct ? BinaryOp::Ne : BinaryOp::Eq, std::move(a), std::move(b), offset));
  c->has_else = true;
  c->distinct_from = true;
  return c;
}

bool rows_comparable(const Expr& a, const Expr& b) {
  return a.kind == ExprKind::Row && b.kind == ExprKind::Row && a.args.size() == b.args.size();
}

ExprPtr make_row_comparison(BinaryOp op, const Expr& a, const Expr& b, std::size_t offset) {
  auto pair = [&](BinaryOp o, std::size_t i) {
    return make_binary(o, clone(*a.args[i]), clone(*b.args[i]), a.args[i]->offset);
  };
  const std::size_t n = a.args.size();
  if (op == BinaryOp::Eq || op == BinaryOp::Ne) {
    ExprPtr all = pair(op, 0);
    for (std::size_t i = 1; i < n; ++i)
      all = make_binary(op == BinaryOp::Eq ? BinaryOp::And : BinaryOp::Or, std::move(all), pair(op, i), offset);
    return all;
  }
  const BinaryOp strict = op == BinaryOp::Le ? BinaryOp::Lt : op == BinaryOp::Ge ? BinaryOp::Gt : op;
  ExprPtr rest = pair(op, n - 1);
  for (std::size_t i = n - 1; i-- > 0;)
    rest = make_binary(BinaryOp::Or, pair(strict, i),
                       make_binary(BinaryOp::And, pair(BinaryOp::Eq, i), std::move(rest), offset), offset);
  return rest;
}

ExprPtr make_row_distinct_from(const Expr& a, const Expr& b, bool distinct, std::size_t offset) {
  ExprPtr all;
  for (std::size_t i = 0; i < a.args.size(); ++i) {
    ExprPtr pair = make_distinct_from(clone(*a.args[i]), clone(*b.args[i]), distinct, a.args[i]->offset);
    all = all ? make_binary(distinct ? BinaryOp::Or : BinaryOp::And, std::move(all), std::move(pair), offset)
              : std::move(pair);
  }
  return all;
}

ExprPtr make_row_in_list(const Expr& row, const std::vector<ExprPtr>& items, bool negated, std::size_t offset) {
  std::vector<ExprPtr> terms;
  for (const ExprPtr& item : items) terms.push_back(make_row_comparison(BinaryOp::Eq, row, *item, item->offset));
  // ORed pairwise, a balanced tree: a long list nests log2(n) levels deep.
  while (terms.size() > 1) {
    std::vector<ExprPtr> next;
    for (std::size_t i = 0; i + 1 < terms.size(); i += 2)
      next.push_back(make_binary(BinaryOp::Or, std::move(terms[i]), std::move(terms[i + 1]), offset));
    if (terms.size() % 2) next.push_back(std::move(terms.back()));
    terms = std::move(next);
  }
  return negated ? make_unary(UnaryOp::Not, std::move(terms[0]), offset) : std::move(terms[0]);
}

ExprPtr make_function(std::string name, std::vector<ExprPtr> args, bool distinct, std::size_t offset) {
  ExprPtr expr = make_expr(ExprKind::Function, offset);
  expr->name = std::move(name);
  expr->args = std::move(args);
  expr->distinct = distinct;
  return expr;
}

const SelectStatement& leftmost_select(const SelectStatement& select) {
  return select.set_operation ? leftmost_select(*select.set_operation->left) : select;
}

ExprPtr clone(const Expr& expr) {
  auto copy = std::make_unique<Expr>();
  copy->kind = expr.kind;
  copy->offset = expr.offset;
  copy->end = expr.end;
  copy->literal = expr.literal;
  copy->table = expr.table;
  copy->name = expr.name;
  copy->unary_op = expr.unary_op;
  copy->binary_op = expr.binary_op;
  copy->distinct = expr.distinct;
  copy->negated = expr.negated;
  copy->has_operand = expr.has_operand;
  copy->has_else = expr.has_else;
  copy->distinct_from = expr.distinct_from;
  copy->all = expr.all;
  copy->cast_type = expr.cast_type;
  for (const auto& a : expr.args) copy->args.push_back(clone(*a));
  copy->subquery = expr.subquery;
  return copy;
}

TableRef clone(const TableRef& ref) {
  TableRef out;
  out.name = ref.name;
  out.alias = ref.alias;
  out.column_aliases = ref.column_aliases;
  out.offset = ref.offset;
  out.join = ref.join;
  if (ref.on) out.on = clone(*ref.on);
  out.using_columns = ref.using_columns;
  out.group_size = ref.group_size;
  out.is_function = ref.is_function;
  for (const auto& a : ref.function_args) out.function_args.push_back(clone(*a));
  for (const auto& [name, a] : ref.function_named_args) out.function_named_args.emplace_back(name, clone(*a));
  out.subquery = ref.subquery;
  out.joins = ref.joins;
  return out;
}

SelectStatement clone(const SelectStatement& select) {
  return map_expressions(select, [](const Expr& e) { return clone(e); });
}

std::string to_string(const Expr& expr) {
  std::string out;
  append(out, expr);
  return out;
}

std::string to_string(const SelectStatement& select) {
  std::string out;
  for (std::size_t i = 0; i < select.with.size(); ++i) {
    const CommonTableExpression& cte = select.with[i];
    out += i == 0 ? "WITH " : ", ";
    append_name(out, cte.name);
    for (std::size_t c = 0; c < cte.column_aliases.size(); ++c) {
      out += c == 0 ? "(" : ", ";
      append_name(out, cte.column_aliases[c]);
      if (c + 1 == cte.column_aliases.size()) out += ")";
    }
    out += " AS (" + to_string(*cte.query) + ")";
    out += i + 1 == select.with.size() ? " " : "";
  }
  if (const SetOperation* op = select.set_operation.get()) {
    static constexpr const char* kNames[] = {" UNION ", " INTERSECT ", " EXCEPT "};
    out += "(" + to_string(*op->left) + ")" + kNames[static_cast<int>(op->kind)] + (op->all ? "ALL (" : "(") +
           to_string(*op->right) + ")";
  } else {
    out += select.distinct ? "SELECT DISTINCT " : "SELECT ";
  }
  for (std::size_t i = 0; i < select.items.size(); ++i) {
    if (i > 0) out += ", ";
    append(out, *select.items[i].expr);
    if (!select.items[i].alias.empty()) {
      out += " AS ";
      append_name(out, select.items[i].alias);
    }
  }
  if (!select.from.empty()) {
    out += " FROM ";
    append_from(out, select.from);
  }
  if (select.where) {
    out += " WHERE ";
    append(out, *select.where);
  }
  if (!select.group_by.empty()) {
    out += " GROUP BY ";
    append_list(out, select.group_by);
  }
  if (select.having) {
    out += " HAVING ";
    append(out, *select.having);
  }
  for (std::size_t i = 0; i < select.order_by.size(); ++i) {
    const OrderItem& item = select.order_by[i];
    out += i == 0 ? " ORDER BY " : ", ";
    append(out, *item.expr);
    if (item.descending) out += " DESC";
    if (item.nulls_first) out += *item.nulls_first ? " NULLS FIRST" : " NULLS LAST";
  }
  if (select.limit) {
    out += " LIMIT ";
    append(out, *select.limit);
  }
  if (select.offset) {
    out += " OFFSET ";
    append(out, *select.offset);
  }
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
    case BinaryOp::Concat: return "||";
  }
  return "?";
}

}  // namespace gpusql::ast
