// export_arrow (include/gpusql/arrow.hpp): real query results read back
// through the Arrow C data interface's structs alone -- format strings,
// buffers, offsets, validity bits, counts -- against hand-computed values and
// against Result::value, and the structs' release callbacks as the
// specification has them.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <dlfcn.h>

#include "engine/arrow_export.hpp"
#include "storage/result_data.hpp"
#include "gpusql/arrow.hpp"
#include "tests/differential/duckdb_oracle.hpp"
#include "tests/query_cases.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;
using namespace gpusql::test;

namespace {

// An exported result; what the test has not released is released at the end.
struct Exported {
  ArrowSchema schema{};
  ArrowArray array{};
  explicit Exported(const Result& result) { export_arrow(result, &schema, &array); }
  ~Exported() {
    if (array.release != nullptr) array.release(&array);
    if (schema.release != nullptr) schema.release(&schema);
  }
  Exported(const Exported&) = delete;
  Exported& operator=(const Exported&) = delete;

  const ArrowSchema& field(std::size_t column) const { return *schema.children[column]; }
  const ArrowArray& column(std::size_t column) const { return *array.children[column]; }
};

const uint8_t* bytes(const ArrowArray& array, int buffer) { return static_cast<const uint8_t*>(array.buffers[buffer]); }

bool bit(const uint8_t* bitmap, int64_t row) { return (bitmap[row / 8] >> (row % 8)) & 1; }

bool is_valid(const ArrowArray& array, int64_t row) {
  return array.buffers[0] == nullptr || bit(bytes(array, 0), row);
}

template <class T>
T fixed(const ArrowArray& array, int64_t row) {
  T value;
  std::memcpy(&value, bytes(array, 1) + row * sizeof(T), sizeof(T));
  return value;
}

// A "d:p,s" value: 16 bytes, little-endian two's complement.
__int128 decimal128(const ArrowArray& array, int64_t row) {
  uint64_t low = 0, high = 0;
  std::memcpy(&low, bytes(array, 1) + row * 16, 8);
  std::memcpy(&high, bytes(array, 1) + row * 16 + 8, 8);
  return static_cast<__int128>((static_cast<unsigned __int128>(high) << 64) | low);
}

// Decimal's documented meaning: high * 2^64 + unscaled, unscaled signed.
__int128 unscaled(const Decimal& d) {
  return static_cast<__int128>(d.high) * (static_cast<__int128>(1) << 64) + d.unscaled;
}

uint8_t decimal_scale(std::string_view format) {
  return static_cast<uint8_t>(std::stoi(std::string(format.substr(format.find(',') + 1))));
}

std::string string_at(const ArrowSchema& field, const ArrowArray& array, int64_t row) {
  int64_t begin, end;
  if (std::string_view(field.format) == "U") {
    begin = fixed<int64_t>(array, row);
    end = fixed<int64_t>(array, row + 1);
  } else {
    begin = fixed<int32_t>(array, row);
    end = fixed<int32_t>(array, row + 1);
  }
  return std::string(reinterpret_cast<const char*>(bytes(array, 2)) + begin, static_cast<std::size_t>(end - begin));
}

// One cell decoded from the structs alone, by the field's format string.
Value arrow_value(const ArrowSchema& field, const ArrowArray& array, int64_t row) {
  if (!is_valid(array, row)) return std::monostate{};
  const std::string_view format = field.format;
  if (format == "b") return bit(bytes(array, 1), row);
  if (format == "i") return fixed<int32_t>(array, row);
  if (format == "l") return fixed<int64_t>(array, row);
  if (format == "f") return static_cast<double>(fixed<float>(array, row));
  if (format == "g") return fixed<double>(array, row);
  if (format == "tdD") return Date{fixed<int32_t>(array, row)};
  if (format.starts_with("d:")) {
    const __int128 v = decimal128(array, row);
    const auto low = static_cast<int64_t>(static_cast<uint64_t>(v));
    return Decimal{low, decimal_scale(format), static_cast<int64_t>((v - low) >> 64)};
  }
  if (format == "u" || format == "U") return string_at(field, array, row);
  FAIL("unexpected format " << format);
  return std::monostate{};
}

// The structs' shape for `result`, and every cell equal to Result::value.
void check_reads_back(const Result& result, const Exported& e) {
  REQUIRE(std::string_view(e.schema.format) == "+s");
  REQUIRE(e.schema.n_children == static_cast<int64_t>(result.column_count()));
  REQUIRE(e.array.n_children == static_cast<int64_t>(result.column_count()));
  REQUIRE(e.array.length == static_cast<int64_t>(result.row_count()));
  CHECK(e.array.null_count == 0);
  CHECK(e.array.offset == 0);
  REQUIRE(e.array.n_buffers == 1);
  CHECK(e.array.buffers[0] == nullptr);
  for (std::size_t c = 0; c < result.column_count(); ++c) {
    const ArrowSchema& field = e.field(c);
    const ArrowArray& column = e.column(c);
    INFO("column " << c << " (" << field.format << ")");
    CHECK(std::string(field.name) == result.column_name(c));
    CHECK(field.flags == ARROW_FLAG_NULLABLE);
    CHECK(field.n_children == 0);
    CHECK(field.dictionary == nullptr);
    CHECK(column.n_children == 0);
    CHECK(column.dictionary == nullptr);
    CHECK(column.offset == 0);
    REQUIRE(column.length == static_cast<int64_t>(result.row_count()));
    int64_t nulls = 0;
    for (std::size_t row = 0; row < result.row_count(); ++row) {
      nulls += result.is_null(row, c);
      INFO("row " << row << ": " << result.text(row, c));
      CHECK(arrow_value(field, column, static_cast<int64_t>(row)) == result.value(row, c));
    }
    CHECK(column.null_count == nulls);
    CHECK((column.buffers[0] == nullptr) == (nulls == 0));
    for (int64_t b = 0; b < column.n_buffers; ++b)
      if (column.buffers[b] != nullptr) CHECK(reinterpret_cast<uintptr_t>(column.buffers[b]) % 64 == 0);
  }
}

// Ten rows of every type, NULLs in each column but k (so its bitmap is
// absent), row 8 and 9 in the bitmaps' second byte.
Database typed_database() {
  Database db(Options{ExecutorKind::Host});
  db.query(
      "CREATE TABLE t (k INTEGER, b BOOLEAN, i INTEGER, g BIGINT, r REAL, d DOUBLE, dt DATE, p DECIMAL(15,2), "
      "s VARCHAR)");
  db.query(
      "INSERT INTO t VALUES "
      "(0, true, 2147483647, 9223372036854775807, 1.5, 2.5, DATE '1998-12-01', 12.34, 'cherry'), "
      "(1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), "
      "(2, false, -2147483648, -9223372036854775808, -0.25, -0.125, DATE '1969-12-31', -0.05, ''), "
      "(3, true, 0, 0, 0, 0, DATE '1970-01-01', 0.00, 'apple'), "
      "(4, false, 7, 7, 7, 7, DATE '2000-02-29', 9999999999999.99, 'h\xc3\xa9llo'), "
      "(5, true, 5, 5, 5, 5, DATE '1900-01-01', -9999999999999.99, 'banana'), "
      "(6, false, -6, -6, -6, -6, DATE '1970-01-02', 0.01, 'cherry'), "
      "(7, true, NULL, 7, 7, 7, DATE '2000-01-01', 1.00, 'apple'), "
      "(8, NULL, 8, NULL, 8, 8, NULL, NULL, NULL), "
      "(9, true, 9, 9, NULL, 9, DATE '2000-01-02', NULL, 'z')");
  return db;
}

}  // namespace

