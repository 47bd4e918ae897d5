// Storage below SQL: value parsing and printing, column operations (append
// with dictionary merge, casts), and the parallel CSV reader agreeing with
// the sequential one however the text is cut.
#include <catch2/catch.hpp>

#include <random>

#include "storage/result_data.hpp"
#include "storage/catalog.hpp"
#include "storage/column_ops.hpp"
#include "storage/column_statistics.hpp"
#include "storage/csv_reader.hpp"
#include "storage/value_text.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;

namespace {

int64_t decimal(std::string_view text, uint8_t precision, uint8_t scale, ParseResult expected = ParseResult::Ok) {
  int64_t out = 0;
  CHECK(parse_decimal(text, precision, scale, out) == expected);
  return out;
}

// Every value of a table as text, NULLs included, and the dictionary invariant checked.
std::string dump(const Table& t) {
  std::string out = std::to_string(t.rows) + " rows\n";
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    const HostColumn& h = t.host[c];
    out += t.columns[c].name + " " + t.columns[c].type.to_string() + ":";
    REQUIRE(h.size == t.rows);
    if (h.type.id == Type::Varchar) {
      REQUIRE(h.dictionary);
      for (std::size_t k = 1; k < h.dictionary->size(); ++k)
        REQUIRE(h.dictionary->values[k - 1] < h.dictionary->values[k]);
    }
    if (h.has_nulls()) REQUIRE(h.null_count() > 0);  // absent when no NULL
    for (std::size_t r = 0; r < h.size; ++r) {
      out += " ";
      if (!h.is_valid(r)) out += "NULL";
      else if (h.type.id == Type::Varchar) out += "'" + std::string(h.dictionary->values[h.values<uint32_t>()[r]]) + "'";
      else out += format_fixed(h.type, h.bytes.data(), r);
    }
    out += "\n";
  }
  return out;
}

// `count` records of id,name,amount,day (each whole, its line end included)
// with quotes, embedded line breaks, NULLs, CRLF and now and then a blank
// line after it.
std::vector<std::string> awkward_records(std::mt19937& rng, int count) {
  std::vector<std::string> records;
  for (int i = 0; i < count; ++i) {
    std::string r = std::to_string(i) + ",";
    switch (rng() % 5) {
      case 0: r += "\"line\nbreak " + std::to_string(rng() % 50) + "\""; break;
      case 1: r += "\"say \"\"" + std::to_string(rng() % 50) + "\"\"\""; break;
      case 2: break;
      default: r += "w" + std::to_string(rng() % 200); break;
    }
    r += "," + (rng() % 7 ? std::to_string(rng() % 100000) + "." + std::to_string(rng() % 100) : "");
    r += "," + (rng() % 9 ? "2001-0" + std::to_string(1 + rng() % 9) + "-1" + std::to_string(rng() % 10) : "");
    r += rng() % 3 ? "\n" : "\r\n";
    if (rng() % 40 == 0) r += "\n";
    records.push_back(r);
  }
  return records;
}

std::string outcome(std::string_view text, CsvLoadSpec spec) {
  try {
    return dump(*load_csv_text(text, "mem.csv", spec));
  } catch (const Error& e) {
    return std::string("error: ") + e.what();
  }
}

}  // namespace

TEST_CASE("integers: signs, blanks, range", "[storage]") {
  int64_t v = 0;
  CHECK(parse_integer(" -42 ", v) == ParseResult::Ok);
  CHECK(v == -42);
  CHECK(parse_integer("+7", v) == ParseResult::Ok);
  CHECK(v == 7);
  CHECK(parse_integer("9223372036854775807", v) == ParseResult::Ok);
  CHECK(parse_integer("-9223372036854775808", v) == ParseResult::Ok);
  CHECK(v == INT64_MIN);
  CHECK(parse_integer("9223372036854775808", v) == ParseResult::OutOfRange);
  CHECK(parse_integer("99999999999999999999999", v) == ParseResult::OutOfRange);
  for (const char* bad : {"", " ", "-", "+", "1.0", "1e3", "0x10", "1 2", "abc"})
    CHECK(parse_integer(bad, v) == ParseResult::Invalid);
}

TEST_CASE("doubles and reals: notation, range, no inf or nan", "[storage]") {
  double d = 0;
  CHECK(parse_double(" 2.5 ", d) == ParseResult::Ok);
  CHECK(d == 2.5);
  CHECK(parse_double("+1e3", d) == ParseResult::Ok);
  CHECK(d == 1000);
  CHECK(parse_double("-.5", d) == ParseResult::Ok);
  CHECK(d == -0.5);
  CHECK(parse_double("1.", d) == ParseResult::Ok);
  CHECK(parse_double("1e999", d) == ParseResult::OutOfRange);
  CHECK(parse_double("1e-999", d) == ParseResult::Ok);  // underflows to zero
  CHECK(d == 0);
  for (const char* bad : {"inf", "nan", "0x1p3", "1e", "e5", ".", "1,5", "--1"})
    CHECK(parse_double(bad, d) == ParseResult::Invalid);
  float f = 0;
  CHECK(parse_real("0.1", f) == ParseResult::Ok);
  CHECK(f == 0.1f);
  CHECK(parse_real("1e39", f) == ParseResult::OutOfRange);
}

