#include "planner/binder.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>

#include "planner/type_names.hpp"
#include "planner/common_conjuncts.hpp"
#include "planner/constant_folding.hpp"
#include "planner/decorrelation.hpp"
#include "planner/set_membership.hpp"
#include "planner/dictionary_recoding.hpp"
#include "planner/distinct_aggregates.hpp"
#include "planner/expression_compiler.hpp"
#include "planner/numeric_types.hpp"
#include "planner/quantified_comparison.hpp"
#include "planner/row_values.hpp"
#include "planner/scalar_functions.hpp"
#include "planner/selectivity.hpp"
#include "planner/set_operation.hpp"
#include "planner/string_functions.hpp"
#include "planner/varchar_cast.hpp"
#include "storage/device_table.hpp"
#include "storage/value_text.hpp"

namespace gpusql {
namespace {

using ast::ExprKind;

// The reader used when bind_query is given none (a function-local static:
// set from other translation units' initializers without an order problem).
TableFunctionReader& default_table_function_reader() {
  static TableFunctionReader reader;
  return reader;
}

const char* const kAggregateNames[] = {"count", "sum", "min", "max", "avg", "arg_min", "arg_max", "min_by", "max_by"};
const char* const kScalarNames[] = {"floor", "ceil", "ceiling", "abs", "round", "coalesce", "ifnull", "nullif", "concat"};

bool is_aggregate_name(std::string_view name) {
  return std::find(std::begin(kAggregateNames), std::end(kAggregateNames), name) != std::end(kAggregateNames) ||
         name == kAverageHighPart || name == kAverageLowPart;
}

std::vector<std::string> function_names() {
  std::vector<std::string> out(std::begin(kAggregateNames), std::end(kAggregateNames));
  out.insert(out.end(), std::begin(kScalarNames), std::end(kScalarNames));
  for (std::string& name : string_function_names()) out.push_back(std::move(name));
  return out;
}

int64_t pow10(int k) {
  int64_t r = 1;
  while (k-- > 0) r *= 10;
  return r;
}

// ---- building bound nodes ----------------------------------------------------

BoundExpr make_constant(DataType type, std::size_t offset) {
  BoundExpr e;
  e.op = Op::Constant;
  e.type = type;
  e.offset = offset;
  return e;
}

BoundExpr int_constant(int64_t value, std::size_t offset, DataType type = {}) {
  bool small = value >= std::numeric_limits<int32_t>::min() && value <= std::numeric_limits<int32_t>::max();
  BoundExpr e = make_constant(type.id == Type::Integer && type.precision == 0 && type.scale == 0
                                  ? (small ? DataType::integer() : DataType::bigint())
                                  : type,
                              offset);
  e.constant.value.i = value;
  return e;
}

BoundExpr double_constant(double value, std::size_t offset) {
  BoundExpr e = make_constant(DataType::double_(), offset);
  e.constant.value.d = value;
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
  return fold_constants(std::move(e));
}

// ---- numeric types, with DuckDB's rules ------------------------------------------
//
// A DECIMAL of at most 18 digits is a 64-bit unscaled integer, a wider one
// (SUM's result, DECIMAL(38, s)) a 128-bit one. Result types follow DuckDB's
// precision and scale rules: arithmetic on 64-bit DECIMALs stays 64-bit
// (capped at 18 digits, DuckDB's choice too), arithmetic with a 128-bit
// operand is 128-bit (capped at 38). An exact result that needs more digits
// than its type holds is an overflow error, never a rounded value.
constexpr int kMaxDecimalDigits = DataType::kMaxNarrowDecimalDigits;

bool is_wide(const BoundExpr& e) { return e.type.is_wide_decimal(); }

bool reads_columns(const BoundExpr& e) {
  return e.op == Op::Column || std::any_of(e.children.begin(), e.children.end(), reads_columns);
}

// An exact operand as a 128-bit value of the same precision and scale (at
// least 19 digits: the precision of a 128-bit DECIMAL).
BoundExpr widen(BoundExpr e) {
  if (is_wide(e)) return e;
  DataType type = decimal_type(e.type.id == Type::Decimal ? e.type.precision : 19,
                               e.type.id == Type::Decimal ? e.type.scale : 0, e.offset, /*wide=*/true);
  if (e.is_null_constant()) {
    e.type = type;
    return e;
  }
  std::size_t offset = e.offset;
  return node(Op::ToWide, type, {std::move(e)}, offset);
}

// The NULL literal has no type of its own; it takes the other operand's.
bool is_untyped_null(const BoundExpr& e) { return e.is_null_constant() && e.text == "NULL"; }

BoundExpr retype_null(BoundExpr e, DataType type) {
  e.type = type;
  e.text.clear();
  return e;
}

// The unscaled 128-bit `value` of the DECIMAL `type` as an expression: a
// constant holds 64 bits, so a wider value is built from its two halves
// (Op::WideFromParts; no step of it is checked, so 10^38 itself, the bound
// of a CAST to DECIMAL(38, s), is one too).
// A 128-bit value's halves as Op::WideHigh and Op::WideLow give them (the
// lower one flipped so that its signed order is its unsigned one).
struct WideHalves {
  int64_t high = 0, low = 0;
};
WideHalves wide_halves(__int128 value) {
  const auto bits = static_cast<unsigned __int128>(value);
  return {static_cast<int64_t>(bits >> 64), static_cast<int64_t>(static_cast<uint64_t>(bits) ^ (uint64_t{1} << 63))};
}

BoundExpr wide_constant(__int128 value, DataType type, std::size_t offset) {
  if (value >= INT64_MIN && value <= INT64_MAX) return int_constant(static_cast<int64_t>(value), offset, type);
  const WideHalves halves = wide_halves(value);
  return node(Op::WideFromParts, type,
              {int_constant(halves.high, offset, DataType::bigint()), int_constant(halves.low, offset, DataType::bigint())},
              offset);
}

// A decimal literal is DECIMAL(p, s), p counting every digit written and s
// those after the point (DuckDB's rule: 0.50 is DECIMAL(3,2)); past 18
// digits it is a 128-bit DECIMAL.
BoundExpr decimal_literal(const std::string& text, std::size_t offset) {
  std::size_t point = text.find('.');
  int digits = 0;
  for (char c : text) digits += c >= '0' && c <= '9';
  int scale = point == std::string::npos ? 0 : static_cast<int>(text.size() - point - 1);
  if (scale > kMaxDecimalDigits)
    throw Error(ErrorKind::NotSupported,
                "not supported yet: the DECIMAL literal " + text + " has more than 18 digits after the point", offset);
  DataType type = decimal_type(digits, scale, offset, /*wide=*/digits > kMaxDecimalDigits);
  __int128 unscaled = 0;
  if (parse_wide_decimal(text, type.precision, type.scale, unscaled) != ParseResult::Ok)
    throw Error(ErrorKind::Conversion, "could not read the DECIMAL literal " + text, offset);
  return wide_constant(unscaled, type, offset);
}

BoundExpr to_double(BoundExpr e) {
  if (e.type.id == Type::Double) return e;
  if (e.type.id == Type::Real) {  // the value is already a double
    e.type = DataType::double_();
    return e;
  }
  if (e.is_null_constant()) return retype_null(std::move(e), DataType::double_());
  std::size_t offset = e.offset;
  if (e.type.id == Type::Decimal) {
    int64_t power = pow10(e.type.scale);
    return node(Op::DecimalToDouble, DataType::double_(), {std::move(e), int_constant(power, offset)}, offset);
  }
  return node(Op::ToDouble, DataType::double_(), {std::move(e)}, offset);
}

// A REAL is computed as a double rounded to float after every step.
BoundExpr to_real(BoundExpr e) {
  if (e.type.id == Type::Real) return e;
  if (e.is_null_constant()) return retype_null(std::move(e), DataType::real());
  std::size_t offset = e.offset;
  if (e.type.id == Type::Decimal) {  // DuckDB converts a DECIMAL to FLOAT in float arithmetic
    int64_t power = pow10(e.type.scale);
    return node(Op::DecimalToReal, DataType::real(), {std::move(e), int_constant(power, offset)}, offset);
  }
  return node(Op::ToReal, DataType::real(), {to_double(std::move(e))}, offset);
}

// An exact operand as a DECIMAL of `scale`, 128-bit when `wide`: a larger
// scale multiplies, a smaller one (a value of common_value_type()) rounds
// half away from zero. With `saturate` the rescaling saturates rather than
// fails (ScaleSaturate): for a comparison, and for a CAST whose precision
// check follows.
BoundExpr to_decimal(BoundExpr e, int scale, bool saturate = false, bool wide = false) {
  DecimalShape shape = *decimal_shape(e.type);
  std::size_t offset = e.offset;
  wide = wide || is_wide(e);
  if (scale < shape.scale) {  // fewer digits after the point (common_value_type()): rounded half away from zero
    DataType type = decimal_type(shape.precision, scale, offset, wide);
    if (e.is_null_constant()) return retype_null(std::move(e), type);
    if (wide) e = widen(std::move(e));
    return node(Op::DivRound, type, {std::move(e), int_constant(pow10(shape.scale - scale), offset)}, offset);
  }
  DataType type = decimal_type(shape.precision - shape.scale + scale, scale, offset, wide);
  if (e.is_null_constant()) return retype_null(std::move(e), type);
  if (wide) e = widen(std::move(e));
  if (shape.scale == scale) {
    e.type = type;
    return e;
  }
  if (scale - shape.scale > kMaxDecimalDigits)
    throw Error(ErrorKind::NotSupported, "not supported yet: rescaling a DECIMAL by more than 18 digits", offset);
  return node(saturate ? Op::ScaleSaturate : Op::Mul, type, {std::move(e), int_constant(pow10(scale - shape.scale), offset)},
              offset);
}

// A numeric operand as the numeric `type` common_numeric_type() chose.
BoundExpr to_numeric(BoundExpr e, DataType type, bool saturate = false) {
  switch (type.id) {
    case Type::Double: return to_double(std::move(e));
    case Type::Real: return to_real(std::move(e));
    case Type::Decimal: {
      BoundExpr d = to_decimal(std::move(e), type.scale, saturate, type.is_wide_decimal());
      d.type = type;
      return d;
    }
    default: return e;
  }
}

// Brings two numeric operands to their common type.
void unify_numeric(BoundExpr& a, BoundExpr& b, bool for_comparison = false) {
  DataType type = common_numeric_type(a.type, b.type, a.offset);
  a = to_numeric(std::move(a), type, /*saturate=*/for_comparison);
  b = to_numeric(std::move(b), type, /*saturate=*/for_comparison);
}

bool is_number(DataType t) { return t.is_numeric() && t.id != Type::Boolean; }

// A string as `target`, as CAST reads it (integers as DuckDB's cast reads
// them: '1e3', '2.5', '1_000'), with the range checks of a load; the value
// to raw[0..width).
ParseResult cast_text(std::string_view text, DataType target, std::byte* raw) {
  if (target.id != Type::Integer && target.id != Type::BigInt) return parse_fixed(text, target, raw, 0);
  int64_t i = 0;
  ParseResult r = parse_integer_cast(text, i);
  if (r == ParseResult::Ok && target.id == Type::Integer && (i < INT32_MIN || i > INT32_MAX)) r = ParseResult::OutOfRange;
  if (r == ParseResult::Ok) store_value(raw, target.id, 0, Slot{{i}, true});
  return r;
}

int64_t parse_date_or_throw(const std::string& text, std::size_t offset) {
  int64_t days = 0;
  if (!parse_date(text, days))
    throw Error(ErrorKind::Conversion, "invalid DATE \"" + text + "\": expected YYYY-MM-DD", offset);
  return days;
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
    case B::Concat: break;  // bound on its own (bind_concat)
  }
  return Op::Eq;
}

std::string op_name(ast::BinaryOp op) { return ast::to_string(op); }

// ---- scopes --------------------------------------------------------------------

// What a name or an aggregate means where an expression is bound.
class Scope {
 public:
  virtual ~Scope() = default;
  // Binds a node this scope handles itself (aggregates, group keys); nullopt
  // to bind it the ordinary way.
  virtual std::optional<BoundExpr> intercept(const ast::Expr&) { return std::nullopt; }
  virtual BoundExpr column(const ast::Expr& e) = 0;
  // A column reference naming a table's column of plain strings that no
  // statement has encoded yet, bound without encoding it (its dictionary
  // null); nullopt for anything else, which column() binds. Only a LIKE
  // reads such a reference: it matches the strings row by row.
  virtual std::optional<BoundExpr> plain_strings_column(const ast::Expr&) { return std::nullopt; }
  // How such a column is matched on the device (SubqueryRunner::device_like); null: on the host.
  virtual const SubqueryRunner::DeviceLike* device_like() const { return nullptr; }
  virtual const char* clause() const = 0;  // for "aggregates are not allowed in ..."
  // A scalar subquery: its value, where the scope can run one.
  virtual BoundExpr subquery(const ast::Expr& e) {
    throw Error(ErrorKind::NotSupported, std::string("not supported yet: a subquery in ") + clause(), e.offset);
  }
  // x [NOT] IN (SELECT ...) with x bound: a search of the subquery's values.
  virtual BoundExpr in_subquery(const ast::Expr& e, BoundExpr) {
    throw Error(ErrorKind::NotSupported, std::string("not supported yet: a subquery in ") + clause(), e.offset);
  }
  // A subquery expression as the expressions it means, made once and kept
  // while the query binds: x op ANY|ALL (SELECT ...)
  // (quantified_comparison.hpp), (a, b, ...) [NOT] IN (SELECT ...)
  // (row_values.hpp).
  virtual const ast::Expr& rewritten(const ast::Expr& e) {
    throw Error(ErrorKind::NotSupported, std::string("not supported yet: a subquery in ") + clause(), e.offset);
  }
};

// a IS NOT DISTINCT FROM b from compare()'s a = b (its operands made
// comparable), as two equalities a hash join keys on: the same NULLness,
// and the same value with NULL read as 0.
std::vector<BoundExpr> not_distinct(BoundExpr equal, std::size_t at) {
  const DataType boolean = DataType::boolean();
  auto null_as_zero = [&](const BoundExpr& x) {
    BoundExpr zero = make_constant(x.type, at);  // 0 in every compute class
    BoundExpr value = node(Op::Select, x.type, {node(Op::IsNull, boolean, {x}, at), std::move(zero), x}, at);
    value.dictionary = x.dictionary;
    return value;
  };
  const BoundExpr& a = equal.children[0];
  const BoundExpr& b = equal.children[1];
  std::vector<BoundExpr> parts;
  parts.push_back(
      node(Op::Eq, boolean, {node(Op::IsNull, boolean, {a}, at), node(Op::IsNull, boolean, {b}, at)}, at));
  parts.push_back(node(Op::Eq, boolean, {null_as_zero(a), null_as_zero(b)}, at));
  return parts;
}

class ExpressionBinder {
 public:
  explicit ExpressionBinder(Scope& scope) : scope_(scope) {}

  BoundExpr bind(const ast::Expr& e) {
    if (auto handled = scope_.intercept(e)) return std::move(*handled);
    switch (e.kind) {
      case ExprKind::Literal: return bind_literal(e);
      case ExprKind::Column: return scope_.column(e);
      case ExprKind::Star:
        throw Error(ErrorKind::Binder, "* is only allowed in the select list and COUNT(*)", e.offset);
      case ExprKind::Unary: return bind_unary(e);
      case ExprKind::Binary: return bind_binary(e);
      case ExprKind::Function: return bind_function(e);
      case ExprKind::Between: return bind_between(e);
      case ExprKind::InList: return bind_in(e);
      case ExprKind::Like: return bind_like(e);
      case ExprKind::IsNull: {
        BoundExpr operand = bind(*e.args[0]);
        return node(e.negated ? Op::IsNotNull : Op::IsNull, DataType::boolean(), {std::move(operand)}, e.offset);
      }
      case ExprKind::Cast: {
        // CAST(... AS VARCHAR) builds its strings from one column's values
        // (cast_to_varchar()): a LIKE inside it reads its column encoded, as
        // it would once any statement had encoded it -- not row by row.
        const int to_varchar = data_type_from_name(e.cast_type).id == Type::Varchar;
        struct Within {
          int& depth;
          int by;
          ~Within() { depth -= by; }
        } within{encode_plain_ += to_varchar, to_varchar};
        return bind_cast(e, bind(*e.args[0]));
      }
      case ExprKind::Case: return bind_case(e);
      case ExprKind::Extract: return bind_extract(e);
      case ExprKind::Subquery:
      case ExprKind::Exists: return scope_.subquery(e);
      case ExprKind::InSubquery:
        if (e.args[0]->kind == ExprKind::Row) return bind(scope_.rewritten(e));
        return scope_.in_subquery(e, bind(*e.args[0]));
      case ExprKind::Quantified: return bind(scope_.rewritten(e));
      case ExprKind::Row:
        throw Error(ErrorKind::NotSupported,
                    "not supported yet: a row value (a, b, ...) other than compared with one or IN", e.offset);
    }
    throw Error(ErrorKind::Binder, "unsupported expression", e.offset);
  }

  BoundExpr bind_boolean(const ast::Expr& e, const char* what) {
    BoundExpr b = bind(e);
    if (is_untyped_null(b)) return retype_null(std::move(b), DataType::boolean());
    if (b.type.id != Type::Boolean)
      throw Error(ErrorKind::Binder, std::string(what) + " must be a boolean expression, not " + b.type.to_string(),
                  e.offset);
    return b;
  }

  // `a op b` for two bound operands; `offset` for errors on the right side.
  BoundExpr compare(Op op, BoundExpr a, BoundExpr b, std::size_t at, std::size_t right_offset) {
    if (is_untyped_null(a) && !is_untyped_null(b)) a = retype_null(std::move(a), b.type);
    if (is_untyped_null(b) && !is_untyped_null(a)) b = retype_null(std::move(b), a.type);
    auto mismatch = [&]() -> BoundExpr {
      throw Error(ErrorKind::Binder,
                  "Cannot compare values of type " + a.type.to_string() + " and " + b.type.to_string(),
                  right_offset);
    };
    bool a_str = a.type.id == Type::Varchar && !a.is_null_constant();
    bool b_str = b.type.id == Type::Varchar && !b.is_null_constant();
    // A string literal compared with a DATE is a DATE.
    if (a.type.id == Type::Date && b_str && b.op == Op::Constant)
      b = int_constant(parse_date_or_throw(b.text, b.offset), b.offset, DataType::date()), b_str = false;
    if (b.type.id == Type::Date && a_str && a.op == Op::Constant)
      a = int_constant(parse_date_or_throw(a.text, a.offset), a.offset, DataType::date()), a_str = false;
    // A string compared with NULL is NULL, whatever the string.
    if ((a_str && b.is_null_constant()) || (b_str && a.is_null_constant())) return null_constant(DataType::boolean(), at);
    if (a_str || b_str) {
      if (!(a_str && b_str)) return mismatch();
      return string_comparison(op, std::move(a), std::move(b), at);
    }
    bool a_bool = a.type.id == Type::Boolean, b_bool = b.type.id == Type::Boolean;
    bool a_date = a.type.id == Type::Date, b_date = b.type.id == Type::Date;
    if (a_bool != b_bool || a_date != b_date) return mismatch();
    if (!a_bool && !a_date) unify_numeric(a, b, /*for_comparison=*/true);
    return node(op, DataType::boolean(), {std::move(a), std::move(b)}, at);
  }

 private:
  Scope& scope_;
  int encode_plain_ = 0;  // inside CAST(... AS VARCHAR): a LIKE reads plain strings encoded

  BoundExpr bind_literal(const ast::Expr& e) {
    const ast::Literal& l = e.literal;
    switch (l.kind) {
      case ast::Literal::Kind::Null: {
        BoundExpr n = null_constant(DataType::integer(), e.offset);
        n.text = "NULL";  // marks the untyped NULL literal
        return n;
      }
      case ast::Literal::Kind::Boolean: return bool_constant(l.boolean, e.offset);
      case ast::Literal::Kind::Integer: return int_constant(l.integer, e.offset);
      case ast::Literal::Kind::Number: {
        // Without an exponent it is exact: DECIMAL (as in DuckDB and
        // PostgreSQL), a whole number past BIGINT DECIMAL(p, 0) (DuckDB's
        // HUGEINT, exact in the same 128 bits); more digits than DuckDB's 38
        // make it a DOUBLE.
        int digits = 0;
        for (char c : l.text) digits += c >= '0' && c <= '9';
        if (l.text.find_first_of("eE") == std::string::npos && digits <= 38) return decimal_literal(l.text, e.offset);
        double d = 0;
        auto [end, ec] = std::from_chars(l.text.data(), l.text.data() + l.text.size(), d);
        if (ec == std::errc::result_out_of_range || !std::isfinite(d))
          throw Error(ErrorKind::Conversion, "number \"" + l.text + "\" is out of range for DOUBLE", e.offset);
        if (ec != std::errc() || end != l.text.data() + l.text.size())
          throw Error(ErrorKind::Conversion, "could not read number \"" + l.text + "\"", e.offset);
        return double_constant(d, e.offset);
      }
      case ast::Literal::Kind::String: {
        BoundExpr c = make_constant(DataType::varchar(), e.offset);
        c.text = l.text;
        return c;
      }
      case ast::Literal::Kind::Date:
        return int_constant(parse_date_or_throw(l.text, e.offset), e.offset, DataType::date());
      case ast::Literal::Kind::Interval:
        throw Error(ErrorKind::Binder, "an INTERVAL can only be added to or subtracted from a DATE", e.offset);
    }
    return null_constant(DataType::integer(), e.offset);
  }

  BoundExpr bind_unary(const ast::Expr& e) {
    BoundExpr operand = bind(*e.args[0]);
    if (e.unary_op == ast::UnaryOp::Not) {
      if (is_untyped_null(operand)) operand = retype_null(std::move(operand), DataType::boolean());
      if (operand.type.id != Type::Boolean)
        throw Error(ErrorKind::Binder, "NOT needs a BOOLEAN operand, not " + operand.type.to_string(), e.offset);
      return node(Op::Not, DataType::boolean(), {std::move(operand)}, e.offset);
    }
    if (!is_number(operand.type))
      throw Error(ErrorKind::Binder, "cannot negate a value of type " + operand.type.to_string(), e.offset);
    // A minus before a literal is part of the literal: -2147483648 is an INTEGER.
    if (operand.op == Op::Constant && !operand.constant.null_constant) {
      if (operand.type.is_floating()) {
        operand.constant.value.d = -operand.constant.value.d;
        operand.offset = e.offset;
        return operand;
      }
      if (operand.constant.value.i != std::numeric_limits<int64_t>::min())
        return int_constant(-operand.constant.value.i, e.offset,
                            operand.type.id == Type::Decimal ? operand.type : DataType{});
    }
    DataType type = operand.type.is_floating() || operand.type.id == Type::Decimal ? operand.type : DataType::bigint();
    return node(Op::Negate, type, {std::move(operand)}, e.offset);
  }

  // DATE ± INTERVAL 'n' unit
  BoundExpr bind_interval_arithmetic(const ast::Expr& e, BoundExpr date) {
    const ast::Expr& interval = *e.args[1];
    if (date.type.id != Type::Date)
      throw Error(ErrorKind::Binder, "an INTERVAL can only be added to or subtracted from a DATE, not " +
                                         date.type.to_string(), e.args[0]->offset);
    if (e.binary_op != ast::BinaryOp::Add && e.binary_op != ast::BinaryOp::Sub)
      throw Error(ErrorKind::Binder, "an INTERVAL can only be added or subtracted", e.offset);
    int64_t n = 0;
    const std::string& text = interval.literal.text;
    auto [end, ec] = std::from_chars(text.data() + (text.size() && text[0] == '+'), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size())
      throw Error(ErrorKind::Conversion, "invalid INTERVAL \"" + text + "\": expected a whole number", interval.offset);
    if (e.binary_op == ast::BinaryOp::Sub) n = -n;
    const std::string& unit = interval.literal.unit;
    BoundExpr sum;
    if (unit == "day") {
      sum = node(Op::Add, DataType::date(), {std::move(date), int_constant(n, interval.offset)}, e.offset);
    } else if (unit == "month" || unit == "year") {
      // Past kMaxMonthSpan no DATE is in reach: the evaluator's range error.
      int64_t months = unit == "month" ? n : std::clamp<int64_t>(n, -kMaxMonthSpan, kMaxMonthSpan) * 12;
      sum = node(Op::AddMonths, DataType::date(), {std::move(date), int_constant(months, interval.offset)}, e.offset);
    } else {
      throw Error(ErrorKind::Binder, "unsupported INTERVAL unit " + unit, interval.offset);
    }
    return checked_date(std::move(sum));
  }

  // DATE arithmetic's result, checked against the DATE range when it runs.
  static BoundExpr checked_date(BoundExpr date) {
    std::size_t offset = date.offset;
    return node(Op::CheckDate, DataType::date(), {std::move(date)}, offset);
  }

  BoundExpr bind_binary(const ast::Expr& e) {
    using B = ast::BinaryOp;
    const ast::Expr& right_ast = *e.args[1];
    if (right_ast.kind == ExprKind::Literal && right_ast.literal.kind == ast::Literal::Kind::Interval)
      return bind_interval_arithmetic(e, bind(*e.args[0]));
    if (e.binary_op == B::Concat) return bind_concat(e);
    Op op = to_op(e.binary_op);
    if (e.binary_op == B::Or)
      if (std::optional<BoundExpr> in = equality_chain_membership(e)) return std::move(*in);
    if (e.binary_op == B::And || e.binary_op == B::Or) {
      BoundExpr a = bind_boolean(*e.args[0], e.binary_op == B::And ? "AND operand" : "OR operand");
      BoundExpr b = bind_boolean(*e.args[1], e.binary_op == B::And ? "AND operand" : "OR operand");
      return node(op, DataType::boolean(), {std::move(a), std::move(b)}, e.offset);
    }
    if (is_comparison(op) && (e.args[0]->kind == ExprKind::Row || right_ast.kind == ExprKind::Row))
      row_mismatch(*e.args[0], right_ast);
    BoundExpr a = bind(*e.args[0]);
    BoundExpr b = bind(right_ast);
    if (is_comparison(op)) return compare(op, std::move(a), std::move(b), e.offset, right_ast.offset);
    return arithmetic(e, op, std::move(a), std::move(b));
  }

  // A row value the parser did not expand (ast::make_row_comparison()):
  // compared with something other than a row of as many values.
  [[noreturn]] static void row_mismatch(const ast::Expr& a, const ast::Expr& b) {
    if (a.kind != ExprKind::Row || b.kind != ExprKind::Row)
      throw Error(ErrorKind::Binder, "a row value compares only with a row value",
                  (a.kind == ExprKind::Row ? b : a).offset);
    throw Error(ErrorKind::Binder,
                "cannot compare a row value of " + std::to_string(a.args.size()) + " values with one of " +
                    std::to_string(b.args.size()),
                b.offset);
  }

  BoundExpr arithmetic(const ast::Expr& e, Op op, BoundExpr a, BoundExpr b) {
    // Beside a DATE an untyped NULL is a number of days.
    if (is_untyped_null(a) && b.type.id == Type::Date) a = retype_null(std::move(a), DataType::integer());
    if (is_untyped_null(b) && a.type.id == Type::Date) b = retype_null(std::move(b), DataType::integer());
    if (is_untyped_null(a) && !is_untyped_null(b)) a = retype_null(std::move(a), b.type);
    if (is_untyped_null(b) && !is_untyped_null(a)) b = retype_null(std::move(b), a.type);
    auto type_error = [&]() -> BoundExpr {
      throw Error(ErrorKind::Binder,
                  "cannot apply " + op_name(e.binary_op) + " to " + a.type.to_string() + " and " + b.type.to_string(),
                  e.args[1]->offset);
    };
    // DATE arithmetic: DATE ± days, DATE - DATE.
    if (a.type.id == Type::Date || b.type.id == Type::Date) {
      if (a.type.id == Type::Date && b.type.is_integral() && b.type.id != Type::Boolean && (op == Op::Add || op == Op::Sub))
        return checked_date(node(op, DataType::date(), {std::move(a), std::move(b)}, e.offset));
      if (b.type.id == Type::Date && a.type.is_integral() && a.type.id != Type::Boolean && op == Op::Add)
        return checked_date(node(op, DataType::date(), {std::move(b), std::move(a)}, e.offset));
      if (a.type.id == Type::Date && b.type.id == Type::Date && op == Op::Sub)
        return node(op, DataType::bigint(), {std::move(a), std::move(b)}, e.offset);
      return type_error();
    }
    if (!is_number(a.type) || !is_number(b.type)) return type_error();
    if (a.type.is_floating() || b.type.is_floating()) {
      // DOUBLE, or REAL rounded back to 32 bits after the operation (an
      // infinity past its range, as DuckDB's float arithmetic gives).
      unify_numeric(a, b);
      DataType type = a.type;
      BoundExpr r = node(op, DataType::double_(), {std::move(a), std::move(b)}, e.offset);
      return type.id == Type::Real ? node(Op::RoundToReal, type, {std::move(r)}, e.offset) : r;
    }
    if (a.type.id != Type::Decimal && b.type.id != Type::Decimal)
      return node(op, DataType::bigint(), {std::move(a), std::move(b)}, e.offset);
    // DuckDB binds DECIMAL + - * % beside a NULL constant (typed or not) as
    // an untyped NULL, which takes its type from the context (a CASE's other
    // branches, say); so do we.
    if (op != Op::Div && (a.is_null_constant() || b.is_null_constant())) {
      BoundExpr n = null_constant(DataType::integer(), e.offset);
      n.text = "NULL";  // the untyped NULL literal's mark
      return n;
    }
    // Exact DECIMAL arithmetic with DuckDB's result types; division is DOUBLE.
    DecimalShape x = *decimal_shape(a.type), y = *decimal_shape(b.type);
    int scale = std::max(x.scale, y.scale);
    int whole = std::max(x.precision - x.scale, y.precision - y.scale);
    // With a 128-bit operand (a SUM) the arithmetic is 128-bit, its types
    // capped at 38 digits; the evaluator fails a result past them.
    const bool wide = is_wide(a) || is_wide(b);
    // DuckDB's % of DECIMALs whose common type would need more than 38
    // digits is a DOUBLE (fmod).
    if (op == Op::Div || (op == Op::Mod && wide && whole + scale > DataType::kMaxDecimalDigits)) {
      a = to_double(std::move(a));
      b = to_double(std::move(b));
      return node(op, DataType::double_(), {std::move(a), std::move(b)}, e.offset);
    }
    // * keeps each operand's scale; + - % bring both to the larger one.
    const bool product = op == Op::Mul;
    int width = product ? x.precision + y.precision : whole + scale + (op == Op::Mod ? 0 : 1);
    DataType type = decimal_type(width, product ? x.scale + y.scale : scale, e.offset, wide);
    a = to_decimal(std::move(a), product ? x.scale : scale, false, wide);
    b = to_decimal(std::move(b), product ? y.scale : scale, false, wide);
    BoundExpr result = node(op, type, {std::move(a), std::move(b)}, e.offset);
    return wide ? result : capped_decimal(std::move(result), width, x, y);
  }

  // DuckDB keeps a result of 64-bit DECIMALs that would be wider than 18
  // digits a DECIMAL(18), with an overflow error past 18 digits; so do we.
  // (Wider operands make DuckDB compute in 128 bits: we stay exact or fail.)
  static BoundExpr capped_decimal(BoundExpr result, int width, DecimalShape x, DecimalShape y) {
    if (width <= kMaxDecimalDigits || std::max(x.precision, y.precision) > kMaxDecimalDigits) return result;
    std::size_t offset = result.offset;
    DataType type = result.type;
    return node(Op::CheckDecimal, type, {std::move(result), int_constant(pow10(kMaxDecimalDigits), offset)}, offset);
  }

  // Comparisons of VARCHAR run on dictionary codes: a literal becomes a code
  // bound in the column's sorted dictionary.
  BoundExpr string_comparison(Op op, BoundExpr left, BoundExpr right, std::size_t offset) {
    bool l_const = left.op == Op::Constant, r_const = right.op == Op::Constant;
    if (l_const && r_const) {
      int c = left.text.compare(right.text);
      bool r = op == Op::Eq ? c == 0 : op == Op::Ne ? c != 0 : op == Op::Lt ? c < 0 : op == Op::Le ? c <= 0
                                                                        : op == Op::Gt ? c > 0 : c >= 0;
      return bool_constant(r, offset);
    }
    if (l_const) return string_comparison(mirrored(op), std::move(right), std::move(left), offset);
    if (!r_const) {
      if (!left.dictionary || !right.dictionary)
        throw Error(ErrorKind::NotSupported, "not supported yet: comparing a computed VARCHAR value", offset);
      if (left.dictionary != right.dictionary) {
        auto common = common_dictionary({&left, &right});
        left = recode(std::move(left), common);
        right = recode(std::move(right), common);
      }
      return node(op, DataType::boolean(), {std::move(left), std::move(right)}, offset);
    }
    if (!left.dictionary)
      throw Error(ErrorKind::NotSupported, "not supported yet: comparing a computed VARCHAR value", offset);
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
    BoundExpr bound = int_constant(code, right.offset, DataType::bigint());
    return node(op, DataType::boolean(), {std::move(left), std::move(bound)}, offset);
  }

  // x [NOT] BETWEEN lo AND hi  ==  [NOT] (x >= lo AND x <= hi)
  // DuckDB compares all three in their common type: where one is a DOUBLE or
  // REAL, so are the others (x - 7 BETWEEN x AND 1.5e30 differs from two
  // exact comparisons where x - 7 and x are the same DOUBLE). Between exact
  // types the common type changes no comparison.
  BoundExpr bind_between(const ast::Expr& e) {
    BoundExpr x = bind(*e.args[0]), lo = bind(*e.args[1]), hi = bind(*e.args[2]);
    if (is_number(x.type) && is_number(lo.type) && is_number(hi.type) &&
        (x.type.is_floating() || lo.type.is_floating() || hi.type.is_floating())) {
      const DataType common = common_numeric_type(common_numeric_type(x.type, lo.type, e.offset), hi.type, e.offset);
      x = to_numeric(std::move(x), common);
      lo = to_numeric(std::move(lo), common);
      hi = to_numeric(std::move(hi), common);
    }
    BoundExpr low = compare(Op::Ge, x, std::move(lo), e.offset, e.args[1]->offset);
    BoundExpr high = compare(Op::Le, std::move(x), std::move(hi), e.offset, e.args[2]->offset);
    BoundExpr both = node(Op::And, DataType::boolean(), {std::move(low), std::move(high)}, e.offset);
    return e.negated ? node(Op::Not, DataType::boolean(), {std::move(both)}, e.offset) : both;
  }

