#include "storage/csv_reader.hpp"

#include <algorithm>
#include <charconv>
#include <deque>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace gpusql {
namespace {

struct Field {
  std::string_view text;
  bool quoted = false;
  std::size_t line = 0;    // 1-based
  std::size_t column = 0;  // 1-based, in bytes from the start of its line
};

struct Record {
  std::vector<Field> fields;
  std::size_t line = 0;
};

// Shows a field in an error message, shortened and with control bytes escaped.
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

class CsvParser {
 public:
  CsvParser(std::string_view text, std::string source, const CsvOptions& options)
      : text_(text), source_(std::move(source)), options_(options) {}

  [[noreturn]] void fail(std::size_t line, std::size_t column, const std::string& what) const {
    throw Error(ErrorKind::Conversion, "CSV file \"" + source_ + "\", line " + std::to_string(line) + ", column " +
                                           std::to_string(column) + ": " + what);
  }

  // Splits the text into records of fields. Quoted fields whose text needed
  // unescaping live in arena_.
  std::vector<Record> split() {
    std::vector<Record> records;
    std::size_t pos = 0, line = 1, line_start = 0;
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos = line_start = 3;
    const char delim = options_.delimiter, quote = options_.quote;
    while (pos < text_.size()) {
      Record record;
      record.line = line;
      while (true) {
        Field field;
        field.line = line;
        field.column = pos - line_start + 1;
        if (pos < text_.size() && text_[pos] == quote) {
          field.quoted = true;
          std::size_t open_line = line, open_column = field.column;
          std::string value;
          bool escaped = false;
          std::size_t begin = ++pos;
          while (true) {
            if (pos >= text_.size()) fail(open_line, open_column, "unterminated quoted field");
            char c = text_[pos];
            if (c == quote) {
              if (pos + 1 < text_.size() && text_[pos + 1] == quote) {
                if (!escaped) value.assign(text_.substr(begin, pos - begin));
                escaped = true;
                value += quote;
                pos += 2;
                continue;
              }
              break;
            }
            if (c == '\n') {
              ++line;
              line_start = pos + 1;
            }
            if (escaped) value += c;
            ++pos;
          }
          field.text = escaped ? std::string_view(arena_.emplace_back(std::move(value)))
                               : text_.substr(begin, pos - begin);
          ++pos;  // closing quote
          if (pos < text_.size() && text_[pos] != delim && text_[pos] != '\n' && text_[pos] != '\r')
            fail(line, pos - line_start + 1,
                 "unexpected character after a closing quote: \"" + excerpt(text_.substr(pos, 1)) + "\"");
        } else {
          std::size_t begin = pos;
          while (pos < text_.size() && text_[pos] != delim && text_[pos] != '\n' && text_[pos] != quote &&
                 !(text_[pos] == '\r' && (pos + 1 == text_.size() || text_[pos + 1] == '\n')))
            ++pos;
          if (pos < text_.size() && text_[pos] == quote)
            fail(line, pos - line_start + 1, "a quote inside an unquoted field: \"" +
                                                 excerpt(text_.substr(begin, pos - begin + 1)) + "\"");
          field.text = text_.substr(begin, pos - begin);
        }
        record.fields.push_back(field);
        if (pos < text_.size() && text_[pos] == delim) {
          ++pos;
          continue;
        }
        break;
      }
      if (pos < text_.size() && text_[pos] == '\r') ++pos;
      if (pos < text_.size() && text_[pos] == '\n') {
        ++pos;
        ++line;
        line_start = pos;
      }
      // A blank line holds no record.
      if (record.fields.size() == 1 && !record.fields[0].quoted && record.fields[0].text.empty()) continue;
      records.push_back(std::move(record));
    }
    return records;
  }

 private:
  std::string_view text_;
  std::string source_;
  const CsvOptions& options_;
  std::deque<std::string> arena_;
};

enum class Inferred { Null, Integer, BigInt, Double, Varchar };

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool parse_int64(std::string_view s, int64_t& out) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

bool parse_double(std::string_view s, double& out) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return false;
  // Only decimal notation: no "inf", "nan" or hex, which SQL readers treat as text.
  for (char c : s)
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+')) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out, std::chars_format::general);
  return ec == std::errc() && end == s.data() + s.size();
}

Inferred classify(std::string_view s) {
  int64_t i;
  if (parse_int64(s, i))
    return (i >= std::numeric_limits<int32_t>::min() && i <= std::numeric_limits<int32_t>::max()) ? Inferred::Integer
                                                                                                  : Inferred::BigInt;
  double d;
  if (parse_double(s, d)) return Inferred::Double;
  return Inferred::Varchar;
}

// Length of the valid UTF-8 sequence at s[i], or 0 when it is invalid.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  if (c < 0x80) return 1;
  std::size_t n = (c >= 0xC2 && c <= 0xDF) ? 2 : (c >= 0xE0 && c <= 0xEF) ? 3 : (c >= 0xF0 && c <= 0xF4) ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  if (c == 0xE0 && b(i + 1) < 0xA0) return 0;  // overlong
  if (c == 0xED && b(i + 1) > 0x9F) return 0;  // surrogates
  if (c == 0xF0 && b(i + 1) < 0x90) return 0;  // overlong
  if (c == 0xF4 && b(i + 1) > 0x8F) return 0;  // beyond U+10FFFF
  return n;
}

}  // namespace

