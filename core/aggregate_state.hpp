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

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/expr_program.hpp"

namespace gpusql {

enum class AggKind : uint8_t { CountStar, Count, Sum, Min, Max, Avg, ArgMin, ArgMax, CountDistinct };

struct AggSpec {
  AggKind kind = AggKind::CountStar;
  Cls cls = Cls::Int;  // compute class of the argument
  ExprProgram arg;     // empty for COUNT(*)
};

// count: rows folded in (for COUNT(*) all rows; otherwise non-NULL ones).
// An empty state (count == 0) is the identity of combine().
//
// SUM and AVG over integers and DECIMALs keep their total exact beyond the
// int64 range, as DuckDB's 128-bit sums do: i holds the total modulo 2^64
// (as int64) and d the multiple of 2^64 to add, a whole number (exact as a
// double far beyond any row count). They use d, which the integer class
// leaves at 0 otherwise, so that the state does not grow: the kernels hold
// states in registers and shuffle them field by field. Being exact, the
// total is the same whatever the order of additions. A SUM typed BIGINT
// fails when its final total leaves the int64 range; a DECIMAL's SUM is a
// 128-bit DECIMAL(38, s) and cannot.
struct AggState {
  int64_t i = 0;
  double d = 0.0;
  uint64_t count = 0;
  int64_t position = -1;  // ARG_MIN/ARG_MAX: where the best value is (the lowest such position)
};

constexpr int kReduceThreads = 256;
constexpr int kReduceItems = 8;
constexpr int kReduceChunk = kReduceThreads * kReduceItems;
constexpr int kWarp = 32;
constexpr int kMaxAggregates = 8;

// ARG_MIN/ARG_MAX order: is (value a at pa) better than (b at pb)? Ties go to
// the lower position, so the answer is the same in any reduction order.
GPUSQL_HD bool arg_better(AggKind kind, Cls cls, int64_t ai, double ad, int64_t pa, int64_t bi, double bd, int64_t pb) {
  int c = cls == Cls::Double ? (ad < bd ? -1 : ad > bd ? 1 : 0) : (ai < bi ? -1 : ai > bi ? 1 : 0);
  if (kind == AggKind::ArgMax) c = -c;
  return c < 0 || (c == 0 && pa < pb);
}

// s.i + v for SUM/AVG over integers: a wrap past either end of int64
// counts in s.d (see AggState).
GPUSQL_HD void add_wide(AggState& s, int64_t v) {
  const int64_t r = static_cast<int64_t>(static_cast<uint64_t>(s.i) + static_cast<uint64_t>(v));
  if (((s.i ^ r) & (v ^ r)) < 0) s.d += v < 0 ? -1.0 : 1.0;
  s.i = r;
}

// `error` takes the failures of a fold or combine: none today (sums are
// exact), the word stays for aggregates that can fail.
GPUSQL_HD void agg_fold_value(AggKind kind, Cls cls, AggState& s, const Slot& v, uint32_t& error,
                              int64_t position = -1) {
  (void)error;
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
      if (cls == Cls::Double) s.d = first ? v.d : s.d + v.d;
      else if (first) s.i = v.i;
      else add_wide(s, v.i);
      break;
    case AggKind::Min:
      if (cls == Cls::Double) s.d = (first || v.d < s.d) ? v.d : s.d;
      else s.i = (first || v.i < s.i) ? v.i : s.i;
      break;
    case AggKind::Max:
      if (cls == Cls::Double) s.d = (first || v.d > s.d) ? v.d : s.d;
      else s.i = (first || v.i > s.i) ? v.i : s.i;
      break;
    case AggKind::ArgMin:
    case AggKind::ArgMax:
      if (first || arg_better(kind, cls, v.i, v.d, position, s.i, s.d, s.position)) {
        s.i = v.i;
        s.d = v.d;
        s.position = position;
      }
      break;
    default: break;
  }
}

