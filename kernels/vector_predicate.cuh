// Fast predicates over plain columns of one storage width, evaluated on
// 16-byte vectors: lane l of a warp holds V = 16/W consecutive values per
// step, a warp's step covers 32*V positions (each load instruction reads 512
// contiguous bytes), and 32/V steps give each lane 32 positions -- a warp
// span of 1024 -- whose flags fit one 32-bit word: bit s*V + j is position
// first + s*32*V + j, first being the span's start plus V*lane. Shared by
// the bitmask filter (kernels/filter_bitmask.cu) and the star join's vector
// probe (kernels/star_join.cu).
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/fast_predicate.cuh"

namespace gpusql::kernels {

constexpr int kVectorLanes = 32;
constexpr int kVectorSpan = kVectorLanes * 32;  // positions per warp span

constexpr int kVectorBytes = 16;

// A term as the vector kernels read it, decoded on the host (plain_term()).
struct PlainTerm {
  const void* data = nullptr;  // null: no column read; the term holds for every row unless `never`
  double value = 0;            // floating columns: compared as DOUBLE through `outcomes`
  uint64_t low = 0, range = 0; // integer columns: holds when value - low <= range (unsigned), != negate
  uint8_t outcomes = 0;
  bool is_float = false;       // REAL or DOUBLE
  bool negate = false;
  bool never = false;          // compared with a NULL constant: holds for no row
  bool ends_clause = true;     // the last term of its clause
};

// N terms (padded with terms that hold, each a clause of its own): passed
// by value and indexed at compile time once unrolled, so they stay in the
// parameter bank.
template <int N>
struct PlainTerms {
  PlainTerm terms[N];
};

template <int W>
using Storage = std::conditional_t<W == 1, uint8_t, std::conditional_t<W == 4, uint32_t, uint64_t>>;

// Whether one stored value satisfies the term: integers by the interval (in
// 32 bits below 8 bytes: set_interval() keeps low and high within the
// column's storage range), floats as DOUBLE by the outcome bits, as
// term_holds() decides.
template <int W>
__device__ __forceinline__ bool value_holds(const PlainTerm& t, Storage<W> v) {
  if constexpr (W == 8) {
    if (t.is_float) {
      const double x = __longlong_as_double(static_cast<long long>(v)), c = t.value;
      const int outcome = (x != x || c != c) ? 3 : x < c ? 0 : x == c ? 1 : 2;
      return (t.outcomes >> outcome) & 1u;
    }
    return (v - t.low <= t.range) != t.negate;
  } else {
    if constexpr (W == 4) {
      if (t.is_float) {
        const double x = static_cast<double>(__uint_as_float(v)), c = t.value;
        const int outcome = (x != x || c != c) ? 3 : x < c ? 0 : x == c ? 1 : 2;
        return (t.outcomes >> outcome) & 1u;
      }
    }
    return (static_cast<uint32_t>(v) - static_cast<uint32_t>(t.low) <= static_cast<uint32_t>(t.range)) != t.negate;
  }
}

// Value j of a 16-byte vector of W-byte values (j a constant once
// unrolled: the components stay in registers).
template <int W>
__device__ __forceinline__ Storage<W> vector_item(const uint4& raw, int j) {
  const uint32_t w[4] = {raw.x, raw.y, raw.z, raw.w};
  if constexpr (W == 8) return (static_cast<uint64_t>(w[2 * j + 1]) << 32) | w[2 * j];
  else if constexpr (W == 4) return w[j];
  else return static_cast<uint8_t>(w[j / 4] >> (8 * (j % 4)));
}

// The lane's 32 flag bits for one term: bit s*V + j is position
// first + s*32*V + j. FULL: every position of the span is below `count`;
// otherwise positions at or past it read nothing and get 0.
template <int W, bool FULL>
__device__ __forceinline__ uint32_t term_bits(const PlainTerm& t, uint64_t first, uint64_t count) {
  using T = Storage<W>;
  constexpr int V = kVectorBytes / W;
  constexpr int STEPS = 32 / V;
  const T* __restrict__ data = static_cast<const T*>(t.data);
  uint32_t bits = 0;
  if constexpr (FULL) {
    uint4 raw[STEPS];
#pragma unroll
    for (int s = 0; s < STEPS; ++s) raw[s] = __ldcs(reinterpret_cast<const uint4*>(data + first + s * kVectorLanes * V));
#pragma unroll
    for (int s = 0; s < STEPS; ++s)
#pragma unroll
      for (int j = 0; j < V; ++j) bits |= static_cast<uint32_t>(value_holds<W>(t, vector_item<W>(raw[s], j))) << (s * V + j);
  } else {
#pragma unroll
    for (int s = 0; s < STEPS; ++s)
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const uint64_t p = first + s * kVectorLanes * V + j;
        if (p < count && value_holds<W>(t, __ldg(data + p))) bits |= 1u << (s * V + j);
      }
  }
  return bits;
}

