// CREATE TABLE, COPY, INSERT, DROP TABLE, SHOW TABLES, DESCRIBE and
// read_csv through SQL: every type, loads compared value by value with
// SQLite's reading of the same file, and every failure leaving the catalog
// and its tables exactly as they were.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <optional>

#include "engine/catalog_statements.hpp"
#include "storage/column_ops.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;
using namespace gpusql::test;

namespace {

using TextRows = std::vector<std::vector<std::optional<std::string>>>;

// An independent RFC 4180 reader for the oracle side: an unquoted empty
// field is NULL, a trailing delimiter ends a line, a BOM and blank lines are
// skipped.
TextRows split_csv(std::string text, char delimiter, bool header, bool trailing_delimiter) {
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
  TextRows rows;
  std::vector<std::optional<std::string>> row;
  std::string field;
  bool quoted = false, was_quoted = false;
  auto end_field = [&] {
    if (field.empty() && !was_quoted) row.emplace_back(std::nullopt);
    else row.emplace_back(field);
    field.clear();
    was_quoted = false;
  };
  auto end_row = [&] {
    end_field();
    if (trailing_delimiter) row.pop_back();
    bool blank = row.size() <= 1 && (row.empty() || !row[0]);
    if (!blank || trailing_delimiter) rows.push_back(row);
    row.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += text[++i];
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = was_quoted = true;
    } else if (c == delimiter) {
      end_field();
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
    } else if (c == '\n') {
      end_row();
    } else {
      field += c;
    }
  }
  if (!field.empty() || !row.empty()) end_row();
  if (header && !rows.empty()) rows.erase(rows.begin());
  return rows;
}

std::string sqlite_type(Type t) {
  switch (t) {
    case Type::Real:
    case Type::Double:
    case Type::Decimal: return "REAL";
    case Type::Date:
    case Type::Varchar: return "TEXT";
    default: return "INTEGER";
  }
}

// The same file into SQLite, with the column types gpusql gave the table.
void load_oracle(Sqlite& oracle, Database& db, const std::string& table, const std::string& path, char delimiter,
                 bool header, bool trailing_delimiter) {
  Result schema = db.query("SELECT * FROM " + table + " WHERE 1 = 0");
  std::string create = "CREATE TABLE " + table + " (";
  for (std::size_t c = 0; c < schema.column_count(); ++c)
    create += (c ? ", " : "") + schema.column_name(c) + " " + sqlite_type(schema.column_type(c));
  oracle.execute(create + ")");
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  oracle.insert(table, split_csv(text, delimiter, header, trailing_delimiter));
}

void check_same(const Rows& expected, const Rows& actual) {
  INFO("sqlite:\n" << to_string(expected) << "gpusql:\n" << to_string(actual));
  CHECK(same_rows(expected, actual));
}

// Everything a table holds, for "exactly as it was" checks.
std::string snapshot(Database& db, const std::string& table) {
  return to_string(to_rows(db.query("SELECT * FROM " + table)));
}

}  // namespace

TEST_CASE("dbgen files: CREATE TABLE + COPY read what SQLite reads", "[catalog][sqlite]") {
  TempDir dir;
  std::string path = dir.write("region.tbl",
                               "0|AFRICA|1998-12-01|12.50|lar deposits. blithely final packages cajole.|\n"
                               "1|AMERICA|1992-01-02|-0.05|hs use ironic, even requests. s|\n"
                               "2|ASIA|2000-02-29|0|ges. thinly even pinto beans ca|\n"
                               "3|EUROPE|1970-01-01|99999999.99|ly final courts cajole furiously final excuse|\n"
                               "4|MIDDLE EAST||-1234567.8||\n");
  for (ExecutorKind kind : {ExecutorKind::Host}) {
    Database db(Options{kind});
    db.query("CREATE TABLE region (r_regionkey INTEGER NOT NULL, r_name VARCHAR, r_date DATE, "
             "r_amount DECIMAL(15,2), r_comment VARCHAR)");
    Result loaded = db.query("COPY region FROM '" + path + "' (DELIMITER '|')");
    CHECK(loaded.status() == "loaded 5 rows into region");
    Result r = db.query("SELECT * FROM region");
    REQUIRE(r.row_count() == 5);
    CHECK(r.column_type(2) == Type::Date);
    CHECK(r.column_type(3) == Type::Decimal);
    CHECK(r.get<Date>(0, 2) == Date{10561});
    CHECK(r.get<Decimal>(1, 3) == Decimal{-5, 2});
    CHECK(r.text(1, 3) == "-0.05");
    CHECK(r.text(3, 3) == "99999999.99");
    CHECK(r.text(0, 2) == "1998-12-01");
    CHECK(r.is_null(4, 2));
    CHECK(r.is_null(4, 4));
    Sqlite oracle;
    load_oracle(oracle, db, "region", path, '|', false, true);
    check_same(oracle.query("SELECT * FROM region"), to_rows(r));
    // A second COPY appends; new strings merge into the sorted dictionary.
    db.query("COPY region FROM '" + path + "' (DELIMITER '|', HEADER false)");
    CHECK(db.query("SELECT COUNT(*) FROM region").get<int64_t>(0, 0) == 10);
    CHECK(db.query("SELECT COUNT(*) FROM region WHERE r_name = 'ASIA'").get<int64_t>(0, 0) == 2);
    CHECK(db.query("SELECT COUNT(*) FROM region WHERE r_name < 'B'").get<int64_t>(0, 0) == 6);
  }
}

TEST_CASE("inference: a quoted, CRLF, BOM file with empty fields as NULL reads as SQLite reads it",
          "[catalog][sqlite]") {
  TempDir dir;
  std::string path = dir.write("people.csv",
                               "\xEF\xBB\xBF" "id,name,city,score,joined\r\n"
                               "1,\"Smith, John\",\"Paris\",3.5,2020-01-31\r\n"
                               "2,\"O\"\"Brien\",,-2,2021-12-01\r\n"
                               "3,\"multi\r\nline\",Oslo,,\r\n"
                               "4,,\"\",1e3,1999-07-04\r\n");
  Database db(Options{ExecutorKind::Host});
  db.query("CREATE TABLE people AS SELECT * FROM read_csv('" + path + "')");
  Result r = db.query("SELECT * FROM people");
  REQUIRE(r.row_count() == 4);
  CHECK(r.column_name(1) == "name");
  CHECK(r.column_type(0) == Type::Integer);
  CHECK(r.column_type(3) == Type::Double);
  CHECK(r.column_type(4) == Type::Date);
  CHECK(r.get<std::string>(1, 1) == "O\"Brien");
  CHECK(r.get<std::string>(2, 1) == "multi\r\nline");
  CHECK(r.is_null(1, 2));              // unquoted empty: NULL
  CHECK(r.get<std::string>(3, 2) == "");  // quoted empty: the empty string
  CHECK(r.is_null(3, 1));
  Sqlite oracle;
  load_oracle(oracle, db, "people", path, ',', true, false);
  check_same(oracle.query("SELECT * FROM people"), to_rows(r));
  // The same file through Database::load_csv and a given dialect.
  CsvOptions dialect;
  dialect.delimiter = ',';
  dialect.header = true;
  db.load_csv("people2", path, dialect);
  CHECK(snapshot(db, "people2") == snapshot(db, "people"));
}

