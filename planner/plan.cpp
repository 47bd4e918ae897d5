#include "planner/plan.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <limits>
#include <optional>
#include <set>

#include "planner/bound_expression_builders.hpp"
#include "planner/common_conjuncts.hpp"
#include "planner/join_order.hpp"
#include "storage/result_data.hpp"
#include "planner/selectivity.hpp"

namespace gpusql {

std::unique_ptr<PlanNode> copy_plan(const PlanNode& node) {
  auto copy = std::make_unique<PlanNode>();
  static_cast<PlanOperator&>(*copy) = node;
  if (node.child) copy->child = copy_plan(*node.child);
  if (node.right) copy->right = copy_plan(*node.right);
  return copy;
}

namespace {

void collect_columns(const BoundExpr& e, std::set<int>& out) {
  if (e.op == Op::Column) out.insert(e.column);
  for (const auto& c : e.children) collect_columns(c, out);
}

// The bit set of tables an expression over global columns reads.
uint64_t tables_of(const BoundExpr& e, const BoundQuery& q) {
  std::set<int> columns;
  collect_columns(e, columns);
  uint64_t mask = 0;
  for (int c : columns)
    for (std::size_t t = 0; t < q.tables.size(); ++t)
      if (c >= q.tables[t].first_column && c < q.tables[t].first_column + q.tables[t].column_count()) mask |= 1ull << t;
  return mask;
}

std::unique_ptr<PlanNode> make(PlanKind kind, std::unique_ptr<PlanNode> child) {
  auto n = std::make_unique<PlanNode>();
  n->kind = kind;
  if (child) {
    n->column_count = child->column_count;
    n->estimated_rows = child->estimated_rows;
  }
  n->child = std::move(child);
  return n;
}

// AND of the conjuncts (at least one).
BoundExpr conjunction(std::vector<BoundExpr> conjuncts) {
  BoundExpr predicate = std::move(conjuncts[0]);
  for (std::size_t i = 1; i < conjuncts.size(); ++i) {
    BoundExpr both;
    both.op = Op::And;
    both.type = DataType::boolean();
    both.offset = predicate.offset;
    both.children.push_back(std::move(predicate));
    both.children.push_back(std::move(conjuncts[i]));
    predicate = std::move(both);
  }
  return predicate;
}

// A Filter of `conjuncts` over `input` keeping the fraction `keep` of its rows.
std::unique_ptr<PlanNode> add_filter(std::unique_ptr<PlanNode> input, std::vector<BoundExpr> conjuncts, double keep) {
  if (conjuncts.empty()) return input;
  auto filter = make(PlanKind::Filter, std::move(input));
  filter->predicate = conjunction(std::move(conjuncts));
  filter->estimated_rows = std::max(1.0, filter->estimated_rows * keep);
  return filter;
}

class Planner {
 public:
  explicit Planner(BoundQuery& q) : q_(q) {}

  std::unique_ptr<PlanNode> plan() {
    std::unique_ptr<PlanNode> top = join_tables();
    if (q_.aggregated) {
      auto aggregate = make(PlanKind::Aggregate, std::move(top));
      aggregate->key_order = !q_.group_keys.empty() && !ordered_by_every_key();
      aggregate->group_keys = std::move(q_.group_keys);
      aggregate->aggregates = std::move(q_.aggregates);
      aggregate->estimated_rows = aggregate->group_keys.empty() ? 1 : std::max(1.0, aggregate->estimated_rows * 0.1);
      top = std::move(aggregate);
      if (q_.having) {
        const double keep = selectivity(*q_.having);
        std::vector<BoundExpr> having;
        having.push_back(std::move(*q_.having));
        top = add_filter(std::move(top), std::move(having), keep);
      }
    }
    auto project = make(PlanKind::Project, std::move(top));
    project->expressions = std::move(q_.outputs);
    project->names = std::move(q_.names);
    top = std::move(project);
    if (q_.distinct) top = make(PlanKind::Distinct, std::move(top));
    if (!q_.order_by.empty()) {
      auto sort = make(PlanKind::Sort, std::move(top));
      for (const auto& o : q_.order_by) sort->sort_keys.push_back({o.output, o.descending, o.nulls_first});
      top = std::move(sort);
    }
    if (q_.limit || q_.offset) {
      auto limit = make(PlanKind::Limit, std::move(top));
      limit->limit = q_.limit;
      limit->offset = q_.offset;
      if (q_.limit) limit->estimated_rows = std::min<double>(limit->estimated_rows, static_cast<double>(*q_.limit));
      top = std::move(limit);
    }
    top->visible = q_.visible;
    return top;
  }

 private:
  // Whether ORDER BY names every group key (as an output that reads it):
  // distinct groups then come out in an order of their own.
  bool ordered_by_every_key() const {
    for (std::size_t k = 0; k < q_.group_keys.size(); ++k) {
      bool found = false;
      for (const auto& o : q_.order_by) {
        const BoundExpr& e = q_.outputs.at(static_cast<std::size_t>(o.output));
        found |= e.op == Op::Column && e.column == static_cast<int>(k);
      }
      if (!found) return false;
    }
    return true;
  }

  BoundQuery& q_;
  uint64_t folded_ = 0;  // the right tables of FULL JOINs, read as their left tables (tables())

  struct Conjunct {
    BoundExpr expr;
    uint64_t tables;
    bool used = false;
  };

  // The table global column `column` belongs to and its index there (the
  // table's column count for its rowid); null for a column of no table.
  std::pair<const Table*, std::size_t> table_column(int column) const {
    for (const BoundTableRef& t : q_.tables) {
      const int c = column - t.first_column;
      if (c >= 0 && c < t.column_count()) return {t.table.get(), static_cast<std::size_t>(c)};
    }
    return {nullptr, 0};
  }

