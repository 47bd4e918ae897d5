#include "storage/catalog.hpp"

#include <algorithm>

namespace gpusql {

void Catalog::add(std::shared_ptr<const Table> table) {
  std::string key = to_lower(table->name);
  if (tables_.count(key)) throw Error(ErrorKind::Catalog, "Table with name \"" + table->name + "\" already exists!");
  table->estimate_distinct_now();
  tables_.emplace(std::move(key), std::move(table));
}

void Catalog::replace(std::shared_ptr<const Table> table) {
  auto it = tables_.find(to_lower(table->name));
  if (it == tables_.end())
    throw Error(ErrorKind::Catalog, "Table with name " + table->name + " does not exist!");
  if (!table->carry_distinct_estimates(*it->second)) table->estimate_distinct_now();
  it->second = std::move(table);
}

bool Catalog::remove(std::string_view name) {
  std::erase_if(indexes_, [&](const auto& entry) { return iequals(entry.second.table, name); });
  return tables_.erase(to_lower(name)) > 0;
}

void Catalog::add_index(Index index) {
  std::string key = to_lower(index.name);
  if (indexes_.count(key)) throw Error(ErrorKind::Catalog, "Index with name \"" + index.name + "\" already exists!");
  indexes_.emplace(std::move(key), std::move(index));
}

bool Catalog::remove_index(std::string_view name) { return indexes_.erase(to_lower(name)) > 0; }

const Index* Catalog::find_index(std::string_view name) const {
  auto it = indexes_.find(to_lower(name));
  return it == indexes_.end() ? nullptr : &it->second;
}

std::vector<std::string> Catalog::index_names() const {
  std::vector<std::string> out;
  for (const auto& [key, index] : indexes_) out.push_back(index.name);
  return out;
}

std::vector<UniqueKey> Catalog::unique_keys(const Table& table) const {
  std::vector<UniqueKey> keys = table.keys;
  for (const auto& [key, index] : indexes_)
    if (index.unique && iequals(index.table, table.name)) keys.push_back({index.columns, false});
  return keys;
}

std::shared_ptr<const Table> Catalog::find(std::string_view name) const {
  auto it = tables_.find(to_lower(name));
  return it == tables_.end() ? nullptr : it->second;
}

std::shared_ptr<const Table> Catalog::get(std::string_view name, std::optional<std::size_t> offset) const {
  if (auto t = find(name)) return t;
  std::string message = "Table with name " + std::string(name) + " does not exist!";
  std::string hint = closest_name(name, names());
  if (!hint.empty()) message += "\nDid you mean \"" + hint + "\"?";
  throw Error(ErrorKind::Catalog, message, offset);
}

std::vector<std::string> Catalog::names() const {
  std::vector<std::string> out;
  for (const auto& [key, table] : tables_) out.push_back(table->name);
  return out;
}

static std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) == std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string closest_name(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = SIZE_MAX;
  for (const auto& c : candidates) {
    std::size_t d = edit_distance(name, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  // A suggestion helps only when it is a plausible typo: at most a third of the
  // name's characters changed (at least one edit allowed), and not all of them.
  std::size_t limit = std::max<std::size_t>(1, name.size() / 3);
  return best_distance <= limit && best_distance < name.size() ? best : std::string();
}

}  // namespace gpusql
