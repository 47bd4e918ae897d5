// ARG_MIN/ARG_MAX without GROUP BY by the packed technique: the ordering
// value's order-preserving 32-bit code and the row's position share one
// 64-bit word, so a single atomicMin/atomicMax (after a warp and a block
// pre-reduction) finds the best value and, among equal values, the lowest
// position -- the host executor's answer, in any reduction order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/aggregate_state.hpp"
#include "storage/device_memory.hpp"

namespace gpusql::kernels {

// Whether values of `type` have a 32-bit order-preserving code.
bool packable_type(Type type);

struct PackedArg {
  AggKind kind = AggKind::ArgMin;  // ArgMin or ArgMax
  Type type = Type::Integer;       // of the ordering value (packable_type)
  ExprProgram order;               // the ordering value
};

struct PackedArgResult {
  bool fits = true;       // false: a value had no 32-bit code (NaN, out of range); use the generic path
  int64_t position = -1;  // the winning position; -1 when every value is NULL or nothing is selected
};

// One pass over `count` positions that `predicate` selects (an empty
// program selects all) for up to kMaxAggregates ARG_MIN/ARG_MAX. Run-time
// errors are OR-ed into *d_error. Synchronizes to return the results.
std::vector<PackedArgResult> packed_arg_extreme(const ExprProgram& predicate, const std::vector<PackedArg>& args,
                                                const ColumnSet& columns, std::size_t count, uint32_t* d_error,
                                                DeviceContext& context);

// The same for one ARG_MIN over a plain column, in the two ways the
// benchmark compares: the packed atomicMin, and a compare-and-swap loop on
// a (value, position) word per block. Writes the packed word to *d_result
// (initialize to ~0ull). No synchronization.
void packed_arg_min_int32(const int32_t* d_values, std::size_t count, unsigned long long* d_result,
                          DeviceContext& context);
void cas_arg_min_int32(const int32_t* d_values, std::size_t count, unsigned long long* d_result,
                       DeviceContext& context);

}  // namespace gpusql::kernels
