// The engine's internal description of a column type: the public Type plus
// the parameters some types carry (DECIMAL precision and scale).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "gpusql/gpusql.hpp"

namespace gpusql {

struct DataType {
  Type id = Type::Integer;
  uint8_t precision = 0;  // DECIMAL only
  uint8_t scale = 0;      // DECIMAL only

  static constexpr DataType boolean() { return {Type::Boolean}; }
  static constexpr DataType integer() { return {Type::Integer}; }
  static constexpr DataType bigint() { return {Type::BigInt}; }
  static constexpr DataType real() { return {Type::Real}; }
  static constexpr DataType double_() { return {Type::Double}; }
  static constexpr DataType date() { return {Type::Date}; }
  static constexpr DataType varchar() { return {Type::Varchar}; }

  friend constexpr bool operator==(DataType a, DataType b) {
    return a.id == b.id && a.precision == b.precision && a.scale == b.scale;
  }

  // DECIMAL holds up to 18 digits in 64 bits, up to 38 in 128 (DuckDB's split).
  static constexpr int kMaxNarrowDecimalDigits = 18;
  static constexpr int kMaxDecimalDigits = 38;
  constexpr bool is_wide_decimal() const { return id == Type::Decimal && precision > kMaxNarrowDecimalDigits; }

  // How a value is stored and read: the type itself, or HugeInt for a wide
  // DECIMAL. Every column pointer and typed load or store takes this.
  constexpr Type storage() const { return is_wide_decimal() ? Type::HugeInt : id; }

  // Bytes one value takes in a column (VARCHAR: its 32-bit dictionary code).
  constexpr std::size_t width() const {
    if (is_wide_decimal()) return 16;
    switch (id) {
      case Type::Boolean: return 1;
      case Type::Integer: return 4;
      case Type::Real: return 4;
      case Type::Date: return 4;
      case Type::Varchar: return 4;
      case Type::BigInt: return 8;
      case Type::Double: return 8;
      case Type::Decimal: return 8;
      case Type::HugeInt: return 16;
    }
    return 8;
  }
  constexpr bool is_integral() const {
    return id == Type::Integer || id == Type::BigInt || id == Type::Boolean;
  }
  constexpr bool is_floating() const { return id == Type::Real || id == Type::Double; }
  constexpr bool is_numeric() const { return is_integral() || is_floating() || id == Type::Decimal; }

  std::string to_string() const;
};

}  // namespace gpusql
