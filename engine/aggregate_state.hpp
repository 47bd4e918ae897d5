// Aggregate states and the one reduction order both executors follow.
//
// Floating-point addition is not associative, so a parallel SUM gives the
// same bits on every run only if the order of additions is fixed. gpusql
// fixes it independently of the launch configuration:
//   - rows are cut into chunks of kReduceChunk consecutive positions;
//   - in a chunk, "thread" t folds positions t, t+256, ..., t+7*256 in order;
//   - the 256 thread states combine as a warp tree (shuffle-down offsets
//     16, 8, 4, 2, 1 within each group of 32) then the 8 warp states as the
//     same tree padded with empty states;
//   - the chunk states are then reduced by the same scheme, recursively,
//     until one is left.
// The CUDA kernels implement this with shuffles and shared memory; the host
// executor runs reduce_host() below. Both give the same bits.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/expr_program.hpp"

namespace gpusql {

enum class AggKind : uint8_t { CountStar, Count, Sum, Min, Max, Avg };

struct AggSpec {
  AggKind kind = AggKind::CountStar;
  Cls cls = Cls::Int;  // compute class of the argument
  ExprProgram arg;     // empty for COUNT(*)
};

// count: rows folded in (for COUNT(*) all rows; otherwise non-NULL ones).
// An empty state (count == 0) is the identity of combine().
struct AggState {
  int64_t i = 0;
  double d = 0.0;
  uint64_t count = 0;
};

constexpr int kReduceThreads = 256;
constexpr int kReduceItems = 8;
constexpr int kReduceChunk = kReduceThreads * kReduceItems;
constexpr int kWarp = 32;
constexpr int kMaxAggregates = 8;

GPUSQL_HD void agg_fold_value(AggKind kind, Cls cls, AggState& s, const Slot& v, uint32_t& error) {
  if (kind == AggKind::CountStar) {
    ++s.count;
    return;
  }
  if (!v.valid) return;
  bool first = s.count == 0;
  ++s.count;
  switch (kind) {
    case AggKind::Sum:
    case AggKind::Avg:
      if (cls == Cls::Double) {
        s.d = first ? v.d : s.d + v.d;
      } else {
        uint32_t e = 0;
        s.i = first ? v.i : checked_add(s.i, v.i, e);
        if (e) error |= kEvalSumOverflow;
      }
      break;
    case AggKind::Min:
      if (cls == Cls::Double) s.d = (first || v.d < s.d) ? v.d : s.d;
      else s.i = (first || v.i < s.i) ? v.i : s.i;
      break;
    case AggKind::Max:
      if (cls == Cls::Double) s.d = (first || v.d > s.d) ? v.d : s.d;
      else s.i = (first || v.i > s.i) ? v.i : s.i;
      break;
    default: break;
  }
}

GPUSQL_HD AggState agg_combine(AggKind kind, Cls cls, const AggState& a, const AggState& b, uint32_t& error) {
  if (a.count == 0) return b;
  if (b.count == 0) return a;
  AggState r = a;
  r.count = a.count + b.count;
  switch (kind) {
    case AggKind::Sum:
    case AggKind::Avg:
      if (cls == Cls::Double) {
        r.d = a.d + b.d;
      } else {
        uint32_t e = 0;
        r.i = checked_add(a.i, b.i, e);
        if (e) error |= kEvalSumOverflow;
      }
      break;
    case AggKind::Min:
      if (cls == Cls::Double) r.d = b.d < a.d ? b.d : a.d;
      else r.i = b.i < a.i ? b.i : a.i;
      break;
    case AggKind::Max:
      if (cls == Cls::Double) r.d = b.d > a.d ? b.d : a.d;
      else r.i = b.i > a.i ? b.i : a.i;
      break;
    default: break;
  }
  return r;
}

// The tree over 32 states that a warp's shuffle-down reduction computes;
// the result is in states[0].
inline void warp_tree_host(AggKind kind, Cls cls, AggState* states, uint32_t& error) {
  for (int offset = kWarp / 2; offset > 0; offset /= 2)
    for (int lane = 0; lane < offset; ++lane) states[lane] = agg_combine(kind, cls, states[lane], states[lane + offset], error);
}

// Combines 256 thread states as the kernels do: per warp, then over warps.
inline AggState block_tree_host(AggKind kind, Cls cls, AggState* thread_states, uint32_t& error) {
  AggState warps[kWarp] = {};
  for (int w = 0; w < kReduceThreads / kWarp; ++w) {
    warp_tree_host(kind, cls, thread_states + w * kWarp, error);
    warps[w] = thread_states[w * kWarp];
  }
  warp_tree_host(kind, cls, warps, error);
  return warps[0];
}

// Reduces chunk states (already folded) to one, by the recursive scheme.
inline AggState reduce_partials_host(AggKind kind, Cls cls, std::vector<AggState> partials, uint32_t& error) {
  while (partials.size() > 1) {
    std::vector<AggState> next((partials.size() + kReduceChunk - 1) / kReduceChunk);
    for (std::size_t c = 0; c < next.size(); ++c) {
      AggState threads[kReduceThreads] = {};
      for (int t = 0; t < kReduceThreads; ++t)
        for (int k = 0; k < kReduceItems; ++k) {
          std::size_t p = c * kReduceChunk + static_cast<std::size_t>(k) * kReduceThreads + t;
          if (p < partials.size()) threads[t] = agg_combine(kind, cls, threads[t], partials[p], error);
        }
      next[c] = block_tree_host(kind, cls, threads, error);
    }
    partials.swap(next);
  }
  return partials.empty() ? AggState{} : partials[0];
}

}  // namespace gpusql
