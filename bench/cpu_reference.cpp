// See bench/cpu_reference.hpp. Each loop splits its rows into one
// contiguous share per thread (so outputs come in position order after an
// exclusive sum of the shares' counts); the sorts are libstdc++'s parallel
// mode (a multiway merge sort over OpenMP).
#include "bench/cpu_reference.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <queue>

#ifdef _OPENMP
#include <omp.h>
#include <parallel/algorithm>
#endif

namespace gpusql::bench::cpu {
namespace {

int thread_id() {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

// Thread t's share [begin, end) of n rows.
struct Share {
  std::size_t begin, end;
};
Share share_of(int t, int count, std::size_t n) {
  const std::size_t per = (n + count - 1) / count;
  const std::size_t begin = std::min(n, per * static_cast<std::size_t>(t));
  return {begin, std::min(n, begin + per)};
}

template <class Sequence, class Less>
void parallel_sort(Sequence& items, Less less) {
#ifdef _OPENMP
  __gnu_parallel::sort(items.begin(), items.end(), less);
#else
  std::sort(items.begin(), items.end(), less);
#endif
}

// Two passes over each share: count the rows `match(i)` selects (a
// non-zero value), then, after the exclusive sum of the shares' counts,
// emit(i, slot, value) for each in position order, slot counting from 0.
// Returns the count.
template <class Match, class Emit>
std::size_t count_then_emit(std::size_t n, Match match, Emit emit) {
  const int count = threads();
  std::vector<std::size_t> offsets(count + 1, 0);
#pragma omp parallel num_threads(count)
  {
    const int t = thread_id();
    const Share s = share_of(t, count, n);
    std::size_t mine = 0;
    for (std::size_t i = s.begin; i < s.end; ++i) mine += match(i) != 0;
    offsets[t + 1] = mine;
#pragma omp barrier
#pragma omp single
    for (int k = 0; k < count; ++k) offsets[k + 1] += offsets[k];
    std::size_t at = offsets[t];
    for (std::size_t i = s.begin; i < s.end; ++i)
      if (const auto value = match(i)) emit(i, at++, value);
  }
  return offsets[count];
}

// Positions i with holds(i), ascending, into `out`.
template <class Holds>
std::size_t select_positions(std::size_t n, uint32_t* out, Holds holds) {
  return count_then_emit(n, holds, [&](std::size_t i, std::size_t at, bool) { out[at] = static_cast<uint32_t>(i); });
}

uint64_t hash_slot(int32_t key, int shift) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(key)) * 0x9e3779b97f4a7c15ull) >> shift;
}

// (key, position) in one word whose unsigned order is the keys' order, then
// the positions'.
uint64_t packed(int32_t key, std::size_t position) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(key) ^ 0x80000000u) << 32) | position;
}

}  // namespace

int threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

std::size_t filter_less(const float* v, std::size_t n, double t, uint32_t* out) {
  return select_positions(n, out, [&](std::size_t i) { return static_cast<double>(v[i]) < t; });
}

std::size_t filter_both_less(const float* a, const float* b, std::size_t n, float t, uint32_t* out) {
  return select_positions(n, out, [&](std::size_t i) { return a[i] < t && b[i] < t; });
}

double sum(const double* v, std::size_t n) {
  double total = 0;
#pragma omp parallel for reduction(+ : total) schedule(static)
  for (std::size_t i = 0; i < n; ++i) total += v[i];
  return total;
}

ArgMin arg_min(const int32_t* v, std::size_t n) {
  const int count = threads();
  std::vector<ArgMin> partial(count, ArgMin{INT32_MAX, n});
#pragma omp parallel num_threads(count)
  {
    const int t = thread_id();
    const Share s = share_of(t, count, n);
    if (s.begin < s.end) {
      ArgMin best{v[s.begin], s.begin};
      for (std::size_t i = s.begin + 1; i < s.end; ++i)
        if (v[i] < best.value) best = {v[i], i};
      partial[t] = best;
    }
  }
  ArgMin best{INT32_MAX, n};
  for (const ArgMin& p : partial)  // shares in position order: the first minimum wins
    if (p.index != n && (best.index == n || p.value < best.value)) best = p;
  return best;
}

