// gpusql::Result: read access to a materialized result.
#include <charconv>
#include <cmath>

#include "storage/result_data.hpp"
#include "storage/value_text.hpp"

namespace gpusql {

std::string_view type_name(Type type) {
  switch (type) {
    case Type::Boolean: return "BOOLEAN";
    case Type::Integer: return "INTEGER";
    case Type::BigInt: return "BIGINT";
    case Type::Real: return "REAL";
    case Type::Double: return "DOUBLE";
    case Type::Decimal: return "DECIMAL";
    case Type::Date: return "DATE";
    case Type::Varchar: return "VARCHAR";
    case Type::HugeInt: return "HUGEINT";
  }
  return "?";
}

std::string DataType::to_string() const {
  if (id == Type::Decimal)
    return "DECIMAL(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
  return std::string(type_name(id));
}


static const ResultData& empty_result() {
  static const ResultData empty;
  return empty;
}

Result::Result() : data_(std::shared_ptr<const ResultData>(std::shared_ptr<void>(), &empty_result())) {}
Result::Result(std::shared_ptr<const ResultData> data) : data_(std::move(data)) {}

std::size_t Result::column_count() const { return data_->columns.size(); }
std::size_t Result::row_count() const { return data_->rows; }
const std::string& Result::status() const { return data_->status; }

static void check_cell(const ResultData& d, std::size_t row, std::size_t column) {
  if (column >= d.columns.size())
    throw Error(ErrorKind::Invalid, "column index " + std::to_string(column) + " out of range (" +
                                        std::to_string(d.columns.size()) + " columns)");
  if (row >= d.rows)
    throw Error(ErrorKind::Invalid,
                "row index " + std::to_string(row) + " out of range (" + std::to_string(d.rows) + " rows)");
}

const std::string& Result::column_name(std::size_t column) const {
  if (column >= data_->columns.size()) check_cell(*data_, 0, column);
  return data_->names[column];
}

Type Result::column_type(std::size_t column) const {
  if (column >= data_->columns.size()) check_cell(*data_, 0, column);
  return data_->columns[column].type.id;
}

bool Result::is_null(std::size_t row, std::size_t column) const {
  check_cell(*data_, row, column);
  return !data_->columns[column].is_valid(row);
}

Value Result::value(std::size_t row, std::size_t column) const {
  check_cell(*data_, row, column);
  const HostColumn& c = data_->columns[column];
  if (!c.is_valid(row)) return std::monostate{};
  switch (c.type.id) {
    case Type::Boolean: return c.values<uint8_t>()[row] != 0;
    case Type::Integer: return c.values<int32_t>()[row];
    case Type::BigInt: return c.values<int64_t>()[row];
    case Type::Double: return c.values<double>()[row];
    case Type::Real: return static_cast<double>(c.values<float>()[row]);
    case Type::Varchar: return std::string(c.dictionary->values[c.values<uint32_t>()[row]]);
    case Type::Decimal:
      if (c.type.is_wide_decimal()) return wide_decimal(c.bytes.data(), row, c.type.scale);
      return Decimal{c.values<int64_t>()[row], c.type.scale};
    case Type::Date: return Date{c.values<int32_t>()[row]};
    case Type::HugeInt: break;
  }
  throw Error(ErrorKind::NotSupported, "not supported yet: reading " + c.type.to_string() + " values");
}

std::string Result::text(std::size_t row, std::size_t column) const {
  check_cell(*data_, row, column);
  const HostColumn& c = data_->columns[column];
  if (!c.is_valid(row)) return "NULL";
  if (c.type.id == Type::Varchar) return std::string(c.dictionary->values[c.values<uint32_t>()[row]]);
  // REAL prints in its shortest float form (0.1, not 0.10000000149011612).
  return format_fixed(c.type, c.bytes.data(), row);
}

void Result::throw_bad_get(std::size_t row, std::size_t column) const {
  if (is_null(row, column))
    throw Error(ErrorKind::Invalid, "value at row " + std::to_string(row) + ", column " + std::to_string(column) +
                                        " is NULL");
  throw Error(ErrorKind::Invalid, "value at row " + std::to_string(row) + ", column " + std::to_string(column) +
                                      " is " + std::string(type_name(column_type(column))) + ", not the type asked for");
}

void narrow_wide_decimals(ResultData& result) {
  constexpr int64_t kLimit = 1000000000000000000;  // 10^18
  for (HostColumn& column : result.columns) {
    if (!column.type.is_wide_decimal()) continue;
    const int64_t* words = reinterpret_cast<const int64_t*>(column.bytes.data());
    bool fits = true;
    for (std::size_t row = 0; row < result.rows && fits; ++row) {
      if (!column.is_valid(row)) continue;
      const int64_t low = words[2 * row], high = words[2 * row + 1];
      fits = high == (low < 0 ? -1 : 0) && low > -kLimit && low < kLimit;
    }
    if (!fits) continue;
    DataType narrow = column.type;
    narrow.precision = DataType::kMaxNarrowDecimalDigits;
    HostColumn out(narrow, result.rows);
    for (std::size_t row = 0; row < result.rows; ++row) out.values<int64_t>()[row] = words[2 * row];
    out.validity = std::move(column.validity);
    column = std::move(out);
  }
}


}  // namespace gpusql