TEST_CASE("doubles and reals print as DuckDB and sqlite3 print them", "[storage]") {
  // The shortest digits that read back; plain notation with a decimal for
  // exponents -4 to 15, scientific outside (DuckDB 1.5's text of each).
  auto text = [](double v) { return format_fixed(DataType::double_(), &v, 0); };
  CHECK(text(3.0) == "3.0");
  CHECK(text(-0.0) == "-0.0");
  CHECK(text(0.0005) == "0.0005");
  CHECK(text(0.0001) == "0.0001");
  CHECK(text(1e-5) == "1e-05");
  CHECK(text(0.1 + 0.2) == "0.30000000000000004");
  CHECK(text(1e15) == "1000000000000000.0");
  CHECK(text(1e16) == "1e+16");
  CHECK(text(123456789012345678.0) == "1.2345678901234568e+17");
  CHECK(text(-2.5e-10) == "-2.5e-10");
  CHECK(format_double(25.500975103007097) == "25.500975103007097");
  const float f = 0.1f;
  CHECK(format_fixed(DataType::real(), &f, 0) == "0.1");
}

TEST_CASE("decimals: exact, rounded half away from zero, range by precision", "[storage]") {
  CHECK(decimal("12.34", 15, 2) == 1234);
  CHECK(decimal("-0.05", 15, 2) == -5);
  CHECK(decimal("7", 15, 2) == 700);
  CHECK(decimal(" 1.005 ", 15, 2) == 101);
  CHECK(decimal("-1.005", 15, 2) == -101);
  CHECK(decimal("1.004999", 15, 2) == 100);
  CHECK(decimal("1.5e2", 15, 2) == 15000);
  CHECK(decimal("125e-3", 15, 2) == 13);
  CHECK(decimal("0.000000000000000000000000000000000000000000001", 15, 2) == 0);
  CHECK(decimal("0000000000000000000000000000012.5", 4, 1) == 125);
  CHECK(decimal("9999999999999.99", 15, 2) == 999999999999999);
  decimal("10000000000000.00", 15, 2, ParseResult::OutOfRange);
  decimal("9999999999999.995", 15, 2, ParseResult::OutOfRange);  // rounds up past the precision
  decimal("1e20", 18, 0, ParseResult::OutOfRange);
  CHECK(decimal("999999999999999999", 18, 0) == 999999999999999999);
  for (const char* bad : {"", "1.2.3", "abc", "1e", "$5"}) decimal(bad, 15, 2, ParseResult::Invalid);
  CHECK(to_string(Decimal{-5, 2}) == "-0.05");
  CHECK(to_string(Decimal{1234, 2}) == "12.34");
  CHECK(to_string(Decimal{7, 0}) == "7");
  CHECK(to_string(Decimal{INT64_MIN, 3}) == "-9223372036854775.808");
  CHECK(Decimal{1234, 2}.to_double() == 12.34);
  // 128-bit values: high * 2^64 + unscaled, unscaled counted signed.
  CHECK(to_string(Decimal{3875820019684211736, 2, 54}) == "9999999999999999990.00");
  CHECK(to_string(Decimal{-3875820019684211736, 2, -54}) == "-9999999999999999990.00");
  CHECK(to_string(Decimal{-1, 0, 1}) == "18446744073709551615");
  CHECK(Decimal{3875820019684211736, 2, 54}.to_double() == 1e19);
  const int64_t words[] = {-1, 0};  // 2^64 - 1 in two's complement words
  CHECK(wide_decimal(words, 0, 0) == Decimal{-1, 0, 1});
}

TEST_CASE("dates: YYYY-MM-DD, real calendar days, days since 1970", "[storage]") {
  int32_t days = -1;
  CHECK(parse_date("1970-01-01", days) == ParseResult::Ok);
  CHECK(days == 0);
  CHECK(parse_date("1998-12-01", days) == ParseResult::Ok);
  CHECK(days == 10561);
  CHECK(to_string(Date{days}) == "1998-12-01");
  CHECK(parse_date(" 1969-12-31 ", days) == ParseResult::Ok);
  CHECK(days == -1);
  CHECK(parse_date("2000-02-29", days) == ParseResult::Ok);
  CHECK(parse_date("1992-1-2", days) == ParseResult::Ok);
  CHECK(to_string(Date{days}) == "1992-01-02");
  for (const char* bad : {"1900-02-29", "2001-02-29", "2001-13-01", "2001-00-10", "2001-04-31", "01-01-2001",
                          "2001/01/01", "2001-01-01x", "20010101", "2001-001-01"})
    CHECK(parse_date(bad, days) == ParseResult::Invalid);
  // Every day of four centuries round-trips.
  for (int32_t d = -146097; d <= 146097; d += 7) {
    std::string text = to_string(Date{d});
    int32_t back = 0;
    REQUIRE(parse_date(text, back) == ParseResult::Ok);
    REQUIRE(back == d);
  }
  CHECK(to_string(Date{-719529}) == "0002-12-31 (BC)");  // year -1, as DuckDB prints it
}