TEST_CASE("every type: CREATE TABLE, INSERT literals, read back", "[catalog]") {
  Database db(Options{ExecutorKind::Host});
  db.query("CREATE TABLE t (b BOOLEAN, i INTEGER, l BIGINT, r REAL, d DOUBLE, m DECIMAL(9,3), day DATE, s VARCHAR)");
  Result status = db.query(
      "INSERT INTO t VALUES (true, -1, -9223372036854775807, 0.1, -2.5e-3, -12.3456, DATE '1998-12-01', 'x'), "
      "(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), "
      "(false, 2147483647, 3000000000, -1e30, 1, 7, '2000-02-29', '')");
  CHECK(status.status() == "inserted 3 rows into t");
  Result r = db.query("SELECT * FROM t");
  REQUIRE(r.row_count() == 3);
  std::vector<Type> types = {Type::Boolean, Type::Integer, Type::BigInt, Type::Real,
                             Type::Double,  Type::Decimal, Type::Date,   Type::Varchar};
  for (std::size_t c = 0; c < types.size(); ++c) {
    CHECK(r.column_type(c) == types[c]);
    CHECK(r.is_null(1, c));
    CHECK(r.text(1, c) == "NULL");
  }
  CHECK(r.get<bool>(0, 0));
  CHECK(r.get<int32_t>(0, 1) == -1);
  CHECK(r.get<int64_t>(0, 2) == -9223372036854775807);
  CHECK(r.get<double>(0, 3) == static_cast<double>(0.1f));  // REAL reads as double
  CHECK(r.text(0, 3) == "0.1");                              // and prints as the float it is
  CHECK(r.text(2, 3) == "-1e+30");
  CHECK(r.get<double>(0, 4) == -2.5e-3);
  CHECK(r.get<Decimal>(0, 5) == Decimal{-12346, 3});  // rounded half away from zero
  CHECK(r.text(0, 5) == "-12.346");
  CHECK(r.text(2, 5) == "7.000");
  CHECK(r.text(0, 6) == "1998-12-01");
  CHECK(r.text(2, 6) == "2000-02-29");
  CHECK(r.text(0, 0) == "true");
  CHECK(r.text(2, 0) == "false");
  CHECK(r.get<std::string>(2, 7) == "");
  Rows rows = to_rows(r);
  CHECK(rows[0][5] == Cell(-12.346));
  CHECK(rows[0][6] == Cell(std::string("1998-12-01")));
  CHECK(rows[0][0] == Cell(int64_t(1)));
}

TEST_CASE("INSERT: column lists, casts, NULL defaults, errors that change nothing", "[catalog]") {
  Database db(Options{ExecutorKind::Host});
  db.query("CREATE TABLE t (id INTEGER NOT NULL, name VARCHAR, price DECIMAL(15,2), day DATE)");
  db.query("INSERT INTO t (name, id) VALUES ('b', 2), ('a', -1)");
  db.query("INSERT INTO t VALUES (3, 'c', CAST('4.5' AS DECIMAL(15,2)), CAST('2001-01-01' AS DATE))");
  db.query("INSERT INTO t VALUES (4, 'a', '1.005', '2001-1-2'), (5, NULL, -3, NULL)");
  const std::string before = snapshot(db, "t");
  CHECK(before ==
        "2 | 'b' | NULL | NULL\n"
        "-1 | 'a' | NULL | NULL\n"
        "3 | 'c' | 4.5d | '2001-01-01'\n"
        "4 | 'a' | 1.01d | '2001-01-02'\n"
        "5 | NULL | -3d | NULL\n");
  auto rejected = [&](const std::string& sql, const std::string& message) {
    INFO(sql);
    CHECK_THROWS_WITH(db.query(sql), Catch::Matchers::StartsWith(message));
    CHECK(snapshot(db, "t") == before);
  };
  rejected("INSERT INTO t VALUES (1, 'x')", "Binder Error: table t has 4 columns but 2 values were supplied");
  rejected("INSERT INTO t (id) VALUES (1, 2)",
           "Binder Error: Column name/value mismatch for insert on t: expected 1 columns but 2 values were supplied");
  rejected("INSERT INTO t (nope) VALUES (1)", "Binder Error: Table \"t\" does not have a column with name \"nope\"");
  rejected("INSERT INTO t (name) VALUES ('x')", "Constraint Error: NOT NULL constraint failed: t.id");
  rejected("INSERT INTO t VALUES (NULL, 'x', 1, NULL)", "Constraint Error: NOT NULL constraint failed: t.id");
  rejected("INSERT INTO t VALUES (6, 'ok', 1, NULL), (3000000000, 'x', 1, NULL)",
           "Conversion Error: value 3000000000 is out of range for INTEGER (column \"id\")");
  rejected("INSERT INTO t VALUES (6, 'x', 'abc', NULL)",
           "Conversion Error: could not convert 'abc' to DECIMAL(15,2) (column \"price\")");
  rejected("INSERT INTO t VALUES (6, 'x', 1, '2001-02-30')",
           "Conversion Error: could not convert '2001-02-30' to DATE (column \"day\")");
  rejected("INSERT INTO t VALUES (6, 'x', 1, DATE '2001-13-01')",
           "Conversion Error: could not convert '2001-13-01' to DATE");
  rejected("INSERT INTO t VALUES (6, 'x', 10000000000000, NULL)",
           "Conversion Error: value 10000000000000 is out of range for DECIMAL(15,2) (column \"price\")");
  rejected("INSERT INTO missing VALUES (1)", "Catalog Error: Table with name missing does not exist!");
  // INSERT ... SELECT: converted to the target's types, all or nothing.
  db.query("CREATE TABLE u (n BIGINT, label VARCHAR)");
  db.query("INSERT INTO u SELECT id, name FROM t");
  CHECK(db.query("SELECT COUNT(*) FROM u").get<int64_t>(0, 0) == 5);
  rejected("INSERT INTO t (name) SELECT label FROM u", "Constraint Error: NOT NULL constraint failed: t.id");
  rejected("INSERT INTO t (id, name) SELECT n * 1000000000, label FROM u",
           "Conversion Error: value 3000000000 is out of range for INTEGER (column \"id\")");
  rejected("INSERT INTO t SELECT n, label FROM u", "Binder Error: table t has 4 columns but 2 values were supplied");
  db.query("INSERT INTO t (id, name, day) SELECT n + 10, label, '2001-01-01' FROM u WHERE n > 2");
  CHECK(snapshot(db, "t") == before + "13 | 'c' | NULL | '2001-01-01'\n14 | 'a' | NULL | '2001-01-01'\n"
                                      "15 | NULL | NULL | '2001-01-01'\n");
}

