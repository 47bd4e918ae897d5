// The TPC-H generator's randomness and parallelism: a counter-based random
// stream, so that a row's values depend only on (seed, stream, row) and never
// on how rows are spread over threads, and a plain parallel for over rows.
// Internal to bench/tpch.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

namespace gpusql::tpch::detail {

constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ull;

inline uint64_t mix64(uint64_t x) {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// One independent sequence per table and per free-text column: building a
// column or not never shifts another column's values.
enum class Stream : uint64_t {
  TextPool = 1,
  Part,
  PartName,
  PartComment,
  Supplier,
  SupplierAddress,
  SupplierComment,
  SupplierRemarks,  // which suppliers get "Customer ... Complaints" / "Recommends"
  PartSupp,
  PartSuppComment,
  Customer,
  CustomerAddress,
  CustomerComment,
  OrderLines,
  Order,
  OrderComment,
  LineComment,
  NationComment,
  RegionComment,
};

class Rng {
 public:
  Rng(uint64_t seed, Stream stream, uint64_t row)
      : state_(mix64(mix64(seed + static_cast<uint64_t>(stream) * kGolden) + row * kGolden)) {}
  uint64_t next() {
    state_ += kGolden;
    return mix64(state_);
  }
  // Uniform in [lo, hi].
  int64_t uniform(int64_t lo, int64_t hi) {
    const uint64_t range = static_cast<uint64_t>(hi - lo) + 1;
    return lo + static_cast<int64_t>(static_cast<unsigned __int128>(next()) * range >> 64);
  }

 private:
  uint64_t state_;
};

inline unsigned thread_count(unsigned requested) {
  if (requested) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

// Runs body(begin, end) over [0, n) in contiguous chunks of at least
// `min_chunk` items on up to `threads` threads.
template <class Body>
void parallel_for(std::size_t n, unsigned threads, Body body, std::size_t min_chunk = 1 << 14) {
  const std::size_t workers = std::min<std::size_t>(threads, std::max<std::size_t>(1, n / min_chunk));
  if (workers <= 1) {
    body(std::size_t{0}, n);
    return;
  }
  std::vector<std::thread> pool;
  for (std::size_t w = 0; w < workers; ++w) pool.emplace_back([&, w] { body(n * w / workers, n * (w + 1) / workers); });
  for (auto& t : pool) t.join();
}

}  // namespace gpusql::tpch::detail