TEST_CASE("arrow: every SQL type with NULLs reads back through the structs", "[arrow]") {
  Database db = typed_database();
  Result r = db.query("SELECT * FROM t ORDER BY k");
  REQUIRE(r.row_count() == 10);
  Exported e(r);
  check_reads_back(r, e);

  const std::vector<std::string> names = {"k", "b", "i", "g", "r", "d", "dt", "p", "s"};
  const std::vector<std::string> formats = {"i", "b", "i", "l", "f", "g", "tdD", "d:15,2", "u"};
  const std::vector<int64_t> null_counts = {0, 2, 2, 2, 2, 1, 2, 3, 2};
  const std::vector<int64_t> buffer_counts = {2, 2, 2, 2, 2, 2, 2, 2, 3};
  // Valid rows as bitmap bytes (LSB first; row 8 and 9 in the second byte).
  const std::vector<std::vector<uint8_t>> validity = {
      {}, {0xFD, 0x02}, {0x7D, 0x03}, {0xFD, 0x02}, {0xFD, 0x01}, {0xFD, 0x03}, {0xFD, 0x02}, {0xFD, 0x00},
      {0xFD, 0x02}};
  for (std::size_t c = 0; c < names.size(); ++c) {
    INFO("column " << names[c]);
    CHECK(std::string(e.field(c).name) == names[c]);
    CHECK(std::string(e.field(c).format) == formats[c]);
    CHECK(e.column(c).length == 10);
    CHECK(e.column(c).null_count == null_counts[c]);
    CHECK(e.column(c).n_buffers == buffer_counts[c]);
    if (validity[c].empty()) {
      CHECK(e.column(c).buffers[0] == nullptr);
    } else {
      REQUIRE(e.column(c).buffers[0] != nullptr);
      CHECK(bytes(e.column(c), 0)[0] == validity[c][0]);
      CHECK(bytes(e.column(c), 0)[1] == validity[c][1]);
    }
  }

  // INTEGER k: no NULLs, int32 values 0..9.
  for (int64_t row = 0; row < 10; ++row) CHECK(fixed<int32_t>(e.column(0), row) == row);
  // BOOLEAN: bits of the valid rows 0 2 3 4 5 6 7 9 are T F T F T F T T.
  CHECK((bytes(e.column(1), 1)[0] & 0xFD) == 0xA9);
  CHECK((bytes(e.column(1), 1)[1] & 0x02) == 0x02);
  // INTEGER and BIGINT at their extremes.
  CHECK(fixed<int32_t>(e.column(2), 0) == 2147483647);
  CHECK(fixed<int32_t>(e.column(2), 2) == -2147483647 - 1);
  CHECK(fixed<int32_t>(e.column(2), 6) == -6);
  CHECK(fixed<int64_t>(e.column(3), 0) == INT64_MAX);
  CHECK(fixed<int64_t>(e.column(3), 2) == INT64_MIN);
  CHECK(fixed<int64_t>(e.column(3), 9) == 9);
  // REAL as binary32, DOUBLE as binary64.
  CHECK(fixed<float>(e.column(4), 0) == 1.5f);
  CHECK(fixed<float>(e.column(4), 2) == -0.25f);
  CHECK(fixed<float>(e.column(4), 8) == 8.0f);
  CHECK(fixed<double>(e.column(5), 0) == 2.5);
  CHECK(fixed<double>(e.column(5), 2) == -0.125);
  CHECK(fixed<double>(e.column(5), 8) == 8.0);
  // DATE: days since 1970-01-01.
  CHECK(fixed<int32_t>(e.column(6), 0) == 10561);
  CHECK(fixed<int32_t>(e.column(6), 2) == -1);
  CHECK(fixed<int32_t>(e.column(6), 3) == 0);
  CHECK(fixed<int32_t>(e.column(6), 4) == 11016);
  CHECK(fixed<int32_t>(e.column(6), 5) == -25567);
  CHECK(fixed<int32_t>(e.column(6), 6) == 1);
  CHECK(fixed<int32_t>(e.column(6), 7) == 10957);
  CHECK(fixed<int32_t>(e.column(6), 9) == 10958);
  // DECIMAL(15,2), 64-bit in the engine, 128-bit in Arrow: negatives
  // sign-extended into the upper word.
  CHECK(decimal128(e.column(7), 0) == 1234);
  CHECK(decimal128(e.column(7), 2) == -5);
  CHECK(decimal128(e.column(7), 3) == 0);
  CHECK(decimal128(e.column(7), 4) == 999999999999999);
  CHECK(decimal128(e.column(7), 5) == -999999999999999);
  CHECK(decimal128(e.column(7), 6) == 1);
  CHECK(decimal128(e.column(7), 7) == 100);
  CHECK(fixed<int64_t>(e.column(7), 10) == -999999999999999);  // row 5's lower word
  CHECK(fixed<int64_t>(e.column(7), 11) == -1);                // and its upper word
  // VARCHAR: int32 offsets, NULLs and '' empty, é as its two UTF-8 bytes.
  const std::vector<int32_t> offsets = {0, 6, 6, 6, 11, 17, 23, 29, 34, 34, 35};
  for (std::size_t row = 0; row < offsets.size(); ++row) CHECK(fixed<int32_t>(e.column(8), row) == offsets[row]);
  CHECK(std::string(reinterpret_cast<const char*>(bytes(e.column(8), 2)), 35) ==
        "cherryappleh\xc3\xa9llo" "bananacherryapplez");
}

