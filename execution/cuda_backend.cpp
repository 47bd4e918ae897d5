// The CUDA backend: the primitives as device kernels over the tables'
// device columns. Positions stay on the device between operators (late
// materialization: a filter composes ids, values are read only where an
// expression needs them); a result is copied to the host once, at the end.
// Temporaries come from the stream-ordered pool and return to it when the
// query ends, whether it succeeds or throws, so an error (out of memory
// included) leaves every table intact and the next query runs.
//
// A device chunk's `owned` holds DeviceBuffers only.
#include <chrono>
#include <cstring>
#include <map>
#include <optional>

#include "common/trace.hpp"
#include "execution/compute_backend.hpp"
#include "execution/star_join.hpp"
#include "kernels/aggregate.hpp"
#include "kernels/arg_extreme.hpp"
#include "kernels/filter.hpp"
#include "kernels/gather.hpp"
#include "kernels/group_by.hpp"
#include "kernels/hash_join.hpp"
#include "kernels/nested_loop_join.hpp"
#include "kernels/project.hpp"
#include "kernels/sort.hpp"
#include "kernels/star_join.hpp"
#include "planner/bound_expression_builders.hpp"
#include "storage/result_table.hpp"
#include "storage/table.hpp"

namespace gpusql {
namespace {

using Buffer = std::shared_ptr<DeviceBuffer>;

// Where the pieces of several columns (values, validity words, ...) lie in
// one buffer, each 8-byte aligned: small results cross between host and
// device in one copy.
struct PackedLayout {
  std::size_t total = 0;
  std::size_t add(std::size_t bytes) {
    const std::size_t at = total;
    total += (bytes + 7) / 8 * 8;
    return at;
  }
};

PositionsPtr device_positions(DeviceBuffer ids, std::size_t count) {
  return std::make_shared<Positions>(std::move(ids), count);
}

Buffer buffer(DeviceContext& context, std::size_t bytes) {
  return std::make_shared<DeviceBuffer>(context, std::max<std::size_t>(1, bytes));
}

kernels::AggregateOutput output_of(const BoundAggregate& a) {
  kernels::AggregateOutput out;
  out.kind = a.kind;
  out.double_argument = a.argument && a.argument->type.is_floating();
  out.decimal_scale = a.argument && a.argument->type.id == Type::Decimal ? a.argument->type.scale : -1;
  out.narrow_decimal = a.argument && a.argument->type.id == Type::Decimal && a.argument->type.precision <= 4;
  out.type = a.type.storage();
  return out;
}

// What the keys' values are known to lie in without reading them: a
// VARCHAR column's codes index its dictionary.
std::vector<std::optional<kernels::KeyBounds>> known_bounds(const std::vector<BoundExpr>& keys, const Chunk& input) {
  std::vector<std::optional<kernels::KeyBounds>> known(keys.size());
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (keys[k].op != Op::Column) continue;
    const ColumnView& c = input.columns[keys[k].column];
    if (c.type.id != Type::Varchar || !c.dictionary || c.rowid) continue;
    known[k] = kernels::KeyBounds{0, static_cast<int64_t>(c.dictionary->size()) - 1, c.validity != nullptr};
  }
  return known;
}

kernels::StarColumn star_column(const ColumnView& c) {
  if (!c.present || c.rowid || c.rows)
    throw Error(ErrorKind::Invalid, "internal: a star join column that is not a table's own column");
  return {c.data, c.validity, c.type.id};
}

// A join's build side on the device: its keys and the table over them.
struct DeviceJoinTable final : JoinBuild {
  kernels::KeyColumns keys;
  kernels::JoinTable table;
};

class EventTimer final : public StageTimer {
 public:
  explicit EventTimer(DeviceContext& context) : context_(context) {
    GPUSQL_CUDA_TRY(cudaEventCreate(&start_));
    GPUSQL_CUDA_TRY(cudaEventCreate(&stop_));
  }
  ~EventTimer() override {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start() override { GPUSQL_CUDA_TRY(cudaEventRecord(start_, context_.stream())); }
  double stop_milliseconds() override {
    GPUSQL_CUDA_TRY(cudaEventRecord(stop_, context_.stream()));
    GPUSQL_CUDA_TRY(cudaEventSynchronize(stop_));
    float ms = 0;
    GPUSQL_CUDA_TRY(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  DeviceContext& context_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

class CudaBackend final : public ComputeBackend {
 public:
  CudaBackend(DeviceContext& context, const QueryControl& control) : context_(context), control_(control) {}

  MemorySpace space() const override { return MemorySpace::Device; }
  std::string name() const override { return "gpu"; }

  // Readies the error words for a new query; they live until the next.
  void begin_query() override {
    error_words_ = DeviceBuffer(context_, kErrorStages * sizeof(uint32_t));
    GPUSQL_CUDA_TRY(cudaMemsetAsync(error_words_.data(), 0, kErrorStages * sizeof(uint32_t), context_.stream()));
    stage_ = 0;
    error_ = error_words_.as<uint32_t>();
    std::erase_if(lookups_, [](const auto& entry) { return entry.second.host.expired(); });
  }

  void end_stage() override {
    if (stage_ + 1 < kErrorStages) error_ = error_words_.as<uint32_t>() + ++stage_;
  }

  void check_errors() override { check_errors_with(0); }

  std::unique_ptr<StageTimer> timer() override { return std::make_unique<EventTimer>(context_); }

  Chunk scan(const Table& table, int first_column, int column_count, std::size_t begin, std::size_t end) override {
    if (!table.device) throw Error(ErrorKind::Device, "table \"" + table.name + "\" is not in GPU memory");
    std::vector<ColumnView> columns;
    for (std::size_t i = 0; i < table.device->columns.size(); ++i) {
      const DeviceColumn* d = table.device_column(i, context_);
      columns.push_back(d ? ColumnView::dense(d->data.data(), d->validity.size() ? d->validity.as<uint32_t>() : nullptr,
                                              d->type, table.dictionary(i))
                          : ColumnView{});
    }
    PositionsPtr rows = begin == 0 && end == table.rows ? nullptr : sequence(begin, end - begin);
    return scan_chunk(std::move(columns), first_column, column_count, std::move(rows), end - begin, MemorySpace::Device);
  }

  // Packed into one buffer and one copy, which does not wait for the device
  // (DeviceContext::copy_to_device).
  Chunk from_host(std::vector<HostColumn> host, std::size_t rows) override {
    PackedLayout layout;
    std::vector<std::size_t> at;
    for (const auto& h : host) {
      at.push_back(layout.add(h.bytes.size()));
      at.push_back(layout.add(h.has_nulls() ? h.validity.size() * sizeof(uint32_t) : 0));
    }
    std::vector<char> packed(std::max<std::size_t>(1, layout.total));
    for (std::size_t c = 0; c < host.size(); ++c) {
      if (!host[c].bytes.empty()) std::memcpy(packed.data() + at[2 * c], host[c].bytes.data(), host[c].bytes.size());
      if (host[c].has_nulls())
        std::memcpy(packed.data() + at[2 * c + 1], host[c].validity.data(), host[c].validity.size() * sizeof(uint32_t));
    }
    Buffer data = buffer(context_, packed.size());
    context_.copy_to_device(data->data(), packed.data(), packed.size());
    Chunk out;
    out.space = MemorySpace::Device;
    out.count = rows;
    for (std::size_t c = 0; c < host.size(); ++c) {
      const auto* validity =
          host[c].has_nulls() ? reinterpret_cast<const uint32_t*>(data->as<char>() + at[2 * c + 1]) : nullptr;
      out.columns.push_back(ColumnView::dense(data->as<char>() + at[2 * c], validity, host[c].type, host[c].dictionary));
    }
    out.owned.push_back(std::move(data));
    return out;
  }

  PositionsPtr select(const Chunk& input, const BoundExpr& predicate) override {
    Chunk readable = input;
    const BoundExpr p = narrowed(readable, {predicate})[0];
    SlotMap slots;
    ExprProgram program = compile_expression(p, slots);
    DeviceBuffer selected(context_, std::max<std::size_t>(1, input.count) * sizeof(uint32_t));
    const std::size_t count = kernels::filter_rows(program, columns_of(slots, readable), nullptr, input.count,
                                                   selected.as<uint32_t>(), error_, context_);
    return device_positions(std::move(selected), count);
  }

  PositionsPtr gather(const Positions& rows, const Positions& positions) override {
    DeviceBuffer out(context_, std::max<std::size_t>(1, positions.size()) * sizeof(uint32_t));
    kernels::gather_row_ids(rows.data(), positions.data(), positions.size(), out.as<uint32_t>(), context_);
    return device_positions(std::move(out), positions.size());
  }

  PositionsPtr sequence(std::size_t begin, std::size_t count) override {
    DeviceBuffer out(context_, std::max<std::size_t>(1, count) * sizeof(uint32_t));
    kernels::sequence(static_cast<uint32_t>(begin), count, out.as<uint32_t>(), context_);
    return device_positions(std::move(out), count);
  }

  // The groups of all columns, at their first positions.
  PositionsPtr distinct(const Chunk& input) override {
    std::vector<BoundExpr> parts;
    for (std::size_t c = 0; c < input.columns.size(); ++c)
      if (input.columns[c].present)
        for (BoundExpr& part : order_parts(column_ref(input, c))) parts.push_back(std::move(part));
    Chunk readable = input;
    const std::vector<BoundExpr> refs = narrowed(readable, std::move(parts));
    std::vector<const BoundExpr*> keys;
    for (const auto& r : refs) keys.push_back(&r);
    kernels::Groups groups;
    {
      kernels::KeyColumns columns = keys_of(readable, keys);
      groups = kernels::assign_groups(columns, context_);
    }
    const std::size_t count = groups.count;
    return device_positions(std::move(groups.first), count);
  }

  // A stable sort of the positions; with `limit`, only the first `limit`,
  // selected without sorting the others where that is cheaper
  // (kernels::top_positions).
  PositionsPtr order(const Chunk& input, const std::vector<SortKey>& sort_keys,
                     std::optional<std::size_t> limit) override {
    trace::mark("sort-start");
    std::vector<BoundExpr> parts;
    std::vector<const SortKey*> part_of;
    for (const auto& k : sort_keys)
      for (BoundExpr& part : order_parts(column_ref(input, k.column))) {
        parts.push_back(std::move(part));
        part_of.push_back(&k);
      }
    Chunk readable = input;
    parts = narrowed(readable, std::move(parts));
    SlotMap slots;
    std::vector<kernels::OrderKey> keys;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      kernels::OrderKey key;
      key.program = compile_expression(parts[i], slots);
      key.type = parts[i].type.storage();
      key.descending = part_of[i]->descending;
      key.nulls_first = part_of[i]->nulls_first;
      keys.push_back(key);
    }
    ColumnSet set = columns_of(slots, readable);
    if (limit && *limit < input.count)
      return device_positions(kernels::top_positions(keys, set, input.count, *limit, error_, context_), *limit);
    PositionsPtr order = device_positions(kernels::order_positions(keys, set, input.count, error_, context_), input.count);
    trace::mark("sort");
    return order;
  }

  Chunk evaluate(const Chunk& input, const std::vector<BoundExpr>& expressions) override {
    Chunk out;
    out.space = MemorySpace::Device;
    out.count = input.count;
    const std::size_t words = validity_words(input.count);
    for (const auto& e : expressions) {
      SlotMap slots;
      ExprProgram program = compile_expression(e, slots);
      Buffer values = buffer(context_, input.count * e.type.width());
      Buffer validity = buffer(context_, words * sizeof(uint32_t));
      kernels::project_rows(program, e.type.storage(), columns_of(slots, input), nullptr, input.count, values->data(),
                            validity->as<uint32_t>(), error_, context_);
      out.columns.push_back(ColumnView::dense(values->data(), validity->as<uint32_t>(), e.type, e.dictionary));
      out.owned.push_back(std::move(values));
      out.owned.push_back(std::move(validity));
    }
    return out;
  }

  // Each chunk's column evaluated straight into its place in the new one;
  // the validity bits then moved to their offset.
  Chunk concatenate(const std::vector<Chunk>& chunks) override {
    std::size_t total = 0;
    for (const Chunk& c : chunks) total += c.count;
    const Chunk& first = chunks.front();
    Chunk out;
    out.space = MemorySpace::Device;
    out.count = total;
    out.columns.resize(first.columns.size());
    for (std::size_t c = 0; c < first.columns.size(); ++c) {
      if (!first.columns[c].present) continue;
      const BoundExpr ref = column_ref(first, c);
      Buffer values = buffer(context_, total * ref.type.width());
      Buffer validity = buffer(context_, validity_words(total) * sizeof(uint32_t));
      std::size_t at = 0;
      for (const Chunk& chunk : chunks) {
        SlotMap slots;
        const ExprProgram program = compile_expression(column_ref(chunk, c), slots);
        DeviceBuffer bits(context_, std::max<std::size_t>(1, validity_words(chunk.count)) * sizeof(uint32_t));
        kernels::project_rows(program, ref.type.storage(), columns_of(slots, chunk), nullptr, chunk.count,
                              values->as<char>() + at * ref.type.width(), bits.as<uint32_t>(), error_, context_);
        kernels::copy_bits(bits.as<uint32_t>(), chunk.count, validity->as<uint32_t>(), at, context_);
        at += chunk.count;
      }
      out.columns[c] = ColumnView::dense(values->data(), validity->as<uint32_t>(), ref.type, ref.dictionary);
      out.owned.push_back(std::move(values));
      out.owned.push_back(std::move(validity));
    }
    return out;
  }

  std::vector<HostColumn> to_host(const Chunk& input, std::size_t count) override {
    uint32_t error = 0;
    std::vector<HostColumn> columns = copy_to_host(input, count, &error);
    throw_if_eval_error(error);
    return columns;
  }

  // The result's columns evaluated into buffers the table keeps; a 128-bit
  // DECIMAL column narrowed to 18 digits when every value fits, as the host
  // path does (each such column reports into a word of its own, read back
  // with the query's error words in one copy), else kept 128-bit.
  std::shared_ptr<Table> to_table(Chunk result, const std::vector<std::string>& names, std::string name) override {
    const std::size_t visible = names.size(), count = result.count, words = validity_words(count);
    std::vector<DataType> types;
    std::vector<std::shared_ptr<const Dictionary>> dictionaries;
    auto device = std::make_unique<DeviceTable>();
    DeviceBuffer narrow_words(context_, std::max<std::size_t>(1, visible) * sizeof(uint32_t));
    GPUSQL_CUDA_TRY(cudaMemsetAsync(narrow_words.data(), 0, narrow_words.size(), context_.stream()));
    for (std::size_t c = 0; c < visible; ++c) {
      BoundExpr value = column_ref(result, c);
      uint32_t* error = error_;
      if (value.type.is_wide_decimal()) {
        DataType narrow = value.type;
        narrow.precision = DataType::kMaxNarrowDecimalDigits;
        value = build::binary(Op::CheckPrecision, narrow, std::move(value), build::int_constant(1000000000000000000));
        error = narrow_words.as<uint32_t>() + c;
      }
      DeviceColumn column;
      column.type = value.type;
      column.size = count;
      if (error == error_ && take_dense_column(result, c, column)) {
        types.push_back(value.type);
        dictionaries.push_back(result.columns[c].dictionary);
        device->columns.push_back(std::move(column));
        continue;
      }
      SlotMap slots;
      ExprProgram program = compile_expression(value, slots);
      column.data = DeviceBuffer(context_, std::max<std::size_t>(1, count * value.type.width()));
      column.validity = DeviceBuffer(context_, std::max<std::size_t>(1, words) * sizeof(uint32_t));
      kernels::project_rows(program, value.type.storage(), columns_of(slots, result), nullptr, count,
                            column.data.data(), column.validity.as<uint32_t>(), error, context_);
      types.push_back(value.type);
      dictionaries.push_back(result.columns[c].dictionary);
      device->columns.push_back(std::move(column));
    }
    std::vector<uint32_t> errors(stage_ + 1 + std::max<std::size_t>(1, visible));
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(errors.data(), error_words_.data(), (stage_ + 1) * sizeof(uint32_t),
                                    cudaMemcpyDeviceToHost, context_.stream()));
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(errors.data() + stage_ + 1, narrow_words.data(), narrow_words.size(),
                                    cudaMemcpyDeviceToHost, context_.stream()));
    context_.synchronize();
    throw_if_eval_error(first_error(errors.data(), stage_ + 1));
    for (std::size_t c = 0; c < visible; ++c) {
      if (!errors[stage_ + 1 + c]) continue;
      DeviceColumn& column = device->columns[c];
      const BoundExpr value = column_ref(result, c);
      SlotMap slots;
      const ExprProgram program = compile_expression(value, slots);  // fills slots: before columns_of()
      column.type = types[c] = value.type;
      column.data = DeviceBuffer(context_, std::max<std::size_t>(1, count * value.type.width()));
      kernels::project_rows(program, value.type.storage(), columns_of(slots, result), nullptr, count,
                            column.data.data(), column.validity.as<uint32_t>(), error_, context_);
    }
    std::shared_ptr<Table> table = device_only_table(std::move(name), names, types, dictionaries, count);
    table->device = std::move(device);
    return table;
  }

  JoinPositions hash_join(const Chunk& left, const Chunk& right, const HashJoinSpec& spec) override {
    std::vector<const BoundExpr*> left_keys, right_keys;
    for (const auto& k : *spec.keys) {
      left_keys.push_back(&k.left);
      right_keys.push_back(&k.right);
    }
    kernels::JoinPairs pairs;
    {
      kernels::KeyColumns lk = keys_of(left, left_keys), rk = keys_of(right, right_keys);
      pairs = kernels::hash_join(lk, rk, spec.build_right, context_, spec.left_outer, spec.full_outer);
    }
    return positions_of(pairs);
  }

  std::unique_ptr<JoinBuild> build_join(const Chunk& build, const std::vector<JoinKey>& keys) override {
    std::vector<const BoundExpr*> right;
    for (const auto& k : keys) right.push_back(&k.right);
    auto out = std::make_unique<DeviceJoinTable>();
    out->keys = keys_of(build, right);
    out->table = kernels::build_join_table(out->keys.view(), context_);
    return out;
  }

  JoinPositions probe_join(const JoinBuild& build, const Chunk& probe, const std::vector<JoinKey>& keys,
                           bool left_outer) override {
    std::vector<const BoundExpr*> left;
    for (const auto& k : keys) left.push_back(&k.left);
    const kernels::KeyColumns probe_keys = keys_of(probe, left);
    kernels::JoinPairs pairs =
        kernels::probe_join_table(static_cast<const DeviceJoinTable&>(build).table, probe_keys, left_outer, context_);
    return positions_of(pairs);
  }

  // A condition with a 128-bit step: every pair, the condition left to the
  // caller (the pair kernels have no 128-bit interpreter).
  JoinPositions nested_loop_join(const Chunk& left, const Chunk& right, const BoundExpr* condition) override {
    const bool wide = condition && has_wide_step(*condition);
    SlotMap slots;
    ExprProgram program;
    if (condition && !wide) program = compile_expression(*condition, slots);
    ColumnSet set = columns_of(slots, left, &right);
    kernels::JoinPairs pairs = kernels::nested_loop_join(program, set, left.count, right.count, error_, context_);
    JoinPositions out = positions_of(pairs);
    out.condition_pending = wide;
    return out;
  }

  Chunk matched_flags(Positions& positions) override {
    Buffer matched = buffer(context_, positions.size());
    kernels::split_unmatched(positions.mutable_data(), positions.size(), matched->as<uint8_t>(), context_);
    Chunk out;
    out.space = MemorySpace::Device;
    out.count = positions.size();
    out.columns.push_back(ColumnView::dense(matched->data(), nullptr, DataType::boolean(), nullptr));
    out.owned.push_back(std::move(matched));
    return out;
  }

  // Each aggregate reduced per group in the canonical order, final values
  // made on the device. Groups of the dense array come numbered in key
  // order, their keys decoded from their slots; hash-table groups of one
  // integer key come in slot order, their keys read from the table; the
  // others in order of first appearance, their keys read at their first
  // positions.
  GroupedChunk group_aggregate(const Chunk& original, const std::vector<BoundExpr>& group_keys,
                               const std::vector<BoundAggregate>& group_aggregates) override {
    Chunk input = original;
    const std::vector<BoundExpr> keys = narrowed(input, group_keys);
    SlotMap key_slots;
    std::vector<ExprProgram> key_programs;
    std::vector<Cls> key_classes;
    for (const auto& k : keys) {
      key_programs.push_back(compile_expression(k, key_slots));
      key_classes.push_back(compute_class(k.type));
    }
    kernels::Groups groups = kernels::assign_groups(key_programs, key_classes, columns_of(key_slots, input), input.count,
                                                    error_, context_, known_bounds(keys, input));
    // The keys' errors come before the aggregates' (a stage of their own,
    // their 128-bit steps' included), as the host backend evaluates every
    // key before any aggregate.
    end_stage();
    const std::vector<BoundAggregate> aggregates = narrowed(input, group_aggregates);
    SlotMap slots;
    std::vector<AggSpec> specs = compile_aggregates(aggregates, slots);
    ColumnSet set = columns_of(slots, input);
    DeviceBuffer states = group_states(specs, set, groups, input.count);
    const std::size_t group_count = groups.count;  // by_slot groups: numbered by aggregate_groups
    for (std::size_t a = 0; a < specs.size(); ++a)
      if (specs[a].kind == AggKind::CountDistinct)
        kernels::count_distinct(ExprProgram{}, specs[a].arg, specs[a].cls, set, kernels::row_groups(groups, context_),
                                input.count, group_count, states.as<AggState>() + a * group_count, error_, context_);

    Chunk out;
    out.space = MemorySpace::Device;
    const std::size_t words = validity_words(group_count);
    if (groups.key_ordered || groups.hashed) {
      // Key columns decoded from the groups' slots.
      for (std::size_t k = 0; k < group_keys.size(); ++k) {
        const BoundExpr& key = group_keys[k];
        Buffer values = buffer(context_, group_count * key.type.width());
        Buffer validity = buffer(context_, words * sizeof(uint32_t));
        kernels::group_keys(groups, static_cast<int>(k), key.type.storage(), values->data(), validity->as<uint32_t>(),
                            context_);
        out.columns.push_back(ColumnView::dense(values->data(), validity->as<uint32_t>(), key.type, key.dictionary));
        out.owned.push_back(std::move(values));
        out.owned.push_back(std::move(validity));
      }
    } else {
      // Key columns: each key's value at its group's first position.
      PositionsPtr first = device_positions(std::move(groups.first), group_count);
      out = evaluate(compose(*this, original, first), group_keys);
    }
    for (std::size_t a = 0; a < specs.size(); ++a) {
      const BoundAggregate& bound = group_aggregates[a];
      const AggState* d_states = states.as<AggState>() + a * group_count;
      Buffer validity = buffer(context_, words * sizeof(uint32_t));
      ColumnView v;
      v.type = bound.type;
      v.present = true;
      v.dictionary = bound.dictionary;
      if (bound.kind == AggKind::ArgMin || bound.kind == AggKind::ArgMax) {
        // The argument at each group's winning position; NULL where none.
        DeviceBuffer winners(context_, std::max<std::size_t>(1, group_count) * sizeof(uint32_t));
        kernels::finalize_aggregate(output_of(bound), d_states, group_count, nullptr, validity->as<uint32_t>(),
                                    winners.as<uint32_t>(), error_, context_);
        Chunk value = evaluate(compose(*this, input, device_positions(std::move(winners), group_count)), {*bound.argument});
        kernels::and_validity(const_cast<uint32_t*>(value.columns[0].validity), validity->as<uint32_t>(), words,
                              context_);
        v.data = value.columns[0].data;
        v.validity = value.columns[0].validity;
        out.keep(value);
      } else {
        Buffer values = buffer(context_, group_count * bound.type.width());
        kernels::finalize_aggregate(output_of(bound), d_states, group_count, values->data(), validity->as<uint32_t>(),
                                    nullptr, error_, context_);
        v.data = values->data();
        v.validity = validity->as<uint32_t>();
        out.owned.push_back(std::move(values));
        out.owned.push_back(validity);
      }
      out.columns.push_back(std::move(v));
    }
    out.count = group_count;
    return {std::move(out), groups.key_ordered};
  }

  // One fused kernel with the filter inline, the packed kernel for
  // ARG_MIN/ARG_MAX over 32-bit orderings, and the hash table for
  // COUNT(DISTINCT); the row of results built on the host and uploaded.
  Chunk aggregate(const Chunk& original, const BoundExpr* filter, const std::vector<BoundAggregate>& given) override {
    Chunk input = original;
    const std::vector<BoundAggregate> aggregates = narrowed(input, given);
    SlotMap slots;
    ExprProgram filter_program;
    if (filter) filter_program = compile_expression(*filter, slots);
    std::vector<AggSpec> specs = compile_aggregates(aggregates, slots);
    ColumnSet set = columns_of(slots, input);
    std::vector<AggState> states(specs.size());

    std::vector<std::size_t> generic, packed_index;
    std::vector<kernels::PackedArg> packed;
    for (std::size_t a = 0; a < specs.size(); ++a) {
      const BoundAggregate& bound = given[a];
      if ((bound.kind == AggKind::ArgMin || bound.kind == AggKind::ArgMax) && bound.order &&
          kernels::packable_type(bound.order->type.id)) {
        packed.push_back({bound.kind, bound.order->type.id, specs[a].arg});
        packed_index.push_back(a);
      } else if (bound.kind != AggKind::CountDistinct) {
        generic.push_back(a);
      }
    }
    if (!packed.empty()) {
      std::vector<kernels::PackedArgResult> results =
          kernels::packed_arg_extreme(filter_program, packed, set, input.count, error_, context_);
      for (std::size_t i = 0; i < packed.size(); ++i) {
        // A value without a 32-bit code (NaN, out of range): the generic path.
        if (!results[i].fits) {
          generic.push_back(packed_index[i]);
          continue;
        }
        AggState& s = states[packed_index[i]];
        s.count = results[i].position >= 0 ? 1 : 0;
        s.position = results[i].position;
      }
    }
    // At most kMaxAggregates a kernel (their states live in registers).
    for (std::size_t begin = 0; begin < generic.size(); begin += kMaxAggregates) {
      const std::size_t end = std::min(generic.size(), begin + kMaxAggregates);
      std::vector<AggSpec> generic_specs;
      for (std::size_t i = begin; i < end; ++i) generic_specs.push_back(specs[generic[i]]);
      std::vector<AggState> generic_states =
          kernels::aggregate_rows(filter_program, generic_specs, set, nullptr, input.count, error_, context_);
      for (std::size_t i = begin; i < end; ++i) states[generic[i]] = generic_states[i - begin];
    }
    for (std::size_t a = 0; a < specs.size(); ++a) {
      if (specs[a].kind != AggKind::CountDistinct) continue;
      DeviceBuffer state(context_, sizeof(AggState));
      kernels::count_distinct(filter_program, specs[a].arg, specs[a].cls, set, nullptr, input.count, 1,
                              state.as<AggState>(), error_, context_);
      context_.copy_to_host(&states[a], state.data(), sizeof(AggState));
    }
    std::vector<HostColumn> host;
    uint32_t final_error = 0;
    for (std::size_t a = 0; a < specs.size(); ++a) {
      const BoundAggregate& bound = given[a];
      HostColumn column(bound.type, 1);
      column.dictionary = bound.dictionary;
      if (bound.kind == AggKind::ArgMin || bound.kind == AggKind::ArgMax) {
        // The argument, evaluated at the winning position.
        Slot v{};
        if (states[a].count > 0) v = evaluate_at(*bound.argument, input, states[a].position);
        store_value(column.bytes.data(), bound.type.storage(), 0, v);
        if (states[a].count == 0 || !v.valid) column.set_null(0);
      } else {
        store_aggregate_result(bound, states[a], column, 0, final_error);
      }
      host.push_back(std::move(column));
    }
    check_errors_with(final_error);
    return from_host(std::move(host), 1);
  }

  bool runs_star_joins() const override { return true; }

  // The groups in order of first fact row, built on the host; empty when
  // the kernel declines (its run-time conditions fail).
  std::optional<GroupedChunk> star_join_aggregate(const PlanNode& node, const StarJoin& star) override {
    auto scan_of = [&](const PlanNode& scan) {
      return this->scan(*scan.table.table, scan.table.first_column, scan.column_count, 0, scan.table.table->rows);
    };
    const Chunk fact = scan_of(*star.fact_scan);
    SlotMap slots;
    kernels::StarQueryInput query;
    if (star.fact_filter) query.fact_filter = compile_expression(*star.fact_filter, slots);
    for (const AggSpec& spec : compile_aggregates(node.aggregates, slots)) query.aggregates.push_back({spec.kind, spec.arg});
    query.fact_columns = columns_of(slots, fact);
    query.fact_rows = fact.count;
    std::vector<Chunk> dimensions;        // alive until the kernel is done with them
    std::vector<SlotMap> dimension_slots;  // alive as long as the filters compiled with them
    dimension_slots.reserve(star.dimensions.size());
    for (const StarDimension& d : star.dimensions) {
      // A filtered dimension: its Scan, with the filter handed to the kernel
      // (evaluated as it reads the dimension, no compaction).
      const bool filtered = d.source->kind == PlanKind::Filter;
      dimensions.push_back(scan_of(filtered ? *d.source->child : *d.source));
      const Chunk& relation = dimensions.back();
      kernels::StarDimensionInput input;
      if (filtered) {
        SlotMap& filter_slots = dimension_slots.emplace_back();
        input.filter = compile_expression(*d.source->predicate, filter_slots);
        input.filter_columns = columns_of(filter_slots, relation);
      }
      input.fact_key = star_column(fact.columns.at(d.fact_key));
      input.key = star_column(relation.columns.at(d.dimension_key));
      input.rows = nullptr;
      input.count = relation.count;
      input.table_rows = d.table->table->rows;
      query.dimensions.push_back(std::move(input));
    }
    for (const StarGroupKey& k : star.group_keys) {
      kernels::StarDimensionInput& d = query.dimensions[k.dimension];
      query.group_keys.push_back({k.dimension, static_cast<int>(d.group_columns.size())});
      d.group_columns.push_back(star_column(dimensions[k.dimension].columns.at(k.column)));
    }
    trace::mark("star-setup");
    kernels::StarResult result = kernels::star_join_aggregate(query, error_, context_);
    if (!result.done) return std::nullopt;

    // [group keys..., aggregates...], one row per group, built on the host.
    const std::size_t rows = result.groups;
    std::vector<HostColumn> host;
    for (std::size_t k = 0; k < node.group_keys.size(); ++k) {
      const BoundExpr& key = node.group_keys[k];
      HostColumn column(key.type, rows);
      column.dictionary = key.dictionary ? key.dictionary
                                         : dimensions[star.group_keys[k].dimension].columns[key.column].dictionary;
      for (std::size_t r = 0; r < rows; ++r) {
        Slot v{};
        v.valid = true;
        v.i = result.keys[k * rows + r];
        store_value(column.bytes.data(), key.type.storage(), static_cast<int64_t>(r), v);
      }
      host.push_back(std::move(column));
    }
    for (std::size_t a = 0; a < node.aggregates.size(); ++a) {
      const BoundAggregate& bound = node.aggregates[a];
      HostColumn column(bound.type, rows);
      column.dictionary = bound.dictionary;
      for (std::size_t r = 0; r < rows; ++r)
        store_aggregate_result(bound, result.states[a * rows + r], column, r, result.error);
      host.push_back(std::move(column));
    }
    throw_if_eval_error(result.error);
    Chunk out = from_host(std::move(host), rows);
    trace::mark("star-upload");
    return GroupedChunk{std::move(out), false};
  }

 private:
  DeviceContext& context_;
  const QueryControl& control_;
  // Run-time errors: kernels OR EvalError bits into error_, one word per
  // stage (an operator call) in the order they run. The first word with a
  // bit is the error reported, as the host backend stops at the first call
  // that fails -- without a round trip after each one. Past kErrorStages
  // stages the last word is shared.
  static constexpr std::size_t kErrorStages = 64;
  DeviceBuffer error_words_;
  std::size_t stage_ = 0;
  uint32_t* error_ = nullptr;
  // Lookup tables (LIKE's matches, dictionary recodings) on the device, by
  // host table, each uploaded while its host table lives. A dictionary keeps
  // the tables derived from it, so a query run again reads them where they
  // are (TPC-H Q13's LIKE over 15 M comments: 15 MB a run); a table of one
  // query's plan goes with it (begin_query() drops the uploads of dead
  // tables).
  struct DeviceLookup {
    std::weak_ptr<const LookupTable> host;
    std::unique_ptr<DeviceBuffer> buffer;
  };
  std::map<const LookupTable*, DeviceLookup> lookups_;

  // The first stage's error among `words` (stage order); 0 for none.
  static uint32_t first_error(const uint32_t* words, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i)
      if (words[i]) return words[i];
    return 0;
  }

