// The host executor: plain C++ over the tables' host columns. It is the
// reference the CUDA executor is tested against and the fallback without a
// GPU. It follows the kernels' conventions wherever the answer could depend
// on them: the reduction order of aggregates (aggregate_state.hpp), join
// output order (by left position, then right), group order (by first
// appearance), stable sorts.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <unordered_map>

#include "engine/executor.hpp"
#include "kernels/join_pairs.hpp"
#include "storage/table.hpp"

namespace gpusql {
namespace {

using RowIds = std::vector<uint32_t>;

// A column of a relation: values reached through `rows` (null: position =
// row), or the row id itself for a rowid column. Absent where a global
// column's table has not joined in yet.
struct ColumnRef {
  const HostColumn* column = nullptr;
  bool rowid = false;
  std::shared_ptr<const RowIds> rows;
  bool present() const { return column || rowid; }
};

// Rows flowing between operators (late materialization: filters and joins
// only compose row-id vectors; values are read when an expression needs them).
struct Relation {
  std::vector<ColumnRef> columns;
  std::size_t count = 0;
  std::vector<std::shared_ptr<const HostColumn>> owned;
};

ColumnPointer pointer_of(const ColumnRef& c, uint8_t side = 0) {
  ColumnPointer p;
  p.rows = c.rows ? c.rows->data() : nullptr;
  p.side = side;
  if (c.rowid) {
    p.is_rowid = true;
    p.type = Type::BigInt;
    return p;
  }
  p.data = c.column->bytes.data();
  p.validity = c.column->has_nulls() ? c.column->validity.data() : nullptr;
  p.type = c.column->type.storage();
  return p;
}

// The ColumnSet for a program's slots; `right` (when given) supplies the
// columns of a join's right side, read at the pair's right position.
ColumnSet column_set(const SlotMap& slots, const Relation& input, const Relation* right = nullptr) {
  ColumnSet set;
  for (const auto& source : slots.sources()) {
    ColumnPointer p;
    if (source.lookup) {
      p = host_pointer(*source.lookup);
    } else if (right && source.column < static_cast<int>(right->columns.size()) &&
               right->columns[source.column].present()) {
      p = pointer_of(right->columns[source.column], 1);
    } else {
      const ColumnRef& c = input.columns.at(source.column);
      if (!c.present()) throw Error(ErrorKind::Invalid, "internal: an operator reads a column its input lacks");
      p = pointer_of(c);
    }
    set.columns[set.count++] = p;
  }
  return set;
}

// The relation's rows at `positions` (in that order).
Relation compose(const Relation& input, const RowIds& positions, const QueryControl& control) {
  std::size_t vectors = 1;
  {
    std::vector<const RowIds*> sources;
    for (const ColumnRef& c : input.columns)
      if (c.present() && c.rows) sources.push_back(c.rows.get());
    std::sort(sources.begin(), sources.end());
    vectors += static_cast<std::size_t>(std::unique(sources.begin(), sources.end()) - sources.begin());
  }
  control.reserve_host_memory(vectors * positions.size() * sizeof(uint32_t), "an operator's output rows");
  Relation out;
  out.count = positions.size();
  out.owned = input.owned;
  auto identity = std::make_shared<const RowIds>(positions);
  std::map<const RowIds*, std::shared_ptr<const RowIds>> composed;
  for (const ColumnRef& c : input.columns) {
    ColumnRef n = c;
    if (c.present()) {
      if (!c.rows) {
        n.rows = identity;
      } else {
        auto& shared = composed[c.rows.get()];
        if (!shared) {
          auto rows = std::make_shared<RowIds>(positions.size());
          for (std::size_t i = 0; i < positions.size(); ++i) {
            control.check_at(i);
            (*rows)[i] = (*c.rows)[positions[i]];
          }
          shared = std::move(rows);
        }
        n.rows = shared;
      }
    }
    out.columns.push_back(std::move(n));
  }
  return out;
}

// Evaluates `expr` at every position into a new column.
std::shared_ptr<HostColumn> materialize(const BoundExpr& expr, const Relation& input, uint32_t& error,
                                        const QueryControl& control) {
  SlotMap slots;
  ExprProgram program = compile_expression(expr, slots);
  ColumnSet set = column_set(slots, input);
  control.reserve_host_memory(input.count * expr.type.width() + input.count / 8, "a computed column");
  auto out = std::make_shared<HostColumn>(expr.type, input.count);
  out->dictionary = expr.dictionary;
  for (std::size_t p = 0; p < input.count; ++p) {
    control.check_at(p);
    int64_t high = 0;
    Slot s = evaluate_to(program, set, static_cast<int64_t>(p), error, high);
    store_value(out->bytes.data(), expr.type.storage(), static_cast<int64_t>(p), s, high);
    if (!s.valid) out->set_null(p);
  }
  return out;
}

Relation from_columns(std::vector<std::shared_ptr<HostColumn>> columns, std::size_t count) {
  Relation r;
  r.count = count;
  for (auto& c : columns) {
    r.columns.push_back({c.get(), false, nullptr});
    r.owned.push_back(std::move(c));
  }
  return r;
}

// A key value as bits; NULL keys never match, -0.0 equals 0.0.
int64_t key_bits(const Slot& s, Cls cls) {
  if (cls == Cls::Int) return s.i;
  double d = s.d == 0.0 ? 0.0 : s.d;
  int64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return bits;
}

struct KeyHash {
  std::size_t operator()(const std::vector<int64_t>& k) const {
    std::size_t h = 1469598103934665603ull;
    for (int64_t v : k) h = (h ^ static_cast<std::size_t>(v)) * 1099511628211ull + (h >> 29);
    return h;
  }
};

class HostExecutor final : public Executor {
 public:
  explicit HostExecutor(const QueryControl& control) : control_(control) {}

