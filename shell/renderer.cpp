#include "shell/renderer.hpp"

#include <locale.h>
#include <wchar.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "storage/result_data.hpp"

namespace gpusql::shell {

namespace {

struct ModeName {
  RenderMode mode;
  std::string_view name;
};
constexpr std::array<ModeName, 9> MODE_NAMES{{
    {RenderMode::Box, "box"},
    {RenderMode::Csv, "csv"},
    {RenderMode::Json, "json"},
    {RenderMode::Markdown, "markdown"},
    {RenderMode::List, "list"},
    {RenderMode::Line, "line"},
    {RenderMode::Column, "column"},
    {RenderMode::Table, "table"},
    {RenderMode::Trash, "trash"},
}};

// Terminal columns a UTF-8 string takes: each code point's wcwidth() in the
// C.UTF-8 locale (2 for CJK and most emoji, 0 for combining marks), whatever
// the user's locale; 1 for a code point it calls unprintable (the caller
// escaped control characters already), and 1 a code point where that
// locale is missing.
std::size_t display_width(std::string_view text) {
  static const locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(0));
  const locale_t previous = utf8 ? uselocale(utf8) : static_cast<locale_t>(0);
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char lead = static_cast<unsigned char>(text[i]);
    const int length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 1;
    char32_t code = length == 1 ? lead : lead & (0x7F >> length);
    int k = 1;
    for (; k < length && i + k < text.size() && (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80; ++k)
      code = (code << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    const int columns = utf8 && k == length ? wcwidth(static_cast<wchar_t>(code)) : 1;
    width += columns < 0 ? 1 : static_cast<std::size_t>(columns);
    i += static_cast<std::size_t>(k);
  }
  if (utf8) uselocale(previous);
  return width;
}

enum class Align { Left, Right, Center };

std::string pad(std::string_view text, std::size_t width, Align align) {
  std::size_t used = display_width(text);
  std::size_t space = width > used ? width - used : 0;
  std::size_t left = align == Align::Right ? space : align == Align::Center ? space / 2 : 0;
  std::string padded(left, ' ');
  padded += text;
  padded.append(space - left, ' ');
  return padded;
}

std::string repeat(std::string_view piece, std::size_t count) {
  std::string s;
  s.reserve(piece.size() * count);
  for (std::size_t i = 0; i < count; ++i) s += piece;
  return s;
}

// A cell on one line of a table: line breaks, tabs and other control
// characters would tear the grid apart, so they show as escapes.
std::string escape_for_grid(std::string text) {
  bool clean = true;
  for (unsigned char c : text) clean = clean && c >= 0x20 && c != 0x7F;
  if (clean) return text;
  std::string escaped;
  for (unsigned char c : text) {
    switch (c) {
      case '\n': escaped += "\\n"; break;
      case '\r': escaped += "\\r"; break;
      case '\t': escaped += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          constexpr char HEX[] = "0123456789abcdef";
          escaped += "\\x";
          escaped += HEX[c >> 4];
          escaped += HEX[c & 0xF];
        } else {
          escaped += static_cast<char>(c);
        }
    }
  }
  return escaped;
}

// Numbers line up on their last digit; everything else reads left to right.
bool right_aligned(const Result& result, std::size_t column) {
  switch (result.column_type(column)) {
    case Type::Integer:
    case Type::BigInt:
    case Type::Real:
    case Type::Double:
    case Type::Decimal:
    case Type::HugeInt: return true;
    case Type::Boolean:
    case Type::Date:
    case Type::Varchar: return false;
  }
  return false;
}

// The column's SQL type as DuckDB shows it under the name: lower case.
std::string lower_type_name(const Result& result, std::size_t column) {
  std::string name = result.data().columns[column].type.to_string();
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

// Columns between the outer borders of a box table.
std::size_t table_inner_width(const std::vector<std::size_t>& widths) {
  std::size_t inner = widths.size() - 1;
  for (std::size_t w : widths) inner += w + 2;
  return inner;
}

class BoxRenderer final : public Renderer {
 public:
  explicit BoxRenderer(RenderOptions options) : options_(options) {}

 protected:
  void render_table(const Result& result, std::ostream& out) const override {
    const std::size_t columns = result.column_count();
    const std::size_t rows = result.row_count();
    const bool elide = options_.max_rows > 0 && rows > options_.max_rows;
    // Only the rows shown are formatted, so a huge result costs no more
    // than a small one.
    const std::size_t top = elide ? (options_.max_rows + 1) / 2 : rows;
    const std::size_t bottom = elide ? options_.max_rows / 2 : 0;

    std::vector<std::string> names(columns), types(columns);
    std::vector<bool> right(columns);
    std::vector<std::size_t> widths(columns);
    for (std::size_t c = 0; c < columns; ++c) {
      names[c] = escape_for_grid(result.column_name(c));
      types[c] = lower_type_name(result, c);
      right[c] = right_aligned(result, c);
      widths[c] = std::max(display_width(names[c]), display_width(types[c]));
    }
    std::vector<std::vector<std::string>> cells;
    cells.reserve(top + bottom);
    auto format_row = [&](std::size_t row) {
      std::vector<std::string>& line = cells.emplace_back(columns);
      for (std::size_t c = 0; c < columns; ++c) {
        line[c] = escape_for_grid(result.text(row, c));
        widths[c] = std::max(widths[c], display_width(line[c]));
      }
    };
    for (std::size_t r = 0; r < top; ++r) format_row(r);
    for (std::size_t r = rows - bottom; r < rows; ++r) format_row(r);

    // The footer spans the whole table. Where "N rows (M shown)" is wider
    // than the table it takes two lines, as in DuckDB, and only if even those
    // do not fit does the last column widen.
    std::vector<std::string> footer;
    if (rows == 0) footer = {"0 rows"};
    if (elide) {
      std::string count = std::to_string(rows) + " rows";
      std::string shown = "(" + std::to_string(top + bottom) + " shown)";
      if (display_width(count) + 1 + display_width(shown) + 2 <= table_inner_width(widths))
        footer = {count + " " + shown};
      else
        footer = {count, shown};
    }
    for (const std::string& line : footer) {
      std::size_t inner = table_inner_width(widths);
      if (display_width(line) + 2 > inner) widths.back() += display_width(line) + 2 - inner;
    }

    auto rule = [&](std::string_view left, std::string_view join, std::string_view end) {
      std::string line(left);
      for (std::size_t c = 0; c < columns; ++c) {
        if (c > 0) line += join;
        line += repeat("─", widths[c] + 2);
      }
      line += end;
      line += '\n';
      return line;
    };
    auto row_line = [&](auto&& text_of, auto&& align_of) {
      std::string line = "│";
      for (std::size_t c = 0; c < columns; ++c) {
        line += ' ';
        line += pad(text_of(c), widths[c], align_of(c));
        line += " │";
      }
      line += '\n';
      return line;
    };
    auto centered = [](std::size_t) { return Align::Center; };
    auto by_type = [&](std::size_t c) { return right[c] ? Align::Right : Align::Left; };

    out << rule("┌", "┬", "┐");
    out << row_line([&](std::size_t c) -> std::string_view { return names[c]; }, centered);
    out << row_line([&](std::size_t c) -> std::string_view { return types[c]; }, centered);
    // With no rows, the rule above the footer closes the header.
    if (!cells.empty()) out << rule("├", "┼", "┤");
    for (std::size_t r = 0; r < cells.size(); ++r) {
      if (elide && r == top) {
        // Three rows of dots stand for the rows left out.
        std::string dots = row_line([](std::size_t) -> std::string_view { return "·"; }, by_type);
        out << dots << dots << dots;
      }
      out << row_line([&](std::size_t c) -> std::string_view { return cells[r][c]; }, by_type);
    }
    if (footer.empty()) {
      out << rule("└", "┴", "┘");
      return;
    }
    out << rule("├", "┴", "┤");
    const std::size_t inner = table_inner_width(widths);
    for (const std::string& line : footer) out << "│ " << pad(line, inner - 2, Align::Left) << " │\n";
    out << "└" << repeat("─", inner) << "┘\n";
  }

 private:
  RenderOptions options_;
};

// RFC 4180: a field is quoted only when it holds a comma, a quote or a line
// break, quotes doubled inside.
std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

class CsvRenderer final : public Renderer {
 public:
  explicit CsvRenderer(RenderOptions options) : options_(std::move(options)) {}

 protected:
  void render_table(const Result& result, std::ostream& out) const override {
    const std::size_t columns = result.column_count();
    std::string line;
    for (std::size_t c = 0; c < columns; ++c) {
      if (c > 0) line += ',';
      line += csv_field(result.column_name(c));
    }
    if (options_.headers) out << line << '\n';
    for (std::size_t r = 0; r < result.row_count(); ++r) {
      line.clear();
      for (std::size_t c = 0; c < columns; ++c) {
        if (c > 0) line += ',';
        if (result.is_null(r, c)) continue;  // NULL is an empty field
        std::string text = result.text(r, c);
        // An empty string is quoted so that it reads back as '' and not as NULL.
        line += text.empty() ? "\"\"" : csv_field(text);
      }
      out << line << '\n';
    }
  }

 private:
  RenderOptions options_;
};

// sqlite3's list mode: values as Result::text, joined by the separator,
// NULL as the null value; no quoting.
class ListRenderer final : public Renderer {
 public:
  explicit ListRenderer(RenderOptions options) : options_(std::move(options)) {}

 protected:
  void render_table(const Result& result, std::ostream& out) const override {
    const std::size_t columns = result.column_count();
    if (options_.headers) {
      for (std::size_t c = 0; c < columns; ++c) out << (c > 0 ? options_.separator : "") << result.column_name(c);
      out << '\n';
    }
    for (std::size_t r = 0; r < result.row_count(); ++r) {
      for (std::size_t c = 0; c < columns; ++c)
        out << (c > 0 ? options_.separator : "") << (result.is_null(r, c) ? options_.null_value : result.text(r, c));
      out << '\n';
    }
  }

 private:
  RenderOptions options_;
};

// sqlite3's line mode: each row's columns one a line, "name = value", the
// names right-aligned to the longest; a blank line between rows.
class LineRenderer final : public Renderer {
 public:
  explicit LineRenderer(RenderOptions options) : options_(std::move(options)) {}

 protected:
  void render_table(const Result& result, std::ostream& out) const override {
    const std::size_t columns = result.column_count();
    std::size_t width = 0;
    for (std::size_t c = 0; c < columns; ++c) width = std::max(width, display_width(result.column_name(c)));
    for (std::size_t r = 0; r < result.row_count(); ++r) {
      if (r > 0) out << '\n';
      for (std::size_t c = 0; c < columns; ++c) {
        const std::string& name = result.column_name(c);
        out << std::string(width - display_width(name), ' ') << name << " = "
            << (result.is_null(r, c) ? options_.null_value : result.text(r, c)) << '\n';
      }
    }
  }

 private:
  RenderOptions options_;
};

// sqlite3's column and table modes: every value left-aligned in a column as
// wide as its widest value or name (display width), NULL as the null value.
// Column: two spaces between columns, the names (when headers are on) over
// a line of dashes. Table: an ASCII grid, the names centered.
class ColumnRenderer final : public Renderer {
 public:
  ColumnRenderer(RenderOptions options, bool grid) : options_(std::move(options)), grid_(grid) {}

 protected:
  void render_table(const Result& result, std::ostream& out) const override {
    const std::size_t columns = result.column_count(), rows = result.row_count();
    std::vector<std::vector<std::string>> cells(rows, std::vector<std::string>(columns));
    std::vector<std::size_t> width(columns);
    for (std::size_t c = 0; c < columns; ++c) width[c] = display_width(result.column_name(c));
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < columns; ++c) {
        cells[r][c] = result.is_null(r, c) ? options_.null_value : result.text(r, c);
        width[c] = std::max(width[c], display_width(cells[r][c]));
      }
    auto line = [&](auto&& cell) {
      std::string text = grid_ ? "|" : "";
      for (std::size_t c = 0; c < columns; ++c) {
        if (grid_) text += " " + cell(c) + " |";
        else text += (c > 0 ? "  " : "") + cell(c);
      }
      out << text << '\n';
    };
    auto rule = [&] {
      std::string text = "+";
      for (std::size_t c = 0; c < columns; ++c) text += std::string(width[c] + 2, '-') + "+";
      out << text << '\n';
    };
    if (grid_) rule();
    if (grid_ || options_.headers) {
      line([&](std::size_t c) { return pad(result.column_name(c), width[c], grid_ ? Align::Center : Align::Left); });
      if (grid_) rule();
      else line([&](std::size_t c) { return std::string(width[c], '-'); });
    }
    for (std::size_t r = 0; r < rows; ++r) line([&](std::size_t c) { return pad(cells[r][c], width[c], Align::Left); });
    if (grid_) rule();
  }

 private:
  RenderOptions options_;
  bool grid_;
};

std::string json_string(std::string_view text) {
  std::string s = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': s += "\\\""; break;
      case '\\': s += "\\\\"; break;
      case '\b': s += "\\b"; break;
      case '\f': s += "\\f"; break;
      case '\n': s += "\\n"; break;
      case '\r': s += "\\r"; break;
      case '\t': s += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          constexpr char HEX[] = "0123456789abcdef";
          s += "\\u00";
          s += HEX[c >> 4];
          s += HEX[c & 0xF];
        } else {
          s += static_cast<char>(c);
        }
    }
  }
  s += '"';
  return s;
}

