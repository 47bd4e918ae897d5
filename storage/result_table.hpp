// A query's result as a table: what CREATE TABLE AS stores, and what a
// subquery's rows become for the query around it to join.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "storage/result_data.hpp"
#include "storage/table.hpp"

namespace gpusql {

// Unique column names: a repeated name gets _1, _2, ... as CSV headers do.
std::vector<std::string> unique_names(const std::vector<std::string>& names);

// A table of a query's result (CREATE TABLE AS, a subquery's rows), its
// columns named as the result's (a repeated name gets _1, _2, ...), on the
// host only.
std::shared_ptr<Table> table_from_result(std::string name, ResultData& result);

// A table of `rows` rows whose columns (named and typed as given, names
// made unique as above) the caller puts on the device: its host columns hold
// types and dictionaries only (Table::host).
std::shared_ptr<Table> device_only_table(std::string name, const std::vector<std::string>& names,
                                         const std::vector<DataType>& types,
                                         const std::vector<std::shared_ptr<const Dictionary>>& dictionaries,
                                         std::size_t rows);

}  // namespace gpusql
