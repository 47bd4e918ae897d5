#include "engine/copy_to.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
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
// once (quoting checked once per distinct string); other values, and plain
// strings, are formatted where they are written.
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
    const StringPool& values = c.dictionary->values;
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
    } else if (c.is_plain()) {
      append_field(line, (*c.strings)[row], o);
    } else {
      const uint32_t code = c.values<uint32_t>()[row];
      if (!entries.empty()) line += entries[code];
      else append_field(line, c.dictionary->values[code], o);
    }
  }
};

// Writes all of `bytes` at `offset` of file `fd`; false on an error.
bool write_at(int fd, std::string_view bytes, off_t offset) {
  while (!bytes.empty()) {
    const ssize_t n = ::pwrite(fd, bytes.data(), bytes.size(), offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
    offset += n;
  }
  return true;
}

// `rows` as CSV text into file `fd`: blocks of rows formatted on `threads`
// threads, each written by the thread that formatted it, at its offset,
// once the blocks before it are formatted (their sizes known): formatting
// and writing both run on every thread, and each thread holds one block's
// text at a time. Returns whether every write succeeded.
bool write_rows(const std::vector<std::string>& names, const std::vector<const HostColumn*>& columns, std::size_t rows,
                const CsvWriteOptions& o, std::size_t threads, int fd) {
  std::string header;
  if (o.header) {
    for (std::size_t c = 0; c < names.size(); ++c) {
      if (c) header += o.delimiter;
      append_field(header, names[c], o);
    }
    header += '\n';
  }
  if (!write_at(fd, header, 0)) return false;
  std::vector<ColumnFields> fields;
  for (const HostColumn* c : columns) fields.emplace_back(*c, rows, o);

  constexpr std::size_t kBlockRows = 1 << 14;
  const std::size_t blocks = (rows + kBlockRows - 1) / kBlockRows;
  std::mutex mutex;
  std::condition_variable sized;
  std::size_t next_offset = header.size();  // where block `sized_blocks` starts
  std::size_t sized_blocks = 0;             // blocks whose sizes are known, in order
  bool failed = false;
  auto fail = [&] {
    std::lock_guard lock(mutex);
    failed = true;
    sized.notify_all();
  };
  parallel_for_workers(blocks, threads, [&](std::size_t block, std::size_t) {
    std::string text;
    try {
      const std::size_t end = std::min(rows, (block + 1) * kBlockRows);
      for (std::size_t r = block * kBlockRows; r < end; ++r) {
        for (std::size_t c = 0; c < fields.size(); ++c) {
          if (c) text += o.delimiter;
          fields[c].append(text, r, o);
        }
        text += '\n';
      }
    } catch (...) {
      fail();
      throw;
    }
    std::size_t offset = 0;
    {
      std::unique_lock lock(mutex);
      sized.wait(lock, [&] { return failed || sized_blocks == block; });
      if (failed) return;
      offset = next_offset;
      next_offset += text.size();
      ++sized_blocks;
      sized.notify_all();
    }
    if (!write_at(fd, text, static_cast<off_t>(offset))) fail();
  });
  return !failed;
}

}  // namespace

std::shared_ptr<ResultData> copy_to(const ast::CopyStatement& s, Database::Impl& database, std::string_view sql) {
  const CsvWriteOptions options = write_options(s);
  // What is written: a table's own host columns (no query, no copy of the
  // table), or a query's result (a view's too).
  std::shared_ptr<const Table> table = s.query ? nullptr : database.catalog.find(s.table);
  std::shared_ptr<ResultData> data;
  std::vector<std::string> names;
  std::vector<const HostColumn*> columns;
  std::vector<HostColumn> fetched;  // columns of a table on the device alone, for this write
  std::size_t rows = 0;
  if (table) {
    fetched.resize(table->columns.size());
    for (std::size_t c = 0; c < table->columns.size(); ++c) {
      names.push_back(table->columns[c].name);
      // Plain strings are written as they are: no encoding for an export.
      columns.push_back(&table->read_column(c, fetched[c]));
    }
    rows = table->rows;
  } else {
    if (s.query) {
      data = database.run_select(*s.query, sql);
    } else {
      ast::SelectStatement all;
      all.items.push_back({ast::make_star("", s.table_offset), ""});
      ast::TableRef from;
      from.name = s.table;
      from.offset = s.table_offset;
      all.from.push_back(std::move(from));
      data = database.run_select(all, sql);
    }
    names = data->names;
    for (const HostColumn& c : data->columns) columns.push_back(&c);
    rows = data->rows;
  }
  const std::filesystem::path target(s.path);
  std::filesystem::path temporary = target;
  temporary += ".gpusql-partial";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw Error(ErrorKind::IO, "could not open \"" + s.path + "\" for writing");
  bool written = false;
  try {
    const unsigned threads = database.settings.threads;
    written = write_rows(names, columns, rows, options, threads > 0 ? threads : hardware_threads(), fd);
  } catch (...) {
    ::close(fd);
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw;
  }
  if (::close(fd) != 0) written = false;
  if (!written) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw Error(ErrorKind::IO, "could not write \"" + s.path + "\" (disk full?); the file is unchanged");
  }
  std::error_code error;
  std::filesystem::rename(temporary, target, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw Error(ErrorKind::IO, "could not write \"" + s.path + "\": " + error.message());
  }
  return status_result("wrote " + rows_text(rows) + " to " + s.path);
}

}  // namespace gpusql