TEST_CASE("CREATE TABLE AS SELECT, DROP TABLE, SHOW TABLES, DESCRIBE", "[catalog]") {
  Database db(Options{ExecutorKind::Host});
  db.query("CREATE TABLE t (a INTEGER NOT NULL, b VARCHAR, c DECIMAL(15,2))");
  db.query("INSERT INTO t VALUES (1, 'x', 1.5), (2, NULL, NULL), (3, 'y', -2)");
  Result created = db.query("CREATE TABLE big AS SELECT a * 10 AS a10, b, c FROM t WHERE a >= 2");
  CHECK(created.status() == "created table big with 2 rows");
  CHECK(snapshot(db, "big") == "20 | NULL | NULL\n30 | 'y' | -2d\n");
  CHECK_THROWS_WITH(db.query("CREATE TABLE big (x INTEGER)"),
                    Catch::Matchers::StartsWith("Catalog Error: Table with name \"big\" already exists!"));
  CHECK(db.query("CREATE TABLE IF NOT EXISTS big (x INTEGER)").status().empty());
  CHECK(db.query("CREATE TABLE IF NOT EXISTS big AS SELECT 1 AS x FROM t").status().empty());
  CHECK(snapshot(db, "big") == "20 | NULL | NULL\n30 | 'y' | -2d\n");
  CHECK(to_string(to_rows(db.query("SHOW TABLES"))) == "'big'\n't'\n");
  Result d = db.query("DESCRIBE t");
  CHECK(d.column_name(0) == "column_name");
  CHECK(d.column_name(4) == "device_bytes");
  CHECK(to_string(to_rows(d)) ==
        "'a' | 'INTEGER' | 'NO' | 0 | 0\n"
        "'b' | 'VARCHAR' | 'YES' | 1 | 0\n"
        "'c' | 'DECIMAL(15,2)' | 'YES' | 1 | 0\n");
  CHECK_THROWS_WITH(db.query("DESCRIBE nope"), Catch::Matchers::StartsWith("Catalog Error: Table with name nope"));
  CHECK_THROWS_WITH(db.query("DROP TABLE bog"),
                    Catch::Matchers::StartsWith("Catalog Error: Table with name bog does not exist!") &&
                        Catch::Matchers::Contains("Did you mean \"big\"?"));
  CHECK(db.query("DROP TABLE IF EXISTS nope").status().empty());
  db.query("DROP TABLE big");
  CHECK(db.table_names() == std::vector<std::string>{"t"});
  CHECK_THROWS_WITH(db.query("CREATE TABLE v (a INTEGER, A BIGINT)"),
                    Catch::Matchers::StartsWith("Catalog Error: Column with name A already exists!"));
  CHECK_THROWS_WITH(db.query("CREATE TABLE v (a BLOB)"),
                    Catch::Matchers::StartsWith("Catalog Error: Type with name blob does not exist!"));
  CHECK_THROWS_WITH(db.query("CREATE TABLE v (a DECIMAL(30,20))"),
                    Catch::Matchers::StartsWith("Not implemented Error: not supported yet: DECIMAL scale above 18"));
  CHECK_THROWS_WITH(db.query("CREATE TABLE v (a DECIMAL(39,2))"),
                    Catch::Matchers::StartsWith("Binder Error: DECIMAL precision must be between 1 and 38"));
  CHECK_THROWS_WITH(db.query("CREATE TABLE v (a DECIMAL(5,6))"),
                    Catch::Matchers::StartsWith("Binder Error: DECIMAL scale must be between 0 and the precision"));
  CHECK(db.table_names() == std::vector<std::string>{"t"});
  std::vector<TableInfo> tables = db.tables();
  REQUIRE(tables.size() == 1);
  CHECK(tables[0].name == "t");
  CHECK(tables[0].rows == 3);
  CHECK(tables[0].columns == 3);
  CHECK(tables[0].device_bytes == 0);
  CHECK(tables[0].host_bytes > 0);
}

TEST_CASE("a bad file leaves COPY's table exactly as it was and says where", "[catalog][csv]") {
  TempDir dir;
  Database db(Options{ExecutorKind::Host});
  db.query("CREATE TABLE t (id INTEGER NOT NULL, amount DECIMAL(15,2), day DATE, name VARCHAR)");
  db.query("INSERT INTO t VALUES (1, 2.5, '2001-01-01', 'keep')");
  const std::string before = snapshot(db, "t");
  auto rejected = [&](const std::string& contents, const std::string& message, const std::string& options = "") {
    std::string path = dir.write("bad.csv", contents);
    std::string expected = message;
    for (std::size_t at; (at = expected.find("PATH")) != std::string::npos;) expected.replace(at, 4, path);
    INFO(contents);
    CHECK_THROWS_WITH(db.query("COPY t FROM '" + path + "'" + options), Catch::Matchers::StartsWith(expected));
    CHECK(snapshot(db, "t") == before);
  };
  rejected("2,1.5,2001-01-01,a\n3,1,2001-01-01\n",
           "Conversion Error: CSV file \"PATH\", line 2, column 15: expected 4 fields but found 3 (record "
           "\"3,1,2001-01-01\")");
  rejected("2,1.5,2001-01-01,a,b\n",
           "Conversion Error: CSV file \"PATH\", line 1, column 20: expected 4 fields but found 5 (extra field \"b\")");
  rejected("2,x,2001-01-01,a\n",
           "Conversion Error: CSV file \"PATH\", line 1, column 3: could not convert \"x\" to DECIMAL(15,2) in column "
           "\"amount\"");
  rejected("2,1,2001-01-01,a\n3000000000,1,2001-01-01,a\n",
           "Conversion Error: CSV file \"PATH\", line 2, column 1: \"3000000000\" is out of range for INTEGER in "
           "column \"id\"");
  rejected("2,1,2001-02-29,a\n", "Conversion Error: CSV file \"PATH\", line 1, column 5: could not convert "
                                 "\"2001-02-29\" to DATE in column \"day\"");
  rejected(",1,2001-01-01,a\n",
           "Conversion Error: CSV file \"PATH\", line 1, column 1: NULL in column \"id\", which is declared NOT NULL");
  rejected("2,1,2001-01-01,\"open\n", "Conversion Error: CSV file \"PATH\", line 1, column 16: unterminated quoted field");
  rejected("2,1,2001-01-01,bad\xc3\n",
           "Conversion Error: CSV file \"PATH\", line 1, column 19: invalid UTF-8 in a VARCHAR value \"bad\xc3\"");
  rejected("", "IO Error: CSV file \"PATH\" is empty");
  rejected("2|1|2001-01-01|a|\n", "Binder Error: unrecognized COPY option \"colour\"", " (COLOUR 'red')");
  CHECK_THROWS_WITH(db.query("COPY t FROM '/nonexistent/x.csv'"),
                    Catch::Matchers::StartsWith("IO Error: cannot open CSV file \"/nonexistent/x.csv\": no such file"));
  CHECK_THROWS_WITH(db.query("COPY t FROM '" + dir.path() + "'"),
                    Catch::Matchers::StartsWith("IO Error: cannot read CSV file \"" + dir.path() + "\": it is a directory"));
  CHECK_THROWS_WITH(db.query("COPY nope FROM 'x.csv'"),
                    Catch::Matchers::StartsWith("Catalog Error: Table with name nope does not exist!"));
  CHECK(snapshot(db, "t") == before);
  // The engine is still usable, and a good file still loads.
  std::string good = dir.write("good.csv", "id;amount;day;name\n2;-1;1999-12-31;\"new; one\"\n");
  CHECK(db.query("COPY t FROM '" + good + "'").status() == "loaded 1 row into t");
  CHECK(snapshot(db, "t") == before + "2 | -1d | '1999-12-31' | 'new; one'\n");
}

