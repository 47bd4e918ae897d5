// The host backend: plain C++ over host columns. It is the reference the
// CUDA backend is tested against and the engine without a GPU. It follows
// the kernels' conventions wherever the answer could depend on them: the
// reduction order of aggregates (core/aggregate_state.hpp), join output
// order (by left position, then right), group order (by first appearance),
// stable sorts.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <unordered_map>

#include "execution/compute_backend.hpp"
#include "kernels/join_pairs.hpp"
#include "storage/result_table.hpp"
#include "storage/table.hpp"

namespace gpusql {
namespace {

using RowIds = std::vector<uint32_t>;

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

ColumnView view_of(const std::shared_ptr<HostColumn>& column) {
  ColumnView v;
  v.data = column->bytes.data();
  v.validity = column->has_nulls() ? column->validity.data() : nullptr;
  v.type = column->type;
  v.present = true;
  v.dictionary = column->dictionary;
  return v;
}

// A chunk of `columns` (which it owns), read position for position.
Chunk from_columns(std::vector<std::shared_ptr<HostColumn>> columns, std::size_t count) {
  Chunk c;
  c.count = count;
  c.space = MemorySpace::Host;
  for (auto& column : columns) {
    c.columns.push_back(view_of(column));
    c.owned.push_back(std::move(column));
  }
  return c;
}

class WallTimer final : public StageTimer {
 public:
  void start() override { start_ = std::chrono::steady_clock::now(); }
  double stop_milliseconds() override {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

class HostBackend final : public ComputeBackend {
 public:
  explicit HostBackend(const QueryControl& control) : control_(control) {}

  MemorySpace space() const override { return MemorySpace::Host; }
  std::string name() const override { return "host"; }
  // Errors are thrown where they happen.
  void begin_query() override {}
  void end_stage() override {}
  void check_errors() override {}
  std::unique_ptr<StageTimer> timer() override { return std::make_unique<WallTimer>(); }

  Chunk scan(const Table& table, int first_column, int column_count, std::size_t begin, std::size_t end) override {
    Chunk c;
    c.space = MemorySpace::Host;
    c.columns.resize(column_count);
    PositionsPtr rows = begin == 0 && end == table.rows ? nullptr : sequence(begin, end - begin);
    for (std::size_t i = 0; i < table.host.size(); ++i) {
      const HostColumn& h = table.host[i];
      ColumnView& v = c.columns[first_column + i];
      v.data = h.bytes.data();
      v.validity = h.has_nulls() ? h.validity.data() : nullptr;
      v.type = h.type;
      v.present = true;
      v.rows = rows;
      v.dictionary = h.dictionary;
    }
    ColumnView& rowid = c.columns[first_column + table.host.size()];
    rowid.rowid = true;
    rowid.present = true;
    rowid.type = DataType::bigint();
    rowid.rows = rows;
    c.count = end - begin;
    return c;
  }

  Chunk from_host(std::vector<HostColumn> columns, std::size_t rows) override {
    std::vector<std::shared_ptr<HostColumn>> owned;
    for (HostColumn& column : columns) owned.push_back(std::make_shared<HostColumn>(std::move(column)));
    return from_columns(std::move(owned), rows);
  }

  PositionsPtr select(const Chunk& input, const BoundExpr& predicate) override {
    SlotMap slots;
    ExprProgram program = compile_expression(predicate, slots);
    ColumnSet set = columns_of(slots, input);
    RowIds positions;
    uint32_t error = 0;
    for (std::size_t p = 0; p < input.count; ++p) {
      control_.check_at(p);
      if (evaluate_predicate(program, set, static_cast<int64_t>(p), error)) positions.push_back(static_cast<uint32_t>(p));
    }
    throw_if_eval_error(error);
    return std::make_shared<Positions>(std::move(positions));
  }

  PositionsPtr gather(const Positions& rows, const Positions& positions) override {
    control_.reserve_host_memory(positions.size() * sizeof(uint32_t), "an operator's output rows");
    RowIds out(positions.size());
    const uint32_t* from = rows.data();
    const uint32_t* at = positions.data();
    for (std::size_t i = 0; i < out.size(); ++i) {
      control_.check_at(i);
      out[i] = from[at[i]];
    }
    return std::make_shared<Positions>(std::move(out));
  }

  PositionsPtr sequence(std::size_t begin, std::size_t count) override {
    RowIds out(count);
    for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<uint32_t>(begin + i);
    return std::make_shared<Positions>(std::move(out));
  }

  PositionsPtr distinct(const Chunk& input) override {
    std::vector<std::pair<SlotMap, ExprProgram>> programs;
    std::vector<ColumnSet> sets;
    std::vector<Cls> classes;
    for (std::size_t c = 0; c < input.columns.size(); ++c) {
      if (!input.columns[c].present) continue;
      for (const BoundExpr& part : order_parts(column_ref(input, c))) {
        SlotMap slots;
        ExprProgram p = compile_expression(part, slots);
        sets.push_back(columns_of(slots, input));
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
        Slot s = gpusql::evaluate(programs[c].second, sets[c], static_cast<int64_t>(p), error);
        key.push_back(s.valid);
        key.push_back(s.valid ? key_bits(s, classes[c]) : 0);
      }
      if (seen.emplace(std::move(key), true).second) keep.push_back(static_cast<uint32_t>(p));
    }
    throw_if_eval_error(error);
    return std::make_shared<Positions>(std::move(keep));
  }

  PositionsPtr order(const Chunk& input, const std::vector<SortKey>& sort_keys,
                     std::optional<std::size_t> limit) override {
    struct Key {
      std::vector<Slot> values;
      Cls cls;
      bool descending, nulls_first;
    };
    std::vector<Key> keys;
    uint32_t error = 0;
    for (const auto& k : sort_keys) {
      for (const BoundExpr& part : order_parts(column_ref(input, k.column))) {
        SlotMap slots;
        ExprProgram program = compile_expression(part, slots);
        ColumnSet set = columns_of(slots, input);
        Key key{{}, compute_class(part.type), k.descending, k.nulls_first};
        control_.reserve_host_memory(input.count * sizeof(Slot), "a sort's keys");
        for (std::size_t p = 0; p < input.count; ++p) {
          control_.check_at(p);
          key.values.push_back(gpusql::evaluate(program, set, static_cast<int64_t>(p), error));
        }
        keys.push_back(std::move(key));
      }
    }
    throw_if_eval_error(error);
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
    if (limit && *limit < order.size()) order.resize(*limit);
    return std::make_shared<Positions>(std::move(order));
  }

  Chunk evaluate(const Chunk& input, const std::vector<BoundExpr>& expressions) override {
    uint32_t error = 0;
    std::vector<std::shared_ptr<HostColumn>> columns;
    for (const BoundExpr& e : expressions) columns.push_back(materialize(e, input, error));
    throw_if_eval_error(error);
    return from_columns(std::move(columns), input.count);
  }

  Chunk concatenate(const std::vector<Chunk>& chunks) override {
    std::size_t total = 0;
    for (const Chunk& c : chunks) total += c.count;
    const Chunk& first = chunks.front();
    Chunk out;
    out.space = MemorySpace::Host;
    out.count = total;
    out.columns.resize(first.columns.size());
    uint32_t error = 0;
    for (std::size_t c = 0; c < first.columns.size(); ++c) {
      if (!first.columns[c].present) continue;
      const BoundExpr ref = column_ref(first, c);
      control_.reserve_host_memory(total * ref.type.width() + total / 8, "a sink's input");
      auto column = std::make_shared<HostColumn>(ref.type, total);
      column->dictionary = ref.dictionary;
      std::size_t at = 0;
      for (const Chunk& chunk : chunks) {
        std::shared_ptr<HostColumn> part = materialize(column_ref(chunk, c), chunk, error);
        if (!part->bytes.empty())
          std::memcpy(column->bytes.data() + at * ref.type.width(), part->bytes.data(), part->bytes.size());
        for (std::size_t i = 0; i < chunk.count; ++i)
          if (!part->is_valid(i)) column->set_null(at + i);
        at += chunk.count;
      }
      out.columns[c] = view_of(column);
      out.owned.push_back(std::move(column));
    }
    throw_if_eval_error(error);
    return out;
  }

  std::vector<HostColumn> to_host(const Chunk& input, std::size_t count) override {
    uint32_t error = 0;
    std::vector<HostColumn> columns;
    for (std::size_t c = 0; c < count; ++c) columns.push_back(std::move(*materialize(column_ref(input, c), input, error)));
    throw_if_eval_error(error);
    return columns;
  }

  std::shared_ptr<Table> to_table(Chunk input, const std::vector<std::string>& names, std::string name) override {
    ResultData result;
    result.names = names;
    result.columns = to_host(input, names.size());
    result.rows = input.count;
    narrow_wide_decimals(result);
    return table_from_result(std::move(name), result);
  }

  JoinPositions hash_join(const Chunk& left, const Chunk& right, const HashJoinSpec& spec) override {
    std::vector<const BoundExpr*> left_keys, right_keys;
    for (const auto& k : *spec.keys) {
      left_keys.push_back(&k.left);
      right_keys.push_back(&k.right);
    }
    auto lk = keys_of(left, left_keys), rk = keys_of(right, right_keys);
    const auto& build = spec.build_right ? rk : lk;
    const auto& probe = spec.build_right ? lk : rk;
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
    const bool probe_outer = spec.left_outer && spec.build_right;
    const bool build_outer = spec.full_outer || (spec.left_outer && !spec.build_right);
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
        pairs.push_back(spec.build_right ? std::make_pair(static_cast<uint32_t>(p), b)
                                         : std::make_pair(b, static_cast<uint32_t>(p)));
        if (build_outer) build_matched[b] = 1;
      }
    }
    for (std::size_t b = 0; b < build_matched.size(); ++b)
      if (!build_matched[b])
        pairs.push_back(spec.build_right ? std::make_pair(kernels::kNoMatch, static_cast<uint32_t>(b))
                                         : std::make_pair(static_cast<uint32_t>(b), kernels::kNoMatch));
    std::sort(pairs.begin(), pairs.end(), [this](const auto& a, const auto& b) {
      control_.check_interrupt();
      return a < b;
    });
    return split_pairs(pairs);
  }