  // `current`: errors the host found in this stage, beside the device's.
  void check_errors_with(uint32_t current) {
    std::vector<uint32_t> words(stage_ + 1);
    context_.copy_to_host(words.data(), error_words_.data(), words.size() * sizeof(uint32_t));
    words.back() |= current;
    throw_if_eval_error(first_error(words.data(), words.size()));
  }

  ColumnPointer lookup_pointer(const std::shared_ptr<const LookupTable>& lookup) {
    DeviceLookup& uploaded = lookups_[lookup.get()];
    // None yet, or the upload of a dead table that had this address.
    const bool same = !uploaded.host.owner_before(lookup) && !lookup.owner_before(uploaded.host);
    if (!uploaded.buffer || !same) {
      const std::vector<uint8_t>& bytes = lookup->bytes;
      uploaded.buffer = std::make_unique<DeviceBuffer>(context_, std::max<std::size_t>(1, bytes.size()));
      if (!bytes.empty()) context_.copy_to_device(uploaded.buffer->data(), bytes.data(), bytes.size());
      uploaded.host = lookup;
    }
    ColumnPointer p;
    p.data = uploaded.buffer->data();
    p.size = lookup->entries;
    p.type = lookup->type;
    return p;
  }

  ColumnSet columns_of(const SlotMap& slots, const Chunk& input, const Chunk* right = nullptr) {
    return column_set(slots, input, right,
                      [this](const std::shared_ptr<const LookupTable>& lookup) { return lookup_pointer(lookup); });
  }

