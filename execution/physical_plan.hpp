// The physical planner: the operators that run a plan on a compute backend.
// Each plan operator becomes its physical operator, except where a rule
// picks a fused one -- the same rules for every backend, so every backend
// runs the same steps in the same order:
//  - an Aggregate over a star join (execution/star_join.hpp) becomes
//    STAR_JOIN_AGGREGATE on a backend that has it, with the general
//    operators under it for when it declines at run time;
//  - an Aggregate without GROUP BY over a Filter takes the filter inline
//    (FILTER_UNGROUPED_AGGREGATE), unless the filter or an aggregate's value
//    has a 128-bit step (no fused kernel evaluates those);
//  - a Limit over a Sort sorts only the rows the limit keeps (TOP_N).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "execution/physical_operator.hpp"

namespace gpusql {

std::unique_ptr<PhysicalOperator> plan_physical(const PlanNode& root, const ComputeBackend& backend);

// The physical plan as EXPLAIN prints it: the operator tree (with `stats`,
// each operator's actual rows and time), then its pipelines.
std::string describe_physical_plan(PhysicalOperator& root,
                                   const std::map<const PhysicalOperator*, OperatorStats>* stats = nullptr);

}  // namespace gpusql