TEST_CASE("COPY FROM a glob pattern loads every file it matches, in name order, all or nothing", "[catalog][csv]") {
  TempDir dir;
  Database db(Options{ExecutorKind::Host});
  db.query("CREATE TABLE t (id INTEGER PRIMARY KEY, name VARCHAR)");
  db.query("INSERT INTO t VALUES (0, 'zero')");
  const std::string before = snapshot(db, "t");
  // dbgen's chunk files: byte order puts .10 between .1 and .2 (DuckDB's order too).
  dir.write("part.tbl.2", "2|b|\n3|c|\n");
  dir.write("part.tbl.1", "1|a|\n");
  dir.write("part.tbl.10", "10|j|\n");
  dir.write("other.txt", "99|x|\n");
  CHECK(db.query("COPY t FROM '" + dir.path() + "/part.tbl.*' (DELIMITER '|')").status() == "loaded 4 rows into t");
  CHECK(snapshot(db, "t") == before + "1 | 'a'\n10 | 'j'\n2 | 'b'\n3 | 'c'\n");
  const std::string loaded = snapshot(db, "t");
  // A bad file among them: its file, line and column, and t as it was.
  dir.write("more.tbl.1", "20|p|\n");
  const std::string bad = dir.write("more.tbl.2", "21|q|\nx|r|\n");
  CHECK_THROWS_WITH(db.query("COPY t FROM '" + dir.path() + "/more.tbl.?' (DELIMITER '|')"),
                    Catch::Matchers::StartsWith("Conversion Error: CSV file \"" + bad + "\", line 2, column 1: "));
  CHECK(snapshot(db, "t") == loaded);
  // A key repeated across two files (each fine alone): nothing loads.
  dir.write("keys.tbl.1", "30|s|\n");
  dir.write("keys.tbl.2", "30|t|\n");
  CHECK_THROWS_WITH(db.query("COPY t FROM '" + dir.path() + "/keys.tbl.[12]' (DELIMITER '|')"),
                    Catch::Matchers::StartsWith("Constraint Error: "));
  CHECK(snapshot(db, "t") == loaded);
  // No file matches.
  CHECK_THROWS_WITH(db.query("COPY t FROM '" + dir.path() + "/none.*'"),
                    "IO Error: No files found that match the pattern \"" + dir.path() + "/none.*\"");
  CHECK(snapshot(db, "t") == loaded);
}

TEST_CASE("read_csv options and errors", "[catalog][csv]") {
  TempDir dir;
  std::string path = dir.write("x.txt", "1;NA;a\n2;3;NA\n");
  Database db(Options{ExecutorKind::Host});
  db.query("CREATE TABLE x AS SELECT * FROM read_csv('" + path + "', delim => ';', header => false, nullstr => 'NA')");
  CHECK(snapshot(db, "x") == "1 | NULL | 'a'\n2 | 3 | NULL\n");
  Result d = db.query("DESCRIBE x");
  CHECK(d.text(0, 0) == "column0");
  CHECK(d.text(1, 1) == "INTEGER");
  CHECK_THROWS_WITH(db.query("CREATE TABLE y AS SELECT * FROM read_csv('" + path + "', colour => 'red')"),
                    Catch::Matchers::StartsWith("Binder Error: unrecognized read_csv option \"colour\""));
  CHECK_THROWS_WITH(db.query("CREATE TABLE y AS SELECT * FROM read_csv('" + path + "', delim => ';;')"),
                    Catch::Matchers::StartsWith("Binder Error: option \"delim\" takes a single character"));
  CHECK_THROWS_WITH(db.query("CREATE TABLE y AS SELECT * FROM read_csv('" + dir.path() + "/none.csv')"),
                    Catch::Matchers::StartsWith("IO Error: cannot open CSV file"));
  CHECK(db.table_names() == std::vector<std::string>{"x"});
}

TEST_CASE("read_csv of a glob pattern or a list of paths reads the files as one table", "[catalog][csv]") {
  TempDir dir;
  dir.write("sales_2.csv", "id,region,amount\n3,north,7.5\n4,,1.25\n");
  dir.write("sales_1.csv", "id,region,amount\n1,south,2\n2,north,3.5\n");
  dir.write("sales_10.csv", "id,region,amount\n9,west,0.5\n");
  Database db(Options{ExecutorKind::Host});
  // A pattern: its files in byte order (sales_10 before sales_2), one header each.
  db.query("CREATE TABLE s AS SELECT * FROM read_csv('" + dir.path() + "/sales_*.csv')");
  CHECK(snapshot(db, "s") == "1 | 'south' | 2d\n2 | 'north' | 3.5d\n9 | 'west' | 0.5d\n3 | 'north' | 7.5d\n4 | NULL | 1.25d\n");
  // A list: the files in the order given; an element may be a pattern.
  Result r = db.query("SELECT COUNT(*), SUM(amount) FROM read_csv(['" + dir.path() + "/sales_2.csv', '" + dir.path() +
                      "/sales_1*.csv'])");
  CHECK(r.text(0, 0) == "5");
  CHECK(r.text(0, 1) == "14.75");
  CHECK(db.query("SELECT MIN(id) FROM read_csv(list_value('" + dir.path() + "/sales_2.csv'))").text(0, 0) == "3");
  // FROM 'pattern' as DuckDB's replacement scan.
  CHECK(db.query("SELECT COUNT(*) FROM '" + dir.path() + "/sales_*.csv'").text(0, 0) == "5");
  // Errors: a bad file among them (its name, line, column); no match; an empty
  // list; a list element that is not a string; a list that is not closed.
  const std::string bad = dir.write("sales_3.csv", "id,region,amount\n5,east,x\n");
  CHECK_THROWS_WITH(db.query("SELECT * FROM read_csv('" + dir.path() + "/sales_*.csv')"),
                    Catch::Matchers::StartsWith("Conversion Error: CSV file \"" + bad + "\", line 2, column 8: "));
  CHECK_THROWS_WITH(db.query("SELECT * FROM read_csv(['" + dir.path() + "/sales_1.csv', '" + dir.path() + "/none*'])"),
                    "IO Error: No files found that match the pattern \"" + dir.path() + "/none*\"");
  CHECK_THROWS_WITH(db.query("SELECT * FROM read_csv([])"),
                    Catch::Matchers::StartsWith("Binder Error: read_csv needs at least one file"));
  CHECK_THROWS_WITH(db.query("SELECT * FROM read_csv(['a.csv', 1])"),
                    Catch::Matchers::StartsWith("Binder Error: option \"path\" takes a string"));
  CHECK_THROWS_WITH(db.query("SELECT * FROM read_csv(['a.csv' 'b.csv'])"),
                    "Parser Error: syntax error at or near \"'b.csv'\": expected \"]\" (line 1, column 33)\n"
                    "LINE 1: SELECT * FROM read_csv(['a.csv' 'b.csv'])\n"
                    "                                        ^");
  CHECK(db.table_names() == std::vector<std::string>{"s"});
}