  // Distinct values of global column `column` in its table: the column's
  // estimate (storage/column_statistics.hpp), its rows for the rowid; 0 for
  // a column of no table.
  double column_distinct(int column) const {
    const auto [table, c] = table_column(column);
    if (!table) return 0;
    if (c == table->columns.size()) return static_cast<double>(table->rows);
    return table->distinct_estimate(c);
  }

  // Range of global column `column`'s values in its table (unknown for the
  // rowid and a column of no table).
  ValueRange column_range(int column) const {
    const auto [table, c] = table_column(column);
    if (!table || c == table->columns.size()) return {};
    return table->value_range(c);
  }

  ColumnKnowledge known_columns() const {
    return {[this](int column) { return column_distinct(column); },
            [this](int column) { return column_range(column); }};
  }

  double selectivity_of(const BoundExpr& e) const { return selectivity(e, known_columns()); }

  // A Filter of conjuncts over the query's tables.
  std::unique_ptr<PlanNode> filter(std::unique_ptr<PlanNode> input, std::vector<BoundExpr> conjuncts) const {
    const double keep = selectivity(conjuncts, known_columns());
    return add_filter(std::move(input), std::move(conjuncts), keep);
  }

  // Distinct values of a join key over `rows` rows of its side: the
  // column's estimate, at most the rows; for a rowid or an expression, the
  // rows themselves (a key).
  double key_distinct(const BoundExpr& key, double rows) const {
    const BoundExpr* e = &key;
    while (e->op == Op::ToWide && e->children.size() == 1) e = &e->children[0];
    if (e->op != Op::Column) return rows;
    const double d = column_distinct(e->column);
    return d > 0 ? std::max(1.0, std::min(rows, d)) : rows;
  }

  // Rows of an equi-join: |L| |R| / max(distinct values of either side's
  // key), over the key that divides most (the textbook estimate, keys
  // taken as independent of the filters). A foreign key to a primary key
  // keeps the fact side's rows, a many-to-many key multiplies them.
  double join_rows(double left_rows, double right_rows, const std::vector<JoinKey>& keys) const {
    double divisor = 1;
    for (const JoinKey& k : keys)
      divisor = std::max({divisor, key_distinct(k.left, left_rows), key_distinct(k.right, right_rows)});
    return std::max(1.0, left_rows * right_rows / divisor);
  }

  // The join keys between the joined set and table set `side`, each as
  // (joined side, new side); `use` marks their conjuncts used.
  std::vector<JoinKey> keys_between(std::vector<Conjunct>& conjuncts, uint64_t joined, uint64_t side, bool use) {
    std::vector<JoinKey> keys;
    for (auto& c : conjuncts)
      if (!c.used && equi_key(c.expr, joined, side)) {
        const BoundExpr& a = c.expr.children[0];
        const BoundExpr& b = c.expr.children[1];
        const bool a_left = (tables(a) & ~joined) == 0;
        keys.push_back({a_left ? a : b, a_left ? b : a});
        if (use) c.used = true;
      }
    return keys;
  }

