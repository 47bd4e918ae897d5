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

}  // namespace gpusql
