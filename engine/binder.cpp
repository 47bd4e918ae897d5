#include "engine/binder.hpp"

#include <charconv>
#include <cmath>
#include <limits>

namespace gpusql {
namespace {

using ast::ExprKind;

bool is_aggregate_name(std::string_view name) {
  return name == "count" || name == "sum" || name == "min" || name == "max" || name == "avg";
}

BoundExpr make_constant(DataType type, std::size_t offset) {
  BoundExpr e;
  e.op = Op::Constant;
  e.type = type;
  e.offset = offset;
  return e;
}

BoundExpr int_constant(int64_t value, std::size_t offset) {
  bool small = value >= std::numeric_limits<int32_t>::min() && value <= std::numeric_limits<int32_t>::max();
  BoundExpr e = make_constant(small ? DataType::integer() : DataType::bigint(), offset);
  e.constant.value.i = value;
  return e;
}

BoundExpr bool_constant(bool value, std::size_t offset) {
  BoundExpr e = make_constant(DataType::boolean(), offset);
  e.constant.value.i = value;
  return e;
}

BoundExpr null_constant(DataType type, std::size_t offset) {
  BoundExpr e = make_constant(type, offset);
  e.constant.null_constant = true;
  return e;
}

BoundExpr node(Op op, DataType type, std::vector<BoundExpr> children, std::size_t offset) {
  BoundExpr e;
  e.op = op;
  e.type = type;
  e.children = std::move(children);
  e.offset = offset;
  return e;
}

BoundExpr to_double(BoundExpr e) {
  if (e.type.is_floating()) return e;
  if (e.op == Op::Constant) {
    e.constant.value.d = static_cast<double>(e.constant.value.i);
    e.type = DataType::double_();
    return e;
  }
  std::size_t offset = e.offset;
  std::vector<BoundExpr> children;
  children.push_back(std::move(e));
  return node(Op::ToDouble, DataType::double_(), std::move(children), offset);
}

bool is_arithmetic(ast::BinaryOp op) {
  using B = ast::BinaryOp;
  return op == B::Add || op == B::Sub || op == B::Mul || op == B::Div || op == B::Mod;
}

Op to_op(ast::BinaryOp op) {
  using B = ast::BinaryOp;
  switch (op) {
    case B::Add: return Op::Add;
    case B::Sub: return Op::Sub;
    case B::Mul: return Op::Mul;
    case B::Div: return Op::Div;
    case B::Mod: return Op::Mod;
    case B::Eq: return Op::Eq;
    case B::Ne: return Op::Ne;
    case B::Lt: return Op::Lt;
    case B::Le: return Op::Le;
    case B::Gt: return Op::Gt;
    case B::Ge: return Op::Ge;
    case B::And: return Op::And;
    case B::Or: return Op::Or;
  }
  return Op::Eq;
}

// The comparison that holds with its operands swapped (a < b  <=>  b > a).
Op mirrored(Op op) {
  switch (op) {
    case Op::Lt: return Op::Gt;
    case Op::Le: return Op::Ge;
    case Op::Gt: return Op::Lt;
    case Op::Ge: return Op::Le;
    default: return op;
  }
}

class SelectBinder {
 public:
  SelectBinder(const Catalog& catalog, std::string_view sql) : catalog_(catalog), sql_(sql) {}

