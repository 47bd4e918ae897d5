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

// The range of values[row] over the rows `valid(row)` holds for.
template <class T, class Valid>
ValueRange range_of(const T* values, std::size_t rows, Valid valid) {
  ValueRange r;
  for (std::size_t row = 0; row < rows; ++row) {
    if (!valid(row)) continue;
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

template <class Valid>
ValueRange range_of(DataType type, const std::byte* values, std::size_t rows, Valid valid) {
  switch (type.storage()) {
    case Type::Boolean: return range_of(reinterpret_cast<const uint8_t*>(values), rows, valid);
    case Type::Integer:
    case Type::Date: return range_of(reinterpret_cast<const int32_t*>(values), rows, valid);
    case Type::Varchar: return range_of(reinterpret_cast<const uint32_t*>(values), rows, valid);
    case Type::BigInt:
    case Type::Decimal: return range_of(reinterpret_cast<const int64_t*>(values), rows, valid);
    case Type::Real: return range_of(reinterpret_cast<const float*>(values), rows, valid);
    case Type::Double: return range_of(reinterpret_cast<const double*>(values), rows, valid);
    case Type::HugeInt: break;
  }
  return {};
}

}  // namespace

ValueRange value_range(const HostColumn& column, std::size_t first_row) {
  if (column.is_plain() || first_row >= column.size) return {};  // no codes yet to span
  const std::byte* values = column.bytes.data() + first_row * column.type.width();
  const std::size_t rows = column.size - first_row;
  if (!column.has_nulls()) return range_of(column.type, values, rows, [](std::size_t) { return true; });
  return range_of(column.type, values, rows, [&](std::size_t row) { return column.is_valid(first_row + row); });
}

ValueRange value_range(DataType type, const std::byte* values, std::size_t rows, const std::vector<uint32_t>& null_rows) {
  std::size_t next_null = 0;
  // Rows come in increasing order: the next NULL is the only one to test.
  return range_of(type, values, rows, [&](std::size_t row) {
    if (next_null < null_rows.size() && null_rows[next_null] == row) {
      ++next_null;
      return false;
    }
    return true;
  });
}

ValueRange merge(ValueRange a, ValueRange b) {
  if (!a.known) return b;
  if (!b.known) return a;
  return {true, std::min(a.min, b.min), std::max(a.max, b.max)};
}

std::size_t distinct_sample_size(std::size_t rows) { return std::min(rows, kDistinctSampleRows); }

std::size_t distinct_sample_row(std::size_t k, std::size_t rows) {
  return rows <= kDistinctSampleRows ? k : sample_row(k, rows, kDistinctSampleRows);
}

double estimate_distinct(const HostColumn& column, std::size_t first_row) {
  const std::size_t rows = column.size - std::min(first_row, column.size), sample = distinct_sample_size(rows);
  std::vector<SampledValue> values;
  values.reserve(sample);
  for (std::size_t k = 0; k < sample; ++k) {
    const std::size_t row = first_row + distinct_sample_row(k, rows);
    if (!column.is_valid(row)) continue;
    values.push_back(column.is_plain() ? SampledValue{hash_bytes((*column.strings)[row]), 0} : bits_at(column, row));
  }
  return estimate_distinct(values, rows, null_count(column, first_row));
}

std::size_t null_count(const HostColumn& column, std::size_t first_row) {
  if (first_row == 0) return column.null_count();
  std::size_t nulls = 0;
  if (column.has_nulls())
    for (std::size_t row = first_row; row < column.size; ++row) nulls += !column.is_valid(row);
  return nulls;
}

double estimate_distinct(const std::vector<SampledValue>& non_null_sampled, std::size_t rows, std::size_t null_rows) {
  if (rows == 0) return 0;
  ValueCounts seen(non_null_sampled.size());
  for (const SampledValue& v : non_null_sampled) seen.add(v);
  const double distinct = static_cast<double>(seen.distinct());
  if (rows <= kDistinctSampleRows || non_null_sampled.empty()) return distinct;
  const double valid_rows = static_cast<double>(rows - null_rows);
  const auto [once, twice] = seen.once_twice();
  if (once == distinct) return valid_rows;  // no value twice: a key, as far as the sample tells
  const double chao = distinct + once * once / (2 * std::max(twice, 1.0));
  return std::clamp(chao, distinct, valid_rows);
}

double appended_distinct(double old_distinct, std::size_t old_valid, ValueRange old_range, double new_distinct,
                         std::size_t new_valid, ValueRange new_range) {
  const bool disjoint = old_range.known && new_range.known &&
                        (old_range.max < new_range.min || new_range.max < old_range.min);
  const bool keys = old_distinct >= 0.9 * static_cast<double>(old_valid) &&
                    new_distinct >= 0.9 * static_cast<double>(new_valid);
  const double d = disjoint || keys ? old_distinct + new_distinct : std::max(old_distinct, new_distinct);
  return std::min(d, static_cast<double>(old_valid + new_valid));
}

}  // namespace gpusql