  JoinPositions positions_of(kernels::JoinPairs& pairs) {
    JoinPositions out;
    out.count = pairs.count;
    out.left = device_positions(std::move(pairs.left), pairs.count);
    out.right = device_positions(std::move(pairs.right), pairs.count);
    return out;
  }

  // Moves column `c` of `r` into `out` when its values (and validity) are
  // whole buffers only `r` holds, read position for position (an
  // aggregate's or a projection's output): no copy. False otherwise (a
  // table's own column, values read through row ids, a buffer two columns
  // share): the caller evaluates the column into new buffers.
  static bool take_dense_column(Chunk& r, std::size_t c, DeviceColumn& out) {
    const ColumnView& view = r.columns[c];
    if (view.rows || view.rowid || !view.present || !view.data) return false;
    auto sole_owner = [&](const void* data) -> std::shared_ptr<void>* {
      std::shared_ptr<void>* found = nullptr;
      for (std::shared_ptr<void>& b : r.owned)
        if (b && static_cast<DeviceBuffer*>(b.get())->data() == data) {
          if (found || b.use_count() != 1) return nullptr;
          found = &b;
        }
      return found;
    };
    for (std::size_t other = 0; other < r.columns.size(); ++other)
      if (other != c &&
          (r.columns[other].data == view.data || (view.validity && r.columns[other].validity == view.validity)))
        return false;
    std::shared_ptr<void>* values = sole_owner(view.data);
    std::shared_ptr<void>* validity = view.validity ? sole_owner(view.validity) : nullptr;
    if (!values || (view.validity && !validity)) return false;
    out.data = std::move(*static_cast<DeviceBuffer*>(values->get()));
    values->reset();
    if (validity) {
      out.validity = std::move(*static_cast<DeviceBuffer*>(validity->get()));
      validity->reset();
    }
    return true;
  }