  // x [NOT] IN (a, b, ...)  ==  [NOT] (x = a OR x = b OR ...), with SQL's
  // NULLs. A list longer than kOrChainValues of constants x's comparisons
  // take as they are (x not cast) is one search in the sorted values instead
  // (set_membership.hpp): binding and evaluation stay linear in its length,
  // and the expression stays shallow.
  static constexpr std::size_t kOrChainValues = 16;
  // Branches of a searched CASE, each a level of the bound tree: recursion
  // over 80,000 overflowed an 8 MB stack (10,000 leave room under ASan).
  static constexpr std::size_t kMaxCaseChain = 10000;

  BoundExpr bind_in(const ast::Expr& e) {
    for (std::size_t i = 1; i < e.args.size(); ++i)
      if ((e.args[0]->kind == ExprKind::Row || e.args[i]->kind == ExprKind::Row) &&
          !ast::rows_comparable(*e.args[0], *e.args[i]))
        row_mismatch(*e.args[0], *e.args[i]);
    BoundExpr x = bind(*e.args[0]);
    if (e.args.size() - 1 > kOrChainValues)
      if (std::optional<BoundExpr> in = constant_set_membership(e, x))
        return e.negated ? node(Op::Not, DataType::boolean(), {std::move(*in)}, e.offset) : std::move(*in);
    std::optional<BoundExpr> any;
    for (std::size_t i = 1; i < e.args.size(); ++i) {
      BoundExpr eq = compare(Op::Eq, x, bind(*e.args[i]), e.offset, e.args[i]->offset);
      if (!any) {
        any = std::move(eq);
        continue;
      }
      std::vector<BoundExpr> both;  // moved, not copied from an initializer list: linear in the chain
      both.push_back(std::move(*any));
      both.push_back(std::move(eq));
      any = node(Op::Or, DataType::boolean(), std::move(both), e.offset);
    }
    if (!any) throw Error(ErrorKind::Binder, "IN needs at least one value", e.offset);
    return e.negated ? node(Op::Not, DataType::boolean(), {std::move(*any), }, e.offset) : std::move(*any);
  }

  // An OR of more than kOrChainValues comparisons `x = constant` of one x
  // (an IN list written out): the same set search, whose answer and NULLs
  // are the chain's. nullopt where a term is of another shape, compares
  // another x, or takes x another way (x = 1 OR x = 2.5).
  std::optional<BoundExpr> equality_chain_membership(const ast::Expr& e) {
    std::vector<const ast::Expr*> terms;
    const ast::Expr* rest = &e;
    for (; rest->kind == ExprKind::Binary && rest->binary_op == ast::BinaryOp::Or; rest = rest->args[0].get())
      terms.push_back(rest->args[1].get());
    terms.push_back(rest);
    if (terms.size() <= kOrChainValues) return std::nullopt;
    for (const ast::Expr* term : terms)
      if (term->kind != ExprKind::Binary || term->binary_op != ast::BinaryOp::Eq) return std::nullopt;
    std::optional<BoundExpr> searched;
    std::vector<int64_t> keys;
    std::vector<double> doubles;
    bool has_null = false;
    for (const ast::Expr* term : terms) {
      BoundExpr eq = bind(*term);
      if (eq.is_null_constant()) {
        has_null = true;
        continue;
      }
      if (eq.op != Op::Eq || eq.children.size() != 2) return std::nullopt;
      const int side = eq.children[1].op == Op::Constant ? 1 : eq.children[0].op == Op::Constant ? 0 : -1;
      if (side < 0) return std::nullopt;
      const BoundExpr& key = eq.children[side];
      const BoundExpr& x = eq.children[1 - side];
      if (!searched) searched = x;
      else if (!same_expression(x, *searched)) return std::nullopt;
      if (key.is_null_constant()) has_null = true;
      else if (key.type.storage() == Type::Double) doubles.push_back(key.constant.value.d);
      else keys.push_back(key.constant.value.i);
    }
    if (!searched) return std::nullopt;
    return set_search(std::move(*searched), std::move(keys), std::move(doubles), has_null, e.offset);
  }

  // x IN (the keys, or the doubles) as one search, or nullopt where x is no
  // value a set search takes (BOOLEAN, REAL, a wide DECIMAL) or the values
  // are of the other kind.
  static std::optional<BoundExpr> set_search(BoundExpr searched, std::vector<int64_t> keys, std::vector<double> doubles,
                                             bool has_null, std::size_t at) {
    const Type type = searched.type.storage();
    if (type == Type::Double && keys.empty())
      return sorted_double_set_membership(std::move(searched), std::move(doubles), has_null, at);
    if ((type == Type::Integer || type == Type::BigInt || type == Type::Date || type == Type::Decimal ||
         (type == Type::Varchar && searched.dictionary)) &&
        doubles.empty())
      return sorted_set_membership(std::move(searched), std::move(keys), has_null, at);
    return std::nullopt;
  }

  // `x IN (the list's values)` as a set search, or nullopt where a value is
  // no constant or the values compare no 64-bit integers or doubles
  // (BOOLEAN, a wide DECIMAL). As in DuckDB, x and every value are taken in
  // the one type that holds them all: a value that casts x (2.5 an INTEGER
  // x) makes that cast x the value searched for, and the values are bound
  // again against it (a few rounds at most: each widens the type). NULL
  // values make a miss NULL.
  std::optional<BoundExpr> constant_set_membership(const ast::Expr& e, const BoundExpr& x) {
    constexpr int kRounds = 4;
    BoundExpr searched = x;
    for (int round = 0; round < kRounds; ++round) {
      std::vector<int64_t> keys;
      std::vector<double> doubles;
      bool has_null = false, widened = false;
      for (std::size_t i = 1; i < e.args.size() && !widened; ++i) {
        const ast::Expr& value = *e.args[i];
        BoundExpr eq = compare(Op::Eq, searched, bind(value), e.offset, value.offset);
        if (eq.is_null_constant()) {
          has_null = true;
          continue;
        }
        if (eq.op != Op::Eq || eq.children.size() != 2) return std::nullopt;
        if (!same_expression(eq.children[0], searched)) {
          searched = std::move(eq.children[0]);
          widened = true;
          continue;
        }
        const BoundExpr& key = eq.children[1];
        if (key.op != Op::Constant) return std::nullopt;
        if (key.is_null_constant()) {
          has_null = true;
          continue;
        }
        if (key.type.storage() == Type::Double) doubles.push_back(key.constant.value.d);
        else keys.push_back(key.constant.value.i);
      }
      if (widened) continue;
      return set_search(std::move(searched), std::move(keys), std::move(doubles), has_null, e.offset);
    }
    return std::nullopt;
  }

  // LIKE on a VARCHAR column: the pattern is matched once against every
  // dictionary entry; rows then look their code up in the resulting table.
  BoundExpr bind_like(const ast::Expr& e) {
    std::optional<BoundExpr> plain;
    if (e.args[0]->kind == ExprKind::Column && !encode_plain_) plain = scope_.plain_strings_column(*e.args[0]);
    BoundExpr x = plain ? *plain : bind(*e.args[0]);
    BoundExpr pattern = bind(*e.args[1]);
    if (x.type.id != Type::Varchar || pattern.type.id != Type::Varchar)
      throw Error(ErrorKind::Binder, "LIKE needs VARCHAR operands, not " + x.type.to_string() + " and " +
                                         pattern.type.to_string(), e.offset);
    if (pattern.op != Op::Constant)
      throw Error(ErrorKind::NotSupported, "not supported yet: LIKE with a pattern that is not a constant",
                  e.args[1]->offset);
    BoundExpr result;
    if (plain) {
      result = like_plain_strings(std::move(x), pattern.text, e.offset, scope_.device_like());
    } else if (x.op == Op::Constant) {
      result = bool_constant(like_match(x.text, pattern.text), e.offset);
    } else {
      if (!x.dictionary) throw Error(ErrorKind::NotSupported, "not supported yet: LIKE on a computed value", e.offset);
      // Kept with the dictionary: a query run again matches its entries once.
      const Dictionary& dictionary = *x.dictionary;
      std::shared_ptr<const LookupTable> table = dictionary.derived<LookupTable>("LIKE " + pattern.text, [&] {
        LookupTable matches;
        matches.entries = dictionary.size();
        matches.bytes = like_matches(dictionary.values, pattern.text);
        matches.true_entries = static_cast<uint64_t>(
            std::count_if(matches.bytes.begin(), matches.bytes.end(), [](uint8_t b) { return b != 0; }));
        return matches;
      });
      result = node(Op::Lookup, DataType::boolean(), {std::move(x)}, e.offset);
      result.lookup = std::move(table);
    }
    return e.negated ? node(Op::Not, DataType::boolean(), {std::move(result)}, e.offset) : result;
  }

  // LIKE on a column of plain strings no statement has encoded: the pattern
  // is matched against each row's string once (kept with the table), and
  // rows look their rowid up in the result -- no dictionary is made. A row
  // whose string is NULL reads NULL. Strings that live on the device alone
  // are matched there (`device_like`), never fetched.
  static BoundExpr like_plain_strings(BoundExpr x, const std::string& pattern, std::size_t at,
                                      const SubqueryRunner::DeviceLike* device_like) {
    const Table& table = *x.domain;
    const auto c = static_cast<std::size_t>(x.domain_column);
    const DeviceColumn* on_device = table.device && !table.has_host_copy(c) ? &table.device->columns[c] : nullptr;
    if (on_device && (!on_device->plain_strings() || !device_like || !*device_like)) on_device = nullptr;
    // The strings, fetched from the device for a table that lives there
    // alone, once for both lookups below and only when neither is made yet.
    HostColumn fetched;
    const HostColumn* strings = nullptr;
    auto column = [&]() -> const HostColumn& {
      if (!strings) strings = &table.read_column(c, fetched);
      return *strings;
    };
    auto rowid_lookup = [&](std::shared_ptr<const LookupTable> values, bool like) {
      BoundExpr rowid;
      rowid.op = Op::Column;
      rowid.type = DataType::bigint();
      rowid.column = x.column - x.domain_column + static_cast<int>(table.columns.size());
      rowid.offset = x.offset;
      BoundExpr lookup = node(Op::Lookup, DataType::boolean(), {std::move(rowid)}, at);
      lookup.lookup = std::move(values);
      if (like) lookup.text = "LIKE:" + table.columns[c].name;  // EXPLAIN's name for it
      return lookup;
    };
    auto matches = table.derived<LookupTable>("LIKE " + std::to_string(c) + " " + pattern, [&] {
      LookupTable t;
      t.entries = table.rows;
      if (on_device) {
        t.bytes = (*device_like)(table, c, pattern);
      } else {
        const HostColumn& values = column();
        t.bytes = like_matches(*values.strings, pattern);
        for (std::size_t row = 0; row < values.size; ++row) t.bytes[row] &= values.is_valid(row);
      }
      t.true_entries = static_cast<uint64_t>(std::count(t.bytes.begin(), t.bytes.end(), uint8_t{1}));
      return t;
    });
    BoundExpr result = rowid_lookup(std::move(matches), true);
    if (table.null_count(c) == 0) return result;
    auto nulls = table.derived<LookupTable>("NULL " + std::to_string(c), [&] {
      LookupTable t;
      t.entries = table.rows;
      t.bytes.resize(table.rows);
      if (on_device) {
        const std::vector<uint32_t> validity = download_validity(*on_device, table.rows);
        for (std::size_t row = 0; row < validity.size() * 32 && row < table.rows; ++row)
          t.bytes[row] = !((validity[row / 32] >> (row % 32)) & 1u);
      } else {
        const HostColumn& values = column();
        for (std::size_t row = 0; row < values.size; ++row) t.bytes[row] = !values.is_valid(row);
      }
      t.true_entries = static_cast<uint64_t>(std::count(t.bytes.begin(), t.bytes.end(), uint8_t{1}));
      return t;
    });
    return node(Op::Select, DataType::boolean(), {rowid_lookup(std::move(nulls), false), null_constant(DataType::boolean(), at),
                                                  std::move(result)},
                at);
  }

  BoundExpr bind_cast(const ast::Expr& e, BoundExpr v) {
    DataType target = data_type_from_name(e.cast_type);
    std::size_t at = e.offset;
    if (v.is_null_constant()) return retype_null(std::move(v), target);
    if (v.type == target) return v;
    if (v.op == Op::Constant && v.type.id == Type::Varchar && target.id != Type::Varchar) {
      // A string literal cast: parse it now.
      std::byte raw[16] = {};
      ParseResult r = cast_text(v.text, target, raw);
      if (r != ParseResult::Ok) throw Error(ErrorKind::Conversion, conversion_message(v.text, target, r, '\''), v.offset);
      if (target.is_wide_decimal()) return wide_constant(load_wide(raw, 0), target, at);
      Slot value = load_raw(raw, target.id, 0);
      BoundExpr c = make_constant(target, at);
      c.constant.value.i = value.i;
      return c;
    }
    if (v.type.id == Type::Varchar && target.id != Type::Varchar) {
      if (!v.dictionary)
        throw Error(ErrorKind::NotSupported, "not supported yet: CAST from a computed VARCHAR value", at);
      return varchar_cast(std::move(v), target, at);
    }
    auto unsupported = [&]() -> BoundExpr {
      throw Error(ErrorKind::NotSupported,
                  "not supported yet: CAST from " + v.type.to_string() + " to " + target.to_string(), at);
    };
    auto retyped = [&](BoundExpr x, DataType type) {
      x.type = type;
      return x;
    };
    switch (target.id) {
      case Type::Double:
        if (!is_number(v.type) && v.type.id != Type::Boolean) return unsupported();
        return to_double(std::move(v));
      case Type::Real:
        if (!is_number(v.type) && v.type.id != Type::Boolean) return unsupported();
        return to_real(std::move(v));
      case Type::Integer:
      case Type::BigInt: {
        BoundExpr wide;
        if (v.type.id == Type::Boolean || v.type.is_integral()) {
          wide = retyped(std::move(v), DataType::bigint());
        } else if (is_wide(v)) {  // rounded half away from zero, then in BIGINT's range
          int scale = v.type.scale;
          if (scale > 0)
            v = node(Op::DivRound, decimal_type(v.type.precision, 0, at, /*wide=*/true),
                     {std::move(v), int_constant(pow10(scale), at)}, at);
          wide = node(Op::CheckInt64, DataType::bigint(), {std::move(v)}, at);
        } else if (v.type.id == Type::Decimal) {  // rounded half away from zero, as DuckDB
          int scale = v.type.scale;
          wide = scale == 0 ? retyped(std::move(v), DataType::bigint())
                            : node(Op::DivRound, DataType::bigint(), {std::move(v), int_constant(pow10(scale), at)}, at);
        } else if (v.type.is_floating()) {  // rounded half to even, as DuckDB
          wide = node(Op::ToInt, DataType::bigint(), {std::move(v)}, at);
        } else {
          return unsupported();
        }
        if (target.id == Type::BigInt) return wide;
        return node(Op::CheckInt32, DataType::integer(), {std::move(wide)}, at);
      }
      case Type::Decimal: {
        BoundExpr d;
        int whole = 0;  // digits before the point the source can have
        // A BOOLEAN as the DECIMAL(1,0) 0 or 1. (DuckDB 1.5 gives TRUE as
        // the unscaled 1 where the type has no digit before the point:
        // CAST(TRUE AS DECIMAL(3,3)) is .001 there, a failing CAST here.)
        if (v.type.id == Type::Boolean) v = retyped(std::move(v), DataType{Type::Decimal, 1, 0});
        if (v.type.is_floating()) {
          // DuckDB: the double times 10^scale, rounded half away from zero.
          BoundExpr scaled = node(Op::Mul, DataType::double_(),
                                  {to_double(std::move(v)), double_constant(static_cast<double>(pow10(target.scale)), at)}, at);
          const bool wide = target.is_wide_decimal();
          d = node(wide ? Op::ToWideHalfAway : Op::ToIntHalfAway,
                   wide ? decimal_type(DataType::kMaxDecimalDigits, target.scale, at, true) : target, {std::move(scaled)},
                   at);
          whole = DataType::kMaxDecimalDigits + 1;
        } else if (auto shape = decimal_shape(v.type)) {
          whole = shape->precision - shape->scale;
          if (target.scale >= shape->scale) {  // a value past int64 saturates: the check below fails it
            d = to_decimal(std::move(v), target.scale, /*saturate=*/true, target.is_wide_decimal());
          } else {  // fewer digits after the point: rounded half away from zero
            // Rounding may carry into one more digit (99.99 -> 100).
            ++whole;
            // A 128-bit value stays 128-bit until the check below narrows it;
            // into a 128-bit target a 64-bit one is widened first (a 64-bit
            // step typed 128-bit would leave its upper word unset).
            if (target.is_wide_decimal()) v = widen(std::move(v));
            DataType step = is_wide(v) ? decimal_type(v.type.precision, target.scale, at, /*wide=*/true) : target;
            d = node(Op::DivRound, step, {std::move(v), int_constant(pow10(shape->scale - target.scale), at)}, at);
          }
        } else {
          return unsupported();
        }
        // Retyping a 128-bit value as a 64-bit DECIMAL would read its lower
        // word alone: it goes through the check, which narrows it.
        const bool check = is_wide(d) || whole > target.precision - target.scale;
        if (!check) {
          d.type = target;
          return d;
        }
        BoundExpr bound = wide_constant(wide_power_of_ten(target.precision),
                                        decimal_type(target.precision + 1, 0, at, target.is_wide_decimal()), at);
        return node(Op::CheckPrecision, target, {std::move(d), std::move(bound)}, at);
      }
      case Type::Boolean:
        // Not zero (a NaN is TRUE, -0.0 FALSE, as in DuckDB).
        if (v.type.is_floating())
          return node(Op::Ne, DataType::boolean(), {to_double(std::move(v)), double_constant(0.0, at)}, at);
        if (!v.type.is_integral() && v.type.id != Type::Decimal) return unsupported();
        return node(Op::Ne, DataType::boolean(), {std::move(v), int_constant(0, at)}, at);
      case Type::Varchar: {
        v = fold_constants(std::move(v));
        if (v.op == Op::Constant) {  // printed now, as the result would print it
          Slot s{};
          s.valid = true;
          if (v.type.is_floating()) s.d = v.constant.value.d;
          else s.i = v.constant.value.i;
          std::byte raw[16] = {};
          store_value(raw, v.type.storage(), 0, s, s.i >> 63);  // a 128-bit constant holds 64 bits, sign-extended
          BoundExpr c = make_constant(DataType::varchar(), at);
          c.text = format_cast_text(v.type, raw, 0);
          return c;
        }
        if (auto codes = cast_to_varchar(v)) return std::move(*codes);
        throw Error(ErrorKind::NotSupported,
                    "not supported yet: CAST to VARCHAR of a value that does not come from one table column (an "
                    "aggregate, several columns, or a NULL that would become a string)",
                    at);
      }
      default: return unsupported();
    }
  }

  // CAST of a VARCHAR column: each dictionary entry parsed once (as a
  // literal would be), rows look their code up. An entry that does not
  // convert fails the CAST only where a row holds it (CheckCast).
  // A 128-bit target reads two 64-bit tables, the values' halves as WideHigh
  // and WideLow give them, and puts them together (Op::WideFromParts).
  static BoundExpr varchar_cast(BoundExpr v, DataType target, std::size_t at) {
    struct CastTables {
      std::shared_ptr<const LookupTable> values, low, failed;  // low: a 128-bit target's lower halves
    };
    const bool wide = target.is_wide_decimal();
    const Dictionary& dictionary = *v.dictionary;
    auto tables = dictionary.derived<CastTables>("CAST AS " + target.to_string(), [&] {
      LookupTable values, low, failed;
      values.type = wide ? Type::BigInt : target.storage();
      low.type = Type::BigInt;
      values.entries = low.entries = failed.entries = dictionary.size();
      values.bytes.resize(dictionary.size() * (wide ? 8 : target.width()));
      if (wide) low.bytes.resize(dictionary.size() * 8);
      failed.bytes.resize(dictionary.size());
      for (std::size_t i = 0; i < dictionary.size(); ++i) {
        std::byte raw[16] = {};
        const bool ok = cast_text(dictionary.values[i], target, raw) == ParseResult::Ok;
        if (ok && wide) {
          const WideHalves halves = wide_halves(load_wide(raw, 0));
          std::memcpy(values.bytes.data() + i * 8, &halves.high, 8);
          std::memcpy(low.bytes.data() + i * 8, &halves.low, 8);
        } else if (ok) {
          std::memcpy(values.bytes.data() + i * target.width(), raw, target.width());
        }
        failed.bytes[i] = !ok;
        failed.true_entries += !ok;
      }
      return CastTables{std::make_shared<const LookupTable>(std::move(values)),
                        std::make_shared<const LookupTable>(std::move(low)),
                        std::make_shared<const LookupTable>(std::move(failed))};
    });
    BoundExpr codes = v;
    BoundExpr result;
    if (wide) {
      BoundExpr high = node(Op::Lookup, DataType::bigint(), {v}, at), low = node(Op::Lookup, DataType::bigint(), {v}, at);
      high.lookup = tables->values;
      low.lookup = tables->low;
      high.text = low.text = "CAST";
      result = node(Op::WideFromParts, target, {std::move(high), std::move(low)}, at);
    } else {
      result = node(Op::Lookup, target, {std::move(v)}, at);
      result.lookup = tables->values;
      result.text = "CAST";  // EXPLAIN's mark: a cast's table, not a LIKE's
    }
    if (tables->failed->true_entries == 0) return result;
    BoundExpr failed = node(Op::Lookup, DataType::boolean(), {std::move(codes)}, at);
    failed.lookup = tables->failed;
    return node(Op::CheckCast, target, {std::move(result), std::move(failed)}, at);
  }

  // CASE [x] WHEN w THEN t ... [ELSE e] END, as nested selects from the last
  // branch outwards.
  BoundExpr bind_case(const ast::Expr& e) {
    if (e.distinct_from) {
      // a IS [NOT] DISTINCT FROM b: not_distinct()'s two equalities, which
      // a join keys on (negated for IS DISTINCT FROM); the CASE itself
      // where a = b binds to something else (a NULL literal's comparison).
      const ast::Expr& test = *e.args.back();
      BoundExpr equal = compare(Op::Eq, bind(*test.args[0]), bind(*test.args[1]), test.offset, test.args[1]->offset);
      if (equal.op == Op::Eq && !equal.children[0].type.is_wide_decimal()) {
        std::vector<BoundExpr> parts = not_distinct(std::move(equal), e.offset);
        BoundExpr same = node(Op::And, DataType::boolean(), {std::move(parts[0]), std::move(parts[1])}, e.offset);
        if (test.binary_op == ast::BinaryOp::Eq) return same;
        return node(Op::Not, DataType::boolean(), {std::move(same)}, e.offset);
      }
    }
    std::size_t i = 0;
    std::optional<BoundExpr> operand;
    if (e.has_operand) operand = bind(*e.args[i++]);
    std::size_t pairs_end = e.args.size() - (e.has_else ? 1 : 0);
    std::vector<std::pair<BoundExpr, BoundExpr>> branches;
    for (; i + 1 < pairs_end + 1 && i < pairs_end; i += 2) {
      BoundExpr condition = operand ? compare(Op::Eq, *operand, bind(*e.args[i]), e.args[i]->offset, e.args[i]->offset)
                                    : bind_boolean(*e.args[i], "a CASE WHEN condition");
      branches.emplace_back(std::move(condition), bind(*e.args[i + 1]));
    }
    BoundExpr otherwise = e.has_else ? bind(*e.args.back()) : [&] {
      BoundExpr n = null_constant(DataType::integer(), e.offset);
      n.text = "NULL";
      return n;
    }();
    // One result type for all branches.
    std::vector<BoundExpr*> results;
    for (auto& b : branches) results.push_back(&b.second);
    results.push_back(&otherwise);
    BoundExpr* typed = nullptr;
    for (BoundExpr* r : results)
      if (!is_untyped_null(*r)) typed = typed ? typed : r;
    if (typed && typed->type.id == Type::Varchar) {
      // Strings: every result (NULLs included) as codes of one dictionary.
      std::vector<const BoundExpr*> strings;
      for (BoundExpr* r : results) {
        if (is_untyped_null(*r)) continue;
        if (r->type.id != Type::Varchar)
          throw Error(ErrorKind::Binder, "CASE branches of types VARCHAR and " + r->type.to_string(), r->offset);
        if (r->op != Op::Constant && !r->dictionary)
          throw Error(ErrorKind::NotSupported, "not supported yet: a computed VARCHAR value as a CASE result",
                      r->offset);
        strings.push_back(r);
      }
      auto common = common_dictionary(strings);
      for (BoundExpr* r : results) {
        if (is_untyped_null(*r)) *r = null_constant(DataType::varchar(), r->offset);
        *r = recode(std::move(*r), common);
      }
    } else if (typed) {
      // The type all results meet in, found before any is converted (a
      // BIGINT beside a DECIMAL and a DOUBLE goes straight to DOUBLE).
      DataType type = typed->type;
      for (BoundExpr* r : results) {
        if (is_untyped_null(*r) || r->type == type) continue;
        if (!is_number(type) || !is_number(r->type))
          throw Error(ErrorKind::Binder, "CASE branches of types " + type.to_string() + " and " + r->type.to_string(),
                      r->offset);
        type = common_value_type(type, r->type, r->offset);
      }
      for (BoundExpr* r : results)
        *r = is_untyped_null(*r) ? retype_null(std::move(*r), type) : is_number(type) ? to_numeric(std::move(*r), type) : std::move(*r);
    } else {
      // Every result is the NULL literal: so is the CASE, for its context to type.
      BoundExpr n = null_constant(DataType::integer(), e.offset);
      n.text = "NULL";
      return n;
    }
    // The results now share one type, but INTEGER beside BIGINT (one compute
    // class, so no conversion is needed): then the CASE is a BIGINT.
    DataType type = typed->type;
    for (BoundExpr* r : results)
      if (r->type.id == Type::BigInt && type.id == Type::Integer) type = r->type;
    if (branches.size() > kOrChainValues && case_lookup_holds(type))
      if (std::optional<BoundExpr> mapped = constant_case_lookup(branches, otherwise, type, e.offset))
        return std::move(*mapped);
    // Each branch nests a level deeper, and the passes over the tree recurse.
    if (branches.size() > kMaxCaseChain)
      throw Error(ErrorKind::NotSupported,
                  "not supported yet: a searched CASE of more than " + std::to_string(kMaxCaseChain) +
                      " branches (a CASE x WHEN constant of constant results has no such bound)",
                  e.offset);
    BoundExpr result = std::move(otherwise);
    for (auto it = branches.rbegin(); it != branches.rend(); ++it) {
      auto dictionary = it->second.dictionary;
      // Moved in, not listed in braces: an initializer list copies, and
      // copying the chain so far at every branch made n branches cost n^2.
      std::vector<BoundExpr> children;
      children.reserve(3);
      children.push_back(std::move(it->first));
      children.push_back(std::move(it->second));
      children.push_back(std::move(result));
      result = node(Op::Select, type, std::move(children), e.offset);
      result.dictionary = dictionary;
    }
    return result;
  }

  // A CASE of more than kOrChainValues branches, each `x = constant` of
  // one x, with constant non-NULL results: one search in the sorted keys
  // (set_membership.hpp) instead of a chain of Selects, so any number of
  // branches binds and runs. nullopt where a branch is of another shape.
  static std::optional<BoundExpr> constant_case_lookup(const std::vector<std::pair<BoundExpr, BoundExpr>>& branches,
                                                       const BoundExpr& otherwise, const DataType& type,
                                                       std::size_t at) {
    const BoundExpr* searched = nullptr;
    std::vector<std::pair<int64_t, BoundExpr>> keyed;
    keyed.reserve(branches.size());
    for (const auto& [condition, value] : branches) {
      if (condition.is_null_constant()) continue;  // WHEN NULL: never taken
      if (condition.op != Op::Eq || condition.children.size() != 2) return std::nullopt;
      const BoundExpr& key = condition.children[1];
      if (key.op != Op::Constant) return std::nullopt;
      if (key.is_null_constant()) continue;  // x = NULL: never taken either
      if (!searched) searched = &condition.children[0];
      else if (!same_expression(condition.children[0], *searched)) return std::nullopt;
      if (value.op != Op::Constant || value.is_null_constant()) return std::nullopt;
      keyed.emplace_back(key.constant.value.i, value);
    }
    if (!searched) return std::nullopt;
    const Type kind = searched->type.storage();
    if (kind != Type::Integer && kind != Type::BigInt && kind != Type::Date && kind != Type::Decimal &&
        !(kind == Type::Varchar && searched->dictionary))
      return std::nullopt;
    return sorted_case_lookup(*searched, std::move(keyed), otherwise, type, at);
  }

  BoundExpr bind_extract(const ast::Expr& e) {
    BoundExpr d = bind(*e.args[0]);
    if (is_untyped_null(d)) d = retype_null(std::move(d), DataType::date());
    if (d.type.id != Type::Date)
      throw Error(ErrorKind::Binder, "EXTRACT needs a DATE, not " + d.type.to_string(), e.args[0]->offset);
    Op op = e.name == "year" ? Op::ExtractYear : e.name == "month" ? Op::ExtractMonth : Op::ExtractDay;
    if (e.name != "year" && e.name != "month" && e.name != "day")
      throw Error(ErrorKind::NotSupported, "not supported yet: EXTRACT(" + e.name + " ...)", e.offset);
    return node(op, DataType::bigint(), {std::move(d)}, e.offset);
  }

  // COALESCE(a, b, ...) (IFNULL(a, b)) and NULLIF(a, b), as the CASE each
  // means -- CASE WHEN a IS NOT NULL THEN a WHEN b ... ELSE last END and CASE
  // WHEN a = b THEN NULL ELSE a END -- so their result types are CASE's
  // (DuckDB's: the arguments' common type).
  BoundExpr bind_null_function(const ast::Expr& e) {
    const bool nullif = e.name == "nullif";
    if (e.args.empty() || ((nullif || e.name == "ifnull") && e.args.size() != 2))
      throw Error(ErrorKind::Binder,
                  e.name + "() takes " + (e.args.empty() && !nullif && e.name != "ifnull" ? "at least one argument"
                                                                                          : "exactly two arguments"),
                  e.offset);
    if (!nullif && e.args.size() == 1) return bind(*e.args[0]);
    ast::Expr c;
    c.kind = ExprKind::Case;
    c.offset = e.offset;
    c.end = e.end;
    c.has_else = true;
    if (nullif) {
      c.args.push_back(ast::make_binary(ast::BinaryOp::Eq, ast::clone(*e.args[0]), ast::clone(*e.args[1]), e.offset));
      ast::Literal null;
      c.args.push_back(ast::make_literal(null, e.offset));
      c.args.push_back(ast::clone(*e.args[0]));
    } else {
      for (std::size_t i = 0; i + 1 < e.args.size(); ++i) {
        auto not_null = std::make_unique<ast::Expr>();
        not_null->kind = ExprKind::IsNull;
        not_null->negated = true;
        not_null->offset = e.args[i]->offset;
        not_null->args.push_back(ast::clone(*e.args[i]));
        c.args.push_back(std::move(not_null));
        c.args.push_back(ast::clone(*e.args[i]));
      }
      c.args.push_back(ast::clone(*e.args.back()));
    }
    return bind_case(c);
  }

  // CONCAT(a, b, ...), DuckDB's: each argument as CAST to VARCHAR makes it,
  // a NULL one as '' (so never NULL), joined as || joins them:
  // COALESCE(CAST(a AS VARCHAR), '') || COALESCE(CAST(b AS VARCHAR), '') ...
  BoundExpr bind_concat_function(const ast::Expr& e) {
    if (e.args.empty()) throw Error(ErrorKind::Binder, "concat() takes at least one argument", e.offset);
    auto piece = [&](const ast::Expr& arg) {
      auto cast = std::make_unique<ast::Expr>();
      cast->kind = ExprKind::Cast;
      cast->offset = arg.offset;
      cast->end = arg.end;
      cast->cast_type.name = "varchar";
      cast->args.push_back(ast::clone(arg));
      std::vector<ast::ExprPtr> either;
      either.push_back(std::move(cast));
      ast::Literal empty;
      empty.kind = ast::Literal::Kind::String;
      either.push_back(ast::make_literal(empty, arg.offset));
      return ast::make_function("coalesce", std::move(either), false, arg.offset);
    };
    ast::ExprPtr joined = piece(*e.args[0]);
    for (std::size_t i = 1; i < e.args.size(); ++i)
      joined = ast::make_binary(ast::BinaryOp::Concat, std::move(joined), piece(*e.args[i]), e.offset);
    joined->end = e.end;
    return bind(*joined);
  }

  // A function of one string and constant arguments (planner/string_functions.hpp):
  // applied to a string literal, or to each entry of the string's
  // dictionary -- a VARCHAR result as a new dictionary, any other as a
  // lookup table the rows index by their code. A NULL argument makes NULL.
  BoundExpr bind_string_function(const ast::Expr& e, const StringFunction& f) {
    const std::size_t given = e.args.size(), least = 1 + f.required, most = 1 + f.args.size();
    if (given < least || given > most) {
      static const char* const kCounts[] = {"no", "one", "two", "three", "four"};
      const std::string counts = least == most ? std::string("exactly ") + kCounts[least]
                                               : kCounts[least] + std::string(most - least == 1 ? " or " : " to ") +
                                                     kCounts[most];
      throw Error(ErrorKind::Binder, e.name + "() takes " + counts + (most == 1 ? " argument" : " arguments"),
                  e.offset);
    }
    BoundExpr s = bind(*e.args[0]);
    bool null = s.is_null_constant();
    if (!null && s.type.id != Type::Varchar)
      throw Error(ErrorKind::Binder,
                  "No function matches " + e.name + "(" + s.type.to_string() + (given > 1 ? ", ...)" : ")"),
                  e.args[0]->offset);
    std::vector<StringArgument> args;
    std::string key(f.name);
    for (std::size_t i = 1; i < given; ++i) {
      BoundExpr v = fold_constants(bind(*e.args[i]));
      if (v.is_null_constant()) {
        null = true;
        continue;
      }
      const bool integer = f.args[i - 1] == StringFunction::Arg::Integer;
      if (integer ? !v.type.is_integral() : v.type.id != Type::Varchar)
        throw Error(ErrorKind::Binder, "No function matches " + e.name + "(VARCHAR, " + v.type.to_string() + ")",
                    e.args[i]->offset);
      if (v.op != Op::Constant)
        throw Error(ErrorKind::NotSupported, "not supported yet: " + e.name + " with an argument that is not a constant",
                    e.args[i]->offset);
      args.push_back(integer ? StringArgument(v.constant.value.i) : StringArgument(v.text));
      key += '\x1f' + (integer ? std::to_string(v.constant.value.i) : v.text);
    }
    const DataType type = f.result == Type::Varchar ? DataType::varchar()
                          : f.result == Type::Boolean ? DataType::boolean()
                          : f.result == Type::Integer ? DataType::integer()
                                                      : DataType::bigint();
    if (null) return null_constant(type, e.offset);
    // Errors of the function (non-ASCII text, no padding) point at the call.
    auto apply = [&](std::string_view text) {
      try {
        return apply_string_function(f, text, args);
      } catch (const Error& error) {
        if (error.offset()) throw;
        throw Error(error.kind(), error.message(), e.offset);
      }
    };
    if (s.op == Op::Constant) {
      const StringValue value = apply(s.text);
      if (f.result == Type::Varchar) {
        s.text = std::get<std::string>(value);
        s.offset = e.offset;
        return s;
      }
      if (f.result == Type::Boolean) return bool_constant(std::get<bool>(value), e.offset);
      return int_constant(std::get<int64_t>(value), e.offset, type);
    }
    if (!s.dictionary)
      throw Error(ErrorKind::NotSupported, "not supported yet: " + e.name + " of a string that is not a column's",
                  e.offset);
    if (f.result == Type::Varchar)
      return map_strings(std::move(s), key, [&](std::string_view text) { return std::get<std::string>(apply(text)); });
    // Kept with the dictionary: a query run again applies f to its entries once.
    const Dictionary& dictionary = *s.dictionary;
    std::shared_ptr<const LookupTable> table = dictionary.derived<LookupTable>(key, [&] {
      LookupTable t;
      t.type = type.id;
      t.entries = dictionary.size();
      const std::size_t width = type.width();
      t.bytes.resize(t.entries * width);
      for (std::size_t i = 0; i < dictionary.size(); ++i) {
        const StringValue value = apply(dictionary.values[i]);
        if (f.result == Type::Boolean) {
          t.bytes[i] = std::get<bool>(value);
          t.true_entries += t.bytes[i];
        } else if (f.result == Type::Integer) {
          const auto v = static_cast<int32_t>(std::get<int64_t>(value));
          std::memcpy(t.bytes.data() + i * width, &v, sizeof v);
        } else {
          const int64_t v = std::get<int64_t>(value);
          std::memcpy(t.bytes.data() + i * width, &v, sizeof v);
        }
      }
      return t;
    });
    BoundExpr out = node(Op::Lookup, type, {std::move(s)}, e.offset);
    out.lookup = std::move(table);
    return out;
  }

