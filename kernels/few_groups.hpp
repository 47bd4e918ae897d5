// GROUP BY into few groups with exact aggregates: one pass over the rows,
// each block folding into shared-memory states with atomics, then one
// atomic per state and block into global memory. No sort by group and no
// materialized arguments. Only aggregates whose result does not depend on
// the order of the rows qualify (COUNT, and SUM/AVG/MIN/MAX over integers
// and DECIMALs: exact), so the states equal the canonical reduction's
// (core/aggregate_state.hpp) and the host executor's answers.
#pragma once

#include <cstddef>
#include <vector>

#include "kernels/group_by.hpp"

namespace gpusql::kernels {

// At most this many groups go through aggregate_few_groups(): its states
// stay in shared memory, and with more groups the rows of a warp collide
// less in any one state, so the sort-based path is no longer the slower.
constexpr std::size_t kFewGroups = 64;

// Whether aggregate_few_groups() can compute `specs` over `groups`:
// groups numbered per position (not by_slot), at most kFewGroups of them,
// and every aggregate order-independent.
bool few_groups_apply(const std::vector<AggSpec>& specs, const Groups& groups);

// aggregate_groups() for few_groups_apply()'s case: each aggregate's state
// per group at [a * groups.count + g], the same states as the canonical
// order gives. Arguments are evaluated at every position (run-time errors
// to *d_error).
DeviceBuffer aggregate_few_groups(const std::vector<AggSpec>& specs, const ColumnSet& columns, const Groups& groups,
                                  std::size_t count, uint32_t* d_error, DeviceContext& context);

}  // namespace gpusql::kernels
