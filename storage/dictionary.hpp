// The sorted, order-preserving string dictionary behind a VARCHAR column.
// Code i is the i-th smallest distinct string (byte-wise order, as SQLite's
// BINARY collation), so comparisons and ORDER BY on strings run on codes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpusql {

struct Dictionary {
  std::vector<std::string> values;  // sorted, distinct

  // Index of the first entry >= s (== size() when none).
  uint32_t lower_bound(std::string_view s) const;
  // Index of the first entry > s.
  uint32_t upper_bound(std::string_view s) const;
  std::size_t size() const { return values.size(); }
};

}  // namespace gpusql
