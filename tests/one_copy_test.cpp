// One copy of a table: on the GPU executor a table the database makes lives
// on the device alone (the host keeps types, dictionaries, statistics and
// plain strings), unless SET host_mirror asks for a host copy too. Every
// statement on such a table -- loads, appends, INSERT, UPDATE, DELETE, key
// checks, DESCRIBE, SUMMARIZE, COPY TO, CAST to VARCHAR -- answers as the
// host executor does.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "engine/database_impl.hpp"
#include "storage/csv_reader.hpp"
#include "storage/device_table.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;
using namespace gpusql::test;

namespace {

// Every value of every row as text, in order.
std::string result_text(const Result& r) {
  std::string out;
  for (std::size_t row = 0; row < r.row_count(); ++row) {
    for (std::size_t c = 0; c < r.column_count(); ++c) out += (c ? "|" : "") + r.text(row, c);
    out += "\n";
  }
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Rows `first`..`first + count - 1`: id, a BIGINT and a DECIMAL with NULLs,
// `s` of `kinds` distinct values (a dictionary), `p` all distinct (plain).
std::string rows_csv(int first, int count, int kinds) {
  std::string text;
  for (int i = first; i < first + count; ++i) {
    text += std::to_string(i) + ",";
    if (i % 17 != 3) text += std::to_string(i * 31 % 1009 - 500);
    text += "," + std::to_string(i * 7 % 100000) + "." + std::to_string(i % 10) + "5,";
    if (i % 23 != 5) text += "kind" + std::to_string(i % kinds);
    text += ",p" + std::to_string(i * 7919 % 100003) + "\n";
  }
  return text;
}

// Each line of `text` without its last |-separated field.
std::string without_last_fields(const std::string& text) {
  std::string out;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    out += line.substr(0, line.rfind('|')) + "\n";
    start = end + 1;
  }
  return out;
}

std::size_t columns_on_host(const Database& db, const std::string& name) {
  std::shared_ptr<const Table> table = const_cast<Database&>(db).impl().catalog.find(name);
  std::size_t held = 0;
  for (std::size_t c = 0; c < table->columns.size(); ++c) held += table->has_host_copy(c);
  return held;
}

}  // namespace

