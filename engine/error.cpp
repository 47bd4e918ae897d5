// gpusql::Error and the one formatter that puts a caret under the fault.
#include <algorithm>
#include <string>
#include <vector>

#include "gpusql/gpusql.hpp"

namespace gpusql {

std::string_view error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Parser: return "Parser Error";
    case ErrorKind::Binder: return "Binder Error";
    case ErrorKind::Catalog: return "Catalog Error";
    case ErrorKind::IO: return "IO Error";
    case ErrorKind::Conversion: return "Conversion Error";
    case ErrorKind::Execution: return "Execution Error";
    case ErrorKind::OutOfMemory: return "Out of Memory Error";
    case ErrorKind::Device: return "Device Error";
    case ErrorKind::NotSupported: return "Not implemented Error";
    case ErrorKind::Invalid: return "Invalid Input Error";
    case ErrorKind::Constraint: return "Constraint Error";
    case ErrorKind::Interrupt: return "INTERRUPT Error";
  }
  return "Error";
}

static std::string prefixed(ErrorKind kind, const std::string& message) {
  return std::string(error_kind_name(kind)) + ": " + message;
}

Error::Error(ErrorKind kind, std::string message, std::optional<std::size_t> offset)
    : std::runtime_error(prefixed(kind, message)), kind_(kind), message_(std::move(message)), offset_(offset) {}

Error::Error(ErrorKind kind, std::string message, std::optional<std::size_t> offset, std::string full,
             std::optional<std::size_t> line, std::optional<std::size_t> column)
    : std::runtime_error(std::move(full)),
      kind_(kind),
      message_(std::move(message)),
      offset_(offset),
      line_(line),
      column_(column) {}

// A line longer than this many characters shows only a window of them
// around the caret, its cut ends marked "...": a failing statement of a
// single 5 MB line is not echoed whole.
constexpr std::size_t kMaxShownColumns = 160;

Error Error::with_source(std::string_view sql) const {
  if (!offset_ || line_) return *this;
  std::size_t offset = std::min(*offset_, sql.size());
  std::size_t newline = offset == 0 ? std::string_view::npos : sql.rfind('\n', offset - 1);
  std::size_t line_start = newline == std::string_view::npos ? 0 : newline + 1;
  std::size_t line_end = sql.find('\n', offset);
  if (line_end == std::string_view::npos) line_end = sql.size();
  std::size_t line = 1;
  for (std::size_t i = 0; i < line_start; ++i) line += sql[i] == '\n';
  // The caret column counts characters, not bytes: skip UTF-8 continuation bytes.
  std::size_t column = 1;
  for (std::size_t i = line_start; i < offset; ++i) column += (static_cast<unsigned char>(sql[i]) & 0xC0) != 0x80;

  std::string text(sql.substr(line_start, line_end - line_start));
  if (!text.empty() && text.back() == '\r') text.pop_back();
  for (char& c : text)
    if (c == '\t') c = ' ';
  // Characters, not bytes, again: where each begins.
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
  std::size_t caret = column - 1;
  if (starts.size() > kMaxShownColumns) {
    const std::size_t first = std::min(caret > kMaxShownColumns / 2 ? caret - kMaxShownColumns / 2 : 0,
                                       starts.size() - kMaxShownColumns);
    const std::size_t last = first + kMaxShownColumns;
    const std::size_t begin = starts[first], end = last < starts.size() ? starts[last] : text.size();
    text = (first > 0 ? "..." : "") + text.substr(begin, end - begin) + (last < starts.size() ? "..." : "");
    caret = caret - first + (first > 0 ? 3 : 0);
  }
  std::string label = "LINE " + std::to_string(line) + ": ";
  // The position goes at the end of the message's first line; hints such as
  // "Did you mean ..." follow on their own lines, then the caret.
  std::string full = prefixed(kind_, message_);
  std::size_t first_line_end = std::min(full.find('\n'), full.size());
  full.insert(first_line_end, " (line " + std::to_string(line) + ", column " + std::to_string(column) + ")");
  full += "\n" + label + text + "\n" + std::string(label.size() + caret, ' ') + "^";
  return Error(kind_, message_, offset_, std::move(full), line, column);
}

}  // namespace gpusql
