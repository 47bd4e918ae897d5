#include "execution/pipeline.hpp"

#include <map>

namespace gpusql {
namespace {

// Takes the root's chunks; its result is them as one.
class ResultCollector final : public PhysicalOperator {
 public:
  ResultCollector() : PhysicalOperator(Role::Sink, "RESULT_COLLECTOR", nullptr) {}
  void sink(ExecutionContext&, Chunk input, int) override { chunks_.push_back(std::move(input)); }
  void finalize(ExecutionContext& context) override { result_ = combine(context.backend, std::move(chunks_)); }
  Chunk take() { return std::move(result_); }

 private:
  std::vector<Chunk> chunks_;
  Chunk result_;
};

// Adds the pipelines that feed `op` to `order` (inputs first) and puts
// `op` into `current`, whose source it reaches.
void build(PhysicalOperator& op, Pipeline& current, std::vector<Pipeline>& order) {
  auto feed = [&](int side) {
    Pipeline input;
    input.sink = &op;
    input.side = side;
    build(*op.children.at(side), input, order);
    order.push_back(std::move(input));
  };
  switch (op.role()) {
    case PhysicalOperator::Role::Source:
      current.source = &op;
      return;
    case PhysicalOperator::Role::Operator:
      current.operators.insert(current.operators.begin(), &op);
      build(*op.children.at(0), current, order);
      return;
    case PhysicalOperator::Role::Join:
      feed(1);
      current.operators.insert(current.operators.begin(), &op);
      build(*op.children.at(0), current, order);
      return;
    case PhysicalOperator::Role::Sink:
      for (int side = 0; side < op.sink_sides(); ++side) feed(side);
      current.source = &op;
      return;
  }
}

// One call of an operator: the interrupt checked first, its time and rows
// measured for EXPLAIN ANALYZE, its errors a stage of their own.
template <class F>
auto call(ExecutionContext& context, PhysicalOperator& op, StageTimer* timer, F&& f) {
  context.control.check_interrupt();
  if (timer) timer->start();
  auto result = f();
  if (timer) {
    OperatorStats& stats = (*context.stats)[&op];
    stats.milliseconds += timer->stop_milliseconds();
    if constexpr (std::is_same_v<decltype(result), Chunk>) stats.rows += result.count;
    if constexpr (std::is_same_v<decltype(result), std::optional<Chunk>>)
      if (result) stats.rows += result->count;
  }
  context.backend.end_stage();
  return result;
}

}  // namespace

std::vector<Pipeline> build_pipelines(PhysicalOperator& root, PhysicalOperator& collector) {
  std::vector<Pipeline> order;
  Pipeline top;
  top.sink = &collector;
  build(root, top, order);
  order.push_back(std::move(top));
  return order;
}

Chunk run_to_chunk(PhysicalOperator& root, ExecutionContext& context) {
  ResultCollector collector;
  const std::vector<Pipeline> pipelines = build_pipelines(root, collector);
  // A sink finalizes once the last pipeline feeding it has run.
  std::map<const PhysicalOperator*, int> feeding;
  for (const Pipeline& p : pipelines) ++feeding[p.sink];
  std::unique_ptr<StageTimer> timer = context.stats ? context.backend.timer() : nullptr;
  for (const Pipeline& p : pipelines) {
    while (true) {
      std::optional<Chunk> chunk = call(context, *p.source, timer.get(), [&] { return p.source->produce(context); });
      if (!chunk) break;
      for (PhysicalOperator* op : p.operators)
        chunk = call(context, *op, timer.get(), [&] { return op->execute(context, std::move(*chunk)); });
      call(context, *p.sink, timer.get(), [&] {
        p.sink->sink(context, std::move(*chunk), p.side);
        return 0;
      });
    }
    if (--feeding[p.sink] == 0)
      call(context, *p.sink, timer.get(), [&] {
        p.sink->finalize(context);
        return 0;
      });
  }
  return collector.take();
}

std::string describe_pipelines(const std::vector<Pipeline>& pipelines) {
  std::string out;
  for (std::size_t i = 0; i < pipelines.size(); ++i) {
    const Pipeline& p = pipelines[i];
    out += "pipeline " + std::to_string(i + 1) + ": " + p.source->name();
    for (const PhysicalOperator* op : p.operators) out += " -> " + op->name();
    out += " -> " + p.sink->name() + (p.side ? " (build side)" : "") + "\n";
  }
  return out;
}

}  // namespace gpusql
