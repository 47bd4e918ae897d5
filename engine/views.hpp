// The database's views (CREATE VIEW, DROP VIEW): named queries every
// statement's FROM may name, bound where they are used as the derived
// tables they stand for (binder.hpp's NamedQueries).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "planner/binder.hpp"

namespace gpusql {

class Views {
 public:
  // The chain FROM sees (each view binds in the whole of it); null: none.
  const NamedQueries* names() const { return views_.empty() ? nullptr : views_.back().get(); }
  const NamedQueries* find(std::string_view name) const;
  // `view.name` must be new among the views.
  void add(NamedQueries view);
  bool remove(std::string_view name);  // false: none of that name
  std::vector<std::string> list() const;

 private:
  std::vector<std::unique_ptr<NamedQueries>> views_;
  void relink();
};

}  // namespace gpusql