TEST_CASE("inference over a sample, then the whole file validated", "[catalog][csv]") {
  TempDir dir;
  std::string text = "n,s\n";
  for (int i = 0; i < 25000; ++i) text += std::to_string(i) + ",w" + std::to_string(i % 7) + "\n";
  std::string ok = dir.write("ok.csv", text);
  std::string bad = dir.write("bad.csv", text + "oops,w1\n");
  Database db(Options{ExecutorKind::Host});
  db.load_csv("ok", ok);
  CHECK(db.query("SELECT COUNT(*), SUM(n) FROM ok").text(0, 1) == "312487500");
  CHECK_THROWS_WITH(db.load_csv("bad", bad),
                    "Conversion Error: CSV file \"" + bad +
                        "\", line 25002, column 1: could not convert \"oops\" to INTEGER in column \"n\" (its type "
                        "was inferred from the first 20480 rows)");
  CHECK(db.table_names() == std::vector<std::string>{"ok"});
}

TEST_CASE("header and delimiter detection", "[catalog][csv]") {
  TempDir dir;
  Database db(Options{ExecutorKind::Host});
  auto load = [&](const std::string& name, const std::string& text) {
    db.load_csv(name, dir.write(name + ".csv", text));
    return to_string(to_rows(db.query("SELECT * FROM " + name))) + "|" +
           to_string(to_rows(db.query("DESCRIBE " + name)));
  };
  CHECK(load("pipes", "a|b\n1|x\n2|y\n") ==
        "1 | 'x'\n2 | 'y'\n|'a' | 'INTEGER' | 'YES' | 0 | 0\n'b' | 'VARCHAR' | 'YES' | 0 | 0\n");
  CHECK(load("tabs", "1\t2.5\n3\t4\n") ==
        "1 | 2.5d\n3 | 4d\n|'column0' | 'INTEGER' | 'YES' | 0 | 0\n'column1' | 'DOUBLE' | 'YES' | 0 | 0\n");
  CHECK(load("semis", "x;y\n\"a;b\";1\n") == "'a;b' | 1\n|'x' | 'VARCHAR' | 'YES' | 0 | 0\n'y' | 'INTEGER' | 'YES' | 0 | 0\n");
  // All text: a first line without empty fields is a header.
  CHECK(load("words", "name,city\nann,rome\n") ==
        "'ann' | 'rome'\n|'name' | 'VARCHAR' | 'YES' | 0 | 0\n'city' | 'VARCHAR' | 'YES' | 0 | 0\n");
  CHECK(load("dates", "1998-12-01,5\n1999-01-01,6\n") ==
        "'1998-12-01' | 5\n'1999-01-01' | 6\n|'column0' | 'DATE' | 'YES' | 0 | 0\n'column1' | 'INTEGER' | 'YES' | 0 | 0\n");
  CHECK(load("dupes", "a,a,A\n1,2,3\n") ==
        "1 | 2 | 3\n|'a' | 'INTEGER' | 'YES' | 0 | 0\n'a_1' | 'INTEGER' | 'YES' | 0 | 0\n'A_2' | 'INTEGER' | 'YES' | 0 | 0\n");
}

// Device memory: bytes reported, the dictionary uploaded, and a load that
// does not fit fails with the bytes needed and free, every table intact.
TEST_CASE("device bytes, dictionaries on the device, and loads that do not fit", "[gpu][catalog]") {
  TempDir dir;
  std::string text = "k,name,day,amount\n";
  for (int i = 0; i < 100000; ++i)
    text += std::to_string(i) + ",n" + std::to_string(i % 100) + ",2001-01-0" + std::to_string(1 + i % 9) + "," +
            std::to_string(i % 1000) + ".25\n";
  std::string path = dir.write("big.csv", text);
  Database db(Options{ExecutorKind::Gpu});
  db.load_csv("t", path);
  Database host(Options{ExecutorKind::Host});
  host.load_csv("t", path);
  CHECK(snapshot(db, "t") == snapshot(host, "t"));
  std::vector<TableInfo> tables = db.tables();
  REQUIRE(tables.size() == 1);
  CHECK(tables[0].device_bytes >= 100000 * (4 + 4 + 4 + 8));
  Result d = db.query("DESCRIBE t");
  CHECK(d.get<int64_t>(1, 4) > 400000);  // codes plus the flat dictionary
  auto table = db.impl().catalog.find("t");
  const DeviceColumn& names = table->device->columns[1];
  CHECK(names.dictionary_entries == 100);
  CHECK(names.dictionary_offsets.size() == 101 * sizeof(uint64_t));
  CHECK(names.dictionary_bytes.size() == 10 * 2 + 90 * 3);
  // COPY appends on the device too.
  db.query("CREATE TABLE c (k INTEGER, name VARCHAR, day DATE, amount DECIMAL(15,2))");
  db.query("COPY c FROM '" + path + "'");
  db.query("COPY c FROM '" + path + "'");
  host.query("CREATE TABLE c (k INTEGER, name VARCHAR, day DATE, amount DECIMAL(15,2))");
  host.query("COPY c FROM '" + path + "'");
  host.query("COPY c FROM '" + path + "'");
  CHECK(snapshot(db, "c") == snapshot(host, "c"));
  // A glob pattern's files append one after the other, on the device too.
  dir.write("more.csv.1", "k,name,day,amount\n7,n7,2001-01-07,7.25\n");
  dir.write("more.csv.2", "k,name,day,amount\n8,new,2001-01-08,8.25\n9,n9,2001-01-09,9.25\n");
  for (Database* d : {&db, &host}) CHECK(d->query("COPY c FROM '" + dir.path() + "/more.csv.*'").status() == "loaded 3 rows into c");
  CHECK(snapshot(db, "c") == snapshot(host, "c"));
  // read_csv of a list: the files as one table, on the device too.
  const std::string listed = "read_csv(['" + dir.path() + "/more.csv.2', '" + dir.path() + "/more.csv.1'])";
  for (Database* d : {&db, &host}) d->query("CREATE TABLE l AS SELECT * FROM " + listed);
  CHECK(snapshot(db, "l") == snapshot(host, "l"));
  CHECK(db.query("SELECT name, SUM(amount) FROM " + listed + " GROUP BY name ORDER BY name").text(0, 0) == "n7");
  for (Database* d : {&db, &host}) d->query("DROP TABLE l");
  // Out of memory: a cap just above what is in use.
  const std::string before = snapshot(db, "c");
  DeviceContext& device = *db.impl().device;
  device.set_memory_cap(device.bytes_in_use() + 1000);
  CHECK_THROWS_WITH(db.load_csv("u", path),
                    Catch::Matchers::StartsWith("Out of Memory Error: out of GPU memory: table \"u\" needs") &&
                        Catch::Matchers::Contains("free; no table was changed"));
  CHECK_THROWS_WITH(db.query("COPY c FROM '" + path + "'"),
                    Catch::Matchers::Contains("out of GPU memory: table \"c\" needs"));
  CHECK_THROWS_AS(db.query("INSERT INTO c VALUES (1, 'x', NULL, 1)"), Error);
  device.set_memory_cap(0);
  CHECK(snapshot(db, "c") == before);
  CHECK(db.table_names() == std::vector<std::string>{"c", "t"});
  db.query("INSERT INTO c VALUES (1, 'x', NULL, 1)");
  CHECK(db.query("SELECT COUNT(*) FROM c").get<int64_t>(0, 0) == 200004);  // 2 x 100000, 3 from the pattern, 1
}