std::size_t hash_join(const int32_t* build, std::size_t build_rows, const int32_t* probe, std::size_t probe_rows,
                      uint32_t* probe_positions, uint32_t* build_positions) {
  // Slots: (key << 32) | (build position + 1), 0 empty; at least twice the rows.
  const int bits = std::max(4, static_cast<int>(std::bit_width(2 * build_rows - 1)));
  const int shift = 64 - bits;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  std::vector<uint64_t> slots(uint64_t{1} << bits, 0);
#pragma omp parallel for schedule(static)
  for (std::size_t r = 0; r < build_rows; ++r) {
    const uint64_t word = (static_cast<uint64_t>(static_cast<uint32_t>(build[r])) << 32) | (r + 1);
    for (uint64_t s = hash_slot(build[r], shift);; s = (s + 1) & mask) {
      std::atomic_ref<uint64_t> slot(slots[s]);
      uint64_t expected = 0;
      if (slot.compare_exchange_strong(expected, word, std::memory_order_relaxed)) break;
    }
  }
  auto find = [&](int32_t key) -> uint64_t {  // the build position + 1, 0 when none
    const uint64_t k = static_cast<uint32_t>(key);
    for (uint64_t s = hash_slot(key, shift);; s = (s + 1) & mask) {
      const uint64_t word = slots[s];
      if (word == 0) return 0;
      if ((word >> 32) == k) return word & 0xffffffffu;
    }
  };
  return count_then_emit(
      probe_rows, [&](std::size_t i) { return find(probe[i]); },
      [&](std::size_t i, std::size_t at, uint64_t found) {
        probe_positions[at] = static_cast<uint32_t>(i);
        build_positions[at] = static_cast<uint32_t>(found - 1);
      });
}

std::size_t distance_pairs(const double* x, std::size_t n, double limit, std::vector<uint32_t>& left,
                           std::vector<uint32_t>& right) {
  const int count = threads();
  std::vector<std::vector<uint32_t>> lefts(count), rights(count);
#pragma omp parallel num_threads(count)
  {
    const int t = thread_id();
    const Share s = share_of(t, count, n);
    for (std::size_t i = s.begin; i < s.end; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        const double d = x[i] - x[j];
        if (d * d < limit) {
          lefts[t].push_back(static_cast<uint32_t>(i));
          rights[t].push_back(static_cast<uint32_t>(j));
        }
      }
  }
  left.clear();
  right.clear();
  for (int t = 0; t < count; ++t) {
    left.insert(left.end(), lefts[t].begin(), lefts[t].end());
    right.insert(right.end(), rights[t].begin(), rights[t].end());
  }
  return left.size();
}

std::vector<double> group_sum(const int32_t* keys, const double* values, std::size_t n, std::size_t groups) {
  const int count = threads();
  std::vector<std::vector<double>> partial(count);
  std::vector<double> sums(groups, 0.0);
#pragma omp parallel num_threads(count)
  {
    const int t = thread_id();
    partial[t].assign(groups, 0.0);  // first touched by its thread
    double* mine = partial[t].data();
    const Share s = share_of(t, count, n);
    for (std::size_t i = s.begin; i < s.end; ++i) mine[keys[i]] += values[i];
#pragma omp barrier
    const Share g = share_of(t, count, groups);
    for (int k = 0; k < count; ++k)
      for (std::size_t i = g.begin; i < g.end; ++i) sums[i] += partial[k][i];
  }
  return sums;
}

void sort_positions(const int32_t* keys, std::size_t n, std::vector<uint32_t>& positions) {
  std::vector<uint64_t> items(n);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) items[i] = packed(keys[i], i);
  parallel_sort(items, std::less<uint64_t>{});
  positions.resize(n);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) positions[i] = static_cast<uint32_t>(items[i]);
}

void sort_positions_descending(const double* keys, std::size_t n, std::vector<uint32_t>& positions) {
  struct Item {
    uint64_t code;  // larger for a larger double (no NaNs in the benchmark's data)
    uint32_t position;
  };
  std::vector<Item> items(n);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    uint64_t bits;
    std::memcpy(&bits, &keys[i], sizeof bits);
    items[i] = {bits >> 63 ? ~bits : bits | (uint64_t{1} << 63), static_cast<uint32_t>(i)};
  }
  parallel_sort(items, [](const Item& a, const Item& b) {
    return a.code != b.code ? a.code > b.code : a.position < b.position;
  });
  positions.resize(n);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) positions[i] = items[i].position;
}

void top_positions(const int32_t* keys, std::size_t n, std::size_t k, std::vector<uint32_t>& positions) {
  const int count = threads();
  std::vector<std::vector<uint64_t>> best(count);
#pragma omp parallel num_threads(count)
  {
    const int t = thread_id();
    const Share s = share_of(t, count, n);
    std::priority_queue<uint64_t> heap;  // the share's k smallest so far, the largest on top
    for (std::size_t i = s.begin; i < s.end; ++i) {
      const uint64_t item = packed(keys[i], i);
      if (heap.size() < k) heap.push(item);
      else if (item < heap.top()) {
        heap.pop();
        heap.push(item);
      }
    }
    for (; !heap.empty(); heap.pop()) best[t].push_back(heap.top());
  }
  std::vector<uint64_t> all;
  for (const auto& b : best) all.insert(all.end(), b.begin(), b.end());
  const std::size_t take = std::min(k, all.size());
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(take), all.end());
  positions.resize(take);
  for (std::size_t i = 0; i < take; ++i) positions[i] = static_cast<uint32_t>(all[i]);
}

}  // namespace gpusql::bench::cpu
