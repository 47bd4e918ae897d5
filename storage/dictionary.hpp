// The sorted, order-preserving string dictionary behind a VARCHAR column.
// Code i is the i-th smallest distinct string (byte-wise order, as SQLite's
// BINARY collation), so comparisons and ORDER BY on strings run on codes.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace gpusql {

// A dictionary made from another by a string function applied to each of
// its entries (SUBSTRING(s, 1, 2), UPPER(s), ...): the distinct images,
// sorted, and each entry's image.
struct DerivedDictionary {
  std::shared_ptr<const struct Dictionary> values;
  std::vector<uint32_t> codes;  // source entry i -> its image's code in `values`
};

struct Dictionary {
  std::vector<std::string> values;  // sorted, distinct

  Dictionary() = default;
  // A copy starts with no derived dictionaries: its values may change.
  Dictionary(const Dictionary& other) : values(other.values) {}
  Dictionary& operator=(const Dictionary& other) {
    values = other.values;
    derived_ = std::make_unique<Derived>();
    return *this;
  }

  // Index of the first entry >= s (== size() when none).
  uint32_t lower_bound(std::string_view s) const;
  // Index of the first entry > s.
  uint32_t upper_bound(std::string_view s) const;
  std::size_t size() const { return values.size(); }

  // The dictionary the function `key` names makes of this one, built by
  // `build` on first use and kept: the same query run again, or the same
  // function written twice, maps the entries once. (A shared dictionary's
  // values never change.) Safe from several threads.
  std::shared_ptr<const DerivedDictionary> derived(const std::string& key,
                                                   const std::function<DerivedDictionary()>& build) const;

 private:
  struct Derived {
    std::mutex mutex;
    std::map<std::string, std::shared_ptr<const DerivedDictionary>> by_key;
  };
  std::unique_ptr<Derived> derived_ = std::make_unique<Derived>();
};

}  // namespace gpusql