TEST_CASE("FROM 'file.csv' reads the file as read_csv does, named by its stem (DuckDB's replacement scan)", "[catalog][csv]") {
  TempDir dir;
  std::string path = dir.write("people.csv", "id,name\n1,ann\n2,bob\n3,\n");
  Database db(Options{ExecutorKind::Host});
  Result r = db.query("SELECT people.id, name FROM '" + path + "' WHERE id >= 2 ORDER BY id");
  REQUIRE(r.row_count() == 2);
  CHECK(r.column_name(0) == "id");
  CHECK(r.text(0, 1) == "bob");
  CHECK(r.is_null(1, 1));
  CHECK(db.query("SELECT COUNT(*) FROM '" + path + "' AS p JOIN '" + path + "' q ON p.id = q.id").text(0, 0) == "3");
  db.query("CREATE TABLE copied AS SELECT * FROM '" + path + "'");
  CHECK(snapshot(db, "copied") == "1 | 'ann'\n2 | 'bob'\n3 | NULL\n");
  CHECK_THROWS_WITH(db.query("SELECT * FROM '" + dir.path() + "/t.parquet'"),
                    Catch::Matchers::StartsWith("Not implemented Error: not supported yet: reading '"));
  CHECK_THROWS_WITH(db.query("SELECT * FROM '" + dir.path() + "/none.csv'"),
                    Catch::Matchers::StartsWith("IO Error: cannot open CSV file"));
  CHECK(db.table_names() == std::vector<std::string>{"copied"});
}