TEST_CASE("booleans and UTF-8", "[storage]") {
  bool b = false;
  for (const char* yes : {"true", "TRUE", "t", "yes", "Y", "1", " true "}) {
    CHECK(parse_boolean(yes, b) == ParseResult::Ok);
    CHECK(b);
  }
  for (const char* no : {"false", "F", "no", "n", "0"}) {
    CHECK(parse_boolean(no, b) == ParseResult::Ok);
    CHECK(!b);
  }
  CHECK(parse_boolean("2", b) == ParseResult::Invalid);
  CHECK(parse_boolean("truthy", b) == ParseResult::Invalid);
  CHECK(invalid_utf8_offset("plain ascii, long enough for words") == std::string_view::npos);
  CHECK(invalid_utf8_offset("h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80") == std::string_view::npos);
  CHECK(invalid_utf8_offset("abcdefghij\xff") == 10);
  CHECK(invalid_utf8_offset("\xc0\xaf") == 0);          // overlong
  CHECK(invalid_utf8_offset("ab\xed\xa0\x80") == 2);    // surrogate
  CHECK(invalid_utf8_offset("\xe2\x82") == 0);          // cut short
  CHECK(invalid_utf8_offset("\xf4\x90\x80\x80") == 0);  // past U+10FFFF
}

TEST_CASE("appending merges dictionaries and keeps codes sorted", "[storage]") {
  ColumnBuilder a(DataType::varchar()), b(DataType::varchar());
  for (const char* s : {"pear", "apple", "pear"}) a.append_string(s);
  a.append_null();
  b.append_string("banana");
  b.append_null();
  b.append_string("apple");
  HostColumn left = a.finish(), right = b.finish();
  CHECK(left.dictionary->values.to_strings() == std::vector<std::string>{"apple", "pear"});
  HostColumn both = concatenate(left, right);
  REQUIRE(both.size == 7);
  CHECK(both.dictionary->values.to_strings() == std::vector<std::string>{"apple", "banana", "pear"});
  std::vector<std::string> texts;
  for (std::size_t r = 0; r < both.size; ++r)
    texts.push_back(both.is_valid(r) ? std::string(both.dictionary->values[both.values<uint32_t>()[r]]) : "NULL");
  CHECK(texts == std::vector<std::string>{"pear", "apple", "pear", "NULL", "banana", "NULL", "apple"});
  CHECK(both.null_count() == 2);
  // Nothing new: the old dictionary is shared, codes unchanged.
  DictionaryUnion same = unite_dictionaries(left.dictionary, *left.dictionary);
  CHECK(same.left_unchanged);
  CHECK(same.dictionary == left.dictionary);
}

TEST_CASE("casts for INSERT: widen, narrow with range checks, parse and format", "[storage]") {
  ColumnBuilder big(DataType::bigint());
  for (int64_t v : {int64_t(1), int64_t(-2), int64_t(3000000000)}) big.append_raw(&v);
  big.append_null();
  HostColumn column = big.finish();
  CHECK_THROWS_WITH(cast_column(column, DataType::integer(), "x"),
                    "Conversion Error: value 3000000000 is out of range for INTEGER (column \"x\")");
  HostColumn as_decimal = cast_column(column, DataType{Type::Decimal, 12, 2}, "x");
  CHECK(as_decimal.values<int64_t>()[2] == 300000000000);
  CHECK(as_decimal.null_count() == 1);
  HostColumn as_text = cast_column(column, DataType::varchar(), "x");
  CHECK(as_text.dictionary->values.to_strings() == std::vector<std::string>{"-2", "1", "3000000000"});
  CHECK(!as_text.is_valid(3));
  HostColumn back = cast_column(as_text, DataType::bigint(), "x");
  CHECK(back.values<int64_t>()[2] == 3000000000);
  CHECK_THROWS_WITH(cast_column(make_varchar_column({"1", "x"}), DataType::integer(), "n"),
                    "Conversion Error: could not convert 'x' to INTEGER (column \"n\")");
  ColumnBuilder dec(DataType{Type::Decimal, 5, 3});
  for (const char* s : {"1.5", "-2.5", "0.499"}) REQUIRE(dec.append_text(s) == ParseResult::Ok);
  HostColumn rounded = cast_column(dec.finish(), DataType::integer(), "d");
  CHECK(rounded.values<int32_t>()[0] == 2);
  CHECK(rounded.values<int32_t>()[1] == -3);
  CHECK(rounded.values<int32_t>()[2] == 0);
  ColumnBuilder day(DataType::date());
  day.append_text("1998-12-01");
  CHECK_THROWS_WITH(cast_column(day.finish(), DataType::integer(), "d"),
                    "Conversion Error: could not convert DATE value 1998-12-01 to INTEGER (column \"d\")");
}

