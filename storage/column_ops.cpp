#include "storage/column_ops.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gpusql {

void normalize_validity(HostColumn& column) {
  if (column.validity.empty()) return;
  column.validity.resize(validity_words(column.size));
  if (column.size % 32) column.validity.back() &= (1u << (column.size % 32)) - 1;
  if (column.null_count() == 0) column.validity.clear();
}

DictionaryUnion unite_dictionaries(const std::shared_ptr<const Dictionary>& left, const Dictionary& right) {
  DictionaryUnion u;
  const auto& a = left->values;
  const auto& b = right.values;
  // The common case when appending: every new string is already there.
  bool subset = true;
  u.right_codes.resize(b.size());
  for (std::size_t j = 0; j < b.size() && subset; ++j) {
    uint32_t code = left->lower_bound(b[j]);
    if (code == a.size() || a[code] != b[j]) subset = false;
    else u.right_codes[j] = code;
  }
  if (subset) {
    u.dictionary = left;
    u.left_unchanged = true;
    return u;
  }
  auto merged = std::make_shared<Dictionary>();
  merged->values.reserve(a.size() + b.size(), a.byte_size() + b.byte_size());
  u.left_codes.resize(a.size());
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    uint32_t code = static_cast<uint32_t>(merged->values.size());
    if (j == b.size() || (i < a.size() && a[i] < b[j])) {
      u.left_codes[i] = code;
      merged->values.push_back(a[i++]);
    } else if (i == a.size() || b[j] < a[i]) {
      u.right_codes[j] = code;
      merged->values.push_back(b[j++]);
    } else {
      u.left_codes[i++] = code;
      u.right_codes[j] = code;
      merged->values.push_back(b[j++]);
    }
  }
  u.dictionary = std::move(merged);
  return u;
}

namespace {

// Row r's string of a VARCHAR column, plain or coded ("" for a NULL).
std::string_view string_at(const HostColumn& column, std::size_t r) {
  if (!column.is_valid(r)) return {};
  if (column.is_plain()) return (*column.strings)[r];
  return column.dictionary->values[column.values<uint32_t>()[r]];
}

// `a` of plain strings followed by `b` (plain or coded), as plain strings:
// a column kept plain at load is never sorted into a dictionary by an append.
HostColumn concatenate_plain(const HostColumn& a, const HostColumn& b) {
  HostColumn out;
  out.type = a.type;
  out.size = a.size + b.size;
  std::vector<uint64_t> offsets(a.strings->offsets(), a.strings->offsets() + a.size + 1);
  StringPool::Bytes bytes(a.strings->bytes(), a.strings->bytes() + a.strings->byte_size());
  offsets.reserve(out.size + 1);
  for (std::size_t r = 0; r < b.size; ++r) {
    const std::string_view s = string_at(b, r);
    bytes.insert(bytes.end(), s.begin(), s.end());
    offsets.push_back(bytes.size());
  }
  out.strings = std::make_shared<const StringPool>(StringPool::adopt(std::move(offsets), std::move(bytes)));
  for (std::size_t r = 0; r < a.size; ++r)
    if (!a.is_valid(r)) out.set_null(r);
  for (std::size_t r = 0; r < b.size; ++r)
    if (!b.is_valid(r)) out.set_null(a.size + r);
  return out;
}

}  // namespace

HostColumn concatenate(const HostColumn& a, const HostColumn& b) {
  if (a.is_plain()) return concatenate_plain(a, b);
  HostColumn out(a.type, a.size + b.size);
  if (!a.bytes.empty()) std::memcpy(out.bytes.data(), a.bytes.data(), a.bytes.size());
  if (!b.bytes.empty()) std::memcpy(out.bytes.data() + a.bytes.size(), b.bytes.data(), b.bytes.size());
  if (a.type.id == Type::Varchar) {
    static const auto empty = std::make_shared<const Dictionary>();
    const auto& left = a.dictionary ? a.dictionary : empty;
    DictionaryUnion u = unite_dictionaries(left, b.dictionary ? *b.dictionary : *empty);
    auto codes = out.values<uint32_t>();
    if (!u.left_unchanged)
      for (std::size_t r = 0; r < a.size; ++r)
        if (a.is_valid(r)) codes[r] = u.left_codes[codes[r]];
    for (std::size_t r = 0; r < b.size; ++r)
      codes[a.size + r] = b.is_valid(r) ? u.right_codes[codes[a.size + r]] : 0;
    out.dictionary = u.dictionary;
  }
  if (a.has_nulls() || b.has_nulls()) {
    for (std::size_t r = 0; r < a.size; ++r)
      if (!a.is_valid(r)) out.set_null(r);
    for (std::size_t r = 0; r < b.size; ++r)
      if (!b.is_valid(r)) out.set_null(a.size + r);
  }
  return out;
}

