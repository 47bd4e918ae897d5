// A runner for sqllogictest files in DuckDB's dialect of the format, so that
// adding a test is adding a few lines of SQL to tests/sql/**/*.test:
//
//   # comment                      (between records)
//   statement ok                   the statement must succeed
//   CREATE TABLE ...
//
//   statement error                the statement must fail with a gpusql::Error
//   SELECT nope FROM t             whose text contains the text after ----
//   ----                           (or matches it, written as <REGEX>:pattern):
//                                  what() with position and caret, or the
//                                  "Kind Error: message" lines without them;
//   Binder Error: Referenced column "nope"     no ---- : any gpusql::Error passes
//
//   query ITR rowsort [label]      one letter per column: I integer or boolean,
//   SELECT a, b, c FROM t          R floating or decimal, T text, B boolean,
//   ----                           D date, ? any. Sort mode nosort (default),
//   1	x	2.5                       rowsort or valuesort. Values tab-separated,
//                                  or one value per line; NULL as NULL, the
//                                  empty string as (empty), doubles in the
//                                  engine's shortest round-trip form. With a
//                                  label and no ----, the result must equal the
//                                  earlier result of that label.
//
//   load t sample_data/records.csv   loads a CSV (path relative to the repo)
//   load t                           or the CSV lines that follow, up to a
//   a,b                              blank line (a header-only table: one line)
//   1,2
//
//   load error t path | load error t + inline lines, then ---- and the message.
//
//   skipif gpu / onlyif host       before a record's header: executor filter
//   require gpu                    skip the rest of the file on other executors
//   mode skip / mode unskip        skip the records in between
//   halt                           stop reading the file
//   loop i 0 3 ... endloop         repeat the lines in between with ${i} = 0, 1, 2
//   foreach v a b c ... endloop    repeat them with ${v} = a, b, c
//
// Records end at a blank line. Every file runs on a fresh Database.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpusql/gpusql.hpp"
#include "tests/test_support.hpp"

namespace gpusql::test::sqllogic {

enum class SortMode { NoSort, RowSort, ValueSort };

struct Record {
  enum class Kind { StatementOk, StatementError, Query, Load, LoadError, Halt, ModeSkip, ModeUnskip, Require };
  Kind kind = Kind::StatementOk;
  int line = 0;                          // of the header, 1-based
  std::string sql;                       // statement / query text
  std::string types;                     // query: one letter per column
  SortMode sort = SortMode::NoSort;
  std::string label;                     // query: optional result label
  bool has_expected = false;             // a ---- section was given
  std::vector<std::string> expected;     // result lines, or the error message lines
  std::vector<std::string> skip_if;      // executors that skip this record
  std::vector<std::string> only_if;      // executors that alone run it
  std::string table;                     // load
  std::string path;                      // load: "" for inline CSV
  std::vector<std::string> csv;          // load: inline CSV lines
  std::string argument;                  // require
};

struct Line {
  std::string text;
  int number = 0;
};

class FormatError : public std::runtime_error {
 public:
  FormatError(const std::string& file, int line, const std::string& what)
      : std::runtime_error(file + ":" + std::to_string(line) + ": malformed test file: " + what) {}
};

inline std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> words;
  std::istringstream in(s);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

inline bool is_blank(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); });
}

inline std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// Expands loop / foreach blocks (nested ones too) into plain lines.
inline std::vector<Line> expand_loops(const std::string& file, const std::vector<Line>& lines, std::size_t begin,
                                      std::size_t end) {
  std::vector<Line> out;
  for (std::size_t i = begin; i < end; ++i) {
    std::vector<std::string> words = split_words(lines[i].text);
    bool is_loop = !words.empty() && words[0] == "loop";
    bool is_foreach = !words.empty() && words[0] == "foreach";
    if (!is_loop && !is_foreach) {
      if (!words.empty() && words[0] == "endloop") throw FormatError(file, lines[i].number, "endloop without loop");
      out.push_back(lines[i]);
      continue;
    }
    std::vector<std::string> values;
    if (is_loop) {
      if (words.size() != 4) throw FormatError(file, lines[i].number, "expected: loop <var> <start> <end>");
      for (long v = std::stol(words[2]); v < std::stol(words[3]); ++v) values.push_back(std::to_string(v));
    } else {
      if (words.size() < 3) throw FormatError(file, lines[i].number, "expected: foreach <var> <value>...");
      values.assign(words.begin() + 2, words.end());
    }
    std::size_t depth = 1, close = i + 1;
    for (; close < end; ++close) {
      std::vector<std::string> w = split_words(lines[close].text);
      if (!w.empty() && (w[0] == "loop" || w[0] == "foreach")) ++depth;
      if (!w.empty() && w[0] == "endloop" && --depth == 0) break;
    }
    if (close == end) throw FormatError(file, lines[i].number, "loop without endloop");
    std::vector<Line> body = expand_loops(file, lines, i + 1, close);
    for (const auto& value : values)
      for (Line l : body) {
        l.text = replace_all(l.text, "${" + words[1] + "}", value);
        out.push_back(std::move(l));
      }
    i = close;
  }
  return out;
}