TEST_CASE("catalog: replace and remove", "[storage]") {
  Catalog catalog;
  auto t = std::make_shared<Table>();
  t->name = "T";
  catalog.add(t);
  auto t2 = std::make_shared<Table>();
  t2->name = "T";
  t2->rows = 5;
  catalog.replace(t2);
  CHECK(catalog.find("t")->rows == 5);
  auto other = std::make_shared<Table>();
  other->name = "u";
  CHECK_THROWS_WITH(catalog.replace(other), "Catalog Error: Table with name u does not exist!");
  CHECK(catalog.remove("t"));
  CHECK(!catalog.remove("t"));
  CHECK(catalog.names().empty());
}

// The reader cut into chunks of a few bytes, on several threads, must read
// exactly what the sequential reader reads -- table or first error.
TEST_CASE("parallel CSV reading equals sequential, however the text is cut", "[storage][csv]") {
  std::vector<std::string> texts = {
      "k,v,s\n1,2.5,\"a,b\"\n2,,\"multi\nline\"\n\n3,1e3,\"q\"\"uote\"\r\n4,-1,\r\n",
      "\xEF\xBB\xBF" "a|b|\n1|x|\n2|y|\n3||\n",
      "x\n1\n2\n\n\n3\n",
      "a,b\n1,2\n3\n4,5\n",
      "a,b\n1,2\n3,\"unterminated\n4,5\n",
      "a,b\n\"x\"\"y\",2\n\"z\nw\",\"\"\"\"\n5,\"a\"b\n",
      "a,b\n1,ab\"c\n",
      "d,n\n1998-12-01,1\n1999-01-01,2\nnot a date,3\n",
  };
  // A bigger one with quotes, embedded line breaks and NULLs everywhere.
  std::mt19937 rng(7);
  std::string big = "id,name,amount,day\n";
  for (const std::string& record : awkward_records(rng, 3000)) big += record;
  texts.push_back(big);
  std::string bad = big;
  bad.insert(bad.size() * 3 / 4, "\"");
  texts.push_back(bad);
  for (const auto& text : texts) {
    CsvLoadSpec spec;
    spec.table_name = "t";
    spec.threads = 1;
    const std::string expected = outcome(text, spec);
    INFO("text: " << text.substr(0, 200));
    for (std::size_t chunk : {2, 3, 5, 8, 13, 64, 1000}) {
      spec.threads = 3;
      spec.chunk_bytes = chunk;
      INFO("chunk bytes: " << chunk);
      CHECK(outcome(text, spec) == expected);
    }
  }
  CHECK(outcome(texts[0], {}).find("4 rows") == 0);
  CHECK(outcome(big, {}).find("3000 rows") == 0);
}

TEST_CASE("several files load as one table: their concatenation, any chunking, a fault in any file named", "[storage][csv]") {
  // Rows with quotes, embedded line breaks, NULLs and CRLF, dealt out to files.
  std::mt19937 rng(11);
  const std::string header = "id,name,amount,day\n";
  const std::vector<std::string> rows = awkward_records(rng, 2000);
  test::TempDir dir;
  for (std::size_t file_count : {1, 2, 5, 17}) {
    std::string whole = header;
    std::vector<std::string> paths;
    std::size_t row = 0;
    for (std::size_t f = 0; f < file_count; ++f) {
      std::string text = header;
      // Uneven files; the last takes the rest.
      const std::size_t take = f + 1 == file_count ? rows.size() - row : (rows.size() - row) / (2 + rng() % 3);
      for (std::size_t r = 0; r < take; ++r) text += rows[row + r];
      whole += text.substr(header.size());
      row += take;
      paths.push_back(dir.write("f" + std::to_string(file_count) + "_" + std::to_string(f) + ".csv", text));
    }
    CsvLoadSpec spec;
    spec.table_name = "t";
    const std::string expected = outcome(whole, spec);
    REQUIRE(expected.find("2000 rows") == 0);
    for (std::size_t chunk : {0, 7, 100, 4096}) {
      spec.threads = 3;
      spec.chunk_bytes = chunk;
      INFO("files: " << file_count << ", chunk bytes: " << chunk);
      CHECK(dump(*load_csv_files(paths, spec)) == expected);
    }
  }
  // A bad value in a later file: that file's name, line and column.
  const std::string first = dir.write("g1.csv", header + "1,a,1.5,2001-01-01\n");
  const std::string second = dir.write("g2.csv", header + "2,b,2.5,2001-01-02\n3,c,oops,2001-01-03\n");
  const std::string empty = dir.write("g3.csv", "");
  CsvLoadSpec spec;
  spec.table_name = "t";
  CHECK_THROWS_WITH(load_csv_files({first, second}, spec),
                    "Conversion Error: CSV file \"" + second + "\", line 3, column 5: could not convert \"oops\" to DOUBLE in "
                    "column \"amount\" (its type was inferred from the first 20480 rows)");
  CHECK_THROWS_WITH(load_csv_files({first, empty}, spec), "IO Error: CSV file \"" + empty + "\" is empty");
  CHECK_THROWS_WITH(load_csv_files({first, dir.path() + "/none.csv"}, spec),
                    Catch::Matchers::StartsWith("IO Error: cannot open CSV file \"" + dir.path() + "/none.csv\""));
  // The first file's header decides for all: each file's first line is skipped.
  CHECK(dump(*load_csv_files({first, first}, spec)) ==
        "2 rows\nid INTEGER: 1 1\nname VARCHAR: 'a' 'a'\namount DOUBLE: 1.5 1.5\nday DATE: 2001-01-01 2001-01-01\n");
}