namespace {

// One value on its way from one type to another.
struct Scalar {
  enum class Kind { Integer, Floating, Decimal, Date, Text } kind = Kind::Integer;
  int64_t i = 0;   // Integer, Date (days)
  __int128 w = 0;  // Decimal (unscaled)
  double d = 0;
  uint8_t scale = 0;
  std::string_view text;
};

Scalar read_scalar(const HostColumn& c, std::size_t row) {
  Scalar s;
  switch (c.type.id) {
    case Type::Boolean: s.i = c.values<uint8_t>()[row]; break;
    case Type::Integer: s.i = c.values<int32_t>()[row]; break;
    case Type::BigInt: s.i = c.values<int64_t>()[row]; break;
    case Type::Real:
      s.kind = Scalar::Kind::Floating;
      s.d = c.values<float>()[row];
      break;
    case Type::Double:
      s.kind = Scalar::Kind::Floating;
      s.d = c.values<double>()[row];
      break;
    case Type::Decimal:
      s.kind = Scalar::Kind::Decimal;
      s.w = c.type.is_wide_decimal() ? load_wide(c.bytes.data(), row) : c.values<int64_t>()[row];
      s.scale = c.type.scale;
      break;
    case Type::Date:
      s.kind = Scalar::Kind::Date;
      s.i = c.values<int32_t>()[row];
      break;
    case Type::Varchar:
      s.kind = Scalar::Kind::Text;
      s.text = c.dictionary->values[c.values<uint32_t>()[row]];
      break;
    case Type::HugeInt: break;  // a 128-bit DECIMAL reads as Type::Decimal
  }
  return s;
}

// Stores the unscaled `v` as a DECIMAL `to` when |v| < 10^precision.
ParseResult store_decimal(__int128 v, const DataType& to, void* data, std::size_t row) {
  const __int128 limit = wide_power_of_ten(to.precision);
  if (v >= limit || v <= -limit) return ParseResult::OutOfRange;
  if (to.is_wide_decimal()) store_wide(data, row, v);
  else static_cast<int64_t*>(data)[row] = static_cast<int64_t>(v);
  return ParseResult::Ok;
}

// unscaled * 10^shift as a DECIMAL `to`, without overflow.
ParseResult store_scaled(__int128 unscaled, int shift, const DataType& to, void* data, std::size_t row) {
  if (unscaled == 0) return store_decimal(0, to, data, row);
  if (shift > to.precision) return ParseResult::OutOfRange;
  const __int128 room = wide_power_of_ten(to.precision - shift);  // |unscaled| must stay below it
  if (unscaled >= room || unscaled <= -room) return ParseResult::OutOfRange;
  return store_decimal(unscaled * wide_power_of_ten(shift), to, data, row);
}

// Rounds unscaled / 10^shift half away from zero.
__int128 round_shift(__int128 unscaled, int shift) {
  if (shift <= 0) return unscaled;
  if (shift > 38) return 0;
  const __int128 p = wide_power_of_ten(shift);
  __int128 q = unscaled / p, r = unscaled % p;
  if (2 * (r < 0 ? -r : r) >= p) q += unscaled < 0 ? -1 : 1;
  return q;
}

ParseResult store_integer(int64_t v, const DataType& to, void* data, std::size_t row) {
  switch (to.id) {
    case Type::Boolean: static_cast<uint8_t*>(data)[row] = v != 0; return ParseResult::Ok;
    case Type::Integer:
      if (v < INT32_MIN || v > INT32_MAX) return ParseResult::OutOfRange;
      static_cast<int32_t*>(data)[row] = static_cast<int32_t>(v);
      return ParseResult::Ok;
    case Type::BigInt: static_cast<int64_t*>(data)[row] = v; return ParseResult::Ok;
    case Type::Real: static_cast<float*>(data)[row] = static_cast<float>(v); return ParseResult::Ok;
    case Type::Double: static_cast<double*>(data)[row] = static_cast<double>(v); return ParseResult::Ok;
    case Type::Decimal: return store_scaled(v, to.scale, to, data, row);
    case Type::Date:
    case Type::Varchar:
    case Type::HugeInt: break;
  }
  return ParseResult::Invalid;
}

ParseResult convert(const Scalar& s, const DataType& to, void* data, std::size_t row) {
  switch (s.kind) {
    case Scalar::Kind::Text: return parse_fixed(s.text, to, data, row);
    case Scalar::Kind::Integer: return store_integer(s.i, to, data, row);
    case Scalar::Kind::Date:
      if (to.id != Type::Date) return ParseResult::Invalid;
      static_cast<int32_t*>(data)[row] = static_cast<int32_t>(s.i);
      return ParseResult::Ok;
    case Scalar::Kind::Floating:
      if (to.id == Type::Double) {
        static_cast<double*>(data)[row] = s.d;
        return ParseResult::Ok;
      }
      if (to.id == Type::Real) {
        if (std::isfinite(s.d) && std::fabs(s.d) > 3.4028234663852886e38) return ParseResult::OutOfRange;
        static_cast<float*>(data)[row] = static_cast<float>(s.d);
        return ParseResult::Ok;
      }
      if (!std::isfinite(s.d)) return ParseResult::OutOfRange;
      if (to.id == Type::Decimal) {
        // DuckDB's cast (and the binder's CAST): the double times 10^scale,
        // rounded half away from zero, within the precision.
        double scaled = std::round(s.d * static_cast<double>(wide_power_of_ten(to.scale)));
        double limit = static_cast<double>(wide_power_of_ten(to.precision));
        if (!(scaled > -limit && scaled < limit)) return ParseResult::OutOfRange;
        return store_decimal(static_cast<__int128>(scaled), to, data, row);
      }
      if (to.id == Type::Boolean || to.id == Type::Integer || to.id == Type::BigInt) {
        // Half to even, as DuckDB's cast of a double (and the binder's CAST).
        double whole = std::nearbyint(s.d);
        if (!(whole >= -9223372036854775808.0 && whole < 9223372036854775808.0)) return ParseResult::OutOfRange;
        return store_integer(static_cast<int64_t>(whole), to, data, row);
      }
      return ParseResult::Invalid;
    case Scalar::Kind::Decimal: {
      if (to.id == Type::Decimal) {
        if (to.scale >= s.scale) return store_scaled(s.w, to.scale - s.scale, to, data, row);
        return store_decimal(round_shift(s.w, s.scale - to.scale), to, data, row);
      }
      if (to.id == Type::Double || to.id == Type::Real) {
        const int64_t lower = static_cast<int64_t>(static_cast<uint64_t>(static_cast<unsigned __int128>(s.w)));
        double d = Decimal{lower, s.scale, static_cast<int64_t>((s.w - lower) >> 64)}.to_double();
        if (to.id == Type::Double) static_cast<double*>(data)[row] = d;
        else static_cast<float*>(data)[row] = static_cast<float>(d);
        return ParseResult::Ok;
      }
      const __int128 whole = round_shift(s.w, s.scale);
      if (whole > INT64_MAX || whole < INT64_MIN) return ParseResult::OutOfRange;
      return store_integer(static_cast<int64_t>(whole), to, data, row);
    }
  }
  return ParseResult::Invalid;
}

}  // namespace