  BoundSelect bind(const ast::SelectStatement& s) {
    if (s.from.empty()) throw Error(ErrorKind::NotSupported, "not supported yet: SELECT without FROM");
    if (s.from.size() > 1)
      throw Error(ErrorKind::NotSupported, "not supported yet: joins (more than one table in FROM)", s.from[1].offset);
    const ast::TableRef& ref = s.from[0];
    result_.table = catalog_.get(ref.name, ref.offset);
    alias_ = ref.alias.empty() ? result_.table->name : ref.alias;

    if (s.where) {
      if (contains_aggregate(*s.where))
        throw Error(ErrorKind::Binder, "WHERE clause cannot contain aggregates", aggregate_offset(*s.where));
      BoundExpr where = bind_scalar(*s.where);
      if (where.type.id != Type::Boolean && !where.is_null_constant())
        throw Error(ErrorKind::Binder,
                    "WHERE clause must be a boolean expression, not " + where.type.to_string(), s.where->offset);
      result_.where = std::move(where);
    }

    aggregate_query_ = false;
    for (const auto& item : s.items)
      if (contains_aggregate(*item.expr)) aggregate_query_ = true;

    for (const auto& item : s.items) {
      const ast::Expr& e = *item.expr;
      if (e.kind == ExprKind::Star) {
        if (aggregate_query_)
          throw Error(ErrorKind::Binder, "* cannot be combined with aggregates without GROUP BY", e.offset);
        if (!e.table.empty() && !iequals(e.table, alias_))
          throw Error(ErrorKind::Binder, "Referenced table \"" + e.table + "\" not found!" + suggest_table(e.table),
                      e.offset);
        for (std::size_t c = 0; c < result_.table->columns.size(); ++c) {
          result_.outputs.push_back(column_ref(static_cast<int>(c), e.offset));
          result_.names.push_back(result_.table->columns[c].name);
        }
        continue;
      }
      BoundExpr output = aggregate_query_ ? bind_over_aggregates(e) : bind_scalar(e);
      // A string literal in the select list is a column of one dictionary entry.
      if (output.op == Op::Constant && output.type.id == Type::Varchar && !output.constant.null_constant) {
        auto dictionary = std::make_shared<Dictionary>();
        dictionary->values.push_back(output.text);
        output.dictionary = std::move(dictionary);
        output.constant.value.i = 0;
      }
      result_.outputs.push_back(std::move(output));
      result_.names.push_back(item.alias.empty() ? source_text(e) : item.alias);
    }
    return std::move(result_);
  }

 private:
  const Catalog& catalog_;
  std::string_view sql_;
  BoundSelect result_;
  std::string alias_;
  bool aggregate_query_ = false;

  std::string source_text(const ast::Expr& e) const {
    if (e.end > e.offset && e.end <= sql_.size()) return std::string(sql_.substr(e.offset, e.end - e.offset));
    return ast::to_string(e);
  }

  static bool contains_aggregate(const ast::Expr& e) {
    if (e.kind == ExprKind::Function && is_aggregate_name(e.name)) return true;
    for (const auto& a : e.args)
      if (contains_aggregate(*a)) return true;
    return false;
  }
  static std::size_t aggregate_offset(const ast::Expr& e) {
    if (e.kind == ExprKind::Function && is_aggregate_name(e.name)) return e.offset;
    for (const auto& a : e.args)
      if (contains_aggregate(*a)) return aggregate_offset(*a);
    return e.offset;
  }

  std::string suggest_table(const std::string& name) const {
    std::string hint = closest_name(name, {alias_});
    return hint.empty() ? "" : "\nDid you mean \"" + hint + "\"?";
  }

  BoundExpr column_ref(int column, std::size_t offset) const {
    BoundExpr e;
    e.op = Op::Column;
    e.column = column;
    e.type = result_.table->columns[column].type;
    e.offset = offset;
    e.dictionary = result_.table->host[column].dictionary;
    return e;
  }

  BoundExpr bind_column(const ast::Expr& e) const {
    const Table& table = *result_.table;
    if (!e.table.empty() && !iequals(e.table, alias_))
      throw Error(ErrorKind::Binder, "Referenced table \"" + e.table + "\" not found!" + suggest_table(e.table),
                  e.offset);
    int c = table.find_column(e.name);
    if (c >= 0) return column_ref(c, e.offset);
    if (iequals(e.name, "rowid")) return node(Op::RowId, DataType::bigint(), {}, e.offset);
    std::vector<std::string> candidates;
    std::string bindings;
    for (const auto& col : table.columns) {
      candidates.push_back(col.name);
      bindings += std::string(bindings.empty() ? "" : ", ") + "\"" + alias_ + "." + col.name + "\"";
    }
    std::string message = "Referenced column \"" + e.name + "\" not found in FROM clause!";
    std::string hint = closest_name(e.name, candidates);
    if (!hint.empty()) message += "\nDid you mean \"" + alias_ + "." + hint + "\"?";
    else message += "\nCandidate bindings: " + bindings;
    throw Error(ErrorKind::Binder, message, e.offset);
  }