TEST_CASE("a VARCHAR dictionary sorts strings that share 8-, 16- and 48-byte prefixes, and differ in length only", "[storage][csv]") {
  // Words from a small vocabulary (as dbgen's comments): prefixes of 8 and 16 bytes repeat.
  // A 42-byte word makes ties past 32 bytes, sorted on further 16-byte keys.
  const std::vector<std::string> words = {"carefully", "carefull", "final", "furiously", "", "a", "ironic",
                                          "0123456789abcdefghijklmnopqrstuvwxyzABCDEF"};
  std::mt19937 rng(5);
  std::vector<std::string> values;
  std::string text = "s\n";
  for (int i = 0; i < 3000; ++i) {
    std::string v;
    for (std::size_t n = rng() % 5; n > 0; --n) v += words[rng() % words.size()] + (rng() % 2 ? " " : "");
    values.push_back(v);
    text += "\"" + v + "\"\n";
  }
  CsvLoadSpec spec;
  spec.table_name = "t";
  spec.threads = 3;
  spec.chunk_bytes = 512;
  std::shared_ptr<Table> table = load_csv_text(text, "mem.csv", spec);
  const HostColumn& column = table->host[0];
  std::vector<std::string> distinct = values;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  CHECK(column.dictionary->values.to_strings() == distinct);
  std::size_t wrong = 0;
  for (std::size_t row = 0; row < values.size(); ++row)
    wrong += column.dictionary->values[column.values<uint32_t>()[row]] != values[row];
  CHECK(wrong == 0);
}

// Row `row` of VARCHAR column `c` read through the table's encoded form
// (host_column()), "NULL" for a NULL.
std::string text_at(const Table& t, std::size_t c, std::size_t row) {
  const HostColumn& h = t.host_column(c);
  if (!h.is_valid(row)) return "NULL";
  return std::string(h.dictionary->values[h.values<uint32_t>()[row]]);
}

