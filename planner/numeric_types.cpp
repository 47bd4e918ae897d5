#include "planner/numeric_types.hpp"

#include <algorithm>

#include "gpusql/gpusql.hpp"

namespace gpusql {

DataType decimal_type(int precision, int scale, std::size_t offset, bool wide) {
  constexpr int kNarrow = DataType::kMaxNarrowDecimalDigits;
  if (scale > kNarrow)
    throw Error(ErrorKind::NotSupported,
                "not supported yet: a DECIMAL result with more than 18 digits after the point", offset);
  DataType t{Type::Decimal};
  t.precision = wide ? static_cast<uint8_t>(std::clamp(precision, kNarrow + 1, DataType::kMaxDecimalDigits))
                     : static_cast<uint8_t>(std::clamp(precision, std::max(scale, 1), kNarrow));
  t.scale = static_cast<uint8_t>(scale);
  return t;
}

std::optional<DecimalShape> decimal_shape(DataType t) {
  switch (t.id) {
    case Type::Decimal: return DecimalShape{t.precision, t.scale};
    case Type::Integer: return DecimalShape{10, 0};
    case Type::BigInt: return DecimalShape{19, 0};
    default: return std::nullopt;
  }
}

DataType common_numeric_type(DataType a, DataType b, std::size_t offset) {
  if (a.id == Type::Double || b.id == Type::Double) return DataType::double_();
  if (a.id == Type::Real || b.id == Type::Real) return DataType::real();
  if (a.id == Type::Decimal || b.id == Type::Decimal) {
    DecimalShape x = *decimal_shape(a), y = *decimal_shape(b);
    int scale = std::max(x.scale, y.scale);
    int whole = std::max(x.precision - x.scale, y.precision - y.scale);
    return decimal_type(whole + scale, scale, offset, a.is_wide_decimal() || b.is_wide_decimal());
  }
  return a == b ? a : DataType::bigint();
}

DataType common_value_type(DataType a, DataType b, std::size_t offset) {
  DataType t = common_numeric_type(a, b, offset);
  if (!t.is_wide_decimal()) return t;
  const DecimalShape x = *decimal_shape(a), y = *decimal_shape(b);
  const int whole = std::max(x.precision - x.scale, y.precision - y.scale);
  if (whole + t.scale <= DataType::kMaxDecimalDigits) return t;
  return decimal_type(DataType::kMaxDecimalDigits, std::max(0, DataType::kMaxDecimalDigits - whole), offset, true);
}

}  // namespace gpusql
