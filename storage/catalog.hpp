// The named tables of one database. Tables are immutable once added and
// shared with running queries, so an error anywhere never leaves a
// half-changed table behind: a new table is built completely, then added.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/table.hpp"

namespace gpusql {

// CREATE [UNIQUE] INDEX name ON table (columns): kept by name; a UNIQUE
// one is a unique key of its table. (No index structure is built: scans
// and hash joins do not need one.)
struct Index {
  std::string name;
  std::string table;
  std::vector<int> columns;
  bool unique = false;
};

class Catalog {
 public:
  // Throws Error(Catalog) when a table of that name exists.
  void add(std::shared_ptr<const Table> table);
  // Puts a new version of an existing table in place of the old one (the name
  // is looked up case-insensitively); queries holding the old one keep it.
  // Throws Error(Catalog) when no table has its name.
  void replace(std::shared_ptr<const Table> table);
  // Removes the table and its indexes; false when there was none.
  bool remove(std::string_view name);
  // Null when absent.
  std::shared_ptr<const Table> find(std::string_view name) const;
  // Throws Error(Catalog) naming the closest existing table when absent.
  std::shared_ptr<const Table> get(std::string_view name, std::optional<std::size_t> offset) const;
  std::vector<std::string> names() const;

  // Throws Error(Catalog) when an index of that name exists.
  void add_index(Index index);
  bool remove_index(std::string_view name);  // false when there was none
  const Index* find_index(std::string_view name) const;
  std::vector<std::string> index_names() const;
  // The keys no two rows of `table` may share: its own (CREATE TABLE's) and
  // those of its UNIQUE indexes.
  std::vector<UniqueKey> unique_keys(const Table& table) const;

 private:
  std::map<std::string, std::shared_ptr<const Table>> tables_;  // key: lower-cased name
  std::map<std::string, Index> indexes_;                        // key: lower-cased name
};

// The candidate closest to `name` by edit distance (case-insensitive), if
// any is close enough to be a plausible typo; "" otherwise.
std::string closest_name(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace gpusql