  // a || b: strings joined (other types as CAST to VARCHAR makes them;
  // NULL if either is NULL). A constant with a column's strings is applied
  // to each entry of the column's dictionary; two columns' strings make the
  // dictionary of every pair of their entries (concat_strings(), up to its
  // limit); a string column stored plain is not supported yet.
  BoundExpr bind_concat(const ast::Expr& e) {
    BoundExpr a = bind(*e.args[0]), b = bind(*e.args[1]);
    auto is_null = [](const BoundExpr& x) { return is_untyped_null(x) || (x.op == Op::Constant && x.constant.null_constant); };
    if (is_null(a) || is_null(b)) return null_constant(DataType::varchar(), e.offset);
    auto text = [&](BoundExpr x, const ast::Expr& at) {
      if (x.type.id == Type::Varchar) return x;
      ast::Expr cast;
      cast.kind = ExprKind::Cast;
      cast.offset = at.offset;
      cast.cast_type.name = "varchar";
      return fold_constants(bind_cast(cast, std::move(x)));
    };
    a = text(std::move(a), *e.args[0]);
    b = text(std::move(b), *e.args[1]);
    if (a.op == Op::Constant && b.op == Op::Constant) {
      a.text += b.text;
      a.offset = e.offset;
      return a;
    }
    if (a.op == Op::Constant || b.op == Op::Constant) {
      const bool prefix = a.op == Op::Constant;
      const std::string piece = prefix ? a.text : b.text;
      BoundExpr s = prefix ? std::move(b) : std::move(a);
      if (s.dictionary)
        return map_strings(std::move(s), (prefix ? "prefix " : "suffix ") + piece,
                           [&](std::string_view t) { return prefix ? piece + std::string(t) : std::string(t) + piece; });
    } else if (a.dictionary && b.dictionary) {
      return concat_strings(std::move(a), std::move(b), e.offset);
    }
    throw Error(ErrorKind::NotSupported, "not supported yet: || of two computed strings", e.offset);
  }

  // A constant integer argument (ROUND's digits); nullopt for NULL.
  std::optional<int64_t> constant_integer(const ast::Expr& e, const std::string& function) {
    BoundExpr v = fold_constants(bind(e));
    if (is_untyped_null(v) || (v.op == Op::Constant && v.constant.null_constant)) return std::nullopt;
    if (!v.type.is_integral())
      throw Error(ErrorKind::Binder, "No function matches " + function + "(..., " + v.type.to_string() + ")", e.offset);
    if (v.op != Op::Constant)
      throw Error(ErrorKind::NotSupported, "not supported yet: " + function + " with digits that are not a constant",
                  e.offset);
    return v.constant.value.i;
  }

  // ROUND(x[, n]) as DuckDB's: half away from zero at n digits after the
  // point (before it when n < 0). A DECIMAL(p, s) becomes DECIMAL(p, n) for
  // 0 <= n < s and DECIMAL(p, 0) for n < 0 (unchanged for n >= s); an
  // integer keeps its type; a DOUBLE is round(x * 10^n) / 10^n (for n < 0,
  // round(x / 10^-n) * 10^-n).
  BoundExpr bind_round(const ast::Expr& e) {
    if (e.args.empty() || e.args.size() > 2)
      throw Error(ErrorKind::Binder, "round() takes one or two arguments", e.offset);
    BoundExpr v = bind(*e.args[0]);
    if (is_untyped_null(v)) return v;
    if (!is_number(v.type))
      throw Error(ErrorKind::Binder, "No function matches round(" + v.type.to_string() + ")", e.args[0]->offset);
    int64_t digits = 0;
    if (e.args.size() == 2) {
      std::optional<int64_t> n = constant_integer(*e.args[1], "round");
      if (!n) return null_constant(v.type, e.offset);
      digits = std::clamp<int64_t>(*n, -18, 18);
    }
    const std::size_t at = e.offset;
    if (v.type.is_floating()) {
      const DataType type = v.type;
      auto scale = [&](BoundExpr x, Op op, int64_t power) {
        return node(op, type, {std::move(x), double_constant(std::pow(10.0, static_cast<double>(power)), at)}, at);
      };
      if (digits > 0) return scale(node(Op::Round, type, {scale(std::move(v), Op::Mul, digits)}, at), Op::Div, digits);
      if (digits < 0) return scale(node(Op::Round, type, {scale(std::move(v), Op::Div, -digits)}, at), Op::Mul, -digits);
      return node(Op::Round, type, {std::move(v)}, at);
    }
    const int scale = v.type.id == Type::Decimal ? v.type.scale : 0;
    if (digits >= scale) return v;
    // Drop (scale - digits) digits, rounding; for n < 0 put the zeros back.
    const int dropped = static_cast<int>(scale - digits);
    // An INTEGER rounded to tens may leave INTEGER's range: BIGINT holds it.
    const DataType type = v.type.id == Type::Decimal
                              ? decimal_type(v.type.precision, static_cast<int>(std::max<int64_t>(digits, 0)), at, is_wide(v))
                              : DataType::bigint();
    if (dropped > kMaxDecimalDigits) return int_constant(0, at, type);  // every value rounds to 0
    BoundExpr rounded = node(Op::DivRound, type, {std::move(v), int_constant(pow10(dropped), at)}, at);
    if (digits < 0) rounded = node(Op::Mul, type, {std::move(rounded), int_constant(pow10(-digits), at)}, at);
    return rounded;
  }

  // AVG(y) from the two-level rewrite's partials (planner/distinct_aggregates.hpp):
  // the total (its two parts for an integer y) and the count, divided as AVG
  // divides a total of y's type; the last argument, MIN(y), gives that type
  // and is not evaluated.
  BoundExpr bind_average_of_partials(const ast::Expr& e) {
    if (e.args.size() != 4) throw Error(ErrorKind::Invalid, "internal: avg of partials takes four arguments", e.offset);
    BoundExpr total = bind(*e.args[0]), low = bind(*e.args[1]), count = bind(*e.args[2]);
    const DataType argument = bind(*e.args[3]).type;
    int64_t flags = 0;
    if (argument.is_integral()) {  // high * 2^32 + low, in 128 bits
      const DataType wide = decimal_type(38, 0, e.offset, /*wide=*/true);
      total = node(Op::Mul, wide, {widen(std::move(total)), int_constant(int64_t{1} << 32, e.offset)}, e.offset);
      total = node(Op::Add, wide, {std::move(total), widen(std::move(low))}, e.offset);
    } else if (!total.type.is_floating()) {
      total = widen(std::move(total));
      if (argument.id == Type::Decimal) flags = argument.scale | (argument.precision <= 4 ? 0x100 : 0);
    }
    return node(Op::AvgQuotient, DataType::double_(), {std::move(total), std::move(count), int_constant(flags, e.offset)},
                e.offset);
  }

  // The halves of a 128-bit DECIMAL, and the value from its halves and its
  // precision and scale, for the two-level MIN and MAX
  // (planner/distinct_aggregates.hpp).
  BoundExpr bind_wide_parts(const ast::Expr& e) {
    const std::size_t at = e.offset;
    if (e.name == kWideFromParts) {
      if (e.args.size() != 4) throw Error(ErrorKind::Invalid, "internal: wide from parts takes four arguments", at);
      BoundExpr high = bind(*e.args[0]), low = bind(*e.args[1]);
      const int64_t precision = bind(*e.args[2]).constant.value.i, scale = bind(*e.args[3]).constant.value.i;
      return node(Op::WideFromParts, decimal_type(static_cast<int>(precision), static_cast<int>(scale), at, true),
                  {std::move(high), std::move(low)}, at);
    }
    if (e.args.size() != 1) throw Error(ErrorKind::Invalid, "internal: " + e.name + " takes one argument", at);
    return node(e.name == kWideHighPart ? Op::WideHigh : Op::WideLow, DataType::bigint(), {widen(bind(*e.args[0]))},
                at);
  }

  BoundExpr bind_function(const ast::Expr& e) {
    if (is_aggregate_name(e.name))
      throw Error(ErrorKind::Binder, std::string("aggregate functions are not allowed in ") + scope_.clause(), e.offset);
    if (e.name == "floor" || e.name == "ceil" || e.name == "ceiling" || e.name == "abs") {
      if (e.args.size() != 1) throw Error(ErrorKind::Binder, e.name + "() takes exactly one argument", e.offset);
      BoundExpr v = bind(*e.args[0]);
      if (!is_number(v.type))
        throw Error(ErrorKind::Binder, "No function matches " + e.name + "(" + v.type.to_string() + ")", e.offset);
      if (e.name == "abs") {
        DataType type = v.type.is_floating() || v.type.id == Type::Decimal ? v.type : DataType::bigint();
        return node(Op::Abs, type, {std::move(v)}, e.offset);
      }
      bool floor = e.name == "floor";
      if (v.type.id == Type::Decimal) {  // DECIMAL(p, s) -> DECIMAL(p, 0), as DuckDB
        if (v.type.scale == 0) return v;
        DataType type = decimal_type(v.type.precision, 0, e.offset, is_wide(v));
        return node(floor ? Op::DivFloor : Op::DivCeil, type, {std::move(v), int_constant(pow10(v.type.scale), e.offset)},
                    e.offset);
      }
      if (!v.type.is_floating()) return v;  // already whole
      DataType type = v.type;  // a whole REAL is still a REAL
      return node(floor ? Op::Floor : Op::Ceil, type, {std::move(v)}, e.offset);
    }
    if (e.name == "round") return bind_round(e);
    if (e.name == kAverageOfPartials) return bind_average_of_partials(e);
    if (e.name == kWideHighPart || e.name == kWideLowPart || e.name == kWideFromParts) return bind_wide_parts(e);
    if (e.name == "coalesce" || e.name == "ifnull" || e.name == "nullif") return bind_null_function(e);
    if (e.name == "concat") return bind_concat_function(e);
    if (const StringFunction* f = find_string_function(e.name)) return bind_string_function(e, *f);
    std::string hint = closest_name(e.name, function_names());
    throw Error(ErrorKind::Binder,
                "Scalar Function with name " + e.name + " does not exist!" +
                    (hint.empty() ? "" : "\nDid you mean \"" + hint + "\"?"),
                e.offset);
  }

};

// ---- the FROM clause's names ---------------------------------------------------

}  // namespace

const std::string& BoundTableRef::column_name(int c) const {
  const std::size_t i = static_cast<std::size_t>(c);
  return i < column_aliases.size() ? column_aliases[i] : table->columns[i].name;
}

int BoundTableRef::find_column(std::string_view name) const {
  for (std::size_t c = 0; c < table->columns.size(); ++c)
    if (iequals(column_name(static_cast<int>(c)), name)) return static_cast<int>(c);
  return -1;
}

int DerivedTable::find_column(std::string_view name) const {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (iequals(names[i], name)) return static_cast<int>(i);
  return -1;
}

namespace {

const std::string& alias_of(const BoundQuery& q, BoundQuery::Source source) {
  return source.derived ? q.derived[source.index].alias : q.tables[source.index].alias;
}

std::vector<std::string> column_names_of(const BoundQuery& q, BoundQuery::Source source) {
  if (source.derived) return q.derived[source.index].names;
  std::vector<std::string> names;
  for (const auto& column : q.tables[source.index].table->columns) names.push_back(column.name);
  return names;
}

// Whether a bare name is a column of some FROM item (which then wins over a
// select-list alias of the same name).
bool names_a_column(const BoundQuery& q, std::string_view name) {
  for (const auto& source : q.sources)
    for (const std::string& column : column_names_of(q, source))
      if (iequals(column, name)) return true;
  return false;
}

// The USING column a bare `name` found at `places` reads: the last one of
// that name that stands for every one of them; null when none does.
const BoundQuery::UsingColumn* using_column(const BoundQuery& q, std::string_view name,
                                            const std::vector<BoundQuery::UsingColumn::Place>& places) {
  for (auto it = q.using_columns.rbegin(); it != q.using_columns.rend(); ++it) {
    if (!iequals(it->name, name)) continue;
    const bool all = std::all_of(places.begin(), places.end(), [&](const auto& p) {
      return std::find(it->covered.begin(), it->covered.end(), p) != it->covered.end();
    });
    if (all) return &*it;
  }
  return nullptr;
}

class Subqueries;

class TableScope : public Scope {
 public:
  TableScope(const BoundQuery& query, const char* clause, Subqueries* subqueries = nullptr)
      : query_(query), clause_(clause), subqueries_(subqueries) {}
  Subqueries* subqueries() const { return subqueries_; }
  BoundExpr subquery(const ast::Expr& e) override;
  BoundExpr in_subquery(const ast::Expr& e, BoundExpr x) override;
  const ast::Expr& rewritten(const ast::Expr& e) override;

  std::optional<BoundExpr> intercept(const ast::Expr& e) override {
    if (e.kind == ExprKind::Function && is_aggregate_name(e.name)) {
      if (std::string_view(clause_) == "aggregate arguments")
        throw Error(ErrorKind::Binder, "aggregate function calls cannot be nested", e.offset);
      throw Error(ErrorKind::Binder, std::string(clause_) + " clause cannot contain aggregates", e.offset);
    }
    return std::nullopt;
  }

  BoundExpr column(const ast::Expr& e) override { return resolve(e); }
  std::optional<BoundExpr> plain_strings_column(const ast::Expr& e) override {
    BoundExpr x = resolve(e, false);
    if (x.op == Op::Column && x.type.id == Type::Varchar && !x.dictionary && x.domain) return x;
    return std::nullopt;
  }
  const SubqueryRunner::DeviceLike* device_like() const override;
  const char* clause() const override { return clause_; }

  // `encode`: false leaves a column of plain strings not yet encoded as it is (plain_strings_column()).
  BoundExpr resolve(const ast::Expr& e, bool encode = true) const {
    // SELECT without FROM: one table, the unnamed row of no columns.
    if (query_.sources.size() == 1 && !query_.sources[0].derived && query_.tables[0].alias.empty())
      throw Error(ErrorKind::Binder,
                  "Referenced column \"" + e.name + "\" was not found because the FROM clause is missing", e.offset);
    std::vector<BoundQuery::Source> candidates;
    if (!e.table.empty()) {
      for (const auto& source : query_.sources)
        if (iequals(alias_of(query_, source), e.table)) candidates.push_back(source);
      if (candidates.empty()) {
        std::vector<std::string> aliases;
        for (const auto& source : query_.sources) aliases.push_back(alias_of(query_, source));
        std::string hint = closest_name(e.table, aliases);
        throw Error(ErrorKind::Binder,
                    "Referenced table \"" + e.table + "\" not found!" + (hint.empty() ? "" : "\nDid you mean \"" + hint + "\"?"),
                    e.offset);
      }
    } else {
      candidates = query_.sources;
    }
    std::vector<BoundExpr> found;
    std::vector<std::string> found_names;
    std::vector<BoundQuery::UsingColumn::Place> found_at;  // of a bare name: (source, column)
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const auto& source = candidates[i];
      if (source.derived) {
        const DerivedTable& d = query_.derived[source.index];
        int c = d.find_column(e.name);
        if (c >= 0) {
          BoundExpr column = d.columns[c];
          column.offset = e.offset;
          found.push_back(std::move(column));
          found_names.push_back(d.alias + "." + d.names[c]);
          found_at.push_back({static_cast<int>(i), c});
        }
        continue;
      }
      const BoundTableRef& t = query_.tables[source.index];
      int c = t.find_column(e.name);
      if (c >= 0) {
        found.push_back(column_ref(t, c, e.offset, encode));
        found_names.push_back(t.alias + "." + t.column_name(c));
        found_at.push_back({static_cast<int>(i), c});
      }
    }
    if (found.size() == 1) return std::move(found[0]);
    if (found.size() > 1 && e.table.empty())
      if (const BoundQuery::UsingColumn* merged = using_column(query_, e.name, found_at)) {
        BoundExpr value = merged->value;
        value.offset = e.offset;
        return value;
      }
    if (found.size() > 1) {
      std::string list;
      for (const auto& n : found_names) list += (list.empty() ? "\"" : ", \"") + n + "\"";
      throw Error(ErrorKind::Binder, "Ambiguous reference to column name \"" + e.name + "\" (use: " + list + ")", e.offset);
    }
    if (iequals(e.name, "rowid")) {
      std::vector<const BoundTableRef*> tables;
      for (const auto& source : candidates)
        if (!source.derived) tables.push_back(&query_.tables[source.index]);
      if (tables.size() > 1)
        throw Error(ErrorKind::Binder, "Ambiguous reference to column name \"rowid\": qualify it with a table", e.offset);
      if (tables.size() == 1) {
        BoundExpr r;
        r.op = Op::Column;
        r.column = tables[0]->first_column + tables[0]->column_count() - 1;
        r.type = DataType::bigint();
        r.offset = e.offset;
        return r;
      }
    }
    std::vector<std::string> names, bare;
    std::string bindings;
    for (const auto& source : candidates)
      for (const std::string& column : column_names_of(query_, source)) {
        names.push_back(alias_of(query_, source) + "." + column);
        bare.push_back(column);
        bindings += std::string(bindings.empty() ? "" : ", ") + "\"" + names.back() + "\"";
      }
    std::string message = "Referenced column \"" + e.name + "\" not found in FROM clause!";
    std::string hint = closest_name(e.name, bare);
    if (!hint.empty()) {
      for (const auto& n : names)
        if (iequals(n.substr(n.find('.') + 1), hint)) {
          message += "\nDid you mean \"" + n + "\"?";
          break;
        }
    } else {
      message += "\nCandidate bindings: " + bindings;
    }
    throw Error(ErrorKind::Binder, message, e.offset);
  }

  // `encode`: false leaves a column of plain strings without its dictionary
  // (plain_strings_column()), encoded by some statement or not: a LIKE then
  // binds alike in every clause of a statement, though an aggregate of the
  // same statement encodes the column between them (a group key and the
  // ORDER BY that names it stay one expression).
  static BoundExpr column_ref(const BoundTableRef& t, int c, std::size_t offset, bool encode = true) {
    BoundExpr e;
    e.op = Op::Column;
    e.column = t.first_column + c;
    e.type = t.table->columns[c].type;
    e.offset = offset;
    const auto column = static_cast<std::size_t>(c);
    if (encode || !t.table->is_plain(column)) e.dictionary = t.table->dictionary(column);
    e.domain = t.table.get();
    e.domain_column = c;
    return e;
  }

 private:
  const BoundQuery& query_;
  const char* clause_;
  Subqueries* subqueries_;
};

// The column written at `offset` in a statement (its subqueries too), or null.
const ast::Expr* column_at(const ast::SelectStatement& s, std::size_t offset);

const ast::Expr* column_at(const ast::Expr& e, std::size_t offset) {
  if (e.kind == ExprKind::Column && e.offset == offset) return &e;
  for (const auto& a : e.args)
    if (const ast::Expr* found = column_at(*a, offset)) return found;
  if (e.subquery) return column_at(*e.subquery, offset);
  return nullptr;
}

const ast::Expr* column_at(const ast::SelectStatement& s, std::size_t offset) {
  if (const ast::SetOperation* op = s.set_operation.get()) {
    if (const ast::Expr* found = column_at(*op->left, offset)) return found;
    if (const ast::Expr* found = column_at(*op->right, offset)) return found;
  }
  std::vector<const ast::Expr*> roots;
  for (const auto& item : s.items) roots.push_back(item.expr.get());
  for (const auto& ref : s.from) {
    if (ref.on) roots.push_back(ref.on.get());
    if (ref.subquery)
      if (const ast::Expr* found = column_at(*ref.subquery, offset)) return found;
  }
  roots.push_back(s.where.get());
  for (const auto& g : s.group_by) roots.push_back(g.get());
  roots.push_back(s.having.get());
  for (const auto& o : s.order_by) roots.push_back(o.expr.get());
  for (const ast::Expr* root : roots)
    if (root)
      if (const ast::Expr* found = column_at(*root, offset)) return found;
  return nullptr;
}

// The scalar subqueries of one query, each run once (a scope may bind an
// expression twice: AggregateScope tries it as a group key first).
class Subqueries {
 public:
  static constexpr std::string_view kCorrelated = "not supported yet: correlated subqueries";

  Subqueries(const SubqueryRunner& runner) : runner_(runner) {}

  // SubqueryRunner::device_like (null when empty).
  const SubqueryRunner::DeviceLike* device_like() const { return runner_.device_like ? &runner_.device_like : nullptr; }

  // A correlated EXISTS as the query around it binds one (nullopt: it is
  // not one it can bind; it then runs as an uncorrelated one).
  std::function<std::optional<BoundExpr>(const ast::Expr&)> correlated_exists, correlated_scalar;
  // A correlated x [NOT] IN (SELECT ...) likewise, x bound over the query's columns.
  std::function<std::optional<BoundExpr>(const ast::Expr&, const BoundExpr&)> correlated_in;
  // The columns of the query around it a correlated subquery reads
  // (nullopt: not known); `items`: its select list's too.
  std::function<std::optional<std::vector<const ast::Expr*>>(const ast::SelectStatement&, bool items)>
      outer_references;
  // Set while an aggregate query's clauses bind x IN (SELECT ...): x is then
  // over its groups, where no join can read it.
  bool over_groups = false;
  // The named queries the subqueries' FROM sees.
  const NamedQueries* names = nullptr;

  // The subquery's one value as a constant of its type; NULL when it has no
  // row; an error when it has more, or more than one column.
  // A correlated one (it fails to run on its own) binds as the query around
  // it can bind one (correlated_exists, correlated_scalar), or says it is
  // not supported yet.
  BoundExpr scalar(const ast::Expr& e, const TableScope& outer) {
    std::shared_ptr<ResultData>& cached = results_[e.subquery.get()];
    if (!cached) {
      try {
        cached = run(*e.subquery, e.offset, outer);
      } catch (const Error& error) {
        const std::string_view message = error.message();
        if (error.kind() != ErrorKind::NotSupported || message.rfind(kCorrelated, 0) != 0) throw;
        const auto& hook = e.kind == ExprKind::Exists ? correlated_exists : correlated_scalar;
        if (hook)
          if (std::optional<BoundExpr> bound = hook(e)) return *std::move(bound);
        throw;
      }
    }
    const ResultData& r = *cached;
    if (e.kind == ExprKind::Exists) return bool_constant(r.rows > 0, e.offset);  // an uncorrelated EXISTS
    if (r.columns.size() != 1)
      throw Error(ErrorKind::Binder,
                  "Subquery returns " + std::to_string(r.columns.size()) + " columns - expected 1", e.offset);
    if (r.rows > 1) throw more_than_one_row(e.offset);
    const HostColumn& c = r.columns[0];
    if (r.rows == 0 || !c.is_valid(0)) return null_constant(c.type, e.offset);
    switch (c.type.storage()) {
      case Type::Boolean: return bool_constant(c.values<uint8_t>()[0] != 0, e.offset);
      case Type::Integer:
      case Type::Date: return int_constant(c.values<int32_t>()[0], e.offset, c.type);
      case Type::BigInt:
      case Type::Decimal: return int_constant(c.values<int64_t>()[0], e.offset, c.type);
      case Type::Double: return double_constant(c.values<double>()[0], e.offset);
      case Type::Real: {
        BoundExpr v = make_constant(DataType::real(), e.offset);
        v.constant.value.d = c.values<float>()[0];
        return v;
      }
      case Type::Varchar: {
        BoundExpr v = make_constant(DataType::varchar(), e.offset);
        v.text = std::string(c.dictionary->values.at(c.values<uint32_t>()[0]));
        return v;
      }
      case Type::HugeInt: return wide_constant(load_wide(c.bytes.data(), 0), c.type, e.offset);  // kept 128-bit
    }
    throw Error(ErrorKind::NotSupported, "not supported yet: a subquery value of type " + c.type.to_string(),
                e.offset);
  }

  // x [NOT] IN (SELECT ...) where no join can stand in (NOT IN, under OR or
  // NOT, outside WHERE): the subquery's distinct values, sorted, are searched
  // for x on every row (Rank) and the value found there (Lookup) compared
  // with x. SQL's NULLs: x NULL gives NULL, a NULL among the values makes a
  // miss NULL, and no values at all make IN FALSE whatever x is.
  BoundExpr membership(const ast::Expr& e, BoundExpr x, const TableScope& outer) {
    std::shared_ptr<ResultData>& cached = results_[e.subquery.get()];
    if (!cached) {
      try {
        cached = run(*e.subquery, e.offset, outer);
      } catch (const Error& error) {
        if (error.kind() != ErrorKind::NotSupported || error.message().rfind(kCorrelated, 0) != 0) throw;
        if (correlated_in && !over_groups)
          if (std::optional<BoundExpr> in = correlated_in(e, x))
            return e.negated ? node(Op::Not, DataType::boolean(), {*std::move(in)}, e.offset) : *std::move(in);
        throw;
      }
    }
    const ResultData& r = *cached;
    if (r.columns.size() != 1)
      throw Error(ErrorKind::Binder,
                  "Subquery returns " + std::to_string(r.columns.size()) + " columns - expected 1", e.offset);
    const HostColumn& c = r.columns[0];
    auto not_yet = [&] {
      return Error(ErrorKind::NotSupported,
                   "not supported yet: IN (SELECT ...) here between " + x.type.to_string() + " and " +
                       c.type.to_string() + " (as a condition of WHERE joined by AND, IN (SELECT ...) takes any types)",
                   e.offset);
    };
    bool has_null = false;
    for (std::size_t row = 0; row < r.rows; ++row) has_null = has_null || !c.is_valid(row);
    const std::size_t at = e.offset;
    auto negated = [&](BoundExpr in) {
      return e.negated ? node(Op::Not, DataType::boolean(), {std::move(in)}, at) : std::move(in);
    };
    // A NULL x: NULL, or FALSE when the set is empty, whatever its type.
    if (x.is_null_constant()) return negated(r.rows == 0 ? bool_constant(false, at) : null_constant(DataType::boolean(), at));
    // A string constant (no dictionary to code it in): looked up here.
    if (x.op == Op::Constant && x.type.id == Type::Varchar && c.type.id == Type::Varchar) {
      bool found = false;
      for (std::size_t row = 0; row < r.rows && !found; ++row)
        found = c.is_valid(row) && c.dictionary->values[c.values<uint32_t>()[row]] == x.text;
      return negated(found ? bool_constant(true, at)
                           : has_null ? null_constant(DataType::boolean(), at) : bool_constant(false, at));
    }
    if (std::optional<BoundExpr> in = floating_membership(x, c, r.rows, has_null, at)) return negated(*std::move(in));
    std::vector<int64_t> keys;
    const bool integers = [](Type t) { return t == Type::Integer || t == Type::BigInt; }(x.type.id) &&
                          (c.type.id == Type::Integer || c.type.id == Type::BigInt);
    const bool same_kind = (x.type.id == Type::Date && c.type.id == Type::Date) ||
                           (x.type.id == Type::Decimal && c.type.id == Type::Decimal && !x.type.is_wide_decimal() &&
                            !c.type.is_wide_decimal() && x.type.scale == c.type.scale);
    if (x.type.id == Type::Varchar && c.type.id == Type::Varchar && x.dictionary) {
      for (std::size_t row = 0; row < r.rows; ++row) {
        if (!c.is_valid(row)) {
          has_null = true;
          continue;
        }
        const std::string_view value = c.dictionary->values[c.values<uint32_t>()[row]];
        const uint32_t code = x.dictionary->lower_bound(value);
        if (code < x.dictionary->size() && x.dictionary->values[code] == value) keys.push_back(code);
      }
    } else if (integers || same_kind) {
      for (std::size_t row = 0; row < r.rows; ++row) {
        if (!c.is_valid(row)) {
          has_null = true;
          continue;
        }
        keys.push_back(c.type.storage() == Type::Integer || c.type.storage() == Type::Date
                           ? int64_t{c.values<int32_t>()[row]}
                           : c.values<int64_t>()[row]);
      }
    } else {
      throw not_yet();
    }
    return negated(r.rows == 0 ? bool_constant(false, at)
                               : sorted_set_membership(std::move(x), std::move(keys), has_null, at));
  }

  // x IN (values) where either side is REAL or DOUBLE: both compared in
  // the type `x = value` compares in (DOUBLE beside a DOUBLE, else REAL, as
  // DuckDB does), the values converted as the evaluator converts them, then
  // searched as doubles. Nullopt for other types.
  static std::optional<BoundExpr> floating_membership(const BoundExpr& x, const HostColumn& c, std::size_t rows,
                                                      bool has_null, std::size_t at) {
    auto numeric = [](const DataType& t) {
      return t.id == Type::Integer || t.id == Type::BigInt || t.id == Type::Real || t.id == Type::Double ||
             (t.id == Type::Decimal && !t.is_wide_decimal());
    };
    if (!numeric(x.type) || !numeric(c.type) || !(x.type.is_floating() || c.type.is_floating())) return std::nullopt;
    const bool real = x.type.id != Type::Double && c.type.id != Type::Double;
    auto compared = [&](BoundExpr v) { return real ? to_double(to_real(std::move(v))) : to_double(std::move(v)); };
    std::vector<double> keys;
    for (std::size_t row = 0; row < rows; ++row) {
      if (!c.is_valid(row)) continue;
      BoundExpr value = make_constant(c.type, at);
      if (c.type.id == Type::Real) value.constant.value.d = c.values<float>()[row];
      else if (c.type.id == Type::Double) value.constant.value.d = c.values<double>()[row];
      else value.constant.value.i = c.type.storage() == Type::Integer ? c.values<int32_t>()[row] : c.values<int64_t>()[row];
      const BoundExpr folded = fold_constants(compared(std::move(value)));
      if (folded.op != Op::Constant) return std::nullopt;  // a value that does not convert: not here
      keys.push_back(folded.constant.value.d);
    }
    if (rows == 0) return bool_constant(false, at);
    return sorted_double_set_membership(compared(x), std::move(keys), has_null, at);
  }

  // The subquery's rows (uncorrelated: it runs on its own).
  // Scope::rewritten(), once per expression: the subqueries it is made of
  // live as long as their results are kept. Kept by the expression's text,
  // not its address: COALESCE, NULLIF and CONCAT bind clones of their
  // arguments that die once bound, and a later clone of another expression
  // at the same address was given the first one's rewrite (a wrong answer:
  // tests/sql/subqueries/quantified_comparisons.test). The same text is
  // the same rewrite.
  const ast::Expr& rewritten(const ast::Expr& e) {
    ast::ExprPtr& made = rewritten_[ast::to_string(e)];
    if (!made) made = e.kind == ExprKind::Quantified ? rewrite_quantified_comparison(e) : rewrite_row_in_subquery(e);
    return *made;
  }

  std::shared_ptr<ResultData> result(const ast::SelectStatement& select, std::size_t offset, const TableScope& outer) {
    return run(select, offset, outer);
  }

  // The subquery's rows as a table (IN (SELECT ...), a derived table that groups).
  // `in`: the named queries its FROM sees, when not the subqueries' (a
  // named query's own).
  std::shared_ptr<const Table> table(const ast::SelectStatement& select, std::size_t offset, const TableScope& outer,
                                     std::optional<const NamedQueries*> in = std::nullopt) {
    if (!runner_.table) throw Error(ErrorKind::NotSupported, "not supported yet: subqueries here", offset);
    return correlated_as_not_supported(select, outer, [&] {
      try {
        return runner_.table(select, in.value_or(names));
      } catch (const Error& error) {
        if (error.offset()) throw;
        throw Error(error.kind(), error.message(), offset);  // what the table cannot hold: at the subquery
      }
    });
  }

 private:
  std::shared_ptr<ResultData> run(const ast::SelectStatement& select, std::size_t offset, const TableScope& outer) {
    if (!runner_.result) throw Error(ErrorKind::NotSupported, "not supported yet: subqueries here", offset);
    return correlated_as_not_supported(select, outer, [&] { return runner_.result(select, names); });
  }

  // A subquery that names a column of the query around it (a correlated
  // one) fails to bind on its own: say so, rather than "not found".
  template <class F>
  static auto correlated_as_not_supported(const ast::SelectStatement& select, const TableScope& outer, F&& run)
      -> decltype(run()) {
    try {
      return run();
    } catch (const Error& error) {
      if (error.kind() != ErrorKind::Binder) throw;
      if (!error.offset()) throw;
      if (error.message().find("not found") == std::string::npos) throw;  // not a name (sum(VARCHAR) at a column)
      const ast::Expr* column = column_at(select, *error.offset());
      if (!column) throw;
      try {
        outer.resolve(*column);
      } catch (const Error& outer_error) {
        // A table only the query around it has, without the column: its error.
        if (error.message().rfind("Referenced table", 0) == 0 && outer_error.message().rfind("Referenced column", 0) == 0)
          throw outer_error;
        throw error;
      }
      // A key the DISTINCT aggregates' rewrite put in place of `t.k` has an internal name.
      const bool key = column->name.rfind(kGroupKeyPrefix, 0) == 0;
      throw Error(ErrorKind::NotSupported,
                  std::string(kCorrelated) + " (" + (key ? std::string("a GROUP BY key") : "\"" + column->name + "\"") +
                      " is a column of the query around it)",
                  column->offset);
    }
  }

