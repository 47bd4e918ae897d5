// The primitives physical operators are written over, once: a host
// implementation (plain C++ on all cores: the reference, and the engine
// without a GPU) and a CUDA one (adapters onto kernels/). Both return the
// same bits for the same input -- the same positions in the same order, the
// same values, aggregates reduced in the same canonical order
// (core/aggregate_state.hpp) -- which the tests check query by query.
//
// Run-time errors (an overflow, a failed CAST) are reported in the order
// the operators ran: the host throws at once; the device records them per
// stage, and the first stage with an error is the one thrown (at
// check_errors(), or when a result comes back).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "execution/chunk.hpp"
#include "common/query_control.hpp"
#include "planner/expression_compiler.hpp"
#include "planner/plan.hpp"
#include "storage/host_column.hpp"

namespace gpusql {

struct StarJoin;

// A join's pairs, in (left, right) order: left[i] with right[i].
struct JoinPositions {
  PositionsPtr left, right;
  std::size_t count = 0;
  // Nested loop only: these are every pair, and the join's condition is
  // still to be applied (the backend could not evaluate it per pair).
  bool condition_pending = false;
};

// How a hash join matches (PlanOperator's fields of the same names).
struct HashJoinSpec {
  const std::vector<JoinKey>* keys = nullptr;
  bool build_right = true;
  bool left_outer = false;
  bool full_outer = false;
};

// A hash join's build side, built once for every chunk that probes it.
class JoinBuild {
 public:
  virtual ~JoinBuild() = default;
};

// GROUP BY's result: [keys..., aggregates...], one row per group.
struct GroupedChunk {
  Chunk chunk;
  bool key_ordered = false;  // the groups come in key order (ORDER BY every key, NULLs last)
};

// Time of a stretch of work: wall time on the host, device time on the GPU.
class StageTimer {
 public:
  virtual ~StageTimer() = default;
  virtual void start() = 0;
  virtual double stop_milliseconds() = 0;  // waits for the work in between
};

class ComputeBackend {
 public:
  virtual ~ComputeBackend() = default;
  virtual MemorySpace space() const = 0;
  virtual std::string name() const = 0;  // "host" or "gpu"
  // The database's settings changed (the host backend's threads).
  virtual void configure(const Settings&) {}

  // ---- a query's run ----
  virtual void begin_query() = 0;
  // After each operator call: later errors belong to a later stage.
  virtual void end_stage() = 0;
  // Throws the first stage's error raised so far, if any.
  virtual void check_errors() = 0;
  virtual std::unique_ptr<StageTimer> timer() = 0;

  // ---- sources ----
  // Rows [begin, end) of `table` in the plan's column numbering: its
  // columns from `first_column` on, its rowid right after them, the rest of
  // `column_count` absent. Throws Error(Device) when the table is not where
  // this backend reads.
  virtual Chunk scan(const Table& table, int first_column, int column_count, std::size_t begin, std::size_t end) = 0;
  // Host columns (a small result built on the host) as a chunk.
  virtual Chunk from_host(std::vector<HostColumn> columns, std::size_t rows) = 0;

  // ---- positions ----
  // The positions of `input` at which `predicate` is TRUE, ascending.
  virtual PositionsPtr select(const Chunk& input, const BoundExpr& predicate) = 0;
  // rows[positions[i]] for every i.
  virtual PositionsPtr gather(const Positions& rows, const Positions& positions) = 0;
  // begin, begin + 1, ..., begin + count - 1.
  virtual PositionsPtr sequence(std::size_t begin, std::size_t count) = 0;
  // The first position of each distinct row (over every present column),
  // ascending.
  virtual PositionsPtr distinct(const Chunk& input) = 0;
  // The positions in ORDER BY `keys` order (stable); with `limit`, only the
  // first `limit` of them.
  virtual PositionsPtr order(const Chunk& input, const std::vector<SortKey>& keys,
                             std::optional<std::size_t> limit) = 0;

  // ---- values ----
  // Each expression evaluated at every position of `input`: a chunk of
  // those columns alone.
  virtual Chunk evaluate(const Chunk& input, const std::vector<BoundExpr>& expressions) = 0;
  // Chunks with the same columns, one after the other, in new columns
  // (every present column; the absent stay absent).
  virtual Chunk concatenate(const std::vector<Chunk>& chunks) = 0;
  // The first `count` columns at every position, on the host. Throws the
  // query's first error, if any, once they are there.
  virtual std::vector<HostColumn> to_host(const Chunk& input, std::size_t count) = 0;
  // The first names.size() columns as a table named `name` (a subquery's
  // rows, which the query around it joins), where this backend reads
  // tables; a 128-bit DECIMAL column narrowed to 18 digits where every value
  // fits (storage/result_table.hpp). Throws as to_host().
  virtual std::shared_ptr<Table> to_table(Chunk input, const std::vector<std::string>& names, std::string name) = 0;

