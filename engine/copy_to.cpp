#include "engine/copy_to.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <future>
#include <mutex>
#include <string_view>
#include <system_error>

#include "engine/catalog_statements.hpp"
#include "storage/device_table.hpp"
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
  // The bytes that make a field need quotes: the delimiter, '"', '\n' and
  // '\r' (one look-up per byte, one pass over the field).
  std::array<bool, 256> special{};

  void mark_special() {
    special = {};
    for (char c : {delimiter, '"', '\n', '\r'}) special[static_cast<unsigned char>(c)] = true;
  }
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
  o.mark_special();
  return o;
}

void append_field(std::string& line, std::string_view text, const CsvWriteOptions& o) {
  const bool quote = text.empty() ? o.null_text.empty()
                                  : text == o.null_text || std::any_of(text.begin(), text.end(), [&](char c) {
                                      return o.special[static_cast<unsigned char>(c)];
                                    });
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

// How one column's non-NULL values become fields. A VARCHAR column with no
// more dictionary entries than rows has each entry's field made once
// (quoting checked once per distinct string); other values, and plain
// strings, are formatted where they are written.
struct ColumnFields {
  std::vector<std::string> entries;
  // A number's, date's or boolean's text holds only digits, letters and
  // "+-.:() ": it needs quoting only where the delimiter is one of those or
  // a NULL text is written.
  bool plain_values = false;

  ColumnFields(DataType type, const std::shared_ptr<const Dictionary>& dictionary, std::size_t rows,
               const CsvWriteOptions& o) {
    const char d = o.delimiter;
    plain_values = o.null_text.empty() && !std::isalnum(static_cast<unsigned char>(d)) &&
                   std::string_view("+-.:() ").find(d) == std::string_view::npos;
    if (type.id != Type::Varchar || !dictionary || dictionary->size() > rows) return;
    const StringPool& values = dictionary->values;
    entries.resize(values.size());
    parallel_ranges(values.size(), 1 << 14, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) append_field(entries[i], values[i], o);
    });
  }

  // Row `row` of column `c` (whose dictionary, if any, is the one above).
  void append(std::string& line, const HostColumn& c, std::size_t row, const CsvWriteOptions& o) const {
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

// A column's values for some of the rows written: `column`'s row 0 is row
// `first_row` of the output.
struct ColumnRows {
  const HostColumn* column = nullptr;
  std::size_t first_row = 0;
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

// CSV text into file `fd` from `offset` on, for rows [begin, end) of
// `columns`: blocks of rows formatted on `threads` threads, each written by
// the thread that formatted it, at its offset, once the blocks before it
// are formatted (their sizes known): formatting and writing both run on
// every thread, and each thread holds one block's text at a time. Returns
// whether every write succeeded; `offset` moves past what was written.
bool write_rows(const std::vector<ColumnRows>& columns, const std::vector<ColumnFields>& fields, std::size_t begin,
                std::size_t end, const CsvWriteOptions& o, std::size_t threads, int fd, std::size_t& offset) {
  constexpr std::size_t kBlockRows = 1 << 14;
  const std::size_t blocks = (end - begin + kBlockRows - 1) / kBlockRows;
  std::mutex mutex;
  std::condition_variable sized;
  std::size_t sized_blocks = 0;  // blocks whose sizes are known, in order; `offset` is where the next starts
  bool failed = false;
  auto fail = [&] {
    std::lock_guard lock(mutex);
    failed = true;
    sized.notify_all();
  };
  // One buffer per worker, kept from block to block: a block's text is
  // about a megabyte, and a new string per block grows by copies and maps
  // fresh pages each time. A block is formatted into a string of its own
  // thread's stack (the buffer moved in and back out): written in place in
  // `buffers`, the string's length, changed at every append, would share a
  // cache line with a neighbour's, and the threads would fight over it.
  std::vector<std::string> buffers(std::max<std::size_t>(threads, 1));
  parallel_for_workers(blocks, threads, [&](std::size_t block, std::size_t worker) {
    std::string text = std::move(buffers[worker]);
    text.clear();
    try {
      const std::size_t first = begin + block * kBlockRows, last = std::min(end, first + kBlockRows);
      for (std::size_t r = first; r < last; ++r) {
        for (std::size_t c = 0; c < fields.size(); ++c) {
          if (c) text += o.delimiter;
          fields[c].append(text, *columns[c].column, r - columns[c].first_row, o);
        }
        text += '\n';
      }
    } catch (...) {
      fail();
      throw;
    }
    std::size_t at = 0;
    {
      std::unique_lock lock(mutex);
      sized.wait(lock, [&] { return failed || sized_blocks == block; });
      if (failed) return;
      at = offset;
      offset += text.size();
      ++sized_blocks;
      sized.notify_all();
    }
    if (!write_at(fd, text, static_cast<off_t>(at))) fail();
    buffers[worker] = std::move(text);
  });
  return !failed;
}

// Rows of a table fetched from the device at a time (a multiple of 32, as
// download_rows() asks): the next slice crosses while this one is written,
// and the host holds two slices, not the table.
constexpr std::size_t kSliceRows = std::size_t{1} << 22;

// Table `table`'s rows into `fd` after the header: the columns the host
// holds read as they are, the others fetched a slice at a time, one slice
// ahead on a thread of its own.
bool write_table(const Table& table, const CsvWriteOptions& o, std::size_t threads, int fd, std::size_t& offset) {
  const std::size_t width = table.columns.size(), rows = table.rows;
  std::vector<ColumnFields> fields;
  for (std::size_t c = 0; c < width; ++c) fields.emplace_back(table.host[c].type, table.host[c].dictionary, rows, o);
  std::vector<std::size_t> fetched;  // the columns read from the device
  for (std::size_t c = 0; c < width; ++c)
    if (table.reads_from_device(c)) fetched.push_back(c);
  const std::size_t slice_rows = fetched.empty() ? std::max<std::size_t>(rows, 1) : kSliceRows;
  auto fetch = [&](std::size_t begin) {
    std::vector<HostColumn> slice(width);
    for (std::size_t c : fetched) {
      slice[c] = download_rows(table.device->columns[c], begin, std::min(rows, begin + slice_rows));
      slice[c].dictionary = table.host[c].dictionary;
    }
    return slice;
  };
  std::future<std::vector<HostColumn>> next;
  if (!fetched.empty() && rows) next = std::async(std::launch::async, fetch, 0);
  for (std::size_t begin = 0; begin < rows; begin += slice_rows) {
    const std::size_t end = std::min(rows, begin + slice_rows);
    std::vector<HostColumn> slice = fetched.empty() ? std::vector<HostColumn>() : next.get();
    if (!fetched.empty() && end < rows) next = std::async(std::launch::async, fetch, end);
    std::vector<ColumnRows> columns(width);
    for (std::size_t c = 0; c < width; ++c)
      columns[c] = table.reads_from_device(c) ? ColumnRows{&slice[c], begin} : ColumnRows{&table.host[c], 0};
    if (!write_rows(columns, fields, begin, end, o, threads, fd, offset)) return false;
  }
  return true;
}

bool write_header(const std::vector<std::string>& names, const CsvWriteOptions& o, int fd, std::size_t& offset) {
  if (!o.header) return true;
  std::string header;
  for (std::size_t c = 0; c < names.size(); ++c) {
    if (c) header += o.delimiter;
    append_field(header, names[c], o);
  }
  header += '\n';
  offset = header.size();
  return write_at(fd, header, 0);
}

}  // namespace

std::shared_ptr<ResultData> copy_to(const ast::CopyStatement& s, Database::Impl& database, std::string_view sql) {
  const CsvWriteOptions options = write_options(s);
  // What is written: a table's own columns (no query, no copy of the table
  // on the host), or a query's result (a view's too).
  std::shared_ptr<const Table> table = s.query ? nullptr : database.catalog.find(s.table);
  std::shared_ptr<ResultData> data;
  std::vector<std::string> names;
  std::size_t rows = 0;
  if (table) {
    for (const auto& column : table->columns) names.push_back(column.name);
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
    rows = data->rows;
  }
  const std::filesystem::path target(s.path);
  std::filesystem::path temporary = target;
  temporary += ".gpusql-partial";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw Error(ErrorKind::IO, "could not open \"" + s.path + "\" for writing");
  bool written = false;
  try {
    const std::size_t threads = database.settings.threads > 0 ? database.settings.threads : hardware_threads();
    std::size_t offset = 0;
    written = write_header(names, options, fd, offset);
    if (written && table) {
      written = write_table(*table, options, threads, fd, offset);
    } else if (written) {
      std::vector<ColumnRows> columns;
      std::vector<ColumnFields> fields;
      for (const HostColumn& c : data->columns) {
        columns.push_back({&c, 0});
        fields.emplace_back(c.type, c.dictionary, rows, options);
      }
      written = write_rows(columns, fields, 0, rows, options, threads, fd, offset);
    }
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
