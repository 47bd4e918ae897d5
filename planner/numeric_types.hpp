// The types numbers meet in, with DuckDB's rules. A DECIMAL of at most 18
// digits is a 64-bit unscaled integer, a wider one (SUM's result,
// DECIMAL(38, s)) a 128-bit one.
#pragma once

#include <cstddef>
#include <optional>

#include "storage/data_type.hpp"

namespace gpusql {

// DECIMAL(precision, scale), clamped to its width's digits; `wide`: a
// 128-bit DECIMAL (precision 19 to 38), else 64-bit (1 to 18). More than 18
// digits after the point is not supported yet (an error at `offset`).
DataType decimal_type(int precision, int scale, std::size_t offset, bool wide = false);

// An exact type's (precision, scale) as DuckDB sees it in DECIMAL
// arithmetic: INTEGER is (10, 0), BIGINT (19, 0). None for inexact types.
struct DecimalShape {
  int precision = 0;
  int scale = 0;
};
std::optional<DecimalShape> decimal_shape(DataType t);

// The type two numeric types meet in: DOUBLE if either is DOUBLE, else REAL
// if either is REAL, else a DECIMAL (the larger scale, and room for the
// larger integer part; 128-bit if either is) if either is DECIMAL, else
// BIGINT (or the type both are).
DataType common_numeric_type(DataType a, DataType b, std::size_t offset);

// The type two numeric values take in one column (CASE and COALESCE
// results, set operations): common_numeric_type(), except that a 128-bit
// DECIMAL that would need more than 38 digits keeps the larger integer
// part and gives up digits after the point (DuckDB's rule: DECIMAL(38,4)
// beside DECIMAL(38,2) is DECIMAL(38,2)); values round to it. Comparisons
// stay exact: they use common_numeric_type().
DataType common_value_type(DataType a, DataType b, std::size_t offset);

}  // namespace gpusql