  std::shared_ptr<ResultData> execute(const Plan& plan, Profile* profile) override {
    profile_ = profile;
    Relation result = run(*plan.root);
    const PlanNode& projection = projection_of(*plan.root);
    auto data = std::make_shared<ResultData>();
    uint32_t error = 0;
    for (std::size_t c = 0; c < plan.root->visible; ++c) {
      data->names.push_back(projection.names[c]);
      BoundExpr column;
      column.op = Op::Column;
      column.column = static_cast<int>(c);
      column.type = projection.expressions[c].type;
      column.dictionary = projection.expressions[c].dictionary;
      data->columns.push_back(std::move(*materialize(column, result, error, control_)));
    }
    data->rows = result.count;
    throw_if_eval_error(error);
    return data;
  }

 private:
  const QueryControl& control_;
  Profile* profile_ = nullptr;

  Relation run(const PlanNode& node) {
    control_.check_interrupt();
    auto start = std::chrono::steady_clock::now();
    Relation r = run_operator(node);
    if (profile_) {
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      profile_->operators.push_back({&node, r.count, ms, {}});
    }
    return r;
  }

  Relation run_operator(const PlanNode& node) {
    switch (node.kind) {
      case PlanKind::Scan: return scan(node);
      case PlanKind::Filter: {
        Relation input = run(*node.child);
        return filter(input, *node.predicate);
      }
      case PlanKind::HashJoin: return hash_join(node);
      case PlanKind::NestedLoopJoin: return nested_loop_join(node);
      case PlanKind::Aggregate: return aggregate(node);
      case PlanKind::Project: {
        Relation input = run(*node.child);
        uint32_t error = 0;
        std::vector<std::shared_ptr<HostColumn>> columns;
        for (const auto& e : node.expressions) columns.push_back(materialize(e, input, error, control_));
        throw_if_eval_error(error);
        return from_columns(std::move(columns), input.count);
      }
      case PlanKind::Distinct: return distinct(run(*node.child));
      case PlanKind::Sort: return sort(node.sort_keys, run(*node.child));
      case PlanKind::Limit: {
        Relation input = run(*node.child);
        std::size_t begin = std::min<std::size_t>(input.count, static_cast<std::size_t>(node.offset));
        std::size_t end = node.limit ? std::min<std::size_t>(input.count, begin + static_cast<std::size_t>(*node.limit))
                                     : input.count;
        RowIds positions(end - begin);
        for (std::size_t i = 0; i < positions.size(); ++i) positions[i] = static_cast<uint32_t>(begin + i);
        return compose(input, positions, control_);
      }
    }
    throw Error(ErrorKind::Invalid, "internal: unknown operator");
  }