// The lane's flag bits for the whole predicate: clauses ANDed, each the OR
// of its terms' bits.
template <int W, int N, bool FULL>
__device__ __forceinline__ uint32_t predicate_bits(const PlainTerms<N>& p, uint64_t first, uint64_t count) {
  uint32_t result = ~0u, clause = 0;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    const PlainTerm& t = p.terms[i];
    uint32_t bits;
    if (t.data) bits = term_bits<W, FULL>(t, first, count);
    else bits = t.never ? 0u : ~0u;
    clause |= bits;
    if (t.ends_clause) {
      result &= clause;
      clause = 0;
    }
  }
  return result;
}


// t decoded for the vector kernels; `last`: t is the predicate's last term.
inline PlainTerm plain_term(const FastTerm& t, bool last) {
  PlainTerm u;
  u.ends_clause = !t.or_next || last;
  if (t.never) {
    u.never = true;
    return u;
  }
  u.data = t.data;
  u.outcomes = t.outcomes;
  u.is_float = is_double_type(t.type);
  if (u.is_float) {
    u.value = t.value.d;
  } else {
    u.low = static_cast<uint64_t>(t.low);
    u.range = static_cast<uint64_t>(t.high) - static_cast<uint64_t>(t.low);
    u.negate = t.negate;
  }
  return u;
}

// `p` with each run of ANDed single-term clauses on the same integer column
// (x >= 1 AND x <= 3, as BETWEEN binds) made one term of the intersection
// of their intervals: one read and one comparison where there were two.
// An empty intersection becomes a term that holds for no row.
inline FastPredicate merge_intervals(const FastPredicate& p) {
  FastPredicate out;
  auto single = [&](int i) { return !p.terms[i].or_next && (i == 0 || !p.terms[i - 1].or_next); };
  for (int i = 0; i < p.count; ++i) {
    const FastTerm& t = p.terms[i];
    if (out.count > 0 && single(i) && single(i - 1)) {
      FastTerm& last = out.terms[out.count - 1];
      const bool mergeable = [](const FastTerm& a, const FastTerm& b) {
        return !a.never && !b.never && !a.negate && !b.negate && !is_double_type(a.type) && a.data == b.data &&
               a.type == b.type && a.validity == b.validity && a.rows == b.rows;
      }(last, t);
      if (mergeable) {
        last.low = last.low > t.low ? last.low : t.low;
        last.high = last.high < t.high ? last.high : t.high;
        if (last.low > last.high) last.never = true;  // no value in both: no row
        continue;
      }
    }
    out.terms[out.count++] = t;
  }
  return out;
}

// The first N terms of `p` (N >= p.count), padded with terms that hold.
template <int N>
PlainTerms<N> plain_terms(const FastPredicate& p) {
  PlainTerms<N> terms;
  for (int i = 0; i < N; ++i) terms.terms[i] = i < p.count ? plain_term(p.terms[i], i + 1 == p.count) : PlainTerm{};
  return terms;
}

// The storage width (1, 4 or 8) that every column `p` reads shares, when
// positions are rows (no row-id vector), no column has NULLs and each
// starts on a 16-byte boundary; 0 otherwise, and when no term reads a column.
inline int vector_width(const FastPredicate& p) {
  int width = 0;
  for (int i = 0; i < p.count; ++i) {
    const FastTerm& t = p.terms[i];
    if (t.never) continue;
    const int w = storage_bytes(t.type);
    if (t.rows || t.validity || !t.data || reinterpret_cast<uintptr_t>(t.data) % kVectorBytes != 0) return 0;
    if (width != 0 && w != width) return 0;
    width = w;
  }
  return width == 1 || width == 4 || width == 8 ? width : 0;
}

}  // namespace gpusql::kernels
