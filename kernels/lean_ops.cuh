// The lean aggregate ops: a state of one 64-bit word (int64 or double bits)
// and how two states that both hold items combine. Shared by the lean and
// dense folds (aggregate.cu) and the whole-column reduce (column_reduce.cu),
// so every path combines with the same expression as agg_combine() in
// core/aggregate_state.hpp and gives the same bits.
#pragma once

#include <cstdint>

#include "core/aggregate_state.hpp"

namespace gpusql::kernels {

enum class LeanOp : uint8_t { CountStar, Count, SumInt, SumDouble, MinInt, MinDouble, MaxInt, MaxDouble };

__device__ __forceinline__ double as_double(int64_t bits) { return __longlong_as_double(bits); }
__device__ __forceinline__ int64_t as_bits(double d) { return __double_as_longlong(d); }

// The bits of a op b for two states that both hold items (lean_combine()'s
// case, and the all-live fold's every combine).
template <LeanOp OP>
__device__ __forceinline__ int64_t live_combine(int64_t a, int64_t b, uint32_t& error) {
  if constexpr (OP == LeanOp::SumInt) {
    uint32_t e = 0;
    const int64_t r = checked_add(a, b, e);
    if (e) error |= kEvalSumOverflow;
    return r;
  } else if constexpr (OP == LeanOp::SumDouble) {
    return as_bits(as_double(a) + as_double(b));
  } else if constexpr (OP == LeanOp::MinInt) {
    return b < a ? b : a;
  } else if constexpr (OP == LeanOp::MinDouble) {
    return as_double(b) < as_double(a) ? b : a;
  } else if constexpr (OP == LeanOp::MaxInt) {
    return b > a ? b : a;
  } else {
    static_assert(OP == LeanOp::MaxDouble);
    return as_double(b) > as_double(a) ? b : a;
  }
}

}  // namespace gpusql::kernels
