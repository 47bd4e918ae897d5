// Random tables for differential testing: every CSV-loadable type, NULLs
// (none, some, all), duplicates and skewed columns (one hot value), negative
// numbers, the extremes of each type, empty and one-row tables, strings that
// need CSV quoting, long and non-ASCII strings. A table is kept as the text of
// each field; gpusql infers the column types from the CSV, and the values go
// into SQLite typed as gpusql inferred them.
#pragma once

#include <charconv>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "gpusql/gpusql.hpp"
#include "tests/differential/random.hpp"
#include "tests/test_support.hpp"

namespace gpusql::test::diff {

using Cell = gpusql::test::Cell;

// What a generated column is meant to hold; gpusql's inference decides its
// type, except for DECIMAL columns (DECIMAL(15,2), DECIMAL(9,4), and
// DECIMAL(38,2), 128-bit, with values of up to 30 digits so that no sum of
// a few thousand leaves 128 bits) and DATE columns, which the fixture
// declares.
enum class Intent { Int, BigInt, Double, Text, Decimal15_2, Decimal9_4, Date, Decimal38_2 };

// The SQL type a DECIMAL or DATE column is made ("" for the others).
inline std::string intent_type(Intent intent) {
  switch (intent) {
    case Intent::Decimal15_2: return "DECIMAL(15,2)";
    case Intent::Decimal9_4: return "DECIMAL(9,4)";
    case Intent::Decimal38_2: return "DECIMAL(38,2)";
    case Intent::Date: return "DATE";
    default: return "";
  }
}

// A DECIMAL column's scale (-1 for the others).
inline int intent_scale(Intent intent) {
  return intent == Intent::Decimal15_2 || intent == Intent::Decimal38_2 ? 2 : intent == Intent::Decimal9_4 ? 4 : -1;
}

// "YYYY-MM-DD" of a day number (days since 1970-01-01, proleptic Gregorian).
inline std::string date_text(int64_t days) {
  // Howard Hinnant's civil_from_days.
  int64_t z = days + 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = yoe + era * 400;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  int64_t d = doy - (153 * mp + 2) / 5 + 1;
  int64_t m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) ++y;
  char buffer[80];
  std::snprintf(buffer, sizeof buffer, "%04lld-%02lld-%02lld", static_cast<long long>(y), static_cast<long long>(m),
                static_cast<long long>(d));
  return buffer;
}

// The text of unscaled / 10^scale: "-0.05" for (-5, 2).
inline std::string decimal_text(int64_t unscaled, int scale) {
  std::string digits = std::to_string(unscaled < 0 ? -unscaled : unscaled);
  if (digits.size() <= static_cast<std::size_t>(scale)) digits.insert(0, static_cast<std::size_t>(scale) + 1 - digits.size(), '0');
  digits.insert(digits.size() - static_cast<std::size_t>(scale), ".");
  return (unscaled < 0 ? "-" : "") + digits;
}

struct TableData {
  std::string name;
  std::vector<std::string> columns;
  std::vector<Intent> intents;
  std::vector<std::vector<std::optional<std::string>>> rows;  // field text; nullopt is NULL
};

inline std::string double_text(double d) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", d);
  std::string s = buffer;
  // Keep doubles recognisably floating so most double columns stay DOUBLE.
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

inline const std::vector<std::string>& text_pool() {
  static const std::vector<std::string> pool = {
      "", "a", "b", "A", "B", "ab", "abc", "abd", "b a", "Zz", "zz", "ü", "日本語", "x,y", "q\"q", "line\nbreak",
      " lead", "trail ", "12", "-3", "NULL", "%", "_", "a%b", "a_b", "\\", "'", "it's", "émoji 😀",
      std::string(300, 'x') + "1", std::string(300, 'x') + "2", "aa", "aaa", "ba", "c",
  };
  return pool;
}

class DataGenerator {
 public:
  explicit DataGenerator(Rng& rng) : rng_(rng) {}