  static Relation scan(const PlanNode& node) {
    Relation r;
    r.columns.resize(node.column_count);
    const Table& table = *node.table.table;
    for (std::size_t c = 0; c < table.host.size(); ++c) r.columns[node.table.first_column + c].column = &table.host[c];
    r.columns[node.table.first_column + table.host.size()].rowid = true;
    r.count = table.rows;
    return r;
  }

  RowIds select(const Relation& input, const BoundExpr& predicate) {
    SlotMap slots;
    ExprProgram program = compile_expression(predicate, slots);
    ColumnSet set = column_set(slots, input);
    RowIds positions;
    uint32_t error = 0;
    for (std::size_t p = 0; p < input.count; ++p) {
      control_.check_at(p);
      if (evaluate_predicate(program, set, static_cast<int64_t>(p), error)) positions.push_back(static_cast<uint32_t>(p));
    }
    throw_if_eval_error(error);
    return positions;
  }

  Relation filter(const Relation& input, const BoundExpr& predicate) {
    return compose(input, select(input, predicate), control_);
  }

  // Both sides' columns side by side: the left's rows at `left`, the right's at `right`.
  Relation join_output(const Relation& l, const Relation& r, const RowIds& left, const RowIds& right) {
    Relation a = compose(l, left, control_), b = compose(r, right, control_);
    for (std::size_t c = 0; c < a.columns.size(); ++c)
      if (!a.columns[c].present() && b.columns[c].present()) a.columns[c] = b.columns[c];
    a.owned.insert(a.owned.end(), b.owned.begin(), b.owned.end());
    return a;
  }

  // Keys of each position; nullopt where a key is NULL (it matches nothing).
  std::vector<std::optional<std::vector<int64_t>>> keys_of(const Relation& input,
                                                                  const std::vector<const BoundExpr*>& keys) {
    std::vector<ExprProgram> programs;
    std::vector<Cls> classes;
    SlotMap slots;
    for (const BoundExpr* k : keys) {
      programs.push_back(compile_expression(*k, slots));
      classes.push_back(compute_class(k->type));
    }
    ColumnSet set = column_set(slots, input);
    control_.reserve_host_memory(input.count * (sizeof(std::optional<std::vector<int64_t>>) + 16 + 8 * keys.size()),
                                 "a join's keys");
    std::vector<std::optional<std::vector<int64_t>>> out(input.count);
    uint32_t error = 0;
    for (std::size_t p = 0; p < input.count; ++p) {
      control_.check_at(p);
      std::vector<int64_t> key;
      bool valid = true;
      for (std::size_t k = 0; k < programs.size() && valid; ++k) {
        Slot s = evaluate(programs[k], set, static_cast<int64_t>(p), error);
        valid = s.valid;
        key.push_back(key_bits(s, classes[k]));
      }
      if (valid) out[p] = std::move(key);
    }
    throw_if_eval_error(error);
    return out;
  }