  const SubqueryRunner& runner_;
  std::map<std::string, ast::ExprPtr> rewritten_;  // declared first: outlives results_' keys
  std::map<const ast::SelectStatement*, std::shared_ptr<ResultData>> results_;
};

BoundExpr TableScope::subquery(const ast::Expr& e) {
  if (!subqueries_) return Scope::subquery(e);
  return subqueries_->scalar(e, *this);
}

BoundExpr TableScope::in_subquery(const ast::Expr& e, BoundExpr x) {
  if (!subqueries_) return Scope::in_subquery(e, std::move(x));
  return subqueries_->membership(e, std::move(x), *this);
}

const SubqueryRunner::DeviceLike* TableScope::device_like() const {
  return subqueries_ ? subqueries_->device_like() : nullptr;
}

const ast::Expr& TableScope::rewritten(const ast::Expr& e) {
  if (!subqueries_) return Scope::rewritten(e);
  return subqueries_->rewritten(e);
}

// A GROUP BY key as it is grouped: an untyped NULL as an INTEGER, a string
// constant as a column of one dictionary entry.
// The aggregates fold 64-bit values and the groupings key on them: a
// DECIMAL wider than 18 digits (a SUM's, or arithmetic beside one) would
// lose its upper bits there.
// MIN or MAX of a 128-bit DECIMAL `argument` (its text) of `type`: the
// aggregates fold 64-bit values, so the query binds again in two levels
// (wide_extremes_rewritten()). Thrown where the aggregate binds, caught by
// QueryBinder::bind.
struct WideExtremeFound {
  std::string argument;
  DataType type;
};

// COUNT(DISTINCT x) of a 128-bit x: the distinct count keys on 64 bits, so
// the query binds again in two levels (distinct_aggregates_rewritten()).
struct WideDistinctFound {
  std::size_t offset = 0;
};

// x [NOT] IN (a correlated subquery) where x holds an aggregate (sum(x) IN
// (SELECT ... WHERE u.k = t.k) over GROUP BY k): the query binds again in
// two levels, the aggregates first (aggregates_first_rewritten()), where
// the IN is one over rows. Thrown where the IN binds, caught by
// QueryBinder::bind, which throws `error` when the rewrite cannot help.
struct AggregatesFirstFound {
  Error error;
};

Error wide_aggregate_error(const std::string& function, std::size_t offset) {
  return Error(ErrorKind::NotSupported,
               "not supported yet: " + function + " of a DECIMAL wider than 18 digits (CAST it to DECIMAL(18, s))",
               offset);
}

BoundExpr as_group_key(BoundExpr key) {
  if (is_untyped_null(key)) key = retype_null(std::move(key), DataType::integer());
  if (key.type.id == Type::Varchar && key.op == Op::Constant && !key.dictionary) {
    auto dictionary = std::make_shared<Dictionary>();
    dictionary->values.push_back(key.text);
    key.dictionary = std::move(dictionary);
    key.constant.value.i = 0;
  }
  return key;
}

// Above the aggregate: group keys and aggregates are columns; a bare column
// that is neither is an error that names it.
class AggregateScope : public Scope {
 public:
  AggregateScope(BoundQuery& query, TableScope& tables, const char* clause)
      : query_(query), tables_(tables), clause_(clause) {}

  std::optional<BoundExpr> intercept(const ast::Expr& e) override {
    if (e.kind == ExprKind::Function && is_aggregate_name(e.name)) return aggregate(e);
    if (e.kind == ExprKind::Literal) return std::nullopt;
    if (!contains_aggregate(e)) {
      // An expression equal to a group key reads that key.
      TableScope plain(query_, clause_, tables_.subqueries());
      std::optional<BoundExpr> bound;
      try {
        bound = ExpressionBinder(plain).bind(e);
      } catch (const Error&) {
        bound.reset();
      }
      if (bound) {
        bound = as_group_key(*std::move(bound));
        for (std::size_t k = 0; k < query_.group_keys.size(); ++k)
          if (same_expression(*bound, query_.group_keys[k])) return key_ref(k, *bound, e.offset);
        for (const BoundQuery::WideKey& w : query_.wide_keys)
          if (same_expression(*bound, w.value))
            return node(Op::WideFromParts, w.value.type,
                        {key_ref(w.high, query_.group_keys[w.high], e.offset),
                         key_ref(w.low, query_.group_keys[w.low], e.offset)},
                        e.offset);
      }
    }
    return std::nullopt;
  }

  BoundExpr column(const ast::Expr& e) override {
    tables_.resolve(e);  // an unknown name gets the unknown-name error first
    throw Error(ErrorKind::Binder,
                "column \"" + (e.table.empty() ? e.name : e.table + "." + e.name) +
                    "\" must appear in the GROUP BY clause or must be part of an aggregate function",
                e.offset);
  }
  const char* clause() const override { return clause_; }
  // A correlated subquery's value is a column of the rows below the
  // groups (a join binds it there). Where every column of this query it
  // reads is a group key, the value is the same on every row of a group,
  // and MIN reads it (DuckDB's error where one is not a key).
  BoundExpr subquery(const ast::Expr& e) override {
    BoundExpr value = tables_.subquery(e);
    if (!reads_columns(value)) return value;
    Subqueries& subqueries = *tables_.subqueries();  // a value that reads columns came from a hook
    std::optional<std::vector<const ast::Expr*>> outer;
    if (subqueries.outer_references) outer = subqueries.outer_references(*e.subquery, e.kind != ExprKind::Exists);
    if (!outer || is_wide(value))
      throw Error(ErrorKind::NotSupported, "not supported yet: this correlated subquery in an aggregate query",
                  e.offset);
    return group_value(std::move(value), *outer, e.offset);
  }
  // x [NOT] IN (a correlated subquery): where x and every column of this
  // query the subquery reads are group keys, the value is the same on every
  // row of a group, so it binds below the groups (the row-level hooks) and
  // MIN reads it, as subquery() does for a scalar one. An aggregate in x
  // stays "not supported yet".
  BoundExpr in_subquery(const ast::Expr& e, BoundExpr x) override {
    if (!tables_.subqueries()) return tables_.in_subquery(e, std::move(x));
    Subqueries& subqueries = *tables_.subqueries();
    subqueries.over_groups = true;
    try {
      BoundExpr in = tables_.in_subquery(e, std::move(x));
      subqueries.over_groups = false;
      return in;
    } catch (const Error& error) {
      subqueries.over_groups = false;
      if (error.kind() != ErrorKind::NotSupported || error.message().rfind(Subqueries::kCorrelated, 0) != 0) throw;
      if (contains_aggregate(*e.args[0])) throw AggregatesFirstFound{error};
      if (!subqueries.outer_references) throw;
      std::optional<std::vector<const ast::Expr*>> outer = subqueries.outer_references(*e.subquery, true);
      if (!outer) throw;
      TableScope rows(query_, clause_, &subqueries);
      return group_value(tables_.in_subquery(e, ExpressionBinder(rows).bind(*e.args[0])), *outer, e.offset);
    } catch (...) {
      subqueries.over_groups = false;
      throw;
    }
  }
  const ast::Expr& rewritten(const ast::Expr& e) override { return tables_.rewritten(e); }

  static bool contains_aggregate(const ast::Expr& e) {
    if (e.kind == ExprKind::Function && is_aggregate_name(e.name)) return true;
    for (const auto& a : e.args)
      if (contains_aggregate(*a)) return true;
    return false;
  }

 private:
  BoundQuery& query_;
  TableScope& tables_;
  const char* clause_;

  // `value`, a correlated subquery's bound below the groups, as its group's
  // value: each column of this query it reads (`outer`) must be a group key
  // (DuckDB's error otherwise), so the value is the same on every row of a
  // group, and MIN reads it.
  BoundExpr group_value(BoundExpr value, const std::vector<const ast::Expr*>& outer, std::size_t offset) {
    for (const ast::Expr* column : outer) ExpressionBinder(*this).bind(*column);
    BoundAggregate a;
    a.kind = AggKind::Min;
    a.type = value.type;
    a.dictionary = value.dictionary;
    a.argument = std::move(value);
    return reference(std::move(a), offset);
  }

  BoundExpr key_ref(std::size_t k, const BoundExpr& key, std::size_t offset) {
    BoundExpr r;
    r.op = Op::Column;
    r.column = static_cast<int>(k);
    r.type = key.type;
    r.dictionary = key.dictionary;
    r.domain = key.domain;  // a key's values are some of its column's
    r.domain_column = key.domain_column;
    r.offset = offset;
    return r;
  }

  BoundExpr aggregate(const ast::Expr& e) {
    for (const auto& a : e.args)
      if (contains_aggregate(*a))
        throw Error(ErrorKind::Binder, "aggregate function calls cannot be nested", a->offset);
    // SUM, AVG, MIN and MAX read their argument's type first: a 128-bit one
    // takes wide_aggregate(). It binds once, for whichever path.
    std::optional<BoundExpr> first;
    const bool one = e.args.size() == 1 && e.args[0]->kind != ExprKind::Star;
    if (one && (e.name == "sum" || e.name == "avg" || e.name == "min" || e.name == "max" || e.name == kAverageHighPart)) {
      TableScope inner(query_, "aggregate arguments", tables_.subqueries());
      first = ExpressionBinder(inner).bind(*e.args[0]);
      if (is_wide(*first)) return wide_aggregate(e, *std::move(first));
    }
    return reference(bind_aggregate(e, std::move(first)), e.offset);
  }

  // A reference to the aggregate `a` (one per distinct aggregate).
  BoundExpr reference(BoundAggregate a, std::size_t offset) {
    std::size_t index = query_.aggregates.size();
    for (std::size_t i = 0; i < query_.aggregates.size(); ++i)
      if (same_aggregate(query_.aggregates[i], a)) index = i;
    BoundExpr ref;
    ref.op = Op::Column;
    ref.column = static_cast<int>(query_.group_keys.size() + index);
    ref.type = a.type;
    ref.dictionary = a.dictionary;
    ref.offset = offset;
    if (index == query_.aggregates.size()) query_.aggregates.push_back(std::move(a));
    return ref;
  }

  // SUM, AVG, MIN or MAX of the 128-bit DECIMAL `arg`, e's bound argument.
  // The aggregates fold 64-bit values, so SUM sums the value's three
  // base-10^18 digits apart (Op::WideDigit: each digit's sum is exact) and
  // adds those up in 128 bits, (S2 * 10^18 + S1) * 10^18 + S0, which
  // overflows only where DuckDB's 128-bit sum does; AVG divides that total
  // by the count as AVG itself does (Op::AvgQuotient). MIN and MAX need two
  // GROUP BYs: WideExtremeFound.
  BoundExpr wide_aggregate(const ast::Expr& e, BoundExpr arg) {
    // AVG's total beside a two-level rewrite is its SUM (planner/distinct_aggregates.hpp).
    const std::string n = e.name == kAverageHighPart ? "sum" : e.name;
    const std::size_t at = e.offset;
    if (e.distinct) throw wide_aggregate_error(n + "(DISTINCT ...)", at);
    if (n == "min" || n == "max") throw WideExtremeFound{ast::to_string(*e.args[0]), arg.type};
    const DataType digit = decimal_type(18, 0, at), step = decimal_type(38, 0, at, /*wide=*/true);
    BoundExpr total;
    for (int k = 2; k >= 0; --k) {
      BoundAggregate sum;
      sum.kind = AggKind::Sum;
      sum.type = step;
      sum.argument = node(Op::WideDigit, digit, {arg, int_constant(k, at)}, at);
      BoundExpr partial = reference(std::move(sum), at);
      total = k == 2 ? std::move(partial)
                     : node(Op::Add, step, {node(Op::Mul, step, {std::move(total), int_constant(pow10(18), at)}, at),
                                            std::move(partial)},
                            at);
    }
    total.type = decimal_type(38, arg.type.scale, at, /*wide=*/true);
    if (n == "sum") return total;
    BoundAggregate count;
    count.kind = AggKind::Count;
    count.type = DataType::bigint();
    count.argument = node(Op::WideHigh, DataType::bigint(), {arg}, at);  // NULL where arg is
    BoundExpr counted = reference(std::move(count), at);
    return node(Op::AvgQuotient, DataType::double_(),
                {std::move(total), std::move(counted), int_constant(arg.type.scale, at)}, at);
  }

  // `first`: e's argument, when aggregate() has bound it already.
  BoundAggregate bind_aggregate(const ast::Expr& e, std::optional<BoundExpr> first = std::nullopt) {
    TableScope inner(query_, "aggregate arguments", tables_.subqueries());
    ExpressionBinder binder(inner);
    BoundAggregate a;
    a.distinct = e.distinct;
    const std::string& n = e.name;
    bool star = e.args.size() == 1 && e.args[0]->kind == ExprKind::Star;
    if (n == "count" && star) {
      if (e.distinct) throw Error(ErrorKind::Binder, "COUNT(DISTINCT *) is not valid", e.offset);
      a.kind = AggKind::CountStar;
      a.type = DataType::bigint();
      return a;
    }
    bool two = n == "arg_min" || n == "arg_max" || n == "min_by" || n == "max_by";
    std::size_t expected = two ? 2 : 1;
    if (e.args.size() != expected || star)
      throw Error(ErrorKind::Binder, n + "() takes exactly " + (two ? "two arguments" : "one argument"), e.offset);
    BoundExpr arg = first ? *std::move(first) : binder.bind(*e.args[0]);
    if (is_untyped_null(arg)) arg = retype_null(std::move(arg), DataType::integer());
    if (arg.op == Op::Constant && arg.type.id == Type::Varchar && !arg.dictionary) {
      auto dictionary = std::make_shared<Dictionary>();
      dictionary->values.push_back(arg.text);
      arg.dictionary = std::move(dictionary);
      arg.constant.value.i = 0;
    }
    if (n == kAverageHighPart || n == kAverageLowPart) {
      // A part of AVG's total beside a DISTINCT aggregate (planner/distinct_aggregates.hpp).
      if (arg.type.is_integral())
        arg = node(n == kAverageHighPart ? Op::Div : Op::Mod, DataType::bigint(),
                   {std::move(arg), int_constant(int64_t{1} << 32, e.offset, DataType::bigint())}, e.offset);
      return bind_sum_or_avg(std::move(a), std::move(arg), "sum", e);
    }
    if (two) {
      BoundExpr order = binder.bind(*e.args[1]);
      if (is_untyped_null(order)) order = retype_null(std::move(order), DataType::integer());
      if (order.type.id == Type::Varchar && order.op == Op::Constant)
        throw Error(ErrorKind::NotSupported, "not supported yet: " + n + " ordered by a string literal", e.offset);
      if (e.distinct) throw Error(ErrorKind::Binder, n + "(DISTINCT ...) is not valid", e.offset);
      if (is_wide(arg) || is_wide(order)) throw wide_aggregate_error(n, e.offset);
      // DuckDB skips a row whose value is NULL as it skips one whose order
      // is: the order reads NULL there.
      if (!(arg.op == Op::Constant && !arg.constant.null_constant)) {
        std::shared_ptr<const Dictionary> dictionary = order.dictionary;
        const DataType type = order.type;
        order = node(Op::Select, type,
                     {node(Op::IsNull, DataType::boolean(), {arg}, e.offset), null_constant(type, e.offset),
                      std::move(order)},
                     e.offset);
        order.dictionary = std::move(dictionary);
      }
      a.kind = (n == "arg_min" || n == "min_by") ? AggKind::ArgMin : AggKind::ArgMax;
      a.type = arg.type;
      a.dictionary = arg.dictionary;
      a.argument = std::move(arg);
      a.order = std::move(order);
      return a;
    }
    if (n == "count") {
      if (e.distinct && is_wide(arg)) throw WideDistinctFound{e.offset};
      // The aggregates read 64-bit values: a 128-bit one is counted by its upper half, NULL where it is.
      if (is_wide(arg)) arg = node(Op::WideHigh, DataType::bigint(), {std::move(arg)}, e.offset);
      a.kind = e.distinct ? AggKind::CountDistinct : AggKind::Count;
      a.type = DataType::bigint();
    } else if (n == "min" || n == "max") {
      if (is_wide(arg)) throw wide_aggregate_error(n, e.offset);
      a.kind = n == "min" ? AggKind::Min : AggKind::Max;
      a.type = arg.type;
      a.dictionary = arg.dictionary;
    } else {
      return bind_sum_or_avg(std::move(a), std::move(arg), n, e);
    }
    a.argument = std::move(arg);
    return a;
  }

  // SUM or AVG (`n`) of the bound argument of `e`.
  BoundAggregate bind_sum_or_avg(BoundAggregate a, BoundExpr arg, const std::string& n, const ast::Expr& e) {
    if (!is_number(arg.type))
      throw Error(ErrorKind::Binder, "No function matches " + n + "(" + arg.type.to_string() + ")", e.args[0]->offset);
    if (is_wide(arg)) throw wide_aggregate_error(n, e.offset);
    if (e.distinct) throw Error(ErrorKind::NotSupported, "not supported yet: " + n + "(DISTINCT ...)", e.offset);
    a.kind = n == "sum" ? AggKind::Sum : AggKind::Avg;
    if (a.kind == AggKind::Avg || arg.type.is_floating()) a.type = DataType::double_();
    else if (arg.type.id == Type::Decimal) a.type = decimal_type(38, arg.type.scale, e.offset, /*wide=*/true);
    else a.type = DataType::bigint();
    a.argument = std::move(arg);
    return a;
  }
};

// ---- the statement ---------------------------------------------------------------

class QueryBinder {
 public:
  // `depth`: named queries being bound around this one (a view that names
  // itself through others would otherwise recurse without end).
  QueryBinder(const Catalog& catalog, std::string_view sql, const TableFunctionReader& reader,
              const SubqueryRunner& runner, const NamedQueries* names, int depth = 0)
      : catalog_(catalog),
        sql_(sql),
        reader_(reader ? reader : default_table_function_reader()),
        runner_(runner),
        subqueries_(runner_),
        names_(names),
        outer_names_(names),
        depth_(depth) {
    // A subquery written twice (in the select list and ORDER BY) binds once:
    // the same join, the same expression (SELECT DISTINCT's ORDER BY needs it).
    subqueries_.correlated_exists = [this](const ast::Expr& e) {
      return remembered(e, [&]() -> std::optional<BoundExpr> {
        if (const auto operands = union_operands(e)) {  // each correlated or not
          TableScope scope(q_, "WHERE", &subqueries_);
          BoundExpr left = subqueries_.scalar(operands->first, scope);
          return node(Op::Or, DataType::boolean(), {std::move(left), subqueries_.scalar(operands->second, scope)},
                      e.offset);
        }
        const ast::Expr& resolved = aliases_resolved(e);
        if (std::optional<BoundExpr> past = exists_past_rows(resolved)) return past;
        const ast::Expr& exists = exists_without_limit(resolved);
        std::optional<BoundExpr> bound = exists_by_search(exists);
        if (!bound) bound = exists_by_outer_values(exists, /*semi=*/false);
        if (bound) select_list_resolves(exists);
        return bound;
      });
    };
    subqueries_.correlated_scalar = [this](const ast::Expr& e) {
      return remembered(e, [&] {
        const ast::Expr& resolved = aliases_resolved(e);
        std::optional<BoundExpr> bound = scalar_by_left_join(resolved);
        return bound ? bound : scalar_by_outer_values(resolved);
      });
    };
    subqueries_.correlated_in = [this](const ast::Expr& e, const BoundExpr& x) {
      return remembered(e, [&] { return in_by_outer_values(e, x, /*semi=*/false); });
    };
    subqueries_.outer_references = [this](const ast::SelectStatement& inner, bool items) {
      // As the row-level hooks read it: derived tables inlined, bare outer names qualified.
      const ast::Expr& resolved = aliases_resolved(made_subquery(ExprKind::Subquery, ast::clone(inner), 0));
      return outer_references(*resolved.subquery, items);
    };
    subqueries_.names = names_;
  }
  QueryBinder(const QueryBinder&) = delete;
  QueryBinder& operator=(const QueryBinder&) = delete;

  BoundQuery bind(const ast::SelectStatement& s) {
    std::optional<ast::SelectStatement> two_level;
    if (has_distinct_aggregate_to_rewrite(s)) two_level = distinct_aggregates_rewritten(s, sql_, group_keys_of(s));
    if (two_level) {
      made_.push_back(std::make_shared<const ast::SelectStatement>(*std::move(two_level)));
      try {
        return bind(*made_.back());
      } catch (const Error& error) {
        throw as_group_by_error(s, error);
      }
    }
    try {
      return bind_block(s);
    } catch (const WideExtremeFound& found) {
      // MIN or MAX of a 128-bit value: the two-level form binds in a binder
      // of its own (this one holds the first attempt's state).
      if (wide_rewrite_)
        throw Error(ErrorKind::NotSupported,
                    "not supported yet: MIN or MAX of a DECIMAL wider than 18 digits beside MIN or MAX of another one, "
                    "or beside a DISTINCT aggregate",
                    s.items.empty() ? 0 : s.items.front().expr->offset);
      made_.push_back(std::make_shared<const ast::SelectStatement>(wide_extremes_rewritten(
          s, sql_, group_keys_of(s), found.argument, found.type.precision, found.type.scale)));
      QueryBinder again(catalog_, sql_, reader_, runner_, outer_names_, depth_);
      again.wide_rewrite_ = true;
      return again.bind(*made_.back());
    } catch (const AggregatesFirstFound& found) {
      std::optional<ast::SelectStatement> rewritten =
          wide_rewrite_ || aggregates_first_ ? std::nullopt : aggregates_first_rewritten(s, sql_, group_keys_of(s));
      if (!rewritten) throw found.error;
      made_.push_back(std::make_shared<const ast::SelectStatement>(*std::move(rewritten)));
      QueryBinder again(catalog_, sql_, reader_, runner_, outer_names_, depth_);
      again.aggregates_first_ = true;
      try {
        return again.bind(*made_.back());
      } catch (const Error& error) {
        throw as_group_by_error(s, error);
      }
    } catch (const WideDistinctFound& found) {
      std::optional<ast::SelectStatement> two_level =
          wide_rewrite_ ? std::nullopt
                        : distinct_aggregates_rewritten(s, sql_, group_keys_of(s), /*every_distinct=*/true);
      if (!two_level) throw wide_aggregate_error("count(DISTINCT ...)", found.offset);
      made_.push_back(std::make_shared<const ast::SelectStatement>(*std::move(two_level)));
      QueryBinder again(catalog_, sql_, reader_, runner_, outer_names_, depth_);
      again.wide_rewrite_ = true;
      return again.bind(*made_.back());
    } catch (const Error& error) {
      if (error.kind() != ErrorKind::NotSupported || error.message().rfind(kOuterJoinOnSubquery, 0) != 0) throw;
      std::optional<ast::SelectStatement> pushed = on_subqueries_pushed(s);
      if (!pushed) throw;
      made_.push_back(std::make_shared<const ast::SelectStatement>(*std::move(pushed)));
      QueryBinder again(catalog_, sql_, reader_, runner_, outer_names_, depth_);
      try {
        return again.bind(*made_.back());
      } catch (const Error&) {
        throw error;  // the rewrite reads what the query cannot: the query's own refusal
      }
    }
  }

  static constexpr std::string_view kOuterJoinOnSubquery =
      "not supported yet: a correlated subquery in the ON condition of an outer join";

  // `a LEFT JOIN b ON p AND c`, where conjunct c holds a subquery and reads
  // b alone (b's columns, and b's as the subquery's outer columns), is `a
  // LEFT JOIN (SELECT * FROM b WHERE c) AS b ON p`: a conjunct of the
  // nullable side alone only decides which of its rows may match, so it
  // filters them first, and the subquery binds as one of a WHERE. Every
  // column c names must be qualified, or (bare) be a column of none of the
  // FROM items before b, so it means in the derived table what it meant in
  // the ON. Nullopt where no LEFT JOIN of one table has such a conjunct.
  std::optional<ast::SelectStatement> on_subqueries_pushed(const ast::SelectStatement& s) const {
    ast::SelectStatement out = ast::clone(s);
    bool changed = false;
    std::size_t group_end = 0;  // items before it are in a parenthesised group
    for (std::size_t i = 0; i < out.from.size(); ++i) {
      ast::TableRef& ref = out.from[i];
      const bool in_group = i < group_end;
      group_end = std::max(group_end, i + ref.group_size);
      if (i == 0 || in_group || ref.join != ast::JoinKind::Left || !ref.on || ref.group_size != 1 || ref.joins ||
          ref.is_function || !ref.column_aliases.empty())
        continue;
      const std::string name = ref.alias.empty() ? ref.name : ref.alias;
      // A bare name may be a column of an item before b only where that
      // item is a catalog table without the column.
      auto before_has = [&](const std::string& column) {
        for (std::size_t j = 0; j < i; ++j) {
          const ast::TableRef& r = s.from[j];  // as written: items before may be rewritten already
          std::shared_ptr<const Table> table =
              r.subquery || r.is_function || r.joins || (names_ && names_->find(r.name)) ? nullptr : catalog_.find(r.name);
          if (!table || table->find_column(column) >= 0) return true;
        }
        return false;
      };
      auto reads_b_alone = [&](const ast::Expr& part) {
        bool alone = true;
        for_each_column(part, [&](const ast::Expr& c, const std::vector<std::string>& local) {
          if (c.table.empty()) alone = alone && !before_has(c.name);
          else if (!iequals(c.table, name))
            alone = alone && std::any_of(local.begin(), local.end(), [&](const std::string& n) { return iequals(n, c.table); });
        });
        return alone;
      };
      std::vector<const ast::Expr*> parts;
      split_and(*ref.on, parts);
      ast::ExprPtr filter, kept;
      for (const ast::Expr* part : parts) {
        ast::ExprPtr& to = has_subquery(*part) && reads_b_alone(*part) ? filter : kept;
        to = to ? ast::make_binary(ast::BinaryOp::And, std::move(to), ast::clone(*part), part->offset) : ast::clone(*part);
      }
      if (!filter) continue;
      auto rows = std::make_shared<ast::SelectStatement>();
      ast::TableRef table;
      table.name = ref.name;
      table.alias = ref.alias;
      table.offset = ref.offset;
      rows->from.push_back(std::move(table));
      rows->items.push_back({ast::make_star("", ref.offset), ""});
      rows->where = std::move(filter);
      ast::TableRef derived;
      derived.alias = name;
      derived.offset = ref.offset;
      derived.join = ref.join;
      derived.on = kept ? std::move(kept) : ast::make_bool_literal(true, ref.on->offset);
      derived.subquery = std::move(rows);
      ref = std::move(derived);
      changed = true;
    }
    if (!changed) return std::nullopt;
    return out;
  }

  // `error` from binding a two-level rewrite of `s`, as `s` would have it: a
  // column the outer level does not see is one that is neither a group key
  // nor in an aggregate -- DuckDB's error, not the rewrite's names.
  Error as_group_by_error(const ast::SelectStatement& s, const Error& error) {
    const ast::Expr* column = error.kind() == ErrorKind::Binder && error.offset() &&
                                      error.message().rfind("Referenced ", 0) == 0
                                  ? column_at(s, *error.offset())
                                  : nullptr;
    if (!column) return error;
    QueryBinder own(catalog_, sql_, reader_, runner_, outer_names_, depth_);
    own.enter_with(s);
    own.bind_from(s);
    own.bind_using(s);
    TableScope(own.q_, "SELECT").resolve(*column);  // a name FROM does not have: its own error
    return Error(ErrorKind::Binder,
                 "column \"" + (column->table.empty() ? column->name : column->table + "." + column->name) +
                     "\" must appear in the GROUP BY clause or must be part of an aggregate function",
                 column->offset);
  }

  // The GROUP BY keys of `s` for the rewrites of distinct_aggregates.hpp,
  // resolved as bind_group_by() resolves them. A binder of s's FROM alone
  // is made when a key names a select alias or an expression is no key's
  // text (`t.g` beside GROUP BY g): most queries need none.
  GroupKeys group_keys_of(const ast::SelectStatement& s) {
    auto from = std::make_shared<std::unique_ptr<QueryBinder>>();
    auto binder = [this, &s, from]() -> QueryBinder& {
      if (!*from) {
        auto own = std::make_unique<QueryBinder>(catalog_, sql_, reader_, runner_, outer_names_, depth_);
        own->enter_with(s);
        own->bind_from(s);
        own->bind_using(s);
        *from = std::move(own);
      }
      return **from;
    };
    GroupKeys keys;
    auto exprs = std::make_shared<std::vector<ast::ExprPtr>>();
    for (const auto& g : s.group_by) {
      const bool alias = g->kind == ExprKind::Column && g->table.empty() &&
                         std::any_of(s.items.begin(), s.items.end(),
                                     [&](const ast::SelectItem& item) { return iequals(item.alias, g->name); });
      const bool position = g->kind == ExprKind::Literal && g->literal.kind == ast::Literal::Kind::Integer;
      const ast::Expr& key = alias ? binder().group_item(s, *g) : position ? group_item(s, *g) : *g;
      keys.exprs.push_back(ast::clone(key));
      exprs->push_back(ast::clone(key));
    }
    auto bound = std::make_shared<std::vector<BoundExpr>>();
    keys.index_of = [binder, exprs, bound](const ast::Expr& e) -> std::optional<std::size_t> {
      const std::string text = ast::to_string(e);
      for (std::size_t k = 0; k < exprs->size(); ++k)
        if (text == ast::to_string(*(*exprs)[k])) return k;
      try {
        QueryBinder& b = binder();
        TableScope scope(b.q_, "GROUP BY", &b.subqueries_);
        if (bound->empty())
          for (const auto& key : *exprs) bound->push_back(as_group_key(ExpressionBinder(scope).bind(*key)));
        const BoundExpr x = as_group_key(ExpressionBinder(scope).bind(e));
        for (std::size_t k = 0; k < bound->size(); ++k)
          if (same_expression((*bound)[k], x)) return k;
      } catch (const Error&) {
        // Not a key: the rewritten query's binding words any error.
      }
      return std::nullopt;
    };
    return keys;
  }

  BoundQuery bind_block(const ast::SelectStatement& s) {
    enter_with(s);
    if (s.set_operation) return bind_set_operation(s);
    if (s.from.empty()) bind_no_from(s);
    else bind_from(s);
    bind_using(s);
    statement_ = &s;
    if (s.where) bind_where(*s.where);
    for (const auto& ref : s.from) {
      const ast::Expr* condition = ref.on ? ref.on.get() : using_conditions_.contains(&ref) ? using_conditions_.at(&ref).get() : nullptr;
      if (condition) {
        TableScope on_scope(q_, "JOIN condition", &subqueries_);
        binding_on_ = true;
        BoundExpr on = ExpressionBinder(on_scope).bind_boolean(*condition, "JOIN condition");
        binding_on_ = false;
        if (on_tables_.contains(&ref)) bind_outer_condition(ref, std::move(on));
        else add_conjuncts(std::move(on));
      }
    }

    q_.aggregated = !s.group_by.empty() || s.having;
    for (const auto& item : s.items)
      if (AggregateScope::contains_aggregate(*item.expr)) q_.aggregated = true;
    for (const auto& o : s.order_by)
      if (AggregateScope::contains_aggregate(*o.expr)) q_.aggregated = true;

    bind_group_by(s);
    bind_select_list(s);
    bind_having(s);
    q_.distinct = s.distinct;
    bind_order_by(s);
    bind_limit(s);
    return std::move(q_);
  }

 private:
  const Catalog& catalog_;
  std::string_view sql_;
  TableFunctionReader reader_;
  const SubqueryRunner& runner_;
  Subqueries subqueries_;
  BoundQuery q_;
  // The nullable side of a LEFT or RIGHT JOIN: FROM items [head, head +
  // size) -- a LEFT JOIN's table or group in parentheses, the items before
  // a RIGHT JOIN back to the last comma -- joined among themselves first,
  // then to the rest by `join`'s ON.
  struct NullableUnit {
    const ast::TableRef* head = nullptr;
    std::size_t size = 1;
    const ast::TableRef* join = nullptr;
    std::size_t table = 0;  // the head's index in q_.tables, once bound
  };
  std::vector<NullableUnit> units_;
  std::map<const ast::TableRef*, std::size_t> unit_of_;      // a member's unit, by index
  std::set<const ast::TableRef*> full_partners_;             // the item before a FULL JOIN
  // The table that keeps an ON condition an outer join needs, by the FROM
  // item that has it: a unit's head (its JOIN's and its members' inner
  // ONs), a FULL JOIN's own table.
  std::map<const ast::TableRef*, std::size_t> on_tables_;
  std::map<const ast::TableRef*, int> scope_ends_;  // the column end an item's ON may read
  std::map<const ast::TableRef*, ast::ExprPtr> using_conditions_;  // the ON a USING or NATURAL join stands for
  std::vector<ast::ExprPtr> using_values_;  // what each of q_.using_columns reads, as written
  const NamedQueries* names_;                                  // what FROM may name besides tables
  const NamedQueries* outer_names_;                            // names_ before this query's WITH
  bool aggregates_first_ = false;  // the statement is aggregates_first_rewritten()'s (it binds no second time)
  bool wide_rewrite_ = false;  // the statement is a two-level rewrite made for a 128-bit value (it binds no second time)
  std::vector<std::shared_ptr<const ast::SelectStatement>> made_;  // statements this binder made, kept while it lives
  std::vector<ast::ExprPtr> made_exprs_;                            // and expressions
  std::map<std::string, std::optional<BoundExpr>> correlated_;     // bound correlated subqueries, by their text
  const ast::SelectStatement* statement_ = nullptr;               // the statement bind() binds
  bool binding_on_ = false;                                        // an ON condition binds (its rows are before WHERE)
  std::vector<const ast::Expr*> where_parts_;                     // its WHERE's conjuncts, while bind_where() runs
  std::map<int, NamedQueries*> outer_join_keys_;  // narrow_by_outer_joins()'s rows, by the column (in with_), while bind_where() runs

  template <class F>
  std::optional<BoundExpr> remembered(const ast::Expr& e, F&& bind) {
    // x IN (SELECT ...) by x's text too (NOT IN negates the same value).
    const std::string key = (e.kind == ExprKind::Exists       ? "EXISTS "
                             : e.kind == ExprKind::InSubquery ? ast::to_string(*e.args[0]) + " IN "
                                                              : "") +
                            ast::to_string(*e.subquery);
    auto found = correlated_.find(key);
    if (found != correlated_.end()) return found->second;
    std::optional<BoundExpr> bound = bind();
    correlated_.emplace(key, bound);
    return bound;
  }
  std::vector<std::unique_ptr<NamedQueries>> with_;            // this query's WITH, chained onto names_
  int depth_;
  static constexpr int kMaxNamedDepth = 64;