  // Scans with their own conjuncts pushed down, then the inner tables
  // joined in the order join_order.hpp finds (greedily beyond its limit),
  // then the LEFT JOINs.
  //
  // The nullable side of a LEFT JOIN joins after every inner table, in FROM
  // order, by the equalities of its ON condition (the rest of which reads
  // it alone and filters its scan); WHERE's conditions on it filter above
  // that join, never its scan. Joining it last is what SQL means: a left
  // join commutes with the inner joins of tables its ON does not read, and
  // a condition of a later inner join on it is a filter above.
  std::unique_ptr<PlanNode> join_tables() {
    const std::size_t n = q_.tables.size();
    // A FULL JOIN's two tables join each other first; from then on the pair
    // is one relation, its left table's (tables() folds the right in).
    std::vector<std::unique_ptr<PlanNode>> full(n);
    for (std::size_t t = 0; t < n; ++t)
      if (q_.tables[t].full_outer) {
        std::vector<Conjunct> on;
        for (auto& c : q_.tables[t].on) {
          const uint64_t tables = tables_of(c, q_);
          on.push_back({std::move(c), tables});
        }
        full[t - 1] = full_join(on, t);
        folded_ |= 1ull << t;
      }
    std::vector<Conjunct> conjuncts;
    for (auto& c : q_.conjuncts) {
      const uint64_t read = tables(c);
      conjuncts.push_back({std::move(c), read});
    }
    // An OR over several tables implies a filter on each inner table every
    // branch constrains (common_conjuncts.hpp); the OR itself stays.
    for (std::size_t i = 0, count = conjuncts.size(); i < count; ++i) {
      if (std::popcount(conjuncts[i].tables) < 2) continue;
      for (std::size_t t = 0; t < n; ++t) {
        const uint64_t bit = 1ull << t;
        if (!(conjuncts[i].tables & bit) || q_.tables[t].left_outer) continue;
        std::optional<BoundExpr> implied = implied_condition(
            conjuncts[i].expr, [&](const BoundExpr& e) { return tables(e) == bit; });
        if (implied) conjuncts.push_back({std::move(*implied), bit});
      }
    }
    uint64_t outer = 0;
    std::vector<std::vector<Conjunct>> on(n);  // an outer join's ON conjuncts, by its side's first table
    std::vector<std::size_t> unit(n);          // a table's nullable side, by its first table
    for (std::size_t t = 0; t < n; ++t) unit[t] = t;
    for (std::size_t t = 0; t < n; ++t) {
      if (!q_.tables[t].left_outer || full[t] || ((folded_ >> t) & 1)) continue;
      outer |= 1ull << t;
      for (auto& c : q_.tables[t].on) {
        const uint64_t read = tables(c);
        on[t].push_back({std::move(c), read});
      }
      for (int k = 1; k < q_.tables[t].unit_size; ++k) unit[t + static_cast<std::size_t>(k)] = t;
    }
    std::vector<std::unique_ptr<PlanNode>> scans(n);
    for (std::size_t t = 0; t < n; ++t) {
      if ((folded_ >> t) & 1) continue;  // joined into the FULL JOIN before it
      std::unique_ptr<PlanNode> scan = full[t] ? std::move(full[t]) : scan_of(t);
      std::vector<BoundExpr> own;
      const bool nullable = (outer >> t) & 1;
      for (auto& c : nullable ? on[unit[t]] : conjuncts)
        if (!c.used && (c.tables == (1ull << t) || (nullable && unit[t] == t && c.tables == 0))) {
          own.push_back(c.expr);
          c.used = true;
        }
      scans[t] = filter(std::move(scan), std::move(own));
    }
    // Conjuncts that read no table at all (constant conditions) go on top.
    std::vector<BoundExpr> constant;
    for (auto& c : conjuncts)
      if (!c.used && c.tables == 0) {
        constant.push_back(c.expr);
        c.used = true;
      }

    // The largest inner table (the fact table of a star schema) is the left
    // (probe) side of every join that holds it.
    const uint64_t aside = outer | folded_;  // not among the inner tables
    std::size_t first = 0;
    while ((aside >> first) & 1) ++first;  // the first inner table (a RIGHT JOIN makes the first FROM item nullable)
    for (std::size_t t = first + 1; t < n; ++t)
      if (!((aside >> t) & 1) && scans[t]->estimated_rows > scans[first]->estimated_rows) first = t;
    std::vector<std::size_t> inner;
    for (std::size_t t = 0; t < n; ++t)
      if (!((aside >> t) & 1)) inner.push_back(t);
    std::unique_ptr<PlanNode> top = inner.size() <= kMaxOrderedJoins
                                        ? join_ordered(scans, conjuncts, inner, first)
                                        : join_greedy(scans, conjuncts, aside, first);
    uint64_t joined = 0;
    for (std::size_t t : inner) joined |= 1ull << t;
    for (std::size_t t = 0; t < n; ++t)
      if (((outer >> t) & 1) && unit[t] == t) {
        const std::size_t size = static_cast<std::size_t>(std::max(1, q_.tables[t].unit_size));
        std::unique_ptr<PlanNode> side = nullable_side(scans, on[t], t, size);
        const uint64_t bits = ((1ull << size) - 1) << t;  // size <= kMaxOrderedJoins
        top = left_join(std::move(top), std::move(side), on[t], conjuncts, joined, bits);
        joined |= bits;
      }
    return filter(std::move(top), std::move(constant));
  }

  // The tables [t, t + size) of an outer join's nullable side joined among
  // themselves by the conditions of `on` that read only them.
  std::unique_ptr<PlanNode> nullable_side(std::vector<std::unique_ptr<PlanNode>>& scans, std::vector<Conjunct>& on,
                                          std::size_t t, std::size_t size) {
    if (size == 1) return std::move(scans[t]);
    if (size > kMaxOrderedJoins)
      throw Error(ErrorKind::NotSupported,
                  "not supported yet: more than " + std::to_string(kMaxOrderedJoins) +
                      " tables on the side an outer join extends with NULLs",
                  q_.tables[t].offset);
    std::vector<std::size_t> tables;
    std::size_t first = t;
    for (std::size_t k = t; k < t + size; ++k) {
      tables.push_back(k);
      if (scans[k]->estimated_rows > scans[first]->estimated_rows) first = k;
    }
    return join_ordered(scans, on, tables, first);
  }

  std::unique_ptr<PlanNode> scan_of(std::size_t t) const {
    auto scan = std::make_unique<PlanNode>();
    scan->kind = PlanKind::Scan;
    scan->table = q_.tables[t];
    scan->table_index = static_cast<int>(t);
    scan->column_count = q_.column_count;
    scan->estimated_rows = static_cast<double>(q_.tables[t].table->rows);
    return scan;
  }

  // The tables an expression reads, a FULL JOIN's right table as its left.
  uint64_t tables(const BoundExpr& e) const {
    uint64_t read = tables_of(e, q_);
    for (uint64_t f = read & folded_; f; f &= f - 1) read = (read & ~(f & -f)) | ((f & -f) >> 1);
    return read;
  }

  // `a FULL JOIN b ON ...` (b is table t, a table t - 1): the two tables
  // alone. Neither scan is filtered, as both sides keep every row: ON's
  // conditions on one side alone make that side's key NULL where they fail
  // (so its row stays, unmatched); WHERE's conditions filter above the join.
  std::unique_ptr<PlanNode> full_join(std::vector<Conjunct>& on, std::size_t t) {
    const uint64_t left = 1ull << (t - 1), right = 1ull << t;
    std::vector<JoinKey> keys = keys_between(on, left, right, true);
    std::vector<BoundExpr> left_guards, right_guards;
    for (auto& c : on) {
      if (c.used || (c.tables & ~(left | right))) continue;
      if (c.tables != right) left_guards.push_back(c.expr);  // a's alone, or none's
      if (c.tables != left) right_guards.push_back(c.expr);
      c.used = c.tables != (left | right);
    }
    check_outer_condition(on, keys, "FULL JOIN", q_.tables[t].offset);
    if (!left_guards.empty()) keys[0].left = build::null_unless(conjunction(std::move(left_guards)), std::move(keys[0].left));
    if (!right_guards.empty())
      keys[0].right = build::null_unless(conjunction(std::move(right_guards)), std::move(keys[0].right));
    auto join = make(PlanKind::HashJoin, scan_of(t - 1));
    std::unique_ptr<PlanNode> right_scan = scan_of(t);
    const double left_rows = join->estimated_rows, right_rows = right_scan->estimated_rows;
    join->estimated_rows = std::max({left_rows, right_rows, join_rows(left_rows, right_rows, keys)});
    join->keys = std::move(keys);
    join->build_right = true;
    join->left_outer = true;
    join->full_outer = true;
    join->right = std::move(right_scan);
    return join;
  }