HostColumn cast_column(const HostColumn& column, DataType target, std::string_view column_name) {
  if (column.type == target) return column;
  const std::size_t rows = column.size;
  auto fail = [&](std::size_t row, ParseResult result) -> void {
    std::string suffix = " (column \"" + std::string(column_name) + "\")";
    if (column.type.id == Type::Varchar) {
      const std::string_view text = column.dictionary->values[column.values<uint32_t>()[row]];
      throw Error(ErrorKind::Conversion, conversion_message(text, target, result, '\'') + suffix);
    }
    std::string text = format_fixed(column.type, column.bytes.data(), row);
    if (result == ParseResult::OutOfRange)
      throw Error(ErrorKind::Conversion, "value " + text + " is out of range for " + target.to_string() + suffix);
    throw Error(ErrorKind::Conversion, "could not convert " + column.type.to_string() + " value " + text + " to " +
                                           target.to_string() + suffix);
  };
  if (target.id == Type::Varchar) {
    std::vector<std::string> texts(rows);
    for (std::size_t r = 0; r < rows; ++r)
      if (column.is_valid(r)) texts[r] = format_cast_text(column.type, column.bytes.data(), r);
    return make_varchar_column(texts, column.validity);
  }
  HostColumn out(target, rows);
  out.validity = column.validity;
  if (column.type.id == Type::Varchar) {
    // Each dictionary entry parses once, however many rows use it.
    const auto& entries = column.dictionary->values;
    HostColumn parsed(target, entries.size());
    std::vector<ParseResult> results(entries.size());
    std::vector<bool> done(entries.size());
    for (std::size_t r = 0; r < rows; ++r) {
      if (!column.is_valid(r)) continue;
      uint32_t code = column.values<uint32_t>()[r];
      if (!done[code]) {
        results[code] = parse_fixed(entries[code], target, parsed.bytes.data(), code);
        done[code] = true;
      }
      if (results[code] != ParseResult::Ok) fail(r, results[code]);
      std::memcpy(out.bytes.data() + r * target.width(), parsed.bytes.data() + code * target.width(), target.width());
    }
  } else {
    for (std::size_t r = 0; r < rows; ++r) {
      if (!column.is_valid(r)) continue;
      ParseResult result = convert(read_scalar(column, r), target, out.bytes.data(), r);
      if (result != ParseResult::Ok) fail(r, result);
    }
  }
  normalize_validity(out);
  return out;
}

