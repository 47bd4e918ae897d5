// The CPU reference of the kernel benchmark (bench/kernel_bench.cu): each
// operator the benchmark times on the GPU, written as a plain multi-threaded
// loop over host copies of the same inputs (OpenMP over every core when the
// compiler has it; threads() says how many ran). Not the host executor: that
// one runs whole queries, single-threaded, and is the reference of the query
// and SSB benchmarks. These are what a hand-written CPU operator does, so the
// GPU figures have a CPU figure beside them measured in the same run.
//
// Results follow the GPU operators' semantics where the benchmark checks
// them: positions ascending, ties by the lower position.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpusql::bench::cpu {

// Threads the loops below run on (1 without OpenMP).
int threads();

// Positions i with predicate(v[i]) ascending into `out` (room for n); returns
// their count. v < t as the engine compares a REAL with a DOUBLE (widened).
std::size_t filter_less(const float* v, std::size_t n, double t, uint32_t* out);
// a[i] < t AND b[i] < t (b read only where a passes).
std::size_t filter_both_less(const float* a, const float* b, std::size_t n, float t, uint32_t* out);

double sum(const double* v, std::size_t n);

struct ArgMin {
  int32_t value;
  uint64_t index;  // the lowest index holding the minimum
};
ArgMin arg_min(const int32_t* v, std::size_t n);

// Equi-join of unique build keys with probe keys by an open-addressing hash
// table: builds, probes and writes the (probe, build) position pairs (room
// for probe_rows each: a probe row matches one build row at most); returns
// their count.
std::size_t hash_join(const int32_t* build, std::size_t build_rows, const int32_t* probe, std::size_t probe_rows,
                      uint32_t* probe_positions, uint32_t* build_positions);

// All pairs (i, j) with (x[i] - x[j])^2 < limit, written out; returns the count.
std::size_t distance_pairs(const double* x, std::size_t n, double limit, std::vector<uint32_t>& left,
                           std::vector<uint32_t>& right);

// SUM(values) GROUP BY keys in [0, groups): one partial array per thread,
// then merged; returns the sums by key.
std::vector<double> group_sum(const int32_t* keys, const double* values, std::size_t n, std::size_t groups);

// Positions sorted by key, ties by position (stable): a parallel sort of
// (key, position) pairs.
void sort_positions(const int32_t* keys, std::size_t n, std::vector<uint32_t>& positions);
void sort_positions_descending(const double* keys, std::size_t n, std::vector<uint32_t>& positions);

// The k smallest keys' positions, in order (ties by position): each thread's
// k smallest, then the k smallest of those.
void top_positions(const int32_t* keys, std::size_t n, std::size_t k, std::vector<uint32_t>& positions);

}  // namespace gpusql::bench::cpu