  // An outer join's ON: every part used as a key or a guard, one key at least.
  static void check_outer_condition(const std::vector<Conjunct>& on, const std::vector<JoinKey>& keys,
                                    const std::string& join, std::size_t offset) {
    for (const auto& c : on)
      if (!c.used)
        throw Error(ErrorKind::NotSupported,
                    "not supported yet: a " + join +
                        " condition other than equalities between the two sides and conditions on one side alone",
                    c.expr.offset);
    if (keys.empty())
      throw Error(ErrorKind::NotSupported,
                  "not supported yet: a " + join + " without an equality between the two sides", offset);
  }

  // The inner tables joined as order_joins() finds cheapest. Its conditions:
  // for each pair of table sets an equality joins, the selectivity of the
  // key that divides most (join_rows()), each side's distinct values at
  // most its filtered rows; every other conjunct over several tables keeps
  // selectivity_of() of the rows.
  std::unique_ptr<PlanNode> join_ordered(std::vector<std::unique_ptr<PlanNode>>& scans, std::vector<Conjunct>& conjuncts,
                                         const std::vector<std::size_t>& inner, std::size_t first) {
    auto compact = [&](uint64_t tables) {  // table bits -> bits over `inner`
      uint64_t bits = 0;
      for (std::size_t i = 0; i < inner.size(); ++i)
        if ((tables >> inner[i]) & 1) bits |= 1ull << i;
      return bits;
    };
    auto rows_of = [&](uint64_t tables) {
      double rows = 1;
      for (std::size_t t = 0; t < scans.size(); ++t)
        if ((tables >> t) & 1) rows *= scans[t]->estimated_rows;
      return rows;
    };
    std::vector<double> rows;
    uint64_t inner_tables = 0;
    for (std::size_t t : inner) {
      rows.push_back(scans[t]->estimated_rows);
      inner_tables |= 1ull << t;
    }
    std::vector<JoinCondition> conditions;
    for (const Conjunct& c : conjuncts) {
      // A condition that reads a LEFT JOIN's table filters above that join.
      if (c.used || std::popcount(c.tables) < 2 || (c.tables & ~inner_tables)) continue;
      const uint64_t a = c.expr.op == Op::Eq ? tables(c.expr.children[0]) : 0;
      const uint64_t b = c.expr.op == Op::Eq ? tables(c.expr.children[1]) : 0;
      if (a == 0 || b == 0 || (a & b)) {
        conditions.push_back({compact(c.tables), 0, selectivity_of(c.expr), false});
        continue;
      }
      const double divisor =
          std::max(key_distinct(c.expr.children[0], rows_of(a)), key_distinct(c.expr.children[1], rows_of(b)));
      const uint64_t left = compact(a), right = compact(b);
      bool merged = false;
      for (JoinCondition& j : conditions)
        if (j.equality && ((j.left == left && j.right == right) || (j.left == right && j.right == left))) {
          j.selectivity = std::min(j.selectivity, 1 / std::max(1.0, divisor));
          merged = true;
        }
      if (!merged) conditions.push_back({left, right, 1 / std::max(1.0, divisor), true});
    }
    std::unique_ptr<JoinTree> tree = order_joins(rows, conditions);
    return build_join(*tree, scans, conjuncts, inner, first);
  }

  // The operators of `tree`: each join's left side the part holding table
  // `first` (else the larger), the smaller estimate building the hash table.
  std::unique_ptr<PlanNode> build_join(const JoinTree& tree, std::vector<std::unique_ptr<PlanNode>>& scans,
                                       std::vector<Conjunct>& conjuncts, const std::vector<std::size_t>& inner,
                                       std::size_t first) {
    auto tables = [&](uint64_t relations) {
      uint64_t bits = 0;
      for (std::size_t i = 0; i < inner.size(); ++i)
        if ((relations >> i) & 1) bits |= 1ull << inner[i];
      return bits;
    };
    if (!tree.a) return std::move(scans[inner[static_cast<std::size_t>(std::countr_zero(tree.relations))]]);
    const JoinTree* l = tree.a.get();
    const JoinTree* r = tree.b.get();
    const bool a_first = (tables(l->relations) >> first) & 1, b_first = (tables(r->relations) >> first) & 1;
    if (b_first || (!a_first && r->rows > l->rows)) std::swap(l, r);
    std::unique_ptr<PlanNode> left = build_join(*l, scans, conjuncts, inner, first);
    std::unique_ptr<PlanNode> right = build_join(*r, scans, conjuncts, inner, first);
    const uint64_t left_tables = tables(l->relations), right_tables = tables(r->relations);
    std::vector<JoinKey> keys = keys_between(conjuncts, left_tables, right_tables, true);
    std::vector<BoundExpr> residual;
    double keep = 1;
    for (auto& c : conjuncts)
      if (!c.used && c.tables != 0 && (c.tables & ~(left_tables | right_tables)) == 0) {
        keep *= selectivity_of(c.expr);
        residual.push_back(c.expr);
        c.used = true;
      }
    const double rows_before = std::max(1.0, tree.rows / std::max(keep, 1e-300));
    const double left_rows = left->estimated_rows, right_rows = right->estimated_rows;
    if (keys.empty()) {
      auto join = make(PlanKind::NestedLoopJoin, std::move(left));
      if (!residual.empty()) join->predicate = conjunction(std::move(residual));
      join->estimated_rows = std::max(1.0, tree.rows);
      join->right = std::move(right);
      return join;
    }
    auto join = make(PlanKind::HashJoin, std::move(left));
    join->keys = std::move(keys);
    join->build_right = right_rows <= left_rows;
    join->estimated_rows = rows_before;
    join->right = std::move(right);
    return add_filter(std::move(join), std::move(residual), keep);
  }

