#include "storage/host_column.hpp"

#include <algorithm>
#include <atomic>
#include <bit>

namespace gpusql {

void HostColumn::set_null(std::size_t row) {
  if (validity.empty()) {
    validity.assign(validity_words(size), ~0u);
    // Bits past the last row stay 0 so a popcount of the bitmap counts rows.
    if (size % 32) validity.back() = (1u << (size % 32)) - 1;
  }
  validity[row / 32] &= ~(1u << (row % 32));
}

std::size_t HostColumn::null_count() const {
  if (validity.empty()) return 0;
  std::size_t valid = 0;
  for (uint32_t w : validity) valid += std::popcount(w);
  return size - valid;
}

std::shared_ptr<Dictionary> sorted_dictionary(std::vector<std::string_view> strings) {
  std::sort(strings.begin(), strings.end());
  strings.erase(std::unique(strings.begin(), strings.end()), strings.end());
  auto dictionary = std::make_shared<Dictionary>();
  dictionary->values = StringPool::of(strings);
  return dictionary;
}

uint64_t Dictionary::next_id() {
  static std::atomic<uint64_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed);
}

uint32_t Dictionary::lower_bound(std::string_view s) const {
  return static_cast<uint32_t>(std::lower_bound(values.begin(), values.end(), s) - values.begin());
}

uint32_t Dictionary::upper_bound(std::string_view s) const {
  return static_cast<uint32_t>(std::upper_bound(values.begin(), values.end(), s) - values.begin());
}

}  // namespace gpusql
