#include "engine/copy_to.hpp"

#include <cctype>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string_view>
#include <system_error>

#include "engine/catalog_statements.hpp"
#include "storage/parallel_tasks.hpp"
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

void append_field(std::string& line, std::string_view text, const CsvWriteOptions& o) {
  const bool quote = text.empty() ? o.null_text.empty()
                                  : text == o.null_text || text.find(o.delimiter) != std::string_view::npos ||
                                        text.find_first_of("\"\n\r") != std::string_view::npos;
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

// How one result column's non-NULL values become fields. A VARCHAR column
// with no more dictionary entries than rows has each entry's field made
// once (quoting checked once per distinct string); other values are
// formatted where they are written.
struct ColumnFields {
  const HostColumn* column = nullptr;
  std::vector<std::string> entries;
  // A number's, date's or boolean's text holds only digits, letters and
  // "+-.:() ": it needs quoting only where the delimiter is one of those or
  // a NULL text is written.
  bool plain_values = false;

  ColumnFields(const HostColumn& c, std::size_t rows, const CsvWriteOptions& o) : column(&c) {
    const char d = o.delimiter;
    plain_values = o.null_text.empty() && !std::isalnum(static_cast<unsigned char>(d)) &&
                   std::string_view("+-.:() ").find(d) == std::string_view::npos;
    if (c.type.id != Type::Varchar || !c.dictionary || c.dictionary->size() > rows) return;
    const std::vector<std::string>& values = c.dictionary->values;
    entries.resize(values.size());
    parallel_ranges(values.size(), 1 << 14, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) append_field(entries[i], values[i], o);
    });
  }

  void append(std::string& line, std::size_t row, const CsvWriteOptions& o) const {
    const HostColumn& c = *column;
    if (!c.is_valid(row)) {
      line += o.null_text;
    } else if (c.type.id != Type::Varchar) {
      if (plain_values) append_fixed(line, c.type, c.bytes.data(), row);
      else append_field(line, format_fixed(c.type, c.bytes.data(), row), o);
    } else {
      const uint32_t code = c.values<uint32_t>()[row];
      if (!entries.empty()) line += entries[code];
      else append_field(line, c.dictionary->values[code], o);
    }
  }
};

// `rows` as CSV text into `out`: blocks of rows formatted on `threads` threads,
// each written, in order, by whichever thread finishes the block the file
// needs next, while the others format ahead (at most kWindow blocks, so
// memory stays a few blocks per core). Returns whether every write succeeded.
bool write_rows(const ResultData& rows, const CsvWriteOptions& o, std::size_t threads, std::ofstream& out) {
  std::string header;
  if (o.header) {
    for (std::size_t c = 0; c < rows.columns.size(); ++c) {
      if (c) header += o.delimiter;
      append_field(header, rows.names[c], o);
    }
    header += '\n';
  }
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  std::vector<ColumnFields> fields;
  for (const HostColumn& c : rows.columns) fields.emplace_back(c, rows.rows, o);

  constexpr std::size_t kBlockRows = 1 << 14;
  const std::size_t window = 4 * threads;
  const std::size_t blocks = (rows.rows + kBlockRows - 1) / kBlockRows;
  std::mutex mutex;
  std::condition_variable advanced;
  std::vector<std::string> texts(blocks);
  std::vector<char> ready(blocks, 0);
  std::size_t next_write = 0;
  bool writing = false, failed = false;
  parallel_for_workers(blocks, threads, [&](std::size_t block, std::size_t) {
    {
      std::unique_lock lock(mutex);
      advanced.wait(lock, [&] { return failed || block < next_write + window; });
      if (failed) return;
    }
    std::string text;
    try {
      const std::size_t end = std::min(rows.rows, (block + 1) * kBlockRows);
      for (std::size_t r = block * kBlockRows; r < end; ++r) {
        for (std::size_t c = 0; c < fields.size(); ++c) {
          if (c) text += o.delimiter;
          fields[c].append(text, r, o);
        }
        text += '\n';
      }
    } catch (...) {
      std::lock_guard lock(mutex);
      failed = true;
      advanced.notify_all();
      throw;
    }
    std::unique_lock lock(mutex);
    texts[block] = std::move(text);
    ready[block] = 1;
    if (writing) return;  // the thread writing now takes this block in turn
    writing = true;
    while (next_write < blocks && ready[next_write]) {
      std::string next = std::move(texts[next_write]);
      lock.unlock();
      out.write(next.data(), static_cast<std::streamsize>(next.size()));
      lock.lock();
      ++next_write;
      advanced.notify_all();
    }
    writing = false;
  });
  return static_cast<bool>(out);
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
  const std::filesystem::path target(s.path);
  std::filesystem::path temporary = target;
  temporary += ".gpusql-partial";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw Error(ErrorKind::IO, "could not open \"" + s.path + "\" for writing");
    bool written = false;
    try {
      const unsigned threads = database.settings.threads;
      written = write_rows(*data, options, threads > 0 ? threads : hardware_threads(), out);
    } catch (...) {
      out.close();
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw;
    }
    out.close();
    if (!written || !out) {
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
  return status_result("wrote " + rows_text(data->rows) + " to " + s.path);
}

}  // namespace gpusql
