#include "storage/column_statistics.hpp"

#include <algorithm>
#include <cstring>
#include <vector>
#include <utility>

#include "storage/string_sets.hpp"

namespace gpusql {
namespace {

// The value's bits: two words for a 128-bit one, the second zero otherwise.
std::pair<uint64_t, uint64_t> bits_at(const HostColumn& column, std::size_t row) {
  const std::size_t width = column.type.width();
  uint64_t words[2] = {0, 0};
  std::memcpy(words, column.bytes.data() + row * width, std::min<std::size_t>(width, sizeof words));
  return {words[0], words[1]};
}

// How often each sampled value occurs, in one flat open-addressing table:
// std::unordered_map's node per value made estimating a column of a
// subquery's result most of the time of planning the query around it.
class ValueCounts {
 public:
  explicit ValueCounts(std::size_t values) {
    std::size_t capacity = 16;
    while (capacity < 2 * values) capacity <<= 1;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
  }
  void add(std::pair<uint64_t, uint64_t> v) {
    std::size_t i = hash(v) & mask_;
    while (slots_[i].count != 0 && (slots_[i].a != v.first || slots_[i].b != v.second)) i = (i + 1) & mask_;
    if (slots_[i].count == 0) {
      slots_[i].a = v.first;
      slots_[i].b = v.second;
      ++distinct_;
    }
    ++slots_[i].count;
  }
  std::size_t distinct() const { return distinct_; }
  // Values seen exactly once and exactly twice.
  std::pair<double, double> once_twice() const {
    double once = 0, twice = 0;
    for (const Slot& s : slots_) {
      once += s.count == 1;
      twice += s.count == 2;
    }
    return {once, twice};
  }

 private:
  struct Slot {
    uint64_t a = 0, b = 0;
    uint32_t count = 0;  // 0: empty
  };
  static std::size_t hash(std::pair<uint64_t, uint64_t> v) {
    uint64_t h = v.first * 0x9E3779B97F4A7C15ull ^ (v.second + 0x632BE59BD9B4E019ull);
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;  // splitmix64's finalizer: every bit counts in the low ones
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    return static_cast<std::size_t>(h ^ (h >> 31));
  }
  std::vector<Slot> slots_;
  std::size_t mask_ = 0, distinct_ = 0;
};

// Row k of a sample of `sample` rows out of `rows`: one from each of
// `sample` equal strata, at a place within it that a hash of k picks (a
// sample at a fixed stride would see a period in the data as duplicates).
std::size_t sample_row(std::size_t k, std::size_t rows, std::size_t sample) {
  // 64-bit products while they fit (a 128-bit division costs more than the rest of a row).
  const bool narrow = rows < (std::size_t{1} << 40);
  const auto begin = narrow ? k * rows / sample
                            : static_cast<std::size_t>(static_cast<unsigned __int128>(k) * rows / sample);
  const auto end = narrow ? (k + 1) * rows / sample
                          : static_cast<std::size_t>(static_cast<unsigned __int128>(k + 1) * rows / sample);
  uint64_t h = (k + 1) * 0x9E3779B97F4A7C15ull;  // splitmix64's finalizer
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  h ^= h >> 31;
  return begin + static_cast<std::size_t>(h % (end - begin));
}

template <class T>
ValueRange range_of(const HostColumn& column) {
  ValueRange r;
  const T* values = reinterpret_cast<const T*>(column.bytes.data());
  const bool nulls = column.has_nulls();
  for (std::size_t row = 0; row < column.size; ++row) {
    if (nulls && !column.is_valid(row)) continue;
    const double v = static_cast<double>(values[row]);
    if (v != v) continue;  // NaN
    if (!r.known) {
      r = {true, v, v};
    } else {
      r.min = std::min(r.min, v);
      r.max = std::max(r.max, v);
    }
  }
  return r;
}

}  // namespace

ValueRange value_range(const HostColumn& column) {
  if (column.is_plain()) return {};  // no codes yet to span
  switch (column.type.storage()) {
    case Type::Boolean: return range_of<uint8_t>(column);
    case Type::Integer:
    case Type::Date: return range_of<int32_t>(column);
    case Type::Varchar: return range_of<uint32_t>(column);
    case Type::BigInt:
    case Type::Decimal: return range_of<int64_t>(column);
    case Type::Real: return range_of<float>(column);
    case Type::Double: return range_of<double>(column);
    case Type::HugeInt: break;
  }
  return {};
}

double estimate_distinct(const HostColumn& column) {
  const std::size_t rows = column.size;
  if (rows == 0) return 0;
  const bool whole = rows <= kDistinctSampleRows;
  const std::size_t sample = whole ? rows : kDistinctSampleRows;
  ValueCounts seen(sample);
  std::size_t valid = 0;
  for (std::size_t k = 0; k < sample; ++k) {
    const std::size_t row = whole ? k : sample_row(k, rows, sample);
    if (!column.is_valid(row)) continue;
    ++valid;
    seen.add(column.is_plain() ? std::pair<uint64_t, uint64_t>{hash_bytes((*column.strings)[row]), 0} : bits_at(column, row));
  }
  const double distinct = static_cast<double>(seen.distinct());
  if (whole || valid == 0) return distinct;
  const double valid_rows = static_cast<double>(rows - column.null_count());
  const auto [once, twice] = seen.once_twice();
  if (once == distinct) return valid_rows;  // no value twice: a key, as far as the sample tells
  const double chao = distinct + once * once / (2 * std::max(twice, 1.0));
  return std::clamp(chao, distinct, valid_rows);
}

}  // namespace gpusql
