// The CUDA executor: runs a plan with device kernels over the tables' device
// columns. Rows stay on the device between operators as row-id vectors
// (late materialization: a filter composes ids, values are read only where
// an expression needs them); the result is copied to the host once, at the
// end. Temporaries come from the stream-ordered pool and return to it when
// the query ends, whether it succeeds or throws, so an error (out of memory
// included) leaves every table intact and the next query runs.
#include <chrono>
#include <cstring>
#include <map>
#include <optional>

#include "planner/bound_expression_builders.hpp"
#include "engine/executor.hpp"
#include "storage/result_table.hpp"
#include "engine/star_join.hpp"
#include "common/trace.hpp"
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
#include "storage/table.hpp"

namespace gpusql {
namespace {

using Buffer = std::shared_ptr<DeviceBuffer>;

struct DeviceColumnRef {
  const void* data = nullptr;
  const uint32_t* validity = nullptr;
  DataType type;
  bool rowid = false;
  bool present = false;
  Buffer rows;  // position -> row; null: identity
  std::shared_ptr<const Dictionary> dictionary;
};

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

struct DeviceRelation {
  std::vector<DeviceColumnRef> columns;
  std::size_t count = 0;
  std::vector<Buffer> owned;  // column values this relation made
};

class CudaExecutor final : public Executor {
 public:
  CudaExecutor(DeviceContext& context, const QueryControl& control) : context_(context), control_(control) {}

  std::shared_ptr<ResultData> execute(const Plan& plan, Profile* profile) override {
    profile_ = profile;
    DeviceBuffer error_words = begin();
    DeviceRelation result = run(*plan.root);
    trace::mark("operators");
    const PlanNode& projection = projection_of(*plan.root);
    auto data = std::make_shared<ResultData>();
    for (std::size_t c = 0; c < plan.root->visible; ++c) data->names.push_back(projection.names[c]);
    uint32_t error = 0;
    data->columns = copy_to_host(result, plan.root->visible, &error);
    data->rows = result.count;
    throw_if_eval_error(error);
    return data;
  }

  // The result's columns evaluated into buffers the table keeps; a 128-bit
  // DECIMAL column narrowed to 18 digits when every value fits, as the host
  // path does (each such column reports into a word of its own, read back
  // with the query's error words in one copy), else kept 128-bit.
  std::shared_ptr<Table> execute_to_table(const Plan& plan, std::string name) override {
    profile_ = nullptr;
    DeviceBuffer error_words = begin();
    DeviceRelation result = run(*plan.root);
    trace::mark("operators");
    const PlanNode& projection = projection_of(*plan.root);
    const std::size_t visible = plan.root->visible, count = result.count, words = validity_words(count);
    std::vector<std::string> names(projection.names.begin(), projection.names.begin() + visible);
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
      kernels::project_rows(program, value.type.storage(), column_set(slots, result), nullptr, count,
                            column.data.data(), column.validity.as<uint32_t>(), error, context_);
      types.push_back(value.type);
      dictionaries.push_back(result.columns[c].dictionary);
      device->columns.push_back(std::move(column));
    }
    std::vector<uint32_t> errors(stage_ + 1 + std::max<std::size_t>(1, visible));
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(errors.data(), error_words_, (stage_ + 1) * sizeof(uint32_t),
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
      const ExprProgram program = compile_expression(value, slots);  // fills slots: before column_set()
      column.type = types[c] = value.type;
      column.data = DeviceBuffer(context_, std::max<std::size_t>(1, count * value.type.width()));
      kernels::project_rows(program, value.type.storage(), column_set(slots, result), nullptr, count, column.data.data(),
                            column.validity.as<uint32_t>(), error_, context_);
    }
    std::shared_ptr<Table> table = device_only_table(std::move(name), names, types, dictionaries, count);
    table->device = std::move(device);
    return table;
  }

 private:
  DeviceContext& context_;
  const QueryControl& control_;
  // Run-time errors: kernels OR EvalError bits into error_, one word per
  // operator in the order operators finish (stage_ counts them). The first
  // word with a bit is the error reported, as the host executor stops at the
  // first operator that fails -- without a round trip after each operator.
  // Past kErrorStages operators the last word is shared.
  static constexpr std::size_t kErrorStages = 64;
  uint32_t* error_words_ = nullptr;
  std::size_t stage_ = 0;
  uint32_t* error_ = nullptr;
  Profile* profile_ = nullptr;
  std::string note_;  // for EXPLAIN ANALYZE: how the operator now finishing ran
  // Lookup tables (LIKE's matches, dictionary recodings) on the device, by
  // host table, each uploaded while its host table lives. A dictionary keeps
  // the tables derived from it, so a query run again reads them where they
  // are (TPC-H Q13's LIKE over 15 M comments: 15 MB a run); a table of one
  // query's plan goes with it (begin() drops the uploads of dead tables).
  struct DeviceLookup {
    std::weak_ptr<const LookupTable> host;
    std::unique_ptr<DeviceBuffer> buffer;
  };
  std::map<const LookupTable*, DeviceLookup> lookups_;
  // Set by a Limit over a Sort for that Sort: the rows it must order (LIMIT + OFFSET).
  std::optional<std::size_t> sort_limit_;

  // Column `c` of `r` as an expression (its type and dictionary).
  static BoundExpr column_ref(const DeviceRelation& r, std::size_t c) {
    BoundExpr ref = build::column(static_cast<int>(c), r.columns[c].type);
    ref.dictionary = r.columns[c].dictionary;
    return ref;
  }

