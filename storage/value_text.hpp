// Text <-> typed values: how a CSV field, a string literal or a VARCHAR being
// cast becomes a BOOLEAN, INTEGER, BIGINT, REAL, DOUBLE, DECIMAL or DATE, and
// how DATE and DECIMAL values print. One set of rules for COPY, read_csv,
// INSERT and casts, so a value reads the same wherever it comes from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "storage/data_type.hpp"

namespace gpusql {

enum class ParseResult : uint8_t {
  Ok,
  Invalid,     // not a value of the type at all ("abc" as INTEGER)
  OutOfRange,  // the right shape, but too large ("3000000000" as INTEGER)
};

// Strips spaces and tabs at both ends (numbers, dates and booleans may carry them).
inline std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The general parsers behind the inline fast paths below.
namespace detail {
ParseResult parse_integer(std::string_view text, int64_t& out);
ParseResult parse_date(std::string_view text, int32_t& days);
}  // namespace detail

// [+-]digits, blanks around. Anything else (a '.', an exponent) is Invalid.
inline ParseResult parse_integer(std::string_view text, int64_t& out) {
  // The common case inline: [-]digits, at most 18 of them, no blanks.
  const char* p = text.data();
  const std::size_t n = text.size();
  const bool negative = n > 0 && p[0] == '-';
  std::size_t i = negative;
  if (n > i && n - i <= 18) {
    uint64_t value = 0;
    for (; i < n; ++i) {
      unsigned digit = static_cast<unsigned char>(p[i]) - unsigned('0');
      if (digit > 9) break;
      value = value * 10 + digit;
    }
    if (i == n) {
      out = negative ? -static_cast<int64_t>(value) : static_cast<int64_t>(value);
      return ParseResult::Ok;
    }
  }
  return detail::parse_integer(text, out);
}
// [+-]digits[.digits][(e|E)[+-]digits], blanks around; no "inf", "nan" or hex.
ParseResult parse_double(std::string_view text, double& out);
ParseResult parse_real(std::string_view text, float& out);
// The same rules as parse_decimal below for any precision up to 38: the
// unscaled value in 128 bits.
ParseResult parse_wide_decimal(std::string_view text, uint8_t precision, uint8_t scale, __int128& out);
namespace detail {
ParseResult parse_decimal(std::string_view text, uint8_t precision, uint8_t scale, int64_t& out);
constexpr int64_t powers_of_ten[19] = {1,
                                       10,
                                       100,
                                       1000,
                                       10000,
                                       100000,
                                       1000000,
                                       10000000,
                                       100000000,
                                       1000000000,
                                       10000000000,
                                       100000000000,
                                       1000000000000,
                                       10000000000000,
                                       100000000000000,
                                       1000000000000000,
                                       10000000000000000,
                                       100000000000000000,
                                       1000000000000000000};

// The plain notation [-]digits[.digits] in one pass, for the fast paths of
// the parsers: the digits as one integer (meaningless past 19 of them: the
// callers check the counts), how many come before and after the point, and
// whether the text is exactly that notation.
struct PlainNumber {
  bool negative = false;
  bool point = false;
  bool whole = false;  // the notation spans the whole text
  uint64_t digits = 0;
  std::size_t int_digits = 0;
  std::size_t fraction = 0;
};

inline PlainNumber scan_plain_number(std::string_view text) {
  PlainNumber r;
  const char* p = text.data();
  const std::size_t n = text.size();
  r.negative = n > 0 && p[0] == '-';
  std::size_t i = r.negative;
  auto digits = [&] {
    const std::size_t begin = i;
    for (; i < n; ++i) {
      const unsigned digit = static_cast<unsigned char>(p[i]) - unsigned('0');
      if (digit > 9) break;
      r.digits = r.digits * 10 + digit;
    }
    return i - begin;
  };
  r.int_digits = digits();
  if (i < n && p[i] == '.') {
    ++i;
    r.point = true;
    r.fraction = digits();
  }
  r.whole = i == n;
  return r;
}
}  // namespace detail

// The same notation as parse_double, exactly: the value rounded half away
// from zero to `scale` digits after the point, OutOfRange when it needs more
// than `precision` digits in all.
inline ParseResult parse_decimal(std::string_view text, uint8_t precision, uint8_t scale, int64_t& out) {
  // The common case inline: [-]digits[.digits], no more fraction digits than
  // the scale, within the precision, no blanks.
  const detail::PlainNumber n = detail::scan_plain_number(text);
  if (n.whole && n.int_digits + n.fraction > 0 && n.int_digits + n.fraction <= 18 && n.fraction <= scale &&
      n.int_digits + scale <= precision) {
    const uint64_t value = n.digits * static_cast<uint64_t>(detail::powers_of_ten[scale - n.fraction]);
    out = n.negative ? -static_cast<int64_t>(value) : static_cast<int64_t>(value);
    return ParseResult::Ok;
  }
  return detail::parse_decimal(text, precision, scale, out);
}
// Days since 1970-01-01 of a proleptic Gregorian date, and back.
constexpr int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}
void civil_from_days(int64_t days, int64_t& year, unsigned& month, unsigned& day);

