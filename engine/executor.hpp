// The one interface both executors implement: run a plan, return host columns.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/query_control.hpp"
#include "planner/expression_compiler.hpp"
#include "planner/plan.hpp"
#include "storage/result_data.hpp"

namespace gpusql {

class DeviceContext;
struct Table;

class Executor {
 public:
  virtual ~Executor() = default;
  // Runs `plan`; with `profile`, records each operator's rows and time
  // (EXPLAIN ANALYZE).
  virtual std::shared_ptr<ResultData> execute(const Plan& plan, Profile* profile = nullptr) = 0;
  // Runs `plan` and keeps its result as a table named `name` (a subquery's
  // rows, which the query around it joins): here a host table; the CUDA
  // executor leaves it on the device, so it never crosses to the host and
  // back. A 128-bit DECIMAL column is narrowed where every value fits 18
  // digits, else it is not supported yet (result_table.hpp).
  virtual std::shared_ptr<Table> execute_to_table(const Plan& plan, std::string name);
};

// Both stop at `control`'s interrupt and keep to its host memory limit.
std::unique_ptr<Executor> make_host_executor(const QueryControl& control);
std::unique_ptr<Executor> make_cuda_executor(DeviceContext& context, const QueryControl& control);

// ---- pieces both executors share, on the host ----

// The 64-bit values by which `value` sorts and compares: itself, or for a
// 128-bit DECIMAL its WideHigh and WideLow parts. Sorts and DISTINCT key on
// these.
std::vector<BoundExpr> order_parts(const BoundExpr& value);

// The compiled aggregates: argument programs (ARG_MIN/ARG_MAX: the ordering
// value; their returned argument is evaluated at the winning row afterwards).
std::vector<AggSpec> compile_aggregates(const std::vector<BoundAggregate>& aggregates, SlotMap& slots);

// Writes the aggregate's final value into row `row` of `column` (COUNT of
// nothing is 0; every other aggregate of nothing is NULL). ARG_MIN/ARG_MAX
// are written by the executor, which evaluates the argument.
void store_aggregate_result(const BoundAggregate& aggregate, const AggState& state, HostColumn& column, std::size_t row,
                            uint32_t& error);

// A LEFT JOIN's right column `column` (of `type`, read through
// `dictionary`) in the join's output, as the executors materialize it: its
// value where the BOOLEAN column `matched` holds TRUE, else NULL; NULL on
// every row where the right side has no rows (`matched` < 0).
BoundExpr null_extended(int column, const DataType& type, std::shared_ptr<const Dictionary> dictionary, int matched);

// The operator below the plan's Distinct/Sort/Limit that names the result.
const PlanNode& projection_of(const PlanNode& root);

}  // namespace gpusql