TEST_CASE("one copy: a table on the CUDA executor lives on the device alone", "[gpu][catalog][one_copy]") {
  TempDir dir;
  const std::string first = dir.write("first.csv", rows_csv(0, 6000, 20));
  const std::string second = dir.write("second.csv", rows_csv(6000, 3000, 30));  // new strings: codes change
  Settings defaults, mirrored_settings;
  // s (20 values) stays a dictionary, p (all distinct) goes plain.
  defaults.plain_strings_rows = mirrored_settings.plain_strings_rows = 1;
  mirrored_settings.host_mirror = true;
  Database alone(Options{ExecutorKind::Gpu, defaults}), mirrored(Options{ExecutorKind::Gpu, mirrored_settings}),
      host(Options{ExecutorKind::Host, defaults});
  std::vector<Database*> all = {&alone, &mirrored, &host};
  auto run_all = [&](const std::string& sql) {
    for (Database* db : all) db->query(sql);
  };
  auto same = [&](const std::string& sql) {
    INFO(sql);
    const std::string expected = result_text(host.query(sql));
    CHECK(result_text(alone.query(sql)) == expected);
    CHECK(result_text(mirrored.query(sql)) == expected);
  };
  auto same_everywhere = [&] {
    same("SELECT * FROM t ORDER BY id");
    same("SELECT s, count(*), count(v), sum(v), sum(d), min(d), max(p) FROM t GROUP BY s ORDER BY s");
    same("SELECT count(*) FROM t WHERE p LIKE '%77%' AND v > 0");
    same("SELECT id, CAST(v AS VARCHAR) FROM t WHERE id % 97 = 1 ORDER BY id");
    same("SUMMARIZE t");
    // DESCRIBE's last column is the device's bytes: none on the host.
    // (The plain strings' device form makes the first differ there too.)
    const std::string described = without_last_fields(result_text(alone.query("DESCRIBE t")));
    CHECK(without_last_fields(result_text(mirrored.query("DESCRIBE t"))) == described);
    CHECK(without_last_fields(result_text(host.query("DESCRIBE t"))) == described);
  };

  run_all("CREATE TABLE t (id INTEGER PRIMARY KEY, v BIGINT, d DECIMAL(9,2), s VARCHAR, p VARCHAR)");
  run_all("COPY t FROM '" + first + "'");
  std::shared_ptr<const Table> t = alone.impl().catalog.find("t");
  REQUIRE(t->rows == 6000);
  CHECK(t->is_plain(4));
  CHECK(!t->is_plain(3));
  CHECK(!t->host[4].is_plain());  // on the device, in their own form
  CHECK(t->device->columns[4].plain_strings());
  // No column stays on the host; the mirror keeps every column.
  CHECK(columns_on_host(alone, "t") == 0);
  CHECK(columns_on_host(mirrored, "t") == 5);
  CHECK(alone.tables()[0].host_bytes < mirrored.tables()[0].host_bytes);
  // The device holds the plain strings too: offsets and bytes.
  const StringPool& p_strings = *mirrored.impl().catalog.find("t")->host[4].strings;
  CHECK(alone.tables()[0].device_bytes ==
        mirrored.tables()[0].device_bytes + (p_strings.size() + 1) * sizeof(uint64_t) + p_strings.byte_size());
  // Statistics were taken before the values left.
  CHECK(t->null_count(1) == mirrored.impl().catalog.find("t")->null_count(1));
  CHECK(t->value_range(0).known);
  same_everywhere();

  // An append: the old rows come from the device, the new dictionary
  // recodes them.
  run_all("COPY t FROM '" + second + "'");
  CHECK(alone.impl().catalog.find("t")->rows == 9000);
  CHECK(alone.impl().catalog.find("t")->is_plain(4));
  CHECK(columns_on_host(alone, "t") == 0);
  same_everywhere();

  run_all("INSERT INTO t VALUES (9000, NULL, 1.25, 'new kind', 'new p'), (9001, 7, NULL, NULL, NULL)");
  same_everywhere();
  // A key violation leaves every version as it was.
  for (Database* db : all)
    CHECK_THROWS_WITH(db->query("INSERT INTO t VALUES (17, 1, 1, 'x', 'y')"), Catch::Contains("Duplicate key"));
  for (Database* db : all)
    CHECK_THROWS_WITH(db->query("CREATE UNIQUE INDEX si ON t (s)"), Catch::Contains("contains duplicates"));
  run_all("UPDATE t SET v = v + 1, s = 'updated' WHERE id % 3 = 0");
  same_everywhere();
  run_all("DELETE FROM t WHERE id % 5 = 0");
  // UPDATE and DELETE make the new version from a query's result: no
  // column is plain any more, and none stays on the host.
  CHECK(columns_on_host(alone, "t") == 0);
  CHECK(columns_on_host(mirrored, "t") == 5);
  same_everywhere();

  for (Database* db : all) {
    const std::string name = db == &alone ? "alone" : db == &mirrored ? "mirrored" : "host";
    db->query("COPY t TO '" + dir.path() + "/" + name + ".csv' (HEADER)");
  }
  const std::string written = read_file(dir.path() + "/host.csv");
  CHECK(written.size() > 100000);
  CHECK(read_file(dir.path() + "/alone.csv") == written);
  CHECK(read_file(dir.path() + "/mirrored.csv") == written);

  // CREATE TABLE AS, and the setting turned on for later tables only.
  run_all("CREATE TABLE u AS SELECT s, sum(v) AS v FROM t GROUP BY s");
  CHECK(columns_on_host(alone, "u") == 0);
  alone.query("SET host_mirror = true");
  alone.query("CREATE TABLE w AS SELECT * FROM u");
  CHECK(columns_on_host(alone, "w") == 2);
  CHECK(columns_on_host(alone, "u") == 0);
  same("SELECT * FROM u ORDER BY s");
}

TEST_CASE("one copy: SET host_mirror changes nothing on the host executor", "[catalog][one_copy]") {
  Database db(Options{ExecutorKind::Host, Settings{}});
  CHECK_FALSE(db.impl().settings.host_mirror);
  db.query("CREATE TABLE t AS SELECT 1 AS a, 'x' AS b");
  CHECK(columns_on_host(db, "t") == 2);
  db.query("SET host_mirror = true");
  CHECK(db.impl().settings.host_mirror);
  db.query("INSERT INTO t VALUES (2, 'y')");
  CHECK(columns_on_host(db, "t") == 2);
  CHECK(db.impl().catalog.find("t")->rows == 2);
}

