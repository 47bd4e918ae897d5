// The statements that create, fill, change, drop or describe tables: CREATE
// TABLE [AS SELECT] (with PRIMARY KEY and UNIQUE constraints), COPY, INSERT,
// UPDATE and DELETE (row_changes.hpp), DROP TABLE, SHOW TABLES, DESCRIBE,
// CREATE and DROP VIEW, CREATE and DROP INDEX; the read_csv
// table function; Database::load_csv. Each either completes or leaves the
// catalog exactly as it was: a changed table is built as a new version
// (host columns, then its device copy) and only then swapped in.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "engine/database_impl.hpp"
#include "storage/csv_reader.hpp"

namespace gpusql {

// A result with no rows and a status line; "3 rows", "1 row".
std::shared_ptr<ResultData> status_result(std::string status);
std::string rows_text(std::size_t rows);

// Throws Error(Constraint) when rows of `next` (a new version of a table) at
// or past `first_new_row` break one of its PRIMARY KEY or UNIQUE keys.
void check_unique_keys(const Catalog& catalog, const Table& next, std::size_t first_new_row);

// Runs one of the statements above. Results: SHOW TABLES and DESCRIBE return
// columns; COPY, INSERT and CREATE TABLE AS return a status line with the
// row count ("loaded 3 rows into t"); CREATE TABLE and DROP TABLE return an
// empty status.
std::shared_ptr<ResultData> execute_catalog_statement(const ast::Statement& statement, Database::Impl& database,
                                                      std::string_view sql);

// The table function `read_csv('path' [, delim => '|', header => true,
// quote => '"', nullstr => 'NA'])` (also `read_csv_auto`; `sep` and
// `delimiter` for `delim`, `null` for `nullstr`): reads the file with the
// detected or given dialect and inferred types into a table named
// "read_csv", on the database's device too when it has one (the CUDA executor
// needs it).
// Throws Error(Binder) for a bad argument (with its offset), Error(Catalog)
// for another function name, and the CSV reader's errors.
std::shared_ptr<const Table> read_csv_table_function(const ast::TableRef& ref, Database::Impl& database);


// Database::load_csv: a new table from a file, dialect detected where the
// options do not say, types inferred, uploaded while parsing when a device is
// in use. Throws Error(Catalog) when the name is taken.
void load_csv_table(Database::Impl& database, std::string_view name, const std::string& path,
                    const CsvOptions& options);

}  // namespace gpusql
