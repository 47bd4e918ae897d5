// Reading CSV files into tables. The dialect: RFC 4180 quoting (delimiters,
// doubled quotes and line breaks inside quotes), LF or CRLF line ends, an
// optional UTF-8 byte order mark, an optional trailing delimiter at the end
// of every line (as dbgen writes), blanks around numbers, dates and booleans,
// blank lines skipped. An unquoted field equal to the NULL marker (default:
// empty) is NULL; so is an empty or all-blank field in a column that is not
// VARCHAR. A quoted empty field "" in a VARCHAR column is the empty string.
//
// How a file is read (csv_reader.cpp):
//   1. the sniffer reads the first records: delimiter among , | ; tab and
//      whether there is a header, unless given; for a new table, the column
//      types over the first 20480 rows, widening INTEGER -> BIGINT -> DOUBLE
//      -> VARCHAR, YYYY-MM-DD dates as DATE;
//   2. the rest is cut into chunks at record boundaries (quote-aware: the
//      quote parity at each cut comes from a first parallel pass that counts
//      quotes and line ends), and every core parses chunks straight into the
//      typed host columns, validating each value against its column's type;
//   3. with a device, each finished run of chunks is copied to the GPU through
//      pinned staging buffers while the next chunks are parsed; VARCHAR codes
//      (which need the merged dictionary) and validity bits follow at the end.
//      A large load's mostly distinct VARCHAR columns are kept as plain
//      strings instead, with no dictionary, encoded when a query first reads
//      them (CsvLoadSpec::plain_strings_rows);
//   4. a load to the device alone (CsvLoadSpec::device_only) parses each
//      chunk into buffers of its own instead of whole host columns, and the
//      chunk goes over -- values, dictionary ids, plain strings -- and is
//      freed as soon as it and the chunks before it are parsed; the ids
//      become codes on the device once the dictionary is merged, and the
//      statistics come from the chunks as they go.
// Any fault throws gpusql::Error naming the file, the 1-based line and column,
// and the offending text; nothing half-read is ever returned.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/query_control.hpp"
#include "storage/device_memory.hpp"
#include "storage/table.hpp"

namespace gpusql {

// CsvOptions (the dialect and a progress callback) is public: gpusql.hpp.

// Rows the type inference looks at.
constexpr std::size_t CSV_SAMPLE_ROWS = 20480;

struct CsvLoadSpec {
  std::string table_name;
  CsvOptions options;
  // COPY: the table the file's rows are appended to, with its declared types
  // (no inference); the result is a new version of it.
  std::shared_ptr<const Table> append_to;
  // When set, the result also lives on this device (Table::device).
  DeviceContext* device = nullptr;
  // With `device` and its kernels().map_codes, a new table (or an append
  // to one that lives on the device alone) lives on the device alone
  // (Table::release_host_copy()'s form) and is never whole on the host:
  // each chunk's values go over as soon as it and the chunks before it are
  // parsed, and are freed then, so the host holds the chunks in flight; an
  // append's old rows are copied on the device. Statistics are taken from
  // the chunks as they go (an append's merged with the old table's).
  bool device_only = false;
  // Parsing threads; 0: one per core.
  std::size_t threads = 0;
  // Each phase's wall time to stderr (SET trace = true).
  bool timing = false;
  // Bytes per chunk; 0: chosen from the size and the threads (1-16 MiB, one
  // chunk below 2 MiB). Tests and the fuzz target set it small to cut tiny
  // inputs into many chunks.
  std::size_t chunk_bytes = 0;
  // A load of at least this many rows keeps its VARCHAR columns whose first
  // values are mostly distinct as plain strings (HostColumn::strings),
  // encoded when a query first reads them; 0: every VARCHAR column
  // (Settings::plain_strings_rows).
  std::size_t plain_strings_rows = Settings{}.plain_strings_rows;
  // When set, each chunk first checks for an interrupt and the host memory
  // limit (SET memory_limit).
  const QueryControl* control = nullptr;
};

// Reads the file at `path`. Error(IO) for a missing, unreadable, directory or
// empty file; Error(Conversion) for malformed content; Error(OutOfMemory)
// naming the bytes needed and free when the table does not fit on the device.
std::shared_ptr<Table> load_csv_file(const std::string& path, const CsvLoadSpec& spec);
// Several files as one table (or one append): the first file's dialect and
// header setting hold for all, their rows follow in the order given, and a
// fault in any of them loads nothing, its message naming that file.
std::shared_ptr<Table> load_csv_files(const std::vector<std::string>& paths, const CsvLoadSpec& spec);
// The same over text in memory; `source_name` stands in for the path in messages.
std::shared_ptr<Table> load_csv_text(std::string_view text, const std::string& source_name, const CsvLoadSpec& spec);
// Several texts in memory as load_csv_files reads files; each one's name
// stands in for its path in messages.
struct CsvSource {
  std::string_view text;
  std::string name;
};
std::shared_ptr<Table> load_csv_texts(const std::vector<CsvSource>& sources, const CsvLoadSpec& spec);

// Shorthands for a new host-only table with the options' dialect (detected
// where not given) and inferred types.
std::shared_ptr<Table> read_csv(const std::string& path, const std::string& table_name, const CsvOptions& options = {});
std::shared_ptr<Table> read_csv_text(std::string_view text, const std::string& source_name,
                                     const std::string& table_name, const CsvOptions& options = {});

}  // namespace gpusql