  // Moves column `c` of `r` into `out` when its values (and validity) are
  // whole buffers only `r` holds, read position for position (an
  // aggregate's or a projection's output): no copy. False otherwise (a
  // table's own column, values read through row ids, a buffer two columns
  // share): the caller evaluates the column into new buffers.
  static bool take_dense_column(DeviceRelation& r, std::size_t c, DeviceColumn& out) {
    const DeviceColumnRef& ref = r.columns[c];
    if (ref.rows || ref.rowid || !ref.present || !ref.data) return false;
    auto sole_owner = [&](const void* data) -> Buffer* {
      Buffer* found = nullptr;
      for (Buffer& b : r.owned)
        if (b && b->data() == data) {
          if (found || b.use_count() != 1) return nullptr;
          found = &b;
        }
      return found;
    };
    for (std::size_t other = 0; other < r.columns.size(); ++other)
      if (other != c && (r.columns[other].data == ref.data || (ref.validity && r.columns[other].validity == ref.validity)))
        return false;
    Buffer* values = sole_owner(ref.data);
    Buffer* validity = ref.validity ? sole_owner(ref.validity) : nullptr;
    if (!values || (ref.validity && !validity)) return false;
    out.data = std::move(**values);
    values->reset();
    if (validity) {
      out.validity = std::move(**validity);
      validity->reset();
    }
    return true;
  }

  // Readies the error words for a new query; the buffer lives as long as the query runs.
  DeviceBuffer begin() {
    DeviceBuffer error_words(context_, kErrorStages * sizeof(uint32_t));
    GPUSQL_CUDA_TRY(cudaMemsetAsync(error_words.data(), 0, kErrorStages * sizeof(uint32_t), context_.stream()));
    error_words_ = error_words.as<uint32_t>();
    stage_ = 0;
    error_ = error_words_;
    std::erase_if(lookups_, [](const auto& entry) { return entry.second.host.expired(); });
    sort_limit_.reset();
    return error_words;
  }

  void next_error_stage() {
    if (stage_ + 1 < kErrorStages) error_ = error_words_ + ++stage_;
  }

  // The first operator's error among `words` (stage order); 0 for none.
  static uint32_t first_error(const uint32_t* words, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i)
      if (words[i]) return words[i];
    return 0;
  }

  // `current`: errors the host found in this operator, beside the device's.
  void check_errors(uint32_t current = 0) {
    std::vector<uint32_t> words(stage_ + 1);
    context_.copy_to_host(words.data(), error_words_, words.size() * sizeof(uint32_t));
    words.back() |= current;
    throw_if_eval_error(first_error(words.data(), words.size()));
  }

  DeviceRelation run(const PlanNode& node) {
    // Between operators: the device work queued so far finishes on its own.
    control_.check_interrupt();
    DeviceRelation r = profile_ ? run_profiled(node) : run_operator(node);
    next_error_stage();
    return r;
  }

  DeviceRelation run_profiled(const PlanNode& node) {
    // EXPLAIN ANALYZE: device time of each operator, children excluded.
    cudaEvent_t start, stop;
    GPUSQL_CUDA_TRY(cudaEventCreate(&start));
    GPUSQL_CUDA_TRY(cudaEventCreate(&stop));
    double children = 0;
    std::size_t before = profile_->operators.size();
    GPUSQL_CUDA_TRY(cudaEventRecord(start, context_.stream()));
    DeviceRelation r = run_operator(node);
    GPUSQL_CUDA_TRY(cudaEventRecord(stop, context_.stream()));
    GPUSQL_CUDA_TRY(cudaEventSynchronize(stop));
    float ms = 0;
    GPUSQL_CUDA_TRY(cudaEventElapsedTime(&ms, start, stop));
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    // Every operator recorded meanwhile ran below this one.
    for (std::size_t i = before; i < profile_->operators.size(); ++i) children += profile_->operators[i].milliseconds;
    profile_->operators.push_back({&node, r.count, std::max(0.0, ms - children), std::move(note_)});
    note_.clear();
    return r;
  }

  DeviceRelation run_operator(const PlanNode& node) {
    switch (node.kind) {
      case PlanKind::Scan: return scan(node);
      case PlanKind::Filter: {
        DeviceRelation input = run(*node.child);
        return filter(input, *node.predicate);
      }
      case PlanKind::Aggregate: return aggregate(node);
      case PlanKind::Project: return project_node(node.expressions, run(*node.child));
      case PlanKind::Limit: {
        if (node.limit && node.child->kind == PlanKind::Sort) {
          const auto offset = static_cast<uint64_t>(node.offset), limit = static_cast<uint64_t>(*node.limit);
          sort_limit_ = static_cast<std::size_t>(limit > UINT64_MAX - offset ? UINT64_MAX : offset + limit);
        }
        DeviceRelation input = run(*node.child);
        std::size_t begin = std::min<std::size_t>(input.count, static_cast<std::size_t>(node.offset));
        std::size_t end = node.limit ? std::min<std::size_t>(input.count, begin + static_cast<std::size_t>(*node.limit))
                                     : input.count;
        auto positions = std::make_shared<DeviceBuffer>(context_, std::max<std::size_t>(1, end - begin) * sizeof(uint32_t));
        kernels::sequence(static_cast<uint32_t>(begin), end - begin, positions->as<uint32_t>(), context_);
        return compose(input, positions, end - begin);
      }
      case PlanKind::HashJoin: return hash_join(node);
      case PlanKind::NestedLoopJoin: return nested_loop_join(node);
      case PlanKind::Distinct: return distinct(run(*node.child));
      case PlanKind::Sort: {
        const std::optional<std::size_t> limit = std::exchange(sort_limit_, std::nullopt);
        return sort(node.sort_keys, run(*node.child), limit);
      }
    }
    throw Error(ErrorKind::Invalid, "internal: unknown operator");
  }

