// What the host and CUDA executors share: aggregate finalization, run-time
// error reporting, and evaluating a projection on the host.
#include "engine/executor.hpp"
#include "engine/expression_compiler.hpp"

namespace gpusql {

void throw_if_eval_error(uint32_t error) {
  if (error & kEvalSumOverflow)
    throw Error(ErrorKind::Execution, "Out of Range: integer overflow in SUM (the total leaves the BIGINT range)");
  if (error & kEvalOverflow)
    throw Error(ErrorKind::Execution, "Out of Range: integer overflow in arithmetic (a value leaves the BIGINT range)");
}

std::vector<AggSpec> compile_aggregates(const std::vector<BoundAggregate>& aggregates, SlotMap& slots) {
  if (aggregates.size() > static_cast<std::size_t>(kMaxAggregates))
    throw Error(ErrorKind::NotSupported,
                "not supported yet: more than " + std::to_string(kMaxAggregates) + " aggregates in one query");
  std::vector<AggSpec> specs;
  for (const auto& a : aggregates) {
    AggSpec spec;
    spec.kind = a.kind;
    if (a.argument) {
      spec.arg = compile_expression(*a.argument, slots);
      spec.cls = compute_class(a.argument->type);
    }
    specs.push_back(spec);
  }
  return specs;
}

HostColumn aggregate_result_column(const BoundAggregate& a, const AggState& s) {
  HostColumn column(a.type, 1);
  column.dictionary = a.dictionary;
  Slot value;
  value.valid = true;
  value.i = 0;
  bool is_double_arg = a.argument && a.argument->type.is_floating();
  switch (a.kind) {
    case AggKind::CountStar:
    case AggKind::Count: value.i = static_cast<int64_t>(s.count); break;
    case AggKind::Sum:
    case AggKind::Min:
    case AggKind::Max:
      if (is_double_arg) value.d = s.d;
      else value.i = s.i;
      break;
    case AggKind::Avg:
      value.d = (is_double_arg ? s.d : static_cast<double>(s.i)) / static_cast<double>(s.count);
      break;
  }
  if (a.kind != AggKind::CountStar && a.kind != AggKind::Count && s.count == 0) value.valid = false;
  store_value(column.bytes.data(), a.type.id, 0, value);
  if (!value.valid) column.set_null(0);
  return column;
}

ColumnSet host_column_set(const std::vector<const HostColumn*>& columns, const SlotMap& slots) {
  ColumnSet set;
  for (int c : slots.columns()) {
    const HostColumn* column = columns[c];
    set.columns[set.count++] = {column->bytes.data(), column->has_nulls() ? column->validity.data() : nullptr,
                                column->type.id};
  }
  return set;
}

std::vector<HostColumn> project_host_columns(const std::vector<BoundExpr>& expressions,
                                             const std::vector<const HostColumn*>& columns, std::size_t rows,
                                             const std::vector<uint32_t>* selection) {
  std::vector<HostColumn> out;
  uint32_t error = 0;
  const std::size_t count = selection ? selection->size() : rows;
  for (const auto& e : expressions) {
    SlotMap slots;
    ExprProgram program = compile_expression(e, slots);
    ColumnSet set = host_column_set(columns, slots);
    HostColumn result(e.type, count);
    result.dictionary = e.dictionary;
    for (std::size_t p = 0; p < count; ++p) {
      int64_t row = selection ? (*selection)[p] : static_cast<int64_t>(p);
      Slot s = evaluate(program, set, row, error);
      store_value(result.bytes.data(), e.type.id, static_cast<int64_t>(p), s);
      if (!s.valid) result.set_null(p);
    }
    out.push_back(std::move(result));
  }
  throw_if_eval_error(error);
  return out;
}

}  // namespace gpusql