std::string json_value(const Value& value) {
  struct Visitor {
    std::string operator()(std::monostate) const { return "null"; }
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(int32_t i) const { return std::to_string(i); }
    std::string operator()(int64_t i) const { return std::to_string(i); }
    // JSON has no infinity or NaN.
    std::string operator()(double d) const { return std::isfinite(d) ? format_double(d) : "null"; }
    std::string operator()(const std::string& s) const { return json_string(s); }
    std::string operator()(Date d) const { return json_string(to_string(d)); }
    std::string operator()(const Decimal& d) const { return to_string(d); }
  };
  return std::visit(Visitor{}, value);
}

// sqlite3's layout: one object per line, the array's brackets on the first
// and last line.
class JsonRenderer final : public Renderer {
 protected:
  void render_table(const Result& result, std::ostream& out) const override {
    const std::size_t columns = result.column_count();
    const std::size_t rows = result.row_count();
    if (rows == 0) {
      out << "[]\n";
      return;
    }
    std::vector<std::string> keys(columns);
    for (std::size_t c = 0; c < columns; ++c) keys[c] = json_string(result.column_name(c)) + ':';
    std::string line;
    for (std::size_t r = 0; r < rows; ++r) {
      line = r == 0 ? "[{" : "{";
      for (std::size_t c = 0; c < columns; ++c) {
        if (c > 0) line += ',';
        line += keys[c];
        line += json_value(result.value(r, c));
      }
      line += r + 1 == rows ? "}]\n" : "},\n";
      out << line;
    }
  }
};