namespace {

// `rows` rows of every kind of column a stream treats apart: INTEGER,
// DOUBLE, DATE, DECIMAL, BOOLEAN, a dictionary VARCHAR and a plain one (with
// quotes, doubled quotes and line breaks), NULLs in each but the first; a
// blank line every `blank_every` rows (0: none).
std::string stream_csv(int rows, int blank_every) {
  std::string text = "id,x,day,amount,flag,kind,note\n";
  for (int i = 0; i < rows; ++i) {
    if (blank_every && i % blank_every == 7) text += "\n";
    text += std::to_string(i) + ",";
    if (i % 13 != 2) text += std::to_string((i * 37 % 2003) - 1000) + "." + std::to_string(i % 8) + "25";
    text += ",";
    if (i % 17 != 4) text += "199" + std::to_string(i % 10) + "-0" + std::to_string(1 + i % 9) + "-1" + std::to_string(i % 10);
    text += ",";
    if (i % 19 != 6) text += std::to_string(i * 7 % 100000 - 50000) + "." + std::to_string(i % 100 / 10) + "5";
    text += ",";
    if (i % 11 != 3) text += i % 3 ? "true" : "false";
    text += ",";
    if (i % 23 != 5) text += "kind" + std::to_string(i * 5 % 37);
    text += ",";
    if (i % 29 == 8) {
    } else if (i % 31 == 9) {
      text += "\"say \"\"" + std::to_string(i) + "\"\"\nthen, go\"";
    } else {
      text += "n" + std::to_string(i * 7919 % 200003);
    }
    text += "\n";
  }
  return text;
}

}  // namespace

TEST_CASE("one copy: a CSV load to the device alone streams its chunks and equals the host's load",
          "[gpu][catalog][one_copy]") {
  Database db(Options{ExecutorKind::Gpu, Settings{}});
  DeviceContext& device = *db.impl().device;
  for (int blank_every : {0, 5000}) {
    INFO("a blank line every " << blank_every << " rows");
    const std::string text = stream_csv(150000, blank_every);
    CsvLoadSpec host_spec;
    host_spec.table_name = "t";
    host_spec.chunk_bytes = 64 * 1024;  // about a hundred chunks
    host_spec.plain_strings_rows = 1000;
    CsvLoadSpec stream_spec = host_spec;
    stream_spec.device = &device;
    stream_spec.device_only = true;
    std::shared_ptr<Table> expected = load_csv_text(text, "s.csv", host_spec);
    std::shared_ptr<Table> streamed = load_csv_text(text, "s.csv", stream_spec);
    REQUIRE(streamed->rows == 150000);
    REQUIRE(expected->rows == 150000);
    REQUIRE(streamed->device);
    REQUIRE(streamed->columns.size() == 7);
    CHECK(streamed->is_plain(6));
    CHECK(!streamed->is_plain(5));
    for (std::size_t c = 0; c < 7; ++c) {
      INFO("column " << c);
      CHECK(streamed->columns[c].type == expected->columns[c].type);
      CHECK(!streamed->has_host_copy(c));  // never whole on the host
      const HostColumn& want = expected->host[c];
      HostColumn got = download_column(streamed->device->columns[c], streamed->rows);
      CHECK(got.bytes == want.bytes);
      CHECK(got.validity == want.validity);
      if (want.is_plain()) {
        REQUIRE(got.strings);
        CHECK(std::equal(got.strings->begin(), got.strings->end(), want.strings->begin(), want.strings->end()));
      }
      if (want.dictionary) {
        REQUIRE(streamed->host[c].dictionary);
        CHECK(std::equal(streamed->host[c].dictionary->values.begin(), streamed->host[c].dictionary->values.end(),
                         want.dictionary->values.begin(), want.dictionary->values.end()));
      }
      // The statistics the host takes from whole columns, from the chunks.
      CHECK(streamed->null_count(c) == want.null_count());
      CHECK((c == 0 || streamed->null_count(c) > 0));
      const ValueRange range = streamed->value_range(c), want_range = expected->value_range(c);
      CHECK(range.known == want_range.known);
      CHECK(range.min == want_range.min);
      CHECK(range.max == want_range.max);
      CHECK(streamed->distinct_estimate(c) == expected->distinct_estimate(c));
    }
  }
}