  static DeviceRelation scan(const PlanNode& node) {
    const Table& table = *node.table.table;
    if (!table.device) throw Error(ErrorKind::Device, "table \"" + table.name + "\" is not in GPU memory");
    DeviceRelation r;
    r.columns.resize(node.column_count);
    for (std::size_t c = 0; c < table.device->columns.size(); ++c) {
      const DeviceColumn& d = table.device->columns[c];
      DeviceColumnRef& ref = r.columns[node.table.first_column + c];
      ref.data = d.data.data();
      ref.validity = d.validity.size() ? d.validity.as<uint32_t>() : nullptr;
      ref.type = d.type;
      ref.present = true;
      ref.dictionary = table.host[c].dictionary;
    }
    DeviceColumnRef& rowid = r.columns[node.table.first_column + table.device->columns.size()];
    rowid.rowid = true;
    rowid.present = true;
    rowid.type = DataType::bigint();
    r.count = table.rows;
    return r;
  }

  static ColumnPointer pointer_of(const DeviceColumnRef& c, uint8_t side) {
    ColumnPointer p;
    p.data = c.data;
    p.validity = c.validity;
    p.rows = c.rows ? c.rows->as<uint32_t>() : nullptr;
    p.type = c.type.storage();
    p.is_rowid = c.rowid;
    p.side = side;
    return p;
  }

  // The ColumnSet for a program's slots; `right` (when given) supplies the
  // columns of a join's right side, read at the pair's right position.
  ColumnSet column_set(const SlotMap& slots, const DeviceRelation& input, const DeviceRelation* right = nullptr) {
    ColumnSet set;
    for (const auto& source : slots.sources()) {
      ColumnPointer p;
      if (source.lookup) {
        DeviceLookup& uploaded = lookups_[source.lookup.get()];
        // None yet, or the upload of a dead table that had this address.
        const bool same = !uploaded.host.owner_before(source.lookup) && !source.lookup.owner_before(uploaded.host);
        if (!uploaded.buffer || !same) {
          const std::vector<uint8_t>& bytes = source.lookup->bytes;
          uploaded.buffer = std::make_unique<DeviceBuffer>(context_, std::max<std::size_t>(1, bytes.size()));
          if (!bytes.empty()) context_.copy_to_device(uploaded.buffer->data(), bytes.data(), bytes.size());
          uploaded.host = source.lookup;
        }
        p.data = uploaded.buffer->data();
        p.size = source.lookup->entries;
        p.type = source.lookup->type;
      } else if (right && source.column < static_cast<int>(right->columns.size()) &&
                 right->columns[source.column].present) {
        p = pointer_of(right->columns[source.column], 1);
      } else {
        const DeviceColumnRef& c = input.columns.at(source.column);
        if (!c.present) throw Error(ErrorKind::Invalid, "internal: an operator reads a column its input lacks");
        p = pointer_of(c, 0);
      }
      set.columns[set.count++] = p;
    }
    return set;
  }

  // The relation's rows at `positions` (device buffer of `count` ids).
  DeviceRelation compose(const DeviceRelation& input, const Buffer& positions, std::size_t count) {
    DeviceRelation out;
    out.count = count;
    out.owned = input.owned;
    std::map<const DeviceBuffer*, Buffer> composed;
    for (const DeviceColumnRef& c : input.columns) {
      DeviceColumnRef n = c;
      if (c.present) {
        if (!c.rows) {
          n.rows = positions;
        } else {
          Buffer& shared = composed[c.rows.get()];
          if (!shared) {
            shared = std::make_shared<DeviceBuffer>(context_, std::max<std::size_t>(1, count) * sizeof(uint32_t));
            kernels::gather_row_ids(c.rows->as<uint32_t>(), positions->as<uint32_t>(), count, shared->as<uint32_t>(),
                                    context_);
          }
          n.rows = shared;
        }
      }
      out.columns.push_back(std::move(n));
    }
    return out;
  }

  // Whether `e` has a 128-bit step (reads a SUM's DECIMAL(38, s), say).
  static bool is_wide(const BoundExpr& e) {
    if (e.type.is_wide_decimal()) return true;
    for (const auto& c : e.children)
      if (is_wide(c)) return true;
    return false;
  }

  // `expressions` as the scan kernels can read them: one with a 128-bit step
  // is evaluated into a new column of `input` by project_rows(), the one
  // kernel with the 128-bit interpreter, and becomes a reference to it.
  std::vector<BoundExpr> narrowed(DeviceRelation& input, std::vector<BoundExpr> expressions) {
    for (BoundExpr& e : expressions) {
      if (!is_wide(e)) continue;
      DeviceRelation value = project({e}, input);
      input.columns.push_back(value.columns[0]);
      input.owned.insert(input.owned.end(), value.owned.begin(), value.owned.end());
      BoundExpr ref = column_ref(input, static_cast<int>(input.columns.size() - 1));
      ref.offset = e.offset;
      e = std::move(ref);
    }
    return expressions;
  }

  // Whether an aggregate's value (its argument, or its ordering) has a
  // 128-bit step: a CASE comparing with a SUM's DECIMAL(38, s), say. (An
  // aggregate of a 128-bit value itself the binder refuses.)
  static bool has_wide_value(const std::vector<BoundAggregate>& aggregates) {
    for (const BoundAggregate& a : aggregates) {
      const std::optional<BoundExpr>& value = a.order ? a.order : a.argument;
      if (value && is_wide(*value)) return true;
    }
    return false;
  }

