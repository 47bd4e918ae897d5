#include "storage/result_table.hpp"

#include <algorithm>

#include "storage/column_ops.hpp"

namespace gpusql {

std::vector<std::string> unique_names(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& name : names) {
    std::string unique = name;
    for (int k = 1; std::any_of(out.begin(), out.end(), [&](const std::string& n) { return iequals(n, unique); }); ++k)
      unique = name + "_" + std::to_string(k);
    out.push_back(unique);
  }
  return out;
}

std::shared_ptr<Table> table_from_result(std::string name, ResultData& result) {
  auto table = std::make_shared<Table>();
  table->name = std::move(name);
  table->rows = result.rows;
  std::vector<std::string> names = unique_names(result.names);
  for (std::size_t c = 0; c < result.columns.size(); ++c) {
    HostColumn column = std::move(result.columns[c]);
    column.size = result.rows;
    column.bytes.resize(result.rows * column.type.width());
    normalize_validity(column);
    if (column.type.id == Type::Varchar && !column.dictionary) column.dictionary = std::make_shared<Dictionary>();
    table->columns.push_back({names[c], column.type});
    table->host.push_back(std::move(column));
  }
  return table;
}

std::shared_ptr<Table> device_only_table(std::string name, const std::vector<std::string>& names,
                                         const std::vector<DataType>& types,
                                         const std::vector<std::shared_ptr<const Dictionary>>& dictionaries,
                                         std::size_t rows) {
  auto table = std::make_shared<Table>();
  table->name = std::move(name);
  table->rows = rows;
  std::vector<std::string> unique = unique_names(names);
  for (std::size_t c = 0; c < types.size(); ++c) {
    HostColumn column(types[c], 0);
    column.dictionary = dictionaries[c];
    if (column.type.id == Type::Varchar && !column.dictionary) column.dictionary = std::make_shared<Dictionary>();
    table->columns.push_back({unique[c], types[c]});
    table->host.push_back(std::move(column));
  }
  return table;
}

}  // namespace gpusql