  BoundExpr bind_literal(const ast::Expr& e) const {
    const ast::Literal& l = e.literal;
    switch (l.kind) {
      case ast::Literal::Kind::Null: return null_constant(DataType::integer(), e.offset);
      case ast::Literal::Kind::Boolean: return bool_constant(l.boolean, e.offset);
      case ast::Literal::Kind::Integer: return int_constant(l.integer, e.offset);
      case ast::Literal::Kind::Number: {
        double d = 0;
        auto [end, ec] = std::from_chars(l.text.data(), l.text.data() + l.text.size(), d);
        if (ec == std::errc::result_out_of_range || !std::isfinite(d))
          throw Error(ErrorKind::Conversion, "number \"" + l.text + "\" is out of range for DOUBLE", e.offset);
        if (ec != std::errc() || end != l.text.data() + l.text.size())
          throw Error(ErrorKind::Conversion, "could not read number \"" + l.text + "\"", e.offset);
        BoundExpr c = make_constant(DataType::double_(), e.offset);
        c.constant.value.d = d;
        return c;
      }
      case ast::Literal::Kind::String: {
        BoundExpr c = make_constant(DataType::varchar(), e.offset);
        c.text = l.text;
        return c;
      }
    }
    return null_constant(DataType::integer(), e.offset);
  }

  BoundExpr bind_unary(const ast::Expr& e, BoundExpr operand) const {
    if (e.unary_op == ast::UnaryOp::Not) {
      if (operand.type.id != Type::Boolean && !operand.is_null_constant())
        throw Error(ErrorKind::Binder, "NOT needs a BOOLEAN operand, not " + operand.type.to_string(), e.offset);
      return node(Op::Not, DataType::boolean(), {std::move(operand)}, e.offset);
    }
    if (!operand.type.is_numeric() || operand.type.id == Type::Boolean)
      throw Error(ErrorKind::Binder, "cannot negate a value of type " + operand.type.to_string(), e.offset);
    // Fold a minus before a literal, so -2147483648 is an INTEGER.
    if (operand.op == Op::Constant && !operand.constant.null_constant) {
      if (operand.type.is_floating()) {
        operand.constant.value.d = -operand.constant.value.d;
        return operand;
      }
      if (operand.constant.value.i != std::numeric_limits<int64_t>::min())
        return int_constant(-operand.constant.value.i, e.offset);
    }
    DataType type = operand.type.is_floating() ? DataType::double_() : DataType::bigint();
    return node(Op::Negate, type, {std::move(operand)}, e.offset);
  }

  // Comparisons of VARCHAR run on dictionary codes: a literal becomes a code
  // bound in the column's sorted dictionary.
  BoundExpr bind_string_comparison(Op op, BoundExpr left, BoundExpr right, std::size_t offset) const {
    bool l_const = left.op == Op::Constant, r_const = right.op == Op::Constant;
    if (l_const && r_const) {
      int c = left.text.compare(right.text);
      bool r = op == Op::Eq ? c == 0 : op == Op::Ne ? c != 0 : op == Op::Lt ? c < 0 : op == Op::Le ? c <= 0
                                                                        : op == Op::Gt ? c > 0 : c >= 0;
      return bool_constant(r, offset);
    }
    if (l_const) return bind_string_comparison(mirrored(op), std::move(right), std::move(left), offset);
    if (!r_const) {
      if (left.dictionary != right.dictionary)
        throw Error(ErrorKind::NotSupported,
                    "not supported yet: comparing VARCHAR values of two different dictionaries", offset);
      return node(op, DataType::boolean(), {std::move(left), std::move(right)}, offset);
    }
    const Dictionary& dict = *left.dictionary;
    const std::string& s = right.text;
    uint32_t lower = dict.lower_bound(s), upper = dict.upper_bound(s);
    bool present = lower != upper;
    int64_t code = 0;
    switch (op) {
      case Op::Eq:
      case Op::Ne: code = present ? lower : -1; break;  // -1: no row's code
      case Op::Lt: code = lower; break;                 // s' < s   <=>  code < lower_bound(s)
      case Op::Le: op = Op::Lt; code = upper; break;    // s' <= s  <=>  code < upper_bound(s)
      case Op::Gt: op = Op::Ge; code = upper; break;    // s' > s   <=>  code >= upper_bound(s)
      case Op::Ge: code = lower; break;                 // s' >= s  <=>  code >= lower_bound(s)
      default: break;
    }
    BoundExpr bound = make_constant(DataType::bigint(), right.offset);
    bound.constant.value.i = code;
    return node(op, DataType::boolean(), {std::move(left), std::move(bound)}, offset);
  }