  // Joined greedily (more tables than order_joins() takes): from table
  // `first`, add the smallest table connected to the joined set by an
  // equality that does not multiply rows (join_rows() at most the larger
  // input: a foreign key to a key), building the hash table on the smaller
  // side. Only when every equality multiplies rows (a many-to-many key,
  // such as TPC-H Q5's c_nationkey = s_nationkey before orders is joined)
  // the one that makes the fewest; a table with no equality to the joined
  // set comes last, the smallest first, by a nested-loop join.
  std::unique_ptr<PlanNode> join_greedy(std::vector<std::unique_ptr<PlanNode>>& scans, std::vector<Conjunct>& conjuncts,
                                        uint64_t outer, std::size_t first) {
    const std::size_t n = scans.size();
    uint64_t joined = 1ull << first;
    const uint64_t all = n == 64 ? ~0ull : (1ull << n) - 1;
    std::unique_ptr<PlanNode> top = std::move(scans[first]);
    while ((joined | outer) != all) {
      // Rank of a candidate: 2 joins by an equality without multiplying
      // rows, 1 by one that multiplies them, 0 by none.
      int pick = -1, pick_rank = -1;
      double pick_rows = 0;  // join_rows() of the join with `pick`, when connected
      for (std::size_t t = 0; t < n; ++t) {
        if ((joined | outer) & (1ull << t)) continue;
        const std::vector<JoinKey> keys = keys_between(conjuncts, joined, 1ull << t, false);
        const double left = top->estimated_rows, right = scans[t]->estimated_rows;
        const double rows = keys.empty() ? left * right : join_rows(left, right, keys);
        const int rank = keys.empty() ? 0 : rows <= std::max(left, right) ? 2 : 1;
        bool better = rank > pick_rank;
        if (rank == pick_rank) {
          if (rank == 1) better = rows < pick_rows;
          else better = right < scans[pick]->estimated_rows;
        }
        if (better) {
          pick = static_cast<int>(t);
          pick_rank = rank;
          pick_rows = rows;
        }
      }
      uint64_t side = 1ull << pick;
      std::unique_ptr<PlanNode> right = std::move(scans[pick]);
      std::vector<JoinKey> keys = keys_between(conjuncts, joined, side, true);
      std::vector<BoundExpr> residual;
      for (auto& c : conjuncts)
        if (!c.used && (c.tables & ~(joined | side)) == 0) {
          residual.push_back(c.expr);
          c.used = true;
        }
      std::unique_ptr<PlanNode> join;
      double left_rows = top->estimated_rows, right_rows = right->estimated_rows;
      if (!keys.empty()) {
        join = make(PlanKind::HashJoin, std::move(top));
        join->keys = std::move(keys);
        join->build_right = right_rows <= left_rows;
        join->estimated_rows = pick_rank == 1 ? pick_rows : std::max(left_rows, right_rows);
        join->right = std::move(right);
        join = filter(std::move(join), std::move(residual));
      } else {
        join = make(PlanKind::NestedLoopJoin, std::move(top));
        join->estimated_rows = left_rows * right_rows;
        if (!residual.empty()) {
          double keep = 1;
          for (const BoundExpr& c : residual) keep *= selectivity_of(c);
          join->predicate = conjunction(std::move(residual));
          join->estimated_rows = std::max(1.0, join->estimated_rows * keep);
        }
        join->right = std::move(right);
      }
      top = std::move(join);
      joined |= side;
    }
    return top;
  }

  // `top` LEFT JOIN a nullable side (`right`, the tables `side`) by the
  // equalities of its ON condition between them; WHERE's conditions it
  // completes filter above.
  std::unique_ptr<PlanNode> left_join(std::unique_ptr<PlanNode> top, std::unique_ptr<PlanNode> right,
                                      std::vector<Conjunct>& on, std::vector<Conjunct>& conjuncts, uint64_t joined,
                                      uint64_t side) {
    std::vector<JoinKey> keys = keys_between(on, joined, side, true);
    // Conditions on the preserved side alone (guards), and the others
    // across the two sides.
    std::vector<BoundExpr> guards, across;
    for (auto& c : on)
      if (!c.used && c.tables != 0 && (c.tables & ~(joined | side)) == 0) {
        ((c.tables & ~joined) == 0 ? guards : across).push_back(c.expr);
        c.used = true;
      }
    for (const auto& c : on)
      if (!c.used)
        throw Error(ErrorKind::NotSupported,
                    "not supported yet: a LEFT or RIGHT JOIN condition on tables joined after it", c.expr.offset);
    std::unique_ptr<PlanNode> join;
    if (!across.empty() || keys.empty()) {
      guards.insert(guards.end(), across.begin(), across.end());
      join = left_join_by_pairs(std::move(top), std::move(right), std::move(keys), std::move(guards), joined);
    } else {
      // A guard that fails keeps the preserved row, unmatched: its first
      // key is NULL there, and a NULL key matches nothing.
      if (!guards.empty()) keys[0].left = build::null_unless(conjunction(std::move(guards)), std::move(keys[0].left));
      join = make(PlanKind::HashJoin, std::move(top));
      const double left_rows = join->estimated_rows, right_rows = right->estimated_rows;
      join->estimated_rows = std::max(left_rows, join_rows(left_rows, right_rows, keys));
      join->keys = std::move(keys);
      join->build_right = right_rows <= left_rows;  // the smaller side, as an inner join (TPC-H Q13: customer)
      join->left_outer = true;
      join->right = std::move(right);
    }
    std::vector<BoundExpr> residual;
    for (auto& c : conjuncts)
      if (!c.used && c.tables != 0 && (c.tables & ~(joined | side)) == 0) {
        residual.push_back(c.expr);
        c.used = true;
      }
    return filter(std::move(join), std::move(residual));
  }

