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
#include <span>

#include "execution/compute_backend.hpp"
#include "execution/host_key_index.hpp"
#include "kernels/join_pairs.hpp"
#include "storage/parallel_tasks.hpp"
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

ColumnView view_of(const std::shared_ptr<HostColumn>& column) {
  return ColumnView::dense(column->bytes.data(), column->has_nulls() ? column->validity.data() : nullptr, column->type,
                           column->dictionary);
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

// Work is cut into consecutive slices of at least kGrain positions, each on
// a core of its own (a smaller input runs on the caller's thread): enough
// work that starting the threads costs a few percent at most.
constexpr std::size_t kGrain = std::size_t{1} << 15;

struct Slices {
  std::size_t count = 1;
  std::size_t step = 0;
  std::size_t begin(std::size_t i) const { return i * step; }
};

// The slices of [0, n), each a multiple of `align` positions but the last,
// of at least `grain` items.
Slices slices_of(std::size_t threads, std::size_t n, std::size_t align = 1, std::size_t grain = kGrain) {
  Slices s;
  s.count = std::min(threads, std::max<std::size_t>(1, n / grain));
  s.step = (n + s.count - 1) / s.count;
  s.step = std::max<std::size_t>(align, (s.step + align - 1) / align * align);
  s.count = std::max<std::size_t>(1, (n + s.step - 1) / s.step);
  return s;
}

// f(slice, begin, end, error) for each slice of [0, n), in parallel; each
// slice's error bits ORed into `error` (the bits are the same in any order).
template <class F>
void run_slices(const Slices& slices, std::size_t n, uint32_t& error, F&& f) {
  std::vector<uint32_t> errors(slices.count);
  parallel_for_workers(slices.count, slices.count, [&](std::size_t i, std::size_t) {
    f(i, std::min(n, slices.begin(i)), std::min(n, slices.begin(i + 1)), errors[i]);
  });
  for (uint32_t e : errors) error |= e;
}

template <class T>
std::vector<T> concatenated(std::vector<std::vector<T>>& parts) {
  if (parts.size() == 1) return std::move(parts[0]);
  std::size_t total = 0;
  for (const auto& p : parts) total += p.size();
  std::vector<T> out;
  out.reserve(total);
  for (auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// Groups of equal keys, each with its ascending positions, numbered by
// first appearance.
struct GroupNumbers {
  std::vector<RowIds> groups;
};

// A join's build side: each distinct key's positions, ascending, in one
// array (key g's: rows[offsets[g], offsets[g + 1])).
struct HostJoinTable final : JoinBuild {
  FlatKeys keys;
  KeyIndex index;
  std::vector<uint32_t> offsets, rows;
  std::size_t count = 0;
};

// A probe position's matches in a HostJoinTable; empty: none.
using Match = std::span<const uint32_t>;

// Each JoinKey's left (or right) expression.
std::vector<const BoundExpr*> key_side(const std::vector<JoinKey>& keys, bool left) {
  std::vector<const BoundExpr*> side;
  for (const JoinKey& k : keys) side.push_back(left ? &k.left : &k.right);
  return side;
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
  void configure(const Settings& settings) override {
    threads_ = settings.threads ? settings.threads : hardware_threads();
  }
  // Errors are thrown where they happen.
  void begin_query() override {}
  void end_stage() override {}
  void check_errors() override {}
  std::unique_ptr<StageTimer> timer() override { return std::make_unique<WallTimer>(); }

  Chunk scan(const Table& table, int first_column, int column_count, std::size_t begin, std::size_t end) override {
    std::vector<ColumnView> columns;
    for (std::size_t c = 0; c < table.host.size(); ++c) {
      const HostColumn* h = table.scan_column(c);
      columns.push_back(h ? ColumnView::dense(h->bytes.data(), h->has_nulls() ? h->validity.data() : nullptr, h->type,
                                              h->dictionary)
                          : ColumnView{});
    }
    PositionsPtr rows = begin == 0 && end == table.rows ? nullptr : sequence(begin, end - begin);
    return scan_chunk(std::move(columns), first_column, column_count, std::move(rows), end - begin, MemorySpace::Host);
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
    const Slices slices = cut(input.count);
    std::vector<RowIds> parts(slices.count);
    uint32_t error = 0;
    run_slices(slices, input.count, error, [&](std::size_t i, std::size_t begin, std::size_t end, uint32_t& e) {
      for (std::size_t p = begin; p < end; ++p) {
        control_.check_at(p);
        if (evaluate_predicate(program, set, static_cast<int64_t>(p), e)) parts[i].push_back(static_cast<uint32_t>(p));
      }
    });
    throw_if_eval_error(error);
    return std::make_shared<Positions>(concatenated(parts));
  }

  PositionsPtr gather(const Positions& rows, const Positions& positions) override {
    control_.reserve_host_memory(positions.size() * sizeof(uint32_t), "an operator's output rows");
    RowIds out(positions.size());
    const uint32_t* from = rows.data();
    const uint32_t* at = positions.data();
    uint32_t error = 0;
    run_slices(cut(out.size()), out.size(), error, [&](std::size_t, std::size_t begin, std::size_t end, uint32_t&) {
      for (std::size_t i = begin; i < end; ++i) {
        control_.check_at(i);
        out[i] = from[at[i]];
      }
    });
    return std::make_shared<Positions>(std::move(out));
  }

  PositionsPtr sequence(std::size_t begin, std::size_t count) override {
    RowIds out(count);
    for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<uint32_t>(begin + i);
    return std::make_shared<Positions>(std::move(out));
  }

  PositionsPtr distinct(const Chunk& input) override {
    std::vector<const BoundExpr*> parts;
    std::vector<BoundExpr> owned;
    for (std::size_t c = 0; c < input.columns.size(); ++c)
      if (input.columns[c].present)
        for (BoundExpr& part : order_parts(column_ref(input, c))) owned.push_back(std::move(part));
    for (const BoundExpr& part : owned) parts.push_back(&part);
    const GroupNumbers numbers = number_groups(input, parts);
    RowIds keep;
    keep.reserve(numbers.groups.size());
    for (const RowIds& group : numbers.groups) keep.push_back(group[0]);
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
        key.values.resize(input.count);
        run_slices(cut(input.count), input.count, error,
                   [&](std::size_t, std::size_t begin, std::size_t end, uint32_t& e) {
                     for (std::size_t p = begin; p < end; ++p) {
                       control_.check_at(p);
                       key.values[p] = gpusql::evaluate(program, set, static_cast<int64_t>(p), e);
                     }
                   });
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
    const Chunk& build_side = spec.build_right ? right : left;
    const HostJoinTable build = build_table(build_side, *spec.keys, spec.build_right);
    const FlatKeys probe = keys_of(spec.build_right ? left : right, key_side(*spec.keys, spec.build_right), false);
    // Counted first, so the pairs are reserved against the memory limit
    // before a runaway join allocates them.
    // The unmatched rows an outer join keeps (kernels/hash_join.hpp): the
    // probe side's when that is the left, the build side's for a FULL JOIN
    // (its right side) or a LEFT JOIN that built its left side.
    const bool probe_outer = spec.left_outer && spec.build_right;
    const bool build_outer = spec.full_outer || (spec.left_outer && !spec.build_right);
    const std::vector<Match> matches = match(build, probe);
    std::size_t pair_count = 0;
    for (const Match& m : matches) pair_count += !m.empty() ? m.size() : probe_outer ? 1 : 0;
    if (build_outer) pair_count += build.count;  // at most
    control_.reserve_host_memory(pair_count * 4 * sizeof(uint32_t), "a join's output");
    std::vector<std::pair<uint32_t, uint32_t>> pairs;  // (left, right)
    pairs.reserve(pair_count);
    std::vector<uint8_t> build_matched(build_outer ? build.count : 0);
    for (std::size_t p = 0; p < probe.size(); ++p) {
      control_.check_at(p);
      if (matches[p].empty()) {
        if (probe_outer) pairs.push_back({static_cast<uint32_t>(p), kernels::kNoMatch});
        continue;
      }
      for (uint32_t b : matches[p]) {
        pairs.push_back(spec.build_right ? std::make_pair(static_cast<uint32_t>(p), b)
                                         : std::make_pair(b, static_cast<uint32_t>(p)));
        if (build_outer) build_matched[b] = 1;
      }
    }
    for (std::size_t b = 0; b < build_matched.size(); ++b)
      if (!build_matched[b])
        pairs.push_back(spec.build_right ? std::make_pair(kernels::kNoMatch, static_cast<uint32_t>(b))
                                         : std::make_pair(static_cast<uint32_t>(b), kernels::kNoMatch));
    if (!spec.build_right || build_outer)  // else they come in (left, right) order
      std::sort(pairs.begin(), pairs.end(), [this](const auto& a, const auto& b) {
        control_.check_interrupt();
        return a < b;
      });
    return split_pairs(pairs);
  }

  std::unique_ptr<JoinBuild> build_join(const Chunk& build, const std::vector<JoinKey>& keys) override {
    return std::make_unique<HostJoinTable>(build_table(build, keys, true));
  }

  // Probe positions ascending, each one's matches ascending: (left, right)
  // order as it comes.
  JoinPositions probe_join(const JoinBuild& build, const Chunk& probe, const std::vector<JoinKey>& keys,
                           bool left_outer) override {
    const auto& table = static_cast<const HostJoinTable&>(build);
    const std::vector<Match> matches = match(table, keys_of(probe, key_side(keys, true), false));
    std::size_t pair_count = 0;
    for (const Match& m : matches) pair_count += !m.empty() ? m.size() : left_outer ? 1 : 0;
    control_.reserve_host_memory(pair_count * 4 * sizeof(uint32_t), "a join's output");
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    pairs.reserve(pair_count);
    for (std::size_t p = 0; p < matches.size(); ++p) {
      control_.check_at(p);
      if (matches[p].empty()) {
        if (left_outer) pairs.push_back({static_cast<uint32_t>(p), kernels::kNoMatch});
        continue;
      }
      for (uint32_t b : matches[p]) pairs.push_back({static_cast<uint32_t>(p), b});
    }
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
    std::vector<const BoundExpr*> key_parts;
    for (const BoundExpr& k : keys) key_parts.push_back(&k);
    const GroupNumbers numbers = number_groups(input, key_parts);
    const std::vector<RowIds>& groups = numbers.groups;
    const std::size_t group_count = groups.size();
    uint32_t error = 0;
    std::vector<std::shared_ptr<HostColumn>> columns;
    // Key columns: the key's value at the group's first position.
    for (const BoundExpr& key : keys) {
      RowIds first(group_count);
      for (std::size_t g = 0; g < group_count; ++g) first[g] = groups[g][0];
      columns.push_back(materialize(key, compose(*this, input, std::make_shared<Positions>(std::move(first))), error));
    }
    SlotMap slots;
    std::vector<AggSpec> specs = compile_aggregates(aggregates, slots);
    ColumnSet set = columns_of(slots, input);
    for (std::size_t a = 0; a < specs.size(); ++a)
      columns.push_back(aggregate_column(specs[a], aggregates[a], input, set, &groups, nullptr, error));
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
      columns.push_back(aggregate_column(specs[a], aggregates[a], input, set, nullptr, &filter_program, error));
    throw_if_eval_error(error);
    return from_columns(std::move(columns), 1);
  }

 private:
  const QueryControl& control_;
  std::size_t threads_ = hardware_threads();

  Slices cut(std::size_t n, std::size_t align = 1, std::size_t grain = kGrain) const {
    return slices_of(threads_, n, align, grain);
  }

  ColumnSet columns_of(const SlotMap& slots, const Chunk& input, const Chunk* right = nullptr) const {
    return column_set(slots, input, right,
                      [](const std::shared_ptr<const LookupTable>& table) { return host_pointer(*table); });
  }

  // Evaluates `expr` at every position into a new column: slices of whole
  // validity words, so each slice writes its own.
  std::shared_ptr<HostColumn> materialize(const BoundExpr& expr, const Chunk& input, uint32_t& error) {
    SlotMap slots;
    ExprProgram program = compile_expression(expr, slots);
    ColumnSet set = columns_of(slots, input);
    const std::size_t n = input.count;
    control_.reserve_host_memory(n * expr.type.width() + n / 8, "a computed column");
    auto out = std::make_shared<HostColumn>(expr.type, n);
    out->dictionary = expr.dictionary;
    out->validity.assign(validity_words(n), ~0u);
    if (n % 32) out->validity.back() = (1u << (n % 32)) - 1;  // as HostColumn::set_null() makes it
    const Slices slices = cut(n, 32);
    std::vector<uint8_t> nulls(slices.count);
    run_slices(slices, n, error, [&](std::size_t i, std::size_t begin, std::size_t end, uint32_t& e) {
      for (std::size_t p = begin; p < end; ++p) {
        control_.check_at(p);
        int64_t high = 0;
        Slot s = gpusql::evaluate_to(program, set, static_cast<int64_t>(p), e, high);
        store_value(out->bytes.data(), expr.type.storage(), static_cast<int64_t>(p), s, high);
        if (!s.valid) {
          out->validity[p / 32] &= ~(1u << (p % 32));
          nulls[i] = 1;
        }
      }
    });
    if (std::find(nulls.begin(), nulls.end(), 1) == nulls.end()) out->validity.clear();
    return out;
  }

  // The hash table of `build`'s keys (each JoinKey's right, or its left).
  HostJoinTable build_table(const Chunk& build, const std::vector<JoinKey>& keys, bool right) {
    HostJoinTable table;
    table.keys = keys_of(build, key_side(keys, !right), false);
    table.count = table.keys.size();
    control_.reserve_host_memory(table.count * 3 * sizeof(uint32_t), "a join's hash table");
    std::vector<uint32_t> number(table.count, 0);
    std::vector<uint32_t> sizes;
    for (std::size_t p = 0; p < table.count; ++p) {
      control_.check_at(p);
      if (!table.keys.valid[p]) continue;
      number[p] = table.index.insert(table.keys, p);
      if (number[p] == sizes.size()) sizes.push_back(0);
      ++sizes[number[p]];
    }
    table.offsets.assign(sizes.size() + 1, 0);
    for (std::size_t g = 0; g < sizes.size(); ++g) table.offsets[g + 1] = table.offsets[g] + sizes[g];
    table.rows.resize(table.offsets.back());
    std::vector<uint32_t> next(table.offsets.begin(), table.offsets.end() - 1);
    for (std::size_t p = 0; p < table.count; ++p)
      if (table.keys.valid[p]) table.rows[next[number[p]]++] = static_cast<uint32_t>(p);
    return table;
  }

  // Each probe position's matches in `table`.
  std::vector<Match> match(const HostJoinTable& table, const FlatKeys& probe) {
    std::vector<Match> matches(probe.size());
    uint32_t error = 0;
    run_slices(cut(probe.size()), probe.size(), error, [&](std::size_t, std::size_t begin, std::size_t end, uint32_t&) {
      for (std::size_t p = begin; p < end; ++p) {
        control_.check_at(p);
        const int64_t g = probe.valid[p] ? table.index.find(table.keys, probe, p) : -1;
        if (g >= 0)
          matches[p] = Match(table.rows.data() + table.offsets[g], table.offsets[g + 1] - table.offsets[g]);
      }
    });
    return matches;
  }

  // The keys of each position, flat: a word per part (a join's: a NULL
  // part leaves the position without a key, `valid` 0), or, where
  // `nulls_match` (GROUP BY, NULL equal to NULL), two words per part, whether
  // it is NULL and its bits.
  FlatKeys keys_of(const Chunk& input, const std::vector<const BoundExpr*>& keys, bool nulls_match) {
    std::vector<ExprProgram> programs;
    std::vector<Cls> classes;
    SlotMap slots;
    for (const BoundExpr* k : keys) {
      programs.push_back(compile_expression(*k, slots));
      classes.push_back(compute_class(k->type));
    }
    ColumnSet set = columns_of(slots, input);
    FlatKeys out;
    out.width = keys.size() * (nulls_match ? 2 : 1);
    control_.reserve_host_memory(input.count * (out.width * sizeof(int64_t) + sizeof(uint64_t) + 1), "keys");
    out.words.resize(input.count * out.width);
    out.hashes.resize(input.count);
    out.valid.assign(input.count, 1);
    uint32_t error = 0;
    run_slices(cut(input.count), input.count, error, [&](std::size_t, std::size_t begin, std::size_t end, uint32_t& e) {
      for (std::size_t p = begin; p < end; ++p) {
        control_.check_at(p);
        int64_t* words = out.words.data() + p * out.width;
        for (std::size_t k = 0; k < programs.size(); ++k) {
          const Slot v = gpusql::evaluate(programs[k], set, static_cast<int64_t>(p), e);
          if (nulls_match) {
            words[2 * k] = v.valid;
            words[2 * k + 1] = v.valid ? key_bits(v, classes[k]) : 0;
          } else {
            words[k] = v.valid ? key_bits(v, classes[k]) : 0;
            if (!v.valid) out.valid[p] = 0;
          }
        }
        out.hashes[p] = hash_words(words, out.width);
      }
    });
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

  // Groups of equal keys (NULL equal to NULL), numbered by first
  // appearance, each with its ascending positions: each slice groups its
  // own positions, then the slices' groups merge in slice order (which
  // keeps both orders).
  GroupNumbers number_groups(const Chunk& input, const std::vector<const BoundExpr*>& keys) {
    const FlatKeys flat = keys_of(input, keys, /*nulls_match=*/true);
    struct Local {
      KeyIndex index;
      std::vector<RowIds> groups;
    };
    const Slices slices = cut(input.count);
    std::vector<Local> locals(slices.count);
    uint32_t error = 0;
    run_slices(slices, input.count, error, [&](std::size_t i, std::size_t begin, std::size_t end, uint32_t&) {
      Local& local = locals[i];
      for (std::size_t p = begin; p < end; ++p) {
        control_.check_at(p);
        const uint32_t g = local.index.insert(flat, p);
        if (g == local.groups.size()) local.groups.emplace_back();
        local.groups[g].push_back(static_cast<uint32_t>(p));
      }
    });
    GroupNumbers out;
    if (locals.size() == 1) {
      out.groups = std::move(locals[0].groups);
      return out;
    }
    KeyIndex index;
    for (Local& local : locals)
      for (std::size_t g = 0; g < local.groups.size(); ++g) {
        const uint32_t global = index.insert(flat, local.index.first(g));
        if (global == out.groups.size()) {
          out.groups.push_back(std::move(local.groups[g]));
        } else {
          RowIds& group = out.groups[global];
          group.insert(group.end(), local.groups[g].begin(), local.groups[g].end());
        }
      }
    return out;
  }

  // One aggregate's column, a row per group: over each group's positions
  // (`groups`), or over every position as one group (`filter`: the fused
  // filter, its rejected positions kept as empty states).
  std::shared_ptr<HostColumn> aggregate_column(const AggSpec& spec, const BoundAggregate& bound, const Chunk& input,
                                               const ColumnSet& set, const std::vector<RowIds>* groups,
                                               const ExprProgram* filter, uint32_t& error) {
    const std::size_t group_count = groups ? groups->size() : 1;
    auto column = std::make_shared<HostColumn>(bound.type, group_count);
    column->dictionary = bound.dictionary;
    if (bound.kind == AggKind::CountDistinct) {
      std::vector<AggState> states(group_count);
      for_groups(group_count, groups, error, [&](std::size_t g, uint32_t& e) {
        std::vector<int64_t> seen;
        const std::size_t n = groups ? (*groups)[g].size() : input.count;
        for (std::size_t i = 0; i < n; ++i) {
          control_.check_at(i);
          const int64_t p = groups ? (*groups)[g][i] : static_cast<int64_t>(i);
          if (!groups && !evaluate_predicate(*filter, set, p, e)) continue;
          Slot v = gpusql::evaluate(spec.arg, set, p, e);
          if (v.valid) seen.push_back(key_bits(v, spec.cls));
        }
        std::sort(seen.begin(), seen.end());
        states[g].count = static_cast<uint64_t>(std::unique(seen.begin(), seen.end()) - seen.begin());
      });
      for (std::size_t g = 0; g < group_count; ++g) store_aggregate_result(bound, states[g], *column, g, error);
      return column;
    }
    const std::vector<AggState> states = fold_groups(spec, groups, input.count, filter, set, error);
    if (bound.kind != AggKind::ArgMin && bound.kind != AggKind::ArgMax) {
      for (std::size_t g = 0; g < group_count; ++g) store_aggregate_result(bound, states[g], *column, g, error);
      return column;
    }
    // The argument, evaluated at each group's winning position (with its
    // own slots); NULL where no position won.
    SlotMap arg_slots;
    const ExprProgram argument = compile_expression(*bound.argument, arg_slots);
    const ColumnSet arg_set = columns_of(arg_slots, input);
    for (std::size_t g = 0; g < group_count; ++g) {
      Slot v{};
      if (states[g].count > 0) v = gpusql::evaluate(argument, arg_set, states[g].position, error);
      store_value(column->bytes.data(), bound.type.storage(), static_cast<int64_t>(g), v);
      if (states[g].count == 0 || !v.valid) column->set_null(g);
    }
    return column;
  }

  // f(g, error) for every group, on every core: blocks of groups taken in
  // turn, so a few large groups do not hold up the rest.
  template <class F>
  void for_groups(std::size_t group_count, const std::vector<RowIds>* groups, uint32_t& error, F&& f) {
    std::size_t positions = 0;
    for (std::size_t g = 0; groups && g < group_count; ++g) positions += (*groups)[g].size();
    const std::size_t block = 64, blocks = (group_count + block - 1) / block;
    const std::size_t threads = positions < kGrain ? 1 : std::min(threads_, blocks);
    std::vector<uint32_t> errors(std::max<std::size_t>(1, threads));
    parallel_for_workers(blocks, threads, [&](std::size_t b, std::size_t worker) {
      for (std::size_t g = b * block; g < std::min(group_count, (b + 1) * block); ++g) f(g, errors[worker]);
    });
    for (uint32_t e : errors) error |= e;
  }

  // Each group's state in the canonical order (core/aggregate_state.hpp):
  // over the group's own positions, or (without `groups`) over every
  // position of the input with `filter` inline. Many groups reduce on every
  // core at once; fewer, each one's chunks do.
  std::vector<AggState> fold_groups(const AggSpec& spec, const std::vector<RowIds>* groups, std::size_t input_count,
                                    const ExprProgram* filter, const ColumnSet& set, uint32_t& error) {
    auto fold_at = [&](uint32_t& e) {
      return [&spec, &set, &e, filter, this](const RowIds* positions) {
        return [&spec, &set, &e, filter, positions, this](AggState& state, std::size_t i) {
          control_.check_at(i);
          const int64_t p = positions ? (*positions)[i] : static_cast<int64_t>(i);
          if (filter && !evaluate_predicate(*filter, set, p, e)) return;
          Slot v{};
          if (spec.kind != AggKind::CountStar) v = gpusql::evaluate(spec.arg, set, p, e);
          agg_fold_value(spec.kind, spec.cls, state, v, e, p);
        };
      };
    };
    const std::size_t group_count = groups ? groups->size() : 1;
    std::vector<AggState> states(group_count);
    if (groups && group_count >= 4 * threads_) {
      for_groups(group_count, groups, error, [&](std::size_t g, uint32_t& e) {
        const RowIds& positions = (*groups)[g];
        auto fold = fold_at(e)(&positions);
        if (spec.cls == Cls::Int) {  // exact whatever the order (core/aggregate_state.hpp): one pass
          for (std::size_t i = 0; i < positions.size(); ++i) fold(states[g], i);
          return;
        }
        states[g] = reduce_sequence_host(spec.kind, spec.cls, positions.size(), fold, e);
      });
      return states;
    }
    for (std::size_t g = 0; g < group_count; ++g) {
      const RowIds* positions = groups ? &(*groups)[g] : nullptr;
      const std::size_t n = positions ? positions->size() : input_count;
      const std::size_t chunks = (n + kReduceChunk - 1) / kReduceChunk;
      std::vector<AggState> partials(chunks);
      run_slices(cut(chunks, 1, kGrain / kReduceChunk), chunks, error,
                 [&](std::size_t, std::size_t begin, std::size_t end, uint32_t& e) {
                   for (std::size_t c = begin; c < end; ++c)
                     partials[c] = reduce_chunk_host(spec.kind, spec.cls, n, c, fold_at(e)(positions), e);
                 });
      states[g] = reduce_partials_host(spec.kind, spec.cls, std::move(partials), error);
    }
    return states;
  }
};

}  // namespace

std::unique_ptr<ComputeBackend> make_host_backend(const QueryControl& control) {
  return std::make_unique<HostBackend>(control);
}

}  // namespace gpusql