class MarkdownRenderer final : public Renderer {
 protected:
  void render_table(const Result& result, std::ostream& out) const override {
    const std::size_t columns = result.column_count();
    const std::size_t rows = result.row_count();
    auto cell = [](std::string text) {
      std::string escaped;
      for (char c : escape_for_grid(std::move(text))) {
        if (c == '|') escaped += '\\';
        escaped += c;
      }
      return escaped;
    };
    std::vector<std::string> names(columns);
    std::vector<Align> align(columns);
    std::vector<std::size_t> widths(columns);
    for (std::size_t c = 0; c < columns; ++c) {
      names[c] = cell(result.column_name(c));
      align[c] = right_aligned(result, c) ? Align::Right : Align::Left;
      widths[c] = display_width(names[c]);
    }
    std::vector<std::vector<std::string>> cells(rows, std::vector<std::string>(columns));
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < columns; ++c) {
        cells[r][c] = cell(result.text(r, c));
        widths[c] = std::max(widths[c], display_width(cells[r][c]));
      }

    auto write_row = [&](const std::vector<std::string>& texts) {
      std::string line = "|";
      for (std::size_t c = 0; c < columns; ++c) line += ' ' + pad(texts[c], widths[c], align[c]) + " |";
      out << line << '\n';
    };
    write_row(names);
    std::string rule = "|";
    for (std::size_t c = 0; c < columns; ++c) {
      // A trailing colon right-aligns the column where the table is rendered.
      rule += align[c] == Align::Right ? std::string(widths[c] + 1, '-') + ':' : std::string(widths[c] + 2, '-');
      rule += '|';
    }
    out << rule << '\n';
    for (const auto& texts : cells) write_row(texts);
  }
};