  TableData table(const std::string& name, std::size_t max_rows) {
    TableData t;
    t.name = name;
    std::size_t columns = 1 + rng_.below(5);
    for (std::size_t c = 0; c < columns; ++c) {
      Intent intent = static_cast<Intent>(rng_.weighted({1, 1, 1, 1, 0.35, 0.25, 0.4, 0.25}));
      const char* prefix = intent == Intent::Int      ? "i"
                           : intent == Intent::BigInt ? "b"
                           : intent == Intent::Double ? "d"
                           : intent == Intent::Text   ? "s"
                           : intent == Intent::Date   ? "dt"
                                                      : "m";
      t.columns.push_back(prefix + std::to_string(c));
      t.intents.push_back(intent);
    }
    // Sizes: empty, one row, a few, dozens, hundreds, and sometimes thousands
    // (more than one 2048-row chunk, for the GPU's multi-block paths).
    std::size_t rows = 0;
    switch (rng_.weighted({4, 6, 25, 40, 18, 7})) {
      case 0: rows = 0; break;
      case 1: rows = 1; break;
      case 2: rows = 2 + rng_.below(8); break;
      case 3: rows = 10 + rng_.below(90); break;
      case 4: rows = 100 + rng_.below(900); break;
      default: rows = 2000 + rng_.below(4000); break;
    }
    rows = std::min(rows, max_rows);
    std::vector<ColumnProfile> profiles;
    for (Intent intent : t.intents) profiles.push_back(profile(intent));
    // A NULL in a one-column table would be a blank line, which CSV skips.
    if (columns == 1) profiles[0].null_rate = 0;
    t.rows.resize(rows);
    for (auto& row : t.rows)
      for (std::size_t c = 0; c < columns; ++c) row.push_back(value(profiles[c]));
    return t;
  }

 private:
  struct ColumnProfile {
    Intent intent;
    double null_rate;
    int domain;                              // 0 small, 1 medium, 2 wide with extremes
    std::optional<std::string> hot;          // a skewed column's frequent value
    std::vector<std::string> vocabulary;     // Text: the strings this column draws from
  };

  Rng& rng_;

  ColumnProfile profile(Intent intent) {
    ColumnProfile p;
    p.intent = intent;
    static const std::vector<double> null_rates = {0, 0, 0, 0, 0.1, 0.3, 0.6, 1.0};
    p.null_rate = rng_.pick(null_rates);
    p.domain = static_cast<int>(rng_.weighted({4, 4, 2}));
    if (intent == Intent::Text) {
      const auto& pool = text_pool();
      std::size_t n = 1 + rng_.below(p.domain == 0 ? 4 : pool.size());
      for (std::size_t i = 0; i < n; ++i) p.vocabulary.push_back(rng_.pick(pool));
    }
    if (rng_.chance(0.25)) p.hot = raw_value(p);
    return p;
  }

  std::optional<std::string> value(const ColumnProfile& p) {
    if (rng_.chance(p.null_rate)) return std::nullopt;
    if (p.hot && rng_.chance(0.7)) return p.hot;
    return raw_value(p);
  }

