#include "planner/scalar_functions.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <vector>
#include <cstdio>

#include "core/expr_program.hpp"
#include "storage/parallel_tasks.hpp"

namespace gpusql {

bool parse_date(std::string_view text, int64_t& days) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  auto number = [&](std::size_t at, std::size_t length, int64_t& out) {
    for (std::size_t i = at; i < at + length; ++i)
      if (text[i] < '0' || text[i] > '9') return false;
    std::from_chars(text.data() + at, text.data() + at + length, out);
    return true;
  };
  int64_t y, m, d;
  if (!number(0, 4, y) || !number(5, 2, m) || !number(8, 2, d)) return false;
  if (m < 1 || m > 12 || d < 1) return false;
  const int month_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (d > month_days[m - 1] + (m == 2 && leap)) return false;
  days = days_from_civil(y, m, d);
  return true;
}

std::string format_date(int64_t days) {
  int64_t y, m, d;
  civil_from_days(days, y, m, d);
  char buffer[64];  // room for any int64 year, month and day (keeps -Wformat-truncation quiet)
  std::snprintf(buffer, sizeof buffer, "%04lld-%02lld-%02lld", static_cast<long long>(y), static_cast<long long>(m),
                static_cast<long long>(d));
  return buffer;
}

namespace {

// Length of the UTF-8 character starting at s[i] (1 for stray bytes).
std::size_t char_length(std::string_view s, std::size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  std::size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  return i + n <= s.size() ? n : 1;
}

}  // namespace

namespace {

// A pattern of literal pieces between '%': the text starts with the first
// piece unless the pattern starts with '%', ends with the last unless it
// ends with '%', and holds the others in order, each after the one before.
bool pieces_match(std::string_view text, const std::vector<std::string_view>& pieces, bool open_start, bool open_end) {
  std::size_t at = 0, first = 0, last = pieces.size();
  if (!open_start) {
    if (text.substr(0, pieces[0].size()) != pieces[0]) return false;
    at = pieces[0].size();
    first = 1;
  }
  if (!open_end && last > first) {
    const std::string_view tail = pieces[last - 1];
    if (text.size() < at + tail.size() || text.substr(text.size() - tail.size()) != tail) return false;
    text = text.substr(0, text.size() - tail.size());
    --last;
  } else if (!open_end && text.size() != at) {
    return false;  // the whole pattern was one piece: the text must be exactly it
  }
  for (std::size_t i = first; i < last; ++i) {
    const std::size_t found = text.find(pieces[i], at);
    if (found == std::string_view::npos) return false;
    at = found + pieces[i].size();
  }
  return true;
}

}  // namespace

std::vector<uint8_t> like_matches(const StringPool& values, std::string_view pattern) {
  std::vector<uint8_t> out(values.size());
  const bool pieces_only = pattern.find('_') == std::string_view::npos;
  std::vector<std::string_view> pieces;
  for (std::size_t start = 0; pieces_only && start <= pattern.size();) {
    const std::size_t end = std::min(pattern.find('%', start), pattern.size());
    if (end > start) pieces.push_back(pattern.substr(start, end - start));
    start = end + 1;
  }
  const bool open_start = !pattern.empty() && pattern.front() == '%';
  const bool open_end = !pattern.empty() && pattern.back() == '%';
  parallel_ranges(values.size(), 1 << 16, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      out[i] = pieces_only && !pieces.empty() ? pieces_match(values[i], pieces, open_start, open_end)
                                              : like_match(values[i], pattern);
  });
  return out;
}

bool like_match(std::string_view text, std::string_view pattern) {
  // Iterative matching with backtracking to the last '%': linear in practice,
  // never recursive (no stack growth on hostile patterns).
  std::size_t t = 0, p = 0, star_p = std::string_view::npos, star_t = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '%') {
      star_p = p++;
      star_t = t;
    } else if (p < pattern.size() && pattern[p] == '_') {
      t += char_length(text, t);
      ++p;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++t;
      ++p;
    } else if (star_p != std::string_view::npos) {
      p = star_p + 1;
      star_t += char_length(text, star_t);
      t = star_t;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '%') ++p;
  return p == pattern.size();
}

}  // namespace gpusql
