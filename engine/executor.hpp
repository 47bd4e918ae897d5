// The one interface both executors implement: run a plan, return host columns.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/expression_compiler.hpp"
#include "engine/plan.hpp"
#include "engine/result_data.hpp"

namespace gpusql {

class DeviceContext;

class Executor {
 public:
  virtual ~Executor() = default;
  virtual std::shared_ptr<ResultData> execute(const PlanNode& plan) = 0;
};

std::unique_ptr<Executor> make_host_executor();
std::unique_ptr<Executor> make_cuda_executor(DeviceContext& context);

// Pieces both executors share, on the host.

// Throws the Error a program's run-time error bits stand for; no-op for 0.
void throw_if_eval_error(uint32_t error);

// The aggregate's final value as a one-row column (COUNT of nothing is 0,
// every other aggregate of nothing is NULL).
HostColumn aggregate_result_column(const BoundAggregate& aggregate, const AggState& state);

// The AggSpecs (compiled arguments) of `aggregates`, their columns in `slots`.
std::vector<AggSpec> compile_aggregates(const std::vector<BoundAggregate>& aggregates, SlotMap& slots);

// Evaluates `expressions` over the rows of `columns` -- all `rows` of them,
// or the positions in `selection` when given -- into new host columns.
std::vector<HostColumn> project_host_columns(const std::vector<BoundExpr>& expressions,
                                             const std::vector<const HostColumn*>& columns, std::size_t rows,
                                             const std::vector<uint32_t>* selection = nullptr);

// The ColumnSet over host columns for the slots of a program.
ColumnSet host_column_set(const std::vector<const HostColumn*>& columns, const SlotMap& slots);

}  // namespace gpusql