  Relation hash_join(const PlanNode& node) {
    Relation left = run(*node.child), right = run(*node.right);
    std::vector<const BoundExpr*> left_keys, right_keys;
    for (const auto& k : node.keys) {
      left_keys.push_back(&k.left);
      right_keys.push_back(&k.right);
    }
    auto lk = keys_of(left, left_keys), rk = keys_of(right, right_keys);
    const auto& build = node.build_right ? rk : lk;
    const auto& probe = node.build_right ? lk : rk;
    std::unordered_map<std::vector<int64_t>, RowIds, KeyHash> table;
    for (std::size_t p = 0; p < build.size(); ++p) {
      control_.check_at(p);
      if (build[p]) table[*build[p]].push_back(static_cast<uint32_t>(p));
    }
    // Counted first, so the pairs are reserved against the memory limit
    // before a runaway join allocates them.
    // The unmatched rows an outer join keeps (kernels/hash_join.hpp): the
    // probe side's when that is the left, the build side's for a FULL JOIN
    // (its right side) or a LEFT JOIN that built its left side.
    const bool probe_outer = node.left_outer && node.build_right;
    const bool build_outer = node.full_outer || (node.left_outer && !node.build_right);
    std::vector<const RowIds*> matches(probe.size(), nullptr);
    std::size_t pair_count = 0;
    for (std::size_t p = 0; p < probe.size(); ++p) {
      control_.check_at(p);
      auto it = probe[p] ? table.find(*probe[p]) : table.end();
      if (it != table.end()) matches[p] = &it->second;
      pair_count += matches[p] ? matches[p]->size() : probe_outer ? 1 : 0;
    }
    if (build_outer) pair_count += build.size();  // at most
    control_.reserve_host_memory(pair_count * 4 * sizeof(uint32_t), "a join's output");
    std::vector<std::pair<uint32_t, uint32_t>> pairs;  // (left, right)
    pairs.reserve(pair_count);
    std::vector<uint8_t> build_matched(build_outer ? build.size() : 0);
    for (std::size_t p = 0; p < probe.size(); ++p) {
      control_.check_at(p);
      if (!matches[p]) {
        if (probe_outer) pairs.push_back({static_cast<uint32_t>(p), kernels::kNoMatch});
        continue;
      }
      for (uint32_t b : *matches[p]) {
        pairs.push_back(node.build_right ? std::make_pair(static_cast<uint32_t>(p), b)
                                         : std::make_pair(b, static_cast<uint32_t>(p)));
        if (build_outer) build_matched[b] = 1;
      }
    }
    for (std::size_t b = 0; b < build_matched.size(); ++b)
      if (!build_matched[b])
        pairs.push_back(node.build_right ? std::make_pair(kernels::kNoMatch, static_cast<uint32_t>(b))
                                         : std::make_pair(static_cast<uint32_t>(b), kernels::kNoMatch));
    std::sort(pairs.begin(), pairs.end(), [this](const auto& a, const auto& b) {
      control_.check_interrupt();
      return a < b;
    });
    RowIds l(pairs.size()), r(pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) std::tie(l[i], r[i]) = pairs[i];
    if (node.left_outer) return outer_output(left, right, std::move(l), std::move(r), node.full_outer);
    return join_output(left, right, l, r);
  }

  // A LEFT or FULL JOIN's output: join_output() of its pairs, a side's
  // columns materialized with NULL where its position is kNoMatch (the
  // right side's for a left row with no match; with `full`, the left
  // side's for a right row with no match too).
  Relation outer_output(const Relation& left, const Relation& right, RowIds l, RowIds r, bool full) {
    auto matched_of = [](RowIds& ids) {  // kNoMatch becomes 0, a row read only under the flag
      auto matched = std::make_shared<HostColumn>(DataType::boolean(), ids.size());
      for (std::size_t i = 0; i < ids.size(); ++i) {
        const bool found = ids[i] != kernels::kNoMatch;
        matched->values<uint8_t>()[i] = found;
        if (!found) ids[i] = 0;
      }
      return matched;
    };
    std::vector<std::shared_ptr<HostColumn>> flags{matched_of(r)};
    if (full) flags.push_back(matched_of(l));
    std::vector<int> right_columns, left_columns;
    for (std::size_t c = 0; c < right.columns.size(); ++c)
      if (right.columns[c].present() && !(c < left.columns.size() && left.columns[c].present()))
        right_columns.push_back(static_cast<int>(c));
    for (std::size_t c = 0; full && c < left.columns.size(); ++c)
      if (left.columns[c].present()) left_columns.push_back(static_cast<int>(c));
    // A side with no rows is not read: its columns are NULL constants.
    Relation out = right.count == 0             ? compose(left, l, control_)
                   : full && left.count == 0 ? compose(right, r, control_)
                                             : join_output(left, right, l, r);
    for (const auto& flag : flags) {
      out.columns.push_back({flag.get(), false, nullptr});
      out.owned.push_back(flag);
    }
    const int right_flag = right.count == 0 ? -1 : static_cast<int>(out.columns.size() - flags.size());
    const int left_flag = left.count == 0 ? -1 : static_cast<int>(out.columns.size() - 1);  // with `full`: the last
    uint32_t error = 0;
    std::vector<std::pair<int, std::shared_ptr<HostColumn>>> values;
    auto extend = [&](const Relation& side, const std::vector<int>& columns, int flag) {
      for (int c : columns) {
        const ColumnRef& column = side.columns[c];
        const DataType type = column.rowid ? DataType::bigint() : column.column->type;
        BoundExpr e = null_extended(c, type, column.rowid ? nullptr : column.column->dictionary, flag);
        values.emplace_back(c, materialize(e, out, error, control_));
      }
    };
    extend(right, right_columns, right_flag);
    extend(left, left_columns, left_flag);
    throw_if_eval_error(error);
    out.columns.resize(out.columns.size() - flags.size());
    for (auto& [c, value] : values) {
      out.columns[c] = {value.get(), false, nullptr};
      out.owned.push_back(std::move(value));
    }
    return out;
  }

