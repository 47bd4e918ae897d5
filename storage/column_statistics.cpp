#include "storage/column_statistics.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <utility>

namespace gpusql {
namespace {

// The value's bits: two words for a 128-bit one, the second zero otherwise.
std::pair<uint64_t, uint64_t> bits_at(const HostColumn& column, std::size_t row) {
  const std::size_t width = column.type.width();
  uint64_t words[2] = {0, 0};
  std::memcpy(words, column.bytes.data() + row * width, std::min<std::size_t>(width, sizeof words));
  return {words[0], words[1]};
}

struct PairHash {
  std::size_t operator()(const std::pair<uint64_t, uint64_t>& p) const {
    uint64_t h = p.first * 0x9E3779B97F4A7C15ull ^ (p.second + 0x632BE59BD9B4E019ull);
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

// Row k of a sample of `sample` rows out of `rows`: one from each of
// `sample` equal strata, at a place within it that a hash of k picks (a
// sample at a fixed stride would see a period in the data as duplicates).
std::size_t sample_row(std::size_t k, std::size_t rows, std::size_t sample) {
  const auto begin = static_cast<std::size_t>(static_cast<unsigned __int128>(k) * rows / sample);
  const auto end = static_cast<std::size_t>(static_cast<unsigned __int128>(k + 1) * rows / sample);
  uint64_t h = (k + 1) * 0x9E3779B97F4A7C15ull;  // splitmix64's finalizer
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  h ^= h >> 31;
  return begin + static_cast<std::size_t>(h % (end - begin));
}

}  // namespace

double estimate_distinct(const HostColumn& column) {
  const std::size_t rows = column.size;
  if (rows == 0) return 0;
  const bool whole = rows <= kDistinctSampleRows;
  const std::size_t sample = whole ? rows : kDistinctSampleRows;
  std::unordered_map<std::pair<uint64_t, uint64_t>, uint32_t, PairHash> seen;
  seen.reserve(sample);
  std::size_t valid = 0;
  for (std::size_t k = 0; k < sample; ++k) {
    const std::size_t row = whole ? k : sample_row(k, rows, sample);
    if (!column.is_valid(row)) continue;
    ++valid;
    ++seen[bits_at(column, row)];
  }
  const double distinct = static_cast<double>(seen.size());
  if (whole || valid == 0) return distinct;
  const double valid_rows = static_cast<double>(rows - column.null_count());
  double once = 0, twice = 0;
  for (const auto& [value, count] : seen) {
    if (count == 1) ++once;
    else if (count == 2) ++twice;
  }
  if (once == distinct) return valid_rows;  // no value twice: a key, as far as the sample tells
  const double chao = distinct + once * once / (2 * std::max(twice, 1.0));
  return std::clamp(chao, distinct, valid_rows);
}

}  // namespace gpusql
