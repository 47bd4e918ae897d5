// What the planner knows of a column's values: its number of distinct
// values, estimated from a sample, and the range they span. Join ordering
// needs the first to tell a key (one row per value) from a many-to-many
// column (TPC-H's c_nationkey: 25 values over every customer), and the
// second to weigh a range condition (l_shipdate < DATE '1995-03-15').
#pragma once

#include <cstddef>

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
double estimate_distinct(const HostColumn& column);

// The smallest and largest non-NULL value of a column as doubles, in the
// terms its programs compare them: a DECIMAL's unscaled integer, a DATE's
// days, a VARCHAR's dictionary code (codes order as their strings), a
// BOOLEAN's 0 or 1. Not known for a column of NULLs (and NaNs) only or of
// 128-bit values.
struct ValueRange {
  bool known = false;
  double min = 0, max = 0;
};
ValueRange value_range(const HostColumn& column);

}  // namespace gpusql
