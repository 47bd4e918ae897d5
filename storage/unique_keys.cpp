#include "storage/unique_keys.hpp"

#include <cstring>
#include <string>
#include <unordered_map>

#include "gpusql/gpusql.hpp"
#include "storage/value_text.hpp"

namespace gpusql {

namespace {

// The key's bytes in one row: each column's value (a VARCHAR's dictionary
// code: one version's dictionary is sorted and without repeats, so equal
// codes are equal strings). Empty when a column is NULL.
bool row_key(const Table& table, const UniqueKey& key, std::size_t row, std::string& out) {
  out.clear();
  for (int c : key.columns) {
    const HostColumn& column = table.host_column(static_cast<std::size_t>(c));
    if (!column.is_valid(row)) return false;
    const std::size_t width = column.type.width();
    out.append(reinterpret_cast<const char*>(column.bytes.data()) + row * width, width);
  }
  return true;
}

[[noreturn]] void duplicate(const Table& table, const UniqueKey& key, std::size_t row) {
  std::string text;
  for (int c : key.columns) {
    const HostColumn& column = table.host_column(static_cast<std::size_t>(c));
    if (!text.empty()) text += ", ";
    text += table.columns[static_cast<std::size_t>(c)].name + ": ";
    text += column.type.id == Type::Varchar ? std::string(column.dictionary->values.at(column.values<uint32_t>()[row]))
                                            : format_fixed(column.type, column.bytes.data(), row);
  }
  throw Error(ErrorKind::Constraint, "Duplicate key \"" + text + "\" violates " +
                                         (key.primary_key ? "primary key" : "unique") + " constraint.");
}

}  // namespace

void check_unique_key(const Table& table, const UniqueKey& key, std::size_t first_new_row) {
  if (first_new_row >= table.rows) return;
  std::unordered_map<std::string, std::size_t> seen;
  seen.reserve(table.rows);
  std::string bytes;
  for (std::size_t row = 0; row < table.rows; ++row) {
    if (!row_key(table, key, row, bytes)) continue;
    auto [it, added] = seen.emplace(bytes, row);
    if (!added && row >= first_new_row) duplicate(table, key, row);
  }
}

}  // namespace gpusql
