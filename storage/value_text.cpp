#include "storage/value_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace gpusql {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The shape every number shares: [+-]digits[.digits][(e|E)[+-]digits].
struct NumberShape {
  bool negative = false;
  std::string_view integer_digits;
  std::string_view fraction_digits;
  bool has_exponent = false;
  int64_t exponent = 0;  // clamped to +-1e9: anything past that is out of any range
  std::string_view body;  // the text without blanks and without a leading '+'
};

bool scan_number(std::string_view text, NumberShape& shape) {
  std::string_view s = trim_blanks(text);
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    shape.negative = s[i] == '-';
    ++i;
  }
  shape.body = s.substr(s.size() && s[0] == '+' ? 1 : 0);
  std::size_t begin = i;
  while (i < s.size() && is_digit(s[i])) ++i;
  shape.integer_digits = s.substr(begin, i - begin);
  if (i < s.size() && s[i] == '.') {
    begin = ++i;
    while (i < s.size() && is_digit(s[i])) ++i;
    shape.fraction_digits = s.substr(begin, i - begin);
  }
  if (shape.integer_digits.empty() && shape.fraction_digits.empty()) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
    if (i == s.size() || !is_digit(s[i])) return false;
    int64_t e = 0;
    for (; i < s.size() && is_digit(s[i]); ++i) e = std::min<int64_t>(e * 10 + (s[i] - '0'), 1000000000);
    shape.has_exponent = true;
    shape.exponent = negative ? -e : e;
  }
  return i == s.size();
}

template <class T>
ParseResult parse_floating(std::string_view text, T& out) {
  NumberShape shape;
  if (!scan_number(text, shape)) return ParseResult::Invalid;
  T value{};
  auto [end, ec] = std::from_chars(shape.body.data(), shape.body.data() + shape.body.size(), value,
                                   std::chars_format::general);
  if (ec == std::errc::result_out_of_range) {
    // Underflow is not an error: the value is as close to zero as it gets.
    bool tiny = shape.has_exponent && shape.exponent < 0;
    if (!tiny) return ParseResult::OutOfRange;
    out = shape.negative ? -T(0) : T(0);
    return ParseResult::Ok;
  }
  if (ec != std::errc() || end != shape.body.data() + shape.body.size()) return ParseResult::Invalid;
  if (!std::isfinite(value)) return ParseResult::OutOfRange;
  out = value;
  return ParseResult::Ok;
}


}  // namespace

ParseResult detail::parse_integer(std::string_view text, int64_t& out) {
  std::string_view s = trim_blanks(text);
  std::size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  if (i == s.size()) return ParseResult::Invalid;
  uint64_t magnitude = 0;
  bool overflow = false;
  for (; i < s.size(); ++i) {
    if (!is_digit(s[i])) return ParseResult::Invalid;
    uint64_t digit = static_cast<uint64_t>(s[i] - '0');
    if (magnitude > (UINT64_MAX - digit) / 10) overflow = true;
    else magnitude = magnitude * 10 + digit;
  }
  const uint64_t limit = negative ? uint64_t(1) << 63 : (uint64_t(1) << 63) - 1;
  if (overflow || magnitude > limit) return ParseResult::OutOfRange;
  out = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  return ParseResult::Ok;
}

ParseResult parse_double(std::string_view text, double& out) { return parse_floating(text, out); }
ParseResult parse_real(std::string_view text, float& out) { return parse_floating(text, out); }

int64_t power_of_ten(int n) { return detail::powers_of_ten[n]; }

__int128 wide_power_of_ten(int n) {
  __int128 p = 1;
  for (int k = 0; k < n; ++k) p *= 10;
  return p;
}