TEST_CASE("arrow: a dictionary-encoded VARCHAR column exports plain strings", "[arrow]") {
  TempDir dir;
  Database db(Options{ExecutorKind::Host});
  db.load_csv("fruit", dir.write("fruit.csv", "name,qty\ncherry,3\napple,1\n,7\ncherry,2\nbanana,5\napple,4\n"));
  Result r = db.query("SELECT name, qty FROM fruit");
  REQUIRE(r.row_count() == 6);
  // The engine holds the column as codes into its sorted dictionary.
  const HostColumn& stored = r.data().columns[0];
  REQUIRE(stored.dictionary != nullptr);
  CHECK(stored.dictionary->values.to_strings() == std::vector<std::string>{"apple", "banana", "cherry"});
  CHECK(stored.values<uint32_t>()[0] == 2);
  CHECK(stored.values<uint32_t>()[1] == 0);

  Exported e(r);
  check_reads_back(r, e);
  const ArrowArray& names = e.column(0);
  CHECK(std::string(e.field(0).format) == "u");
  CHECK(e.field(0).dictionary == nullptr);
  CHECK(names.dictionary == nullptr);
  CHECK(names.n_buffers == 3);
  CHECK(names.null_count == 1);
  CHECK(bytes(names, 0)[0] == 0x3B);  // rows 0 1 3 4 5 valid
  const std::vector<int32_t> offsets = {0, 6, 11, 11, 17, 23, 28};
  for (std::size_t row = 0; row < offsets.size(); ++row) CHECK(fixed<int32_t>(names, row) == offsets[row]);
  CHECK(std::string(reinterpret_cast<const char*>(bytes(names, 2)), 28) == "cherryapplecherrybananaapple");
  CHECK(string_at(e.field(0), names, 4) == "banana");
}