  // `aggregates` as the aggregate kernels can read them: a value with a
  // 128-bit step becomes a reference to a new column of `input` (narrowed()).
  std::vector<BoundAggregate> narrowed(DeviceRelation& input, std::vector<BoundAggregate> aggregates) {
    for (BoundAggregate& a : aggregates) {
      std::optional<BoundExpr>& value = a.order ? a.order : a.argument;
      if (value && is_wide(*value)) value = narrowed(input, {*value})[0];
    }
    return aggregates;
  }

  DeviceRelation filter(const DeviceRelation& input, const BoundExpr& predicate) {
    DeviceRelation readable = input;
    const BoundExpr p = narrowed(readable, {predicate})[0];
    SlotMap slots;
    ExprProgram program = compile_expression(p, slots);
    auto selected = std::make_shared<DeviceBuffer>(context_, std::max<std::size_t>(1, input.count) * sizeof(uint32_t));
    std::size_t count = kernels::filter_rows(program, column_set(slots, readable), nullptr, input.count,
                                             selected->as<uint32_t>(), error_, context_);
    return compose(input, selected, count);
  }

  // A Project: a bare column reference passes through as it is, row ids and
  // all (whoever reads it gathers: the result copy does so once for every
  // column), so reordering or dropping columns launches nothing; any other
  // expression is evaluated into a new column.
  DeviceRelation project_node(const std::vector<BoundExpr>& expressions, const DeviceRelation& input) {
    DeviceRelation out;
    out.count = input.count;
    out.owned = input.owned;
    for (const auto& e : expressions) {
      if (e.op == Op::Column && e.column >= 0 && static_cast<std::size_t>(e.column) < input.columns.size() &&
          input.columns[e.column].present && input.columns[e.column].type == e.type) {
        DeviceColumnRef ref = input.columns[e.column];
        if (e.dictionary) ref.dictionary = e.dictionary;
        out.columns.push_back(std::move(ref));
        continue;
      }
      DeviceRelation one = project({e}, input);
      out.columns.push_back(one.columns[0]);
      out.owned.insert(out.owned.end(), one.owned.begin(), one.owned.end());
    }
    return out;
  }

  // Evaluates each expression at every position into new device columns.
  DeviceRelation project(const std::vector<BoundExpr>& expressions, const DeviceRelation& input) {
    DeviceRelation out;
    out.count = input.count;
    const std::size_t words = validity_words(input.count);
    for (const auto& e : expressions) {
      SlotMap slots;
      ExprProgram program = compile_expression(e, slots);
      auto values = std::make_shared<DeviceBuffer>(context_, std::max<std::size_t>(1, input.count * e.type.width()));
      auto validity = std::make_shared<DeviceBuffer>(context_, std::max<std::size_t>(1, words) * sizeof(uint32_t));
      kernels::project_rows(program, e.type.storage(), column_set(slots, input), nullptr, input.count, values->data(),
                            validity->as<uint32_t>(), error_, context_);
      DeviceColumnRef ref;
      ref.data = values->data();
      ref.validity = validity->as<uint32_t>();
      ref.type = e.type;
      ref.present = true;
      ref.dictionary = e.dictionary;
      out.columns.push_back(ref);
      out.owned.push_back(std::move(values));
      out.owned.push_back(std::move(validity));
    }
    return out;
  }

  // Both sides' columns side by side: the left's rows at the pairs' left
  // positions, the right's at their right positions.
  DeviceRelation join_output(const DeviceRelation& l, const DeviceRelation& r, kernels::JoinPairs& pairs) {
    auto left_positions = std::make_shared<DeviceBuffer>(std::move(pairs.left));
    auto right_positions = std::make_shared<DeviceBuffer>(std::move(pairs.right));
    DeviceRelation a = compose(l, left_positions, pairs.count), b = compose(r, right_positions, pairs.count);
    for (std::size_t c = 0; c < a.columns.size() && c < b.columns.size(); ++c)
      if (!a.columns[c].present && b.columns[c].present) a.columns[c] = b.columns[c];
    a.owned.insert(a.owned.end(), b.owned.begin(), b.owned.end());
    return a;
  }

  // Key columns of `input` (host key_bits: NULL flagged, -0.0 as 0.0).
  // A key is at most 64 bits (the planner leaves wider equalities as
  // conditions), but may have a 128-bit step: narrowed() evaluates it first.
  kernels::KeyColumns keys_of(const DeviceRelation& input, const std::vector<const BoundExpr*>& keys) {
    DeviceRelation readable = input;
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
    return kernels::evaluate_keys(programs, classes, column_set(slots, readable), readable.count, error_, context_);
  }

  // Equi-join: key columns of both sides, the hash table on the build side
  // (node.build_right), pairs ordered by (left, right). A Filter below
  // either side has run as its own operator.
  // Later: a fact table probing several dimension tables in one pass (star
  // schema), and the probe side's filter fused into the probe.
  DeviceRelation hash_join(const PlanNode& node) {
    DeviceRelation left = run(*node.child), right = run(*node.right);
    std::vector<const BoundExpr*> left_keys, right_keys;
    for (const auto& k : node.keys) {
      left_keys.push_back(&k.left);
      right_keys.push_back(&k.right);
    }
    kernels::JoinPairs pairs;
    {
      kernels::KeyColumns lk = keys_of(left, left_keys), rk = keys_of(right, right_keys);
      pairs = kernels::hash_join(lk, rk, node.build_right, context_, node.left_outer, node.full_outer);
    }
    if (node.left_outer) return outer_output(left, right, pairs, node.full_outer);
    return join_output(left, right, pairs);
  }

