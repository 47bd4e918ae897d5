#include "execution/operator/join_output.hpp"

#include "planner/bound_expression_builders.hpp"

namespace gpusql {
namespace {

// Column `column` (of `type`, read through `dictionary`) of a side that may
// be missing: its value where the BOOLEAN column `matched` holds TRUE, else
// NULL; NULL on every row where the side has no rows (`matched` < 0).
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

}  // namespace

Chunk join_output(ComputeBackend& backend, const Chunk& left, const Chunk& right, const JoinPositions& pairs) {
  Chunk out = compose(backend, left, pairs.left);
  const Chunk other = compose(backend, right, pairs.right);
  for (std::size_t c = 0; c < out.columns.size() && c < other.columns.size(); ++c)
    if (!out.columns[c].present && other.columns[c].present) out.columns[c] = other.columns[c];
  out.keep(other);
  return out;
}

Chunk outer_join_output(ComputeBackend& backend, const Chunk& left, const Chunk& right, JoinPositions& pairs,
                        bool full) {
  std::vector<Chunk> flags{backend.matched_flags(*pairs.right)};
  if (full) flags.push_back(backend.matched_flags(*pairs.left));
  std::vector<int> right_columns, left_columns;
  for (std::size_t c = 0; c < right.columns.size(); ++c)
    if (right.columns[c].present && !(c < left.columns.size() && left.columns[c].present))
      right_columns.push_back(static_cast<int>(c));
  for (std::size_t c = 0; full && c < left.columns.size(); ++c)
    if (left.columns[c].present) left_columns.push_back(static_cast<int>(c));
  Chunk out = right.count == 0           ? compose(backend, left, pairs.left)
              : full && left.count == 0 ? compose(backend, right, pairs.right)
                                        : join_output(backend, left, right, pairs);
  for (const Chunk& flag : flags) {
    out.columns.push_back(flag.columns.at(0));
    out.keep(flag);
  }
  const int right_flag = right.count == 0 ? -1 : static_cast<int>(out.columns.size() - flags.size());
  const int left_flag = left.count == 0 ? -1 : static_cast<int>(out.columns.size() - 1);  // with `full`: the last
  std::vector<BoundExpr> values;
  std::vector<int> columns;
  auto extend = [&](const Chunk& side, const std::vector<int>& side_columns, int flag) {
    for (int c : side_columns) {
      const ColumnView& column = side.columns[c];
      values.push_back(null_extended(c, column.value_type(), column.dictionary, flag));
      columns.push_back(c);
    }
  };
  extend(right, right_columns, right_flag);
  extend(left, left_columns, left_flag);
  Chunk extended = backend.evaluate(out, values);
  out.columns.resize(out.columns.size() - flags.size());
  for (std::size_t i = 0; i < columns.size(); ++i) out.columns[columns[i]] = std::move(extended.columns[i]);
  out.keep(extended);
  return out;
}

}  // namespace gpusql
