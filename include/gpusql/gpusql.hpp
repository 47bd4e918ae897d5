// gpusql: a GPU-accelerated, in-memory, columnar SQL engine.
//
// The public API for embedding. This header is self-contained: it needs no
// CUDA header and no other gpusql header, so a program that uses the engine
// builds with a plain C++20 compiler and links against the `gpusql` library.
//
//   gpusql::Database db;                          // CUDA executor when a GPU is usable
//   db.load_csv("records", "records.csv");        // header row, types inferred
//   gpusql::Result r = db.query("SELECT COUNT(*), SUM(weight) FROM records");
//   int64_t n = r.get<int64_t>(0, 0);
//
// Every failure is reported by throwing gpusql::Error; the database, its
// tables and their data stay intact and usable after any error.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace gpusql {

// SQL column types. INTEGER is 32-bit, BIGINT 64-bit, DOUBLE IEEE binary64;
// VARCHAR values are stored as codes into a sorted dictionary. A DECIMAL of
// at most 18 digits is a 64-bit integer, a wider one (up to 38 digits) a
// 128-bit one. HugeInt names that 128-bit storage inside the engine: a
// result column's type is never HugeInt, a wide DECIMAL column says Decimal.
enum class Type { Boolean, Integer, BigInt, Real, Double, Decimal, Date, Varchar, HugeInt };

// The upper-case SQL spelling of a type ("INTEGER", "VARCHAR", ...).
std::string_view type_name(Type type);

// Which stage rejected the input; mirrors DuckDB's exception classes.
enum class ErrorKind {
  Parser,        // malformed SQL text
  Binder,        // unknown or ambiguous names, type errors
  Catalog,       // table exists / does not exist
  IO,            // a file could not be read
  Conversion,    // a CSV field or a literal does not fit its type
  Execution,     // a runtime failure such as integer overflow
  OutOfMemory,   // the GPU ran out of memory, or the host would pass memory_limit; nothing was changed
  Device,        // no usable GPU, or a CUDA call failed
  NotSupported,  // valid SQL that this version cannot run yet
  Invalid,       // a bad argument to the API itself
  Constraint,    // a NOT NULL, PRIMARY KEY or UNIQUE constraint refused a change
  Interrupt,     // Database::interrupt() stopped the statement; nothing was changed
};

// "Parser Error", "Binder Error", ... as printed before the message.
std::string_view error_kind_name(ErrorKind kind);

// The one exception type the engine throws. what() is the full text a user
// sees, e.g. for a syntax error:
//   Parser Error: syntax error at or near "SELEC"
//   LINE 1: SELEC 1
//           ^
class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, std::string message, std::optional<std::size_t> offset = std::nullopt);

  ErrorKind kind() const noexcept { return kind_; }
  // The message without the kind prefix or the caret lines.
  const std::string& message() const noexcept { return message_; }
  // Byte offset into the SQL text the error points at, when it has one.
  std::optional<std::size_t> offset() const noexcept { return offset_; }
  // 1-based line and column in the SQL text, when the error has an offset and
  // the text was known (errors thrown by Database::query always have it).
  std::optional<std::size_t> line() const noexcept { return line_; }
  std::optional<std::size_t> column() const noexcept { return column_; }

  // Returns a copy whose what() shows `sql`'s line with a caret under offset().
  Error with_source(std::string_view sql) const;

 private:
  ErrorKind kind_;
  std::string message_;
  std::optional<std::size_t> offset_;
  std::optional<std::size_t> line_;
  std::optional<std::size_t> column_;
  Error(ErrorKind kind, std::string message, std::optional<std::size_t> offset, std::string full,
        std::optional<std::size_t> line, std::optional<std::size_t> column);
};

// Which executor runs queries.
enum class ExecutorKind {
  Auto,  // CUDA when a device is usable, else host
  Host,  // plain C++ on the CPU: the reference
  Gpu,   // CUDA kernels; opening a Database with it fails if no GPU is usable
};

// Which GPU path filters rows by a predicate the fast kernels take. Auto is
// the product's choice; the others force one path, so that tests and
// benchmarks compare them on the same data in one process.
enum class FilterKernel {
  Auto,
  Cub,      // cub::DeviceSelect for every fast predicate (no bitmask filter)
  Ordered,  // the ordered kernel
};