  // WITH a AS (...), b AS (...): each joins the chain of names, seeing the
  // ones before it.
  void enter_with(const ast::SelectStatement& s) {
    for (std::size_t i = 0; i < s.with.size(); ++i) {
      const ast::CommonTableExpression& cte = s.with[i];
      for (std::size_t j = 0; j < i; ++j)
        if (iequals(s.with[j].name, cte.name))
          throw Error(ErrorKind::Parser, "Duplicate CTE name \"" + cte.name + "\"", cte.offset);
      auto node = std::make_unique<NamedQueries>();
      node->name = cte.name;
      node->column_aliases = cte.column_aliases;
      node->query = cte.query;
      node->defined_in = names_;
      node->parent = names_;
      names_ = node.get();
      with_.push_back(std::move(node));
    }
    subqueries_.names = names_;
  }

  // left UNION right, INTERSECT, EXCEPT (set_operation.hpp): each side
  // runs, once, and the SELECT over their rows binds in their place.
  BoundQuery bind_set_operation(const ast::SelectStatement& s) {
    const ast::SetOperation& op = *s.set_operation;
    if (!runner_.table_of || !runner_.result)
      throw Error(ErrorKind::NotSupported, "not supported yet: set operations here", op.offset);
    TableScope outer(q_, "FROM", &subqueries_);
    std::shared_ptr<ResultData> left = subqueries_.result(*op.left, op.offset, outer);
    std::shared_ptr<ResultData> right = subqueries_.result(*op.right, op.offset, outer);
    const std::vector<std::string> names = left->names;
    static constexpr const char* kNames[] = {"union", "intersect", "except"};
    ResultData both =
        set_operation_rows(*left, *right, op.kind != ast::SetOperation::Kind::Union, op.offset);
    left.reset();
    right.reset();
    NamedQueries rows;
    rows.name = kNames[static_cast<int>(op.kind)];
    rows.table = runner_.table_of(rows.name, both);
    rows.parent = names_;
    if (op.all && op.kind != ast::SetOperation::Kind::Union) {
      // Duplicates kept: the rows are counted per side, then repeated.
      std::shared_ptr<ResultData> counts = runner_.result(set_operation_counts_select(*rows.table), &rows);
      ResultData repeated = repeated_rows(std::move(*counts), op.kind);
      rows.table = runner_.table_of(rows.name, repeated);
      const ast::SelectStatement select = set_operation_select(s, *rows.table, names, /*as_is=*/true);
      return QueryBinder(catalog_, sql_, reader_, runner_, &rows, depth_).bind(select);
    }
    const ast::SelectStatement select = set_operation_select(s, *rows.table, names);
    return QueryBinder(catalog_, sql_, reader_, runner_, &rows, depth_).bind(select);
  }

  // An ON condition an outer join needs, kept with its table (`on_tables_`);
  // it may read its item (or group) and the ones before it in FROM only.
  // `a RIGHT JOIN b ON c` is `b LEFT JOIN a ON c` with a's columns first: a
  // joins after b as a LEFT JOIN's table would. `a FULL JOIN b ON c` marks
  // both nullable, b `full_outer` with the condition.
  void bind_outer_condition(const ast::TableRef& ref, BoundExpr on) {
    BoundTableRef& t = q_.tables[on_tables_.at(&ref)];
    std::vector<BoundExpr> parts;
    std::function<void(BoundExpr)> split = [&](BoundExpr e) {
      if (e.op == Op::And) {
        for (auto& child : e.children) split(std::move(child));
        return;
      }
      if (e.op == Op::Constant && !e.constant.null_constant && e.constant.value.i != 0) return;  // TRUE
      parts.push_back(std::move(e));
    };
    split(std::move(on));
    const int end = scope_ends_.at(&ref);
    std::function<void(const BoundExpr&)> check = [&](const BoundExpr& e) {
      if (e.op == Op::Column && e.column >= end) {
        const std::string& name = q_.column_names.at(static_cast<std::size_t>(e.column));
        for (const BoundTableRef& table : q_.tables)
          if (table.hidden && e.column >= table.first_column && e.column < table.first_column + table.column_count())
            throw Error(ErrorKind::NotSupported, std::string(kOuterJoinOnSubquery), e.offset);
        throw Error(ErrorKind::Binder,
                    "Referenced table \"" + name.substr(0, name.find('.')) + "\" not found!", e.offset);
      }
      for (const auto& child : e.children) check(child);
    };
    for (const auto& p : parts) check(p);
    t.on.insert(t.on.end(), std::make_move_iterator(parts.begin()), std::make_move_iterator(parts.end()));
  }

  // WHERE: a condition `x IN (SELECT ...)` joined to the rest by AND is a
  // join with the subquery's distinct values (semi_join()); the rest binds
  // as one expression.
  void bind_where(const ast::Expr& where) {
    std::vector<const ast::Expr*> parts;
    split_and(where, parts);
    const bool any_subquery = std::any_of(parts.begin(), parts.end(), [](const ast::Expr* p) {
      return (p->kind == ExprKind::InSubquery && !p->negated) || p->kind == ExprKind::Exists || not_exists(*p) ||
             subquery_comparison(*p);
    });
    TableScope scope(q_, "WHERE", &subqueries_);
    ExpressionBinder binder(scope);
    if (!any_subquery) {
      add_conjuncts(binder.bind_boolean(where, "WHERE clause"));
      return;
    }
    for (const ast::Expr*& part : parts) {
      if (part->kind == ExprKind::InSubquery && !part->negated && part->args[0]->kind == ExprKind::Row) {
        made_exprs_.push_back(row_in_exists(*part));  // TRUE where the IN is
        part = made_exprs_.back().get();
      }
      if (part->kind == ExprKind::Exists) {
        part = &exists_without_limit(aliases_resolved(*part));
      } else if (not_exists(*part)) {
        const ast::Expr& exists = exists_without_limit(aliases_resolved(*part->args[0]));
        if (&exists == part->args[0].get()) continue;
        made_exprs_.push_back(ast::make_unary(ast::UnaryOp::Not, ast::clone(exists), part->offset));
        part = made_exprs_.back().get();
      }
    }
    where_parts_ = parts;
    for (const ast::Expr* part : parts) {
      if (part->kind == ExprKind::InSubquery && !part->negated) in_join(*part, binder);
      else if (!(subquery_comparison(*part) && join_correlated(*part)) &&
               !(part->kind == ExprKind::Exists &&
                 (join_exists(*part) || exists_join(*part, false) || exists_by_outer_values(*part, /*semi=*/true)) &&
                 select_list_resolves(*part)) &&
               !(not_exists(*part) && exists_join(*part->args[0], true) && select_list_resolves(*part->args[0])))
        add_conjuncts(binder.bind_boolean(*part, "WHERE clause"));
    }
    where_parts_.clear();
    outer_join_keys_.clear();  // made from these conjuncts
  }

  // x IN (SELECT ...) as a condition of WHERE joined by AND: a join with
  // its distinct values (semi_join()), or, correlated, with its distinct
  // values over D (in_by_outer_values()).
  void in_join(const ast::Expr& in, ExpressionBinder& binder) {
    try {
      semi_join(in);
    } catch (const Error& error) {
      if (error.kind() != ErrorKind::NotSupported || error.message().rfind(Subqueries::kCorrelated, 0) != 0) throw;
      if (!in_by_outer_values(in, binder.bind(*in.args[0]), /*semi=*/true)) throw;
    }
  }

  static bool not_exists(const ast::Expr& e) {
    return e.kind == ExprKind::Unary && e.unary_op == ast::UnaryOp::Not && e.args[0]->kind == ExprKind::Exists;
  }

  // `x op (SELECT ...)` or `(SELECT ...) op x`, op a comparison.
  static bool subquery_comparison(const ast::Expr& e) {
    if (e.kind != ExprKind::Binary || !is_comparison(to_op(e.binary_op))) return false;
    return (e.args[0]->kind == ExprKind::Subquery) != (e.args[1]->kind == ExprKind::Subquery);
  }

  // An expression of aggregates other than COUNT, constants, + - * / and
  // CAST, with at least one aggregate: NULL over no rows, as the scalar
  // subquery it stands in would be.
  static bool null_over_no_rows(const ast::Expr& e, bool& aggregate) {
    switch (e.kind) {
      case ExprKind::Literal: return e.literal.kind != ast::Literal::Kind::Null;
      case ExprKind::Function:
        if (e.name == "sum" || e.name == "avg" || e.name == "min" || e.name == "max") {
          aggregate = true;
          return true;
        }
        return false;
      case ExprKind::Unary: return e.unary_op == ast::UnaryOp::Negate && null_over_no_rows(*e.args[0], aggregate);
      case ExprKind::Binary:
        switch (e.binary_op) {
          case ast::BinaryOp::Add: case ast::BinaryOp::Sub: case ast::BinaryOp::Mul: case ast::BinaryOp::Div:
            return null_over_no_rows(*e.args[0], aggregate) && null_over_no_rows(*e.args[1], aggregate);
          default: return false;
        }
      case ExprKind::Cast: return null_over_no_rows(*e.args[0], aggregate);
      default: return false;
    }
  }

  static void collect_columns(const ast::Expr& e, std::vector<const ast::Expr*>& out) {
    if (e.kind == ExprKind::Column) out.push_back(&e);
    for (const auto& a : e.args) collect_columns(*a, out);
  }

  // A correlated scalar subquery compared in a WHERE condition, of the shape
  // TPC-H Q2 and Q17 have -- x op (SELECT agg-expr FROM ... WHERE inner_k =
  // outer_k AND local conditions) -- unnested into a join: the subquery
  // grouped by its correlation keys runs once, first, and joins on them;
  // the condition compares x with its value. A row whose keys find no group
  // would compare with NULL (the aggregate over no rows) and leave WHERE,
  // as it leaves the join. False, with nothing changed, for any other shape
  // (the subquery then binds as a scalar one, which says what it lacks).
  // The correlation of a subquery whose WHERE ties it to this query by
  // equalities only: inner_key = outer_key conditions (keys) and the rest,
  // which read the subquery's own columns (local). Nullopt for any other
  // shape, or a subquery with no correlation.
  // With `unequal`, inner_c <> outer_x conditions too (Correlation::unequal).
  struct Correlation {
    std::vector<std::pair<const ast::Expr*, const ast::Expr*>> keys;     // (inner, outer)
    std::vector<std::pair<const ast::Expr*, const ast::Expr*>> unequal;  // (inner, outer)
    std::vector<const ast::Expr*> local;
    std::size_t inner_rows = 0;    // rows of the subquery's largest table
    std::size_t inner_tables = 0;  // tables the subquery reads
  };
  std::optional<Correlation> correlate(const ast::SelectStatement& inner,
                                       const std::vector<const ast::Expr*>& inner_only, bool unequal = false) {
    if (inner.from.empty() || !inner.where || inner.limit || inner.offset) return std::nullopt;
    for (const auto& ref : inner.from)
      if (ref.on || ref.join != ast::JoinKind::Comma) return std::nullopt;
    // Which names are the subquery's own: its FROM alone, bound apart.
    QueryBinder own(catalog_, sql_, reader_, runner_, names_, depth_);
    own.enter_with(inner);
    own.bind_from(inner);
    Correlation found;
    for (const BoundTableRef& t : own.q_.tables) found.inner_rows = std::max(found.inner_rows, t.table->rows);
    found.inner_tables = own.q_.tables.size();
    TableScope inner_scope(own.q_, "WHERE"), outer_scope(q_, "WHERE", &subqueries_);
    auto resolves = [](const TableScope& scope, const ast::Expr& column) {
      try {
        scope.resolve(column);
        return true;
      } catch (const Error&) {
        return false;
      }
    };
    // Where an expression's columns come from: 1 the subquery, 2 the query
    // around it, 3 both, 0 none (or a name neither has: it fails later).
    auto origin = [&](const ast::Expr& e) {
      std::vector<const ast::Expr*> columns;
      collect_columns(e, columns);
      int from = 0;
      for (const ast::Expr* c : columns) {
        if (resolves(inner_scope, *c)) from |= 1;
        else if (resolves(outer_scope, *c)) from |= 2;
        else return 0;
      }
      return from;
    };
    std::vector<const ast::Expr*> conditions;
    split_and(*inner.where, conditions);
    for (const ast::Expr* c : conditions) {
      if (has_subquery(*c)) return std::nullopt;
      const int from = origin(*c);
      if (from <= 1) {
        found.local.push_back(c);
        continue;
      }
      if (from != 3 || c->kind != ExprKind::Binary) return std::nullopt;
      auto& list = c->binary_op == ast::BinaryOp::Eq                ? found.keys
                   : unequal && c->binary_op == ast::BinaryOp::Ne ? found.unequal
                                                                   : found.keys;
      if (c->binary_op != ast::BinaryOp::Eq && &list == &found.keys) return std::nullopt;
      const int a = origin(*c->args[0]), b = origin(*c->args[1]);
      if (a == 1 && b == 2) list.push_back({c->args[0].get(), c->args[1].get()});
      else if (a == 2 && b == 1) list.push_back({c->args[1].get(), c->args[0].get()});
      else return std::nullopt;
    }
    if (found.keys.empty()) return std::nullopt;
    for (const ast::Expr* e : inner_only) {
      std::vector<const ast::Expr*> columns;
      collect_columns(*e, columns);
      for (const ast::Expr* c : columns)
        if (!resolves(inner_scope, *c)) return std::nullopt;
    }
    return found;
  }

  // The subquery's FROM items (comma-joined: correlate() takes no other).
  static std::vector<ast::TableRef> copy_from(const ast::SelectStatement& inner) {
    std::vector<ast::TableRef> out;
    for (const auto& ref : inner.from) {
      ast::TableRef copy;
      copy.name = ref.name;
      copy.alias = ref.alias;
      copy.column_aliases = ref.column_aliases;
      copy.offset = ref.offset;
      copy.is_function = ref.is_function;
      for (const auto& a : ref.function_args) copy.function_args.push_back(ast::clone(*a));
      for (const auto& [name, a] : ref.function_named_args) copy.function_named_args.emplace_back(name, ast::clone(*a));
      copy.subquery = ref.subquery;
      out.push_back(std::move(copy));
    }
    return out;
  }

  // SELECT [DISTINCT] inner_k0 AS k0, ..., FROM (the subquery's) WHERE local
  // [GROUP BY the keys]: the subquery over every key at once.
  static ast::SelectStatement by_keys(const ast::SelectStatement& inner, const Correlation& c, bool group) {
    ast::SelectStatement out;
    out.with = inner.with;
    out.distinct = !group;
    for (std::size_t i = 0; i < c.keys.size(); ++i) {
      out.items.push_back({ast::clone(*c.keys[i].first), "k" + std::to_string(i)});
      if (group) out.group_by.push_back(ast::clone(*c.keys[i].first));
    }
    out.from = copy_from(inner);
    for (const ast::Expr* l : c.local)
      out.where = out.where ? ast::make_binary(ast::BinaryOp::And, std::move(out.where), ast::clone(*l), l->offset)
                            : ast::clone(*l);
    return out;
  }

  // The outer keys = the table's first columns, one condition each.
  void join_on_keys(const Correlation& c, const BoundTableRef& t, std::size_t offset) {
    TableScope outer_scope(q_, "WHERE", &subqueries_);
    ExpressionBinder binder(outer_scope);
    for (std::size_t i = 0; i < c.keys.size(); ++i) {
      BoundExpr outer = binder.bind(*c.keys[i].second);
      add_conjuncts(binder.compare(Op::Eq, std::move(outer), TableScope::column_ref(t, static_cast<int>(i), offset),
                                   offset, offset));
    }
  }

  // A correlated scalar subquery compared in a WHERE condition, of the shape
  // TPC-H Q2, Q17 and Q20 have -- x op (SELECT agg-expr FROM ... WHERE
  // inner_k = outer_k AND local conditions) -- unnested into a join: the
  // subquery grouped by its correlation keys runs once, first, and joins on
  // them; the condition compares x with its value. A row whose keys find no
  // group would compare with NULL (the aggregate over no rows) and leave
  // WHERE, as it leaves the join. False, with nothing changed, for any other
  // shape (the subquery then binds as a scalar one, which says what it lacks).
  bool join_correlated(const ast::Expr& comparison) {
    const bool left = comparison.args[0]->kind == ExprKind::Subquery;
    const ast::Expr& sub = *comparison.args[left ? 0 : 1];
    const ast::Expr& other = *comparison.args[left ? 1 : 0];
    const ast::SelectStatement& inner = *sub.subquery;
    if (inner.items.size() != 1 || inner.distinct || !inner.group_by.empty() || inner.having ||
        !inner.order_by.empty())
      return false;
    bool aggregate = false;
    if (!null_over_no_rows(*inner.items[0].expr, aggregate) || !aggregate) return false;
    std::optional<Correlation> c = correlate(inner, {inner.items[0].expr.get()});
    if (!c) return false;
    auto grouped = [&] {
      ast::SelectStatement s = by_keys(inner, *c, true);
      s.items.push_back({ast::clone(*inner.items[0].expr), "v"});
      return s;
    };
    TableScope outer_scope(q_, "WHERE", &subqueries_);
    const BoundTableRef& t = add_hidden_table(keyed_table(grouped, *c, sub.offset), "correlated", sub.offset);
    join_on_keys(*c, t, sub.offset);
    ExpressionBinder binder(outer_scope);
    BoundExpr value = TableScope::column_ref(t, static_cast<int>(c->keys.size()), sub.offset);
    BoundExpr x = binder.bind(other);
    Op op = to_op(comparison.binary_op);
    if (left) op = mirrored(op);
    add_conjuncts(binder.compare(op, std::move(x), std::move(value), comparison.offset, sub.offset));
    return true;
  }

  // The subquery over every key at once (`make` builds it), run narrowed
  // to the keys the query around it can have where that is cheap to know
  // (narrow_to_outer_keys()); as made when the narrowed one fails to bind.
  std::shared_ptr<const Table> keyed_table(const std::function<ast::SelectStatement()>& make, const Correlation& c,
                                           std::size_t at) {
    TableScope outer_scope(q_, "WHERE", &subqueries_);
    auto narrowed = std::make_shared<ast::SelectStatement>(make());
    const NamedQueries* keys = nullptr;
    if (narrow_to_outer_keys(*narrowed, c, at, keys)) {
      made_.push_back(narrowed);
      try {
        return keys ? subqueries_.table(*narrowed, at, outer_scope, keys) : subqueries_.table(*narrowed, at, outer_scope);
      } catch (const Error& error) {
        if (error.kind() != ErrorKind::Binder && error.kind() != ErrorKind::NotSupported) throw;
      }
    }
    return subqueries_.table(make(), at, outer_scope);
  }

  // Magic sets (DuckDB's delim join): a subquery grouped by its correlation
  // keys need only the groups whose keys some row of this query has. Of
  // the conjuncts of this query's WHERE: `outer_k IN (S)` carries over as
  // `inner_k IN (S)` (TPC-H Q20: lineitem of the 'forest%' parts only,
  // about 1 % of its rows, before it groups); failing that, the filters of
  // outer_k's own table give `inner_k IN (SELECT outer_k FROM that table
  // WHERE its filters)` when the subquery reads one table, at least 3 times
  // that table's rows, and the filters keep at most a fifth of them by the
  // statistics (Q4: orders of one quarter; Q17: the parts of one brand and
  // container). Narrowing runs one more query, so only a subquery whose
  // largest table has Settings::narrow_subquery_rows rows is narrowed (at
  // TPC-H SF 1 on an H100 it cost Q20 more than it saved). A superset of
  // this query's keys: every group a row joins stays. False when nothing
  // narrows. `keys`: the named rows the narrowed subquery reads, where
  // narrow_by_outer_joins() made them.
  bool narrow_to_outer_keys(ast::SelectStatement& s, const Correlation& c, std::size_t at,
                            const NamedQueries*& keys) {
    if (where_parts_.empty() || !statement_ || c.inner_rows < runner_.narrow_from_rows) return false;
    TableScope scope(q_, "WHERE", &subqueries_);
    // The table of this query a column expression reads, or -1.
    auto table_of = [&](const ast::Expr& e) -> int {
      if (e.kind != ExprKind::Column) return -1;
      try {
        const BoundExpr b = ExpressionBinder(scope).bind(e);
        if (b.op != Op::Column) return -1;
        for (std::size_t i = 0; i < q_.tables.size(); ++i) {
          const BoundTableRef& t = q_.tables[i];
          if (b.column >= t.first_column && b.column < t.first_column + t.column_count())
            return t.hidden || t.left_outer ? -1 : static_cast<int>(i);
        }
      } catch (const Error&) {
      }
      return -1;
    };
    auto column_of = [&](const ast::Expr& e) -> int {
      try {
        const BoundExpr b = ExpressionBinder(scope).bind(e);
        return b.op == Op::Column ? b.column : -1;
      } catch (const Error&) {
        return -1;
      }
    };
    auto add = [&](ast::ExprPtr condition) {
      s.where = s.where ? ast::make_binary(ast::BinaryOp::And, std::move(s.where), std::move(condition), at)
                        : std::move(condition);
    };
    auto in = [&](const ast::Expr& value, std::shared_ptr<const ast::SelectStatement> set) {
      auto e = std::make_unique<ast::Expr>();
      e->kind = ExprKind::InSubquery;
      e->offset = at;
      e->args.push_back(ast::clone(value));
      e->subquery = std::move(set);
      return e;
    };
    bool narrowed = false;
    for (const auto& [inner, outer] : c.keys) {
      const int column = outer->kind == ExprKind::Column ? column_of(*outer) : -1;
      if (column < 0) continue;
      for (const ast::Expr* part : where_parts_)
        if (part->kind == ExprKind::InSubquery && !part->negated && part->args[0]->kind == ExprKind::Column &&
            column_of(*part->args[0]) == column) {
          add(in(*inner, part->subquery));
          narrowed = true;
        }
    }
    if (narrowed) return true;
    if (c.inner_tables != 1) return false;
    auto column_distinct = [&](int column) {
      for (const BoundTableRef& t : q_.tables)
        if (column >= t.first_column && column < t.first_column + static_cast<int>(t.table->columns.size()))
          return t.table->distinct_estimate(static_cast<std::size_t>(column - t.first_column));
      return 0.0;
    };
    for (const auto& [inner, outer] : c.keys) {
      const int table = table_of(*outer);
      if (table < 0 || q_.tables[static_cast<std::size_t>(table)].table->rows > c.inner_rows / 3) continue;
      const BoundTableRef& t = q_.tables[static_cast<std::size_t>(table)];
      const ast::TableRef* ref = nullptr;
      for (const auto& r : statement_->from)
        if (!r.subquery && !r.is_function && (r.alias.empty() ? r.name : r.alias) == t.alias) ref = &r;
      if (!ref) continue;
      // The conjuncts that read this table alone (an IN (subquery) by its
      // tested value), no other subquery.
      ast::ExprPtr filters;
      double keeps = 1;
      for (const ast::Expr* part : where_parts_) {
        const bool in_set = part->kind == ExprKind::InSubquery && !part->negated;
        if (!in_set && has_subquery(*part)) continue;
        std::vector<const ast::Expr*> columns;
        collect_columns(in_set ? *part->args[0] : *part, columns);
        if (columns.empty() || has_subquery(in_set ? *part->args[0] : *part)) continue;
        if (!std::all_of(columns.begin(), columns.end(), [&](const ast::Expr* col) { return table_of(*col) == table; }))
          continue;
        try {  // an IN set's share is not known before it runs: a third
          keeps *= in_set ? 0.33 : selectivity(ExpressionBinder(scope).bind_boolean(*part, "WHERE clause"),
                                               ColumnKnowledge{column_distinct, {}});
        } catch (const Error&) {
          continue;
        }
        filters = filters ? ast::make_binary(ast::BinaryOp::And, std::move(filters), ast::clone(*part), at)
                          : ast::clone(*part);
      }
      if (!filters || keeps > 0.2) continue;
      auto keys = std::make_shared<ast::SelectStatement>();
      keys->items.push_back({ast::clone(*outer), "k"});
      ast::TableRef from;
      from.name = ref->name;
      from.alias = ref->alias;
      from.column_aliases = ref->column_aliases;
      from.offset = ref->offset;
      keys->from.push_back(std::move(from));
      keys->where = std::move(filters);
      made_.push_back(keys);
      add(in(*inner, keys));
      narrowed = true;
    }
    return narrowed || narrow_by_outer_joins(c, at, scope, column_distinct, table_of, add, in, keys);
  }

  // The last rule of narrow_to_outer_keys(), for a subquery over one table
  // correlated with a table of this query as large as its own (TPC-H Q21:
  // EXISTS and NOT EXISTS over lineitem, correlated with lineitem l1): the
  // keys of this query's own joins. Where its FROM is tables joined by
  // commas or inner joins, its conjuncts without subqueries (and the ON
  // conditions) make the rows a correlated
  // subquery can be asked about, so `inner_k IN (SELECT outer_k FROM this
  // FROM WHERE those conjuncts)` keeps every group a row joins. Those keys
  // run once, as rows named for every subquery correlated on the same
  // column (Q21's two), and only where the single-table conjuncts keep at
  // most a fifth of the rows by the statistics, as if each table's filter
  // carried through its joins (Q21: one nation of 25 and the orders of one
  // status, 0.7 M of lineitem's 60 M rows at SF 10).
  template <class ColumnDistinct, class TableOf, class Add, class In>
  bool narrow_by_outer_joins(const Correlation& c, std::size_t at, TableScope& scope,
                             const ColumnDistinct& column_distinct, const TableOf& table_of, const Add& add,
                             const In& in, const NamedQueries*& keys) {
    if (c.inner_tables != 1 || statement_->from.size() < 2 || c.keys.size() != 1) return false;
    for (const ast::TableRef& ref : statement_->from)
      if (ref.subquery || ref.is_function || ref.group_size != 1 ||
          (ref.join != ast::JoinKind::Comma && ref.join != ast::JoinKind::Inner && ref.join != ast::JoinKind::Cross))
        return false;
    const auto& [inner, outer] = c.keys[0];
    const int table = table_of(*outer);
    if (table < 0) return false;
    const BoundExpr outer_key = ExpressionBinder(scope).bind(*outer);
    ast::ExprPtr filters;
    double keeps = 1;
    for (const ast::Expr* part : where_parts_) {
      if (has_subquery(*part)) continue;
      std::vector<const ast::Expr*> columns;
      collect_columns(*part, columns);
      const int first = columns.empty() ? -1 : table_of(*columns[0]);
      if (first >= 0 && std::all_of(columns.begin(), columns.end(), [&](const ast::Expr* col) {
            return table_of(*col) == first;
          })) {
        try {
          keeps *= selectivity(ExpressionBinder(scope).bind_boolean(*part, "WHERE clause"),
                               ColumnKnowledge{column_distinct, {}});
        } catch (const Error&) {
        }
      }
      filters = filters ? ast::make_binary(ast::BinaryOp::And, std::move(filters), ast::clone(*part), at)
                        : ast::clone(*part);
    }
    if (!filters || keeps > 0.2) return false;
    NamedQueries*& named = outer_join_keys_[outer_key.column];
    if (!named) {
      auto select = std::make_shared<ast::SelectStatement>();
      select->items.push_back({ast::clone(*outer), "k"});
      for (const ast::TableRef& ref : statement_->from) select->from.push_back(ast::clone(ref));
      select->where = std::move(filters);
      named = named_rows(select, "outer keys " + std::to_string(outer_key.column), at, scope);
      if (!named) return false;
    }
    auto set = std::make_shared<ast::SelectStatement>();
    set->items.push_back({ast::make_column("", "k", at), "k"});
    ast::TableRef from;
    from.name = named->name;
    from.offset = at;
    set->from.push_back(std::move(from));
    made_.push_back(set);
    add(in(*inner, set));
    keys = named;
    return true;
  }

  // A correlated scalar subquery anywhere else a value goes -- (SELECT
  // agg-expr FROM ... WHERE inner_k = outer_k AND local), in the select
  // list, under OR, with COUNT -- as a LEFT JOIN with the subquery grouped
  // by its keys: a row reads its group's value, or, where no group matches,
  // agg-expr over no rows (0 for COUNT, NULL for SUM, AVG, MIN, MAX), which
  // runs once as the subquery WHERE FALSE. Nullopt for any other shape.
  std::optional<BoundExpr> scalar_by_left_join(const ast::Expr& sub) {
    const ast::SelectStatement& inner = *sub.subquery;
    if (!one_aggregate_value(inner)) return std::nullopt;
    const ast::Expr& item = *inner.items[0].expr;
    std::optional<Correlation> c = correlate(inner, {&item});
    if (!c) return std::nullopt;
    const std::size_t at = sub.offset;
    TableScope outer_scope(q_, "the select list", &subqueries_);
    BoundExpr empty_value = value_over_no_rows(inner, at);
    // The groups, joined by their keys.
    ast::SelectStatement grouped = by_keys(inner, *c, true);
    grouped.items.push_back({ast::clone(item), "v"});
    std::shared_ptr<const Table> table = subqueries_.table(grouped, at, outer_scope);
    ExpressionBinder binder(outer_scope);
    std::vector<BoundExpr> outer_keys;
    for (const auto& key : c->keys) outer_keys.push_back(binder.bind(*key.second));
    return value_of_groups(std::move(table), outer_keys, std::move(empty_value), at);
  }

  // A subquery of one value that aggregates: one row whatever its FROM
  // and WHERE keep.
  static bool one_aggregate_value(const ast::SelectStatement& inner) {
    return inner.items.size() == 1 && !inner.distinct && inner.group_by.empty() && !inner.having &&
           inner.order_by.empty() && !inner.limit && !inner.offset && !inner.set_operation &&
           AggregateScope::contains_aggregate(*inner.items[0].expr);
  }

  // Such a subquery's value over no rows: it runs once, WHERE FALSE.
  BoundExpr value_over_no_rows(const ast::SelectStatement& inner, std::size_t at) {
    TableScope outer_scope(q_, "the select list", &subqueries_);
    ast::SelectStatement none;
    none.with = inner.with;
    none.items.push_back({ast::clone(*inner.items[0].expr), "v"});
    none.from = copy_from(inner);
    none.where = ast::make_bool_literal(false, at);
    ast::Expr empty;
    empty.kind = ExprKind::Subquery;
    empty.offset = at;
    empty.subquery = std::make_shared<const ast::SelectStatement>(std::move(none));
    made_.push_back(empty.subquery);  // Subqueries caches results by statement address
    return subqueries_.scalar(empty, outer_scope);
  }

  // The value over no rows of a subquery's one aggregating item that
  // reads columns of this query: the item with COUNT as 0 and the other
  // aggregates NULL, over this query's columns.
  BoundExpr value_over_no_rows_reading(const ast::Expr& item) {
    std::function<ast::ExprPtr(const ast::Expr&)> over_none = [&](const ast::Expr& e) -> ast::ExprPtr {
      if (e.kind == ExprKind::Function && is_aggregate_name(e.name)) {
        ast::Literal literal;
        if (e.name == "count") {
          literal.kind = ast::Literal::Kind::Integer;
          literal.integer = 0;
        }
        return ast::make_literal(literal, e.offset);
      }
      ast::ExprPtr copy = ast::clone(e);
      copy->args.clear();
      for (const auto& a : e.args) copy->args.push_back(over_none(*a));
      return copy;
    };
    const ast::ExprPtr none = over_none(item);
    TableScope outer_scope(q_, "the select list", &subqueries_);
    return ExpressionBinder(outer_scope).bind(*none);
  }

  // A correlated scalar subquery's value from its groups: `table` holds
  // one row per group, its keys first (equal to `outer_keys` on the rows
  // the group belongs to), then the value. LEFT JOINed: a row with no group
  // reads `empty_value`.
  BoundExpr value_of_groups(std::shared_ptr<const Table> table, const std::vector<BoundExpr>& outer_keys,
                            BoundExpr empty_value, std::size_t at, const std::vector<bool>& null_safe = {}) {
    // A group's first key is not NULL, unless keys match by IS NOT DISTINCT
    // FROM: then the column after the value is the group's TRUE.
    const int matched_column = nullable_keys(null_safe) ? static_cast<int>(outer_keys.size()) + 1 : 0;
    const std::size_t index = join_by_keys(std::move(table), "correlated", outer_keys, /*left=*/true, at, null_safe);
    BoundExpr value = TableScope::column_ref(q_.tables[index], static_cast<int>(outer_keys.size()), at);
    if (empty_value.is_null_constant()) return value;
    if (empty_value.type.id == Type::Integer && empty_value.op != Op::Column && value.type.id == Type::BigInt)
      empty_value.type = value.type;  // an integer is a BIGINT as it is (COUNT(*) + an INTEGER column over no rows)
    if (empty_value.type != value.type)
      throw Error(ErrorKind::NotSupported,
                  "not supported yet: a correlated subquery whose value over no rows is a " +
                      empty_value.type.to_string() + ", not the " + value.type.to_string() + " it has over some",
                  at);
    BoundExpr matched = node(Op::IsNotNull, DataType::boolean(),
                             {TableScope::column_ref(q_.tables[index], matched_column, at)}, at);
    return node(Op::Select, value.type, {std::move(matched), value, std::move(empty_value)}, at);
  }

  // `table` joined to this query by outer_keys[i] = its column i (IS NOT
  // DISTINCT FROM where null_safe[i]): a LEFT JOIN (every row stays, the
  // table's columns NULL where none matches) or an inner one. Its index in
  // q_.tables.
  std::size_t join_by_keys(std::shared_ptr<const Table> table, const std::string& alias,
                           const std::vector<BoundExpr>& outer_keys, bool left, std::size_t at,
                           const std::vector<bool>& null_safe = {}) {
    const std::size_t index = q_.tables.size();
    add_hidden_table(std::move(table), alias, at);
    TableScope outer_scope(q_, "WHERE", &subqueries_);
    ExpressionBinder binder(outer_scope);
    std::vector<BoundExpr> on;
    for (std::size_t i = 0; i < outer_keys.size(); ++i) {
      BoundExpr equal = binder.compare(Op::Eq, outer_keys[i],
                                       TableScope::column_ref(q_.tables[index], static_cast<int>(i), at), at, at);
      if (i < null_safe.size() && null_safe[i]) {
        for (BoundExpr& part : not_distinct(std::move(equal), at)) on.push_back(std::move(part));
      } else {
        on.push_back(std::move(equal));
      }
    }
    if (!left) {
      for (BoundExpr& e : on) add_conjuncts(std::move(e));
      return index;
    }
    q_.tables[index].left_outer = true;
    q_.tables[index].on = std::move(on);
    return index;
  }

  // Whether some key matches by IS NOT DISTINCT FROM, so that a match's key may be NULL.
  static bool nullable_keys(const std::vector<bool>& null_safe) {
    return std::find(null_safe.begin(), null_safe.end(), true) != null_safe.end();
  }

  // ---- correlated subqueries of any correlation (planner/decorrelation.hpp) ----

