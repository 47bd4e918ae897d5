// What a gpusql::Result holds: named host columns, the shape both executors
// return their answers in.
#pragma once

#include <string>
#include <vector>

#include "gpusql/gpusql.hpp"
#include "storage/host_column.hpp"

namespace gpusql {

struct ResultData {
  std::vector<std::string> names;
  std::vector<HostColumn> columns;
  std::size_t rows = 0;
  std::string status;  // for statements that return no rows
};

// Formats a double as its shortest round-trip decimal text ("0.1", "1e+20",
// "inf", "nan"), so the same bits always print the same way.
std::string format_double(double value);

// Each 128-bit DECIMAL column (a SUM's) as a DECIMAL(18, s) one when every
// value has at most 18 digits, so that the tables made of results (CREATE
// TABLE AS, materialized subqueries) take the 64-bit paths where they can;
// the values, their scale and so their text stay the same. Wider values
// leave it 128-bit.
void narrow_wide_decimals(ResultData& result);

}  // namespace gpusql