inline std::vector<Record> parse_records(const std::string& file, const std::string& contents) {
  std::vector<Line> raw;
  {
    std::istringstream in(contents);
    int number = 0;
    for (std::string text; std::getline(in, text);) {
      if (!text.empty() && text.back() == '\r') text.pop_back();
      raw.push_back({text, ++number});
    }
  }
  std::vector<Line> lines = expand_loops(file, raw, 0, raw.size());
  std::vector<Record> records;
  std::size_t i = 0;
  while (i < lines.size()) {
    if (is_blank(lines[i].text) || lines[i].text[0] == '#') {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < lines.size() && !is_blank(lines[end].text)) ++end;
    Record r;
    // Conditions first, then the header.
    for (; i < end; ++i) {
      std::vector<std::string> w = split_words(lines[i].text);
      if (w[0] == "skipif" && w.size() == 2) r.skip_if.push_back(w[1]);
      else if (w[0] == "onlyif" && w.size() == 2) r.only_if.push_back(w[1]);
      else break;
    }
    if (i == end) throw FormatError(file, lines[end - 1].number, "skipif/onlyif without a record");
    const Line& header = lines[i++];
    r.line = header.number;
    std::vector<std::string> w = split_words(header.text);
    auto body_until_dashes = [&](std::vector<std::string>& body) {
      for (; i < end && lines[i].text != "----"; ++i) body.push_back(lines[i].text);
      if (i < end) {
        r.has_expected = true;
        for (++i; i < end; ++i) r.expected.push_back(lines[i].text);
      }
    };
    auto join = [](const std::vector<std::string>& parts) {
      std::string s;
      for (const auto& p : parts) s += (s.empty() ? "" : "\n") + p;
      return s;
    };
    if (w[0] == "statement" && w.size() == 2 && (w[1] == "ok" || w[1] == "error")) {
      r.kind = w[1] == "ok" ? Record::Kind::StatementOk : Record::Kind::StatementError;
      std::vector<std::string> body;
      body_until_dashes(body);
      r.sql = join(body);
      if (r.kind == Record::Kind::StatementOk && r.has_expected)
        throw FormatError(file, r.line, "statement ok takes no ---- section");
    } else if (w[0] == "query" && w.size() >= 2 && w.size() <= 4) {
      r.kind = Record::Kind::Query;
      r.types = w[1];
      if (r.types.find_first_not_of("IRTBD?") != std::string::npos)
        throw FormatError(file, r.line, "column types are letters of IRTBD?, not \"" + r.types + "\"");
      if (w.size() >= 3) {
        if (w[2] == "nosort") r.sort = SortMode::NoSort;
        else if (w[2] == "rowsort") r.sort = SortMode::RowSort;
        else if (w[2] == "valuesort") r.sort = SortMode::ValueSort;
        else throw FormatError(file, r.line, "sort mode is nosort, rowsort or valuesort, not \"" + w[2] + "\"");
      }
      if (w.size() == 4) r.label = w[3];
      std::vector<std::string> body;
      body_until_dashes(body);
      r.sql = join(body);
    } else if (w[0] == "load" && (w.size() == 2 || w.size() == 3 || (w.size() >= 3 && w[1] == "error"))) {
      bool error = w[1] == "error";
      r.kind = error ? Record::Kind::LoadError : Record::Kind::Load;
      std::size_t k = error ? 2 : 1;
      if (w.size() < k + 1 || w.size() > k + 2) throw FormatError(file, r.line, "expected: load [error] <table> [path]");
      r.table = w[k];
      if (w.size() == k + 2) r.path = w[k + 1];
      body_until_dashes(r.csv);
      if (!r.path.empty() && !r.csv.empty()) throw FormatError(file, r.line, "load takes a path or inline lines, not both");
      if (r.path.empty() && r.csv.empty()) throw FormatError(file, r.line, "load needs a path or inline CSV lines");
      if (!error && r.has_expected) throw FormatError(file, r.line, "load takes no ---- section (use load error)");
    } else if (w[0] == "halt" && w.size() == 1) {
      r.kind = Record::Kind::Halt;
    } else if (w[0] == "mode" && w.size() == 2 && (w[1] == "skip" || w[1] == "unskip")) {
      r.kind = w[1] == "skip" ? Record::Kind::ModeSkip : Record::Kind::ModeUnskip;
    } else if (w[0] == "require" && w.size() == 2) {
      r.kind = Record::Kind::Require;
      r.argument = w[1];
    } else {
      throw FormatError(file, r.line, "unknown record \"" + header.text + "\"");
    }
    if (i != end) throw FormatError(file, lines[i].number, "unexpected line in a record: \"" + lines[i].text + "\"");
    if ((r.kind == Record::Kind::StatementOk || r.kind == Record::Kind::StatementError ||
         r.kind == Record::Kind::Query) && is_blank(r.sql))
      throw FormatError(file, r.line, "a record without SQL");
    records.push_back(std::move(r));
  }
  return records;
}