// YYYY-MM-DD (month and day may have one digit), a real calendar date.
inline ParseResult parse_date(std::string_view text, int32_t& days) {
  // The common case inline: exactly YYYY-MM-DD.
  const char* p = text.data();
  if (text.size() == 10 && p[4] == '-' && p[7] == '-') {
    auto digit = [p](int at) { return static_cast<unsigned>(static_cast<unsigned char>(p[at])) - unsigned('0'); };
    const unsigned y0 = digit(0), y1 = digit(1), y2 = digit(2), y3 = digit(3), m0 = digit(5), m1 = digit(6),
                   d0 = digit(8), d1 = digit(9);
    if ((y0 <= 9) & (y1 <= 9) & (y2 <= 9) & (y3 <= 9) & (m0 <= 9) & (m1 <= 9) & (d0 <= 9) & (d1 <= 9)) {
      unsigned year = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
      unsigned month = m0 * 10 + m1, day = d0 * 10 + d1;
      bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
      unsigned last = month == 2 ? 28 + leap : (month == 4 || month == 6 || month == 9 || month == 11) ? 30 : 31;
      if (month < 1 || month > 12 || day < 1 || day > last) return ParseResult::Invalid;
      days = static_cast<int32_t>(days_from_civil(year, month, day));
      return ParseResult::Ok;
    }
  }
  return detail::parse_date(text, days);
}
// true/false, t/f, yes/no, y/n, 1/0, any case.
ParseResult parse_boolean(std::string_view text, bool& out);

// A string CAST to an integer type, as DuckDB reads it (more than a CSV field
// may hold): '_' between digits, a fraction rounded by its first digit (half
// away from zero: '2.5' is 3), an exponent ('1e3'), hexadecimal '0x10'.
ParseResult parse_integer_cast(std::string_view text, int64_t& out);

// A DOUBLE or REAL as CAST(... AS VARCHAR) writes it, as DuckDB does: the
// shortest round-trip digits, fixed with at least one decimal ('1.0') from
// 1e-4 up to 1e16, else scientific ('1e+16', '2.5e-07').
std::string format_cast_text(DataType type, const void* data, std::size_t row);

// A 128-bit DECIMAL column's value at `row`: two's complement words, lower
// first (Arrow's layout).
inline void store_wide(void* data, std::size_t row, __int128 v) {
  int64_t* words = static_cast<int64_t*>(data) + 2 * row;
  words[0] = static_cast<int64_t>(static_cast<uint64_t>(static_cast<unsigned __int128>(v)));
  words[1] = static_cast<int64_t>(static_cast<unsigned __int128>(v) >> 64);
}
inline __int128 load_wide(const void* data, std::size_t row) {
  const int64_t* words = static_cast<const int64_t*>(data) + 2 * row;
  return static_cast<__int128>(static_cast<unsigned __int128>(static_cast<uint64_t>(words[1])) << 64 |
                               static_cast<uint64_t>(words[0]));
}

// Parses `text` as a value of the fixed-width `type` (anything but VARCHAR)
// and stores it as row `row` of a column's raw values.
inline ParseResult parse_fixed(std::string_view text, DataType type, void* data, std::size_t row) {
  switch (type.id) {
    case Type::Boolean: {
      bool b = false;
      ParseResult r = parse_boolean(text, b);
      static_cast<uint8_t*>(data)[row] = b;
      return r;
    }
    case Type::Integer: {
      int64_t v = 0;
      ParseResult r = parse_integer(text, v);
      if (r == ParseResult::Ok && (v < INT32_MIN || v > INT32_MAX)) r = ParseResult::OutOfRange;
      static_cast<int32_t*>(data)[row] = static_cast<int32_t>(v);
      return r;
    }
    case Type::BigInt: return parse_integer(text, static_cast<int64_t*>(data)[row]);
    case Type::Real: return parse_real(text, static_cast<float*>(data)[row]);
    case Type::Double: return parse_double(text, static_cast<double*>(data)[row]);
    case Type::Decimal:
      if (type.is_wide_decimal()) {
        __int128 v = 0;
        const ParseResult r = parse_wide_decimal(text, type.precision, type.scale, v);
        store_wide(data, row, v);
        return r;
      }
      return parse_decimal(text, type.precision, type.scale, static_cast<int64_t*>(data)[row]);
    case Type::Date: return parse_date(text, static_cast<int32_t*>(data)[row]);
    case Type::Varchar:
    case Type::HugeInt: break;
  }
  return ParseResult::Invalid;
}



// 10^n for 0 <= n <= 18.
int64_t power_of_ten(int n);
// 10^n for 0 <= n <= 38.
__int128 wide_power_of_ten(int n);

namespace detail {
std::size_t invalid_utf8_offset(std::string_view text);
}  // namespace detail

// The byte offset of the first invalid UTF-8 sequence in `text`, or npos.
inline std::size_t invalid_utf8_offset(std::string_view text) {
  // ASCII, the common case, inline: no byte with its high bit set.
  unsigned char any = 0;
  for (char c : text) any |= static_cast<unsigned char>(c);
  return any < 0x80 ? std::string_view::npos : detail::invalid_utf8_offset(text);
}

// A value of `type` at data[row] as text: what Result::text and casts to
// VARCHAR print (shortest round-trip form for REAL and DOUBLE).
std::string format_fixed(DataType type, const void* data, std::size_t row);
// The same text appended to `out` (no string made per value).
void append_fixed(std::string& out, DataType type, const void* data, std::size_t row);

// The value at `row` of a 128-bit DECIMAL column (two's complement words,
// lower first) of `scale`.
Decimal wide_decimal(const void* data, std::size_t row, uint8_t scale);

// The message for a failed parse: `could not convert "abc" to INTEGER` or
// `"3000000000" is out of range for INTEGER`; `quote` wraps the text.
std::string conversion_message(std::string_view text, DataType type, ParseResult result, char quote = '"');

// Shows a value in an error message: at most 40 bytes, line breaks escaped.
std::string excerpt(std::string_view text);

}  // namespace gpusql