  // `expressions` as the scan kernels can read them: one with a 128-bit step
  // is evaluated into a new column of `input` by project_rows(), the one
  // kernel with the 128-bit interpreter, and becomes a reference to it.
  std::vector<BoundExpr> narrowed(Chunk& input, std::vector<BoundExpr> expressions) {
    for (BoundExpr& e : expressions) {
      if (!has_wide_step(e)) continue;
      Chunk value = evaluate(input, {e});
      input.columns.push_back(value.columns[0]);
      input.keep(value);
      BoundExpr ref = column_ref(input, input.columns.size() - 1);
      ref.offset = e.offset;
      e = std::move(ref);
    }
    return expressions;
  }

  // `aggregates` as the aggregate kernels can read them: a value with a
  // 128-bit step becomes a reference to a new column of `input` (narrowed()).
  std::vector<BoundAggregate> narrowed(Chunk& input, std::vector<BoundAggregate> aggregates) {
    for (BoundAggregate& a : aggregates) {
      std::optional<BoundExpr>& value = a.order ? a.order : a.argument;
      if (value && has_wide_step(*value)) value = narrowed(input, {*value})[0];
    }
    return aggregates;
  }

  // Key columns of `input` (host key_bits: NULL flagged, -0.0 as 0.0).
  // A key is at most 64 bits (the planner leaves wider equalities as
  // conditions), but may have a 128-bit step: narrowed() evaluates it first.
  kernels::KeyColumns keys_of(const Chunk& input, const std::vector<const BoundExpr*>& keys) {
    Chunk readable = input;
    std::vector<BoundExpr> parts;
    for (const BoundExpr* k : keys) parts.push_back(*k);
    parts = narrowed(readable, std::move(parts));
    SlotMap slots;
    std::vector<ExprProgram> programs;
    std::vector<Cls> classes;
    for (const BoundExpr& k : parts) {
      programs.push_back(compile_expression(k, slots));
      classes.push_back(compute_class(k.type));
    }
    return kernels::evaluate_keys(programs, classes, columns_of(slots, readable), readable.count, error_, context_);
  }