TEST_CASE("one copy: COPY into an empty table streams it; a fault anywhere loads nothing", "[gpu][catalog][one_copy]") {
  TempDir dir;
  const std::string good = dir.write("good.csv", rows_csv(0, 70000, 20));
  const std::string bad = dir.write("bad.csv", rows_csv(0, 70000, 20) + "70000,1,2.5,kind1,p1,extra\n");
  Settings settings;
  settings.plain_strings_rows = 1000;  // p is plain
  Database alone(Options{ExecutorKind::Gpu, settings}), host(Options{ExecutorKind::Host, settings});
  for (Database* db : {&alone, &host}) {
    db->query("CREATE TABLE t (id INTEGER, v BIGINT, d DECIMAL(9,2), s VARCHAR, p VARCHAR)");
    CHECK_THROWS_WITH(db->query("COPY t FROM '" + bad + "'"), Catch::Contains("line 70001"));
    CHECK(db->impl().catalog.find("t")->rows == 0);
    db->query("COPY t FROM '" + good + "'");
  }
  std::shared_ptr<const Table> t = alone.impl().catalog.find("t");
  CHECK(columns_on_host(alone, "t") == 0);
  CHECK(t->is_plain(4));
  for (const char* sql : {"SELECT count(*), count(v), sum(v), sum(d), count(DISTINCT s), min(p), max(p) FROM t",
                          "SELECT s, count(*), min(id), max(d) FROM t GROUP BY s ORDER BY s",
                          "SELECT count(*) FROM t WHERE p LIKE '%77%'", "SUMMARIZE t"}) {
    INFO(sql);
    CHECK(result_text(alone.query(sql)) == result_text(host.query(sql)));
  }
}

TEST_CASE("one copy: COPY TO of a table on the device alone fetches it a slice at a time, and writes the host's file",
          "[gpu][catalog][one_copy]") {
  // More rows than two of COPY TO's 2^22-row slices, ending inside a
  // validity word: slices fetched ahead while the one before is written
  // (plain strings, a dictionary, NULLs in three columns).
  TempDir dir;
  constexpr int kRows = (1 << 23) + 40003;
  const std::string source = dir.write("t.csv", rows_csv(0, kRows, 37));
  Settings settings;
  settings.plain_strings_rows = 1000;  // p is plain
  Database alone(Options{ExecutorKind::Gpu, settings}), host(Options{ExecutorKind::Host, settings});
  for (Database* db : {&alone, &host}) {
    db->query("CREATE TABLE t (id INTEGER, v BIGINT, d DECIMAL(9,2), s VARCHAR, p VARCHAR)");
    db->query("COPY t FROM '" + source + "'");
  }
  REQUIRE(columns_on_host(alone, "t") == 0);
  REQUIRE(alone.impl().catalog.find("t")->is_plain(4));
  alone.query("COPY t TO '" + dir.path() + "/alone.csv' (DELIMITER '|')");
  host.query("COPY t TO '" + dir.path() + "/host.csv' (DELIMITER '|')");
  const std::string written = read_file(dir.path() + "/host.csv");
  CHECK(std::count(written.begin(), written.end(), '\n') == kRows + 1);
  CHECK(read_file(dir.path() + "/alone.csv") == written);
  // The same rows through a query's result.
  alone.query("COPY (SELECT * FROM t) TO '" + dir.path() + "/query.csv' (DELIMITER '|')");
  CHECK(read_file(dir.path() + "/query.csv") == written);
}

TEST_CASE("one copy: an empty COPY streams a table of no rows that every statement reads", "[gpu][catalog][one_copy]") {
  TempDir dir;
  const std::string empty = dir.write("empty.csv", "id,v,d,s,p\n");
  const std::string some = dir.write("some.csv", rows_csv(0, 500, 5));
  Settings settings;
  settings.plain_strings_rows = 0;  // every VARCHAR is plain
  Database alone(Options{ExecutorKind::Gpu, settings}), host(Options{ExecutorKind::Host, settings});
  for (Database* db : {&alone, &host}) {
    db->query("CREATE TABLE t (id INTEGER, v BIGINT, d DECIMAL(9,2), s VARCHAR, p VARCHAR)");
    db->query("COPY t FROM '" + empty + "' (HEADER)");
    CHECK(db->impl().catalog.find("t")->rows == 0);
  }
  // A fixed-width column of no rows is held anywhere; a plain one's host column holds no pool.
  CHECK(columns_on_host(alone, "t") == 3);
  CHECK(alone.impl().catalog.find("t")->is_plain(3));
  CHECK(alone.impl().catalog.find("t")->is_plain(4));
  const std::vector<std::string> queries = {
      "SELECT count(*), min(p), max(s) FROM t WHERE p LIKE '%7%'",
      "SELECT p, s FROM t WHERE s = 'kind1' ORDER BY p",
      "SELECT s, count(*) FROM t GROUP BY s ORDER BY s",
      "SUMMARIZE t"};
  for (const std::string& sql : queries) {
    INFO(sql);
    CHECK(result_text(alone.query(sql)) == result_text(host.query(sql)));
  }
  for (Database* db : {&alone, &host}) db->query("COPY t FROM '" + some + "'");
  CHECK(alone.impl().catalog.find("t")->rows == 500);
  CHECK(columns_on_host(alone, "t") == 0);
  for (const std::string& sql : queries) {
    INFO(sql);
    CHECK(result_text(alone.query(sql)) == result_text(host.query(sql)));
  }
}

