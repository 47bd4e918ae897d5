// Aggregate states (core/aggregate_state.hpp) on the host: AVG over
// integers keeps an exact total past the int64 range, the same state in
// any order of additions, while SUM reports its overflow.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "core/aggregate_state.hpp"

using namespace gpusql;

namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

Slot int_slot(int64_t v) {
  Slot s;
  s.valid = true;
  s.i = v;
  return s;
}

__int128 exact_total(const AggState& s) { return static_cast<__int128>(s.d) * (static_cast<__int128>(1) << 64) + s.i; }

// The canonical reduction (as both executors run it) of `values`.
AggState canonical(AggKind kind, const std::vector<int64_t>& values, uint32_t& error) {
  return reduce_sequence_host(
      kind, Cls::Int, values.size(),
      [&](AggState& s, std::size_t i) { agg_fold_value(kind, Cls::Int, s, int_slot(values[i]), error); }, error);
}

}  // namespace

TEST_CASE("AVG over integers: an exact total past the int64 range, in any order", "[aggregate]") {
  std::mt19937_64 random(7);
  const int64_t near_ends[] = {kMax, kMin, kMax - 1, kMin + 1, -1, 0, 1, kMax / 2, kMin / 2};
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{2049}, std::size_t{70001}}) {
    for (int mix = 0; mix < 3; ++mix) {
      INFO("rows " << n << ", mix " << mix);
      std::vector<int64_t> values(n);
      __int128 expected = 0;
      for (auto& v : values) {
        // 0: all near the top (the total climbs past 2^63 many times);
        // 1: both ends at random; 2: any value.
        v = mix == 0   ? kMax - static_cast<int64_t>(random() % 3)
            : mix == 1 ? near_ends[random() % 9]
                       : static_cast<int64_t>(random());
        expected += v;
      }
      uint32_t error = 0;
      const AggState tree = canonical(AggKind::Avg, values, error);
      CHECK(error == 0);
      CHECK(tree.count == n);
      CHECK(exact_total(tree) == expected);

      // One value after another, and from the back combining single states:
      // the same bits.
      AggState forward, backward;
      for (int64_t v : values) agg_fold_value(AggKind::Avg, Cls::Int, forward, int_slot(v), error);
      for (std::size_t k = n; k-- > 0;) {
        AggState one;
        agg_fold_value(AggKind::Avg, Cls::Int, one, int_slot(values[k]), error);
        backward = agg_combine(AggKind::Avg, Cls::Int, backward, one, error);
      }
      CHECK(error == 0);
      CHECK(forward.i == tree.i);
      CHECK(forward.d == tree.d);
      CHECK(backward.i == tree.i);
      CHECK(backward.d == tree.d);

      // The total as a double is rounded once, as the conversion of the exact value.
      CHECK(total_to_double(tree.d, tree.i) == static_cast<double>(expected));
    }
  }
}

TEST_CASE("AVG's total as a double is static_cast<double>(i) below 2^63", "[aggregate]") {
  for (int64_t i : {int64_t{0}, int64_t{1}, int64_t{-1}, kMax, kMin, kMax - 511, kMax - 512, kMax - 1023,
                    (int64_t{1} << 53) + 1, -(int64_t{1} << 53) - 1, (int64_t{1} << 62) + 3, int64_t{0x7fffffff},
                    int64_t{0xffffffff}, int64_t{0x100000001}, -int64_t{0x100000001}}) {
    AggState s;
    s.i = i;
    INFO(i);
    CHECK(total_to_double(s.d, s.i) == static_cast<double>(i));
  }
  AggState two_maxima;
  two_maxima.i = -2;  // 2^64 - 2 modulo 2^64
  two_maxima.d = 1;
  CHECK(total_to_double(two_maxima.d, two_maxima.i) == 0x1p64);
}

