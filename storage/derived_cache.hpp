// What is made from an object that never changes (a dictionary's entries, a
// table's rows) -- a string function's dictionary, a LIKE pattern's
// matches -- made on first use and kept under a key that names the
// function: the same query run again makes it once. Only the most recently
// used kCapacity values stay, so ad-hoc queries with ever new patterns do
// not grow a table's memory without bound (a value a running query holds
// lives on with it).
#pragma once

#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace gpusql {

class DerivedCache {
 public:
  static constexpr std::size_t kCapacity = 16;

  // The value kept under `key`, or build()'s, kept from now on. build()
  // runs outside the lock (a pass over a column); two threads may both
  // build one key, and the first kept is the one both get. Safe from
  // several threads.
  std::shared_ptr<const void> get(const std::string& key, const std::function<std::shared_ptr<const void>()>& build);

  template <class T>
  std::shared_ptr<const T> get(const std::string& key, const std::function<T()>& build) {
    return std::static_pointer_cast<const T>(
        get(key, [&] { return std::shared_ptr<const void>(std::make_shared<const T>(build())); }));
  }

 private:
  std::shared_ptr<const void> find(const std::string& key);  // moves a found entry to the front; the lock held
  std::mutex mutex_;
  std::list<std::pair<std::string, std::shared_ptr<const void>>> entries_;  // most recently used first
};

}  // namespace gpusql