TEST_CASE("a large load keeps mostly distinct VARCHAR columns as plain strings and encodes them when first read", "[storage][csv]") {
  // note: distinct, with NULLs, empty strings and doubled quotes; kind: four values.
  std::vector<std::string> notes, kinds;
  std::string text = "id,note,kind\n";
  for (int i = 0; i < 3000; ++i) {
    std::string note = i % 97 == 5 ? "NULL" : i % 89 == 7 ? "" : "note \"" + std::to_string(i * 7919 % 3001) + "\" x";
    notes.push_back(note);
    kinds.push_back(i % 50 == 3 ? "NULL" : std::string(1, static_cast<char>('a' + i % 4)));
    std::string quoted = "\"";
    for (char ch : note) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    quoted += "\"";
    text += std::to_string(i) + "," + (note == "NULL" ? "" : quoted) + "," + (kinds.back() == "NULL" ? "" : kinds.back()) +
            "\n";
  }
  auto load = [&](std::size_t plain_rows, std::shared_ptr<const Table> append_to = nullptr) {
    CsvLoadSpec spec;
    spec.table_name = "t";
    spec.threads = 3;
    spec.chunk_bytes = 512;
    spec.plain_strings_rows = plain_rows;
    spec.append_to = std::move(append_to);
    return load_csv_text(text, "mem.csv", spec);
  };
  auto check_values = [&](const Table& t, std::size_t copies) {
    REQUIRE(t.rows == 3000 * copies);
    std::size_t wrong = 0;
    for (std::size_t row = 0; row < t.rows; ++row) {
      wrong += text_at(t, 1, row) != notes[row % 3000];
      wrong += text_at(t, 2, row) != kinds[row % 3000];
    }
    CHECK(wrong == 0);
  };

  // At least 1000 rows: note is plain, kind (repeated values) keeps a dictionary.
  std::shared_ptr<Table> plain = load(1000);
  REQUIRE(plain->host[1].is_plain());
  CHECK(!plain->host[2].is_plain());
  CHECK(plain->host[1].bytes.empty());
  CHECK((*plain->host[1].strings)[8] == "note \"" + std::to_string(8 * 7919 % 3001) + "\" x");
  CHECK((*plain->host[1].strings)[5].empty());  // a NULL
  CHECK(!plain->host[1].is_valid(5));
  CHECK(plain->host[1].is_valid(7));  // "" is a value
  // Scans leave the column out until a statement reads it.
  CHECK(plain->scan_column(1) == nullptr);
  CHECK(plain->scan_column(2) == &plain->host[2]);
  std::shared_ptr<const Dictionary> dictionary = plain->dictionary(1);
  REQUIRE(plain->scan_column(1) != nullptr);
  CHECK(plain->scan_column(1)->dictionary == dictionary);
  check_values(*plain, 1);

  // The same strings as a dictionary made at load: same dictionary, same codes.
  std::shared_ptr<Table> encoded = load(1 << 20);
  CHECK(!encoded->host[1].is_plain());
  CHECK(encoded->host[1].dictionary->values == plain->host_column(1).dictionary->values);
  CHECK(encoded->host[1].bytes == plain->host_column(1).bytes);
  CHECK(encoded->host[1].validity == plain->host_column(1).validity);

  // 0: every VARCHAR column plain.
  std::shared_ptr<Table> all = load(0);
  CHECK(all->host[1].is_plain());
  CHECK(all->host[2].is_plain());
  check_values(*all, 1);

  // An append keeps each column's form; strings follow the old rows'.
  std::shared_ptr<Table> twice = load(1000, plain);
  CHECK(twice->host[1].is_plain());
  CHECK(!twice->host[2].is_plain());
  check_values(*twice, 2);
  std::shared_ptr<Table> onto_dictionary = load(0, encoded);
  CHECK(!onto_dictionary->host[1].is_plain());
  check_values(*onto_dictionary, 2);
  // The distinct-count estimate reads the strings.
  CHECK(all->distinct_estimate(2) == 4);
  CHECK(plain->host_bytes() > encoded->host_bytes());  // strings, then codes and a dictionary as well
}

TEST_CASE("COPY-style appends: declared types, header sniffed, NOT NULL", "[storage][csv]") {
  auto base = std::make_shared<Table>();
  base->name = "t";
  base->columns = {{"id", DataType::integer(), true}, {"name", DataType::varchar()}, {"price", {Type::Decimal, 15, 2}}};
  ColumnBuilder id(DataType::integer()), name(DataType::varchar()), price({Type::Decimal, 15, 2});
  id.append_text("1");
  name.append_string("zulu");
  price.append_text("9.99");
  base->host = {id.finish(), name.finish(), price.finish()};
  base->rows = 1;
  CsvLoadSpec spec;
  spec.append_to = base;
  spec.threads = 2;
  spec.chunk_bytes = 4;
  CHECK(outcome("id,name,price\n2,alpha,1.5\n3,,-0.005\n", spec) ==
        "3 rows\n"
        "id INTEGER: 1 2 3\n"
        "name VARCHAR: 'zulu' 'alpha' NULL\n"
        "price DECIMAL(15,2): 9.99 1.50 -0.01\n");
  CHECK(outcome("2|alpha|1.5|\n3|beta|2|\n", spec) ==
        "3 rows\n"
        "id INTEGER: 1 2 3\n"
        "name VARCHAR: 'zulu' 'alpha' 'beta'\n"
        "price DECIMAL(15,2): 9.99 1.50 2.00\n");
  CHECK(outcome("2,a,1\n,b,2\n", spec) ==
        "error: Conversion Error: CSV file \"mem.csv\", line 2, column 1: NULL in column \"id\", which is declared "
        "NOT NULL");
  CHECK(outcome("2,a,1\n3,b,12345678901234.5\n", spec) ==
        "error: Conversion Error: CSV file \"mem.csv\", line 2, column 5: \"12345678901234.5\" is out of range for "
        "DECIMAL(15,2) in column \"price\"");
  CHECK(base->rows == 1);  // the table appended to is never touched
}