  // The tables `s`'s FROM names (its WITH, FROM and USING bound alone, as
  // a scope of its own names), or nullopt where they do not bind alone.
  std::optional<BoundQuery> from_alone(const ast::SelectStatement& s) const {
    QueryBinder own(catalog_, sql_, reader_, runner_, names_, depth_);
    try {
      own.enter_with(s);
      own.bind_from(s);
      own.bind_using(s);
    } catch (const Error&) {
      return std::nullopt;
    }
    return std::move(own.q_);
  }

  // The columns of this query a subquery reads, one per text, or nullopt
  // where it reads one neither query has, one its own FROM has twice, or
  // its FROM does not bind alone.
  // `items`: the select list's columns count (not for EXISTS).
  std::optional<std::vector<const ast::Expr*>> outer_references(const ast::SelectStatement& inner, bool items) {
    if (inner.set_operation || inner.from.empty()) return std::nullopt;
    const std::optional<BoundQuery> own = from_alone(inner);
    if (!own) return std::nullopt;
    TableScope inner_scope(*own, "WHERE"), outer_scope(q_, "WHERE", &subqueries_);
    std::vector<const ast::Expr*> out;
    std::set<std::string> seen;
    for (const ast::Expr* column : subquery_columns(inner, items)) {
      try {
        inner_scope.resolve(*column);
        continue;
      } catch (const Error& inner_error) {
        if (inner_error.message().find("not found") == std::string::npos) return std::nullopt;  // ambiguous
        try {
          outer_scope.resolve(*column);
        } catch (const Error& outer_error) {
          // A name neither query has: the subquery's error, or, for a
          // table only this query has, this one's ("emp.nope").
          if (inner_error.message().rfind("Referenced table", 0) == 0) throw outer_error;
          throw;
        }
      }
      if (seen.insert(ast::to_string(*column)).second) out.push_back(column);
    }
    // A subquery nested in it that reads this query (two levels out): the
    // rewritten subquery reads D's column there too. One further out, or
    // none, leaves it as it is.
    for (const ast::Expr* column : nested_outer_columns(inner, items)) {
      try {
        outer_scope.resolve(*column);
      } catch (const Error&) {
        return std::nullopt;
      }
      if (seen.insert(ast::to_string(*column)).second) out.push_back(column);
    }
    return out;
  }

  // A correlated subquery's outer references and the table of the distinct
  // values they take in this query (D), named for the rewritten subquery's
  // FROM.
  struct OuterValues {
    std::vector<const ast::Expr*> columns;  // the outer references, one per text
    std::vector<std::string> texts;         // as written (ast::to_string)
    std::vector<BoundExpr> bound;           // over this query's columns
    // Per column: a NULL does not make the subquery's WHERE reject its rows,
    // so D's NULL joins back by IS NOT DISTINCT FROM.
    std::vector<bool> null_safe;
    std::string name;                       // D, as FROM names it
    const NamedQueries* names = nullptr;    // the named queries with D
  };

  // D for `inner`: SELECT DISTINCT o1, ..., ok FROM (this query's FROM)
  // WHERE (the conditions of its WHERE without subqueries) -- the values of
  // every row the subquery is asked about, and maybe more; a subquery in an
  // ON condition sees rows before WHERE, so there WHERE is left out.
  // Nullopt where a reference does not reject NULLs, or D does not run on
  // its own (this query is itself correlated).
  std::optional<OuterValues> outer_values(const ast::SelectStatement& inner, std::size_t at, bool items = true) {
    if (inner.limit || inner.offset || !statement_) return std::nullopt;
    // D runs a query of its own, which may bind subqueries of its own: a
    // bound on how deep that goes, should some path lead back here.
    static thread_local int depth = 0;
    if (depth >= kMaxOuterValuesDepth) return std::nullopt;
    ++depth;
    struct Leave {
      ~Leave() { --depth; }
    } leave;
    std::optional<std::vector<const ast::Expr*>> references = outer_references(inner, items);
    if (!references || references->empty()) return std::nullopt;
    OuterValues v;
    v.columns = *std::move(references);
    TableScope scope(q_, "WHERE", &subqueries_);
    auto select = std::make_shared<ast::SelectStatement>();
    select->distinct = true;
    for (std::size_t i = 0; i < v.columns.size(); ++i) {
      v.texts.push_back(ast::to_string(*v.columns[i]));
      v.bound.push_back(ExpressionBinder(scope).bind(*v.columns[i]));
      v.null_safe.push_back(!rejects_nulls_of(inner.where.get(), v.texts.back()));
      if (v.null_safe.back() && v.bound.back().type.is_wide_decimal()) return std::nullopt;  // keys hold 64 bits
      select->items.push_back({ast::clone(*v.columns[i]), outer_value_name(i)});
    }
    for (const ast::TableRef& ref : statement_->from) {
      // An ON condition's conjuncts with subqueries left out (this one's
      // among them): more pairs, a superset of the values.
      ast::TableRef copy = ast::clone(ref);
      if (ref.on && has_subquery(*ref.on)) {
        std::vector<const ast::Expr*> parts;
        split_and(*ref.on, parts);
        copy.on.reset();
        for (const ast::Expr* part : parts)
          if (!has_subquery(*part))
            copy.on = copy.on ? ast::make_binary(ast::BinaryOp::And, std::move(copy.on), ast::clone(*part), at)
                              : ast::clone(*part);
        if (!copy.on) copy.on = ast::make_bool_literal(true, at);
      }
      select->from.push_back(std::move(copy));
    }
    if (statement_->where && !binding_on_) {
      std::vector<const ast::Expr*> parts;
      split_and(*statement_->where, parts);
      for (const ast::Expr* part : parts)
        if (!has_subquery(*part))
          select->where = select->where
                              ? ast::make_binary(ast::BinaryOp::And, std::move(select->where), ast::clone(*part), at)
                              : ast::clone(*part);
    }
    const NamedQueries* named = named_rows(select, "outer values " + std::to_string(with_.size()), at, scope);
    if (!named) return std::nullopt;
    v.name = named->name;
    v.names = named;
    return v;
  }

  // The rows of `select`, run once, named `name` (one no unquoted FROM can
  // say) for the statements this binder makes; null where it does not bind
  // on its own (the query around it is correlated itself).
  NamedQueries* named_rows(std::shared_ptr<ast::SelectStatement> select, std::string name, std::size_t at,
                           const TableScope& scope) {
    made_.push_back(select);
    std::shared_ptr<const Table> rows;
    try {
      rows = subqueries_.table(*select, at, scope);
    } catch (const Error& error) {
      if (error.kind() != ErrorKind::Binder && error.kind() != ErrorKind::NotSupported) throw;
      return nullptr;
    }
    auto node = std::make_unique<NamedQueries>();
    node->name = std::move(name);
    node->table = std::move(rows);
    node->defined_in = names_;
    node->parent = names_;
    with_.push_back(std::move(node));
    return with_.back().get();
  }

  static constexpr int kMaxOuterValuesDepth = 8;

  bool reads_outer(const ast::Expr& e, const OuterValues& v) const {
    std::vector<const ast::Expr*> columns;
    collect_columns(e, columns);
    return std::any_of(columns.begin(), columns.end(), [&](const ast::Expr* c) {
      return std::find(v.texts.begin(), v.texts.end(), ast::to_string(*c)) != v.texts.end();
    });
  }

  // A correlated EXISTS or IN over `A UNION [ALL] B` (no ORDER BY, LIMIT
  // or OFFSET of the whole) asks A or B: EXISTS (A UNION B) is EXISTS A OR
  // EXISTS B, and x IN (A UNION B) is x IN A OR x IN B, NULLs too (TRUE
  // where either matches; else NULL where either is). The two subquery
  // expressions, each correlated or not (made_ keeps them, each with the
  // WITH around it), or nullopt for any other subquery.
  std::optional<std::pair<const ast::Expr&, const ast::Expr&>> union_operands(const ast::Expr& sub) {
    const ast::SelectStatement& s = *sub.subquery;
    const ast::SetOperation* op = s.set_operation.get();
    if (!op || op->kind != ast::SetOperation::Kind::Union || !s.order_by.empty() || s.limit || s.offset)
      return std::nullopt;
    auto operand = [&](const ast::SelectStatement& side) -> const ast::Expr& {
      ast::SelectStatement copy = ast::clone(side);
      copy.with.insert(copy.with.begin(), s.with.begin(), s.with.end());
      const ast::Expr& made = made_like(sub, std::move(copy));
      made_exprs_.back()->negated = false;  // NOT IN negates the OR of the two
      return made;
    };
    const ast::Expr& left = operand(*op->left);
    return std::pair<const ast::Expr&, const ast::Expr&>(left, operand(*op->right));
  }

  // The one column a correlated subquery's select list gives: DuckDB's
  // error where it gives more. Where the list is * (or t.*) of one column,
  // the subquery with that column named in its place (made_ keeps it);
  // else `sub` itself.
  const ast::Expr& one_column(const ast::Expr& sub) {
    const ast::SelectStatement& inner = *sub.subquery;
    const bool star = std::any_of(inner.items.begin(), inner.items.end(),
                                  [](const ast::SelectItem& item) { return item.expr->kind == ExprKind::Star; });
    auto too_many = [&](std::size_t columns) {
      return Error(ErrorKind::Binder, "Subquery returns " + std::to_string(columns) + " columns - expected 1",
                   sub.offset);
    };
    if (!star && inner.items.size() > 1) throw too_many(inner.items.size());
    if (!star || inner.set_operation) return sub;
    // What * stands for: the select list over FROM alone (unless it reads
    // an outer column, which FROM alone cannot bind).
    ast::SelectStatement items;
    items.with = inner.with;
    for (const ast::TableRef& r : inner.from) items.from.push_back(ast::clone(r));
    for (const ast::SelectItem& item : inner.items) items.items.push_back({ast::clone(*item.expr), item.alias});
    BoundQuery b;
    try {
      b = QueryBinder(catalog_, sql_, reader_, runner_, names_, depth_).bind(items);
    } catch (const Error&) {
      return sub;
    }
    if (b.visible > 1) throw too_many(b.visible);
    const ast::Expr& item = *inner.items[0].expr;
    if (inner.items.size() != 1 || b.visible != 1 || (item.table.empty() && b.sources.size() != 1)) return sub;
    ast::SelectStatement named = ast::clone(inner);
    named.items[0].expr =
        ast::make_column(item.table.empty() ? alias_of(b, b.sources[0]) : item.table, b.names[0], item.offset);
    return made_like(sub, std::move(named));
  }

  // A correlated subquery whose FROM, of inner and comma joins only, holds
  // a derived table of one base table's rows -- (SELECT * FROM t [AS x]
  // WHERE w) AS d, which reads the query around it and so
  // binds no other way -- with `t AS d` in its place and w, its names of t
  // now d's, joining the subquery's WHERE (made_ keeps the copy); else
  // `sub` itself. A bare name in w must be one of t's columns.
  const ast::Expr& derived_tables_inlined(const ast::Expr& sub) {
    const ast::SelectStatement& inner = *sub.subquery;
    if (inner.set_operation) return sub;
    const auto inner_join = [](const ast::TableRef& r) {
      return r.join == ast::JoinKind::Comma || r.join == ast::JoinKind::Inner || r.join == ast::JoinKind::Cross;
    };
    if (!std::all_of(inner.from.begin(), inner.from.end(), inner_join)) return sub;
    ast::SelectStatement out = ast::clone(inner);
    bool changed = false;
    for (ast::TableRef& r : out.from) {
      std::optional<std::pair<ast::TableRef, ast::ExprPtr>> flat = flattened(r, out.from.size() == 1);
      if (!flat) continue;
      changed = true;
      r = std::move(flat->first);
      if (flat->second)
        out.where = out.where ? ast::make_binary(ast::BinaryOp::And, std::move(out.where), std::move(flat->second), sub.offset)
                              : std::move(flat->second);
    }
    if (!changed) return sub;
    return made_like(sub, std::move(out));
  }

  // derived_tables_inlined()'s shape: `r`, a derived table of one base
  // table, as that table under r's alias, and its WHERE over that alias
  // (null: none); nullopt for any other FROM item.
  std::optional<std::pair<ast::TableRef, ast::ExprPtr>> flattened(const ast::TableRef& r, bool alone) const {
    if (!r.subquery || r.joins || r.alias.empty() || !r.column_aliases.empty()) return std::nullopt;
    const ast::SelectStatement& d = *r.subquery;
    if (d.set_operation || !d.with.empty() || d.distinct || !d.group_by.empty() || d.having || !d.order_by.empty() ||
        d.limit || d.offset || d.from.size() != 1)
      return std::nullopt;
    const ast::TableRef& t = d.from[0];
    if (t.subquery || t.is_function || t.joins || !t.column_aliases.empty() || (names_ && names_->find(t.name)))
      return std::nullopt;
    const std::shared_ptr<const Table> table = catalog_.find(t.name);
    if (!table) return std::nullopt;
    const std::string own = t.alias.empty() ? t.name : t.alias;
    auto column_of_t = [&](const std::string& name) {
      return std::any_of(table->columns.begin(), table->columns.end(),
                         [&](const auto& c) { return iequals(c.name, name); });
    };
    // Its items: * (t's columns under their names: d's are t's).
    if (d.items.size() != 1 || d.items[0].expr->kind != ExprKind::Star ||
        (!d.items[0].expr->table.empty() && !iequals(d.items[0].expr->table, own)))
      return std::nullopt;
    // w's names of t as r.alias's. Another bare name is the query
    // around's, qualified, where d is the subquery's only FROM item (else it
    // might be another item's) and one table here has it; else, or with a
    // subquery in w, the shape is not this one.
    bool ok = true;
    std::function<ast::ExprPtr(const ast::Expr&)> renamed = [&](const ast::Expr& e) -> ast::ExprPtr {
      if (e.subquery) ok = false;
      ast::ExprPtr copy = ast::clone(e);
      if (e.kind == ExprKind::Column) {
        if (e.table.empty() ? column_of_t(e.name) : iequals(e.table, own)) {
          copy->table = r.alias;
        } else if (e.table.empty()) {
          const std::vector<std::string> owners = alone ? owners_of(e.name) : std::vector<std::string>{};
          if (owners.size() == 1) copy->table = owners[0];
          else ok = false;
        }
      }
      for (std::size_t i = 0; i < e.args.size(); ++i) copy->args[i] = renamed(*e.args[i]);
      return copy;
    };
    ast::ExprPtr where = d.where ? renamed(*d.where) : nullptr;
    if (!ok) return std::nullopt;
    ast::TableRef base;
    base.name = t.name;
    base.alias = r.alias;
    base.offset = r.offset;
    base.join = r.join;
    if (r.on) base.on = ast::clone(*r.on);
    base.using_columns = r.using_columns;
    base.group_size = r.group_size;
    return std::make_pair(std::move(base), std::move(where));
  }

  // A correlated subquery in which a subquery nested at any depth names a
  // column of this query by a bare name (`v` for a.v, in (SELECT ... FROM b
  // WHERE EXISTS (SELECT 1 FROM c WHERE c.u > v))): the copy with that name
  // qualified by its table's alias, which decorrelation.hpp reads as it
  // reads any written so (made_ keeps it); else `sub` itself. A name is
  // this query's where no FROM between has it and one table here has.
  const ast::Expr& outer_names_qualified(const ast::Expr& sub) {
    std::vector<BoundQuery> scopes;  // the FROMs from the subquery in to the one being read
    bool changed = false;
    std::function<std::shared_ptr<const ast::SelectStatement>(const ast::SelectStatement&)> qualified;
    std::function<ast::ExprPtr(const ast::Expr&)> in_expr = [&](const ast::Expr& e) -> ast::ExprPtr {
      if (e.kind == ExprKind::Column && e.table.empty() && scopes.size() > 1) {
        bool inside = false;
        for (const BoundQuery& scope : scopes) {
          try {
            TableScope(scope, "WHERE").resolve(e);
            inside = true;
          } catch (const Error& error) {
            inside = error.message().find("not found") == std::string::npos;  // ambiguous: leave it
          }
          if (inside) break;
        }
        if (!inside) {
          const std::vector<std::string> owners = owners_of(e.name);
          if (owners.size() == 1) {
            changed = true;
            return ast::make_column(owners[0], e.name, e.offset);
          }
        }
      }
      ast::ExprPtr copy = ast::clone(e);
      for (std::size_t i = 0; i < e.args.size(); ++i) copy->args[i] = in_expr(*e.args[i]);
      if (e.subquery) copy->subquery = qualified(*e.subquery);
      return copy;
    };
    qualified = [&](const ast::SelectStatement& s) -> std::shared_ptr<const ast::SelectStatement> {
      if (s.set_operation)  // each side has a FROM of its own
        return with_sides_rewritten(s, [&](const std::shared_ptr<const ast::SelectStatement>& side) {
          return qualified(*side);
        });
      std::optional<BoundQuery> own = from_alone(s);
      if (!own) return std::make_shared<const ast::SelectStatement>(ast::clone(s));
      scopes.push_back(*std::move(own));
      auto out = std::make_shared<const ast::SelectStatement>(ast::map_expressions(s, in_expr));
      scopes.pop_back();
      return out;
    };
    if (!has_nested_subquery(*sub.subquery)) return sub;
    std::shared_ptr<const ast::SelectStatement> out = qualified(*sub.subquery);
    if (!changed) return sub;
    return made_like(sub, ast::clone(*out));
  }

  // The aliases of this query's tables that have a column `name`.
  std::vector<std::string> owners_of(const std::string& name) const {
    std::vector<std::string> owners;
    for (const BoundQuery::Source source : q_.sources) {
      const std::vector<std::string> names = column_names_of(q_, source);
      if (std::any_of(names.begin(), names.end(), [&](const std::string& n) { return iequals(n, name); }))
        owners.push_back(alias_of(q_, source));
    }
    return owners;
  }

  static bool has_nested_subquery(const ast::SelectStatement& s) {
    bool found = false;
    std::function<void(const ast::Expr&)> visit = [&](const ast::Expr& e) {
      found = found || e.subquery != nullptr;
      for (const auto& a : e.args) visit(*a);
    };
    for (const auto& item : s.items) visit(*item.expr);
    for (const auto& ref : s.from)
      if (ref.on) visit(*ref.on);
    for (const ast::Expr* e : {s.where.get(), s.having.get()})
      if (e) visit(*e);
    return found;
  }

  // A correlated subquery whose GROUP BY keys or HAVING name a select
  // item by its alias -- a bare name no column of its FROM has (DuckDB's
  // rule) -- with the item's expression in their place (made_ keeps the
  // copy); else `written` itself. Bare names of this query's columns in
  // its nested subqueries are qualified first (outer_names_qualified()).
  const ast::Expr& aliases_resolved(const ast::Expr& written) {
    const ast::Expr& sub = outer_names_qualified(derived_tables_inlined(written));
    const ast::SelectStatement& inner = *sub.subquery;
    auto item_named = [&](const ast::Expr& e) -> const ast::Expr* {
      if (e.kind != ExprKind::Column || !e.table.empty()) return nullptr;
      for (const auto& item : inner.items)
        if (!item.alias.empty() && iequals(item.alias, e.name)) return item.expr.get();
      return nullptr;
    };
    std::vector<const ast::Expr*> names;
    for (const auto& key : inner.group_by) names.push_back(key.get());
    if (inner.having) collect_columns(*inner.having, names);
    if (inner.set_operation || std::none_of(names.begin(), names.end(), [&](const ast::Expr* e) { return item_named(*e); }))
      return sub;
    const std::optional<BoundQuery> from = from_alone(inner);  // FROM's names
    if (!from) return sub;
    std::function<ast::ExprPtr(const ast::Expr&)> resolved = [&](const ast::Expr& e) -> ast::ExprPtr {
      if (const ast::Expr* item = item_named(e); item && !names_a_column(*from, e.name)) return ast::clone(*item);
      if (e.kind == ExprKind::Subquery || e.kind == ExprKind::Exists) return ast::clone(e);
      ast::ExprPtr copy = ast::clone(e);
      for (std::size_t i = 0; i < e.args.size(); ++i) copy->args[i] = resolved(*e.args[i]);
      return copy;
    };
    ast::SelectStatement out = ast::clone(inner);
    for (auto& key : out.group_by) key = resolved(*key);
    if (out.having) out.having = resolved(*out.having);
    return made_like(sub, std::move(out));
  }

  // The subquery rewritten over D (over_outer_values()), run, as a table.
  std::shared_ptr<const Table> run_over_outer_values(ast::SelectStatement rewritten, const OuterValues& v,
                                                     std::size_t at) {
    made_.push_back(std::make_shared<const ast::SelectStatement>(std::move(rewritten)));
    TableScope scope(q_, "WHERE", &subqueries_);
    return subqueries_.table(*made_.back(), at, scope, v.names);
  }

  // (SELECT agg-expr FROM ... WHERE conditions of any kind on outer
  // references) anywhere a value goes: the subquery over D, grouped by D's
  // columns, LEFT JOINed by them (value_of_groups()). agg-expr reads no
  // outer reference: its value over no rows runs on its own.
  std::optional<BoundExpr> scalar_by_outer_values(const ast::Expr& subquery) {
    const ast::Expr& sub = aliases_resolved(one_column(subquery));
    const ast::SelectStatement& inner = *sub.subquery;
    if (one_row_value(inner) && inner.order_by.size() > 1 && integer_literal(inner.limit.get()) == 1) {
      made_.push_back(std::make_shared<const ast::SelectStatement>(first_key_fixed(inner, sub.offset)));
      ast::Expr fewer_keys;
      fewer_keys.kind = ExprKind::Subquery;
      fewer_keys.offset = sub.offset;
      fewer_keys.subquery = made_.back();
      return scalar_by_outer_values(fewer_keys);
    }
    if (one_row_value(inner)) return scalar_row_by_outer_values(sub);
    if (!inner.group_by.empty()) return grouped_scalar_by_outer_values(sub);
    if (inner.having) return kept_scalar_by_outer_values(sub);
    if (!one_aggregate_value(inner)) return std::nullopt;
    const std::size_t at = sub.offset;
    std::optional<OuterValues> v = outer_values(inner, at);
    if (!v) return std::nullopt;
    const ast::Expr& item = *inner.items[0].expr;
    BoundExpr empty_value = reads_outer(item, *v) ? value_over_no_rows_reading(item) : value_over_no_rows(inner, at);
    std::vector<ast::SelectItem> items;
    items.push_back({ast::clone(*inner.items[0].expr), "v"});
    // value_of_groups()'s mark
    if (nullable_keys(v->null_safe)) items.push_back({ast::make_bool_literal(true, at), "m"});
    std::shared_ptr<const Table> groups =
        run_over_outer_values(over_outer_values(inner, v->texts, v->name, items, /*group=*/true, false), *v, at);
    return value_of_groups(std::move(groups), v->bound, std::move(empty_value), at, v->null_safe);
  }

  // (SELECT e FROM ... WHERE conditions on outer references GROUP BY g
  // [HAVING h]): a row per group HAVING keeps, so the value of the one
  // group, NULL where none is left, DuckDB's error where more are. The
  // subquery over D grouped by D's columns and g (HAVING as written) gives
  // each group's e; over those, per D's values, MIN(e) -- the value, when
  // it is the only one -- and COUNT(*), LEFT JOINed by D's columns, and
  // Op::CheckOneRow fails a row whose values count more than one.
  std::optional<BoundExpr> grouped_scalar_by_outer_values(const ast::Expr& sub) {
    const ast::SelectStatement& inner = *sub.subquery;
    const std::size_t at = sub.offset;
    if (inner.items.size() != 1 || inner.items[0].expr->kind == ExprKind::Star || inner.distinct ||
        !inner.order_by.empty() || inner.limit || inner.offset || inner.set_operation ||
        !groups_by_own_columns(inner))
      return std::nullopt;
    std::optional<OuterValues> v = outer_values(inner, at);
    if (!v) return std::nullopt;
    auto one = [&](ast::ExprPtr x) {
      std::vector<ast::ExprPtr> args;
      args.push_back(std::move(x));
      return args;
    };
    std::vector<ast::SelectItem> items;
    items.push_back({ast::make_function("min", one(ast::make_column("groups", "v", at)), false, at), "v"});
    items.push_back({ast::make_function("count", one(ast::make_star("", at)), false, at), "n"});
    ast::SelectStatement per_value = over_groups(groups_over_outer_values(inner, *v), *v, std::move(items),
                                                 /*group=*/true, false, at);
    std::shared_ptr<const Table> values = run_over_outer_values(std::move(per_value), *v, at);
    const int k = static_cast<int>(v->bound.size());
    const std::size_t index = join_by_keys(std::move(values), "correlated", v->bound, /*left=*/true, at, v->null_safe);
    BoundExpr found = TableScope::column_ref(q_.tables[index], k, at);
    const DataType type = found.type;
    std::shared_ptr<const Dictionary> dictionary = found.dictionary;
    BoundExpr checked =
        node(Op::CheckOneRow, type, {std::move(found), TableScope::column_ref(q_.tables[index], k + 1, at)}, at);
    checked.dictionary = std::move(dictionary);
    return checked;
  }

  // The subquery over D grouped by D's columns and its own keys (HAVING as
  // written), its one item as column v: a row per group it keeps.
  std::shared_ptr<const ast::SelectStatement> groups_over_outer_values(const ast::SelectStatement& inner,
                                                                       const OuterValues& v) {
    std::vector<ast::SelectItem> value;
    value.push_back({ast::clone(*inner.items[0].expr), "v"});
    auto groups =
        std::make_shared<ast::SelectStatement>(over_outer_values(inner, v.texts, v.name, value, /*group=*/true, false));
    add_own_groups(*groups, inner, v);
    return groups;
  }

  // `over`, the subquery `inner` over D grouped by D's columns, grouped by
  // inner's own keys too (a position: its item's expression), with its HAVING.
  static void add_own_groups(ast::SelectStatement& over, const ast::SelectStatement& inner, const OuterValues& v) {
    const std::vector<std::string> local = with_from_names({}, inner);
    for (const auto& key : inner.group_by)
      over.group_by.push_back(over_outer_values(group_key(inner, *key), v.texts, v.name, local));
    if (inner.having) over.having = over_outer_values(*inner.having, v.texts, v.name, local);
  }

  // SELECT [DISTINCT] groups."outer 0", ..., items FROM (groups) AS groups
  // [GROUP BY groups."outer 0", ...]: `items` read the groups' v.
  static ast::SelectStatement over_groups(std::shared_ptr<const ast::SelectStatement> groups, const OuterValues& v,
                                          std::vector<ast::SelectItem> items, bool group, bool distinct,
                                          std::size_t at) {
    ast::SelectStatement out;
    out.distinct = distinct;
    ast::TableRef from;
    from.alias = "groups";
    from.offset = at;
    from.subquery = std::move(groups);
    out.from.push_back(std::move(from));
    for (std::size_t i = 0; i < v.texts.size(); ++i) {
      out.items.push_back({ast::make_column("groups", outer_value_name(i), at), outer_value_name(i)});
      if (group) out.group_by.push_back(ast::make_column("groups", outer_value_name(i), at));
    }
    for (auto& item : items) out.items.push_back(std::move(item));
    return out;
  }

  // (SELECT e FROM ... WHERE ... HAVING h), no GROUP BY: one group, empty
  // too, that h keeps or not -- (SELECT CASE WHEN h THEN e END ...), an
  // aggregate's one value. e must aggregate (or be a constant), as over one group.
  std::optional<BoundExpr> kept_scalar_by_outer_values(const ast::Expr& sub) {
    const ast::SelectStatement& inner = *sub.subquery;
    const std::size_t at = sub.offset;
    if (inner.items.size() != 1 || inner.distinct || !inner.order_by.empty() || inner.limit || inner.offset ||
        inner.set_operation || !AggregateScope::contains_aggregate(*inner.having))
      return std::nullopt;
    const ast::Expr& e = *inner.items[0].expr;
    if (!AggregateScope::contains_aggregate(e) && e.kind != ExprKind::Literal) return std::nullopt;
    ast::SelectStatement kept;
    kept.with = inner.with;
    for (const auto& ref : inner.from) kept.from.push_back(ast::clone(ref));
    if (inner.where) kept.where = ast::clone(*inner.where);
    kept.items.push_back(
        {ast::make_case(ast::clone(*inner.having), ast::clone(e), ast::make_null_literal(at), at), inner.items[0].alias});
    return subqueries_.correlated_scalar(made_subquery(ExprKind::Subquery, std::move(kept), at));
  }

  // A subquery of one value that does not aggregate: a value per row its
  // FROM and WHERE keep, or per distinct value (DISTINCT), or the first
  // row's (LIMIT 1, ORDER BY keys; LIMIT k > 1 keeps up to k rows: the
  // error past one stays). No OFFSET but 0.
  static bool one_row_value(const ast::SelectStatement& inner) {
    const bool plain = inner.items.size() == 1 && inner.items[0].expr->kind != ExprKind::Star &&
                       inner.group_by.empty() && !inner.having && !inner.set_operation &&
                       !AggregateScope::contains_aggregate(*inner.items[0].expr);
    if (!plain || (inner.offset && integer_literal(inner.offset.get()) != 0)) return false;
    if (!inner.limit) return true;
    const std::optional<int64_t> limit = integer_literal(inner.limit.get());
    if (!limit || *limit < 0) return false;
    if (*limit != 1 || inner.order_by.empty()) return true;
    // No key a position past the one item (DuckDB's error).
    return std::all_of(inner.order_by.begin(), inner.order_by.end(), [](const ast::OrderItem& o) {
      const std::optional<int64_t> position = integer_literal(o.expr.get());
      return !position || *position == 1;
    });
  }

  // ORDER BY o1, o2, ... LIMIT 1: the same subquery ordered by the rest,
  // over the rows whose o1 IS NOT DISTINCT FROM the first row's o1 -- the
  // subquery again, ordered by o1 alone, nested in its WHERE. Its FROM
  // names the same tables, so the conditions read its own rows, and the
  // query around two levels out.
  static ast::SelectStatement first_key_fixed(const ast::SelectStatement& inner, std::size_t at) {
    auto copy = [&] {  // without its items and ORDER BY
      ast::SelectStatement s = ast::clone(inner);
      s.items.clear();
      s.order_by.clear();
      return s;
    };
    const ast::Expr& key = order_key(inner);
    ast::SelectStatement first = copy();
    first.items.push_back({ast::clone(key), ""});
    first.order_by.push_back({ast::clone(key), inner.order_by[0].descending, inner.order_by[0].nulls_first});
    ast::SelectStatement rest = copy();
    rest.items.push_back({ast::clone(*inner.items[0].expr), inner.items[0].alias});
    for (std::size_t i = 1; i < inner.order_by.size(); ++i)
      rest.order_by.push_back(
          {ast::clone(*inner.order_by[i].expr), inner.order_by[i].descending, inner.order_by[i].nulls_first});
    auto first_key = std::make_unique<ast::Expr>();
    first_key->kind = ExprKind::Subquery;
    first_key->offset = at;
    first_key->subquery = std::make_shared<const ast::SelectStatement>(std::move(first));
    ast::ExprPtr same = ast::make_distinct_from(ast::clone(key), std::move(first_key), /*distinct=*/false, at);
    rest.where = rest.where ? ast::make_binary(ast::BinaryOp::And, std::move(rest.where), std::move(same), at)
                            : std::move(same);
    return rest;
  }

  // EXISTS over a subquery with LIMIT n > 0 (a literal) and no OFFSET past
  // 0 asks for a row as EXISTS without them does: the EXISTS to bind,
  // without its LIMIT, OFFSET and ORDER BY (kept while this binder lives),
  // or `exists` itself where none is to go (LIMIT 0 or an OFFSET past 0
  // stay: exists_past_rows() binds them where correlated).
  const ast::Expr& exists_without_limit(const ast::Expr& exists) {
    const ast::SelectStatement& inner = *exists.subquery;
    if (!inner.limit || inner.set_operation) return exists;
    if (inner.offset && integer_literal(inner.offset.get()) != 0) return exists;
    const std::optional<int64_t> limit = integer_literal(inner.limit.get());
    if (!limit || *limit <= 0) return exists;
    return exists_over_every_row(exists);
  }

  // The EXISTS without its subquery's LIMIT, OFFSET and ORDER BY.
  const ast::Expr& exists_over_every_row(const ast::Expr& exists) {
    ast::SelectStatement s = ast::clone(*exists.subquery);
    s.order_by.clear();
    s.limit.reset();
    s.offset.reset();
    return made_subquery(ExprKind::Exists, std::move(s), exists.offset);
  }

  // A subquery expression (`kind`: Subquery, Exists) over `select`, kept
  // while this binder lives.
  // `e` (its kind, operand and offset) over `select` in place of its subquery.
  const ast::Expr& made_like(const ast::Expr& e, ast::SelectStatement select) {
    made_.push_back(std::make_shared<const ast::SelectStatement>(std::move(select)));
    ast::ExprPtr copy = ast::clone(e);
    copy->subquery = made_.back();
    made_exprs_.push_back(std::move(copy));
    return *made_exprs_.back();
  }

  const ast::Expr& made_subquery(ExprKind kind, ast::SelectStatement select, std::size_t at) {
    made_.push_back(std::make_shared<const ast::SelectStatement>(std::move(select)));
    auto e = std::make_unique<ast::Expr>();
    e->kind = kind;
    e->offset = at;
    e->subquery = made_.back();
    made_exprs_.push_back(std::move(e));
    return *made_exprs_.back();
  }

  // A correlated EXISTS over a subquery with LIMIT 0: FALSE, once the
  // subquery without its LIMIT, OFFSET and ORDER BY binds (its errors are
  // the query's). With OFFSET k > 0 (LIMIT n > 0 or none beside it): more
  // than k rows, COUNT(*) > k (aggregate_holds()), for a subquery that
  // neither groups nor keeps distinct rows; one that aggregates has one
  // row: FALSE. Literals only; nullopt for any other shape.
  std::optional<BoundExpr> exists_past_rows(const ast::Expr& exists) {
    const ast::SelectStatement& inner = *exists.subquery;
    if (inner.set_operation) return std::nullopt;
    const std::optional<int64_t> limit = integer_literal(inner.limit.get());
    const std::optional<int64_t> offset = integer_literal(inner.offset.get());
    if ((inner.limit && (!limit || *limit < 0)) || (inner.offset && (!offset || *offset < 0))) return std::nullopt;
    const bool none = limit == 0;
    if (!none && offset.value_or(0) == 0) return std::nullopt;
    const std::size_t at = exists.offset;
    const bool aggregates = items_aggregate(inner);
    const bool one_row = aggregates && inner.group_by.empty() && !inner.having;
    if (none || one_row) {
      if (!subqueries_.correlated_exists(exists_over_every_row(exists))) return std::nullopt;
      return bool_constant(false, at);
    }
    if (!inner.group_by.empty() || inner.having || aggregates) return std::nullopt;
    if (inner.distinct && (inner.items.size() != 1 || inner.items[0].expr->kind == ExprKind::Star)) return std::nullopt;
    auto args = [](ast::ExprPtr a) {
      std::vector<ast::ExprPtr> out;
      out.push_back(std::move(a));
      return out;
    };
    // The rows: COUNT(*); the distinct values of DISTINCT e: COUNT(DISTINCT
    // e), and one more where some e is NULL.
    ast::ExprPtr rows = ast::make_function("count", args(ast::make_star("", at)), false, at);
    if (inner.distinct) {
      const ast::Expr& e = *inner.items[0].expr;
      ast::ExprPtr is_null = ast::make_is_null(ast::clone(e), false, at);
      ast::ExprPtr null_seen = ast::make_function(
          "max",
          args(ast::make_case(std::move(is_null), ast::make_integer_literal(1, at), ast::make_integer_literal(0, at), at)),
          false, at);
      std::vector<ast::ExprPtr> either;
      either.push_back(std::move(null_seen));
      either.push_back(ast::make_integer_literal(0, at));
      rows = ast::make_binary(ast::BinaryOp::Add, ast::make_function("count", args(ast::clone(e)), true, at),
                              ast::make_function("coalesce", std::move(either), false, at), at);
    }
    ast::ExprPtr more = ast::make_binary(ast::BinaryOp::Gt, std::move(rows), ast::make_integer_literal(*offset, at), at);
    std::optional<BoundExpr> held = aggregate_holds(exists, std::move(more), /*semi=*/false);
    if (held) select_list_resolves(exists);
    return held;
  }