TEST_CASE("SUM over integers is exact past the int64 range; a BIGINT result fails only at the end", "[aggregate]") {
  uint32_t error = 0;
  const AggState sum = canonical(AggKind::Sum, {kMax, 1}, error);
  CHECK(error == 0);
  CHECK(wide_sum(sum) == static_cast<__int128>(kMax) + 1);
  int64_t high = 0;
  final_value(AggKind::Sum, false, -1, Type::BigInt, sum, error, high);
  CHECK((error & kEvalSumOverflow) != 0);
  error = 0;
  const Slot wide = final_value(AggKind::Sum, false, 2, Type::HugeInt, sum, error, high);
  CHECK(error == 0);
  CHECK(wide_of(wide.i, high) == static_cast<__int128>(kMax) + 1);
  // Past the range and back: no error, the exact total.
  const AggState back = canonical(AggKind::Sum, {kMax, kMax, -kMax, -kMax + 1}, error);
  CHECK(error == 0);
  CHECK(final_value(AggKind::Sum, false, -1, Type::BigInt, back, error, high).i == 1);
  CHECK(error == 0);
  const AggState avg = canonical(AggKind::Avg, {kMax, 1}, error);
  CHECK(error == 0);
  CHECK(exact_total(avg) == static_cast<__int128>(kMax) + 1);
}

TEST_CASE("AVG's division emulates the x87 long double DuckDB divides in", "[aggregate]") {
  // The oracle: this host's long double, where it is the x87 80-bit format.
  if constexpr (std::numeric_limits<long double>::digits == 64) {
    std::mt19937_64 rng(42);
    auto check = [](int128 n, uint128 d) {
      // Both operands as long doubles: exact below 2^64, rounded once above.
      auto as_long_double = [](uint128 v) {
        return static_cast<long double>(static_cast<uint64_t>(v >> 64)) * 0x1p64L +
               static_cast<long double>(static_cast<uint64_t>(v));
      };
      const uint128 magnitude = n < 0 ? static_cast<uint128>(-(n + 1)) + 1 : static_cast<uint128>(n);
      const bool exact = (magnitude >> 64) == 0 && (d >> 64) == 0;
      if (!exact) return;  // the two-part sum above may round twice; only exact operands compare
      const long double q = as_long_double(magnitude) / as_long_double(d);
      const double expected = static_cast<double>(n < 0 ? -q : q);
      INFO(static_cast<double>(n) << " / " << static_cast<double>(d));
      CHECK(long_double_quotient(n, d) == expected);
    };
    for (int i = 0; i < 200000; ++i) {
      const int bits = 1 + static_cast<int>(rng() % 64), dbits = 1 + static_cast<int>(rng() % 64);
      const uint64_t a = bits == 64 ? rng() : rng() % (uint64_t{1} << bits);
      const uint64_t b = dbits == 64 ? rng() : rng() % (uint64_t{1} << dbits);
      if (b == 0) continue;
      check(i % 2 ? -static_cast<int128>(a) : static_cast<int128>(a), b);
    }
    check(0, 7);
    check(34, 600);  // AVG of 0.04, 0.05, 0.10, 0.08, 0.00, 0.07 as DECIMAL(15,2)
    CHECK(long_double_quotient(15, 300) == 0.05);  // where total / 100 / 3 gave 0.049999999999999996
  }
  // Past 64 bits each operand rounds to a 64-bit mantissa first: 2^64 + 1 is 2^64.
  CHECK(long_double_quotient((int128{1} << 64) + 1, 2) == 0x1p63);
  CHECK(long_double_quotient(-(int128{1} << 100), uint128{1} << 98) == -4.0);
  // The narrow path (DECIMAL of at most 4 digits) divides in double.
  uint32_t error = 0;
  int64_t high = 0;
  const AggState s = canonical(AggKind::Avg, {6, 8, 1}, error);
  CHECK(final_value(AggKind::Avg, false, 2, Type::Double, s, error, high, true).d == 15 / (3.0 * 100));
  CHECK(final_value(AggKind::Avg, false, 2, Type::Double, s, error, high).d == 0.05);
}