TEST_CASE("arrow: a DECIMAL SUM past 64 bits exports its 128-bit value", "[arrow]") {
  Database db(Options{ExecutorKind::Host});
  db.query("CREATE TABLE w (g INTEGER, x DECIMAL(18,2))");
  // 1000 rows of the largest DECIMAL(18,2) in group 1, 500 of its negative in group 2.
  std::string insert = "INSERT INTO w VALUES (3, 0.01), (3, 0.02), (3, NULL), (4, NULL)";
  for (int i = 0; i < 1000; ++i) insert += ", (1, 9999999999999999.99)";
  for (int i = 0; i < 500; ++i) insert += ", (2, -9999999999999999.99)";
  db.query(insert);
  Result r = db.query("SELECT g, SUM(x) AS total FROM w GROUP BY g ORDER BY g");
  REQUIRE(r.row_count() == 4);
  REQUIRE(r.column_type(1) == Type::Decimal);
  REQUIRE(r.data().columns[1].type.is_wide_decimal());  // stored in 128 bits

  Exported e(r);
  check_reads_back(r, e);
  CHECK(std::string(e.field(1).name) == "total");
  CHECK(std::string(e.field(1).format) == "d:38,2");
  const ArrowArray& total = e.column(1);
  CHECK(total.null_count == 1);
  CHECK(bytes(total, 0)[0] == 0x07);
  const __int128 largest = 999999999999999999;  // 9999999999999999.99 unscaled
  CHECK(decimal128(total, 0) == largest * 1000);
  CHECK(decimal128(total, 1) == -largest * 500);
  CHECK(decimal128(total, 2) == 3);
  // Result::value says the same.
  CHECK(unscaled(r.get<Decimal>(0, 1)) == largest * 1000);
  CHECK(unscaled(r.get<Decimal>(1, 1)) == -largest * 500);
  // The words themselves: 999999999999999999000 = 0x36'35c9adc5de9ffc18,
  // -499999999999999999500 = 0xffffffffffffffe4'e51b291d10b001f4.
  CHECK(fixed<uint64_t>(total, 0) == 0x35c9adc5de9ffc18u);
  CHECK(fixed<uint64_t>(total, 1) == 0x36u);
  CHECK(fixed<uint64_t>(total, 2) == 0xe51b291d10b001f4u);
  CHECK(fixed<uint64_t>(total, 3) == 0xffffffffffffffe4u);
  CHECK(fixed<uint64_t>(total, 4) == 3u);
  CHECK(fixed<uint64_t>(total, 5) == 0u);
}