  Relation nested_loop_join(const PlanNode& node) {
    Relation left = run(*node.child), right = run(*node.right);
    if (static_cast<double>(left.count) * static_cast<double>(right.count) > 4e9)
      throw Error(ErrorKind::Execution, "a join without an equality would produce over 4 billion pairs");
    RowIds l, r;
    SlotMap slots;
    ExprProgram program;
    if (node.predicate) program = compile_expression(*node.predicate, slots);
    ColumnSet set = column_set(slots, left, &right);
    uint32_t error = 0;
    std::size_t reserved = 1 << 20;  // pairs already checked against the memory limit
    for (std::size_t i = 0; i < left.count; ++i) {
      control_.check_interrupt();
      for (std::size_t j = 0; j < right.count; ++j) {
        control_.check_at(j);
        if (evaluate_predicate(program, set, at(static_cast<int64_t>(i), static_cast<int64_t>(j)), error)) {
          l.push_back(static_cast<uint32_t>(i));
          r.push_back(static_cast<uint32_t>(j));
        }
      }
      if (l.size() > reserved) {
        control_.reserve_host_memory(l.size() * 4 * sizeof(uint32_t), "a join's output");
        reserved = 2 * l.size();
      }
    }
    throw_if_eval_error(error);
    return join_output(left, right, l, r);
  }

