// The eight TPC-H tables' columns and types (clause 1.4 of the
// specification), as gpusql holds them: identifiers and integers INTEGER,
// money, quantities and rates DECIMAL(15,2), dates DATE, text VARCHAR.
// One list for the generator, the .tbl writer and the CREATE TABLE text
// that loads the files into gpusql or another engine.
#pragma once

#include <string>
#include <vector>

#include "storage/data_type.hpp"

namespace gpusql::tpch {

struct Column {
  std::string name;
  DataType type;
};

// part, supplier, partsupp, customer, orders, lineitem, nation, region:
// dbgen's order.
const std::vector<std::string>& table_names();

// The specification's columns of `table` in order; throws
// std::invalid_argument for a name that is not a TPC-H table.
const std::vector<Column>& columns(const std::string& table);
std::vector<std::string> column_names(const std::string& table);

// The table a column name belongs to ("l_shipdate": "lineitem"), or "" when
// it is none of the schema's columns.
std::string table_of(const std::string& column);

// CREATE TABLE table (column TYPE NOT NULL, ...): gpusql's and DuckDB's
// spelling alike.
std::string create_table_sql(const std::string& table);

}  // namespace gpusql::tpch