// A value as a test file writes it: a DOUBLE or REAL in the shortest form
// that reads back (5, 0.0005, 9.223372036854776e+18), whatever notation
// the result's display uses (5.0 as DuckDB and sqlite3 print it).
inline std::string cell_text(const Result& result, std::size_t row, std::size_t column) {
  if (result.is_null(row, column)) return "NULL";
  const Type type = result.column_type(column);
  if (type == Type::Double || type == Type::Real) {
    const Value v = result.value(row, column);
    const auto* d = std::get_if<double>(&v);
    if (d && std::isfinite(*d)) {
      char buffer[64];
      const std::to_chars_result written = type == Type::Real
                                               ? std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(*d))
                                               : std::to_chars(buffer, buffer + sizeof buffer, *d);
      return std::string(buffer, written.ptr);
    }
  }
  std::string text = result.text(row, column);
  return text.empty() ? "(empty)" : text;
}

inline bool type_matches(char letter, Type type) {
  switch (letter) {
    case 'I': return type == Type::Integer || type == Type::BigInt || type == Type::Boolean;
    case 'R': return type == Type::Double || type == Type::Real || type == Type::Decimal;
    case 'T': return type == Type::Varchar || type == Type::Date;
    case 'B': return type == Type::Boolean;
    case 'D': return type == Type::Date;
    default: return true;
  }
}

// The letter a test should use for a column of `type`.
inline char type_letter(Type type) {
  switch (type) {
    case Type::Integer:
    case Type::BigInt:
    case Type::Boolean: return 'I';
    case Type::Real:
    case Type::Double:
    case Type::Decimal: return 'R';
    default: return 'T';
  }
}

using Table = std::vector<std::vector<std::string>>;

inline std::string render(const Table& rows) {
  std::string out;
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) out += (c ? "\t" : "") + row[c];
    out += "\n";
  }
  return out;
}

inline std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (std::size_t tab = line.find('\t'); tab != std::string::npos; tab = line.find('\t', start)) {
    fields.push_back(line.substr(start, tab - start));
    start = tab + 1;
  }
  fields.push_back(line.substr(start));
  return fields;
}

// Expected lines as rows: tab-separated rows, or (when the lines do not all
// split into `columns` fields) one value per line.
inline bool expected_rows(const std::vector<std::string>& lines, std::size_t columns, Table& rows) {
  rows.clear();
  bool row_wise = std::all_of(lines.begin(), lines.end(),
                              [&](const std::string& l) { return split_tabs(l).size() == columns; });
  if (row_wise) {
    for (const auto& l : lines) rows.push_back(split_tabs(l));
    return true;
  }
  if (columns == 0 || lines.size() % columns != 0) return false;
  for (std::size_t i = 0; i < lines.size(); i += columns)
    rows.emplace_back(lines.begin() + static_cast<std::ptrdiff_t>(i),
                      lines.begin() + static_cast<std::ptrdiff_t>(i + columns));
  return true;
}

