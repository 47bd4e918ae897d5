// The sorted, order-preserving string dictionary behind a VARCHAR column.
// Code i is the i-th smallest distinct string (byte-wise order, as SQLite's
// BINARY collation), so comparisons and ORDER BY on strings run on codes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/derived_cache.hpp"
#include "storage/string_pool.hpp"

namespace gpusql {

// A dictionary made from another by a string function applied to each of
// its entries (SUBSTRING(s, 1, 2), UPPER(s), ...): the distinct images,
// sorted, and each entry's image.
struct DerivedDictionary {
  std::shared_ptr<const struct Dictionary> values;
  std::vector<uint32_t> codes;  // source entry i -> its image's code in `values`
};

struct Dictionary {
  StringPool values;  // sorted, distinct

  Dictionary() = default;
  // A copy starts with no derived dictionaries, and a name of its own: its
  // values may change.
  Dictionary(const Dictionary& other) : values(other.values) {}
  Dictionary& operator=(const Dictionary& other) {
    values = other.values;
    derived_ = std::make_unique<DerivedCache>();
    id_ = next_id();
    return *this;
  }

  // Names this dictionary among all made in the process, never reused (an
  // address may be, once the dictionary is gone): a function of two
  // dictionaries keeps its result in the first one's derived() under the
  // second one's id.
  uint64_t id() const { return id_; }

  // Index of the first entry >= s (== size() when none).
  uint32_t lower_bound(std::string_view s) const;
  // Index of the first entry > s.
  uint32_t upper_bound(std::string_view s) const;
  std::size_t size() const { return values.size(); }

  // What `build` makes of the entries -- the dictionary a string function
  // makes of this one (DerivedDictionary), the entries a LIKE pattern
  // matches -- made on first use and kept under `key`, which names both
  // the kind and the function: the same query run again, or the same
  // function written twice, maps the entries once. (A shared dictionary's
  // values never change.) Safe from several threads.
  // (The most recently used DerivedCache::kCapacity stay.)
  template <class T>
  std::shared_ptr<const T> derived(const std::string& key, const std::function<T()>& build) const {
    return derived_->get<T>(key, build);
  }

 private:
  static uint64_t next_id();

  std::unique_ptr<DerivedCache> derived_ = std::make_unique<DerivedCache>();
  uint64_t id_ = next_id();
};

// The dictionary of `strings`: sorted, duplicates dropped.
std::shared_ptr<Dictionary> sorted_dictionary(std::vector<std::string_view> strings);
template <class Range>
std::shared_ptr<Dictionary> sorted_dictionary(const Range& strings) {
  return sorted_dictionary(std::vector<std::string_view>(std::begin(strings), std::end(strings)));
}

}  // namespace gpusql