std::shared_ptr<Table> read_csv_text(std::string_view text, const std::string& source_name,
                                     const std::string& table_name, const CsvOptions& options) {
  CsvParser parser(text, source_name, options);
  std::vector<Record> records = parser.split();
  if (records.empty()) throw Error(ErrorKind::IO, "CSV file \"" + source_name + "\" is empty");

  // Column names from the header, or column0, column1, ... without one.
  std::vector<std::string> names;
  std::size_t first_data = 0;
  if (options.header) {
    auto& header = records[0].fields;
    if (header.size() > 1 && header.back().text.empty() && !header.back().quoted) header.pop_back();
    for (std::size_t i = 0; i < header.size(); ++i) {
      std::string name(trim(header[i].text));
      if (name.empty()) name = "column" + std::to_string(i);
      std::string unique = name;
      for (int k = 1; std::any_of(names.begin(), names.end(), [&](const std::string& n) { return iequals(n, unique); }); ++k)
        unique = name + "_" + std::to_string(k);
      names.push_back(unique);
    }
    first_data = 1;
  } else {
    auto& first = records[0].fields;
    std::size_t n = first.size();
    if (n > 1 && first.back().text.empty() && !first.back().quoted) --n;
    for (std::size_t i = 0; i < n; ++i) names.push_back("column" + std::to_string(i));
  }
  const std::size_t width = names.size();
  const std::size_t rows = records.size() - first_data;

  // Shape check: every record has `width` fields (a trailing empty one is allowed).
  for (std::size_t r = first_data; r < records.size(); ++r) {
    auto& fields = records[r].fields;
    if (fields.size() == width + 1 && fields.back().text.empty() && !fields.back().quoted) fields.pop_back();
    if (fields.size() != width) {
      const Field& at = fields.size() > width ? fields[width] : fields.back();
      std::size_t column = fields.size() > width ? at.column : at.column + at.text.size() + (at.quoted ? 2 : 0);
      parser.fail(at.line, column,
                  "expected " + std::to_string(width) + " fields but found " + std::to_string(fields.size()) +
                      (fields.size() > width ? " (extra field \"" + excerpt(at.text) + "\")" : ""));
    }
  }

  auto is_null = [&](const Field& f) { return !f.quoted && f.text == options.null_marker; };

  auto table = std::make_shared<Table>();
  table->name = table_name;
  table->rows = rows;
  for (std::size_t c = 0; c < width; ++c) {
    Inferred type = Inferred::Null;
    for (std::size_t r = first_data; r < records.size() && type != Inferred::Varchar; ++r) {
      const Field& f = records[r].fields[c];
      if (is_null(f)) continue;
      type = std::max(type, classify(f.text));
    }
    DataType data_type = type == Inferred::Integer  ? DataType::integer()
                         : type == Inferred::BigInt ? DataType::bigint()
                         : type == Inferred::Double ? DataType::double_()
                                                    : DataType::varchar();
    HostColumn column(data_type, rows);
    if (data_type.id == Type::Varchar) {
      // Validate, collect the distinct strings, sort them, then code each row.
      std::vector<std::string_view> distinct;
      for (std::size_t r = first_data; r < records.size(); ++r) {
        const Field& f = records[r].fields[c];
        if (is_null(f)) continue;
        for (std::size_t i = 0; i < f.text.size();) {
          std::size_t n = utf8_sequence(f.text, i);
          if (n == 0) parser.fail(f.line, f.column + i + (f.quoted ? 1 : 0), "invalid UTF-8 in a VARCHAR value \"" + excerpt(f.text) + "\"");
          i += n;
        }
        distinct.push_back(f.text);
      }
      std::sort(distinct.begin(), distinct.end());
      distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
      auto dictionary = std::make_shared<Dictionary>();
      dictionary->values.assign(distinct.begin(), distinct.end());
      auto codes = column.values<uint32_t>();
      for (std::size_t r = first_data; r < records.size(); ++r) {
        const Field& f = records[r].fields[c];
        std::size_t row = r - first_data;
        if (is_null(f)) {
          codes[row] = 0;
          column.set_null(row);
        } else {
          codes[row] = static_cast<uint32_t>(std::lower_bound(distinct.begin(), distinct.end(), f.text) - distinct.begin());
        }
      }
      column.dictionary = std::move(dictionary);
    } else {
      for (std::size_t r = first_data; r < records.size(); ++r) {
        const Field& f = records[r].fields[c];
        std::size_t row = r - first_data;
        if (is_null(f)) {
          column.set_null(row);
          continue;
        }
        int64_t i = 0;
        double d = 0;
        switch (data_type.id) {
          case Type::Integer:
            parse_int64(f.text, i);
            column.values<int32_t>()[row] = static_cast<int32_t>(i);
            break;
          case Type::BigInt:
            parse_int64(f.text, i);
            column.values<int64_t>()[row] = i;
            break;
          default:
            if (!parse_double(f.text, d))
              parser.fail(f.line, f.column, "\"" + excerpt(f.text) + "\" is not a DOUBLE");  // e.g. out of range
            column.values<double>()[row] = d;
            break;
        }
      }
    }
    table->columns.push_back({names[c], data_type});
    table->host.push_back(std::move(column));
  }
  return table;
}

std::shared_ptr<Table> read_csv(const std::string& path, const std::string& table_name, const CsvOptions& options) {
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    throw Error(ErrorKind::IO, "cannot open CSV file \"" + path + "\": no such file");
  if (std::filesystem::is_directory(status))
    throw Error(ErrorKind::IO, "cannot read CSV file \"" + path + "\": it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::IO, "cannot open CSV file \"" + path + "\": permission denied or unreadable");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  return read_csv_text(text, path, table_name, options);
}

}  // namespace gpusql