ParseResult parse_wide_decimal(std::string_view text, uint8_t precision, uint8_t scale, __int128& out) {
  NumberShape shape;
  if (!scan_number(text, shape)) return ParseResult::Invalid;
  // The significant digits D (no leading zeros) and t such that the unscaled
  // value is D * 10^t.
  char digits[40];
  int count = 0;
  int64_t dropped = 0;  // significant digits past the 40 kept: only their count matters
  auto take = [&](std::string_view part) {
    for (char c : part) {
      if (count == 0 && c == '0') continue;
      if (count < 40) digits[count++] = c;
      else ++dropped;
    }
  };
  take(shape.integer_digits);
  // Leading zeros of the fraction are not significant but do move the point.
  take(shape.fraction_digits);
  int64_t t = shape.exponent - static_cast<int64_t>(shape.fraction_digits.size()) + scale + dropped;
  unsigned __int128 value = 0;
  if (count > 0) {
    if (t >= 0) {
      if (count + t > precision) return ParseResult::OutOfRange;
      for (int k = 0; k < count; ++k) value = value * 10 + static_cast<unsigned>(digits[k] - '0');
      value *= static_cast<unsigned __int128>(wide_power_of_ten(static_cast<int>(t)));
    } else {
      int64_t kept = count + t;  // digits left of the rounding point
      if (kept > precision) return ParseResult::OutOfRange;
      for (int64_t k = 0; k < kept; ++k) value = value * 10 + static_cast<unsigned>(digits[k] - '0');
      if (kept >= 0 && kept < count && digits[kept] >= '5') ++value;  // half away from zero
      if (value >= static_cast<unsigned __int128>(wide_power_of_ten(precision))) return ParseResult::OutOfRange;
    }
  }
  out = shape.negative ? -static_cast<__int128>(value) : static_cast<__int128>(value);
  return ParseResult::Ok;
}

ParseResult detail::parse_decimal(std::string_view text, uint8_t precision, uint8_t scale, int64_t& out) {
  __int128 v = 0;
  const ParseResult r = parse_wide_decimal(text, precision, scale, v);
  out = static_cast<int64_t>(v);  // within 18 digits
  return r;
}

void civil_from_days(int64_t z, int64_t& year, unsigned& month, unsigned& day) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  day = doy - (153 * mp + 2) / 5 + 1;
  month = mp < 10 ? mp + 3 : mp - 9;
  year = static_cast<int64_t>(yoe) + era * 400 + (month <= 2);
}

ParseResult detail::parse_date(std::string_view text, int32_t& days) {
  std::string_view s = trim_blanks(text);
  auto number = [&](std::size_t& i, std::size_t min_digits, std::size_t max_digits, unsigned& value) {
    std::size_t begin = i;
    value = 0;
    while (i < s.size() && is_digit(s[i]) && i - begin < max_digits) value = value * 10 + (s[i++] - '0');
    return i - begin >= min_digits && (i == s.size() || !is_digit(s[i]));
  };
  std::size_t i = 0;
  unsigned year = 0, month = 0, day = 0;
  if (!number(i, 4, 4, year) || i == s.size() || s[i++] != '-') return ParseResult::Invalid;
  if (!number(i, 1, 2, month) || i == s.size() || s[i++] != '-') return ParseResult::Invalid;
  if (!number(i, 1, 2, day) || i != s.size()) return ParseResult::Invalid;
  if (month < 1 || month > 12 || day < 1) return ParseResult::Invalid;
  static constexpr unsigned month_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (day > month_days[month - 1] + (month == 2 && leap)) return ParseResult::Invalid;
  days = static_cast<int32_t>(days_from_civil(year, month, day));
  return ParseResult::Ok;
}

ParseResult parse_boolean(std::string_view text, bool& out) {
  std::string_view s = trim_blanks(text);
  if (s.size() > 5) return ParseResult::Invalid;
  char lower[6] = {};
  for (std::size_t i = 0; i < s.size(); ++i) lower[i] = static_cast<char>(s[i] | 0x20);
  std::string_view w(lower, s.size());
  if (w == "true" || w == "t" || w == "yes" || w == "y" || w == "1") out = true;
  else if (w == "false" || w == "f" || w == "no" || w == "n" || w == "0") out = false;
  else return ParseResult::Invalid;
  return ParseResult::Ok;
}