// A database's settings: given in Options, changed from SQL with
// `SET name = value` (also `SET name TO value` and `PRAGMA name = value`)
// and back to the default with `RESET name`; the shell's `.show` lists
// them. Each name is its field's.
struct Settings {
  // Time marks of each statement's stages (parse, bind, plan, operators,
  // copies) and of each CSV load's phases, in microseconds, on stderr.
  bool trace = false;
  // Threads that parse a CSV file (read_csv, COPY, the shell's .import and
  // .load), that format one (COPY ... TO) and that run the host backend's
  // operators; 0: one per core.
  unsigned threads = 0;
  FilterKernel filter_kernel = FilterKernel::Auto;
  // Sorts of at most a few thousand rows in one launch (off: the radix sort).
  bool small_sort = true;
  // Nested-loop join conditions of a few comparisons compiled for the join
  // kernel (off: every condition through the general interpreter).
  bool pair_program = true;
  // A correlated subquery that runs once grouped by its keys is first
  // narrowed to the keys the query around it can have (magic sets) when its
  // largest table has at least this many rows: narrowing runs one query
  // more, which costs more than it saves below that.
  uint64_t narrow_subquery_rows = 10000000;
  // Rows per chunk a table scan pushes through a query's pipelines; 0: a
  // whole table in one chunk (a resident table's fastest path). Any value
  // gives the same answer, bit for bit.
  uint64_t chunk_rows = 0;
  // A CSV load of at least this many rows keeps a VARCHAR column whose
  // first values are mostly distinct (comments, names, addresses) as plain
  // strings, with no dictionary: sorting tens of millions of distinct
  // strings would cost more than the rest of the load, and a query may
  // never read them. The first statement that reads such a column encodes
  // it then. 0: every VARCHAR column of every load. Any value gives the
  // same answers.
  uint64_t plain_strings_rows = uint64_t(1) << 20;
  // On the GPU executor, a table the database makes (CREATE TABLE [AS],
  // COPY, INSERT, UPDATE, DELETE, Database::load_csv) lives on the device
  // alone (plain strings too): the host keeps its types, dictionaries and
  // statistics, and a load (an append too) is never whole on the host. On: the host also keeps a copy of every column (twice the memory;
  // the host executor's layout). No effect on the host executor.
  bool host_mirror = false;
  // The most host memory the process may hold, in bytes: a statement whose
  // next allocation would take the process's resident memory past it fails
  // with Error(OutOfMemory), and the database and its tables stay as they
  // were. 0: 80 % of the machine's memory (or of its cgroup's limit);
  // UINT64_MAX: no limit. SQL takes sizes as DuckDB does: '4GB', '512MiB',
  // 'none'.
  uint64_t memory_limit = 0;
};

struct Options {
  Options(ExecutorKind executor_kind = ExecutorKind::Auto, Settings initial = {})
      : executor(executor_kind), settings(initial) {}
  ExecutorKind executor;
  Settings settings;
};

// A DATE value: days since 1970-01-01 (negative before it), proleptic
// Gregorian calendar.
struct Date {
  int32_t days = 0;
  friend bool operator==(const Date&, const Date&) = default;
};

// A DECIMAL(p,s) value: (high * 2^64 + unscaled) / 10^scale, exactly.
// `high` is 0 whenever the unscaled value fits in int64 (always for p <=
// 18); otherwise `unscaled` holds its lower 64 bits as a signed number.
struct Decimal {
  int64_t unscaled = 0;
  uint8_t scale = 0;
  int64_t high = 0;
  // The nearest double (exact for |unscaled| < 2^53).
  double to_double() const;
  friend bool operator==(const Decimal&, const Decimal&) = default;
};

// "1998-12-01" (years outside 0000-9999 keep their sign and all digits).
std::string to_string(Date date);
// Exactly `scale` digits after the point: Decimal{-5, 2} is "-0.05".
std::string to_string(const Decimal& decimal);

// A NULL is std::monostate. INTEGER reads as int32_t, BIGINT as int64_t,
// DOUBLE as double, BOOLEAN as bool, VARCHAR as std::string, DATE as Date,
// DECIMAL as Decimal. REAL (32-bit float) reads as double: every float is
// exactly a double, and Result::text prints it in its shortest float form.
using Value = std::variant<std::monostate, bool, int32_t, int64_t, double, std::string, Date, Decimal>;

