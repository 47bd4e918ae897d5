// A generated table as text, by default as dbgen writes its .tbl files:
// one line per row, '|' after every value (the last included), DECIMALs
// with their two decimals, dates as YYYY-MM-DD, strings as they are (TPC-H
// text holds no '|', quote or line break). A string holding the delimiter
// (a comment's comma, when the delimiter is ',') is quoted as RFC 4180 has
// it, so the same writer makes CSV files.
#pragma once

#include <string>

#include "storage/table.hpp"

namespace gpusql::tpch {

struct TextFormat {
  char delimiter = '|';
  bool header = false;             // a first line of column names
  bool trailing_delimiter = true;  // dbgen ends every line with the delimiter
};

// Writes `table` (INTEGER, DECIMAL, DATE and VARCHAR columns without NULLs)
// to `path`: formats in parallel, writes in order. Throws std::runtime_error
// when the file cannot be written or a column has another type.
void write_text(const Table& table, const std::string& path, const TextFormat& format = {}, unsigned threads = 0);

}  // namespace gpusql::tpch
