// What the host and CUDA executors share: aggregate finalization and
// run-time error reporting.
#include "engine/executor.hpp"

namespace gpusql {

// The evaluator zeroes a value that overflowed or failed a check, so two
// bits in one word come from two places that failed on their own. An
// overflow in arithmetic is reported first, as DuckDB, which evaluates an
// expression operation by operation over a whole vector, reports the inner
// operation's error (CAST(a + b AS INTEGER) fails in the addition) and, its
// sums being 128 bits wide, an overflow of an argument before a SUM's.
void throw_if_eval_error(uint32_t error) {
  if (error & kEvalOverflow)
    throw Error(ErrorKind::Execution, "Out of Range: integer overflow in arithmetic (a value leaves the BIGINT range)");
  if (error & kEvalDecimalOverflow)
    throw Error(ErrorKind::Execution,
                "Out of Range: overflow in DECIMAL arithmetic (a result needs more than 18 digits; add an explicit "
                "CAST to DOUBLE)");
  if (error & kEvalSumOverflow)
    throw Error(ErrorKind::Execution, "Out of Range: integer overflow in SUM (the total leaves the BIGINT range)");
  if (error & kEvalCastRange)
    throw Error(ErrorKind::Conversion, "CAST: a value is out of range for the type it is cast to");
  if (error & kEvalDateRange)
    throw Error(ErrorKind::Execution,
                "Out of Range: date out of range (DATE spans 5877642-06-25 (BC) to 5881580-07-10)");
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

void store_aggregate_result(const BoundAggregate& a, const AggState& s, HostColumn& column, std::size_t row) {
  Slot value;
  value.valid = true;
  value.i = 0;
  bool double_arg = a.argument && a.argument->type.is_floating();
  switch (a.kind) {
    case AggKind::CountStar:
    case AggKind::Count:
    case AggKind::CountDistinct: value.i = static_cast<int64_t>(s.count); break;
    case AggKind::Sum:
    case AggKind::Min:
    case AggKind::Max:
      if (double_arg) value.d = s.d;
      else value.i = s.i;
      break;
    case AggKind::Avg: {
      double total = double_arg ? s.d : wide_total(s);
      if (a.argument->type.id == Type::Decimal) {
        double scale = 1;
        for (int k = 0; k < a.argument->type.scale; ++k) scale *= 10;
        total /= scale;
      }
      value.d = total / static_cast<double>(s.count);
      break;
    }
    case AggKind::ArgMin:
    case AggKind::ArgMax: return;
  }
  bool counts = a.kind == AggKind::CountStar || a.kind == AggKind::Count || a.kind == AggKind::CountDistinct;
  if (!counts && s.count == 0) value.valid = false;
  store_value(column.bytes.data(), a.type.id, static_cast<int64_t>(row), value);
  if (!value.valid) column.set_null(row);
}

const PlanNode& projection_of(const PlanNode& root) {
  const PlanNode* n = &root;
  while (n->kind != PlanKind::Project) n = n->child.get();
  return *n;
}

}  // namespace gpusql