  // A LEFT or FULL JOIN's output: join_output() of its pairs, a side's
  // columns materialized with NULL where its position is kNoMatch (the
  // right side's for a left row with no match; with `full`, the left
  // side's for a right row with no match too).
  DeviceRelation outer_output(const DeviceRelation& l, const DeviceRelation& r, kernels::JoinPairs& pairs, bool full) {
    auto matched_of = [&](DeviceBuffer& positions) {  // kNoMatch becomes 0, a row read only under the flag
      auto matched = std::make_shared<DeviceBuffer>(context_, std::max<std::size_t>(1, pairs.count));
      kernels::split_unmatched(positions.as<uint32_t>(), pairs.count, matched->as<uint8_t>(), context_);
      return matched;
    };
    std::vector<std::shared_ptr<DeviceBuffer>> flags{matched_of(pairs.right)};
    if (full) flags.push_back(matched_of(pairs.left));
    std::vector<int> right_columns, left_columns;
    for (std::size_t c = 0; c < r.columns.size(); ++c)
      if (r.columns[c].present && !(c < l.columns.size() && l.columns[c].present))
        right_columns.push_back(static_cast<int>(c));
    for (std::size_t c = 0; full && c < l.columns.size(); ++c)
      if (l.columns[c].present) left_columns.push_back(static_cast<int>(c));
    // A side with no rows is not read: its columns are NULL constants.
    DeviceRelation out;
    if (r.count == 0) {
      out = compose(l, std::make_shared<DeviceBuffer>(std::move(pairs.left)), pairs.count);
    } else if (full && l.count == 0) {
      out = compose(r, std::make_shared<DeviceBuffer>(std::move(pairs.right)), pairs.count);
    } else {
      out = join_output(l, r, pairs);
    }
    for (const auto& matched : flags) {
      DeviceColumnRef flag;
      flag.data = matched->data();
      flag.type = DataType::boolean();
      flag.present = true;
      out.columns.push_back(flag);
      out.owned.push_back(matched);
    }
    const int right_flag = r.count == 0 ? -1 : static_cast<int>(out.columns.size() - flags.size());
    const int left_flag = l.count == 0 ? -1 : static_cast<int>(out.columns.size() - 1);  // with `full`: the last
    std::vector<BoundExpr> values;
    std::vector<int> columns;
    auto extend = [&](const DeviceRelation& side, const std::vector<int>& side_columns, int flag) {
      for (int c : side_columns) {
        const DeviceColumnRef& column = side.columns[c];
        values.push_back(null_extended(c, column.rowid ? DataType::bigint() : column.type, column.dictionary, flag));
        columns.push_back(c);
      }
    };
    extend(r, right_columns, right_flag);
    extend(l, left_columns, left_flag);
    DeviceRelation extended = project(values, out);
    out.columns.resize(out.columns.size() - flags.size());
    for (std::size_t i = 0; i < columns.size(); ++i) out.columns[columns[i]] = extended.columns[i];
    out.owned.insert(out.owned.end(), extended.owned.begin(), extended.owned.end());
    return out;
  }

  DeviceRelation nested_loop_join(const PlanNode& node) {
    DeviceRelation left = run(*node.child), right = run(*node.right);
    if (static_cast<double>(left.count) * static_cast<double>(right.count) > 4e9)
      throw Error(ErrorKind::Execution, "a join without an equality would produce over 4 billion pairs");
    // A condition with a 128-bit step: every pair, then the condition as a
    // Filter (narrowed()); the pair kernels have no 128-bit interpreter.
    const bool wide = node.predicate && is_wide(*node.predicate);
    SlotMap slots;
    ExprProgram program;
    if (node.predicate && !wide) program = compile_expression(*node.predicate, slots);
    ColumnSet set = column_set(slots, left, &right);
    kernels::JoinPairs pairs = kernels::nested_loop_join(program, set, left.count, right.count, error_, context_);
    DeviceRelation joined = join_output(left, right, pairs);
    return wide ? filter(joined, *node.predicate) : joined;
  }

  // A reference to input column `c` as an expression (rowid as BIGINT).
  static BoundExpr column_ref(const DeviceRelation& input, int c) {
    BoundExpr ref;
    ref.op = Op::Column;
    ref.column = c;
    ref.type = input.columns[c].rowid ? DataType::bigint() : input.columns[c].type;
    return ref;
  }

  // The first occurrence of each distinct row (over all its columns), in
  // position order: the groups of all columns, at their first positions.
  DeviceRelation distinct(const DeviceRelation& input) {
    std::vector<BoundExpr> parts;
    for (std::size_t c = 0; c < input.columns.size(); ++c)
      if (input.columns[c].present)
        for (BoundExpr& part : order_parts(column_ref(input, static_cast<int>(c)))) parts.push_back(std::move(part));
    DeviceRelation readable = input;
    const std::vector<BoundExpr> refs = narrowed(readable, std::move(parts));
    std::vector<const BoundExpr*> keys;
    for (const auto& r : refs) keys.push_back(&r);
    kernels::Groups groups;
    {
      kernels::KeyColumns columns = keys_of(readable, keys);
      groups = kernels::assign_groups(columns, context_);
    }
    auto first = std::make_shared<DeviceBuffer>(std::move(groups.first));
    return compose(input, first, groups.count);
  }

  // ORDER BY: a stable sort of the positions, then a compose.
  // With `limit` (a Limit above): only the first `limit` rows, selected
  // without sorting the others where that is cheaper (kernels::top_positions).
  DeviceRelation sort(const std::vector<SortKey>& sort_keys, const DeviceRelation& input,
                      std::optional<std::size_t> limit) {
    trace::mark("sort-start");
    std::vector<BoundExpr> parts;
    std::vector<const SortKey*> part_of;
    for (const auto& k : sort_keys)
      for (BoundExpr& part : order_parts(column_ref(input, k.column))) {
        parts.push_back(std::move(part));
        part_of.push_back(&k);
      }
    DeviceRelation readable = input;
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
    ColumnSet set = column_set(slots, readable);
    if (limit && *limit < input.count) {
      auto top = std::make_shared<DeviceBuffer>(kernels::top_positions(keys, set, input.count, *limit, error_, context_));
      return compose(input, top, *limit);
    }
    auto order = std::make_shared<DeviceBuffer>(kernels::order_positions(keys, set, input.count, error_, context_));
    trace::mark("sort");
    return compose(input, order, input.count);
  }