  // An outer join whose ON holds more than equalities and one-side
  // conditions, or no equality: the pairs the whole ON keeps, as an inner
  // join of a copy of `top` with `right` (hash-joined by `keys`, the rest a
  // filter; every pair tested without keys, all of them without a
  // condition), then `top` LEFT JOIN those pairs by the rowids of the
  // tables `top` holds (a nullable table's, absent, as -1). `top` runs
  // twice.
  std::unique_ptr<PlanNode> left_join_by_pairs(std::unique_ptr<PlanNode> top, std::unique_ptr<PlanNode> right,
                                               std::vector<JoinKey> keys, std::vector<BoundExpr> condition,
                                               uint64_t joined) {
    std::unique_ptr<PlanNode> pairs = make(keys.empty() ? PlanKind::NestedLoopJoin : PlanKind::HashJoin, copy_plan(*top));
    const double left_rows = pairs->estimated_rows, right_rows = right->estimated_rows;
    double keep = 1;
    for (const BoundExpr& c : condition) keep *= selectivity_of(c);
    if (keys.empty()) {
      if (!condition.empty()) pairs->predicate = conjunction(std::move(condition));
      pairs->estimated_rows = std::max(1.0, left_rows * right_rows * keep);
      pairs->right = std::move(right);
    } else {
      pairs->estimated_rows = join_rows(left_rows, right_rows, keys);
      pairs->keys = std::move(keys);
      pairs->build_right = true;
      pairs->right = std::move(right);
      pairs = filter(std::move(pairs), std::move(condition));
    }
    std::vector<JoinKey> ids;
    const uint64_t holds = joined | ((joined << 1) & folded_);  // a FULL JOIN's right table too
    for (std::size_t u = 0; u < q_.tables.size(); ++u) {
      if (!((holds >> u) & 1)) continue;
      const BoundTableRef& table = q_.tables[u];
      BoundExpr id = build::column(table.first_column + table.column_count() - 1, DataType::bigint());
      if (table.left_outer) {
        BoundExpr absent;
        absent.op = Op::IsNull;
        absent.type = DataType::boolean();
        absent.children.push_back(id);
        BoundExpr select;
        select.op = Op::Select;
        select.type = DataType::bigint();
        select.children.push_back(std::move(absent));
        select.children.push_back(build::int_constant(-1));
        select.children.push_back(std::move(id));
        id = std::move(select);
      }
      ids.push_back({id, id});
    }
    auto join = make(PlanKind::HashJoin, std::move(top));
    join->estimated_rows = std::max(join->estimated_rows, pairs->estimated_rows);
    join->keys = std::move(ids);
    join->build_right = true;
    join->left_outer = true;
    join->right = std::move(pairs);
    return join;
  }