struct ResultData;  // internal

// How Database::load_csv reads a file. Absent fields are detected from the
// file's first lines: the delimiter among ',' '|' ';' and tab, and whether the
// first line is a header (it is when it holds names -- no numbers or dates --
// over a column of numbers or dates; in a file of text only, when it has no
// empty field). Column types are inferred over the first 20480 rows.
struct CsvOptions {
  std::optional<char> delimiter;
  std::optional<bool> header;
  char quote = '"';         // '\0': no quoting
  std::string null_marker;  // an unquoted field equal to it is NULL; "" : an empty field is NULL
  // Called on the loading thread about every 100 ms while a load runs, and
  // once more with bytes_done == bytes_total when parsing ends. Must not call
  // back into the Database.
  std::function<void(std::size_t bytes_done, std::size_t bytes_total)> progress;
};

// One table as `.tables` and SHOW TABLES list it.
struct TableInfo {
  std::string name;
  std::size_t rows = 0;
  std::size_t columns = 0;
  std::size_t device_bytes = 0;  // GPU memory it holds (0 on the host executor)
  std::size_t host_bytes = 0;    // host memory of its columns and dictionaries
};

// A materialized query result, held on the host. Cheap to copy (shared).
class Result {
 public:
  Result();
  explicit Result(std::shared_ptr<const ResultData> data);

  std::size_t column_count() const;
  std::size_t row_count() const;
  const std::string& column_name(std::size_t column) const;
  Type column_type(std::size_t column) const;

  bool is_null(std::size_t row, std::size_t column) const;
  Value value(std::size_t row, std::size_t column) const;
  // The value as T; throws Error(Invalid) if it is NULL or of another type.
  template <class T>
  T get(std::size_t row, std::size_t column) const {
    Value v = value(row, column);
    if (auto* p = std::get_if<T>(&v)) return *p;
    throw_bad_get(row, column);
  }
  // The value as a user sees it in the shell: NULL as "NULL", doubles in
  // their shortest round-trip form, strings unquoted.
  std::string text(std::size_t row, std::size_t column) const;

  // Statements that return no rows (a load) still return a Result, with a
  // one-line status message and no columns.
  const std::string& status() const;

  const ResultData& data() const { return *data_; }

 private:
  [[noreturn]] void throw_bad_get(std::size_t row, std::size_t column) const;
  std::shared_ptr<const ResultData> data_;
};

class Database {
 public:
  explicit Database(Options options = {});
  ~Database();
  Database(Database&&) noexcept;
  Database& operator=(Database&&) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Loads a CSV file with a header row into a new table `name`, inferring
  // column types. On any error nothing is created.
  void load_csv(std::string_view name, const std::string& path);
  // The same with the dialect given or partly given, and a progress callback.
  // Parses on all cores and, on the GPU executor, copies to the device while
  // parsing goes on. Throws Error(IO) for a missing file, a directory or an
  // empty file, Error(Conversion) naming file, line, column and text for a
  // malformed one, Error(OutOfMemory) naming the bytes needed and free when
  // the table does not fit on the device; on any error nothing is created.
  void load_csv(std::string_view name, const std::string& path, const CsvOptions& options);

  // Runs every statement in `sql` (separated by ';') and returns the result
  // of the last one.
  Result query(std::string_view sql);

  // Asks the statement running now (query() or load_csv() on another
  // thread) to stop: it throws Error(Interrupt) within about a second
  // (host loops check between blocks of rows, the GPU executor between
  // kernels), leaving every table as it was. Safe to call from a signal
  // handler or any thread; does nothing when no statement runs.
  void interrupt() noexcept;

  // The executor queries run on.
  ExecutorKind executor() const;
  // "gpu (NVIDIA H100 80GB HBM3)" or "host (no usable GPU: ...)".
  std::string executor_description() const;

  // Names of the tables, sorted.
  std::vector<std::string> table_names() const;
  // The tables with their sizes, sorted by name.
  std::vector<TableInfo> tables() const;

  struct Impl;  // internal
  Impl& impl();

 private:
  std::unique_ptr<Impl> impl_;
};

// Whether a CUDA device can run gpusql's kernels; when not, `why` says why.
bool gpu_available(std::string* why = nullptr);

}  // namespace gpusql