  // GROUP BY and aggregates. A Filter directly below is evaluated inline,
  // as the fused kernel does: without GROUP BY every input position keeps
  // its place in the reduction order (rejected ones as empty states).
  Relation aggregate(const PlanNode& node) {
    const PlanNode* source = node.child.get();
    const BoundExpr* predicate = nullptr;
    if (source->kind == PlanKind::Filter) {
      predicate = &*source->predicate;
      source = source->child.get();
    }
    Relation input = run(*source);
    SlotMap slots;
    ExprProgram filter_program;
    if (predicate) filter_program = compile_expression(*predicate, slots);
    std::vector<AggSpec> specs = compile_aggregates(node.aggregates, slots);
    std::vector<ExprProgram> key_programs;
    std::vector<Cls> key_classes;
    for (const auto& k : node.group_keys) {
      key_programs.push_back(compile_expression(k, slots));
      key_classes.push_back(compute_class(k.type));
    }
    ColumnSet set = column_set(slots, input);
    uint32_t error = 0;

    // Groups in order of first appearance, each with its ascending positions
    // (put in key order at the end when the plan asks for it).
    std::vector<RowIds> groups;
    if (node.group_keys.empty()) {
      groups.emplace_back();  // one group of every position, the filter inline
    } else {
      std::unordered_map<std::vector<int64_t>, std::size_t, KeyHash> index;
      for (std::size_t p = 0; p < input.count; ++p) {
        control_.check_at(p);
        if (!evaluate_predicate(filter_program, set, static_cast<int64_t>(p), error)) continue;
        std::vector<int64_t> key;
        for (std::size_t k = 0; k < key_programs.size(); ++k) {
          Slot s = evaluate(key_programs[k], set, static_cast<int64_t>(p), error);
          key.push_back(s.valid);
          key.push_back(s.valid ? key_bits(s, key_classes[k]) : 0);
        }
        auto [it, inserted] = index.emplace(std::move(key), groups.size());
        if (inserted) groups.emplace_back();
        groups[it->second].push_back(static_cast<uint32_t>(p));
      }
    }
    const bool global = node.group_keys.empty();
    const std::size_t group_count = groups.size();
    std::vector<std::shared_ptr<HostColumn>> columns;
    // Key columns: the key's value at the group's first position.
    for (std::size_t k = 0; k < node.group_keys.size(); ++k) {
      auto column = std::make_shared<HostColumn>(node.group_keys[k].type, group_count);
      column->dictionary = node.group_keys[k].dictionary;
      for (std::size_t g = 0; g < group_count; ++g) {
        Slot s = evaluate(key_programs[k], set, groups[g][0], error);
        store_value(column->bytes.data(), node.group_keys[k].type.storage(), static_cast<int64_t>(g), s);
        if (!s.valid) column->set_null(g);
      }
      columns.push_back(std::move(column));
    }
    for (std::size_t a = 0; a < specs.size(); ++a) {
      const AggSpec& spec = specs[a];
      const BoundAggregate& bound = node.aggregates[a];
      auto column = std::make_shared<HostColumn>(bound.type, group_count);
      column->dictionary = bound.dictionary;
      std::optional<ExprProgram> argument;
      if (bound.kind == AggKind::ArgMin || bound.kind == AggKind::ArgMax) {
        SlotMap arg_slots;
        argument = compile_expression(*bound.argument, arg_slots);
        // Evaluated below over the same input, with its own slots.
        ColumnSet arg_set = column_set(arg_slots, input);
        for (std::size_t g = 0; g < group_count; ++g) {
          AggState s = fold_group(spec, groups[g], global ? input.count : groups[g].size(), global, filter_program,
                                  set, error);
          Slot v{};
          if (s.count > 0) v = evaluate(*argument, arg_set, s.position, error);
          store_value(column->bytes.data(), bound.type.storage(), static_cast<int64_t>(g), v);
          if (s.count == 0 || !v.valid) column->set_null(g);
        }
      } else if (bound.kind == AggKind::CountDistinct) {
        for (std::size_t g = 0; g < group_count; ++g) {
          std::vector<int64_t> seen;
          std::size_t n = global ? input.count : groups[g].size();
          for (std::size_t i = 0; i < n; ++i) {
            int64_t p = global ? static_cast<int64_t>(i) : groups[g][i];
            if (global && !evaluate_predicate(filter_program, set, p, error)) continue;
            Slot v = evaluate(spec.arg, set, p, error);
            if (v.valid) seen.push_back(key_bits(v, spec.cls));
          }
          std::sort(seen.begin(), seen.end());
          AggState s;
          s.count = static_cast<uint64_t>(std::unique(seen.begin(), seen.end()) - seen.begin());
          store_aggregate_result(bound, s, *column, g, error);
        }
      } else {
        for (std::size_t g = 0; g < group_count; ++g) {
          AggState s = fold_group(spec, groups[g], global ? input.count : groups[g].size(), global, filter_program,
                                  set, error);
          store_aggregate_result(bound, s, *column, g, error);
        }
      }
      columns.push_back(std::move(column));
    }
    throw_if_eval_error(error);
    Relation grouped = from_columns(std::move(columns), group_count);
    // Numbered by first appearance here; the plan may want key order.
    return node.key_order ? sort(group_order(node.group_keys.size()), grouped) : grouped;
  }

  // One group's aggregate in the canonical order: positions of the whole
  // input (global aggregate, filter inline) or the group's own positions.
  AggState fold_group(const AggSpec& spec, const RowIds& positions, std::size_t n, bool global,
                             const ExprProgram& filter_program, const ColumnSet& set, uint32_t& error) {
    return reduce_sequence_host(
        spec.kind, spec.cls, n,
        [&](AggState& state, std::size_t i) {
          control_.check_at(i);
          int64_t p = global ? static_cast<int64_t>(i) : positions[i];
          if (global && !evaluate_predicate(filter_program, set, p, error)) return;
          Slot v{};
          if (spec.kind != AggKind::CountStar) v = evaluate(spec.arg, set, p, error);
          agg_fold_value(spec.kind, spec.cls, state, v, error, p);
        },
        error);
  }

