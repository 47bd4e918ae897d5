// PROJECTION: the select list's expressions. A bare column of the input
// passes through as it is, selection and all (whoever reads it gathers: the
// result's copy does so once for every column), so reordering or dropping
// columns computes nothing; every other expression is evaluated into a new
// column.
#include "execution/operator/operators.hpp"

namespace gpusql {
namespace {

class Projection final : public PhysicalOperator {
 public:
  explicit Projection(const PlanNode& project) : PhysicalOperator(Role::Operator, "PROJECTION", &project) {}

  Chunk execute(ExecutionContext& context, Chunk input) override {
    const std::vector<BoundExpr>& expressions = node()->expressions;
    Chunk out;
    out.count = input.count;
    out.space = input.space;
    out.owned = input.owned;
    out.columns.resize(expressions.size());
    std::vector<BoundExpr> computed;
    std::vector<std::size_t> computed_at;
    for (std::size_t i = 0; i < expressions.size(); ++i) {
      const BoundExpr& e = expressions[i];
      if (e.op == Op::Column && e.column >= 0 && static_cast<std::size_t>(e.column) < input.columns.size() &&
          input.columns[e.column].present && input.columns[e.column].value_type() == e.type) {
        ColumnView view = input.columns[e.column];
        if (e.dictionary) view.dictionary = e.dictionary;
        out.columns[i] = std::move(view);
      } else {
        computed.push_back(e);
        computed_at.push_back(i);
      }
    }
    if (!computed.empty()) {
      Chunk values = context.backend.evaluate(input, computed);
      for (std::size_t j = 0; j < computed.size(); ++j) out.columns[computed_at[j]] = std::move(values.columns[j]);
      out.keep(values);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<PhysicalOperator> make_projection(const PlanNode& project) {
  return std::make_unique<Projection>(project);
}

}  // namespace gpusql