  static std::optional<int64_t> integer_literal(const ast::Expr* e) {
    if (e && e->kind == ExprKind::Literal && e->literal.kind == ast::Literal::Kind::Integer) return e->literal.integer;
    return std::nullopt;
  }

  // The ORDER BY key of a subquery of one item: its expression, the item's
  // where it names it (ORDER BY 1, ORDER BY alias).
  static const ast::Expr& order_key(const ast::SelectStatement& inner) {
    const ast::Expr& key = *inner.order_by[0].expr;
    if (integer_literal(&key) == 1) return *inner.items[0].expr;
    if (key.kind == ExprKind::Column && key.table.empty() && iequals(key.name, inner.items[0].alias))
      return *inner.items[0].expr;
    return key;
  }

  // (SELECT e FROM ... WHERE conditions of any kind on outer references),
  // no aggregate: the row's one value of e, NULL where the subquery has no
  // row, and DuckDB's error where it has more (when that row is evaluated,
  // as DuckDB checks the rows that reach the subquery). The subquery over D
  // grouped by D's columns gives each group MIN(e) -- its value, when it is
  // the only one -- and COUNT(*), LEFT JOINed by D's columns; Op::CheckOneRow
  // fails a row whose group counts more than one.
  //
  // SELECT DISTINCT e: COUNT(DISTINCT e), plus one where some e is NULL,
  // counts the rows in its place. LIMIT 0: NULL. LIMIT 1: the first row's
  // e, in ORDER BY's order (none: any row) -- firsts_by_order().
  std::optional<BoundExpr> scalar_row_by_outer_values(const ast::Expr& sub) {
    const ast::SelectStatement& inner = *sub.subquery;
    const std::size_t at = sub.offset;
    const std::optional<int64_t> limit = integer_literal(inner.limit.get());
    const bool nothing = limit == 0, first = limit == 1;
    // D holds the outer references of the ORDER BY key too.
    ast::SelectStatement probe;
    probe.with = inner.with;
    for (const auto& ref : inner.from) probe.from.push_back(ast::clone(ref));
    if (inner.where) probe.where = ast::clone(*inner.where);
    probe.items.push_back({ast::clone(*inner.items[0].expr), ""});
    if (first && !inner.order_by.empty()) probe.items.push_back({ast::clone(order_key(inner)), ""});
    std::optional<OuterValues> v = outer_values(probe, at);
    if (!v) return std::nullopt;
    const ast::Expr& e = *inner.items[0].expr;
    auto call = [&](const char* name, std::vector<ast::ExprPtr> args, bool distinct = false) {
      return ast::make_function(name, std::move(args), distinct, at);
    };
    auto one = [&](ast::ExprPtr x) {
      std::vector<ast::ExprPtr> args;
      args.push_back(std::move(x));
      return args;
    };
    std::vector<ast::SelectItem> items;
    if (nothing) {
      ast::ExprPtr none = ast::make_case(ast::make_bool_literal(false, at), call("min", one(ast::clone(e))),
                                         ast::make_null_literal(at), at);
      items.push_back({std::move(none), "v"});
    } else if (first) {
      items.push_back({firsts_by_order(inner, at), "v"});
    } else if (inner.distinct) {
      // COUNT(DISTINCT e) + CASE WHEN COUNT(e) < COUNT(*) THEN 1 ELSE 0 END
      items.push_back({call("min", one(ast::clone(e))), "v"});
      ast::ExprPtr null_row = ast::make_case(ast::make_binary(ast::BinaryOp::Lt, call("count", one(ast::clone(e))),
                                                         call("count", one(ast::make_star("", at))), at),
                                        ast::make_integer_literal(1, at), ast::make_integer_literal(0, at), at);
      items.push_back(
          {ast::make_binary(ast::BinaryOp::Add, call("count", one(ast::clone(e)), true), std::move(null_row), at), "n"});
    } else {
      items.push_back({call("min", one(ast::clone(e))), "v"});
      items.push_back({call("count", one(ast::make_star("", at))), "n"});
    }
    std::shared_ptr<const Table> groups =
        run_over_outer_values(over_outer_values(inner, v->texts, v->name, items, /*group=*/true, false), *v, at);
    const int k = static_cast<int>(v->bound.size());
    const std::size_t index = join_by_keys(std::move(groups), "correlated", v->bound, /*left=*/true, at, v->null_safe);
    BoundExpr value = TableScope::column_ref(q_.tables[index], k, at);
    if (nothing || first) return value;
    const DataType type = value.type;
    std::shared_ptr<const Dictionary> dictionary = value.dictionary;  // a VARCHAR's codes pass through
    BoundExpr checked =
        node(Op::CheckOneRow, type, {std::move(value), TableScope::column_ref(q_.tables[index], k + 1, at)}, at);
    checked.dictionary = std::move(dictionary);
    return checked;
  }

  // The first row's e of a subquery with LIMIT 1, over its groups:
  //   CASE WHEN COUNT(o) = 0 THEN (CASE WHEN ARG_MIN(e IS NULL, 0) THEN NULL ELSE ARG_MIN(e, 0) END)
  //        WHEN ARG_MIN(e IS NULL, o) THEN NULL ELSE ARG_MIN(e, o) END
  // (ARG_MAX for DESC; no ORDER BY: o is 0). ARG_MIN skips the rows whose
  // e is NULL: ARG_MIN(e IS NULL, o), never NULL, tells where the first
  // row's e is; the lowest row wins ties in both, so both name that row.
  // Rows whose o is NULL come last (NULLS LAST): only where every o is.
  // NULLS FIRST: where some o is NULL, the first of those rows,
  //   CASE WHEN COUNT(*) > COUNT(o) THEN <the first row's e by k, k> ELSE ... END
  // with k = CASE WHEN o IS NULL THEN 0 END: the rows whose k is NULL are
  // skipped, and the lowest of the others wins.
  ast::ExprPtr firsts_by_order(const ast::SelectStatement& inner, std::size_t at) const {
    const ast::Expr& e = *inner.items[0].expr;
    const bool ordered = !inner.order_by.empty();
    const char* extreme = ordered && inner.order_by[0].descending ? "arg_max" : "arg_min";
    auto is_null = [&] { return ast::make_is_null(ast::clone(e), false, at); };
    auto first_of = [&](const char* name, ast::ExprPtr value, ast::ExprPtr order) {
      std::vector<ast::ExprPtr> args;
      args.push_back(std::move(value));
      args.push_back(std::move(order));
      return ast::make_function(name, std::move(args), false, at);
    };
    auto by = [&](const char* name, ast::ExprPtr order_a, ast::ExprPtr order_b) {
      return ast::make_case(first_of(name, is_null(), std::move(order_a)), ast::make_null_literal(at),
                            first_of(name, ast::clone(e), std::move(order_b)), at);
    };
    ast::ExprPtr any_row = by("arg_min", ast::make_integer_literal(0, at), ast::make_integer_literal(0, at));
    if (!ordered) return any_row;
    const ast::Expr& o = order_key(inner);
    std::vector<ast::ExprPtr> counted;
    counted.push_back(ast::clone(o));
    ast::ExprPtr none = ast::make_binary(ast::BinaryOp::Eq, ast::make_function("count", std::move(counted), false, at),
                                         ast::make_integer_literal(0, at), at);
    ast::ExprPtr ordered_first =
        ast::make_case(std::move(none), std::move(any_row), by(extreme, ast::clone(o), ast::clone(o)), at);
    if (!inner.order_by[0].nulls_first.value_or(false)) return ordered_first;
    auto null_key = [&] {
      return ast::make_case(ast::make_is_null(ast::clone(o), false, at), ast::make_integer_literal(0, at),
                            ast::make_null_literal(at), at);
    };
    std::vector<ast::ExprPtr> rows, keys;
    rows.push_back(ast::make_star("", at));
    keys.push_back(ast::clone(o));
    ast::ExprPtr some_null = ast::make_binary(ast::BinaryOp::Gt, ast::make_function("count", std::move(rows), false, at),
                                              ast::make_function("count", std::move(keys), false, at), at);
    return ast::make_case(std::move(some_null), by("arg_min", null_key(), null_key()), std::move(ordered_first), at);
  }

  // EXISTS (SELECT ... WHERE conditions of any kind on outer references):
  // the distinct outer values some row of the subquery has (the subquery
  // over D), joined by them. `semi` (a condition of WHERE joined by AND):
  // an inner join, a row staying where its values are there; else a LEFT
  // JOIN, EXISTS where one matched (never NULL). A subquery that aggregates
  // without GROUP BY or HAVING has its one row whatever it reads: TRUE.
  // With GROUP BY: the values some group has that HAVING keeps -- the
  // subquery over D grouped by D's columns and its own keys (for one outer
  // row, its groups are those of D's value). HAVING without GROUP BY: one
  // group, empty too, that HAVING keeps or not -- has_group_kept().
  std::optional<BoundExpr> exists_by_outer_values(const ast::Expr& exists, bool semi) {
    const ast::SelectStatement& inner = *exists.subquery;
    if (inner.set_operation || inner.limit || inner.offset) return std::nullopt;
    const std::size_t at = exists.offset;
    const bool aggregates = items_aggregate(inner);
    if (inner.group_by.empty() && inner.having) return has_group_kept(exists, semi);
    if (inner.group_by.empty() && aggregates)
      return outer_references(inner, true) ? std::optional<BoundExpr>(bool_constant(true, at)) : std::nullopt;
    const bool grouped = !inner.group_by.empty();
    if (grouped && !groups_by_own_columns(inner)) return std::nullopt;
    std::optional<OuterValues> v = outer_values(inner, at, /*items=*/grouped);
    if (!v) return std::nullopt;
    // A found row's first key is not NULL, unless keys match by IS NOT
    // DISTINCT FROM: then it carries a TRUE after its keys.
    const bool mark = nullable_keys(v->null_safe);
    std::vector<ast::SelectItem> items;
    if (mark) items.push_back({ast::make_bool_literal(true, at), "m"});
    ast::SelectStatement found = over_outer_values(inner, v->texts, v->name, items, /*group=*/grouped, /*distinct=*/true);
    if (grouped) {
      add_own_groups(found, inner, *v);
      const std::vector<std::string> local = with_from_names({}, inner);
      // The select list, which nothing reads, binds as DuckDB's would
      // (a column neither grouped nor aggregated is an error).
      ast::SelectStatement check = ast::clone(found);
      check.distinct = false;
      for (const auto& item : inner.items)
        check.items.push_back({over_outer_values(*item.expr, v->texts, v->name, local), item.alias});
      bind_query(check, catalog_, sql_, reader_, runner_, v->names);
    }
    std::shared_ptr<const Table> table = run_over_outer_values(std::move(found), *v, at);
    const std::size_t index = join_by_keys(std::move(table), "exists", v->bound, /*left=*/!semi, at, v->null_safe);
    if (semi) return bool_constant(true, at);
    const int found_column = mark ? static_cast<int>(v->bound.size()) : 0;
    return node(Op::IsNotNull, DataType::boolean(), {TableScope::column_ref(q_.tables[index], found_column, at)}, at);
  }

  // Whether an item of `inner`'s select list holds an aggregate.
  static bool items_aggregate(const ast::SelectStatement& inner) {
    return std::any_of(inner.items.begin(), inner.items.end(), [](const ast::SelectItem& item) {
      return AggregateScope::contains_aggregate(*item.expr);
    });
  }

  // A correlated EXISTS's select list, which the joins that stand for it
  // never read, names columns one of the two queries has: DuckDB's error
  // where it does not (outer_references() throws it). True.
  bool select_list_resolves(const ast::Expr& exists) {
    outer_references(*exists.subquery, /*items=*/true);
    return true;
  }

  // GROUP BY keys and HAVING that name no select item by its alias (a
  // bare name), and positions (GROUP BY 1) of items without aggregates: the
  // rewritten subquery's select list is D's, group_key() puts the item's
  // expression for the position.
  static bool groups_by_own_columns(const ast::SelectStatement& inner) {
    auto alias = [&](const ast::Expr& e) {
      return e.kind == ExprKind::Column && e.table.empty() &&
             std::any_of(inner.items.begin(), inner.items.end(),
                         [&](const ast::SelectItem& item) { return iequals(item.alias, e.name); });
    };
    auto position = [&](const ast::Expr& e) {
      const std::optional<int64_t> i = integer_literal(&e);
      if (!i) return true;
      if (*i < 1 || std::size_t(*i) > inner.items.size()) return false;
      const ast::Expr& item = *inner.items[std::size_t(*i) - 1].expr;
      return item.kind != ExprKind::Star && !AggregateScope::contains_aggregate(item);
    };
    for (const auto& key : inner.group_by)
      if (alias(*key) || !position(*key)) return false;
    std::vector<const ast::Expr*> columns;
    if (inner.having) collect_columns(*inner.having, columns);
    return std::none_of(columns.begin(), columns.end(), [&](const ast::Expr* c) { return alias(*c); });
  }

  // A GROUP BY key of `inner`, the item's expression for a position.
  static const ast::Expr& group_key(const ast::SelectStatement& inner, const ast::Expr& key) {
    const std::optional<int64_t> i = integer_literal(&key);
    return i ? *inner.items[std::size_t(*i) - 1].expr : key;
  }

  // EXISTS (SELECT ... FROM ... WHERE w HAVING h), no GROUP BY: its one
  // group, empty or not, is there when h is TRUE -- the scalar subquery
  // (SELECT CASE WHEN h THEN TRUE ELSE FALSE END FROM ... WHERE w), whose
  // value over no rows is h's over none. Its select list must aggregate
  // (or be constants), as over one group.
  std::optional<BoundExpr> has_group_kept(const ast::Expr& exists, bool semi) {
    const ast::SelectStatement& inner = *exists.subquery;
    if (!AggregateScope::contains_aggregate(*inner.having)) return std::nullopt;
    // An item outside an aggregate may read the query around it (the same
    // value over the one group), not the subquery's own rows (DuckDB's error).
    const std::optional<BoundQuery> own = from_alone(inner);
    if (!own) return std::nullopt;
    std::function<void(const ast::Expr&)> check = [&](const ast::Expr& e) {
      if (e.kind == ExprKind::Subquery || e.kind == ExprKind::Exists || e.kind == ExprKind::InSubquery ||
          (e.kind == ExprKind::Function && is_aggregate_name(e.name)))
        return;
      if (e.kind == ExprKind::Column) {
        try {
          TableScope(*own, "SELECT").resolve(e);
        } catch (const Error&) {
          return;  // the query around it's, or unknown (select_list_resolves() says)
        }
        throw Error(ErrorKind::Binder,
                    "column \"" + (e.table.empty() ? e.name : e.table + "." + e.name) +
                        "\" must appear in the GROUP BY clause or must be part of an aggregate function",
                    e.offset);
      }
      for (const auto& a : e.args) check(*a);
    };
    for (const auto& item : inner.items)
      if (item.expr->kind == ExprKind::Star) return std::nullopt;
      else check(*item.expr);
    return aggregate_holds(exists, ast::clone(*inner.having), semi);
  }

  // Whether `condition`, over aggregates of the rows of the subquery of
  // `exists` (its FROM and WHERE), holds: the scalar subquery
  // (SELECT CASE WHEN condition THEN TRUE ELSE FALSE END FROM ... WHERE ...),
  // correlated, whose value over no rows is the condition's over none.
  std::optional<BoundExpr> aggregate_holds(const ast::Expr& exists, ast::ExprPtr condition, bool semi) {
    const ast::SelectStatement& inner = *exists.subquery;
    const std::size_t at = exists.offset;
    ast::SelectStatement kept;
    kept.with = inner.with;
    for (const auto& ref : inner.from) kept.from.push_back(ast::clone(ref));
    if (inner.where) kept.where = ast::clone(*inner.where);
    kept.items.push_back(
        {ast::make_case(std::move(condition), ast::make_bool_literal(true, at), ast::make_bool_literal(false, at), at),
         ""});
    std::optional<BoundExpr> value = subqueries_.correlated_scalar(made_subquery(ExprKind::Subquery, std::move(kept), at));
    if (!value || !semi) return value;
    add_conjuncts(*std::move(value));
    return bool_constant(true, at);
  }

  // x IN (SELECT e FROM ... WHERE conditions of any kind on outer
  // references), with SQL's NULLs, from the subquery over D twice: its
  // distinct (D's values, e), LEFT JOINed by D's columns and x = e (a
  // match: TRUE), and COUNT(*), COUNT(e) per D's values, LEFT JOINed by D's
  // columns (no row: FALSE; else a NULL x or a NULL e: NULL; else FALSE).
  // `semi` (a condition of WHERE joined by AND): the first, joined inner,
  // NULL dropping a row as FALSE does. Not for REAL or DOUBLE values, which
  // can be distinct and equal (-0.0 and 0.0).
  std::optional<BoundExpr> in_by_outer_values(const ast::Expr& subquery, const BoundExpr& x, bool semi) {
    if (const auto operands = union_operands(subquery)) {  // each correlated or not
      TableScope scope(q_, "WHERE", &subqueries_);
      BoundExpr left = subqueries_.membership(operands->first, x, scope);
      BoundExpr either = node(Op::Or, DataType::boolean(),
                              {std::move(left), subqueries_.membership(operands->second, x, scope)}, subquery.offset);
      if (!semi) return either;
      add_conjuncts(std::move(either));
      return bool_constant(true, subquery.offset);
    }
    const ast::Expr& in = aliases_resolved(one_column(subquery));
    const ast::SelectStatement& inner = *in.subquery;
    if (integer_literal(inner.limit.get()) == 1 && one_row_value(inner)) {
      std::optional<BoundExpr> first = in_first_row(in, x);
      if (first && semi) {
        add_conjuncts(*std::move(first));
        return bool_constant(true, in.offset);
      }
      return first;
    }
    // With GROUP BY: e per group HAVING keeps (groups_over_outer_values()).
    const bool grouped = !inner.group_by.empty();
    if (inner.items.size() != 1 || inner.items[0].expr->kind == ExprKind::Star ||
        (!grouped && (inner.having || AggregateScope::contains_aggregate(*inner.items[0].expr))) ||
        (grouped && !groups_by_own_columns(inner)) || x.type.is_floating())
      return std::nullopt;
    const std::size_t at = in.offset;
    std::optional<OuterValues> v = outer_values(inner, at);
    if (!v) return std::nullopt;
    const ast::ExprPtr group_value = ast::make_column("groups", "v", at);
    const ast::Expr& e = grouped ? *group_value : *inner.items[0].expr;
    std::shared_ptr<const ast::SelectStatement> groups;
    if (grouped) groups = groups_over_outer_values(inner, *v);
    // The statement over D's rows (or its groups) with `items`.
    auto over_rows = [&](std::vector<ast::SelectItem> items, bool group, bool distinct) {
      return grouped ? over_groups(groups, *v, std::move(items), group, distinct, at)
                     : over_outer_values(inner, v->texts, v->name, items, group, distinct);
    };
    std::vector<ast::SelectItem> value;
    value.push_back({ast::clone(e), "v"});
    std::shared_ptr<const Table> values = run_over_outer_values(over_rows(std::move(value), false, true), *v, at);
    if (values->columns.back().type.is_floating()) return std::nullopt;
    const int k = static_cast<int>(v->bound.size());
    const std::size_t index = join_by_keys(std::move(values), "in_set", v->bound, /*left=*/!semi, at, v->null_safe);
    TableScope scope(q_, "WHERE", &subqueries_);
    BoundExpr equal =
        ExpressionBinder(scope).compare(Op::Eq, x, TableScope::column_ref(q_.tables[index], k, at), at, at);
    if (semi) {
      add_conjuncts(std::move(equal));
      return bool_constant(true, at);
    }
    q_.tables[index].on.push_back(std::move(equal));
    std::vector<ast::SelectItem> counts;
    {
      std::vector<ast::ExprPtr> star, arg;
      star.push_back(ast::make_star("", at));
      arg.push_back(ast::clone(e));
      counts.push_back({ast::make_function("count", std::move(star), false, at), "n"});
      counts.push_back({ast::make_function("count", std::move(arg), false, at), "nn"});
    }
    std::shared_ptr<const Table> counted = run_over_outer_values(over_rows(std::move(counts), true, false), *v, at);
    const std::size_t c = join_by_keys(std::move(counted), "in_counts", v->bound, /*left=*/true, at, v->null_safe);
    auto column = [&](std::size_t table, int i) { return TableScope::column_ref(q_.tables[table], i, at); };
    const DataType boolean = DataType::boolean();
    // e (not NULL where x = e matched) and COUNT(*): D's keys may be NULL
    // in a match (IS NOT DISTINCT FROM).
    BoundExpr found = node(Op::IsNotNull, boolean, {column(index, k)}, at);
    BoundExpr any = node(Op::IsNotNull, boolean, {column(c, k)}, at);
    BoundExpr unknown = node(Op::Or, boolean,
                             {node(Op::IsNull, boolean, {x}, at),
                              node(Op::Lt, boolean, {column(c, k + 1), column(c, k)}, at)},
                             at);
    BoundExpr missed = node(Op::Select, boolean,
                            {std::move(any),
                             node(Op::Select, boolean,
                                  {std::move(unknown), null_constant(boolean, at), bool_constant(false, at)}, at),
                             bool_constant(false, at)},
                            at);
    return node(Op::Select, boolean, {std::move(found), bool_constant(true, at), std::move(missed)}, at);
  }

  // x IN (SELECT e ... [ORDER BY ...] LIMIT 1), correlated: one value or
  // none, so x = (the subquery, a correlated scalar) where the subquery
  // has a row -- (SELECT COUNT(*) ...) without ORDER BY and LIMIT is past
  // 0 -- and FALSE where it has none.
  std::optional<BoundExpr> in_first_row(const ast::Expr& in, const BoundExpr& x) {
    const ast::SelectStatement& inner = *in.subquery;
    const std::size_t at = in.offset;
    std::optional<BoundExpr> value = subqueries_.correlated_scalar(made_subquery(ExprKind::Subquery, ast::clone(inner), at));
    if (!value) return std::nullopt;
    ast::SelectStatement counted = ast::clone(inner);
    counted.items.clear();
    counted.order_by.clear();
    counted.limit.reset();
    counted.offset.reset();
    std::vector<ast::ExprPtr> star;
    star.push_back(ast::make_star("", at));
    counted.items.push_back({ast::make_function("count", std::move(star), false, at), ""});
    std::optional<BoundExpr> count = subqueries_.correlated_scalar(made_subquery(ExprKind::Subquery, std::move(counted), at));
    if (!count) return std::nullopt;
    TableScope scope(q_, "WHERE", &subqueries_);
    BoundExpr equal = ExpressionBinder(scope).compare(Op::Eq, x, *std::move(value), at, at);
    const DataType boolean = DataType::boolean();
    BoundExpr any = node(Op::Gt, boolean, {*std::move(count), int_constant(0, at)}, at);
    return node(Op::Select, boolean, {std::move(any), std::move(equal), bool_constant(false, at)}, at);
  }

  // EXISTS (SELECT ... WHERE inner_k = outer_k AND local) as a condition of
  // WHERE (TPC-H Q4): a join with the subquery's distinct keys, so a row
  // stays when some row of the subquery has its keys. False for any other
  // shape (an uncorrelated EXISTS is then a constant).
  bool join_exists(const ast::Expr& exists) {
    const ast::SelectStatement& inner = *exists.subquery;
    if (!inner.group_by.empty() || inner.having) return false;
    for (const auto& item : inner.items)
      if (AggregateScope::contains_aggregate(*item.expr)) return false;
    std::optional<Correlation> c = correlate(inner, {});
    if (!c) return false;
    const BoundTableRef& t =
        add_hidden_table(keyed_table([&] { return by_keys(inner, *c, false); }, *c, exists.offset), "exists",
                         exists.offset);
    join_on_keys(*c, t, exists.offset);
    return true;
  }

  // [NOT] EXISTS (SELECT ... WHERE inner_k = outer_k [AND inner_c <>
  // outer_x] AND local) anywhere a condition goes (TPC-H Q21, Q22): k an
  // integer, DATE or string column, c an integer or DATE. The subquery
  // grouped by k runs once, first, giving each key the MIN and MAX of its
  // group's non-NULL c; the sorted keys (a string's: its code in outer_k's
  // dictionary) are searched for outer_k on every row (Rank, Lookup). Some
  // row of the group has c <> outer_x exactly when its MIN or MAX differs
  // from outer_x. TRUE or FALSE, never NULL: a NULL outer_k or outer_x finds
  // no row. Nullopt for any other shape.
  std::optional<BoundExpr> exists_by_search(const ast::Expr& exists) {
    const ast::SelectStatement& inner = *exists.subquery;
    if (!inner.group_by.empty() || inner.having) return std::nullopt;
    for (const auto& item : inner.items)
      if (AggregateScope::contains_aggregate(*item.expr)) return std::nullopt;
    std::optional<Correlation> c = correlate(inner, {}, /*unequal=*/true);
    if (!c || c->keys.size() != 1 || c->unequal.size() > 1) return std::nullopt;
    TableScope outer_scope(q_, "WHERE", &subqueries_);
    ExpressionBinder binder(outer_scope);
    auto integral = [](const DataType& t) {
      return t.id == Type::Integer || t.id == Type::BigInt || t.id == Type::Date;
    };
    BoundExpr outer_key = binder.bind(*c->keys[0].second);
    std::optional<BoundExpr> outer_value;
    if (!c->unequal.empty()) outer_value = binder.bind(*c->unequal[0].second);
    const bool strings = outer_key.type.id == Type::Varchar && outer_key.dictionary;
    if ((!integral(outer_key.type) && !strings) || (outer_value && !integral(outer_value->type))) return std::nullopt;

    ast::SelectStatement grouped = by_keys(inner, *c, true);
    const std::size_t at = exists.offset;
    if (!c->unequal.empty())
      for (const char* name : {"min", "max"}) {
        std::vector<ast::ExprPtr> args;
        args.push_back(ast::clone(*c->unequal[0].first));
        grouped.items.push_back({ast::make_function(name, std::move(args), false, at), name});
      }
    std::shared_ptr<ResultData> groups = subqueries_.result(grouped, at, outer_scope);
    auto same_kind = [&](const DataType& a, const DataType& b) {
      if (a.id == Type::Varchar || b.id == Type::Varchar) return a.id == b.id;
      return integral(a) && integral(b) && (a.id == Type::Date) == (b.id == Type::Date);
    };
    if (!same_kind(groups->columns[0].type, outer_key.type)) return std::nullopt;
    for (std::size_t i = 1; i < groups->columns.size(); ++i)
      if (!same_kind(groups->columns[i].type, outer_value->type)) return std::nullopt;
    auto value_at = [&](std::size_t column, std::size_t row) {
      const HostColumn& col = groups->columns[column];
      return col.type.storage() == Type::BigInt ? col.values<int64_t>()[row] : int64_t{col.values<int32_t>()[row]};
    };
    // (key, group) of the groups with a key (and, for <>, some non-NULL c),
    // by key; a string no value of outer_k equals has no code and no entry.
    std::vector<std::pair<int64_t, std::size_t>> entries;
    for (std::size_t row = 0; row < groups->rows; ++row) {
      bool valid = true;
      for (const HostColumn& col : groups->columns) valid = valid && col.is_valid(row);
      if (!valid) continue;
      if (!strings) {
        entries.push_back({value_at(0, row), row});
        continue;
      }
      const HostColumn& col = groups->columns[0];
      const std::string_view value = col.dictionary->values[col.values<uint32_t>()[row]];
      const uint32_t code = outer_key.dictionary->lower_bound(value);
      if (code < outer_key.dictionary->size() && outer_key.dictionary->values[code] == value)
        entries.push_back({code, row});
    }
    if (!std::is_sorted(entries.begin(), entries.end())) std::sort(entries.begin(), entries.end());  // groups come by key
    if (entries.empty()) return bool_constant(false, at);
    auto table_of = [&](std::size_t column) {
      std::vector<int64_t> values(entries.size());
      for (std::size_t i = 0; i < entries.size(); ++i)
        values[i] = column == 0 ? entries[i].first : value_at(column, entries[i].second);
      return bigint_table(values);
    };
    auto lookup = [&](Op op, std::shared_ptr<LookupTable> table, BoundExpr child) {
      return table_node(op, std::move(table), std::move(child), at);
    };
    auto keys = table_of(0);
    BoundExpr rank = lookup(Op::Rank, keys, outer_key);
    BoundExpr inside = node(Op::Lt, DataType::boolean(),
                            {rank, int_constant(static_cast<int64_t>(entries.size()), at)}, at);
    BoundExpr equal = node(Op::Eq, DataType::boolean(), {lookup(Op::Lookup, keys, rank), outer_key}, at);
    BoundExpr found = node(Op::And, DataType::boolean(), {std::move(inside), std::move(equal)}, at);
    if (outer_value) {
      BoundExpr low = node(Op::Ne, DataType::boolean(), {lookup(Op::Lookup, table_of(1), rank), *outer_value}, at);
      BoundExpr high = node(Op::Ne, DataType::boolean(), {lookup(Op::Lookup, table_of(2), rank), *outer_value}, at);
      found = node(Op::And, DataType::boolean(),
                   {std::move(found), node(Op::Or, DataType::boolean(), {std::move(low), std::move(high)}, at)}, at);
    }
    // NULL (a NULL key or value) is FALSE: EXISTS is never NULL.
    return node(Op::Select, DataType::boolean(), {std::move(found), bool_constant(true, at), bool_constant(false, at)},
                at);
  }

  // [NOT] EXISTS (SELECT ... WHERE inner_k = outer_k ... [AND inner_c <>
  // outer_x] AND local) as a condition of WHERE (TPC-H Q21, Q22): a join
  // with the subquery grouped by its keys (with MIN and MAX of c for the
  // <>): EXISTS an inner join where MIN(c) <> x OR MAX(c) <> x; NOT EXISTS a
  // LEFT JOIN where no group matched, or none has a c <> x. False for any
  // other shape (and for EXISTS without <>, which join_exists() takes).
  bool exists_join(const ast::Expr& exists, bool negated) {
    const ast::SelectStatement& inner = *exists.subquery;
    if (!inner.group_by.empty() || inner.having) return false;
    for (const auto& item : inner.items)
      if (AggregateScope::contains_aggregate(*item.expr)) return false;
    std::optional<Correlation> c = correlate(inner, {}, /*unequal=*/true);
    if (!c || c->unequal.size() > 1 || (!negated && c->unequal.empty())) return false;
    const std::size_t at = exists.offset;
    auto grouped = [&] {
      ast::SelectStatement s = by_keys(inner, *c, true);
      if (!c->unequal.empty())
        for (const char* name : {"min", "max"}) {
          std::vector<ast::ExprPtr> args;
          args.push_back(ast::clone(*c->unequal[0].first));
          s.items.push_back({ast::make_function(name, std::move(args), false, at), name});
        }
      return s;
    };
    TableScope outer_scope(q_, "WHERE", &subqueries_);
    const std::size_t index = q_.tables.size();
    add_hidden_table(keyed_table(grouped, *c, at), negated ? "not_exists" : "exists", at);
    ExpressionBinder binder(outer_scope);
    std::vector<BoundExpr> keys;
    for (std::size_t i = 0; i < c->keys.size(); ++i)
      keys.push_back(binder.compare(Op::Eq, binder.bind(*c->keys[i].second),
                                    TableScope::column_ref(q_.tables[index], static_cast<int>(i), at), at, at));
    auto column = [&](std::size_t i) { return TableScope::column_ref(q_.tables[index], static_cast<int>(i), at); };
    // Some row of the group has c <> x (NULL where c or x is NULL: none has).
    std::optional<BoundExpr> unequal;
    if (!c->unequal.empty()) {
      BoundExpr x = binder.bind(*c->unequal[0].second);
      const std::size_t lo = c->keys.size();
      unequal = node(Op::Or, DataType::boolean(),
                     {binder.compare(Op::Ne, column(lo), x, at, at), binder.compare(Op::Ne, column(lo + 1), x, at, at)},
                     at);
    }
    if (!negated) {
      for (BoundExpr& k : keys) add_conjuncts(std::move(k));
      add_conjuncts(*std::move(unequal));
      return true;
    }
    q_.tables[index].left_outer = true;
    q_.tables[index].on = std::move(keys);
    BoundExpr matched = node(Op::IsNotNull, DataType::boolean(), {column(0)}, at);
    BoundExpr witness = unequal ? node(Op::And, DataType::boolean(), {std::move(matched), *std::move(unequal)}, at)
                                : std::move(matched);
    // TRUE where no group has a witness; a NULL witness is none.
    add_conjuncts(node(Op::Select, DataType::boolean(),
                       {std::move(witness), bool_constant(false, at), bool_constant(true, at)}, at));
    return true;
  }

  static bool has_subquery(const ast::Expr& e) {
    if (e.subquery) return true;
    for (const auto& a : e.args)
      if (has_subquery(*a)) return true;
    return false;
  }

  // A table the query joins that names cannot reach (an IN set, a grouped
  // correlated subquery).
  const BoundTableRef& add_hidden_table(std::shared_ptr<const Table> table, const std::string& alias,
                                        std::size_t offset) {
    BoundTableRef t;
    t.table = std::move(table);
    t.alias = alias;
    t.hidden = true;
    t.first_column = q_.column_count;
    t.offset = offset;
    q_.column_count += t.column_count();
    for (const auto& column : t.table->columns) {
      q_.column_names.push_back(alias + "." + column.name);
      q_.column_types.push_back(column.type);
    }
    q_.column_names.push_back(alias + ".rowid");
    q_.column_types.push_back(DataType::bigint());
    q_.tables.push_back(std::move(t));
    return q_.tables.back();
  }


