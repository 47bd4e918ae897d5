// What the planner knows of a column's values without reading all of them:
// its number of distinct values, estimated from a sample. Join ordering
// needs it to tell a key (one row per value) from a many-to-many column
// (TPC-H's c_nationkey: 25 values over every customer).
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

}  // namespace gpusql