TEST_CASE("one copy: an append to a table on the device alone streams too, and equals the host executor's",
          "[gpu][catalog][one_copy]") {
  for (int blank_every : {0, 5000}) {
    INFO("a blank line every " << blank_every << " rows");
    TempDir dir;
    const std::string first = dir.write("first.csv", stream_csv(150000, blank_every));
    // Some strings new to the dictionary ("kinc1..."), sorting among the old ones: old codes change.
    std::string more = stream_csv(60000, blank_every);
    for (std::size_t at = 0; (at = more.find("kind1", at)) != std::string::npos; at += 5) more[at + 3] = 'c';
    const std::string second = dir.write("second.csv", more);
    const std::string bad = dir.write("bad.csv", more + "1,2,1990-01-01,3,true,kindz,n,extra\n");
    Settings settings;
    settings.plain_strings_rows = 1000;  // `note` is plain
    Database alone(Options{ExecutorKind::Gpu, settings}), host(Options{ExecutorKind::Host, settings});
    for (Database* db : {&alone, &host}) {
      db->query("CREATE TABLE t (id INTEGER, x DOUBLE, day DATE, amount DECIMAL(9,2), flag BOOLEAN, kind VARCHAR, "
                "note VARCHAR)");
      db->query("COPY t FROM '" + first + "' (HEADER)");
      // A failed append leaves the very same table.
      std::shared_ptr<const Table> before = db->impl().catalog.find("t");
      CHECK_THROWS_WITH(db->query("COPY t FROM '" + bad + "' (HEADER)"), Catch::Contains("line"));
      CHECK(db->impl().catalog.find("t") == before);
      db->query("COPY t FROM '" + second + "' (HEADER)");
    }
    std::shared_ptr<const Table> got = alone.impl().catalog.find("t"), want = host.impl().catalog.find("t");
    REQUIRE(got->rows == 210000);
    REQUIRE(want->rows == 210000);
    CHECK(columns_on_host(alone, "t") == 0);
    CHECK(got->is_plain(6));
    for (std::size_t c = 0; c < 7; ++c) {
      INFO("column " << c);
      HostColumn values = download_column(got->device->columns[c], got->rows);
      const HostColumn& expected = want->host[c];
      CHECK(values.bytes == expected.bytes);
      CHECK(values.validity == expected.validity);
      if (expected.is_plain()) {
        REQUIRE(values.strings);
        CHECK(std::equal(values.strings->begin(), values.strings->end(), expected.strings->begin(),
                         expected.strings->end()));
      }
      if (expected.dictionary) {
        REQUIRE(got->host[c].dictionary);
        const StringPool &a = got->host[c].dictionary->values, &b = expected.dictionary->values;
        CHECK(std::equal(a.begin(), a.end(), b.begin(), b.end()));
      }
      CHECK(got->null_count(c) == want->null_count(c));
      const ValueRange range = got->value_range(c), want_range = want->value_range(c);
      CHECK(range.known == want_range.known);
      CHECK(range.min == want_range.min);
      CHECK(range.max == want_range.max);
      CHECK(got->distinct_estimate(c) == want->distinct_estimate(c));
    }
    for (const char* sql : {"SELECT count(*), count(x), sum(amount), min(day), max(day), count(DISTINCT kind) FROM t",
                            "SELECT kind, count(*), sum(x) FROM t GROUP BY kind ORDER BY kind",
                            "SELECT count(*), min(note), max(note) FROM t WHERE note LIKE '%say%'"}) {
      INFO(sql);
      CHECK(result_text(alone.query(sql)) == result_text(host.query(sql)));
    }
  }
}
