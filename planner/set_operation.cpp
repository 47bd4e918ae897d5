#include "planner/set_operation.hpp"

#include <algorithm>
#include <cstring>

#include "planner/numeric_types.hpp"
#include "storage/column_ops.hpp"

namespace gpusql {

namespace {

bool is_number(DataType t) { return t.is_numeric() && t.id != Type::Boolean; }

}  // namespace

DataType set_operation_type(DataType left, DataType right, std::size_t offset) {
  if (left == right) return left;
  if (left.id == Type::Varchar || right.id == Type::Varchar) return DataType::varchar();
  if (is_number(left) && is_number(right)) return common_value_type(left, right, offset);
  throw Error(ErrorKind::Binder, "Cannot combine types " + left.to_string() + " and " + right.to_string() +
                                     " in a set operation - an explicit cast is required",
              offset);
}

ResultData set_operation_rows(ResultData left, ResultData right, bool tagged, std::size_t offset) {
  if (left.columns.size() != right.columns.size())
    throw Error(ErrorKind::Binder,
                "Set operations can only apply to expressions with the same number of result columns", offset);
  narrow_wide_decimals(left);
  narrow_wide_decimals(right);
  ResultData rows;
  rows.names = left.names;
  rows.rows = left.rows + right.rows;
  for (std::size_t c = 0; c < left.columns.size(); ++c) {
    const DataType type = set_operation_type(left.columns[c].type, right.columns[c].type, offset);
    try {
      rows.columns.push_back(concatenate(cast_column(left.columns[c], type, left.names[c]),
                                         cast_column(right.columns[c], type, left.names[c])));
    } catch (const Error& error) {
      if (error.offset()) throw;
      throw Error(error.kind(), error.message(), offset);
    }
  }
  if (tagged) {
    std::vector<int64_t> side(rows.rows, 0);
    std::fill(side.begin() + static_cast<std::ptrdiff_t>(left.rows), side.end(), 1);
    rows.columns.push_back(make_bigint_column(side));
    rows.names.push_back("set operation side");
  }
  return rows;
}

ast::SelectStatement set_operation_counts_select(const Table& rows) {
  ast::SelectStatement select;
  ast::TableRef from;
  from.name = rows.name;
  select.from.push_back(std::move(from));
  const std::size_t columns = rows.columns.size() - 1;
  for (std::size_t c = 0; c < columns; ++c) {
    select.items.push_back({ast::make_column("", rows.columns[c].name, 0), rows.columns[c].name});
    select.group_by.push_back(ast::make_column("", rows.columns[c].name, 0));
  }
  // COUNT(*) - SUM(side) copies on the left, SUM(side) on the right.
  auto side = [&] {
    std::vector<ast::ExprPtr> args;
    args.push_back(ast::make_column("", rows.columns.back().name, 0));
    return ast::make_function("sum", std::move(args), false, 0);
  };
  std::vector<ast::ExprPtr> star;
  star.push_back(ast::make_star("", 0));
  select.items.push_back({ast::make_binary(ast::BinaryOp::Sub, ast::make_function("count", std::move(star), false, 0),
                                           side(), 0),
                          "left copies"});
  select.items.push_back({side(), "right copies"});
  return select;
}

ResultData repeated_rows(ResultData counts, ast::SetOperation::Kind kind) {
  const std::size_t columns = counts.columns.size() - 2;
  const auto left = counts.columns[columns].values<int64_t>(), right = counts.columns[columns + 1].values<int64_t>();
  std::vector<std::size_t> rows;  // source row of each output row
  for (std::size_t r = 0; r < counts.rows; ++r) {
    const int64_t copies = kind == ast::SetOperation::Kind::Intersect ? std::min(left[r], right[r])
                                                                       : std::max<int64_t>(left[r] - right[r], 0);
    rows.insert(rows.end(), static_cast<std::size_t>(copies), r);
  }
  ResultData out;
  out.rows = rows.size();
  for (std::size_t c = 0; c < columns; ++c) {
    const HostColumn& from = counts.columns[c];
    HostColumn column(from.type, rows.size());
    column.dictionary = from.dictionary;
    const std::size_t width = from.type.width();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      std::memcpy(column.bytes.data() + i * width, from.bytes.data() + rows[i] * width, width);
      if (!from.is_valid(rows[i])) column.set_null(i);
    }
    out.columns.push_back(std::move(column));
    out.names.push_back(counts.names[c]);
  }
  return out;
}

ast::SelectStatement set_operation_select(const ast::SelectStatement& s, const Table& rows,
                                          const std::vector<std::string>& names, bool as_is) {
  const ast::SetOperation& op = *s.set_operation;
  const std::size_t at = op.offset;
  const bool tagged = op.kind != ast::SetOperation::Kind::Union && !as_is;
  const std::size_t outputs = rows.columns.size() - (tagged ? 1 : 0);
  ast::SelectStatement select;
  ast::TableRef from;
  from.name = rows.name;
  from.offset = at;
  select.from.push_back(std::move(from));
  for (std::size_t c = 0; c < outputs; ++c) {
    select.items.push_back({ast::make_column("", rows.columns[c].name, at), names.at(c)});
    if (tagged) select.group_by.push_back(ast::make_column("", rows.columns[c].name, at));
  }
  select.distinct = op.kind == ast::SetOperation::Kind::Union && !op.all && !as_is;
  if (tagged) {
    // INTERSECT: a row both sides have (sides 0 and 1); EXCEPT: one only the
    // left side has (no side 1).
    auto side = [&](const char* aggregate) {
      std::vector<ast::ExprPtr> args;
      args.push_back(ast::make_column("", rows.columns.back().name, at));
      return ast::make_function(aggregate, std::move(args), false, at);
    };
    auto number = [&](int64_t v) {
      ast::Literal literal;
      literal.kind = ast::Literal::Kind::Integer;
      literal.integer = v;
      return ast::make_literal(literal, at);
    };
    ast::ExprPtr left_only = ast::make_binary(ast::BinaryOp::Eq, side("max"), number(0), at);
    select.having = op.kind == ast::SetOperation::Kind::Except
                        ? std::move(left_only)
                        : ast::make_binary(ast::BinaryOp::And,
                                           ast::make_binary(ast::BinaryOp::Eq, side("min"), number(0), at),
                                           ast::make_binary(ast::BinaryOp::Eq, side("max"), number(1), at), at);
  }
  for (const auto& o : s.order_by) select.order_by.push_back({ast::clone(*o.expr), o.descending, o.nulls_first});
  if (s.limit) select.limit = ast::clone(*s.limit);
  if (s.offset) select.offset = ast::clone(*s.offset);
  return select;
}

}  // namespace gpusql