  static kernels::AggregateOutput output_of(const BoundAggregate& a) {
    kernels::AggregateOutput out;
    out.kind = a.kind;
    out.double_argument = a.argument && a.argument->type.is_floating();
    out.decimal_scale = a.argument && a.argument->type.id == Type::Decimal ? a.argument->type.scale : -1;
    out.narrow_decimal = a.argument && a.argument->type.id == Type::Decimal && a.argument->type.precision <= 4;
    out.type = a.type.storage();
    return out;
  }

  // An Aggregate's groups in key order (PlanNode::key_order), when they
  // did not come out in it: a sort of the result by its key columns.
  DeviceRelation in_key_order(const PlanNode& node, DeviceRelation grouped) {
    if (!node.key_order || node.group_keys.empty()) return grouped;
    return sort(group_order(node.group_keys.size()), grouped, std::nullopt);
  }

  // GROUP BY: each aggregate reduced per group in the canonical order, final
  // values made on the device. Groups of the dense array come numbered in
  // key order, their keys decoded from their slots. Hash-table groups are
  // sorted when the plan asks for key order: those of one integer key come
  // in slot order, their keys read from the table; the others in order of
  // first appearance, their keys read at their first positions. The output
  // is [keys..., aggregates...], one row per group.
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

  // What the keys' values are known to lie in without reading them: a
  // VARCHAR column's codes index its dictionary.
  static std::vector<std::optional<kernels::KeyBounds>> known_bounds(const std::vector<BoundExpr>& keys,
                                                                     const DeviceRelation& input) {
    std::vector<std::optional<kernels::KeyBounds>> known(keys.size());
    for (std::size_t k = 0; k < keys.size(); ++k) {
      if (keys[k].op != Op::Column) continue;
      const DeviceColumnRef& c = input.columns[keys[k].column];
      if (c.type.id != Type::Varchar || !c.dictionary || c.rowid) continue;
      known[k] = kernels::KeyBounds{0, static_cast<int64_t>(c.dictionary->size()) - 1, c.validity != nullptr};
    }
    return known;
  }

  DeviceRelation grouped_aggregate(const PlanNode& node) {
    DeviceRelation input = run(*node.child);  // a Filter below runs as its own operator
    const std::vector<BoundAggregate> aggregates = narrowed(input, node.aggregates);
    const std::vector<BoundExpr> keys = narrowed(input, node.group_keys);
    SlotMap slots;
    std::vector<AggSpec> specs = compile_aggregates(aggregates, slots);
    std::vector<ExprProgram> key_programs;
    std::vector<Cls> key_classes;
    for (const auto& k : keys) {
      key_programs.push_back(compile_expression(k, slots));
      key_classes.push_back(compute_class(k.type));
    }
    ColumnSet set = column_set(slots, input);
    kernels::Groups groups =
        kernels::assign_groups(key_programs, key_classes, set, input.count, error_, context_, known_bounds(keys, input));
    DeviceBuffer states = group_states(specs, set, groups, input.count);
    const std::size_t group_count = groups.count;  // by_slot groups: numbered by aggregate_groups
    for (std::size_t a = 0; a < specs.size(); ++a)
      if (specs[a].kind == AggKind::CountDistinct)
        kernels::count_distinct(ExprProgram{}, specs[a].arg, specs[a].cls, set, kernels::row_groups(groups, context_),
                                input.count, group_count, states.as<AggState>() + a * group_count, error_, context_);

    DeviceRelation out;
    const std::size_t words = validity_words(group_count);
    if (groups.key_ordered || groups.hashed) {
      // Key columns decoded from the groups' slots.
      for (std::size_t k = 0; k < node.group_keys.size(); ++k) {
        const BoundExpr& key = node.group_keys[k];
        auto values = std::make_shared<DeviceBuffer>(context_, std::max<std::size_t>(1, group_count * key.type.width()));
        auto validity = std::make_shared<DeviceBuffer>(context_, std::max<std::size_t>(1, words) * sizeof(uint32_t));
        kernels::group_keys(groups, static_cast<int>(k), key.type.storage(), values->data(), validity->as<uint32_t>(),
                            context_);
        DeviceColumnRef ref;
        ref.type = key.type;
        ref.present = true;
        ref.dictionary = key.dictionary;
        ref.data = values->data();
        ref.validity = validity->as<uint32_t>();
        out.owned.push_back(std::move(values));
        out.owned.push_back(std::move(validity));
        out.columns.push_back(std::move(ref));
      }
    } else {
      // Key columns: each key's value at its group's first position.
      auto first = std::make_shared<DeviceBuffer>(std::move(groups.first));
      out = project(node.group_keys, compose(input, first, group_count));
    }
    for (std::size_t a = 0; a < specs.size(); ++a) {
      const BoundAggregate& bound = node.aggregates[a];
      const AggState* d_states = states.as<AggState>() + a * group_count;
      auto validity = std::make_shared<DeviceBuffer>(context_, std::max<std::size_t>(1, words) * sizeof(uint32_t));
      DeviceColumnRef ref;
      ref.type = bound.type;
      ref.present = true;
      ref.dictionary = bound.dictionary;
      if (bound.kind == AggKind::ArgMin || bound.kind == AggKind::ArgMax) {
        // The argument at each group's winning position; NULL where none.
        auto winners = std::make_shared<DeviceBuffer>(context_, std::max<std::size_t>(1, group_count) * sizeof(uint32_t));
        kernels::finalize_aggregate(output_of(bound), d_states, group_count, nullptr, validity->as<uint32_t>(),
                                    winners->as<uint32_t>(), error_, context_);
        DeviceRelation value = project({*bound.argument}, compose(input, winners, group_count));
        kernels::and_validity(const_cast<uint32_t*>(value.columns[0].validity), validity->as<uint32_t>(), words,
                              context_);
        ref.data = value.columns[0].data;
        ref.validity = value.columns[0].validity;
        out.owned.insert(out.owned.end(), value.owned.begin(), value.owned.end());
      } else {
        auto values = std::make_shared<DeviceBuffer>(context_, std::max<std::size_t>(1, group_count * bound.type.width()));
        kernels::finalize_aggregate(output_of(bound), d_states, group_count, values->data(), validity->as<uint32_t>(),
                                    nullptr, error_, context_);
        ref.data = values->data();
        ref.validity = validity->as<uint32_t>();
        out.owned.push_back(std::move(values));
        out.owned.push_back(validity);
      }
      out.columns.push_back(std::move(ref));
    }
    out.count = group_count;
    return groups.key_ordered ? std::move(out) : in_key_order(node, std::move(out));
  }

