// Reading CSV files into new tables. The dialect: RFC 4180 quoting
// (delimiters, doubled quotes and line breaks inside quotes), LF or CRLF line
// ends, an optional UTF-8 byte order mark, an optional trailing delimiter at
// the end of every line (as dbgen writes), surrounding spaces around numbers.
// An unquoted field equal to the NULL marker (default: empty) is NULL.
#pragma once

#include <memory>
#include <string>

#include "storage/table.hpp"

namespace gpusql {

struct CsvOptions {
  char delimiter = ',';
  char quote = '"';
  bool header = true;
  std::string null_marker;  // "" : an empty unquoted field is NULL
};

// Reads the whole file and infers each column's type over all of its values,
// widening INTEGER -> BIGINT -> DOUBLE -> VARCHAR (a column with only NULLs is
// VARCHAR). Nothing is returned half-read: any fault throws gpusql::Error
// naming the file, the 1-based line and column, and the offending text.
std::shared_ptr<Table> read_csv(const std::string& path, const std::string& table_name, const CsvOptions& options = {});

// The same over text in memory (`source_name` stands in for the path in
// messages); the fuzz target and tests use it.
std::shared_ptr<Table> read_csv_text(std::string_view text, const std::string& source_name,
                                     const std::string& table_name, const CsvOptions& options = {});

}  // namespace gpusql
