#include "storage/derived_cache.hpp"

namespace gpusql {

std::shared_ptr<const void> DerivedCache::find(const std::string& key) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it)
    if (it->first == key) {
      entries_.splice(entries_.begin(), entries_, it);
      return entries_.front().second;
    }
  return nullptr;
}

std::shared_ptr<const void> DerivedCache::get(const std::string& key,
                                              const std::function<std::shared_ptr<const void>()>& build) {
  {
    std::lock_guard lock(mutex_);
    if (std::shared_ptr<const void> found = find(key)) return found;
  }
  std::shared_ptr<const void> made = build();
  std::lock_guard lock(mutex_);
  if (std::shared_ptr<const void> found = find(key)) return found;
  entries_.emplace_front(key, std::move(made));
  if (entries_.size() > kCapacity) entries_.pop_back();
  return entries_.front().second;
}

}  // namespace gpusql