  // Aggregates: with GROUP BY, grouped_aggregate(); without, one fused
  // kernel with the Filter below inline, the packed kernel for ARG_MIN/
  // ARG_MAX over 32-bit orderings, and the hash table for COUNT(DISTINCT).
  DeviceRelation aggregate(const PlanNode& node) {
    if (auto star = match_star_join(node))
      if (auto fused = star_join_aggregate(node, *star)) return in_key_order(node, std::move(*fused));
    if (!node.group_keys.empty()) return grouped_aggregate(node);
    const PlanNode* source = node.child.get();
    const BoundExpr* predicate = nullptr;
    // A predicate with a 128-bit step runs as its own Filter (narrowed()):
    // the fused kernel has no 128-bit interpreter. So does the predicate
    // below aggregates whose values have one, which are evaluated into
    // columns first, on the filtered rows only.
    if (source->kind == PlanKind::Filter && !is_wide(*source->predicate) && !has_wide_value(node.aggregates)) {
      predicate = &*source->predicate;
      source = source->child.get();
    }
    DeviceRelation input = run(*source);
    const std::vector<BoundAggregate> aggregates = narrowed(input, node.aggregates);
    SlotMap slots;
    ExprProgram filter_program;
    if (predicate) filter_program = compile_expression(*predicate, slots);
    std::vector<AggSpec> specs = compile_aggregates(aggregates, slots);
    ColumnSet set = column_set(slots, input);
    std::vector<AggState> states(specs.size());

    std::vector<std::size_t> generic, packed_index;
    std::vector<kernels::PackedArg> packed;
    for (std::size_t a = 0; a < specs.size(); ++a) {
      const BoundAggregate& bound = node.aggregates[a];
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
    if (!generic.empty()) {
      // At most kMaxAggregates a kernel (their states live in registers).
      for (std::size_t begin = 0; begin < generic.size(); begin += kMaxAggregates) {
        const std::size_t end = std::min(generic.size(), begin + kMaxAggregates);
        std::vector<AggSpec> generic_specs;
        for (std::size_t i = begin; i < end; ++i) generic_specs.push_back(specs[generic[i]]);
        std::vector<AggState> generic_states =
            kernels::aggregate_rows(filter_program, generic_specs, set, nullptr, input.count, error_, context_);
        for (std::size_t i = begin; i < end; ++i) states[generic[i]] = generic_states[i - begin];
      }
    }
    for (std::size_t a = 0; a < specs.size(); ++a) {
      if (specs[a].kind != AggKind::CountDistinct) continue;
      DeviceBuffer state(context_, sizeof(AggState));
      kernels::count_distinct(filter_program, specs[a].arg, specs[a].cls, set, nullptr, input.count, 1,
                              state.as<AggState>(), error_, context_);
      context_.copy_to_host(&states[a], state.data(), sizeof(AggState));
    }
    // One row of results, built on the host and uploaded: the select list
    // above reads it like any other relation.
    std::vector<HostColumn> host;
    uint32_t final_error = 0;
    for (std::size_t a = 0; a < specs.size(); ++a) {
      const BoundAggregate& bound = node.aggregates[a];
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
    check_errors(final_error);
    return upload(host, 1);
  }

  static kernels::StarColumn star_column(const DeviceColumnRef& c) {
    if (!c.present || c.rowid || c.rows)
      throw Error(ErrorKind::Invalid, "internal: a star join column that is not a table's own column");
    return {c.data, c.validity, c.type.id};
  }

  // The Aggregate over a star join (engine/star_join.hpp) in one pass over
  // the fact table. Empty when the kernel declines (its run-time conditions
  // fail): the general operators then run, with the same answer.
  std::optional<DeviceRelation> star_join_aggregate(const PlanNode& node, const StarJoin& star) {
    // The star kernel has no 128-bit interpreter: such a filter or aggregate value takes the general path.
    if ((star.fact_filter && is_wide(*star.fact_filter)) || has_wide_value(node.aggregates)) return std::nullopt;
    for (const StarDimension& d : star.dimensions)
      if (d.source->kind == PlanKind::Filter && is_wide(*d.source->predicate)) return std::nullopt;
    const std::size_t profiled = profile_ ? profile_->operators.size() : 0;
    DeviceRelation fact = run(*star.fact_scan);
    SlotMap slots;
    kernels::StarQueryInput query;
    if (star.fact_filter) query.fact_filter = compile_expression(*star.fact_filter, slots);
    for (const AggSpec& spec : compile_aggregates(node.aggregates, slots)) query.aggregates.push_back({spec.kind, spec.arg});
    query.fact_columns = column_set(slots, fact);
    query.fact_rows = fact.count;
    std::vector<DeviceRelation> dimensions;  // alive until the kernel is done with their row ids
    std::vector<SlotMap> dimension_slots;     // alive as long as the filters compiled with them
    for (const StarDimension& d : star.dimensions) {
      // A filtered dimension: its Scan, with the filter handed to the kernel
      // (evaluated as it reads the dimension, no compaction).
      const bool filtered = d.source->kind == PlanKind::Filter;
      dimensions.push_back(run(filtered ? *d.source->child : *d.source));
      const DeviceRelation& relation = dimensions.back();
      const DeviceColumnRef& key = relation.columns.at(d.dimension_key);
      kernels::StarDimensionInput input;
      if (filtered) {
        SlotMap& filter_slots = dimension_slots.emplace_back();
        input.filter = compile_expression(*d.source->predicate, filter_slots);
        input.filter_columns = column_set(filter_slots, relation);
      }
      input.fact_key = star_column(fact.columns.at(d.fact_key));
      DeviceColumnRef own_key = key;
      own_key.rows = nullptr;
      input.key = star_column(own_key);
      input.rows = key.rows ? key.rows->as<uint32_t>() : nullptr;
      input.count = relation.count;
      input.table_rows = d.table->table->rows;
      query.dimensions.push_back(std::move(input));
    }
    for (const StarGroupKey& k : star.group_keys) {
      kernels::StarDimensionInput& d = query.dimensions[k.dimension];
      query.group_keys.push_back({k.dimension, static_cast<int>(d.group_columns.size())});
      DeviceColumnRef column = dimensions[k.dimension].columns.at(k.column);
      column.rows = nullptr;  // read at the dimension rows the probe finds
      d.group_columns.push_back(star_column(column));
    }
    trace::mark("star-setup");
    kernels::StarResult result = kernels::star_join_aggregate(query, error_, context_);
    if (!result.done) {
      if (profile_) profile_->operators.resize(profiled);  // the general operators run them again
      return std::nullopt;
    }
    if (profile_)
      note_ = "fused star join over " + std::to_string(star.dimensions.size()) + " dimension" +
              (star.dimensions.size() == 1 ? "" : "s");

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
    DeviceRelation out = upload(host, rows);
    trace::mark("star-upload");
    return out;
  }

  // One value of `expr` at one position, computed on the device.
  Slot evaluate_at(const BoundExpr& expr, const DeviceRelation& input, int64_t position) {
    auto one = std::make_shared<DeviceBuffer>(context_, sizeof(uint32_t));
    uint32_t p = static_cast<uint32_t>(position);
    context_.copy_to_device(one->data(), &p, sizeof p);
    DeviceRelation row = compose(input, one, 1);
    std::vector<HostColumn> value = copy_to_host(project({expr}, row), 1);
    Slot s = load_raw(value[0].bytes.data(), expr.type.storage(), 0);
    s.valid = value[0].is_valid(0);
    return s;
  }

  // Host columns (a fused operator's small result) onto the device: packed
  // into one buffer and one copy, which does not wait for the device
  // (DeviceContext::copy_to_device).
  DeviceRelation upload(const std::vector<HostColumn>& host, std::size_t rows) {
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
    auto buffer = std::make_shared<DeviceBuffer>(context_, packed.size());
    context_.copy_to_device(buffer->data(), packed.data(), packed.size());
    DeviceRelation out;
    out.count = rows;
    for (std::size_t c = 0; c < host.size(); ++c) {
      DeviceColumnRef ref;
      ref.data = buffer->as<char>() + at[2 * c];
      ref.type = host[c].type;
      ref.present = true;
      ref.dictionary = host[c].dictionary;
      if (host[c].has_nulls()) ref.validity = reinterpret_cast<const uint32_t*>(buffer->as<char>() + at[2 * c + 1]);
      out.columns.push_back(ref);
    }
    out.owned.push_back(std::move(buffer));
    return out;
  }

  // Results up to this size come back in one copy.
  static constexpr std::size_t kOneCopyBytes = std::size_t{1} << 20;

  // The result's first `visible` columns, gathered on the device and copied
  // back.
  // With `error`, the first operator's error comes back too (in the same copy).
  std::vector<HostColumn> copy_to_host(const DeviceRelation& input, std::size_t visible, uint32_t* error = nullptr) {
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
    // error word, and comes back in one copy: copying each array back on
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
        kernels::project_rows(program, refs[c].type.storage(), column_set(slots, input), nullptr, count,
                              packed.as<char>() + at[2 * c], reinterpret_cast<uint32_t*>(packed.as<char>() + at[2 * c + 1]),
                              error_, context_);
      }
      trace::mark("copy-project");
      GPUSQL_CUDA_TRY(cudaMemcpyAsync(packed.as<char>() + error_at, error_words_, error_words * sizeof(uint32_t),
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
      DeviceRelation dense = project(refs, input);
      GPUSQL_CUDA_TRY(cudaMemcpyAsync(error_host.data(), error_words_, error_words * sizeof(uint32_t),
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

std::unique_ptr<Executor> make_cuda_executor(DeviceContext& context, const QueryControl& control) {
  return std::make_unique<CudaExecutor>(context, control);
}

}  // namespace gpusql
