// The CUDA executor: runs a plan with device kernels over the tables' device
// columns. Intermediate rows stay on the device as a selection of row ids
// (late materialization); the result is copied to the host once, at the end.
// Temporaries come from the stream-ordered pool and return to it when the
// query ends, whether it succeeds or throws, so an error (out of memory
// included) leaves every table intact and the next query runs.
#include <optional>

#include "engine/executor.hpp"
#include "kernels/aggregate.hpp"
#include "kernels/filter.hpp"
#include "kernels/project.hpp"
#include "storage/table.hpp"

namespace gpusql {
namespace {

struct DeviceRelation {
  std::vector<ColumnPointer> columns;  // device pointers
  std::size_t rows = 0;
  std::optional<DeviceBuffer> selection;  // ascending row ids
  std::size_t selected = 0;

  std::size_t active() const { return selection ? selected : rows; }
  const uint32_t* selection_data() const { return selection ? selection->as<uint32_t>() : nullptr; }
};

ColumnSet device_column_set(const DeviceRelation& input, const SlotMap& slots) {
  ColumnSet set;
  for (int c : slots.columns()) set.columns[set.count++] = input.columns[c];
  return set;
}

class CudaExecutor final : public Executor {
 public:
  explicit CudaExecutor(DeviceContext& context) : context_(context) {}

  std::shared_ptr<ResultData> execute(const PlanNode& plan) override {
    if (plan.kind != PlanKind::Project) throw Error(ErrorKind::Invalid, "a plan must end in a projection");
    DeviceBuffer error_word(context_, sizeof(uint32_t));
    GPUSQL_CUDA_TRY(cudaMemsetAsync(error_word.data(), 0, sizeof(uint32_t), context_.stream()));
    error_ = error_word.as<uint32_t>();

    auto result = std::make_shared<ResultData>();
    result->names = plan.names;
    if (plan.child->kind == PlanKind::Aggregate) {
      // The aggregate's one row comes back to the host; the select list over
      // it (e.g. SUM(x) / COUNT(*)) is evaluated there.
      std::vector<HostColumn> aggregates = aggregate(*plan.child);
      std::vector<const HostColumn*> columns;
      for (const auto& c : aggregates) columns.push_back(&c);
      result->columns = project_host_columns(plan.expressions, columns, 1);
      result->rows = 1;
      return result;
    }
    DeviceRelation input = run(*plan.child);
    result->columns = project(plan.expressions, input);
    result->rows = input.active();
    check_errors();
    return result;
  }

 private:
  DeviceContext& context_;
  uint32_t* error_ = nullptr;

  void check_errors() {
    uint32_t error = 0;
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(&error, error_, sizeof error, cudaMemcpyDeviceToHost, context_.stream()));
    context_.synchronize();
    throw_if_eval_error(error);
  }

  DeviceRelation run(const PlanNode& node) {
    switch (node.kind) {
      case PlanKind::Scan: {
        const Table& table = *node.table;
        if (!table.device) throw Error(ErrorKind::Device, "table \"" + table.name + "\" is not in GPU memory");
        DeviceRelation r;
        for (const auto& c : table.device->columns)
          r.columns.push_back({c.data.data(), c.validity.size() ? c.validity.as<uint32_t>() : nullptr, c.type.id});
        r.rows = table.rows;
        return r;
      }
      case PlanKind::Filter: {
        DeviceRelation r = run(*node.child);
        SlotMap slots;
        ExprProgram predicate = compile_expression(node.predicate, slots);
        DeviceBuffer selected(context_, std::max<std::size_t>(1, r.active()) * sizeof(uint32_t));
        std::size_t count = kernels::filter_rows(predicate, device_column_set(r, slots), r.selection_data(),
                                                 r.active(), selected.as<uint32_t>(), error_, context_);
        kernels::sort_row_ids(selected.as<uint32_t>(), count, r.rows, context_);
        r.selection = std::move(selected);
        r.selected = count;
        return r;
      }
      case PlanKind::Aggregate:
      case PlanKind::Project: break;
    }
    throw Error(ErrorKind::NotSupported, "not supported yet: this operator below a projection on the GPU");
  }

  // The Filter directly below an aggregate is fused into its kernel: no
  // selection is materialized.
  std::vector<HostColumn> aggregate(const PlanNode& node) {
    const PlanNode* source = node.child.get();
    const BoundExpr* predicate = nullptr;
    if (source->kind == PlanKind::Filter) {
      predicate = &source->predicate;
      source = source->child.get();
    }
    DeviceRelation input = run(*source);
    SlotMap slots;
    ExprProgram filter_program;
    if (predicate) filter_program = compile_expression(*predicate, slots);
    std::vector<AggSpec> specs = compile_aggregates(node.aggregates, slots);
    std::vector<AggState> states = kernels::aggregate_rows(filter_program, specs, device_column_set(input, slots),
                                                           input.selection_data(), input.active(), error_, context_);
    check_errors();
    std::vector<HostColumn> out;
    for (std::size_t a = 0; a < specs.size(); ++a) out.push_back(aggregate_result_column(node.aggregates[a], states[a]));
    return out;
  }

  std::vector<HostColumn> project(const std::vector<BoundExpr>& expressions, const DeviceRelation& input) {
    const std::size_t count = input.active();
    const std::size_t words = validity_words(count);
    std::vector<HostColumn> out;
    std::vector<DeviceBuffer> data, validity;
    for (const auto& e : expressions) {
      SlotMap slots;
      ExprProgram program = compile_expression(e, slots);
      data.emplace_back(context_, count * e.type.width());
      validity.emplace_back(context_, words * sizeof(uint32_t));
      kernels::project_rows(program, e.type.id, device_column_set(input, slots), input.selection_data(), count,
                            data.back().data(), validity.back().as<uint32_t>(), error_, context_);
    }
    // The one copy back of the result.
    for (std::size_t i = 0; i < expressions.size(); ++i) {
      HostColumn column(expressions[i].type, count);
      column.dictionary = expressions[i].dictionary;
      column.validity.resize(words);
      if (count) {
        GPUSQL_CUDA_TRY(cudaMemcpyAsync(column.bytes.data(), data[i].data(), column.bytes.size(),
                                        cudaMemcpyDeviceToHost, context_.stream()));
        GPUSQL_CUDA_TRY(cudaMemcpyAsync(column.validity.data(), validity[i].data(), words * sizeof(uint32_t),
                                        cudaMemcpyDeviceToHost, context_.stream()));
      }
      out.push_back(std::move(column));
    }
    context_.synchronize();
    for (auto& column : out)
      if (column.null_count() == 0) column.validity.clear();  // no NULL: no bitmap, as on the host
    return out;
  }
};

}  // namespace

std::unique_ptr<Executor> make_cuda_executor(DeviceContext& context) { return std::make_unique<CudaExecutor>(context); }

}  // namespace gpusql