  // `a = b` with one side reading only tables in `left` and the other only `right`.
  bool equi_key(const BoundExpr& e, uint64_t left, uint64_t right) const {
    if (e.op != Op::Eq) return false;
    // Join keys hold 64 bits: an equality of DECIMALs wider than 18 digits
    // stays a condition, compared in full.
    if (e.children[0].type.is_wide_decimal() || e.children[1].type.is_wide_decimal()) return false;
    uint64_t a = tables(e.children[0]), b = tables(e.children[1]);
    if (a == 0 || b == 0) return false;
    bool forward = (a & ~left) == 0 && (b & ~right) == 0;
    bool backward = (b & ~left) == 0 && (a & ~right) == 0;
    return forward || backward;
  }
};

const char* op_text(Op op) {
  switch (op) {
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Mul: return "*";
    case Op::Div: return "/";
    case Op::Mod: return "%";
    case Op::Eq: return "=";
    case Op::Ne: return "<>";
    case Op::Lt: return "<";
    case Op::Le: return "<=";
    case Op::Gt: return ">";
    case Op::Ge: return ">=";
    case Op::And: return "AND";
    case Op::Or: return "OR";
    default: return "?";
  }
}

std::string join_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

std::vector<SortKey> group_order(std::size_t keys) {
  std::vector<SortKey> order;
  for (std::size_t k = 0; k < keys; ++k) order.push_back({static_cast<int>(k), false, false});
  return order;
}

Plan plan_query(BoundQuery query) {
  Plan plan;
  plan.column_names = query.column_names;
  plan.root = Planner(query).plan();
  return plan;
}

namespace {

// The distinct values of `e` over `input`'s rows, as far as the plan tells
// (nullopt where it does not): a column a Scan fills is its table's
// estimate; an Aggregate's only group key has one value a group; any other
// key is its expression's estimate over the Aggregate's input.
std::optional<double> distinct_of(const BoundExpr& e, const PlanNode& input) {
  const BoundExpr* x = &e;
  while (x->op == Op::ToWide && x->children.size() == 1) x = &x->children[0];
  if (x->op != Op::Column) return std::nullopt;
  switch (input.kind) {
    case PlanKind::Aggregate: {
      const auto k = static_cast<std::size_t>(x->column);
      if (k >= input.group_keys.size()) return std::nullopt;
      if (input.group_keys.size() == 1) return std::numeric_limits<double>::infinity();  // every group its own
      return distinct_of(input.group_keys[k], *input.child);
    }
    case PlanKind::Scan: {
      const int c = x->column - input.table.first_column;
      if (c < 0 || c + 1 >= input.table.column_count()) return std::nullopt;  // not its column, or the rowid
      return input.table.table->distinct_estimate(static_cast<std::size_t>(c));
    }
    case PlanKind::Filter: case PlanKind::HashJoin: case PlanKind::NestedLoopJoin:
      if (input.right)
        if (auto d = distinct_of(e, *input.right)) return d;
      return distinct_of(e, *input.child);
    default: return std::nullopt;  // a column space of its own (Project)
  }
}

}  // namespace

std::vector<double> result_distinct_estimates(const Plan& plan, std::size_t rows) {
  const PlanNode* n = plan.root.get();
  while (n->kind != PlanKind::Project) n = n->child.get();
  std::vector<double> out;
  const double all = std::max(1.0, static_cast<double>(rows));
  for (std::size_t c = 0; c < plan.root->visible; ++c) {
    std::optional<double> d = distinct_of(n->expressions[c], *n->child);
    out.push_back(std::min(all, std::max(1.0, d.value_or(all))));
  }
  return out;
}

std::vector<std::string> PlanNode::output_names(const std::vector<std::string>& global) const {
  switch (kind) {
    case PlanKind::Scan:
    case PlanKind::Filter:
    case PlanKind::HashJoin:
    case PlanKind::NestedLoopJoin:
      if (kind == PlanKind::Filter) return child->output_names(global);
      return global;
    case PlanKind::Aggregate: {
      std::vector<std::string> input = child->output_names(global), out;
      for (const auto& k : group_keys) out.push_back(describe(k, input));
      for (const auto& a : aggregates) out.push_back(describe(a, input));
      return out;
    }
    case PlanKind::Project: return names;
    case PlanKind::Distinct:
    case PlanKind::Sort:
    case PlanKind::Limit: return child->output_names(global);
  }
  return {};
}

const OperatorProfile* Profile::find(const PlanNode* node) const {
  for (const auto& o : operators)
    if (o.node == node) return &o;
  return nullptr;
}

std::string PlanNode::to_string(const std::vector<std::string>& global, const Profile* actual, int indent) const {
  std::string pad(static_cast<std::size_t>(indent) * 2, ' ');
  std::vector<std::string> input = child ? child->output_names(global) : global;
  std::string line;
  switch (kind) {
    case PlanKind::Scan:
      line = "SCAN " + table.table->name + (!table.alias.empty() && table.alias != table.table->name ? " AS " + table.alias : "");
      break;
    case PlanKind::Filter: line = "FILTER " + describe(*predicate, input); break;
    case PlanKind::HashJoin: {
      std::vector<std::string> keys_text;
      for (const auto& k : keys) keys_text.push_back(describe(k.left, global) + " = " + describe(k.right, global));
      line = std::string(full_outer ? "FULL HASH JOIN " : left_outer ? "LEFT HASH JOIN " : "HASH JOIN ") + join_list(keys_text) +
             (build_right ? " (build right)" : " (build left)");
      break;
    }
    case PlanKind::NestedLoopJoin:
      line = predicate ? "NESTED LOOP JOIN " + describe(*predicate, global) : "CROSS JOIN";
      break;
    case PlanKind::Aggregate: {
      std::vector<std::string> k, a;
      for (const auto& g : group_keys) k.push_back(describe(g, input));
      for (const auto& agg : aggregates) a.push_back(describe(agg, input));
      line = group_keys.empty() ? "AGGREGATE " + join_list(a) : "GROUP BY " + join_list(k) + " AGGREGATE " + join_list(a);
      break;
    }
    case PlanKind::Project: {
      std::vector<std::string> e;
      for (const auto& x : expressions) e.push_back(describe(x, input));
      line = "PROJECT " + join_list(e);
      break;
    }
    case PlanKind::Distinct: line = "DISTINCT"; break;
    case PlanKind::Sort: {
      std::vector<std::string> k;
      for (const auto& s : sort_keys)
        k.push_back(input[s.column] + (s.descending ? " DESC" : " ASC") + (s.nulls_first ? " NULLS FIRST" : ""));
      line = "ORDER BY " + join_list(k);
      break;
    }
    case PlanKind::Limit:
      line = "LIMIT " + (limit ? std::to_string(*limit) : std::string("ALL")) +
             (offset ? " OFFSET " + std::to_string(offset) : "");
      break;
  }
  char estimate[96];
  std::snprintf(estimate, sizeof estimate, "  (~%.0f rows)", estimated_rows);
  line += estimate;
  if (actual) {
    if (const OperatorProfile* p = actual->find(this)) {
      char measured[96];
      std::snprintf(measured, sizeof measured, "  [%zu rows, %.3f ms]", p->rows, p->milliseconds);
      line += measured;
      if (!p->note.empty()) line += "  (" + p->note + ")";
    }
  }
  std::string out = pad + line + "\n";
  if (child) out += child->to_string(global, actual, indent + 1);
  if (right) out += right->to_string(global, actual, indent + 1);
  return out;
}

std::string describe(const BoundExpr& e, const std::vector<std::string>& names) {
  auto child = [&](std::size_t i) { return i < e.children.size() ? describe(e.children[i], names) : std::string("?"); };
  switch (e.op) {
    case Op::Column:
      return e.column >= 0 && static_cast<std::size_t>(e.column) < names.size() ? names[e.column]
                                                                               : "#" + std::to_string(e.column);
    case Op::RowId: return "rowid";
    case Op::Constant:
      if (e.constant.null_constant) return "NULL";
      if (e.type.id == Type::Varchar) return e.text.empty() ? "code " + std::to_string(e.constant.value.i) : "'" + e.text + "'";
      if (e.type.id == Type::Boolean) return e.constant.value.i ? "true" : "false";
      if (e.type.id == Type::Date) return "DATE " + std::to_string(e.constant.value.i);
      if (e.type.is_floating()) return format_double(e.constant.value.d);
      if (e.type.id == Type::Decimal) return to_string(Decimal{e.constant.value.i, e.type.scale});
      return std::to_string(e.constant.value.i);
    case Op::Negate: return "(-" + child(0) + ")";
    case Op::Not: return "(NOT " + child(0) + ")";
    case Op::IsNull: return "(" + child(0) + " IS NULL)";
    case Op::IsNotNull: return "(" + child(0) + " IS NOT NULL)";
    case Op::ToDouble: return "CAST(" + child(0) + " AS DOUBLE)";
    case Op::ToInt: return "CAST(" + child(0) + " AS BIGINT)";
    case Op::ToIntHalfAway:
    case Op::ToWideHalfAway: return "round(" + child(0) + ")";
    case Op::ToReal: case Op::RoundToReal: return "CAST(" + child(0) + " AS REAL)";
    case Op::DivRound: return "round(" + child(0) + " / " + child(1) + ")";
    case Op::DivFloor: return "floor(" + child(0) + " / " + child(1) + ")";
    case Op::DivCeil: return "ceil(" + child(0) + " / " + child(1) + ")";
    case Op::CheckDate: return child(0);
    case Op::CheckInt32: return "CAST(" + child(0) + " AS INTEGER)";
    case Op::CheckPrecision: return "check_precision(" + child(0) + ", " + child(1) + ")";
    case Op::CheckCast: return child(0);
    case Op::CheckOneRow: return child(0);
    case Op::CheckDecimal: return child(0);
    case Op::AvgQuotient: return "avg_of(" + child(0) + ", " + child(1) + ")";
    case Op::WideFromParts: return "from_parts(" + child(0) + ", " + child(1) + ")";
    case Op::ToWide: return child(0);
    case Op::WideHigh: return "high(" + child(0) + ")";
    case Op::WideLow: return "low(" + child(0) + ")";
    case Op::WideDigit: return "digit(" + child(0) + ", " + child(1) + ")";
    case Op::ScaleSaturate: return "(" + child(0) + " * " + child(1) + ")";
    case Op::DecimalToDouble: return "CAST(" + child(0) + " AS DOUBLE)";
    case Op::DecimalToReal: return "CAST(" + child(0) + " AS REAL)";
    case Op::Floor: return "floor(" + child(0) + ")";
    case Op::Ceil: return "ceil(" + child(0) + ")";
    case Op::Round: return "round(" + child(0) + ")";
    case Op::Abs: return "abs(" + child(0) + ")";
    case Op::Select: return "CASE WHEN " + child(0) + " THEN " + child(1) + " ELSE " + child(2) + " END";
    case Op::Lookup:
      // A CAST of a VARCHAR column reads its table (marked); a LIKE over
      // plain strings looks rowids up (marked); another BOOLEAN
      // lookup is a LIKE's table over the dictionary; a VARCHAR one
      // of a Rank a CAST to VARCHAR (varchar_cast.hpp), of a column a
      // recoding into a shared dictionary (dictionary_recoding.hpp).
      if (e.text == "CAST") return "CAST(" + child(0) + " AS " + e.type.to_string() + ")";
      if (e.text.starts_with("LIKE:")) return "(" + e.text.substr(5) + " LIKE <pattern>)";  // over plain strings
      if (e.type.id == Type::Boolean) return "(" + child(0) + " LIKE <pattern>)";
      if (e.type.id != Type::Varchar) return "lookup(" + child(0) + ")";
      return e.children[0].op == Op::Rank ? "CAST(" + describe(e.children[0].children[0], names) + " AS VARCHAR)"
                                          : "recode(" + child(0) + ")";
    case Op::Rank: return "rank(" + child(0) + ")";
    case Op::And:
      // x IN (a subquery's values): rank(x) < n AND lookup(rank(x)) = x.
      if (e.children[0].op == Op::Lt && e.children[0].children[0].op == Op::Rank &&
          e.children[0].children[1].op == Op::Constant && e.children[1].op == Op::Eq &&
          e.children[1].children[0].op == Op::Lookup)
        return "(" + describe(e.children[1].children[1], names) + " IN (" +
               std::to_string(e.children[0].children[1].constant.value.i) + " values))";
      return "(" + child(0) + " AND " + child(1) + ")";
    case Op::ExtractYear: return "year(" + child(0) + ")";
    case Op::ExtractMonth: return "month(" + child(0) + ")";
    case Op::ExtractDay: return "day(" + child(0) + ")";
    case Op::AddMonths: return "(" + child(0) + " + months " + child(1) + ")";
    default: return "(" + child(0) + " " + op_text(e.op) + " " + child(1) + ")";
  }
}

std::string describe(const BoundAggregate& a, const std::vector<std::string>& names) {
  const char* name = "count";
  switch (a.kind) {
    case AggKind::CountStar: return "count_star()";
    case AggKind::Count: name = "count"; break;
    case AggKind::CountDistinct: return "count(DISTINCT " + describe(*a.argument, names) + ")";
    case AggKind::Sum: name = "sum"; break;
    case AggKind::Min: name = "min"; break;
    case AggKind::Max: name = "max"; break;
    case AggKind::Avg: name = "avg"; break;
    case AggKind::ArgMin:
    case AggKind::ArgMax:
      return std::string(a.kind == AggKind::ArgMin ? "arg_min(" : "arg_max(") + describe(*a.argument, names) + ", " +
             describe(*a.order, names) + ")";
  }
  return std::string(name) + "(" + describe(*a.argument, names) + ")";
}

}  // namespace gpusql