  // x IN (SELECT y ...) as a condition of WHERE: the subquery runs once,
  // its distinct values become a table of their own (hidden from names),
  // and x = y joins it. A row stays when some value equals x, as IN keeps
  // it; a NULL x or NULL values never make it TRUE, and NULL drops a row
  // from WHERE as FALSE does.
  void semi_join(const ast::Expr& in) {
    ast::SelectStatement distinct;
    distinct.distinct = true;
    auto star = std::make_unique<ast::Expr>();
    star->kind = ExprKind::Star;
    star->offset = in.offset;
    distinct.items.push_back({std::move(star), ""});
    ast::TableRef from;
    from.subquery = in.subquery;
    from.alias = "in_set";
    from.offset = in.offset;
    distinct.from.push_back(std::move(from));
    TableScope outer(q_, "WHERE", &subqueries_);
    std::shared_ptr<const Table> set = subqueries_.table(distinct, in.offset, outer);
    if (set->columns.size() != 1)
      throw Error(ErrorKind::Binder,
                  "Subquery returns " + std::to_string(set->columns.size()) + " columns - expected 1", in.offset);
    const BoundTableRef& t = add_hidden_table(set, "in_set", in.offset);
    BoundExpr value = TableScope::column_ref(t, 0, in.offset);
    ExpressionBinder binder(outer);
    BoundExpr x = binder.bind(*in.args[0]);
    add_conjuncts(binder.compare(Op::Eq, std::move(x), std::move(value), in.offset, in.offset));
  }

  // An output column's name: a column reference is named by its column, as
  // in DuckDB ("v" and t.v are v); anything else by its text as written.
  std::string source_text(const ast::Expr& e) const {
    if (e.kind == ExprKind::Column) return e.name;
    if (e.end > e.offset && e.end <= sql_.size()) return std::string(sql_.substr(e.offset, e.end - e.offset));
    return ast::to_string(e);
  }

  // What one side of a USING join has of a name: the expression it reads
  // there, and the columns it stands for.
  struct UsingSide {
    ast::ExprPtr value;
    std::vector<BoundQuery::UsingColumn::Place> covered;
    BoundQuery::UsingColumn::Place shown;
  };

  // `name` on FROM items [begin, end) (sources of the same indexes): its one
  // column there, or the USING column that stands for all of them.
  UsingSide using_side(std::size_t begin, std::size_t end, const std::string& name, const char* side,
                       std::size_t at) const {
    std::vector<BoundQuery::UsingColumn::Place> found;
    std::vector<std::string> names;
    for (std::size_t i = begin; i < end; ++i) {
      const BoundQuery::Source source = q_.sources[i];
      const int c = source.derived ? q_.derived[source.index].find_column(name) : q_.tables[source.index].find_column(name);
      if (c < 0) continue;
      found.push_back({static_cast<int>(i), c});
      names.push_back(alias_of(q_, source) + "." +
                      (source.derived ? q_.derived[source.index].names[c] : q_.tables[source.index].column_name(c)));
    }
    if (found.empty())
      throw Error(ErrorKind::Binder, "Column \"" + name + "\" does not exist on " + side + " side of join!", at);
    if (found.size() == 1) {
      const BoundQuery::Source source = q_.sources[found[0].first];
      const std::string& column = source.derived ? q_.derived[source.index].names[found[0].second]
                                                 : q_.tables[source.index].column_name(found[0].second);
      return {ast::make_column(alias_of(q_, source), column, at), found, found[0]};
    }
    for (std::size_t u = q_.using_columns.size(); u-- > 0;)
      if (using_column(q_, name, found) == &q_.using_columns[u]) {
        const BoundQuery::UsingColumn& merged = q_.using_columns[u];
        return {ast::clone(*using_values_.at(u)), merged.covered, merged.shown};
      }
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "\"" : ", \"") + n + "\"";
    throw Error(ErrorKind::Binder, "Ambiguous reference to column name \"" + name + "\" (use: " + list + ")", at);
  }

  // JOIN ... USING (a, b) and NATURAL JOIN: the ON condition each stands
  // for (every name's column on the left side -- the FROM items back to the
  // last comma -- equal to the right side's), and the USING column each
  // name becomes (BoundQuery::UsingColumn), in FROM order.
  void bind_using(const ast::SelectStatement& s) {
    if (std::all_of(s.from.begin(), s.from.end(), [](const ast::TableRef& r) { return r.using_columns.empty(); }))
      return;
    for (const ast::TableRef& ref : s.from)
      if (ref.joins)
        throw Error(ErrorKind::NotSupported, "not supported yet: USING or NATURAL with nested outer joins",
                    ref.offset);
    if (q_.sources.size() != s.from.size())
      throw Error(ErrorKind::Invalid, "internal: FROM items and their names differ in number", s.from[0].offset);
    // A group in parentheses joins by its own USING once its members have:
    // `a JOIN (b JOIN c USING (x)) USING (x)` finds b's and c's x merged.
    std::vector<std::size_t> order;
    std::function<void(std::size_t, std::size_t)> visit = [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; i += s.from[i].group_size) {
        if (s.from[i].group_size > 1) visit(i + 1, i + s.from[i].group_size);
        order.push_back(i);
      }
    };
    visit(0, s.from.size());
    for (const std::size_t i : order) {
      const ast::TableRef& ref = s.from[i];
      if (ref.using_columns.empty()) continue;
      // The left side: back to the last comma (which binds looser than
      // JOIN), within the parentheses around this join.
      std::size_t inside = 0;
      for (std::size_t h = 0; h < i; ++h)
        if (s.from[h].group_size > 1 && h + s.from[h].group_size > i) inside = h;
      std::size_t first = i - 1;
      while (first > inside && s.from[first].join != ast::JoinKind::Comma) --first;
      const std::size_t end = i + ref.group_size, at = ref.using_columns.offset;
      std::vector<std::pair<std::string, std::size_t>> names = ref.using_columns.names;
      if (ref.using_columns.natural) names = natural_columns(first, i, end, at);
      ast::ExprPtr condition;
      std::vector<std::string> done;
      for (const auto& listed : names) {
        const std::string& name = listed.first;
        const std::size_t offset = listed.second;
        if (std::any_of(done.begin(), done.end(), [&](const std::string& n) { return iequals(n, name); })) continue;
        done.push_back(name);
        UsingSide left = using_side(first, i, name, "left", offset);
        UsingSide right = using_side(i, end, name, "right", offset);
        ast::ExprPtr equal = ast::make_binary(ast::BinaryOp::Eq, ast::clone(*left.value), ast::clone(*right.value), offset);
        condition = condition ? ast::make_binary(ast::BinaryOp::And, std::move(condition), std::move(equal), offset)
                              : std::move(equal);
        BoundQuery::UsingColumn merged;
        merged.name = name;
        merged.covered = left.covered;
        merged.covered.insert(merged.covered.end(), right.covered.begin(), right.covered.end());
        merged.shown = left.shown;
        merged.hidden = right.covered;
        ast::ExprPtr value;
        if (ref.join == ast::JoinKind::Full) {
          std::vector<ast::ExprPtr> both;
          both.push_back(std::move(left.value));
          both.push_back(std::move(right.value));
          value = ast::make_function("coalesce", std::move(both), false, offset);
        } else {
          value = std::move(ref.join == ast::JoinKind::Right ? right.value : left.value);
        }
        TableScope scope(q_, "JOIN condition", &subqueries_);
        merged.value = ExpressionBinder(scope).bind(*value);
        q_.using_columns.push_back(std::move(merged));
        using_values_.push_back(std::move(value));
      }
      using_conditions_[&ref] = std::move(condition);
    }
  }

  // NATURAL JOIN's names: the left side's columns (in its order) that the
  // right side has too; none is an error, as in DuckDB.
  std::vector<std::pair<std::string, std::size_t>> natural_columns(std::size_t first, std::size_t i, std::size_t end,
                                                                   std::size_t at) const {
    auto columns_of = [&](std::size_t begin, std::size_t stop) {
      std::vector<std::string> names;
      for (std::size_t j = begin; j < stop; ++j) {
        const BoundQuery::Source source = q_.sources[j];
        const std::vector<std::string> all = source.derived ? q_.derived[source.index].names : table_column_names(source);
        for (const std::string& n : all) names.push_back(alias_of(q_, source) + "." + n);
      }
      return names;
    };
    const std::vector<std::string> left = columns_of(first, i), right = columns_of(i, end);
    std::vector<std::pair<std::string, std::size_t>> common;
    for (const std::string& l : left) {
      const std::string name = l.substr(l.find('.') + 1);
      const bool both = std::any_of(right.begin(), right.end(), [&](const std::string& r) { return iequals(r.substr(r.find('.') + 1), name); });
      const bool again = std::any_of(common.begin(), common.end(), [&](const auto& c) { return iequals(c.first, name); });
      if (both && !again) common.push_back({name, at});
    }
    if (common.empty()) {
      auto join = [](const std::vector<std::string>& names) {
        std::string out;
        for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
        return out;
      };
      throw Error(ErrorKind::Binder,
                  "No columns found to join on in NATURAL JOIN.\nUse CROSS JOIN if you intended for this to be a "
                  "cross-product.\n   Left candidates: " + join(left) + "\n   Right candidates: " + join(right),
                  at);
    }
    return common;
  }

  std::vector<std::string> table_column_names(BoundQuery::Source source) const {
    const BoundTableRef& t = q_.tables[source.index];
    std::vector<std::string> names;
    for (std::size_t c = 0; c < t.table->columns.size(); ++c) names.push_back(t.column_name(static_cast<int>(c)));
    return names;
  }

  // SELECT *'s view of the USING columns (BoundQuery::UsingColumn).
  const BoundQuery::UsingColumn* shown_using_column(int source, int column) const {
    for (auto it = q_.using_columns.rbegin(); it != q_.using_columns.rend(); ++it)
      if (it->shown == BoundQuery::UsingColumn::Place{source, column}) return &*it;
    return nullptr;
  }
  bool hidden_by_using(int source, int column) const {
    for (const auto& u : q_.using_columns)
      if (std::find(u.hidden.begin(), u.hidden.end(), BoundQuery::UsingColumn::Place{source, column}) != u.hidden.end())
        return true;
    return false;
  }

  void bind_from(const ast::SelectStatement& s) {
    for (std::size_t i = 0; i < s.from.size(); ++i) {
      const ast::TableRef& ref = s.from[i];
      if (ref.join == ast::JoinKind::Left) {
        add_unit(s, i, i + ref.group_size, ref);
      } else if (ref.join == ast::JoinKind::Right) {
        std::size_t first = i - 1;  // back to the last comma: a comma binds looser than JOIN
        while (first > 0 && s.from[first].join != ast::JoinKind::Comma) --first;
        add_unit(s, first, i, ref);
      } else if (ref.join == ast::JoinKind::Full) {
        full_partners_.insert(&s.from[i - 1]);
      }
    }
    std::vector<int> ends;
    for (const auto& ref : s.from) {
      bind_from_item(ref);
      ends.push_back(q_.column_count);
    }
    for (std::size_t i = 0; i < s.from.size(); ++i) scope_ends_[&s.from[i]] = ends[i + s.from[i].group_size - 1];
  }

  void add_unit(const ast::SelectStatement& s, std::size_t begin, std::size_t end, const ast::TableRef& join) {
    for (std::size_t j = begin + 1; j < end; ++j) {
      const ast::JoinKind kind = s.from[j].join;
      if (kind == ast::JoinKind::Left || kind == ast::JoinKind::Right || kind == ast::JoinKind::Full)
        throw Error(ErrorKind::NotSupported,
                    "not supported yet: an outer join inside the side another outer join extends with NULLs",
                    join.offset);
    }
    for (std::size_t j = begin; j < end; ++j) unit_of_[&s.from[j]] = units_.size();
    units_.push_back({&s.from[begin], end - begin, &join});
  }

  // A side an outer JOIN extends with NULLs.
  bool nullable(const ast::TableRef& ref) const {
    return unit_of_.contains(&ref) || ref.join == ast::JoinKind::Full || full_partners_.contains(&ref);
  }

  void bind_from_item(const ast::TableRef& ref) {
    if (ref.joins) {
      bind_joins(ref);
      return;
    }
    if (ref.subquery) {
      bind_derived(ref, *ref.subquery, ref.alias, ref.column_aliases, names_);
      return;
    }
    const NamedQueries* named = !ref.is_function && names_ ? names_->find(ref.name) : nullptr;
    if (named && named->table) {
      add_table(ref, named->table, ref.alias.empty() ? ref.name : ref.alias, ref.column_aliases);
      return;
    }
    if (named) {
      if (depth_ >= kMaxNamedDepth)
        throw Error(ErrorKind::Binder, "a view or WITH query names itself (through " + named->name + ")",
                    ref.offset);
      bind_derived(ref, *named->query, ref.alias.empty() ? ref.name : ref.alias,
                   ref.column_aliases.empty() ? named->column_aliases : ref.column_aliases, named->defined_in,
                   depth_ + 1);
      return;
    }
    BoundTableRef t;
    if (ref.is_function) {
      if (!reader_ || !iequals(ref.name, "read_csv"))
        throw Error(ErrorKind::Binder, "Table Function with name " + ref.name + " does not exist!", ref.offset);
      t.table = reader_(ref);
    } else {
      t.table = catalog_.get(ref.name, ref.offset);
    }
    t.alias = ref.alias.empty() ? (ref.is_function ? ref.name : t.table->name) : ref.alias;
    check_new_alias(t.alias, ref.offset);
    t.column_aliases = column_aliases(ref.column_aliases, ref.offset, t.table->columns.size(), t.table->name);
    push_table(ref, std::move(t));
  }

  // `t` (its table, alias and column aliases set) as the query's next
  // table: its columns and rowid in the query's column space.
  void push_table(const ast::TableRef& ref, BoundTableRef t) {
    t.first_column = q_.column_count;
    t.offset = ref.offset;
    q_.column_count += t.column_count();
    for (std::size_t c = 0; c < t.table->columns.size(); ++c) {
      q_.column_names.push_back(t.alias + "." + t.column_name(static_cast<int>(c)));
      q_.column_types.push_back(t.table->columns[c].type);
    }
    q_.column_names.push_back(t.alias + ".rowid");
    q_.column_types.push_back(DataType::bigint());
    q_.sources.push_back({false, static_cast<int>(q_.tables.size())});
    mark_left_join(ref, t);
    q_.tables.push_back(std::move(t));
  }

  // AS alias(a, b, ...): no more names than `table` has columns (DuckDB's check).
  static std::vector<std::string> column_aliases(const std::vector<std::string>& aliases, std::size_t offset,
                                                 std::size_t columns, const std::string& table) {
    if (aliases.size() > columns)
      throw Error(ErrorKind::Binder,
                  "table \"" + table + "\" has " + std::to_string(columns) + " columns available but " +
                      std::to_string(aliases.size()) + " columns specified",
                  offset);
    return aliases;
  }

  // `t` is about to be q_.tables' next table.
  void mark_left_join(const ast::TableRef& ref, BoundTableRef& t) {
    if (!nullable(ref)) return;
    t.left_outer = true;
    if (ref.join == ast::JoinKind::Full) {
      t.full_outer = true;
      on_tables_[&ref] = q_.tables.size();
    }
    if (!unit_of_.contains(&ref)) return;
    NullableUnit& unit = units_[unit_of_.at(&ref)];
    if (&ref == unit.head) {
      unit.table = q_.tables.size();
      t.unit_size = static_cast<int>(unit.size);
      on_tables_[unit.join] = unit.table;
    } else if (ref.on || !ref.using_columns.empty()) {  // an inner join inside the unit
      on_tables_[&ref] = unit.table;
    }
  }

  // Two tables may not share an alias; a derived table may share one
  // (DuckDB runs FROM (SELECT 1) d, (SELECT 2) d).
  void check_new_alias(const std::string& alias, std::size_t offset) const {
    for (const auto& source : q_.sources)
      if ((!source.derived || q_.derived[source.index].of_joins) && iequals(alias_of(q_, source), alias))
        throw Error(ErrorKind::Binder, "Duplicate alias \"" + alias + "\" in query!", offset);
  }

  // FROM (SELECT ...) AS alias: bound on its own, then flattened into this
  // query (DerivedTable). One that groups, aggregates, removes duplicates,
  // sorts or limits cannot be flattened that way: it runs once, first, and
  // the query reads its rows as a table.
  // `inner` is ref's subquery or the query it names (then `alias` is the
  // name, unless ref has its own); `names`: what inner's FROM may name.
  void bind_derived(const ast::TableRef& ref, const ast::SelectStatement& inner, const std::string& alias,
                    const std::vector<std::string>& aliases, const NamedQueries* names, int depth = -1) {
    if (depth < 0) depth = depth_;
    // The nullable side of an outer JOIN is one table: it runs first.
    bool flat = !inner.set_operation && !inner.distinct && inner.group_by.empty() && !inner.having && inner.order_by.empty() &&
                !inner.limit && !inner.offset && !nullable(ref);
    for (const auto& item : inner.items) flat = flat && !AggregateScope::contains_aggregate(*item.expr);
    if (!flat) {
      TableScope outer(q_, "FROM", &subqueries_);
      add_table(ref, subqueries_.table(inner, ref.offset, outer, names), alias.empty() ? "unnamed_subquery" : alias,
                aliases);  // DuckDB's name for it
      return;
    }
    BoundQuery b = QueryBinder(catalog_, sql_, reader_, runner_, names, depth).bind(inner);
    const int shift = q_.column_count;
    for (BoundTableRef& t : b.tables) {
      t.first_column += shift;
      t.hidden = true;
      q_.tables.push_back(std::move(t));
    }
    q_.column_count += b.column_count;
    q_.column_names.insert(q_.column_names.end(), b.column_names.begin(), b.column_names.end());
    q_.column_types.insert(q_.column_types.end(), b.column_types.begin(), b.column_types.end());
    for (BoundExpr& c : b.conjuncts) {
      shift_columns(c, shift);
      q_.conjuncts.push_back(std::move(c));
    }
    DerivedTable d;
    d.alias = alias;
    const std::vector<std::string> renamed = column_aliases(aliases, ref.offset, b.visible, alias);
    for (std::size_t i = 0; i < b.visible; ++i) {
      shift_columns(b.outputs[i], shift);
      d.columns.push_back(std::move(b.outputs[i]));
      // A name taken before becomes name_1, name_2, ... (DuckDB's rule).
      const std::string base = i < renamed.size() ? renamed[i] : b.names[i];
      std::string name = base;
      for (int k = 1; d.find_column(name) >= 0; ++k) name = base + "_" + std::to_string(k);
      d.names.push_back(std::move(name));
    }
    q_.sources.push_back({true, static_cast<int>(q_.derived.size())});
    q_.derived.push_back(std::move(d));
  }

  // Joins that run first, as one table (ast::TableRef::joins): each of
  // their tables keeps its name, a derived table over its columns there.
  void bind_joins(const ast::TableRef& ref) {
    const ast::SelectStatement& joins = *ref.subquery;
    const std::size_t at = ref.offset;
    for (const ast::TableRef& r : joins.from)
      if (!r.using_columns.empty())
        throw Error(ErrorKind::NotSupported, "not supported yet: USING or NATURAL with nested outer joins",
                    r.using_columns.offset);
    // Each table's columns, named, make the select list: `SELECT *` would
    // not say where one table's end.
    const BoundQuery shape = QueryBinder(catalog_, sql_, reader_, runner_, names_, depth_).bind(joins);
    ast::SelectStatement all;
    all.with = joins.with;
    for (const ast::TableRef& r : joins.from) all.from.push_back(ast::clone(r));
    std::vector<std::pair<std::string, std::vector<std::string>>> tables;
    for (const BoundQuery::Source source : shape.sources) {
      const std::string& alias = alias_of(shape, source);
      for (const auto& [other, unused] : tables)
        if (iequals(other, alias))
          throw Error(ErrorKind::NotSupported, "not supported yet: two tables called " + alias + " in joins an outer join nests", at);
      check_new_alias(alias, at);
      tables.push_back({alias, column_names_of(shape, source)});
      for (const std::string& name : tables.back().second)
        all.items.push_back({ast::make_column(alias, name, at), "c" + std::to_string(all.items.size())});
    }
    TableScope outer(q_, "FROM", &subqueries_);
    BoundTableRef t;
    t.table = subqueries_.table(all, at, outer, names_);
    t.alias = "joins";
    t.hidden = true;
    t.first_column = q_.column_count;
    t.offset = at;
    q_.column_count += t.column_count();
    for (const auto& column : t.table->columns) {
      q_.column_names.push_back("joins." + column.name);
      q_.column_types.push_back(column.type);
    }
    q_.column_names.push_back("joins.rowid");
    q_.column_types.push_back(DataType::bigint());
    mark_left_join(ref, t);
    q_.tables.push_back(std::move(t));
    int c = 0;
    for (auto& [alias, names] : tables) {
      DerivedTable d;
      d.alias = alias;
      d.of_joins = true;
      for (std::string& name : names) {
        d.columns.push_back(TableScope::column_ref(q_.tables.back(), c++, at));
        d.names.push_back(std::move(name));
      }
      q_.sources.push_back({true, static_cast<int>(q_.derived.size())});
      q_.derived.push_back(std::move(d));
    }
  }

  // Rows already made (a derived table that ran first, a set operation's)
  // read as a table called `alias`.
  void add_table(const ast::TableRef& ref, std::shared_ptr<const Table> table, const std::string& alias,
                 const std::vector<std::string>& aliases) {
    BoundTableRef t;
    t.table = std::move(table);
    t.alias = alias;
    t.column_aliases = column_aliases(aliases, ref.offset, t.table->columns.size(), t.alias);
    push_table(ref, std::move(t));
  }

  static void shift_columns(BoundExpr& e, int shift) {
    if (e.op == Op::Column) e.column += shift;
    for (auto& child : e.children) shift_columns(child, shift);
  }

  // SELECT without FROM reads one row of no columns, as DuckDB's dummy scan.
  void bind_no_from(const ast::SelectStatement& s) {
    for (const auto& item : s.items)
      if (item.expr->kind == ExprKind::Star)
        throw Error(ErrorKind::Binder, "* expression without FROM clause!", item.expr->offset);
    static const std::shared_ptr<const Table> one_row = [] {
      auto t = std::make_shared<Table>();
      t->name = "(one row, no FROM)";  // as EXPLAIN names it
      t->rows = 1;
      t->device = std::make_unique<DeviceTable>();  // no columns: nothing to upload
      return std::shared_ptr<const Table>(std::move(t));
    }();
    BoundTableRef t;
    t.table = one_row;
    t.first_column = q_.column_count;
    q_.column_count += t.column_count();
    q_.column_names.push_back(".rowid");
    q_.column_types.push_back(DataType::bigint());
    q_.sources.push_back({false, static_cast<int>(q_.tables.size())});
    q_.tables.push_back(std::move(t));
  }

  void add_conjuncts(BoundExpr e) {
    if (e.op == Op::And) {
      for (auto& child : e.children) add_conjuncts(std::move(child));
      return;
    }
    if (e.op == Op::Constant && !e.constant.null_constant && e.constant.value.i != 0) return;  // TRUE
    if (e.op == Op::Eq && is_wide(e.children[0]) && is_wide(e.children[1])) {
      // Join keys hold 64 bits: two 128-bit values are equal where both
      // halves are, two equalities a join can key on.
      for (Op half : {Op::WideHigh, Op::WideLow})
        q_.conjuncts.push_back(node(Op::Eq, DataType::boolean(),
                                    {node(half, DataType::bigint(), {e.children[0]}, e.offset),
                                     node(half, DataType::bigint(), {e.children[1]}, e.offset)},
                                    e.offset));
      return;
    }
    if (e.op == Op::Or) {
      std::vector<BoundExpr> factored = factor_common_conjuncts(std::move(e));
      if (factored.size() == 1 && factored[0].op == Op::Or) {
        q_.conjuncts.push_back(std::move(factored[0]));
      } else {
        for (auto& c : factored) add_conjuncts(std::move(c));
      }
      return;
    }
    q_.conjuncts.push_back(std::move(e));
  }

  // GROUP BY items may name a select alias or a position (GROUP BY 1).
  const ast::Expr& group_item(const ast::SelectStatement& s, const ast::Expr& e) const {
    if (e.kind == ExprKind::Literal && e.literal.kind == ast::Literal::Kind::Integer) {
      int64_t k = e.literal.integer;
      if (k < 1 || k > static_cast<int64_t>(s.items.size()) || s.items[k - 1].expr->kind == ExprKind::Star)
        throw Error(ErrorKind::Binder, "GROUP BY term out of range - should be between 1 and " +
                                           std::to_string(s.items.size()), e.offset);
      return *s.items[k - 1].expr;
    }
    if (e.kind == ExprKind::Column && e.table.empty()) {
      if (!names_a_column(q_, e.name))
        for (const auto& item : s.items)
          if (!item.alias.empty() && iequals(item.alias, e.name)) return *item.expr;
    }
    return e;
  }

  void bind_group_by(const ast::SelectStatement& s) {
    for (const auto& g : s.group_by) {
      const ast::Expr& e = group_item(s, *g);
      if (AggregateScope::contains_aggregate(e))
        throw Error(ErrorKind::Binder, "GROUP BY clause cannot contain aggregates", e.offset);
      TableScope scope(q_, "GROUP BY", &subqueries_);
      BoundExpr key = as_group_key(ExpressionBinder(scope).bind(e));
      if (!is_wide(key)) {
        add_group_key(std::move(key));
        continue;
      }
      // The groupings key on 64-bit values (BoundQuery::WideKey).
      const std::size_t high = add_group_key(node(Op::WideHigh, DataType::bigint(), {key}, e.offset));
      const std::size_t low = add_group_key(node(Op::WideLow, DataType::bigint(), {key}, e.offset));
      q_.wide_keys.push_back({std::move(key), high, low});
    }
  }

  // The index of `key` among the group keys, added unless it is there.
  std::size_t add_group_key(BoundExpr key) {
    for (std::size_t k = 0; k < q_.group_keys.size(); ++k)
      if (same_expression(q_.group_keys[k], key)) return k;
    q_.group_keys.push_back(std::move(key));
    return q_.group_keys.size() - 1;
  }

  BoundExpr bind_output(const ast::Expr& e) {
    TableScope tables(q_, "the select list", &subqueries_);
    BoundExpr out;
    if (q_.aggregated) {
      AggregateScope scope(q_, tables, "the select list");
      out = ExpressionBinder(scope).bind(e);
    } else {
      out = ExpressionBinder(tables).bind(e);
    }
    if (is_untyped_null(out)) out = retype_null(std::move(out), DataType::integer());
    // A string literal in the select list is a column of one dictionary entry.
    if (out.op == Op::Constant && out.type.id == Type::Varchar && !out.constant.null_constant && !out.dictionary) {
      auto dictionary = std::make_shared<Dictionary>();
      dictionary->values.push_back(out.text);
      out.dictionary = std::move(dictionary);
      out.constant.value.i = 0;
    }
    return out;
  }

  void bind_select_list(const ast::SelectStatement& s) {
    for (const auto& item : s.items) {
      const ast::Expr& e = *item.expr;
      if (e.kind == ExprKind::Star) {
        bool matched = false;
        for (std::size_t i = 0; i < q_.sources.size(); ++i) {
          const auto& source = q_.sources[i];
          if (!e.table.empty() && !iequals(e.table, alias_of(q_, source))) continue;
          matched = true;
          const std::vector<std::string> names = column_names_of(q_, source);
          for (std::size_t c = 0; c < names.size(); ++c) {
            const int column = static_cast<int>(c);
            // A bare * shows a USING column once, where its left side has it.
            if (e.table.empty() && hidden_by_using(static_cast<int>(i), column)) continue;
            const BoundQuery::UsingColumn* merged = e.table.empty() ? shown_using_column(static_cast<int>(i), column) : nullptr;
            const std::string name = source.derived ? names[c] : q_.tables[source.index].column_name(column);
            if (q_.aggregated) {
              // Each column as if named in the select list: a group key, or
              // the binder's error (DuckDB's too).
              // (Bare where no other FROM item has the name: errors name it as DuckDB does.)
              std::size_t having = 0;
              for (const auto& other : q_.sources)
                for (const std::string& n : column_names_of(q_, other)) having += iequals(n, name);
              ast::ExprPtr named =
                  merged ? ast::clone(*using_values_.at(static_cast<std::size_t>(merged - q_.using_columns.data())))
                         : ast::make_column(having == 1 ? std::string() : alias_of(q_, source), name, e.offset);
              q_.outputs.push_back(bind_output(*named));
              q_.names.push_back(name);
              continue;
            }
            if (merged) {
              BoundExpr value = merged->value;
              value.offset = e.offset;
              q_.outputs.push_back(std::move(value));
            } else if (source.derived) {
              q_.outputs.push_back(q_.derived[source.index].columns[c]);
            } else {
              q_.outputs.push_back(TableScope::column_ref(q_.tables[source.index], column, e.offset));
            }
            q_.names.push_back(name);
          }
        }
        if (!matched) throw Error(ErrorKind::Binder, "Referenced table \"" + e.table + "\" not found!", e.offset);
        continue;
      }
      q_.outputs.push_back(bind_output(e));
      q_.names.push_back(item.alias.empty() ? source_text(e) : item.alias);
    }
    q_.visible = q_.outputs.size();
  }

  // HAVING may name a select alias (HAVING n > 1 for COUNT(*) AS n), as in
  // DuckDB; a table column of the same name wins.
  class HavingScope : public AggregateScope {
   public:
    HavingScope(BoundQuery& query, TableScope& tables, const ast::SelectStatement& s)
        : AggregateScope(query, tables, "HAVING"), query_(query), select_(s) {}
    std::optional<BoundExpr> intercept(const ast::Expr& e) override {
      if (e.kind == ExprKind::Column && e.table.empty()) {
        if (!names_a_column(query_, e.name))
          for (std::size_t i = 0; i < select_.items.size(); ++i)
            if (!select_.items[i].alias.empty() && iequals(select_.items[i].alias, e.name)) return query_.outputs[i];
      }
      return AggregateScope::intercept(e);
    }

   private:
    BoundQuery& query_;
    const ast::SelectStatement& select_;
  };

  void bind_having(const ast::SelectStatement& s) {
    if (!s.having) return;
    TableScope tables(q_, "HAVING", &subqueries_);
    HavingScope scope(q_, tables, s);
    q_.having = ExpressionBinder(scope).bind_boolean(*s.having, "HAVING clause");
  }

  void bind_order_by(const ast::SelectStatement& s) {
    for (const auto& o : s.order_by) {
      const ast::Expr& e = *o.expr;
      int output = -1;
      if (e.kind == ExprKind::Literal && e.literal.kind == ast::Literal::Kind::Integer) {
        int64_t k = e.literal.integer;
        if (k < 1 || k > static_cast<int64_t>(q_.visible))
          throw Error(ErrorKind::Binder, "ORDER BY term out of range - should be between 1 and " +
                                             std::to_string(q_.visible), e.offset);
        output = static_cast<int>(k - 1);
      } else if (e.kind == ExprKind::Column && e.table.empty()) {
        for (std::size_t i = 0; i < s.items.size() && output < 0; ++i)
          if (!s.items[i].alias.empty() && iequals(s.items[i].alias, e.name)) output = static_cast<int>(i);
      }
      if (output < 0) {
        BoundExpr key = bind_output(e);
        for (std::size_t i = 0; i < q_.outputs.size() && output < 0; ++i)
          if (same_expression(q_.outputs[i], key)) output = static_cast<int>(i);
        if (output < 0) {
          if (s.distinct)
            throw Error(ErrorKind::Binder, "for SELECT DISTINCT, ORDER BY expressions must appear in select list",
                        e.offset);
          output = static_cast<int>(q_.outputs.size());
          q_.outputs.push_back(std::move(key));
          q_.names.push_back(source_text(e));
        }
      }
      BoundOrder order;
      order.output = output;
      order.descending = o.descending;
      // DuckDB's default: NULLS LAST for ASC and for DESC alike.
      order.nulls_first = o.nulls_first.value_or(false);
      q_.order_by.push_back(order);
    }
  }

  int64_t constant_count(const ast::Expr& e, const char* what) {
    TableScope scope(q_, what, &subqueries_);
    BoundExpr v = ExpressionBinder(scope).bind(e);
    if (v.op != Op::Constant || !v.type.is_integral() || v.constant.null_constant || v.constant.value.i < 0)
      throw Error(ErrorKind::Binder, std::string(what) + " must be a non-negative integer constant", e.offset);
    return v.constant.value.i;
  }

  void bind_limit(const ast::SelectStatement& s) {
    if (s.limit) q_.limit = constant_count(*s.limit, "LIMIT");
    if (s.offset) q_.offset = constant_count(*s.offset, "OFFSET");
  }
};

}  // namespace

bool has_wide_step(const BoundExpr& e) {
  if (e.type.is_wide_decimal()) return true;
  for (const auto& c : e.children)
    if (has_wide_step(c)) return true;
  return false;
}

bool same_expression(const BoundExpr& a, const BoundExpr& b) {
  if (a.op != b.op || !(a.type == b.type) || a.column != b.column || a.children.size() != b.children.size()) return false;
  if (a.op == Op::Constant) {
    if (a.constant.null_constant != b.constant.null_constant || a.text != b.text) return false;
    if (!a.constant.null_constant && a.constant.value.i != b.constant.value.i) return false;
  }
  // LIKE builds a new lookup table each time it is bound: compare contents.
  if ((a.lookup == nullptr) != (b.lookup == nullptr) || (a.lookup && *a.lookup != *b.lookup)) return false;
  for (std::size_t i = 0; i < a.children.size(); ++i)
    if (!same_expression(a.children[i], b.children[i])) return false;
  return true;
}

bool same_aggregate(const BoundAggregate& a, const BoundAggregate& b) {
  if (a.kind != b.kind || a.distinct != b.distinct || a.argument.has_value() != b.argument.has_value() ||
      a.order.has_value() != b.order.has_value())
    return false;
  if (a.argument && !same_expression(*a.argument, *b.argument)) return false;
  if (a.order && !same_expression(*a.order, *b.order)) return false;
  return true;
}

BoundQuery bind_query(const ast::SelectStatement& statement, const Catalog& catalog, std::string_view sql,
                      const TableFunctionReader& reader, const SubqueryRunner& runner, const NamedQueries* names) {
  return QueryBinder(catalog, sql, reader, runner, names).bind(statement);
}

const NamedQueries* NamedQueries::find(std::string_view wanted) const {
  for (const NamedQueries* n = this; n; n = n->parent)
    if (iequals(n->name, wanted)) return n;
  return nullptr;
}

void set_table_function_reader(TableFunctionReader reader) { default_table_function_reader() = std::move(reader); }

}  // namespace gpusql