std::size_t detail::invalid_utf8_offset(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n) {
    // Eight ASCII bytes at a time: the common case.
    if (i + 8 <= n) {
      uint64_t word;
      std::memcpy(&word, p + i, 8);
      if ((word & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len = (c >= 0xC2 && c <= 0xDF) ? 2 : (c >= 0xE0 && c <= 0xEF) ? 3 : (c >= 0xF0 && c <= 0xF4) ? 4 : 0;
    if (len == 0 || i + len > n) return i;
    for (std::size_t k = 1; k < len; ++k)
      if ((p[i + k] & 0xC0) != 0x80) return i;
    if (c == 0xE0 && p[i + 1] < 0xA0) return i;  // overlong
    if (c == 0xED && p[i + 1] > 0x9F) return i;  // surrogates
    if (c == 0xF0 && p[i + 1] < 0x90) return i;  // overlong
    if (c == 0xF4 && p[i + 1] > 0x8F) return i;  // beyond U+10FFFF
    i += len;
  }
  return std::string_view::npos;
}

namespace {

// As DuckDB (and sqlite3) write a DOUBLE or REAL: the shortest digits that
// read back as the value, in plain notation with at least one decimal
// (3.0, 0.0005, 1000000000000000.0) for exponents -4 to 15, else
// scientific (1e-05, 1e+16). Plain notation places those digits, padding
// a whole number with zeros (the REAL 123456792 is 123456790.0), where
// to_chars' fixed form would write the value's exact digits.
template <class T>
std::string cast_text(T value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  const std::string scientific(buffer, end);
  const std::size_t e = scientific.find('e');
  const int exponent = std::stoi(scientific.substr(e + 1));
  if (exponent < -4 || exponent >= 16) return scientific;
  std::string digits;
  for (std::size_t i = 0; i < e; ++i)
    if (scientific[i] >= '0' && scientific[i] <= '9') digits += scientific[i];
  std::string out = value < 0 ? "-" : "";
  if (exponent < 0) return out + "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
  const std::size_t whole = static_cast<std::size_t>(exponent) + 1;
  if (digits.size() <= whole) return out + digits + std::string(whole - digits.size(), '0') + ".0";
  return out + digits.substr(0, whole) + "." + digits.substr(whole);
}

}  // namespace

std::string format_double(double value) { return cast_text(value); }


std::string format_cast_text(DataType type, const void* data, std::size_t row) {
  if (type.id == Type::Double) return cast_text(static_cast<const double*>(data)[row]);
  if (type.id == Type::Real) return cast_text(static_cast<const float*>(data)[row]);
  return format_fixed(type, data, row);
}

ParseResult parse_integer_cast(std::string_view text, int64_t& out) {
  std::string_view s = trim_blanks(text);
  std::size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  __int128 value = 0;
  const __int128 limit = static_cast<__int128>(uint64_t{1} << 63);
  auto digit_value = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1; };
  if (s.size() - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
    for (i += 2; i < s.size(); ++i) {
      int d = digit_value(s[i]);
      if (d < 0) return ParseResult::Invalid;
      value = value * 16 + d;
      if (value > limit) return ParseResult::OutOfRange;
    }
  } else {
    // Digits (with '_' between them), a fraction, an exponent.
    std::string digits;
    int fraction = 0;
    bool point = false;
    for (; i < s.size(); ++i) {
      char c = s[i];
      if (is_digit(c)) {
        digits += c;
        fraction += point;
      } else if (c == '_' && !digits.empty() && i + 1 < s.size() && is_digit(s[i + 1]) && !point) {
        continue;
      } else if (c == '.' && !point) {
        point = true;
      } else {
        break;
      }
    }
    if (digits.empty()) return ParseResult::Invalid;
    int exponent = 0;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
      int64_t e = 0;
      if (detail::parse_integer(s.substr(i + 1), e) != ParseResult::Ok) return ParseResult::Invalid;
      if (e > 1000 || e < -1000) return e > 0 ? ParseResult::OutOfRange : (out = 0, ParseResult::Ok);
      exponent = static_cast<int>(e);
      i = s.size();
    }
    if (i != s.size()) return ParseResult::Invalid;
    // The value is digits * 10^shift: keep the whole part, round by the first digit dropped.
    const int shift = exponent - fraction;
    const int whole = static_cast<int>(digits.size()) + shift;
    for (int k = 0; k < whole; ++k) {
      value = value * 10 + (k < static_cast<int>(digits.size()) ? digits[k] - '0' : 0);
      if (value > limit) return ParseResult::OutOfRange;
    }
    if (whole >= 0 && whole < static_cast<int>(digits.size()) && digits[whole] >= '5') ++value;
  }
  if (negative) value = -value;
  if (value > INT64_MAX || value < INT64_MIN) return ParseResult::OutOfRange;
  out = static_cast<int64_t>(value);
  return ParseResult::Ok;
}

