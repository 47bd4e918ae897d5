// Loading CSV files: types, dialect, and every bad input with its message.
#include <catch2/catch.hpp>

#include "tests/test_support.hpp"

using namespace gpusql;
using namespace gpusql::test;

TEST_CASE("CSV types are inferred and widened", "[csv]") {
  TempDir dir;
  std::string path = dir.write("t.csv",
                               "i,b,d,s,n\n"
                               "1,1,1,x,\n"
                               " -2 ,3000000000,2.5,y,\n"
                               "+3,-4,1e3,7,\n");
  Database db(Options{ExecutorKind::Host});
  db.load_csv("t", path);
  Result r = db.query("SELECT * FROM t");
  REQUIRE(r.row_count() == 3);
  CHECK(r.column_type(0) == Type::Integer);
  CHECK(r.column_type(1) == Type::BigInt);
  CHECK(r.column_type(2) == Type::Double);
  CHECK(r.column_type(3) == Type::Varchar);
  CHECK(r.column_type(4) == Type::Varchar);  // only NULLs
  CHECK(r.get<int32_t>(1, 0) == -2);
  CHECK(r.get<int32_t>(2, 0) == 3);
  CHECK(r.get<int64_t>(1, 1) == 3000000000);
  CHECK(r.get<double>(2, 2) == 1000.0);
  CHECK(r.get<std::string>(2, 3) == "7");
  CHECK(r.is_null(0, 4));
}

TEST_CASE("CSV dialect: quotes, CRLF, BOM, trailing delimiter, blank lines", "[csv]") {
  TempDir dir;
  std::string path = dir.write("q.csv",
                               "\xEF\xBB\xBF" "name,note,qty,\r\n"
                               "\"Smith, J\",\"said \"\"hi\"\"\",1,\r\n"
                               "plain,\"two\nlines\",2,\r\n"
                               "\r\n"
                               "\"\",,3,\r\n");
  Database db(Options{ExecutorKind::Host});
  db.load_csv("q", path);
  Result r = db.query("SELECT * FROM q");
  REQUIRE(r.column_count() == 3);
  REQUIRE(r.row_count() == 3);
  CHECK(r.column_name(0) == "name");
  CHECK(r.get<std::string>(0, 0) == "Smith, J");
  CHECK(r.get<std::string>(0, 1) == "said \"hi\"");
  CHECK(r.get<std::string>(1, 1) == "two\nlines");
  CHECK(r.get<std::string>(2, 0) == "");  // quoted empty: an empty string
  CHECK(r.is_null(2, 1));                 // unquoted empty: NULL
  CHECK(r.get<int32_t>(2, 2) == 3);
}

namespace {

// Loading `contents` must fail with exactly `message` and create nothing.
void check_rejected(const std::string& contents, const std::string& message) {
  TempDir dir;
  std::string path = dir.write("bad.csv", contents);
  Database db(Options{ExecutorKind::Host});
  std::string expected = message;
  auto at = expected.find("PATH");
  if (at != std::string::npos) expected.replace(at, 4, path);
  CHECK_THROWS_WITH(db.load_csv("bad", path), expected);
  CHECK(db.table_names().empty());
}

}  // namespace

TEST_CASE("bad CSV input names file, line and column, and creates nothing", "[csv]") {
  check_rejected("a,b\n1,2\n3\n",
                 "Conversion Error: CSV file \"PATH\", line 3, column 2: expected 2 fields but found 1 (record \"3\")");
  check_rejected("a,b\n1,2\n3,4,5\n",
                 "Conversion Error: CSV file \"PATH\", line 3, column 5: expected 2 fields but found 3 (extra field \"5\")");
  check_rejected("a,b\n1,\"open\n2,3\n",
                 "Conversion Error: CSV file \"PATH\", line 2, column 3: unterminated quoted field");
  check_rejected("a,b\n1,\"x\"y\n",
                 "Conversion Error: CSV file \"PATH\", line 2, column 6: unexpected character after a closing quote: \"y\"");
  check_rejected("a,b\n1,ab\"c\n",
                 "Conversion Error: CSV file \"PATH\", line 2, column 5: a quote inside an unquoted field: \"ab\"\"");
  check_rejected("a,s\n1,ok\n2,bad\xff\n",
                 "Conversion Error: CSV file \"PATH\", line 3, column 6: invalid UTF-8 in a VARCHAR value \"bad\xff\"");
  check_rejected("", "IO Error: CSV file \"PATH\" is empty");
  check_rejected("\n\n", "IO Error: CSV file \"PATH\" is empty");
}