inline void sort_table(Table& rows, SortMode mode) {
  if (mode == SortMode::RowSort) {
    std::sort(rows.begin(), rows.end());
  } else if (mode == SortMode::ValueSort) {
    std::vector<std::string> values;
    for (const auto& r : rows) values.insert(values.end(), r.begin(), r.end());
    std::sort(values.begin(), values.end());
    std::size_t width = rows.empty() ? 0 : rows[0].size();
    for (std::size_t i = 0; i < values.size(); ++i) rows[i / width][i % width] = values[i];
  }
}

// Runs test files on one executor and collects failures as readable text.
class Runner {
 public:
  // `executor` names the executor for skipif/onlyif/require: "host" or "gpu".
  // Each file runs on a fresh Database with `settings`.
  Runner(ExecutorKind kind, std::string executor, Settings settings = {})
      : kind_(kind), executor_(std::move(executor)), settings_(settings) {}

  // Failures of one file, each "file:line: what went wrong"; empty when it passes.
  std::vector<std::string> run_file(const std::string& path, const std::string& display_name) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {display_name + ": cannot open"};
    std::stringstream contents;
    contents << in.rdbuf();
    std::vector<Record> records;
    try {
      records = parse_records(display_name, contents.str());
    } catch (const FormatError& e) {
      return {e.what()};
    }
    Database db{Options{kind_, settings_}};
    TempDir scratch;
    std::map<std::string, Table> labels;
    std::vector<std::string> failures;
    bool skipping = false;
    for (const Record& r : records) {
      ++records_seen_;
      if (r.kind == Record::Kind::Halt) break;
      if (r.kind == Record::Kind::ModeSkip || r.kind == Record::Kind::ModeUnskip) {
        skipping = r.kind == Record::Kind::ModeSkip;
        continue;
      }
      if (r.kind == Record::Kind::Require) {
        if (r.argument != executor_) break;
        continue;
      }
      if (skipping) continue;
      if (std::find(r.skip_if.begin(), r.skip_if.end(), executor_) != r.skip_if.end()) continue;
      if (!r.only_if.empty() && std::find(r.only_if.begin(), r.only_if.end(), executor_) == r.only_if.end()) continue;
      ++records_run_;
      std::string where = display_name + ":" + std::to_string(r.line) + ": ";
      try {
        run_record(db, scratch, r, labels, where, failures);
      } catch (const std::exception& e) {
        failures.push_back(where + "unexpected exception (not a gpusql::Error): " + e.what() + "\n" + r.sql);
      }
    }
    return failures;
  }

  std::size_t records_seen() const { return records_seen_; }
  std::size_t records_run() const { return records_run_; }

 private:
  ExecutorKind kind_;
  std::string executor_;
  Settings settings_;
  std::size_t records_seen_ = 0;
  std::size_t records_run_ = 0;

  static std::string join_lines(const std::vector<std::string>& lines) {
    std::string s;
    for (const auto& l : lines) s += (s.empty() ? "" : "\n") + l;
    return s;
  }

  static bool message_matches(const std::string& actual, const std::string& expected) {
    static const std::string regex_prefix = "<REGEX>:";
    if (expected.rfind(regex_prefix, 0) == 0)
      return std::regex_search(actual, std::regex(expected.substr(regex_prefix.size())));
    return actual.find(expected) != std::string::npos;
  }

  void load(Database& db, const TempDir& scratch, const Record& r) {
    std::string path = r.path.empty() ? "" : source_dir() + "/" + r.path;
    if (r.path.empty()) {
      std::string csv;
      for (const auto& l : r.csv) csv += l + "\n";
      path = scratch.write("inline_" + std::to_string(r.line) + ".csv", csv);
    }
    db.load_csv(r.table, path);
  }

  void run_record(Database& db, const TempDir& scratch, const Record& r, std::map<std::string, Table>& labels,
                  const std::string& where, std::vector<std::string>& failures) {
    switch (r.kind) {
      case Record::Kind::Load:
        try {
          load(db, scratch, r);
        } catch (const Error& e) {
          failures.push_back(where + "load failed: " + e.what());
        }
        return;
      case Record::Kind::LoadError:
      case Record::Kind::StatementError: {
        try {
          if (r.kind == Record::Kind::LoadError) load(db, scratch, r);
          else db.query(r.sql);
        } catch (const Error& e) {
          std::string expected = join_lines(r.expected);
          // The message matches with or without the position and caret lines.
          std::string plain = std::string(error_kind_name(e.kind())) + ": " + e.message();
          if (r.has_expected && !message_matches(e.what(), expected) && !message_matches(plain, expected))
            failures.push_back(where + "wrong error message for\n" + r.sql + "\nexpected (substring):\n" + expected +
                               "\nactual:\n" + e.what());
          return;
        }
        failures.push_back(where + "expected an error, but it succeeded:\n" + r.sql);
        return;
      }
      case Record::Kind::StatementOk:
        try {
          db.query(r.sql);
        } catch (const Error& e) {
          failures.push_back(where + "statement failed:\n" + r.sql + "\n" + e.what());
        }
        return;
      case Record::Kind::Query: run_query(db, r, labels, where, failures); return;
      default: return;
    }
  }

  void run_query(Database& db, const Record& r, std::map<std::string, Table>& labels, const std::string& where,
                 std::vector<std::string>& failures) {
    Result result;
    try {
      result = db.query(r.sql);
    } catch (const Error& e) {
      failures.push_back(where + "query failed:\n" + r.sql + "\n" + e.what());
      return;
    }
    Table actual;
    std::string letters;
    for (std::size_t c = 0; c < result.column_count(); ++c) letters += type_letter(result.column_type(c));
    for (std::size_t row = 0; row < result.row_count(); ++row) {
      std::vector<std::string> values;
      for (std::size_t c = 0; c < result.column_count(); ++c) values.push_back(cell_text(result, row, c));
      actual.push_back(std::move(values));
    }
    sort_table(actual, r.sort);
    auto show_actual = [&] { return "actual (query " + letters + "):\n" + render(actual); };
    if (result.column_count() != r.types.size()) {
      failures.push_back(where + "the query returned " + std::to_string(result.column_count()) + " columns, the types say " +
                         std::to_string(r.types.size()) + ":\n" + r.sql + "\n" + show_actual());
      return;
    }
    for (std::size_t c = 0; c < result.column_count(); ++c)
      if (!type_matches(r.types[c], result.column_type(c))) {
        failures.push_back(where + "column " + std::to_string(c + 1) + " is " +
                           std::string(type_name(result.column_type(c))) + ", not '" + r.types[c] + "':\n" + r.sql +
                           "\n" + show_actual());
        return;
      }
    if (!r.label.empty() && !r.has_expected) {
      auto [it, fresh] = labels.emplace(r.label, actual);
      if (!fresh && it->second != actual)
        failures.push_back(where + "result differs from the earlier one labelled " + r.label + ":\n" + r.sql +
                           "\nearlier:\n" + render(it->second) + show_actual());
      return;
    }
    Table expected;
    if (!expected_rows(r.expected, result.column_count(), expected)) {
      failures.push_back(where + "the expected values do not fill rows of " + std::to_string(result.column_count()) +
                         " columns:\n" + r.sql + "\n" + show_actual());
      return;
    }
    sort_table(expected, r.sort);
    if (expected != actual)
      failures.push_back(where + "wrong result for\n" + r.sql + "\nexpected:\n" + render(expected) + show_actual());
    else if (!r.label.empty())
      labels[r.label] = actual;
  }
};

// Every .test file under tests/sql, sorted; `pending` selects those under
// tests/sql/pending/ (features or fixes not landed yet) instead of the rest.
inline std::vector<std::filesystem::path> test_files(bool pending) {
  namespace fs = std::filesystem;
  fs::path root = fs::path(source_dir()) / "tests" / "sql";
  std::vector<fs::path> files;
  if (!fs::exists(root)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".test") continue;
    fs::path relative = fs::relative(entry.path(), root);
    bool in_pending = *relative.begin() == "pending";
    if (in_pending == pending) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace gpusql::test::sqllogic
