#include "engine/views.hpp"

#include "storage/table.hpp"

namespace gpusql {

const NamedQueries* Views::find(std::string_view name) const {
  const NamedQueries* chain = names();
  return chain ? chain->find(name) : nullptr;
}

void Views::add(NamedQueries view) {
  views_.push_back(std::make_unique<NamedQueries>(std::move(view)));
  relink();
}

bool Views::remove(std::string_view name) {
  for (auto it = views_.begin(); it != views_.end(); ++it)
    if (iequals((*it)->name, name)) {
      views_.erase(it);
      relink();
      return true;
    }
  return false;
}

std::vector<std::string> Views::list() const {
  std::vector<std::string> out;
  for (const auto& v : views_) out.push_back(v->name);
  return out;
}

// One chain, newest first; every view binds in all of it (as DuckDB binds a
// view's text against the catalog of the moment it is used).
void Views::relink() {
  for (std::size_t i = 0; i < views_.size(); ++i) {
    views_[i]->parent = i == 0 ? nullptr : views_[i - 1].get();
    views_[i]->defined_in = views_.back().get();
  }
}

}  // namespace gpusql