namespace {

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Every cell as text (NULL as nullopt), for comparing two tables.
TextRows table_rows(Database& db, const std::string& sql) {
  Result r = db.query(sql);
  TextRows rows;
  for (std::size_t i = 0; i < r.row_count(); ++i) {
    std::vector<std::optional<std::string>> row;
    for (std::size_t c = 0; c < r.column_count(); ++c)
      row.push_back(r.is_null(i, c) ? std::nullopt : std::optional<std::string>(r.text(i, c)));
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

TEST_CASE("COPY ... TO writes CSV as DuckDB writes it, and COPY ... FROM reads it back the same", "[catalog]") {
  TempDir dir;
  Database db(Options{ExecutorKind::Host});
  db.query("CREATE TABLE t (a INTEGER, s VARCHAR, d DOUBLE, x DECIMAL(5,2), dt DATE, b BOOLEAN, big BIGINT, "
           "r REAL)");
  db.query("INSERT INTO t VALUES (1, 'plain', 1.5, 1.25, DATE '2020-01-02', true, 9223372036854775807, 0.1), "
           "(NULL, 'with,comma', NULL, NULL, NULL, NULL, NULL, NULL), "
           "(3, 'quote\"inside', 3.0, -0.5, DATE '1999-12-31', false, -9223372036854775808, -2.5), "
           "(4, '', 0.0005, 0, NULL, NULL, 0, 0), "
           "(5, 'line\nbreak', 1e20, NULL, NULL, NULL, NULL, NULL), "
           "(6, NULL, -2.25, 999.99, DATE '0001-01-01', true, 1, 3.4e38)");
  const std::string path = dir.path() + "/t.csv";
  Result status = db.query("COPY t TO '" + path + "'");
  CHECK(status.status() == "wrote 6 rows to " + path);
  // DuckDB 1.5's file for the same rows, byte for byte: a header, NULL as
  // nothing, '' quoted, quotes doubled, doubles as DuckDB prints them.
  CHECK(file_text(path) ==
        "a,s,d,x,dt,b,big,r\n"
        "1,plain,1.5,1.25,2020-01-02,true,9223372036854775807,0.1\n"
        ",\"with,comma\",,,,,,\n"
        "3,\"quote\"\"inside\",3.0,-0.50,1999-12-31,false,-9223372036854775808,-2.5\n"
        "4,\"\",0.0005,0.00,,,0,0.0\n"
        "5,\"line\nbreak\",1e+20,,,,,\n"
        "6,,-2.25,999.99,0001-01-01,true,1,3.4e+38\n");
  // Read back: the same rows.
  db.query("CREATE TABLE back (a INTEGER, s VARCHAR, d DOUBLE, x DECIMAL(5,2), dt DATE, b BOOLEAN, big BIGINT, "
           "r REAL)");
  db.query("COPY back FROM '" + path + "' (HEADER)");
  CHECK(table_rows(db, "SELECT * FROM back") == table_rows(db, "SELECT * FROM t"));
  CHECK(table_rows(db, "SELECT COUNT(*) FROM back WHERE s = ''") == TextRows{{std::string("1")}});

  // A query, no header, another delimiter, a NULL text (a field equal to it
  // is quoted; '' is not, as NULL no longer writes as nothing): DuckDB's files.
  const std::string piped = dir.path() + "/q.csv";
  db.query("COPY (SELECT a, s FROM t WHERE a >= 3 ORDER BY a) TO '" + piped + "' (HEADER false, DELIMITER '|', "
           "NULL 'NA')");
  CHECK(file_text(piped) == "3|\"quote\"\"inside\"\n4|\n5|\"line\nbreak\"\n6|NA\n");
  db.query("COPY (SELECT 'NA' AS s, NULL AS n) TO '" + piped + "' WITH (NULL 'NA', HEADER 0)");
  CHECK(file_text(piped) == "\"NA\",NA\n");

  // Errors change nothing: the file keeps its old contents, no partial file.
  const std::string before = file_text(path);
  CHECK_THROWS_WITH(db.query("COPY t TO '" + path + "' (DELIMITER '')"), Catch::Contains("one character"));
  CHECK_THROWS_WITH(db.query("COPY t TO '" + path + "' (COMPRESSION 'gzip')"),
                    Catch::Contains("unrecognized COPY option \"compression\""));
  CHECK_THROWS_WITH(db.query("COPY t TO '" + path + "' (FORMAT parquet)"),
                    Catch::Contains("Not implemented Error: not supported yet: COPY ... TO in a format other than csv"));
  CHECK_THROWS_WITH(db.query("COPY (SELECT big * 2 FROM t) TO '" + path + "'"), Catch::Contains("overflow"));
  CHECK_THROWS_WITH(db.query("COPY missing TO '" + path + "'"), Catch::Contains("missing"));
  CHECK_THROWS_WITH(db.query("COPY (SELECT 1) FROM '" + path + "'"), Catch::Contains("cannot read FROM one"));
  CHECK_THROWS_WITH(db.query("COPY t TO '" + dir.path() + "/no/such/dir/x.csv'"),
                    Catch::Contains("IO Error: could not open"));
  CHECK_THROWS_WITH(db.query("COPY t INTO '" + path + "'"), Catch::Contains("FROM or TO"));
  CHECK(file_text(path) == before);
  CHECK_FALSE(std::ifstream(path + ".gpusql-partial").good());
}

namespace {

// A CSV field as RFC 4180 quotes it where it must (DuckDB's rule with NULL
// written as nothing: '' quoted too): the test's own writer, row by row.
std::string csv_field(const std::string& text) {
  if (!text.empty() && text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// What COPY ... TO must write for `sql`'s rows: a header, then each row.
std::string expected_csv(Database& db, const std::string& sql) {
  Result r = db.query(sql);
  std::string out;
  for (std::size_t c = 0; c < r.column_count(); ++c) out += (c ? "," : "") + csv_field(r.column_name(c));
  out += "\n";
  for (std::size_t i = 0; i < r.row_count(); ++i) {
    for (std::size_t c = 0; c < r.column_count(); ++c) {
      if (c) out += ",";
      if (!r.is_null(i, c)) out += csv_field(r.text(i, c));
    }
    out += "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("COPY ... TO writes many rows on every core in order, and COPY ... FROM reads them back the same",
          "[catalog][csv]") {
  // 100,003 rows: several blocks of the parallel writer and a short last one;
  // every type, NULLs, quotes, delimiters and line breaks in strings, a
  // VARCHAR of few values and one of a value per row.
  TempDir dir;
  constexpr int kRows = 100003;
  const char* const kWords[] = {"plain", "with,comma", "quote\"in", "line\nbreak", "", "cr\rhere"};
  const char* const kDates[] = {"2020-01-02", "1999-12-31", "0001-01-01", "9999-12-31", "1970-01-01"};
  std::string input = "a,s,u,d,x,dt,b\n";
  for (int i = 0; i < kRows; ++i) {
    input += i % 97 == 0 ? "" : std::to_string(i * 7919 % 100003 - 50000);
    input += ",";
    input += i % 11 == 0 ? "" : csv_field(kWords[i % 6]);
    input += "," + csv_field("u" + std::to_string(i) + (i % 5 == 0 ? ",x" : ""));
    input += "," + (i % 13 == 0 ? std::string() : std::to_string(i / 8.0 - 100));
    input += std::string(",") + (i % 2 ? "-" : "") + std::to_string(i * 1234 % 1000000 / 1000) + "." +
             std::to_string(1000 + i % 1000).substr(1);  // -0.001 and 0.000 among them
    input += "," + std::string(i % 7 == 0 ? "" : kDates[i % 5]);
    input += "," + std::string(i % 3 == 0 ? "true" : i % 3 == 1 ? "false" : "");
    input += "\n";
  }
  const std::string source = dir.write("source.csv", input);
  Database db(Options{ExecutorKind::Host});
  const std::string columns = "(a INTEGER, s VARCHAR, u VARCHAR, d DOUBLE, x DECIMAL(12,3), dt DATE, b BOOLEAN)";
  db.query("CREATE TABLE t " + columns);
  db.query("COPY t FROM '" + source + "' (HEADER)");
  REQUIRE(db.query("SELECT COUNT(*) FROM t").get<int64_t>(0, 0) == kRows);

  const std::string path = dir.path() + "/t.csv";
  CHECK(db.query("COPY t TO '" + path + "'").status() == "wrote 100003 rows to " + path);
  CHECK(file_text(path) == expected_csv(db, "SELECT * FROM t"));
  db.query("CREATE TABLE back " + columns);
  db.query("COPY back FROM '" + path + "' (HEADER)");
  CHECK(table_rows(db, "SELECT * FROM back") == table_rows(db, "SELECT * FROM t"));

  // A query keeping few rows of a column of many strings (the strings are
  // quoted row by row, not dictionary entry by entry), and one of no rows.
  const std::string some = "SELECT u, s, a FROM t WHERE a % 1000 = 7 ORDER BY u DESC";
  db.query("COPY (" + some + ") TO '" + path + "'");
  const std::string written = file_text(path);
  CHECK(written == expected_csv(db, some));
  CHECK(std::count(written.begin(), written.end(), '\n') > 50);
  db.query("COPY (SELECT u FROM t WHERE a > 1000000) TO '" + path + "'");
  CHECK(file_text(path) == "u\n");
}

namespace {

// DECIMAL(38, s) columns through COPY: 128-bit values read exactly, a bad
// one named and nothing loaded, and COPY TO writing what COPY FROM reads.
void check_wide_decimal_copy(ExecutorKind kind) {
  TempDir dir;
  const std::string path = dir.write("wide.csv",
                                     "k|amount|big\n"
                                     "1|123456789012345678901234567890123456.78|-99999999999999999999999999\n"
                                     "2|-0.05|18446744073709551616\n"
                                     "3|  42 |0\n"
                                     "4|999999999999999999999999999999999999.994|1e20\n");
  Database db(Options{kind});
  db.query("CREATE TABLE w (k INTEGER, amount DECIMAL(38,2), big DECIMAL(26,0))");
  CHECK(db.query("COPY w FROM '" + path + "' (DELIMITER '|', HEADER)").status() == "loaded 4 rows into w");
  // DuckDB 1.5 reads the same file to these values (.994 rounds to .99; 1e20 is exact).
  CHECK(table_rows(db, "SELECT * FROM w ORDER BY k") ==
        TextRows{{std::string("1"), std::string("123456789012345678901234567890123456.78"),
                  std::string("-99999999999999999999999999")},
                 {std::string("2"), std::string("-0.05"), std::string("18446744073709551616")},
                 {std::string("3"), std::string("42.00"), std::string("0")},
                 {std::string("4"), std::string("999999999999999999999999999999999999.99"),
                  std::string("100000000000000000000")}});
  CHECK(table_rows(db, "SELECT SUM(big), MAX(amount) FROM w") ==
        TextRows{{std::string("-99999881553255926290448383"), std::string("999999999999999999999999999999999999.99")}});

  // A value past the precision fails the whole COPY, naming file, line and column.
  const std::string bad = dir.write("bad.csv", "k|amount|big\n5|1.5|7\n6|0|123456789012345678901234567\n");
  CHECK_THROWS_WITH(db.query("COPY w FROM '" + bad + "' (DELIMITER '|', HEADER)"),
                    Catch::Contains("bad.csv\", line 3, column 5: \"123456789012345678901234567\" is out of range for DECIMAL(26,0)"));
  CHECK(db.query("SELECT COUNT(*) FROM w").get<int64_t>(0, 0) == 4);

  // COPY TO writes every digit, and reads back the same.
  const std::string out = dir.path() + "/out.csv";
  db.query("COPY w TO '" + out + "'");
  CHECK(file_text(out) == "k,amount,big\n"
                          "1,123456789012345678901234567890123456.78,-99999999999999999999999999\n"
                          "2,-0.05,18446744073709551616\n"
                          "3,42.00,0\n"
                          "4,999999999999999999999999999999999999.99,100000000000000000000\n");
  db.query("CREATE TABLE back (k INTEGER, amount DECIMAL(38,2), big DECIMAL(26,0))");
  db.query("COPY back FROM '" + out + "' (HEADER)");
  CHECK(table_rows(db, "SELECT * FROM back ORDER BY k") == table_rows(db, "SELECT * FROM w ORDER BY k"));
}

}  // namespace

TEST_CASE("DECIMAL(38, s) columns: COPY FROM reads 128-bit values exactly, COPY TO writes them back",
          "[catalog][csv]") {
  check_wide_decimal_copy(ExecutorKind::Host);
}

TEST_CASE("DECIMAL(38, s) columns through COPY on the CUDA executor", "[gpu][catalog]") {
  check_wide_decimal_copy(ExecutorKind::Gpu);
}

namespace {

// A loaded column of plain strings (SET plain_strings_rows = 0) against the
// same file loaded with a dictionary, on one executor: LIKE reads the plain
// strings row by row (on the CUDA executor, where they live: the device)
// and leaves the column unencoded; the first other
// statement that reads it encodes it; every answer is the dictionary's.
void check_plain_strings(ExecutorKind kind) {
  TempDir dir;
  std::string text = "id,s\n";
  std::size_t starts_with_1 = 0, valid = 0;
  for (int i = 0; i < 5000; ++i) {
    const bool null = i % 37 == 11;
    const std::string s = std::to_string(i * 7919 % 10007) + (i % 3 ? "ab" : "Ab");
    text += std::to_string(i) + "," + (null ? "" : s) + "\n";
    if (!null) {
      ++valid;
      starts_with_1 += s[0] == '1';
    }
  }
  const std::string path = dir.write("s.csv", text);
  Settings plain_settings, dictionary_settings;
  plain_settings.plain_strings_rows = 0;
  dictionary_settings.plain_strings_rows = uint64_t(1) << 40;
  Database plain(Options{kind, plain_settings}), dictionary(Options{kind, dictionary_settings});
  for (Database* db : {&plain, &dictionary}) db->load_csv("t", path);
  std::shared_ptr<const Table> table = plain.impl().catalog.find("t");
  REQUIRE(table->is_plain(1));
  CHECK(!dictionary.impl().catalog.find("t")->is_plain(1));
  auto same = [&](const std::string& sql) {
    INFO(sql);
    const std::string expected = to_string(to_rows(dictionary.query(sql)));
    CHECK(to_string(to_rows(plain.query(sql))) == expected);
    return expected;
  };
  // LIKE, NOT LIKE, NULL rows, '_' and case: no encoding.
  same("SELECT id, s LIKE '%7%', s NOT LIKE '1%', s LIKE '%a_' FROM t ORDER BY id");
  same("SELECT count(*) FROM t WHERE s LIKE '%Ab' OR s LIKE '2_%'");
  CHECK(plain.query("SELECT count(*) FROM t WHERE s LIKE '1%'").get<int64_t>(0, 0) == int64_t(starts_with_1));
  CHECK(plain.query("SELECT count(*) FROM t WHERE s NOT LIKE '1%'").get<int64_t>(0, 0) ==
        int64_t(valid - starts_with_1));
  same("SELECT t.id FROM t JOIN t AS u ON t.id = u.id + 1 WHERE u.s LIKE '%99%' ORDER BY 1");
  CHECK(table->scan_column(1) == nullptr);
  // Anything else encodes the column; LIKE then reads the dictionary.
  same("SELECT count(*), min(s), max(s) FROM t WHERE s > '5'");
  // On the device, the encoding is made there: the host gets its
  // dictionary, not the codes (until a host reader asks for them).
  if (kind == ExecutorKind::Gpu) CHECK(table->host_bytes() == flat_dictionary_bytes(*table->dictionary(1)));
  CHECK(table->scan_column(1) != nullptr);
  same("SELECT s, count(*) FROM t WHERE s LIKE '%00%' GROUP BY s ORDER BY s");
  same("SELECT * FROM t ORDER BY s, id");
  // An INSERT keeps the column plain, in a new version no statement has encoded yet.
  for (Database* db : {&plain, &dictionary})
    db->query("INSERT INTO t VALUES (5000, 'zz new'), (5001, NULL), (5002, '17ab'), (5003, '')");
  std::shared_ptr<const Table> inserted = plain.impl().catalog.find("t");
  REQUIRE(inserted->rows == 5004);
  CHECK(inserted->is_plain(1));
  CHECK(inserted->scan_column(1) == nullptr);
  CHECK(inserted->null_count(1) == 5000 - valid + 1);
  same("SELECT id, s LIKE '%new', s NOT LIKE '' FROM t WHERE s LIKE '%new' OR s LIKE '17ab' OR s LIKE '' ORDER BY id");
  CHECK(inserted->scan_column(1) == nullptr);
  // A LIKE inside CAST(... AS VARCHAR) reads the column encoded (the cast's
  // strings come from one column's values), even before any other
  // statement has encoded it: not an error until then.
  CHECK(same("SELECT id, CAST(s LIKE '%new' AS VARCHAR) FROM t WHERE id >= 4999 ORDER BY id") ==
        "4999 | 'false'\n5000 | 'true'\n5001 | NULL\n5002 | 'false'\n5003 | 'false'\n");
  CHECK(inserted->scan_column(1) != nullptr);
  same("SELECT * FROM t ORDER BY s, id");
}

}  // namespace

TEST_CASE("plain strings: LIKE reads them row by row, other statements encode them", "[catalog][plain]") {
  check_plain_strings(ExecutorKind::Host);
}

TEST_CASE("plain strings on the CUDA executor: LIKE matches them on the device", "[gpu][catalog][plain]") {
  check_plain_strings(ExecutorKind::Gpu);
}