void ColumnBuilder::append_null() {
  nulls_.push_back(rows_);
  if (type_.id == Type::Varchar) strings_.emplace_back();
  else bytes_.resize(bytes_.size() + type_.width());
  ++rows_;
}

void ColumnBuilder::append_string(std::string_view value) {
  strings_.emplace_back(value);
  ++rows_;
}

ParseResult ColumnBuilder::append_text(std::string_view text) {
  if (type_.id == Type::Varchar) {
    append_string(text);
    return ParseResult::Ok;
  }
  bytes_.resize(bytes_.size() + type_.width());
  ParseResult result = parse_fixed(text, type_, bytes_.data(), rows_);
  if (result != ParseResult::Ok) {
    bytes_.resize(bytes_.size() - type_.width());
    return result;
  }
  ++rows_;
  return result;
}

void ColumnBuilder::append_raw(const void* value) {
  const auto* p = static_cast<const std::byte*>(value);
  bytes_.insert(bytes_.end(), p, p + type_.width());
  ++rows_;
}

HostColumn ColumnBuilder::finish() {
  HostColumn out;
  out.type = type_;
  out.size = rows_;
  for (std::size_t row : nulls_) out.set_null(row);
  if (type_.id == Type::Varchar) {
    out = make_varchar_column(strings_, out.validity);
  } else {
    out.bytes = std::move(bytes_);
    normalize_validity(out);
  }
  *this = ColumnBuilder(type_);
  return out;
}

HostColumn make_varchar_column(const std::vector<std::string>& values, const std::vector<uint32_t>& validity) {
  HostColumn out(DataType::varchar(), values.size());
  out.validity = validity;
  normalize_validity(out);
  std::vector<std::string_view> distinct;
  distinct.reserve(values.size());
  for (std::size_t r = 0; r < values.size(); ++r)
    if (out.is_valid(r)) distinct.push_back(values[r]);
  std::shared_ptr<Dictionary> dictionary = sorted_dictionary(std::move(distinct));
  auto codes = out.values<uint32_t>();
  for (std::size_t r = 0; r < values.size(); ++r) codes[r] = out.is_valid(r) ? dictionary->lower_bound(values[r]) : 0;
  out.dictionary = std::move(dictionary);
  return out;
}

HostColumn make_bigint_column(const std::vector<int64_t>& values) {
  HostColumn out(DataType::bigint(), values.size());
  std::copy(values.begin(), values.end(), out.values<int64_t>().begin());
  return out;
}

std::size_t flat_dictionary_bytes(const Dictionary& dictionary) {
  return (dictionary.size() + 1) * sizeof(uint64_t) + dictionary.values.byte_size();
}

std::size_t host_bytes(const HostColumn& column) {
  std::size_t total = column.bytes.size() + column.validity.size() * sizeof(uint32_t);
  if (column.dictionary) total += flat_dictionary_bytes(*column.dictionary);
  if (column.strings) total += (column.strings->size() + 1) * sizeof(uint64_t) + column.strings->byte_size();
  return total;
}

}  // namespace gpusql