  // Each aggregate's state per group, at [a * groups.count + g]: at most
  // kMaxAggregates a kernel (their states live in registers), the states of
  // each such set copied side by side. by_slot groups are numbered by the
  // first set's pass (each pass numbers them the same).
  DeviceBuffer group_states(const std::vector<AggSpec>& specs, const ColumnSet& set, kernels::Groups& groups,
                            std::size_t count) {
    constexpr std::size_t kMost = kMaxAggregates;
    if (specs.size() <= kMost) return kernels::aggregate_groups(specs, set, groups, count, error_, context_);
    std::vector<DeviceBuffer> parts;
    for (std::size_t begin = 0; begin < specs.size(); begin += kMost) {
      const std::vector<AggSpec> part(specs.begin() + static_cast<std::ptrdiff_t>(begin),
                                      specs.begin() + static_cast<std::ptrdiff_t>(std::min(specs.size(), begin + kMost)));
      parts.push_back(kernels::aggregate_groups(part, set, groups, count, error_, context_));
    }
    const std::size_t n = groups.count;
    DeviceBuffer states(context_, std::max<std::size_t>(1, specs.size() * n) * sizeof(AggState));
    for (std::size_t i = 0, begin = 0; i < parts.size(); ++i, begin += kMost) {
      const std::size_t bytes = std::min(kMost, specs.size() - begin) * n * sizeof(AggState);
      if (bytes > 0)
        GPUSQL_CUDA_TRY(cudaMemcpyAsync(states.as<AggState>() + begin * n, parts[i].data(), bytes,
                                        cudaMemcpyDeviceToDevice, context_.stream()));
    }
    return states;
  }