namespace {

// A date's text into out: YYYY-MM-DD, or with a year past 9999 or before 1
// (BC) as to_string() writes it.
void append_date(std::string& out, int32_t days) {
  int64_t year;
  unsigned month, day;
  civil_from_days(days, year, month, day);
  if (year >= 1 && year <= 9999) {
    const unsigned y = static_cast<unsigned>(year);
    const char text[10] = {static_cast<char>('0' + y / 1000), static_cast<char>('0' + y / 100 % 10),
                           static_cast<char>('0' + y / 10 % 10), static_cast<char>('0' + y % 10), '-',
                           static_cast<char>('0' + month / 10), static_cast<char>('0' + month % 10), '-',
                           static_cast<char>('0' + day / 10), static_cast<char>('0' + day % 10)};
    out.append(text, sizeof text);
    return;
  }
  char buffer[48];
  // Year 0 is 1 BC, as DuckDB and PostgreSQL print it.
  if (year <= 0)
    std::snprintf(buffer, sizeof buffer, "%04lld-%02u-%02u (BC)", static_cast<long long>(1 - year), month, day);
  else
    std::snprintf(buffer, sizeof buffer, "%04lld-%02u-%02u", static_cast<long long>(year), month, day);
  out += buffer;
}

// An unscaled DECIMAL value's text into out: its digits, the point `scale`
// digits from the right (a 0 before it at least), a '-' before a negative.
void append_decimal(std::string& out, __int128 value, unsigned scale) {
  unsigned __int128 magnitude =
      value < 0 ? 0 - static_cast<unsigned __int128>(value) : static_cast<unsigned __int128>(value);
  char buffer[96];
  char* p = buffer + sizeof buffer;
  unsigned written = 0;
  auto put = [&](unsigned digit) {
    if (scale > 0 && written == scale) *--p = '.';
    *--p = static_cast<char>('0' + digit);
    ++written;
  };
  if (magnitude >> 64) {
    do {
      put(static_cast<unsigned>(magnitude % 10));
      magnitude /= 10;
    } while (magnitude >> 64);
  }
  for (uint64_t m = static_cast<uint64_t>(magnitude); m != 0 || written == 0; m /= 10) put(static_cast<unsigned>(m % 10));
  while (written <= scale) put(0);
  if (value < 0) *--p = '-';
  out.append(p, static_cast<std::size_t>(buffer + sizeof buffer - p));
}

}  // namespace

std::string to_string(Date date) {
  std::string out;
  append_date(out, date.days);
  return out;
}