TEST_CASE("arrow: an empty result and a status-only result", "[arrow]") {
  Database db = typed_database();
  SECTION("no rows: every column, of length 0") {
    Result r = db.query("SELECT * FROM t WHERE k < 0");
    REQUIRE(r.row_count() == 0);
    REQUIRE(r.column_count() == 9);
    Exported e(r);
    check_reads_back(r, e);
    CHECK(e.array.length == 0);
    for (std::size_t c = 0; c < 9; ++c) {
      CHECK(e.column(c).length == 0);
      CHECK(e.column(c).null_count == 0);
      CHECK(e.column(c).buffers[0] == nullptr);
    }
    CHECK(std::string(e.field(8).format) == "u");
    CHECK(fixed<int32_t>(e.column(8), 0) == 0);  // the one offset of no strings
  }
  SECTION("a statement's status: a struct of no children") {
    Result r = db.query("INSERT INTO t (k) VALUES (10)");
    REQUIRE(r.column_count() == 0);
    CHECK(r.status() == "inserted 1 row into t");
    Exported e(r);
    CHECK(std::string(e.schema.format) == "+s");
    CHECK(e.schema.n_children == 0);
    CHECK(e.schema.children == nullptr);
    CHECK(e.schema.flags == 0);
    CHECK(e.array.length == 0);
    CHECK(e.array.null_count == 0);
    CHECK(e.array.n_children == 0);
    CHECK(e.array.children == nullptr);
    CHECK(e.array.n_buffers == 1);
    CHECK(e.array.buffers[0] == nullptr);
  }
}

TEST_CASE("arrow: every query case reads back the same as Result::value", "[arrow]") {
  Database db(Options{ExecutorKind::Host});
  for (const auto& t : sample_tables()) db.load_csv(t, sample(t));
  for (const auto& c : query_cases()) {
    INFO("query: " << c.sql);
    Result r = db.query(c.sql);
    Exported e(r);
    check_reads_back(r, e);
  }
}