  std::string raw_value(const ColumnProfile& p) {
    switch (p.intent) {
      case Intent::Int: {
        if (p.domain == 0) return std::to_string(rng_.range(-3, 3));
        if (p.domain == 1) return std::to_string(rng_.range(-1000, 1000));
        static const std::vector<int64_t> extremes = {std::numeric_limits<int32_t>::min(),
                                                      std::numeric_limits<int32_t>::max(), 0, -1, 1};
        if (rng_.chance(0.3)) return std::to_string(rng_.pick(extremes));
        return std::to_string(rng_.range(std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()));
      }
      case Intent::BigInt: {
        if (p.domain == 0) return std::to_string(rng_.range(-5, 5) * 10000000000ll);
        if (p.domain == 1) return std::to_string(rng_.range(-(1ll << 40), 1ll << 40));
        static const std::vector<int64_t> extremes = {std::numeric_limits<int64_t>::min(),
                                                      std::numeric_limits<int64_t>::max(),
                                                      std::numeric_limits<int64_t>::min() + 1,
                                                      (1ll << 53) + 1, -(1ll << 53) - 1, 3000000000ll};
        if (rng_.chance(0.15)) return std::to_string(rng_.pick(extremes));
        return std::to_string(static_cast<int64_t>(rng_.next()) >> (2 + rng_.below(30)));
      }
      case Intent::Double: {
        if (p.domain == 0) return double_text(static_cast<double>(rng_.range(-24, 24)) / 8.0);
        if (p.domain == 1) return double_text(static_cast<double>(rng_.range(-100000, 100000)) / 100.0);
        static const std::vector<std::string> extremes = {"0.0", "-0.0", "1e100", "-1e100", "1e-100",
                                                          "2.5e-300", "123456789.125", "0.1"};
        if (rng_.chance(0.3)) return rng_.pick(extremes);
        return double_text((rng_.unit() - 0.5) * 2e6);
      }
      case Intent::Text: return rng_.pick(p.vocabulary);
      case Intent::Decimal15_2:
      case Intent::Decimal9_4: {
        int scale = intent_scale(p.intent);
        int64_t max = p.intent == Intent::Decimal15_2 ? 999999999999999ll : 999999999ll;
        if (p.domain == 0) return decimal_text(rng_.range(-300, 300), scale);
        if (p.domain == 1) return decimal_text(rng_.range(-10000000, 10000000), scale);
        if (rng_.chance(0.3)) return decimal_text(rng_.pick(std::vector<int64_t>{max, -max, 0, 1, -1}), scale);
        return decimal_text(rng_.range(-max, max), scale);
      }
      case Intent::Decimal38_2: {
        if (p.domain == 0) return decimal_text(rng_.range(-300, 300), 2);
        if (p.domain == 1) return decimal_text(rng_.range(-10000000, 10000000), 2);
        static const std::vector<std::string> extremes = {
            "9999999999999999999999999999.99", "-9999999999999999999999999999.99", "184467440737095516.16",
            "-92233720368547758.08", "92233720368547758.07", "0.00", "0.01", "-0.01"};
        if (rng_.chance(0.3)) return rng_.pick(extremes);
        // 1 to 30 random digits, the last two after the point.
        std::string digits = std::to_string(1 + rng_.below(9));
        for (std::size_t n = rng_.below(30); n > 0; --n) digits += static_cast<char>('0' + rng_.below(10));
        if (digits.size() < 3) digits.insert(0, 3 - digits.size(), '0');
        digits.insert(digits.size() - 2, ".");
        return (rng_.chance(0.5) ? "-" : "") + digits;
      }
      case Intent::Date: {
        // 1998, 1970-2037, or years 0001-9999.
        if (p.domain == 0) return date_text(10227 + rng_.range(0, 364));
        if (p.domain == 1) return date_text(rng_.range(0, 24836));
        if (rng_.chance(0.3)) return date_text(rng_.pick(std::vector<int64_t>{-719162, 2932896, 0, -1, 11016}));
        return date_text(rng_.range(-719162, 2932896));
      }
    }
    return "";
  }
};

// A CSV file of the table: a header, RFC 4180 quoting where needed, NULL as
// an empty unquoted field and the empty string as "".
inline std::string to_csv(const TableData& t) {
  auto field = [](const std::string& s) {
    if (!s.empty() && s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string quoted = "\"";
    for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
  };
  std::string csv;
  for (std::size_t c = 0; c < t.columns.size(); ++c) csv += (c ? "," : "") + t.columns[c];
  csv += "\n";
  for (const auto& row : t.rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c) csv += ",";
      if (row[c]) csv += field(*row[c]);
    }
    csv += "\n";
  }
  return csv;
}

// A field as the value gpusql holds for a column of `type`: what goes into SQLite.
inline Cell typed_value(const std::optional<std::string>& field, Type type) {
  if (!field) return std::monostate{};
  std::string s = *field;
  if (type == Type::Varchar) return s;
  if (type == Type::Decimal || type == Type::Date) {  // as text: the oracle casts it exactly
    auto first = s.find_first_not_of(' '), last = s.find_last_not_of(' ');
    if (first == std::string::npos) return std::monostate{};
    return s.substr(first, last - first + 1);
  }
  auto first = s.find_first_not_of(' '), last = s.find_last_not_of(' ');
  s = first == std::string::npos ? "" : s.substr(first, last - first + 1);
  // A quoted empty field in a column gpusql reads as numbers is NULL there.
  if (s.empty()) return std::monostate{};
  if (type == Type::Double || type == Type::Real) return std::strtod(s.c_str(), nullptr);
  if (type == Type::Boolean) return static_cast<int64_t>(s == "true" || s == "TRUE" || s == "1");
  int64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

}  // namespace gpusql::test::diff