  BoundExpr bind_binary(const ast::Expr& e, BoundExpr left, BoundExpr right) const {
    using B = ast::BinaryOp;
    Op op = to_op(e.binary_op);
    const std::size_t at = e.offset;
    auto type_error = [&](const std::string& what) {
      throw Error(ErrorKind::Binder, what + " " + left.type.to_string() + " and " + right.type.to_string(),
                  e.args[1]->offset);
    };
    if (e.binary_op == B::And || e.binary_op == B::Or) {
      for (const BoundExpr* side : {&left, &right})
        if (side->type.id != Type::Boolean && !side->is_null_constant())
          throw Error(ErrorKind::Binder,
                      std::string(e.binary_op == B::And ? "AND" : "OR") + " needs BOOLEAN operands, not " +
                          side->type.to_string(),
                      side->offset);
      return node(op, DataType::boolean(), {std::move(left), std::move(right)}, at);
    }
    // A NULL literal takes the type of the other side.
    if (left.is_null_constant() && !right.is_null_constant()) left.type = right.type.id == Type::Varchar ? DataType::bigint() : right.type;
    if (right.is_null_constant() && !left.is_null_constant()) right.type = left.type.id == Type::Varchar ? DataType::bigint() : left.type;
    if (is_arithmetic(e.binary_op)) {
      bool numeric = left.type.is_numeric() && right.type.is_numeric() && left.type.id != Type::Boolean &&
                     right.type.id != Type::Boolean;
      if (!numeric) type_error("cannot apply " + ast::to_string(e.binary_op) + " to");
      if (left.type.id == Type::Decimal || right.type.id == Type::Decimal)
        throw Error(ErrorKind::NotSupported, "not supported yet: DECIMAL arithmetic", at);
      if (left.type.is_floating() || right.type.is_floating())
        return node(op, DataType::double_(), {to_double(std::move(left)), to_double(std::move(right))}, at);
      return node(op, DataType::bigint(), {std::move(left), std::move(right)}, at);
    }
    // Comparison.
    bool l_string = left.type.id == Type::Varchar && !left.is_null_constant();
    bool r_string = right.type.id == Type::Varchar && !right.is_null_constant();
    if (l_string || r_string) {
      if (!(l_string && r_string)) type_error("Cannot compare values of type");
      return bind_string_comparison(op, std::move(left), std::move(right), at);
    }
    bool l_bool = left.type.id == Type::Boolean, r_bool = right.type.id == Type::Boolean;
    if (l_bool != r_bool) type_error("Cannot compare values of type");
    if (left.type.is_floating() || right.type.is_floating()) {
      left = to_double(std::move(left));
      right = to_double(std::move(right));
    }
    return node(op, DataType::boolean(), {std::move(left), std::move(right)}, at);
  }

  BoundExpr bind_scalar(const ast::Expr& e) const {
    switch (e.kind) {
      case ExprKind::Literal: return bind_literal(e);
      case ExprKind::Column: return bind_column(e);
      case ExprKind::Star: throw Error(ErrorKind::Binder, "* is only allowed in the select list and COUNT(*)", e.offset);
      case ExprKind::Unary: return bind_unary(e, bind_scalar(*e.args[0]));
      case ExprKind::Binary: return bind_binary(e, bind_scalar(*e.args[0]), bind_scalar(*e.args[1]));
      case ExprKind::Function: {
        if (is_aggregate_name(e.name))
          throw Error(ErrorKind::Binder, "aggregate function calls cannot be nested", e.offset);
        std::string hint = closest_name(e.name, {"count", "sum", "min", "max", "avg"});
        throw Error(ErrorKind::Binder,
                    "Scalar Function with name " + e.name + " does not exist!" +
                        (hint.empty() ? "" : "\nDid you mean \"" + hint + "\"?"),
                    e.offset);
      }
    }
    throw Error(ErrorKind::Binder, "unsupported expression", e.offset);
  }