TEST_CASE("arrow: VARCHAR past the 32-bit offset limit takes 64-bit offsets", "[arrow]") {
  Database db = typed_database();
  Result r = db.query("SELECT s FROM t ORDER BY k");
  const std::size_t total = 35;  // the column's string bytes
  for (const std::size_t limit : {total, total - 1}) {
    INFO("limit " << limit);
    ArrowSchema schema{};
    ArrowArray array{};
    detail::export_arrow(r, &schema, &array, limit);
    const ArrowSchema& field = *schema.children[0];
    const ArrowArray& column = *array.children[0];
    CHECK(std::string(field.format) == (limit == total ? "u" : "U"));
    for (std::size_t row = 0; row < 10; ++row)
      CHECK(arrow_value(field, column, static_cast<int64_t>(row)) == r.value(row, 0));
    const int64_t last = limit == total ? fixed<int32_t>(column, 10) : fixed<int64_t>(column, 10);
    CHECK(last == 35);
    if (limit != total) CHECK(fixed<int64_t>(column, 5) == 17);
    array.release(&array);
    schema.release(&schema);
  }
  CHECK(detail::kMaxArrowStringBytes == 2147483647u);
}

TEST_CASE("arrow: release frees parents and children; a moved child lives on its own", "[arrow]") {
  Database db = typed_database();
  const std::size_t before = detail::live_arrow_structs();

  SECTION("releasing the parents frees every child, and marks them released") {
    ArrowSchema schema{};
    ArrowArray array{};
    export_arrow(db.query("SELECT k, s, p FROM t ORDER BY k"), &schema, &array);
    CHECK(detail::live_arrow_structs() == before + 8);  // 1 + 3 schemas, 1 + 3 arrays
    array.release(&array);
    CHECK(array.release == nullptr);
    CHECK(detail::live_arrow_structs() == before + 4);
    schema.release(&schema);
    CHECK(schema.release == nullptr);
    CHECK(detail::live_arrow_structs() == before);
  }

  SECTION("a child moved out is used and released after its parents") {
    ArrowSchema schema{};
    ArrowArray array{};
    {
      // The Result and the database's table are gone before the child is read.
      Database scratch = typed_database();
      export_arrow(scratch.query("SELECT k, s, p FROM t ORDER BY k"), &schema, &array);
    }
    // Moving, as the specification's "Moving child arrays" has it: copy the
    // struct, mark the original released.
    ArrowSchema field = *schema.children[1];
    schema.children[1]->release = nullptr;
    ArrowArray strings = *array.children[1];
    array.children[1]->release = nullptr;
    array.release(&array);
    schema.release(&schema);
    CHECK(detail::live_arrow_structs() == before + 2);

    CHECK(std::string(field.name) == "s");
    CHECK(std::string(field.format) == "u");
    REQUIRE(strings.length == 10);
    CHECK(strings.null_count == 2);
    CHECK(string_at(field, strings, 0) == "cherry");
    CHECK(string_at(field, strings, 4) == "h\xc3\xa9llo");
    CHECK(string_at(field, strings, 9) == "z");
    CHECK(!is_valid(strings, 8));
    strings.release(&strings);
    CHECK(strings.release == nullptr);
    field.release(&field);
    CHECK(field.release == nullptr);
    CHECK(detail::live_arrow_structs() == before);
  }

  SECTION("a parent struct moved elsewhere releases from its new place") {
    Exported e(db.query("SELECT k FROM t"));
    ArrowArray moved = e.array;
    e.array.release = nullptr;
    CHECK(fixed<int32_t>(*moved.children[0], 9) == 9);
    moved.release(&moved);
    CHECK(moved.release == nullptr);
    CHECK(detail::live_arrow_structs() == before + 2);  // e's schema and its child
  }
  CHECK(detail::live_arrow_structs() == before);
}

TEST_CASE("arrow: null struct pointers are refused and nothing is exported", "[arrow]") {
  Database db = typed_database();
  Result r = db.query("SELECT k FROM t");
  const std::size_t before = detail::live_arrow_structs();
  ArrowSchema schema{};
  ArrowArray array{};
  CHECK_THROWS_AS(export_arrow(r, nullptr, &array), Error);
  CHECK_THROWS_AS(export_arrow(r, &schema, nullptr), Error);
  CHECK(array.release == nullptr);
  CHECK(schema.release == nullptr);
  CHECK(detail::live_arrow_structs() == before);
  try {
    export_arrow(r, nullptr, nullptr);
    FAIL("export_arrow took null pointers");
  } catch (const Error& error) {
    CHECK(error.kind() == ErrorKind::Invalid);
  }
}

