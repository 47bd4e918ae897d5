// The fused star join (execution/star_join.hpp): one pass over the fact table
// that filters, probes every dimension and aggregates per group.
//
// Each dimension's selected rows go into a direct-mapped table indexed by
// key - min(key) (dimension keys are dense surrogate keys in a star schema),
// holding the dimension row: a probe is one load. Groups are numbered densely
// by the mixed radix of their keys' offsets from each key's minimum over the
// selected dimension rows, so a group's state sits at a computed address and
// the aggregates are integer atomics (exact in any order). Each group also
// keeps its first fact row, which orders the groups as the general operators
// would (first appearance).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/aggregate_state.hpp"
#include "storage/device_memory.hpp"

namespace gpusql {

constexpr int kStarMaxDimensions = 4;
constexpr int kStarMaxGroupKeys = 4;
constexpr int kStarMaxAggregates = 8;

}  // namespace gpusql

namespace gpusql::kernels {

constexpr int kStarMaxKeysPerDimension = kStarMaxGroupKeys;

struct StarColumn {
  const void* data = nullptr;
  const uint32_t* validity = nullptr;  // null: no NULLs
  Type type = Type::Integer;
};

struct StarDimensionInput {
  StarColumn fact_key;              // the fact table's column (row = fact row)
  StarColumn key;                   // the dimension's key column
  const uint32_t* rows = nullptr;   // the selected dimension rows (ascending), or null for all
  std::size_t count = 0;            // how many selected
  // The dimension's own WHERE conjuncts over its rows (Shape::Empty: none),
  // which the kernels evaluate as they read the dimension: its selected rows
  // are then never compacted, and no count is read back before the probe.
  ExprProgram filter;
  ColumnSet filter_columns;
  std::size_t table_rows = 0;       // rows of the dimension table
  std::vector<StarColumn> group_columns;  // this dimension's GROUP BY columns (no NULLs)
};

struct StarGroupKeyInput {
  int dimension = 0;
  int index = 0;  // into that dimension's group_columns
};

struct StarAggregateInput {
  AggKind kind = AggKind::CountStar;
  ExprProgram argument;  // over the fact columns; empty for COUNT(*)
};

struct StarQueryInput {
  ExprProgram fact_filter;  // Shape::Empty: none
  ColumnSet fact_columns;   // what fact_filter and the arguments read (fact rows, identity)
  std::size_t fact_rows = 0;
  std::vector<StarDimensionInput> dimensions;
  std::vector<StarGroupKeyInput> group_keys;
  std::vector<StarAggregateInput> aggregates;
};

// The groups of the result, ordered by first fact row, column after column
// (no allocation per group: results of hundreds of groups are common).
struct StarResult {
  bool done = false;  // false: the shape's run-time conditions failed; run the general operators
  const char* why_not = "";
  std::size_t groups = 0;        // without GROUP BY: exactly one
  std::vector<int64_t> keys;     // [key][group]: each GROUP BY key's value (VARCHAR: its code)
  std::vector<AggState> states;  // [aggregate][group]: i (SUM/MIN/MAX) and count
  uint32_t error = 0;             // the query's error word when done (no need to read it again)
};

// Runs the star join. Run-time errors of the programs are OR-ed into
// *d_error, whose value after the probe comes back in StarResult::error.
// Synchronizes (twice: the dimensions' ranges, then the groups).
StarResult star_join_aggregate(const StarQueryInput& query, uint32_t* d_error, DeviceContext& context);

// How many star joins ran fused in this process (tests and benchmarks check
// that the fused path is the one taken).
std::size_t star_join_runs();

// Whether a SUM of `rows` values of `argument` stays below 2^63 in absolute
// value, whatever the values, by the types alone: a column of INTEGER, DATE
// or BOOLEAN, or one operation between such columns and constants. When it
// does, the fused kernel's two's-complement total is exact without watching
// the largest absolute value (no partial sum in any order can overflow);
// otherwise the kernel keeps it and the host checks count * largest < 2^63.
bool sum_cannot_overflow(const ExprProgram& argument, const ColumnSet& columns, std::size_t rows);


}  // namespace gpusql::kernels