GPUSQL_HD AggState agg_combine(AggKind kind, Cls cls, const AggState& a, const AggState& b, uint32_t& error) {
  (void)error;
  if (a.count == 0) return b;
  if (b.count == 0) return a;
  AggState r = a;
  r.count = a.count + b.count;
  switch (kind) {
    case AggKind::Sum:
    case AggKind::Avg:
      r.d = a.d + b.d;
      if (cls == Cls::Int) add_wide(r, b.i);
      break;
    case AggKind::Min:
      if (cls == Cls::Double) r.d = b.d < a.d ? b.d : a.d;
      else r.i = b.i < a.i ? b.i : a.i;
      break;
    case AggKind::Max:
      if (cls == Cls::Double) r.d = b.d > a.d ? b.d : a.d;
      else r.i = b.i > a.i ? b.i : a.i;
      break;
    case AggKind::ArgMin:
    case AggKind::ArgMax:
      if (arg_better(kind, cls, b.i, b.d, b.position, a.i, a.d, a.position)) {
        r.i = b.i;
        r.d = b.d;
        r.position = b.position;
      }
      break;
    default: break;
  }
  return r;
}

// The exact total of a SUM/AVG over integers (see AggState).
GPUSQL_HD int128 wide_sum(const AggState& s) {
  return static_cast<int128>(static_cast<int64_t>(s.d)) * (int128{1} << 64) + s.i;
}

// An aggregate's final value from its state, for both executors (ARG_MIN/
// ARG_MAX have none: the executor evaluates the argument at the winning
// position). `decimal_scale`: of a DECIMAL argument, -1 for others;
// `result`: the result's storage type (HugeInt: the upper word goes to
// `high`). A BIGINT SUM past the int64 range sets kEvalSumOverflow.
// AVG divides as DuckDB does: a DOUBLE total by the count; the exact total
// of integers and DECIMALs by count * 10^scale in `long double` (the
// narrow path, `narrow_decimal`: a DECIMAL of at most 4 digits, whose total
// DuckDB divides in double).
GPUSQL_HD Slot final_value(AggKind kind, bool double_argument, int decimal_scale, Type result, const AggState& s,
                           uint32_t& error, int64_t& high, bool narrow_decimal = false) {
  Slot value;
  value.valid = true;
  value.i = 0;
  high = 0;
  switch (kind) {
    case AggKind::Sum:
      if (double_argument) value.d = s.d;
      else if (result == Type::HugeInt) split_wide(wide_sum(s), value.i, high);
      else if (s.d != 0.0) error |= kEvalSumOverflow;
      else value.i = s.i;
      break;
    case AggKind::Min:
    case AggKind::Max:
      if (double_argument) value.d = s.d;
      else value.i = s.i;
      break;
    case AggKind::Avg: {
      if (double_argument) {
        value.d = s.d / static_cast<double>(s.count);
        break;
      }
      value.d = exact_average(wide_sum(s), s.count, decimal_scale, narrow_decimal);
      break;
    }
    default: value.i = static_cast<int64_t>(s.count); break;  // the counts
  }
  const bool counts = kind == AggKind::CountStar || kind == AggKind::Count || kind == AggKind::CountDistinct;
  if (!counts && s.count == 0) value.valid = false;
  return value;
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

// The canonical reduction of a sequence of n positions: fold(state, i)
// folds position i into a thread's state (or leaves it, for a row a fused
// filter rejects). Grouped aggregates reduce each group's ascending
// positions as their own sequence.
// Chunk c's state of that reduction: the chunks are independent, so a
// caller may fold them on several threads, then reduce_partials_host().
template <class Fold>
AggState reduce_chunk_host(AggKind kind, Cls cls, std::size_t n, std::size_t c, Fold&& fold, uint32_t& error) {
  AggState threads[kReduceThreads] = {};
  for (int t = 0; t < kReduceThreads; ++t)
    for (int k = 0; k < kReduceItems; ++k) {
      std::size_t i = c * kReduceChunk + static_cast<std::size_t>(k) * kReduceThreads + t;
      if (i >= n) break;
      fold(threads[t], i);
    }
  return block_tree_host(kind, cls, threads, error);
}

template <class Fold>
AggState reduce_sequence_host(AggKind kind, Cls cls, std::size_t n, Fold&& fold, uint32_t& error) {
  const std::size_t chunks = (n + kReduceChunk - 1) / kReduceChunk;
  std::vector<AggState> partials(chunks);
  for (std::size_t c = 0; c < chunks; ++c) partials[c] = reduce_chunk_host(kind, cls, n, c, fold, error);
  return reduce_partials_host(kind, cls, std::move(partials), error);
}

}  // namespace gpusql