  JoinPositions nested_loop_join(const Chunk& left, const Chunk& right, const BoundExpr* condition) override {
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    SlotMap slots;
    ExprProgram program;
    if (condition) program = compile_expression(*condition, slots);
    ColumnSet set = columns_of(slots, left, &right);
    uint32_t error = 0;
    std::size_t reserved = 1 << 20;  // pairs already checked against the memory limit
    for (std::size_t i = 0; i < left.count; ++i) {
      control_.check_interrupt();
      for (std::size_t j = 0; j < right.count; ++j) {
        control_.check_at(j);
        if (evaluate_predicate(program, set, at(static_cast<int64_t>(i), static_cast<int64_t>(j)), error))
          pairs.push_back({static_cast<uint32_t>(i), static_cast<uint32_t>(j)});
      }
      if (pairs.size() > reserved) {
        control_.reserve_host_memory(pairs.size() * 4 * sizeof(uint32_t), "a join's output");
        reserved = 2 * pairs.size();
      }
    }
    throw_if_eval_error(error);
    return split_pairs(pairs);
  }

  Chunk matched_flags(Positions& positions) override {
    auto matched = std::make_shared<HostColumn>(DataType::boolean(), positions.size());
    uint32_t* ids = positions.mutable_data();
    for (std::size_t i = 0; i < positions.size(); ++i) {
      const bool found = ids[i] != kernels::kNoMatch;
      matched->values<uint8_t>()[i] = found;
      if (!found) ids[i] = 0;
    }
    return from_columns({matched}, positions.size());
  }