  Relation distinct(const Relation& input) {
    std::vector<std::pair<SlotMap, ExprProgram>> programs;
    std::vector<ColumnSet> sets;
    std::vector<Cls> classes;
    for (std::size_t c = 0; c < input.columns.size(); ++c) {
      BoundExpr ref;
      ref.op = Op::Column;
      ref.column = static_cast<int>(c);
      const ColumnRef& col = input.columns[c];
      ref.type = col.rowid ? DataType::bigint() : col.column->type;
      for (const BoundExpr& part : order_parts(ref)) {
        SlotMap slots;
        ExprProgram p = compile_expression(part, slots);
        sets.push_back(column_set(slots, input));
        classes.push_back(compute_class(part.type));
        programs.emplace_back(std::move(slots), p);
      }
    }
    std::unordered_map<std::vector<int64_t>, bool, KeyHash> seen;
    RowIds keep;
    uint32_t error = 0;
    for (std::size_t p = 0; p < input.count; ++p) {
      control_.check_at(p);
      std::vector<int64_t> key;
      for (std::size_t c = 0; c < programs.size(); ++c) {
        Slot s = evaluate(programs[c].second, sets[c], static_cast<int64_t>(p), error);
        key.push_back(s.valid);
        key.push_back(s.valid ? key_bits(s, classes[c]) : 0);
      }
      if (seen.emplace(std::move(key), true).second) keep.push_back(static_cast<uint32_t>(p));
    }
    return compose(input, keep, control_);
  }

  Relation sort(const std::vector<SortKey>& sort_keys, const Relation& input) {
    struct Key {
      std::vector<Slot> values;
      Cls cls;
      bool descending, nulls_first;
    };
    std::vector<Key> keys;
    uint32_t error = 0;
    for (const auto& k : sort_keys) {
      const ColumnRef& col = input.columns[k.column];
      BoundExpr ref;
      ref.op = Op::Column;
      ref.column = k.column;
      ref.type = col.rowid ? DataType::bigint() : col.column->type;
      for (const BoundExpr& part : order_parts(ref)) {
        SlotMap slots;
        ExprProgram program = compile_expression(part, slots);
        ColumnSet set = column_set(slots, input);
        Key key{{}, compute_class(part.type), k.descending, k.nulls_first};
        control_.reserve_host_memory(input.count * sizeof(Slot), "a sort's keys");
        for (std::size_t p = 0; p < input.count; ++p) {
          control_.check_at(p);
          key.values.push_back(evaluate(program, set, static_cast<int64_t>(p), error));
        }
        keys.push_back(std::move(key));
      }
    }
    RowIds order(input.count);
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<uint32_t>(i);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      control_.check_interrupt();
      for (const Key& k : keys) {
        const Slot &x = k.values[a], &y = k.values[b];
        if (!x.valid || !y.valid) {
          if (x.valid == y.valid) continue;
          return x.valid != k.nulls_first;  // the valid one first unless NULLS FIRST
        }
        // NaN sorts after every other double, all NaNs alike (a strict weak order).
        int c = k.cls == Cls::Double ? ((x.d != x.d) || (y.d != y.d) ? (x.d != x.d) - (y.d != y.d)
                                        : x.d < y.d                    ? -1
                                        : x.d > y.d                    ? 1
                                                                       : 0)
                                     : (x.i < y.i ? -1 : x.i > y.i ? 1 : 0);
        if (c != 0) return k.descending ? c > 0 : c < 0;
      }
      return false;
    });
    return compose(input, order, control_);
  }
};

}  // namespace

std::unique_ptr<Executor> make_host_executor(const QueryControl& control) {
  return std::make_unique<HostExecutor>(control);
}

}  // namespace gpusql
