// A small seeded generator (splitmix64) whose streams are the same on every
// platform and standard library, so a seed names one test case everywhere.
#pragma once

#include <cstdint>
#include <vector>

namespace gpusql::test::diff {

class Rng {
 public:
  // Seeds are mixed first: consecutive seeds start unrelated streams.
  explicit Rng(uint64_t seed) : state_(mix(seed ^ 0x2545F4914F6CDD1Dull)) {}

  uint64_t next() { return mix(state_ += 0x9E3779B97F4A7C15ull); }
  // Uniform in [0, n); 0 when n is 0.
  uint64_t below(uint64_t n) { return n == 0 ? 0 : next() % n; }
  // Uniform in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) {
    uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
    return static_cast<int64_t>(static_cast<uint64_t>(lo) + (span == 0 ? next() : below(span)));
  }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  bool chance(double p) { return unit() < p; }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }
  // An index drawn with the given relative weights.
  std::size_t weighted(const std::vector<double>& weights) {
    double total = 0;
    for (double w : weights) total += w;
    double x = unit() * total;
    for (std::size_t i = 0; i < weights.size(); ++i) {
      if (x < weights[i]) return i;
      x -= weights[i];
    }
    return weights.size() - 1;
  }

 private:
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t state_;
};

}  // namespace gpusql::test::diff
