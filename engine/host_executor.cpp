// The host executor: plain C++ over the tables' host columns. It is the
// reference the CUDA executor is tested against and the fallback without a
// GPU. It follows the same reduction order as the kernels (see
// aggregate_state.hpp), so floating-point sums agree bit for bit.
#include <optional>

#include "engine/executor.hpp"

namespace gpusql {
namespace {

// Rows flowing between operators: columns plus, after a filter, the
// ascending positions that survived (late materialization: nothing is
// gathered until a projection needs it).
struct HostRelation {
  std::vector<const HostColumn*> columns;
  std::size_t rows = 0;
  std::optional<std::vector<uint32_t>> selection;
  std::vector<HostColumn> owned;  // columns this relation made (aggregates)

  std::size_t active() const { return selection ? selection->size() : rows; }
  int64_t row(std::size_t position) const { return selection ? (*selection)[position] : static_cast<int64_t>(position); }
};

class HostExecutor final : public Executor {
 public:
  std::shared_ptr<ResultData> execute(const PlanNode& plan) override {
    if (plan.kind != PlanKind::Project) throw Error(ErrorKind::Invalid, "a plan must end in a projection");
    HostRelation input = run(*plan.child);
    auto result = std::make_shared<ResultData>();
    result->names = plan.names;
    result->columns = project_host_columns(plan.expressions, input.columns, input.rows,
                                           input.selection ? &*input.selection : nullptr);
    result->rows = input.active();
    return result;
  }

 private:
  static HostRelation run(const PlanNode& node) {
    switch (node.kind) {
      case PlanKind::Scan: {
        HostRelation r;
        for (const auto& c : node.table->host) r.columns.push_back(&c);
        r.rows = node.table->rows;
        return r;
      }
      case PlanKind::Filter: {
        HostRelation r = run(*node.child);
        r.selection = filter(r, node.predicate);
        return r;
      }
      case PlanKind::Aggregate: return aggregate(node);
      case PlanKind::Project: break;
    }
    throw Error(ErrorKind::NotSupported, "not supported yet: a projection below another operator");
  }

  static std::vector<uint32_t> filter(const HostRelation& input, const BoundExpr& predicate) {
    SlotMap slots;
    ExprProgram program = compile_expression(predicate, slots);
    ColumnSet set = host_column_set(input.columns, slots);
    std::vector<uint32_t> selected;
    uint32_t error = 0;
    for (std::size_t p = 0; p < input.active(); ++p) {
      int64_t row = input.row(p);
      if (evaluate_predicate(program, set, row, error)) selected.push_back(static_cast<uint32_t>(row));
    }
    throw_if_eval_error(error);
    return selected;
  }

  // The aggregate, with a filter directly below it fused in: every input
  // position takes its place in the reduction order, the rows the predicate
  // rejects as empty states -- exactly as the fused kernel does.
  static HostRelation aggregate(const PlanNode& node) {
    const PlanNode* source = node.child.get();
    const BoundExpr* predicate = nullptr;
    if (source->kind == PlanKind::Filter) {
      predicate = &source->predicate;
      source = source->child.get();
    }
    HostRelation input = run(*source);
    SlotMap slots;
    ExprProgram filter_program;
    if (predicate) filter_program = compile_expression(*predicate, slots);
    std::vector<AggSpec> specs = compile_aggregates(node.aggregates, slots);
    ColumnSet set = host_column_set(input.columns, slots);

    const std::size_t n = input.active();
    const std::size_t chunks = (n + kReduceChunk - 1) / kReduceChunk;
    const std::size_t aggregates = specs.size();
    std::vector<std::vector<AggState>> partials(aggregates, std::vector<AggState>(chunks));
    std::vector<AggState> threads(aggregates * kReduceThreads);
    uint32_t error = 0;
    for (std::size_t c = 0; c < chunks; ++c) {
      std::fill(threads.begin(), threads.end(), AggState{});
      for (int t = 0; t < kReduceThreads; ++t) {
        for (int k = 0; k < kReduceItems; ++k) {
          std::size_t p = c * kReduceChunk + static_cast<std::size_t>(k) * kReduceThreads + t;
          if (p >= n) break;
          int64_t row = input.row(p);
          if (!evaluate_predicate(filter_program, set, row, error)) continue;
          for (std::size_t a = 0; a < aggregates; ++a) {
            Slot v{};
            if (specs[a].kind != AggKind::CountStar) v = evaluate(specs[a].arg, set, row, error);
            agg_fold_value(specs[a].kind, specs[a].cls, threads[a * kReduceThreads + t], v, error);
          }
        }
      }
      for (std::size_t a = 0; a < aggregates; ++a)
        partials[a][c] = block_tree_host(specs[a].kind, specs[a].cls, &threads[a * kReduceThreads], error);
    }
    HostRelation out;
    out.rows = 1;
    for (std::size_t a = 0; a < aggregates; ++a) {
      AggState total = reduce_partials_host(specs[a].kind, specs[a].cls, std::move(partials[a]), error);
      out.owned.push_back(aggregate_result_column(node.aggregates[a], total));
    }
    throw_if_eval_error(error);
    for (const auto& c : out.owned) out.columns.push_back(&c);
    return out;
  }
};

}  // namespace

std::unique_ptr<Executor> make_host_executor() { return std::make_unique<HostExecutor>(); }

}  // namespace gpusql