  // One value of `expr` at one position, computed on the device.
  Slot evaluate_at(const BoundExpr& expr, const Chunk& input, int64_t position) {
    DeviceBuffer one(context_, sizeof(uint32_t));
    const uint32_t p = static_cast<uint32_t>(position);
    context_.copy_to_device(one.data(), &p, sizeof p);
    const Chunk row = compose(*this, input, device_positions(std::move(one), 1));
    std::vector<HostColumn> value = copy_to_host(evaluate(row, {expr}), 1);
    Slot s = load_raw(value[0].bytes.data(), expr.type.storage(), 0);
    s.valid = value[0].is_valid(0);
    return s;
  }

  // Results up to this size come back in one copy.
  static constexpr std::size_t kOneCopyBytes = std::size_t{1} << 20;

  // The first `visible` columns, gathered on the device and copied back.
  // With `error`, the first stage's error comes back too (in the same copy).
  std::vector<HostColumn> copy_to_host(const Chunk& input, std::size_t visible, uint32_t* error = nullptr) {
    const std::size_t count = input.count, words = validity_words(count);
    std::vector<BoundExpr> refs;
    for (std::size_t c = 0; c < visible; ++c) refs.push_back(column_ref(input, c));
    std::size_t host_bytes = 0;
    for (const BoundExpr& ref : refs) host_bytes += count * ref.type.width() + words * sizeof(uint32_t);
    control_.reserve_host_memory(host_bytes, "the result's copy on the host");
    std::vector<HostColumn> out;
    for (std::size_t c = 0; c < visible; ++c) {
      HostColumn column(refs[c].type, count);
      column.dictionary = refs[c].dictionary;
      column.validity.resize(words);
      out.push_back(std::move(column));
    }
    // A small result (the usual answer of an analytic query) is evaluated
    // straight into one device buffer, values and bitmaps and the query's
    // error words, and comes back in one copy: copying each array back on
    // its own would wait on the device once per array.
    PackedLayout layout;
    std::vector<std::size_t> at;
    for (const HostColumn& column : out) {
      at.push_back(layout.add(column.bytes.size()));
      at.push_back(layout.add(words * sizeof(uint32_t)));
    }
    const std::size_t error_words = stage_ + 1;
    const std::size_t error_at = layout.add(error_words * sizeof(uint32_t));
    const std::size_t total = layout.total;
    std::vector<uint32_t> error_host(error_words);
    if (total <= kOneCopyBytes) {
      DeviceBuffer packed(context_, total);
      for (std::size_t c = 0; c < visible; ++c) {
        SlotMap slots;
        ExprProgram program = compile_expression(refs[c], slots);
        kernels::project_rows(program, refs[c].type.storage(), columns_of(slots, input), nullptr, count,
                              packed.as<char>() + at[2 * c], reinterpret_cast<uint32_t*>(packed.as<char>() + at[2 * c + 1]),
                              error_, context_);
      }
      trace::mark("copy-project");
      GPUSQL_CUDA_TRY(cudaMemcpyAsync(packed.as<char>() + error_at, error_words_.data(), error_words * sizeof(uint32_t),
                                      cudaMemcpyDeviceToDevice, context_.stream()));
      std::vector<char> host(total);
      GPUSQL_CUDA_TRY(cudaMemcpyAsync(host.data(), packed.data(), total, cudaMemcpyDeviceToHost, context_.stream()));
      context_.synchronize();
      trace::mark("copy-wait");
      for (std::size_t c = 0; c < visible; ++c) {
        std::memcpy(out[c].bytes.data(), host.data() + at[2 * c], out[c].bytes.size());
        std::memcpy(out[c].validity.data(), host.data() + at[2 * c + 1], words * sizeof(uint32_t));
      }
      std::memcpy(error_host.data(), host.data() + error_at, error_words * sizeof(uint32_t));
    } else {
      Chunk dense = evaluate(input, refs);
      GPUSQL_CUDA_TRY(cudaMemcpyAsync(error_host.data(), error_words_.data(), error_words * sizeof(uint32_t),
                                      cudaMemcpyDeviceToHost, context_.stream()));
      for (std::size_t c = 0; c < visible; ++c) {
        GPUSQL_CUDA_TRY(cudaMemcpyAsync(out[c].bytes.data(), dense.columns[c].data, out[c].bytes.size(),
                                        cudaMemcpyDeviceToHost, context_.stream()));
        GPUSQL_CUDA_TRY(cudaMemcpyAsync(out[c].validity.data(), dense.columns[c].validity, words * sizeof(uint32_t),
                                        cudaMemcpyDeviceToHost, context_.stream()));
      }
    }
    context_.synchronize();
    if (error) *error = first_error(error_host.data(), error_host.size());
    for (auto& column : out)
      if (column.null_count() == 0) column.validity.clear();  // no NULL: no bitmap, as on the host
    return out;
  }
};

}  // namespace

std::unique_ptr<ComputeBackend> make_cuda_backend(DeviceContext& context, const QueryControl& control) {
  return std::make_unique<CudaBackend>(context, control);
}

}  // namespace gpusql
