// How the shell prints a query result: one Renderer per output mode, behind
// one interface, so the REPL loop never knows which mode is on.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "gpusql/gpusql.hpp"

namespace gpusql::shell {

enum class RenderMode {
  Box,       // Unicode box drawing with column types, like DuckDB's duckbox
  Csv,       // RFC 4180, header line, NULL as an empty field
  Json,      // an array of objects, one per row, like sqlite3's .mode json
  Markdown,  // a pipe table
  List,      // sqlite3's and DuckDB's list: values joined by the separator ("|")
  Line,      // sqlite3's and DuckDB's line: "name = value", one column a line, rows apart
  Column,    // sqlite3's column: values left-aligned in columns two spaces apart, names underlined
  Table,     // sqlite3's table: the same in an ASCII grid, names centered
  Trash,     // nothing at all: for timing queries without printing them
};

// "box", "csv", ... ; the names .mode and the command-line flags accept.
std::string_view render_mode_name(RenderMode mode);
std::optional<RenderMode> parse_render_mode(std::string_view name);
// "box|csv|json|markdown|list|line|column|table|trash", for help texts.
std::string_view render_mode_names();

struct RenderOptions {
  // Box mode: a result with more rows shows its first and last rows only,
  // with a "N rows (M shown)" footer. 0 shows every row.
  std::size_t max_rows = 40;
  // csv and list: a first line of column names (.headers).
  bool headers = true;
  // list and line: the text of a NULL (.nullvalue); csv writes an empty field.
  std::string null_value;
  // list: between values (.separator).
  std::string separator = "|";
};

class Renderer {
 public:
  virtual ~Renderer() = default;

  // Writes `result` to `out`. A result without columns (a statement that
  // returns no rows) prints its status line, when it has one; a result with
  // columns and no rows prints its header.
  virtual void render(const Result& result, std::ostream& out) const;

 protected:
  // Called for results with at least one column.
  virtual void render_table(const Result& result, std::ostream& out) const = 0;
};

std::unique_ptr<Renderer> make_renderer(RenderMode mode, RenderOptions options = {});

}  // namespace gpusql::shell