TEST_CASE("distinct values for join ordering: exact on small columns, estimated from a sample on large ones",
          "[storage]") {
  auto column = [](std::size_t rows, auto value_of) {
    HostColumn c(DataType::bigint(), rows);
    auto v = c.values<int64_t>();
    for (std::size_t i = 0; i < rows; ++i) v[i] = value_of(i);
    return c;
  };
  // At most kDistinctSampleRows rows: every row read, the count exact.
  CHECK(estimate_distinct(column(1000, [](std::size_t i) { return int64_t(i % 25); })) == 25);
  CHECK(estimate_distinct(column(kDistinctSampleRows, [](std::size_t i) { return int64_t(i); })) ==
        double(kDistinctSampleRows));
  CHECK(estimate_distinct(HostColumn(DataType::integer(), 0)) == 0);
  // Larger: 25 values over 10^6 rows are seen, each many times.
  CHECK(estimate_distinct(column(1000000, [](std::size_t i) { return int64_t(i * 7919 % 25); })) == 25);
  // A sample of all-different values counts as a key: every row distinct.
  CHECK(estimate_distinct(column(1000000, [](std::size_t i) { return int64_t(i * 3); })) == 1000000);
  // In between, Chao's estimate from the sample's singletons and pairs:
  // 200,000 values twice each over 400,000 rows (hashed apart), within 2x.
  const double mid = estimate_distinct(column(400000, [](std::size_t i) {
    return int64_t((i % 200000) * 2654435761u % 1000003);
  }));
  CHECK(mid > 100000);
  CHECK(mid <= 400000);
  // NULLs are not values; a column of NULLs only has none.
  HostColumn nulls(DataType::integer(), 100);
  for (std::size_t i = 0; i < 100; ++i) nulls.set_null(i);
  CHECK(estimate_distinct(nulls) == 0);
  HostColumn some(DataType::integer(), 200000);
  for (std::size_t i = 0; i < 200000; ++i) {
    some.values<int32_t>()[i] = int32_t(i % 10);
    if (i % 2) some.set_null(i);
  }
  CHECK(estimate_distinct(some) == 5);
}

TEST_CASE("what a dictionary derives is built once per key and not copied with it", "[storage]") {
  Dictionary d;
  d.values = StringPool::of(std::vector<std::string>{"a", "bb", "ccc"});
  int builds = 0;
  auto lengths = [&] {
    ++builds;
    std::vector<std::size_t> out;
    for (const auto& s : d.values) out.push_back(s.size());
    return out;
  };
  auto first = d.derived<std::vector<std::size_t>>("length", lengths);
  auto again = d.derived<std::vector<std::size_t>>("length", lengths);
  CHECK(first == again);
  CHECK(*first == std::vector<std::size_t>{1, 2, 3});
  CHECK(builds == 1);
  d.derived<std::vector<std::size_t>>("other", lengths);
  CHECK(builds == 2);
  Dictionary copy(d);
  copy.derived<std::vector<std::size_t>>("length", lengths);
  CHECK(builds == 3);
}

TEST_CASE("a large table's distinct estimates are made as the catalog takes it, the same as made lazily", "[storage]") {
  auto make = [](std::size_t rows) {
    auto t = std::make_shared<Table>();
    t->name = "t" + std::to_string(rows);
    t->rows = rows;
    HostColumn a(DataType::integer(), rows), b(DataType::bigint(), rows);
    for (std::size_t r = 0; r < rows; ++r) {
      a.values<int32_t>()[r] = static_cast<int32_t>(r % 1000);
      b.values<int64_t>()[r] = static_cast<int64_t>(r * 7);
    }
    t->columns = {{"a", a.type}, {"b", b.type}};
    t->host.push_back(std::move(a));
    t->host.push_back(std::move(b));
    return t;
  };
  Catalog catalog;
  auto big = make(kDistinctSampleRows * 3);
  catalog.add(big);
  const double a = estimate_distinct(big->host[0]), b = estimate_distinct(big->host[1]);
  CHECK(a == 1000);
  // Made already: values changed behind the catalog's back (never done
  // outside this test: tables are immutable) do not change it.
  std::vector<std::byte> kept = big->host[0].bytes;
  std::fill(big->host[0].bytes.begin(), big->host[0].bytes.end(), std::byte{0});
  CHECK(big->distinct_estimate(0) == a);
  big->host[0].bytes = std::move(kept);
  CHECK(b == static_cast<double>(big->rows));  // a key: every sampled value once
  CHECK(big->distinct_estimate(0) == a);
  CHECK(big->distinct_estimate(1) == b);
  auto small = make(100);
  catalog.add(small);
  CHECK(small->distinct_estimate(0) == 100);
}