  // Groups in order of first appearance, each with its ascending positions.
  GroupedChunk group_aggregate(const Chunk& input, const std::vector<BoundExpr>& keys,
                               const std::vector<BoundAggregate>& aggregates) override {
    SlotMap slots;
    std::vector<AggSpec> specs = compile_aggregates(aggregates, slots);
    std::vector<ExprProgram> key_programs;
    std::vector<Cls> key_classes;
    for (const auto& k : keys) {
      key_programs.push_back(compile_expression(k, slots));
      key_classes.push_back(compute_class(k.type));
    }
    ColumnSet set = columns_of(slots, input);
    uint32_t error = 0;
    std::vector<RowIds> groups;
    std::unordered_map<std::vector<int64_t>, std::size_t, KeyHash> index;
    for (std::size_t p = 0; p < input.count; ++p) {
      control_.check_at(p);
      std::vector<int64_t> key;
      for (std::size_t k = 0; k < key_programs.size(); ++k) {
        Slot s = gpusql::evaluate(key_programs[k], set, static_cast<int64_t>(p), error);
        key.push_back(s.valid);
        key.push_back(s.valid ? key_bits(s, key_classes[k]) : 0);
      }
      auto [it, inserted] = index.emplace(std::move(key), groups.size());
      if (inserted) groups.emplace_back();
      groups[it->second].push_back(static_cast<uint32_t>(p));
    }
    const std::size_t group_count = groups.size();
    std::vector<std::shared_ptr<HostColumn>> columns;
    // Key columns: the key's value at the group's first position.
    for (std::size_t k = 0; k < keys.size(); ++k) {
      auto column = std::make_shared<HostColumn>(keys[k].type, group_count);
      column->dictionary = keys[k].dictionary;
      for (std::size_t g = 0; g < group_count; ++g) {
        Slot s = gpusql::evaluate(key_programs[k], set, groups[g][0], error);
        store_value(column->bytes.data(), keys[k].type.storage(), static_cast<int64_t>(g), s);
        if (!s.valid) column->set_null(g);
      }
      columns.push_back(std::move(column));
    }
    for (std::size_t a = 0; a < specs.size(); ++a)
      columns.push_back(aggregate_column(specs[a], aggregates[a], input, set, groups, nullptr, error));
    throw_if_eval_error(error);
    return {from_columns(std::move(columns), group_count), false};
  }