  BoundAggregate bind_aggregate(const ast::Expr& e) const {
    BoundAggregate a;
    if (e.distinct) throw Error(ErrorKind::NotSupported, "not supported yet: " + e.name + "(DISTINCT ...)", e.offset);
    bool star = e.args.size() == 1 && e.args[0]->kind == ExprKind::Star;
    if (e.name == "count" && star) {
      a.kind = AggKind::CountStar;
      a.type = DataType::bigint();
      return a;
    }
    if (e.args.size() != 1 || star)
      throw Error(ErrorKind::Binder, e.name + "() takes exactly one argument", e.offset);
    BoundExpr arg = bind_scalar(*e.args[0]);
    if (e.name == "count") {
      a.kind = AggKind::Count;
      a.type = DataType::bigint();
    } else if (e.name == "min" || e.name == "max") {
      a.kind = e.name == "min" ? AggKind::Min : AggKind::Max;
      a.type = arg.type;
      a.dictionary = arg.dictionary;
      if (arg.op == Op::Constant && arg.type.id == Type::Varchar)
        throw Error(ErrorKind::NotSupported, "not supported yet: MIN/MAX of a string literal", e.offset);
    } else {
      if (!arg.type.is_numeric() || arg.type.id == Type::Boolean)
        throw Error(ErrorKind::Binder,
                    "No function matches " + e.name + "(" + arg.type.to_string() + ")", e.args[0]->offset);
      if (arg.type.id == Type::Decimal) throw Error(ErrorKind::NotSupported, "not supported yet: DECIMAL sums", e.offset);
      a.kind = e.name == "sum" ? AggKind::Sum : AggKind::Avg;
      a.type = (a.kind == AggKind::Avg || arg.type.is_floating()) ? DataType::double_() : DataType::bigint();
    }
    if (arg.is_null_constant()) arg.type = DataType::bigint();
    a.argument = std::move(arg);
    return a;
  }

  // A select item of an aggregate query: aggregates become references to
  // their results; a bare column outside an aggregate is an error.
  BoundExpr bind_over_aggregates(const ast::Expr& e) {
    switch (e.kind) {
      case ExprKind::Function:
        if (is_aggregate_name(e.name)) {
          for (const auto& a : e.args)
            if (contains_aggregate(*a))
              throw Error(ErrorKind::Binder, "aggregate function calls cannot be nested", aggregate_offset(*a));
          BoundAggregate a = bind_aggregate(e);
          BoundExpr ref;
          ref.op = Op::Column;
          ref.column = static_cast<int>(result_.aggregates.size());
          ref.type = a.type;
          ref.dictionary = a.dictionary;
          ref.offset = e.offset;
          result_.aggregates.push_back(std::move(a));
          return ref;
        }
        return bind_scalar(e);
      case ExprKind::Column: {
        bind_column(e);  // unknown names first get the unknown-name error
        throw Error(ErrorKind::Binder,
                    "column \"" + e.name + "\" must appear in the GROUP BY clause or must be part of an aggregate function",
                    e.offset);
      }
      case ExprKind::Unary: return bind_unary(e, bind_over_aggregates(*e.args[0]));
      case ExprKind::Binary:
        return bind_binary(e, bind_over_aggregates(*e.args[0]), bind_over_aggregates(*e.args[1]));
      default: return bind_scalar(e);
    }
  }
};

}  // namespace

BoundSelect bind_select(const ast::SelectStatement& statement, const Catalog& catalog, std::string_view sql) {
  return SelectBinder(catalog, sql).bind(statement);
}

}  // namespace gpusql
