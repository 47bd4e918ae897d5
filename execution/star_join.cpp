#include "execution/star_join.hpp"

namespace gpusql {
namespace {

bool integer_key_type(Type t) { return t == Type::Integer || t == Type::BigInt || t == Type::Date; }

bool group_key_type(Type t) { return integer_key_type(t) || t == Type::Boolean || t == Type::Varchar; }

// Whether global column `c` is one of `table`'s own columns (not its rowid).
bool column_of(const BoundTableRef& table, int c) {
  return c >= table.first_column && c < table.first_column + static_cast<int>(table.table->columns.size());
}

// Whether every column `e` reads lies in `table` (its rowid included).
bool reads_only(const BoundExpr& e, const BoundTableRef& table) {
  if (e.op == Op::Column && (e.column < table.first_column || e.column >= table.first_column + table.column_count()))
    return false;
  for (const auto& child : e.children)
    if (!reads_only(child, table)) return false;
  return true;
}

// A Scan, or a Filter right over one.
const PlanNode* scan_of(const PlanNode& node) {
  if (node.kind == PlanKind::Scan) return &node;
  if (node.kind == PlanKind::Filter && node.child && node.child->kind == PlanKind::Scan) return node.child.get();
  return nullptr;
}

bool supported_aggregate(const BoundAggregate& a) {
  switch (a.kind) {
    case AggKind::CountStar: return true;
    case AggKind::Count:
    case AggKind::Sum:
    case AggKind::Min:
    case AggKind::Max:
    case AggKind::Avg:
      return !a.distinct && a.argument && !a.argument->type.is_floating() && a.argument->type.id != Type::Varchar &&
             !has_wide_step(*a.argument);
    default: return false;
  }
}

}  // namespace

std::optional<StarJoin> match_star_join(const PlanNode& aggregate) {
  if (aggregate.kind != PlanKind::Aggregate || !aggregate.child) return std::nullopt;
  if (aggregate.group_keys.size() > static_cast<std::size_t>(kStarMaxGroupKeys) ||
      aggregate.aggregates.size() > static_cast<std::size_t>(kStarMaxAggregates))
    return std::nullopt;
  for (const auto& a : aggregate.aggregates)
    if (!supported_aggregate(a)) return std::nullopt;

  // Down the left spine: the joins, outermost first.
  std::vector<const PlanNode*> joins;
  const PlanNode* node = aggregate.child.get();
  while (node->kind == PlanKind::HashJoin) {
    if (node->left_outer) return std::nullopt;
    joins.push_back(node);
    node = node->child.get();
  }
  const PlanNode* fact = scan_of(*node);
  if (!fact || joins.empty() || joins.size() > static_cast<std::size_t>(kStarMaxDimensions)) return std::nullopt;

  StarJoin star;
  star.fact_scan = fact;
  star.fact_filter = node->kind == PlanKind::Filter ? &*node->predicate : nullptr;
  // The kernel has no 128-bit interpreter: a 128-bit step anywhere (a
  // comparison with a 20-digit constant, say) goes to the general operators.
  if (star.fact_filter && has_wide_step(*star.fact_filter)) return std::nullopt;
  const BoundTableRef& fact_table = fact->table;
  // Innermost join first: the plan's join order.
  for (auto j = joins.rbegin(); j != joins.rend(); ++j) {
    const PlanNode& join = **j;
    if (join.keys.size() != 1 || !join.right) return std::nullopt;
    const PlanNode* dimension = scan_of(*join.right);
    if (!dimension || dimension->table_index == fact->table_index) return std::nullopt;
    if (join.right->kind == PlanKind::Filter && has_wide_step(*join.right->predicate)) return std::nullopt;
    const BoundExpr& left = join.keys[0].left;
    const BoundExpr& right = join.keys[0].right;
    if (left.op != Op::Column || right.op != Op::Column) return std::nullopt;
    if (!column_of(fact_table, left.column) || !column_of(dimension->table, right.column)) return std::nullopt;
    if (left.type.id != right.type.id || !integer_key_type(left.type.id)) return std::nullopt;
    // A dimension as large as the fact table (TPC-H Q12's lineitem under
    // orders) or with a key the statistics show repeated would fail the
    // kernel's run-time check that its keys are unique only after its setup
    // and probe (6 ms at SF 10): the general operators at once.
    const Table& dimension_table = *dimension->table.table;
    if (dimension_table.rows >= fact_table.table->rows) return std::nullopt;
    const auto key = static_cast<std::size_t>(right.column - dimension->table.first_column);
    if (dimension_table.distinct_estimate(key) < 0.5 * static_cast<double>(dimension_table.rows)) return std::nullopt;
    star.dimensions.push_back({join.right.get(), &dimension->table, left.column, right.column});
  }

  for (const auto& key : aggregate.group_keys) {
    if (key.op != Op::Column || !group_key_type(key.type.id)) return std::nullopt;
    int found = -1;
    for (std::size_t d = 0; d < star.dimensions.size(); ++d)
      if (column_of(*star.dimensions[d].table, key.column)) found = static_cast<int>(d);
    if (found < 0) return std::nullopt;
    star.group_keys.push_back({found, key.column});
  }
  for (const auto& a : aggregate.aggregates)
    if (a.argument && !reads_only(*a.argument, fact_table)) return std::nullopt;
  return star;
}

}  // namespace gpusql
