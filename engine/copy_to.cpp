#include "engine/copy_to.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "engine/catalog_statements.hpp"
#include "storage/result_data.hpp"
#include "storage/table.hpp"
#include "storage/value_text.hpp"

namespace gpusql {
namespace {

struct CsvWriteOptions {
  bool header = true;
  char delimiter = ',';
  std::string null_text;
};

bool option_flag(const ast::Literal& v, bool& out) {
  using K = ast::Literal::Kind;
  if (v.kind == K::Boolean) out = v.boolean;
  else if (v.kind == K::Integer && (v.integer == 0 || v.integer == 1)) out = v.integer == 1;
  else if (v.kind == K::String && (iequals(v.text, "true") || iequals(v.text, "false"))) out = iequals(v.text, "true");
  else return false;
  return true;
}

CsvWriteOptions write_options(const ast::CopyStatement& s) {
  CsvWriteOptions o;
  auto bad = [&](const std::string& name, const std::string& what) {
    return Error(ErrorKind::Binder, "COPY ... TO option \"" + name + "\" " + what, s.table_offset);
  };
  for (const auto& [name, value] : s.options) {
    if (name == "header") {
      if (!option_flag(value, o.header)) throw bad(name, "takes true or false");
    } else if (name == "delimiter" || name == "delim" || name == "sep") {
      if (value.kind != ast::Literal::Kind::String || value.text.size() != 1 || value.text[0] == '"' ||
          value.text[0] == '\n' || value.text[0] == '\r')
        throw bad(name, "takes one character other than a quote or a line break");
      o.delimiter = value.text[0];
    } else if (name == "null" || name == "nullstr") {
      if (value.kind != ast::Literal::Kind::String) throw bad(name, "takes a string");
      o.null_text = value.text;
    } else if (name == "format") {
      if (value.kind != ast::Literal::Kind::String || !iequals(value.text, "csv"))
        throw Error(ErrorKind::NotSupported, "not supported yet: COPY ... TO in a format other than csv",
                    s.table_offset);
    } else {
      throw Error(ErrorKind::Binder, "unrecognized COPY option \"" + name + "\"", s.table_offset);
    }
  }
  return o;
}

void append_field(std::string& line, const std::string& text, const CsvWriteOptions& o) {
  const bool quote = text.empty() ? o.null_text.empty()
                                  : text == o.null_text || text.find(o.delimiter) != std::string::npos ||
                                        text.find_first_of("\"\n\r") != std::string::npos;
  if (!quote) {
    line += text;
    return;
  }
  line += '"';
  for (char c : text) {
    if (c == '"') line += '"';
    line += c;
  }
  line += '"';
}

// `rows` as CSV text into `out`.
void write_rows(const Result& rows, const CsvWriteOptions& o, std::ofstream& out) {
  std::string line;
  if (o.header) {
    for (std::size_t c = 0; c < rows.column_count(); ++c) {
      if (c) line += o.delimiter;
      append_field(line, rows.column_name(c), o);
    }
    line += '\n';
  }
  for (std::size_t r = 0; r < rows.row_count(); ++r) {
    for (std::size_t c = 0; c < rows.column_count(); ++c) {
      if (c) line += o.delimiter;
      if (rows.is_null(r, c)) line += o.null_text;
      else append_field(line, rows.text(r, c), o);
    }
    line += '\n';
    if (line.size() >= (std::size_t{1} << 20)) {
      out.write(line.data(), static_cast<std::streamsize>(line.size()));
      line.clear();
    }
  }
  out.write(line.data(), static_cast<std::streamsize>(line.size()));
}

}  // namespace

std::shared_ptr<ResultData> copy_to(const ast::CopyStatement& s, Database::Impl& database, std::string_view sql) {
  const CsvWriteOptions options = write_options(s);
  std::shared_ptr<ResultData> data;
  if (s.query) {
    data = database.run_select(*s.query, sql);
  } else {
    ast::SelectStatement all;
    all.items.push_back({ast::make_star("", s.table_offset), ""});
    ast::TableRef table;
    table.name = s.table;
    table.offset = s.table_offset;
    all.from.push_back(std::move(table));
    data = database.run_select(all, sql);
  }
  const Result rows(data);
  const std::filesystem::path target(s.path);
  std::filesystem::path temporary = target;
  temporary += ".gpusql-partial";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw Error(ErrorKind::IO, "could not open \"" + s.path + "\" for writing");
    try {
      write_rows(rows, options, out);
    } catch (...) {
      out.close();
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw;
    }
    out.close();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw Error(ErrorKind::IO, "could not write \"" + s.path + "\" (disk full?); the file is unchanged");
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, target, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw Error(ErrorKind::IO, "could not write \"" + s.path + "\": " + error.message());
  }
  return status_result("wrote " + rows_text(rows.row_count()) + " to " + s.path);
}

}  // namespace gpusql
