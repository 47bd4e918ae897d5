// Project: evaluates an expression for every input position into a new
// column -- a gather when the expression is a plain column.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/expr_program.hpp"
#include "storage/device_memory.hpp"

namespace gpusql::kernels {

// Writes program(row) for each of `count` positions (row ids from
// d_selection when given, else 0..count-1) to d_out, typed `type`, and its
// validity bits to d_validity (room for (count+31)/32 words, one warp ballot
// per word). Run-time errors are OR-ed into *d_error. Does not synchronize.
void project_rows(const ExprProgram& program, Type type, const ColumnSet& columns, const uint32_t* d_selection,
                  std::size_t count, void* d_out, uint32_t* d_validity, uint32_t* d_error, DeviceContext& context);

}  // namespace gpusql::kernels