namespace {

namespace ddb = gpusql::test::diff::duckdb_c;

// DuckDB as an Arrow consumer that knows nothing of gpusql: its C API scans
// a caller's ArrowSchema and ArrowArray as a view without taking them over
// (the caller releases them after), loaded from the differential tests'
// libduckdb.so.
struct DuckdbArrow {
  using ArrayScan = ddb::duckdb_state (*)(ddb::duckdb_connection, const char*, void* schema, void* array,
                                          void** stream);
  using DestroyStream = void (*)(void** stream);

  const ddb::Api* api = nullptr;
  ArrayScan array_scan = nullptr;
  DestroyStream destroy_stream = nullptr;
  ddb::duckdb_database db = nullptr;
  ddb::duckdb_connection con = nullptr;
  std::string why;

  DuckdbArrow() {
    const std::string path = gpusql::test::diff::duckdb_library_path();
    api = ddb::load(path, &why);
    if (api == nullptr) return;
    // Already loaded by load(); this only looks up two more symbols.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    array_scan = reinterpret_cast<ArrayScan>(dlsym(handle, "duckdb_arrow_array_scan"));
    destroy_stream = reinterpret_cast<DestroyStream>(dlsym(handle, "duckdb_destroy_arrow_stream"));
    if (array_scan == nullptr || destroy_stream == nullptr || api->open(nullptr, &db) != 0) {
      why = "no Arrow scan in " + path;
      api = nullptr;
      return;
    }
    REQUIRE(api->connect(db, &con) == 0);
    exec("SET threads = 1");  // the rows keep their order through CREATE TABLE AS
  }
  ~DuckdbArrow() {
    if (api == nullptr) return;
    api->disconnect(&con);
    api->close(&db);
  }

  // Runs `sql`, hands each cell to `cell` (row, column, text or nullptr for
  // NULL, the value as a double), returns the row count.
  using CellFn = std::function<void(std::size_t, std::size_t, const char*, double)>;
  std::size_t query(const std::string& sql, const CellFn& cell) {
    ddb::duckdb_result result{};
    const bool ok = api->query(con, sql.c_str(), &result) == 0;
    INFO(sql << ": " << (ok ? "" : api->result_error(&result)));
    REQUIRE(ok);
    const std::size_t rows = api->row_count(&result), columns = api->column_count(&result);
    for (std::size_t row = 0; row < rows; ++row)
      for (std::size_t c = 0; c < columns; ++c) {
        if (api->value_is_null(&result, c, row)) {
          cell(row, c, nullptr, 0);
          continue;
        }
        char* text = api->value_varchar(&result, c, row);
        cell(row, c, text, api->value_double(&result, c, row));
        api->free(text);
      }
    api->destroy_result(&result);
    return rows;
  }
  void exec(const std::string& sql) {
    query(sql, [](std::size_t, std::size_t, const char*, double) {});
  }