  Chunk aggregate(const Chunk& input, const BoundExpr* filter, const std::vector<BoundAggregate>& aggregates) override {
    SlotMap slots;
    ExprProgram filter_program;
    if (filter) filter_program = compile_expression(*filter, slots);
    std::vector<AggSpec> specs = compile_aggregates(aggregates, slots);
    ColumnSet set = columns_of(slots, input);
    uint32_t error = 0;
    std::vector<std::shared_ptr<HostColumn>> columns;
    for (std::size_t a = 0; a < specs.size(); ++a)
      columns.push_back(aggregate_column(specs[a], aggregates[a], input, set, {}, &filter_program, error));
    throw_if_eval_error(error);
    return from_columns(std::move(columns), 1);
  }

 private:
  const QueryControl& control_;

  ColumnSet columns_of(const SlotMap& slots, const Chunk& input, const Chunk* right = nullptr) const {
    return column_set(slots, input, right,
                      [](const std::shared_ptr<const LookupTable>& table) { return host_pointer(*table); });
  }

  // Evaluates `expr` at every position into a new column.
  std::shared_ptr<HostColumn> materialize(const BoundExpr& expr, const Chunk& input, uint32_t& error) {
    SlotMap slots;
    ExprProgram program = compile_expression(expr, slots);
    ColumnSet set = columns_of(slots, input);
    control_.reserve_host_memory(input.count * expr.type.width() + input.count / 8, "a computed column");
    auto out = std::make_shared<HostColumn>(expr.type, input.count);
    out->dictionary = expr.dictionary;
    for (std::size_t p = 0; p < input.count; ++p) {
      control_.check_at(p);
      int64_t high = 0;
      Slot s = evaluate_to(program, set, static_cast<int64_t>(p), error, high);
      store_value(out->bytes.data(), expr.type.storage(), static_cast<int64_t>(p), s, high);
      if (!s.valid) out->set_null(p);
    }
    return out;
  }

  // Keys of each position; nullopt where a key is NULL (it matches nothing).
  std::vector<std::optional<std::vector<int64_t>>> keys_of(const Chunk& input,
                                                           const std::vector<const BoundExpr*>& keys) {
    std::vector<ExprProgram> programs;
    std::vector<Cls> classes;
    SlotMap slots;
    for (const BoundExpr* k : keys) {
      programs.push_back(compile_expression(*k, slots));
      classes.push_back(compute_class(k->type));
    }
    ColumnSet set = columns_of(slots, input);
    control_.reserve_host_memory(input.count * (sizeof(std::optional<std::vector<int64_t>>) + 16 + 8 * keys.size()),
                                 "a join's keys");
    std::vector<std::optional<std::vector<int64_t>>> out(input.count);
    uint32_t error = 0;
    for (std::size_t p = 0; p < input.count; ++p) {
      control_.check_at(p);
      std::vector<int64_t> key;
      bool valid = true;
      for (std::size_t k = 0; k < programs.size() && valid; ++k) {
        Slot s = gpusql::evaluate(programs[k], set, static_cast<int64_t>(p), error);
        valid = s.valid;
        key.push_back(key_bits(s, classes[k]));
      }
      if (valid) out[p] = std::move(key);
    }
    throw_if_eval_error(error);
    return out;
  }

