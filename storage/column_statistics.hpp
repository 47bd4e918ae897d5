// What the planner knows of a column's values: its number of distinct
// values, estimated from a sample, and the range they span. Join ordering
// needs the first to tell a key (one row per value) from a many-to-many
// column (TPC-H's c_nationkey: 25 values over every customer), and the
// second to weigh a range condition (l_shipdate < DATE '1995-03-15').
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "storage/host_column.hpp"

namespace gpusql {

// Rows read by estimate_distinct(): at most this many, spread over the column.
constexpr std::size_t kDistinctSampleRows = std::size_t{1} << 16;

// The number of distinct non-NULL values of `column`: exact when it has at
// most kDistinctSampleRows rows; else from a sample of one row in each of
// kDistinctSampleRows equal stretches (a fixed pseudo-random place), where
// a sample of all-different values counts as a key (every non-NULL row
// distinct) and otherwise Chao's estimate d + f1^2 / (2 f2) from the sample's
// d distinct values, f1 seen once and f2 seen twice, at most the rows.
// At least 1 for a column with a value; 0 for one of NULLs only.
// With `first_row`, the same over rows first_row.. alone (an append's rows).
double estimate_distinct(const HostColumn& column, std::size_t first_row = 0);
// NULL rows of `column` from `first_row` on.
std::size_t null_count(const HostColumn& column, std::size_t first_row);

// The same from the sample alone, for a column whose values are never whole
// in one place (a CSV load to the device alone samples each chunk as it
// goes over): estimate_distinct() reads rows distinct_sample_row(k, rows)
// for k below distinct_sample_size(rows), in increasing order, and counts
// each non-NULL one's SampledValue (its bits, a plain string's hash_bytes).
using SampledValue = std::pair<uint64_t, uint64_t>;
std::size_t distinct_sample_size(std::size_t rows);
std::size_t distinct_sample_row(std::size_t k, std::size_t rows);
double estimate_distinct(const std::vector<SampledValue>& non_null_sampled, std::size_t rows, std::size_t null_rows);

// The smallest and largest non-NULL value of a column as doubles, in the
// terms its programs compare them: a DECIMAL's unscaled integer, a DATE's
// days, a VARCHAR's dictionary code (codes order as their strings), a
// BOOLEAN's 0 or 1. Not known for a column of NULLs (and NaNs) only or of
// 128-bit values.
struct ValueRange {
  bool known = false;
  double min = 0, max = 0;
};
ValueRange value_range(const HostColumn& column, std::size_t first_row = 0);
// The range of `rows` values of `type` at `values` (not plain strings), less
// the rows listed in `null_rows` (ascending); and two ranges' union.
ValueRange value_range(DataType type, const std::byte* values, std::size_t rows, const std::vector<uint32_t>& null_rows);
ValueRange merge(ValueRange a, ValueRange b);

// A column's distinct estimate after an append, from the old rows' and
// the appended rows' own, each over its `valid` (non-NULL) rows and with
// its value range (in the same terms; unknown for a VARCHAR): keys on both
// sides, or values in disjoint ranges, add up; otherwise the larger (the
// two share most values), never more than the rows. Both executors' loads
// use it, so that an append costs what it appends, not a sample of the
// whole table.
double appended_distinct(double old_distinct, std::size_t old_valid, ValueRange old_range, double new_distinct,
                         std::size_t new_valid, ValueRange new_range);

}  // namespace gpusql
