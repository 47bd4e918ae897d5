#include "kernels/star_join.hpp"

namespace gpusql::kernels {
namespace {

// An upper bound of |value| for an argument of one of the inlined shapes
// (a column, one operation between columns or constants); 0 when unknown.
uint64_t magnitude_bound_of(const Term& t, const ColumnSet& columns) {
  if (t.is_constant)
    return t.null_constant ? 0 : static_cast<uint64_t>(t.value.i < 0 ? -(t.value.i + 1) : t.value.i) + 1;
  switch (columns.columns[t.slot].type) {
    case Type::Boolean: return 1;
    case Type::Integer:
    case Type::Date: return uint64_t{1} << 31;
    default: return 0;
  }
}

}  // namespace

bool sum_cannot_overflow(const ExprProgram& argument, const ColumnSet& columns, std::size_t rows) {
  unsigned __int128 bound = 0;
  if (argument.shape == Shape::Column) {
    bound = magnitude_bound_of(argument.terms[0], columns);
  } else if (argument.shape == Shape::Arithmetic && argument.terms[0].cls == Cls::Int) {
    const unsigned __int128 a = magnitude_bound_of(argument.terms[0], columns),
                            b = magnitude_bound_of(argument.terms[1], columns);
    if (a && b) bound = argument.terms[0].op == Op::Mul ? a * b : a + b;
  }
  return bound != 0 && bound * rows < (static_cast<unsigned __int128>(1) << 63);
}

}  // namespace gpusql::kernels