TEST_CASE("missing files and directories are IO errors", "[csv]") {
  Database db(Options{ExecutorKind::Host});
  CHECK_THROWS_WITH(db.load_csv("t", "/nonexistent/x.csv"),
                    "IO Error: cannot open CSV file \"/nonexistent/x.csv\": no such file");
  TempDir dir;
  CHECK_THROWS_WITH(db.load_csv("t", dir.path()),
                    "IO Error: cannot read CSV file \"" + dir.path() + "\": it is a directory");
  CHECK(db.table_names().empty());
  // A second load of the same name is refused and the first table kept.
  std::string path = dir.write("t.csv", "a\n1\n");
  db.load_csv("t", path);
  CHECK_THROWS_WITH(db.load_csv("T", path), "Catalog Error: Table with name \"T\" already exists!");
  CHECK(db.query("SELECT COUNT(*) FROM t").get<int64_t>(0, 0) == 1);
}

TEST_CASE("CSV options: delimiter, header, quote, NULL marker", "[csv]") {
  TempDir dir;
  Database db(Options{ExecutorKind::Host});
  auto rows = [&](const std::string& name, const std::string& text, const CsvOptions& options) {
    db.load_csv(name, dir.write(name + ".csv", text), options);
    return to_string(to_rows(db.query("SELECT * FROM " + name)));
  };
  CsvOptions pipe_no_header;
  pipe_no_header.delimiter = '|';
  pipe_no_header.header = false;
  CHECK(rows("a", "x|1\ny|2\n", pipe_no_header) == "'x' | 1\n'y' | 2\n");
  CsvOptions na;
  na.null_marker = "NA";
  CHECK(rows("b", "s,n,d\nNA,NA,1\n,,2\n\"NA\",3,NA\n", na) == "NULL | NULL | 1\n'' | NULL | 2\n'NA' | 3 | NULL\n");
  CsvOptions no_quotes;
  no_quotes.quote = '\0';
  CHECK(rows("c", "s,n\n\"a\",1\nb\"\",2\n", no_quotes) == "'\"a\"' | 1\n'b\"\"' | 2\n");
  CsvOptions single_quotes;
  single_quotes.quote = '\'';
  CHECK(rows("d", "s,n\n'a,b',1\n'it''s',2\n", single_quotes) == "'a,b' | 1\n'it's' | 2\n");
  CsvOptions header;
  header.header = true;
  Result r = db.query("SELECT * FROM a");
  CHECK(r.column_name(0) == "column0");
  db.load_csv("e", dir.write("e.csv", "1,2\n3,4\n"), header);
  CHECK(db.query("SELECT * FROM e").column_name(1) == "2");
  CsvOptions bad;
  bad.delimiter = '\n';
  CHECK_THROWS_WITH(db.load_csv("f", dir.write("f.csv", "1\n"), bad),
                    "Invalid Input Error: the CSV delimiter cannot be a line break or NUL");
  bad.delimiter = '"';
  CHECK_THROWS_WITH(db.load_csv("f", dir.write("f.csv", "1\n"), bad),
                    "Invalid Input Error: the CSV delimiter and quote must differ");
  CHECK(db.table_names() == std::vector<std::string>{"a", "b", "c", "d", "e"});
}

TEST_CASE("CSV dialect: signs, exponents, blanks, lone CR, CRLF inside quotes, no final line end", "[csv]") {
  TempDir dir;
  Database db(Options{ExecutorKind::Host});
  db.load_csv("t", dir.write("t.csv",
                             "i,d,day,s\r\n"
                             "+1, -2.5e1 ,\t2001-02-03 ,\"a\r\nb\"\r\n"
                             "-2,.5,1999-12-31,x\ry\r\n"
                             ",,,  \r\n"
                             "3,4E-2,2000-01-01,last"));
  Result r = db.query("SELECT * FROM t");
  REQUIRE(r.row_count() == 4);
  CHECK(r.column_type(0) == Type::Integer);
  CHECK(r.column_type(1) == Type::Double);
  CHECK(r.column_type(2) == Type::Date);
  CHECK(r.column_type(3) == Type::Varchar);
  CHECK(to_string(to_rows(r)) ==
        "1 | -25d | '2001-02-03' | 'a\r\nb'\n"
        "-2 | 0.5d | '1999-12-31' | 'x\ry'\n"
        "NULL | NULL | NULL | '  '\n"
        "3 | 0.040000000000000001d | '2000-01-01' | 'last'\n");
}

TEST_CASE("more bad CSV input: values that do not fit, messages with the text", "[csv]") {
  check_rejected("k,v\n1,\"multi\nline\",extra\n",
                 "Conversion Error: CSV file \"PATH\", line 3, column 7: expected 2 fields but found 3 (extra field "
                 "\"extra\")");
  check_rejected("k,v\n1,\"multi\nline\"\n2\n",
                 "Conversion Error: CSV file \"PATH\", line 4, column 2: expected 2 fields but found 1 (record \"2\")");
  check_rejected("\xEF\xBB\xBF" "a,b\n\"x\"\"\n",
                 "Conversion Error: CSV file \"PATH\", line 2, column 1: unterminated quoted field");
  check_rejected("a\n\xff\xfe\n",
                 "Conversion Error: CSV file \"PATH\", line 2, column 1: invalid UTF-8 in a VARCHAR value \"\xff\xfe\"");
}