TEST_CASE("a new version of a large table within a tenth of its rows keeps its estimates, a key's scaled", "[storage]") {
  auto make = [](std::size_t rows, int groups) {
    auto t = std::make_shared<Table>();
    t->name = "t";
    t->rows = rows;
    HostColumn a(DataType::integer(), rows), b(DataType::bigint(), rows);
    for (std::size_t r = 0; r < rows; ++r) {
      a.values<int32_t>()[r] = static_cast<int32_t>(r % static_cast<std::size_t>(groups));
      b.values<int64_t>()[r] = static_cast<int64_t>(r * 7);
    }
    t->columns = {{"a", a.type}, {"b", b.type}};
    t->host.push_back(std::move(a));
    t->host.push_back(std::move(b));
    return t;
  };
  const std::size_t rows = kDistinctSampleRows * 2;
  Catalog catalog;
  catalog.add(make(rows, 1000));
  CHECK(catalog.get("t", 0)->distinct_estimate(0) == 1000);
  // An append of a few rows (with new values of a: a sample would see 2000):
  // the old count for a, b's scaled as a key's.
  catalog.replace(make(rows + 10, 2000));
  CHECK(catalog.get("t", 0)->distinct_estimate(0) == 1000);
  CHECK(catalog.get("t", 0)->distinct_estimate(1) == static_cast<double>(rows + 10));
  // Twice the rows: sampled again.
  catalog.replace(make(rows * 2, 2000));
  CHECK(catalog.get("t", 0)->distinct_estimate(0) == 2000);
  CHECK(catalog.get("t", 0)->distinct_estimate(1) == static_cast<double>(rows * 2));
}

TEST_CASE("DerivedCache keeps the most recently used values, each made once", "[storage]") {
  DerivedCache cache;
  int builds = 0;
  auto get = [&](int key) {
    return *cache.get<int>("k" + std::to_string(key), [&] {
      ++builds;
      return key * 10;
    });
  };
  for (int k = 0; k < int(DerivedCache::kCapacity); ++k) CHECK(get(k) == k * 10);
  CHECK(builds == int(DerivedCache::kCapacity));
  CHECK(get(0) == 0);  // kept, and now the most recently used
  CHECK(builds == int(DerivedCache::kCapacity));
  CHECK(get(100) == 1000);  // one more: k1, the least recently used, goes
  CHECK(builds == int(DerivedCache::kCapacity) + 1);
  CHECK(get(0) == 0);
  CHECK(get(2) == 20);
  CHECK(builds == int(DerivedCache::kCapacity) + 1);
  CHECK(get(1) == 10);  // made again
  CHECK(builds == int(DerivedCache::kCapacity) + 2);
  // A value a caller holds outlives its eviction.
  std::shared_ptr<const int> held = cache.get<int>("held", [] { return 7; });
  for (int k = 200; k < 200 + int(DerivedCache::kCapacity); ++k) get(k);
  CHECK(*held == 7);
}

TEST_CASE("an append's distinct estimates come from the old table's and the appended rows' own", "[storage][csv]") {
  auto csv = [](int first, int rows, int g_base, const char* prefix, int kinds) {
    std::string text;
    for (int i = 0; i < rows; ++i)
      text += std::to_string(first + i) + "," + std::to_string(g_base + i % 100) + "," + prefix +
              std::to_string(i % kinds) + "\n";
    return text;
  };
  CsvLoadSpec spec;
  spec.table_name = "t";
  spec.options.header = false;
  std::shared_ptr<Table> base = load_csv_text(csv(0, 200000, 0, "v", 50), "a.csv", spec);
  REQUIRE(base->rows == 200000);
  CHECK(base->distinct_estimate(0) == 200000);
  CHECK(base->distinct_estimate(1) == 100);
  CHECK(base->distinct_estimate(2) == 50);
  // The appended rows alone, as estimate_distinct() of their stretch sees them.
  HostColumn g(DataType::integer(), 300000);
  for (int i = 0; i < 300000; ++i) g.values<int32_t>()[i] = i < 200000 ? i % 100 : 1000 + i % 7;
  CHECK(estimate_distinct(g, 200000) == 7);
  CHECK(value_range(g, 200000).min == 1000);
  CHECK(value_range(g, 200000).max == 1006);

  spec.append_to = base;
  // Keys past the old ones add up; g's values are the old ones (the larger
  // count); a VARCHAR's strings are taken to repeat (the larger count, here
  // below the true 80: an estimate, never more than the rows).
  std::shared_ptr<Table> more = load_csv_text(csv(200000, 100000, 0, "w", 30), "b.csv", spec);
  REQUIRE(more->rows == 300000);
  CHECK(more->distinct_estimate(0) == 300000);
  CHECK(more->distinct_estimate(1) == 100);
  CHECK(more->distinct_estimate(2) == 50);
  // Values in a range of their own add up too.
  spec.append_to = more;
  std::shared_ptr<Table> apart = load_csv_text(csv(300000, 100000, 5000, "v", 50), "c.csv", spec);
  CHECK(apart->distinct_estimate(0) == 400000);
  CHECK(apart->distinct_estimate(1) == 200);
  CHECK(apart->distinct_estimate(2) == 50);
}