  // The structs scanned into table `imported`; they stay the caller's.
  void import(ArrowSchema& schema, ArrowArray& array) {
    void* stream = nullptr;
    REQUIRE(array_scan(con, "arrow_view", &schema, &array, &stream) == 0);
    exec("CREATE OR REPLACE TABLE imported AS SELECT * FROM arrow_view");
    destroy_stream(&stream);
    exec("DROP VIEW arrow_view");
  }
};

// Result's cell as DuckDB writes it as text; REAL and DOUBLE compare as numbers.
void check_cell(const Result& r, std::size_t row, std::size_t column, const char* text, double number) {
  INFO("row " << row << ", column " << column << ": gpusql " << r.text(row, column) << ", DuckDB "
              << (text ? text : "NULL"));
  const Value v = r.value(row, column);
  if (std::holds_alternative<std::monostate>(v)) {
    CHECK(text == nullptr);
    return;
  }
  REQUIRE(text != nullptr);
  if (auto* b = std::get_if<bool>(&v)) CHECK(std::string(text) == (*b ? "true" : "false"));
  else if (auto* i = std::get_if<int32_t>(&v)) CHECK(std::string(text) == std::to_string(*i));
  else if (auto* g = std::get_if<int64_t>(&v)) CHECK(std::string(text) == std::to_string(*g));
  else if (auto* d = std::get_if<double>(&v)) CHECK(number == *d);
  else if (auto* s = std::get_if<std::string>(&v)) CHECK(std::string(text) == *s);
  else if (auto* date = std::get_if<Date>(&v)) CHECK(std::string(text) == to_string(*date));
  else CHECK(std::string(text) == to_string(std::get<Decimal>(v)));
}

// `r` exported (with `max_string_bytes`), imported by DuckDB, and read back
// there: the column names and types DuckDB sees, then every cell.
void check_duckdb_reads(DuckdbArrow& duck, const Result& r, const std::vector<std::string>& types,
                        std::size_t max_string_bytes = detail::kMaxArrowStringBytes) {
  ArrowSchema schema{};
  ArrowArray array{};
  detail::export_arrow(r, &schema, &array, max_string_bytes);
  duck.import(schema, array);
  // DuckDB borrowed them: they are whole, and released here as usual.
  REQUIRE(schema.release != nullptr);
  REQUIRE(array.release != nullptr);
  for (int64_t c = 0; c < schema.n_children; ++c) CHECK(schema.children[c]->release != nullptr);
  array.release(&array);
  schema.release(&schema);

  std::vector<std::string> described(r.column_count() * 2);
  duck.query("SELECT column_name, column_type FROM (DESCRIBE imported)",
             [&](std::size_t row, std::size_t c, const char* text, double) { described[row * 2 + c] = text; });
  for (std::size_t c = 0; c < r.column_count(); ++c) {
    CHECK(described[c * 2] == r.column_name(c));
    CHECK(described[c * 2 + 1] == types[c]);
  }
  const std::size_t rows = duck.query("SELECT * FROM imported", [&](std::size_t row, std::size_t c, const char* text,
                                                                    double number) {
    check_cell(r, row, c, text, number);
  });
  CHECK(rows == r.row_count());
}

}  // namespace

TEST_CASE("arrow: DuckDB imports the structs and reads the same values", "[arrow][duckdb]") {
  DuckdbArrow duck;
  if (duck.api == nullptr) {
    WARN("DuckDB not loaded (" << duck.why << "): the Arrow import by DuckDB is skipped");
    return;
  }
  const std::size_t before = detail::live_arrow_structs();
  Database db = typed_database();
  const Result every_type = db.query("SELECT * FROM t ORDER BY k");
  const std::vector<std::string> types = {"INTEGER", "BOOLEAN", "INTEGER", "BIGINT",       "FLOAT",
                                          "DOUBLE",  "DATE",    "DECIMAL(15,2)", "VARCHAR"};
  check_duckdb_reads(duck, every_type, types);
  // The same strings with 64-bit offsets ("U").
  check_duckdb_reads(duck, every_type, types, 34);

  db.query("CREATE TABLE w (g INTEGER, x DECIMAL(18,2))");
  std::string insert = "INSERT INTO w VALUES (3, 0.01), (3, -0.02), (4, NULL)";
  for (int i = 0; i < 1000; ++i) insert += ", (1, 9999999999999999.99)";
  for (int i = 0; i < 500; ++i) insert += ", (2, -9999999999999999.99)";
  db.query(insert);
  check_duckdb_reads(duck, db.query("SELECT g, SUM(x) AS total FROM w GROUP BY g ORDER BY g"),
                     {"INTEGER", "DECIMAL(38,2)"});
  check_duckdb_reads(duck, db.query("SELECT * FROM t WHERE k < 0"), types);
  CHECK(detail::live_arrow_structs() == before);
}