  // ---- joins ----
  virtual JoinPositions hash_join(const Chunk& left, const Chunk& right, const HashJoinSpec& spec) = 0;
  // A join's right side (`build`, keyed by each JoinKey's right), built
  // once; then the pairs of each chunk of the left side (keyed by each
  // JoinKey's left) with it, as hash_join() with build_right would give
  // them (with `left_outer`, a left position with no match once, with
  // kNoMatch).
  virtual std::unique_ptr<JoinBuild> build_join(const Chunk& build, const std::vector<JoinKey>& keys) = 0;
  virtual JoinPositions probe_join(const JoinBuild& build, const Chunk& probe, const std::vector<JoinKey>& keys,
                                   bool left_outer) = 0;
  // Every pair for which `condition` (over both sides' columns; null: a
  // cross join) holds.
  virtual JoinPositions nested_loop_join(const Chunk& left, const Chunk& right, const BoundExpr* condition) = 0;
  // A BOOLEAN column: whether each of `positions` is a match, not
  // kernels::kNoMatch; each kNoMatch becomes 0, a row then read only under
  // the flag.
  virtual Chunk matched_flags(Positions& positions) = 0;

  // ---- aggregates ----
  virtual GroupedChunk group_aggregate(const Chunk& input, const std::vector<BoundExpr>& keys,
                                       const std::vector<BoundAggregate>& aggregates) = 0;
  // The aggregates over every position (one row); with `filter`, a
  // position it rejects keeps its place in the reduction order as an empty
  // state (the fused filter and aggregate).
  virtual Chunk aggregate(const Chunk& input, const BoundExpr* filter,
                          const std::vector<BoundAggregate>& aggregates) = 0;

  // ---- fused operators some backends have ----
  virtual bool runs_star_joins() const { return false; }
  // The star join `star` under `aggregate` in one pass (engine/star_join);
  // empty when it declines at run time (the general operators then run).
  virtual std::optional<GroupedChunk> star_join_aggregate(const PlanNode& aggregate, const StarJoin& star);
};

std::unique_ptr<ComputeBackend> make_host_backend(const QueryControl& control);
std::unique_ptr<ComputeBackend> make_cuda_backend(DeviceContext& context, const QueryControl& control);

// ---- what both backends and the operators share ----

// A scan's chunk of `count` rows in the plan's column numbering: `columns`
// (a table's, in order) from `first_column` on, its rowid right after them,
// the rest of `column_count` absent; all read through `rows` (null: the
// table's own rows from the first).
Chunk scan_chunk(std::vector<ColumnView> columns, int first_column, int column_count, PositionsPtr rows,
                 std::size_t count, MemorySpace space);

// `input` at `positions` (in that order): each column read through the
// composed selection (backend.gather()), no value copied.
Chunk compose(ComputeBackend& backend, const Chunk& input, const PositionsPtr& positions);

// The 64-bit values by which `value` sorts, groups and compares: itself, or
// for a 128-bit DECIMAL its WideHigh and WideLow parts.
std::vector<BoundExpr> order_parts(const BoundExpr& value);

// A reference to column `c` of `input` as an expression (its type, a rowid
// as BIGINT, and its dictionary).
BoundExpr column_ref(const Chunk& input, std::size_t c);

// The compiled aggregates: argument programs (ARG_MIN/ARG_MAX: the ordering
// value; their returned argument is evaluated at the winning row afterwards).
std::vector<AggSpec> compile_aggregates(const std::vector<BoundAggregate>& aggregates, SlotMap& slots);

// Writes the aggregate's final value into row `row` of `column` (COUNT of
// nothing is 0; every other aggregate of nothing is NULL). ARG_MIN/ARG_MAX
// are written by the backend, which evaluates the argument.
void store_aggregate_result(const BoundAggregate& aggregate, const AggState& state, HostColumn& column, std::size_t row,
                            uint32_t& error);

// The ColumnSet for a program's slots over `input`, `right` (when given)
// supplying the columns of a join's right side, read at the pair's right
// position; `lookup` gives a lookup table's pointer where this backend
// reads it.
ColumnSet column_set(const SlotMap& slots, const Chunk& input, const Chunk* right,
                     const std::function<ColumnPointer(const std::shared_ptr<const LookupTable>&)>& lookup);

}  // namespace gpusql
