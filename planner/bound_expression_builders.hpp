// Bound expressions built by hand, as the binder would make them: for the
// kernel tests and benchmarks, which compile predicates and arguments
// without parsing SQL, and for the planner's and executors' own small
// expressions (a result column, its narrowing to 18 digits, a NULL-extended
// column).
#pragma once

#include <cstdint>
#include <utility>

#include "planner/bound_expression.hpp"

namespace gpusql::build {

inline BoundExpr column(int c, DataType type) {
  BoundExpr e;
  e.op = Op::Column;
  e.column = c;
  e.type = type;
  return e;
}

inline BoundExpr real_constant(double v) {
  BoundExpr e;
  e.op = Op::Constant;
  e.type = DataType::double_();
  e.constant.value.d = v;
  return e;
}

inline BoundExpr int_constant(int64_t v) {
  BoundExpr e;
  e.op = Op::Constant;
  e.type = DataType::bigint();
  e.constant.value.i = v;
  return e;
}

inline BoundExpr null_constant(DataType type) {
  BoundExpr e;
  e.op = Op::Constant;
  e.type = type;
  e.constant.null_constant = true;
  return e;
}

// `a op b` with result type `type` (BOOLEAN for comparisons and AND/OR).
inline BoundExpr binary(Op op, DataType type, BoundExpr a, BoundExpr b) {
  BoundExpr e;
  e.op = op;
  e.type = type;
  e.children.push_back(std::move(a));
  e.children.push_back(std::move(b));
  return e;
}

// CASE WHEN condition THEN value END: `value` where `condition` is TRUE,
// else NULL (of value's type and dictionary).
inline BoundExpr null_unless(BoundExpr condition, BoundExpr value) {
  BoundExpr null = null_constant(value.type);
  null.dictionary = value.dictionary;
  BoundExpr select;
  select.op = Op::Select;
  select.type = value.type;
  select.dictionary = value.dictionary;
  select.offset = value.offset;
  select.children.push_back(std::move(condition));
  select.children.push_back(std::move(value));
  select.children.push_back(std::move(null));
  return select;
}

}  // namespace gpusql::build