  JoinPositions split_pairs(const std::vector<std::pair<uint32_t, uint32_t>>& pairs) {
    RowIds l(pairs.size()), r(pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) std::tie(l[i], r[i]) = pairs[i];
    JoinPositions out;
    out.count = pairs.size();
    out.left = std::make_shared<Positions>(std::move(l));
    out.right = std::make_shared<Positions>(std::move(r));
    return out;
  }

  // One aggregate's column, a row per group: over each group's positions
  // (`groups`), or over every position as one group (`filter`: the fused
  // filter, its rejected positions kept as empty states).
  std::shared_ptr<HostColumn> aggregate_column(const AggSpec& spec, const BoundAggregate& bound, const Chunk& input,
                                               const ColumnSet& set, const std::vector<RowIds>& groups,
                                               const ExprProgram* filter, uint32_t& error) {
    const bool global = filter != nullptr;
    const std::size_t group_count = global ? 1 : groups.size();
    static const RowIds kNone;
    auto positions_of = [&](std::size_t g) -> const RowIds& { return global ? kNone : groups[g]; };
    auto column = std::make_shared<HostColumn>(bound.type, group_count);
    column->dictionary = bound.dictionary;
    if (bound.kind == AggKind::ArgMin || bound.kind == AggKind::ArgMax) {
      // The argument, evaluated at the winning position with its own slots.
      SlotMap arg_slots;
      const ExprProgram argument = compile_expression(*bound.argument, arg_slots);
      const ColumnSet arg_set = columns_of(arg_slots, input);
      for (std::size_t g = 0; g < group_count; ++g) {
        AggState s = fold_group(spec, positions_of(g), input.count, filter, set, error);
        Slot v{};
        if (s.count > 0) v = gpusql::evaluate(argument, arg_set, s.position, error);
        store_value(column->bytes.data(), bound.type.storage(), static_cast<int64_t>(g), v);
        if (s.count == 0 || !v.valid) column->set_null(g);
      }
    } else if (bound.kind == AggKind::CountDistinct) {
      for (std::size_t g = 0; g < group_count; ++g) {
        std::vector<int64_t> seen;
        const std::size_t n = global ? input.count : groups[g].size();
        for (std::size_t i = 0; i < n; ++i) {
          const int64_t p = global ? static_cast<int64_t>(i) : groups[g][i];
          if (global && !evaluate_predicate(*filter, set, p, error)) continue;
          Slot v = gpusql::evaluate(spec.arg, set, p, error);
          if (v.valid) seen.push_back(key_bits(v, spec.cls));
        }
        std::sort(seen.begin(), seen.end());
        AggState s;
        s.count = static_cast<uint64_t>(std::unique(seen.begin(), seen.end()) - seen.begin());
        store_aggregate_result(bound, s, *column, g, error);
      }
    } else {
      for (std::size_t g = 0; g < group_count; ++g)
        store_aggregate_result(bound, fold_group(spec, positions_of(g), input.count, filter, set, error), *column, g,
                               error);
    }
    return column;
  }

  // One group's aggregate in the canonical order: the group's own positions,
  // or (with `filter`) every position of the input, the filter inline.
  AggState fold_group(const AggSpec& spec, const RowIds& positions, std::size_t input_count, const ExprProgram* filter,
                      const ColumnSet& set, uint32_t& error) {
    const bool global = filter != nullptr;
    return reduce_sequence_host(
        spec.kind, spec.cls, global ? input_count : positions.size(),
        [&](AggState& state, std::size_t i) {
          control_.check_at(i);
          int64_t p = global ? static_cast<int64_t>(i) : positions[i];
          if (global && !evaluate_predicate(*filter, set, p, error)) return;
          Slot v{};
          if (spec.kind != AggKind::CountStar) v = gpusql::evaluate(spec.arg, set, p, error);
          agg_fold_value(spec.kind, spec.cls, state, v, error, p);
        },
        error);
  }
};

}  // namespace

std::unique_ptr<ComputeBackend> make_host_backend(const QueryControl& control) {
  return std::make_unique<HostBackend>(control);
}

}  // namespace gpusql
