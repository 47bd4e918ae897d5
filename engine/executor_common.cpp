// What the host and CUDA executors share: aggregate finalization,
// run-time error reporting, results kept as host tables.
#include "engine/executor.hpp"

#include "planner/bound_expression_builders.hpp"
#include "storage/result_table.hpp"

namespace gpusql {

std::shared_ptr<Table> Executor::execute_to_table(const Plan& plan, std::string name) {
  std::shared_ptr<ResultData> result = execute(plan);
  narrow_wide_decimals(*result);
  return table_from_result(std::move(name), *result);
}

// Any number: the GPU kernels that keep states in registers take at most
// kMaxAggregates a launch, and their callers split or refuse larger sets.
std::vector<AggSpec> compile_aggregates(const std::vector<BoundAggregate>& aggregates, SlotMap& slots) {
  std::vector<AggSpec> specs;
  for (const auto& a : aggregates) {
    AggSpec spec;
    spec.kind = a.kind;
    const BoundExpr* value = a.order ? &*a.order : a.argument ? &*a.argument : nullptr;
    if (value) {
      spec.arg = compile_expression(*value, slots);
      spec.cls = compute_class(value->type);
    }
    specs.push_back(spec);
  }
  return specs;
}

void store_aggregate_result(const BoundAggregate& a, const AggState& s, HostColumn& column, std::size_t row,
                            uint32_t& error) {
  const bool double_argument = a.argument && a.argument->type.is_floating();
  const int decimal_scale = a.argument && a.argument->type.id == Type::Decimal ? a.argument->type.scale : -1;
  const bool narrow_decimal = a.argument && a.argument->type.id == Type::Decimal && a.argument->type.precision <= 4;
  int64_t high = 0;
  const Slot value = final_value(a.kind, double_argument, decimal_scale, a.type.storage(), s, error, high, narrow_decimal);
  store_value(column.bytes.data(), a.type.storage(), static_cast<int64_t>(row), value, high);
  if (!value.valid) column.set_null(row);
}

std::vector<BoundExpr> order_parts(const BoundExpr& value) {
  if (!value.type.is_wide_decimal()) return {value};
  std::vector<BoundExpr> parts;
  for (Op op : {Op::WideHigh, Op::WideLow}) {
    BoundExpr part;
    part.op = op;
    part.type = DataType::bigint();
    part.offset = value.offset;
    part.children.push_back(value);
    parts.push_back(std::move(part));
  }
  return parts;
}

BoundExpr null_extended(int column, const DataType& type, std::shared_ptr<const Dictionary> dictionary, int matched) {
  if (matched < 0) {
    BoundExpr null = build::null_constant(type);
    null.dictionary = std::move(dictionary);
    return null;
  }
  BoundExpr value = build::column(column, type);
  value.dictionary = std::move(dictionary);
  return build::null_unless(build::column(matched, DataType::boolean()), std::move(value));
}

const PlanNode& projection_of(const PlanNode& root) {
  const PlanNode* n = &root;
  while (n->kind != PlanKind::Project) n = n->child.get();
  return *n;
}

}  // namespace gpusql