class TrashRenderer final : public Renderer {
 public:
  void render(const Result&, std::ostream&) const override {}

 protected:
  void render_table(const Result&, std::ostream&) const override {}
};

}  // namespace

std::string_view render_mode_name(RenderMode mode) {
  for (const auto& m : MODE_NAMES)
    if (m.mode == mode) return m.name;
  return "?";
}

std::optional<RenderMode> parse_render_mode(std::string_view name) {
  for (const auto& m : MODE_NAMES)
    if (m.name == name) return m.mode;
  return std::nullopt;
}

std::string_view render_mode_names() {
  static const std::string names = [] {
    std::string joined;
    for (const auto& m : MODE_NAMES) joined += (joined.empty() ? "" : "|") + std::string(m.name);
    return joined;
  }();
  return names;
}

void Renderer::render(const Result& result, std::ostream& out) const {
  if (result.column_count() == 0) {
    if (!result.status().empty()) out << result.status() << '\n';
    return;
  }
  render_table(result, out);
}

std::unique_ptr<Renderer> make_renderer(RenderMode mode, RenderOptions options) {
  switch (mode) {
    case RenderMode::Box: return std::make_unique<BoxRenderer>(options);
    case RenderMode::Csv: return std::make_unique<CsvRenderer>(options);
    case RenderMode::Json: return std::make_unique<JsonRenderer>();
    case RenderMode::Markdown: return std::make_unique<MarkdownRenderer>();
    case RenderMode::List: return std::make_unique<ListRenderer>(options);
    case RenderMode::Line: return std::make_unique<LineRenderer>(options);
    case RenderMode::Column: return std::make_unique<ColumnRenderer>(options, false);
    case RenderMode::Table: return std::make_unique<ColumnRenderer>(options, true);
    case RenderMode::Trash: return std::make_unique<TrashRenderer>();
  }
  return std::make_unique<CsvRenderer>(options);
}

}  // namespace gpusql::shell