namespace {

__int128 unscaled_value(const Decimal& d) {
  return static_cast<__int128>(d.high) * (static_cast<__int128>(1) << 64) + d.unscaled;
}

// A 128-bit integer as DuckDB converts it to a double (the evaluator's
// wide_to_double(), which this layer cannot include).
double hugeint_to_double(__int128 v) {
  const uint64_t lower = static_cast<uint64_t>(v);
  const int64_t upper = static_cast<int64_t>(static_cast<unsigned __int128>(v) >> 64);
  if (upper == -1) return -static_cast<double>(UINT64_MAX - lower) - 1.0;
  return static_cast<double>(lower) + static_cast<double>(upper) * 18446744073709551616.0;
}

}  // namespace

Decimal wide_decimal(const void* data, std::size_t row, uint8_t scale) {
  const int64_t* words = static_cast<const int64_t*>(data) + 2 * row;
  // Stored as two's complement (lower word, upper word); Decimal counts the
  // lower word signed, so a negative lower word carries one into high.
  return Decimal{words[0], scale, words[1] + (words[0] < 0 ? 1 : 0)};
}

std::string to_string(const Decimal& decimal) {
  std::string out;
  append_decimal(out, unscaled_value(decimal), decimal.scale);
  return out;
}

// DuckDB's conversion (as the evaluator's DecimalToDouble): one division
// while the unscaled value converts exactly, else whole part plus fraction.
double Decimal::to_double() const {
  if (high != 0) {  // 128-bit: never exact
    const __int128 v = unscaled_value(*this), p = power_of_ten(scale);
    if (p == 1) return hugeint_to_double(v);
    return hugeint_to_double(v / p) + hugeint_to_double(v % p) / static_cast<double>(p);
  }
  if (scale > 18) return static_cast<double>(unscaled) / std::pow(10.0, scale);
  const int64_t p = power_of_ten(scale);
  const uint64_t magnitude = unscaled < 0 ? 0 - static_cast<uint64_t>(unscaled) : static_cast<uint64_t>(unscaled);
  if (magnitude <= (uint64_t{1} << 53) || p == 1) return static_cast<double>(unscaled) / static_cast<double>(p);
  return static_cast<double>(unscaled / p) + static_cast<double>(unscaled % p) / static_cast<double>(p);
}

void append_fixed(std::string& out, DataType type, const void* data, std::size_t row) {
  char buffer[24];
  auto integer = [&](int64_t v) { out.append(buffer, static_cast<std::size_t>(std::to_chars(buffer, buffer + sizeof buffer, v).ptr - buffer)); };
  switch (type.id) {
    case Type::Boolean: out += static_cast<const uint8_t*>(data)[row] ? "true" : "false"; return;
    case Type::Integer: integer(static_cast<const int32_t*>(data)[row]); return;
    case Type::BigInt: integer(static_cast<const int64_t*>(data)[row]); return;
    case Type::Real: out += cast_text(static_cast<const float*>(data)[row]); return;
    case Type::Double: out += cast_text(static_cast<const double*>(data)[row]); return;
    case Type::Decimal:
      if (type.is_wide_decimal()) append_decimal(out, load_wide(data, row), type.scale);
      else append_decimal(out, static_cast<const int64_t*>(data)[row], type.scale);
      return;
    case Type::Date: append_date(out, static_cast<const int32_t*>(data)[row]); return;
    case Type::Varchar:
    case Type::HugeInt: break;
  }
  out += "?";
}

std::string format_fixed(DataType type, const void* data, std::size_t row) {
  std::string out;
  append_fixed(out, type, data, row);
  return out;
}

std::string excerpt(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 40)) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else out += c;
  }
  if (text.size() > 40) out += "...";
  return out;
}

std::string conversion_message(std::string_view text, DataType type, ParseResult result, char quote) {
  std::string shown = quote + excerpt(text) + quote;
  if (result == ParseResult::OutOfRange) return shown + " is out of range for " + type.to_string();
  return "could not convert " + shown + " to " + type.to_string();
}

}  // namespace gpusql
