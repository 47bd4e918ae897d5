// SQLite's sqllogictest suite (select1-5, random/, index/, evidence/:
// https://sqlite.org/sqllogictest) run on gpusql as written: each file on
// a fresh database, each record's SQL as the file gives it, results
// formatted as SQLite's own driver formats them (I: the value as a 32-bit
// integer, R: "%.3f", T: its text with "(empty)" and '@' for unprintable
// characters; NULL as "NULL"), sorted by the record's sort mode, and
// compared value for value or by the MD5 of the values above the file's
// hash threshold. A record for another engine (`onlyif mysql`) is skipped;
// `skipif sqlite` records run. It counts, per file and in all, the queries
// that give SQLite's answer, those that give another (wrong results, the
// ones that matter most), those gpusql refuses (by error), and the
// statements that fail (a query's other result after a failed statement
// is counted apart: the tables differ from SQLite's).
//
//   gpusql_sqlite_suite [--jobs N] [--timeout S] [--failures K] PATH...
//
// PATH: .test files or folders of them (searched recursively). --jobs:
// files at a time (default: every core), each database on one thread;
// --timeout: seconds a statement may run before it is interrupted and
// counted as failing (default 30); --failures: how many wrong results and
// errors of each kind to print (default 20).
#include <openssl/evp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gpusql/gpusql.hpp"
#include "storage/parallel_tasks.hpp"

namespace {

using gpusql::Database;
using gpusql::Value;

struct Counts {
  std::size_t statements = 0, statements_failed = 0;
  std::size_t queries = 0, passed = 0, wrong = 0, diverged = 0, refused = 0, skipped = 0;
  void add(const Counts& o) {
    statements += o.statements, statements_failed += o.statements_failed, queries += o.queries, passed += o.passed,
        wrong += o.wrong, diverged += o.diverged, refused += o.refused, skipped += o.skipped;
  }
};

struct Report {
  Counts counts;
  std::vector<std::string> wrong;                    // "file:line: SQL -> what"
  std::map<std::string, std::vector<std::string>> refused;  // by the error's first line
  void add(Report&& o) {
    counts.add(o.counts);
    for (auto& w : o.wrong) wrong.push_back(std::move(w));
    for (auto& [kind, list] : o.refused)
      for (auto& r : list) refused[kind].push_back(std::move(r));
  }
};

std::string md5_hex(const std::vector<std::string>& values) {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, EVP_md5(), nullptr);
  for (const std::string& v : values) {
    EVP_DigestUpdate(ctx, v.data(), v.size());
    EVP_DigestUpdate(ctx, "\n", 1);
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(ctx, digest, &length);
  EVP_MD_CTX_free(ctx);
  std::string hex;
  char buffer[3];
  for (unsigned int i = 0; i < length; ++i) {
    std::snprintf(buffer, sizeof buffer, "%02x", digest[i]);
    hex += buffer;
  }
  return hex;
}

// SQLite's text of a REAL ("%!.15g": 15 significant digits, ".0" on a whole number).
std::string real_text(double d) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.15g", d);
  std::string s = buffer;
  if (std::isfinite(d) && s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

// The leading number of a text, as SQLite converts it (0 when none).
double leading_number(const std::string& s) { return std::strtod(s.c_str(), nullptr); }

double as_double(const Value& v) {
  if (const auto* b = std::get_if<bool>(&v)) return *b;
  if (const auto* i = std::get_if<int32_t>(&v)) return *i;
  if (const auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* s = std::get_if<std::string>(&v)) return leading_number(*s);
  if (const auto* d = std::get_if<gpusql::Decimal>(&v)) return d->to_double();
  return 0;
}

// One value as SQLite's driver writes it for column type `type`.
std::string format_value(const Value& v, char type, const std::string& text) {
  if (std::holds_alternative<std::monostate>(v)) return "NULL";
  char buffer[64];
  switch (type) {
    case 'I': {
      int64_t i = 0;
      if (const auto* b = std::get_if<bool>(&v)) i = *b;
      else if (const auto* x = std::get_if<int32_t>(&v)) i = *x;
      else if (const auto* x = std::get_if<int64_t>(&v)) i = *x;
      else if (const auto* s = std::get_if<std::string>(&v)) i = std::strtoll(s->c_str(), nullptr, 10);
      else {
        const double d = as_double(v);
        i = std::isfinite(d) && std::fabs(d) < 9.2e18 ? static_cast<int64_t>(d) : 0;
      }
      std::snprintf(buffer, sizeof buffer, "%d", static_cast<int32_t>(static_cast<uint32_t>(i)));
      return buffer;
    }
    case 'R':
      std::snprintf(buffer, sizeof buffer, "%.3f", as_double(v));
      return buffer;
    default: {
      std::string s;
      if (const auto* str = std::get_if<std::string>(&v)) s = *str;
      else if (const auto* b = std::get_if<bool>(&v)) s = *b ? "1" : "0";
      else if (const auto* d = std::get_if<double>(&v)) s = real_text(*d);
      else s = text;
      if (s.empty()) return "(empty)";
      for (char& c : s)
        if (c < ' ' || c > '~') c = '@';
      return s;
    }
  }
}

struct Record {
  enum class Kind { Statement, Query, HashThreshold, Halt } kind = Kind::Statement;
  std::size_t line = 0;
  bool expect_error = false;       // statement error
  std::string types, sort, label;  // query
  std::string sql;
  std::vector<std::string> expected;  // values, or one "N values hashing to X" line
  bool skip = false;
  std::size_t threshold = 0;
};

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::vector<Record> parse(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(l);
  }
  std::vector<Record> records;
  std::size_t i = 0;
  while (i < lines.size()) {
    if (lines[i].empty() || lines[i][0] == '#') {
      ++i;
      continue;
    }
    Record r;
    r.line = i + 1;
    std::vector<std::string> w = words(lines[i]);
    while (!w.empty() && (w[0] == "skipif" || w[0] == "onlyif")) {
      if (w.size() > 1 && (w[0] == "onlyif" || w[1] == "gpusql")) r.skip = true;
      w = words(lines[++i]);
    }
    if (w.empty()) {
      ++i;
      continue;
    }
    ++i;
    if (w[0] == "halt") {
      if (!r.skip) {
        r.kind = Record::Kind::Halt;
        records.push_back(r);
      }
      continue;
    }
    if (w[0] == "hash-threshold") {
      r.kind = Record::Kind::HashThreshold;
      r.threshold = w.size() > 1 ? std::stoul(w[1]) : 0;
      records.push_back(r);
      continue;
    }
    if (w[0] != "statement" && w[0] != "query") {
      while (i < lines.size() && !lines[i].empty()) ++i;  // an unknown record: skipped whole
      continue;
    }
    r.kind = w[0] == "query" ? Record::Kind::Query : Record::Kind::Statement;
    if (r.kind == Record::Kind::Statement) r.expect_error = w.size() > 1 && w[1] == "error";
    if (r.kind == Record::Kind::Query) {
      r.types = w.size() > 1 ? w[1] : "";
      r.sort = w.size() > 2 ? w[2] : "nosort";
      r.label = w.size() > 3 ? w[3] : "";
    }
    std::string sql;
    while (i < lines.size() && !lines[i].empty() && lines[i] != "----") sql += (sql.empty() ? "" : "\n") + lines[i++];
    r.sql = sql;
    if (i < lines.size() && lines[i] == "----") {
      ++i;
      while (i < lines.size() && !lines[i].empty()) r.expected.push_back(lines[i++]);
    }
    records.push_back(std::move(r));
  }
  return records;
}

// The query's values, row by row, sorted as the record asks.
std::vector<std::string> values_of(const gpusql::Result& result, const Record& r) {
  const std::size_t columns = r.types.size();
  std::vector<std::vector<std::string>> rows;
  for (std::size_t row = 0; row < result.row_count(); ++row) {
    std::vector<std::string> values;
    for (std::size_t c = 0; c < columns; ++c)
      values.push_back(format_value(result.value(row, c), r.types[c], result.text(row, c)));
    rows.push_back(std::move(values));
  }
  std::vector<std::string> out;
  if (r.sort == "rowsort") std::sort(rows.begin(), rows.end());
  for (auto& row : rows)
    for (auto& v : row) out.push_back(std::move(v));
  if (r.sort == "valuesort") std::sort(out.begin(), out.end());
  return out;
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// A refusal's kind: the error's first line without what names the query's parts.
std::string refusal_kind(const std::string& message) {
  std::string line = first_line(message);
  if (const auto at = line.find(" (line "); at != std::string::npos) line.erase(at);
  for (const char* cut : {" \"", ": \"", " '"}) {
    if (const auto at = line.find(cut); at != std::string::npos && at > 20) line.erase(at);
  }
  return line;
}

// Interrupts a statement that runs past the timeout.
class Watchdog {
 public:
  Watchdog(Database& db, std::chrono::seconds timeout) : db_(db), timeout_(timeout), thread_([this] { run(); }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  void start() {
    std::lock_guard lock(mutex_);
    deadline_ = std::chrono::steady_clock::now() + timeout_;
    armed_ = true;
    wake_.notify_all();
  }
  void stop() {
    std::lock_guard lock(mutex_);
    armed_ = false;
  }

 private:
  void run() {
    std::unique_lock lock(mutex_);
    while (!done_) {
      if (!armed_) {
        wake_.wait(lock);
        continue;
      }
      if (wake_.wait_until(lock, deadline_) == std::cv_status::timeout && armed_) {
        db_.interrupt();
        armed_ = false;
      }
    }
  }
  Database& db_;
  std::chrono::seconds timeout_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::chrono::steady_clock::time_point deadline_;
  bool armed_ = false, done_ = false;
  std::thread thread_;
};

Report run_file(const std::string& path, const std::string& name, std::chrono::seconds timeout) {
  Report report;
  gpusql::Settings settings;
  settings.threads = 1;  // files run side by side, one core each
  Database db(gpusql::Options{gpusql::ExecutorKind::Host, settings});
  Watchdog watchdog(db, timeout);
  std::size_t threshold = 0;
  std::map<std::string, std::string> labels;
  bool failed_statement = false;  // the tables now differ from SQLite's
  auto where = [&](const Record& r) { return name + ":" + std::to_string(r.line) + ": " + first_line(r.sql); };
  for (const Record& r : parse(path)) {
    if (r.kind == Record::Kind::Halt) break;
    if (r.kind == Record::Kind::HashThreshold) {
      threshold = r.threshold;
      continue;
    }
    Counts& n = report.counts;
    if (r.skip) {
      n.skipped += r.kind == Record::Kind::Query;
      continue;
    }
    std::optional<gpusql::Result> result;
    std::string error;
    watchdog.start();
    try {
      result = db.query(r.sql);
    } catch (const gpusql::Error& e) {
      error = e.what();
    } catch (const std::exception& e) {
      error = std::string("crash: ") + e.what();
    }
    watchdog.stop();
    if (r.kind == Record::Kind::Statement) {
      ++n.statements;
      if (r.expect_error == error.empty()) {
        ++n.statements_failed;
        failed_statement = true;
        report.refused["statement " + (error.empty() ? std::string("succeeded, an error expected") : refusal_kind(error))]
            .push_back(where(r));
      }
      continue;
    }
    ++n.queries;
    if (!error.empty()) {
      ++n.refused;
      report.refused[refusal_kind(error)].push_back(where(r));
      continue;
    }
    if (result->column_count() != r.types.size()) {
      ++n.refused;
      report.refused["the query returned " + std::to_string(result->column_count()) + " columns, the record has " +
                     std::to_string(r.types.size())]
          .push_back(where(r));
      continue;
    }
    const std::vector<std::string> values = values_of(*result, r);
    // Above the threshold the values compare by their hash; a label makes
    // every query of that label give the same values.
    const bool hashed = threshold > 0 && values.size() > threshold;
    const std::string hash = std::to_string(values.size()) + " values hashing to " + md5_hex(values);
    bool same = hashed ? (r.expected.size() == 1 && r.expected[0] == hash) : values == r.expected;
    if (!hashed && !same && r.expected.size() == 1 && r.expected[0].find(" values hashing to ") != std::string::npos)
      same = r.expected[0] == hash;
    if (!r.label.empty()) {
      auto [it, inserted] = labels.emplace(r.label, hash);
      same = same && (inserted || it->second == hash);
    }
    if (same) {
      ++n.passed;
    } else if (failed_statement) {
      ++n.diverged;  // after a statement that failed here: not the same tables
    } else {
      ++n.wrong;
      std::string got;
      for (std::size_t i = 0; i < values.size() && i < 8; ++i) got += (i ? " " : "") + values[i];
      report.wrong.push_back(where(r) + "\n    expected " +
                             (r.expected.empty() ? std::string("no rows") : r.expected[0]) +
                             (r.expected.size() > 1 ? " ..." : "") + "\n    got " +
                             (hashed ? hash : (got.empty() ? std::string("no rows") : got)));
    }
  }
  return report;
}

void collect(const std::filesystem::path& path, std::vector<std::filesystem::path>& files) {
  if (std::filesystem::is_directory(path)) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(path))
      if (e.is_regular_file() && e.path().extension() == ".test") files.push_back(e.path());
  } else {
    files.push_back(path);
  }
}

double percent(std::size_t part, std::size_t whole) { return whole ? 100.0 * part / whole : 0; }

}  // namespace

int main(int argc, char** argv) {
  std::size_t jobs = gpusql::hardware_threads(), failures = 20;
  long timeout = 30;
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--jobs" && i + 1 < argc) jobs = std::stoul(argv[++i]);
    else if (a == "--timeout" && i + 1 < argc) timeout = std::stol(argv[++i]);
    else if (a == "--failures" && i + 1 < argc) failures = std::stoul(argv[++i]);
    else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "usage: gpusql_sqlite_suite [--jobs N] [--timeout S] [--failures K] PATH...\n");
      return 2;
    } else collect(a, files);
  }
  std::sort(files.begin(), files.end());
  std::vector<Report> reports(files.size());
  std::atomic<std::size_t> done{0};
  const auto start = std::chrono::steady_clock::now();
  gpusql::parallel_for_workers(files.size(), jobs, [&](std::size_t i, std::size_t) {
    reports[i] = run_file(files[i].string(), files[i].string(), std::chrono::seconds(timeout));
    const Counts& c = reports[i].counts;
    std::fprintf(stderr, "[%zu/%zu] %s: %zu of %zu queries, %zu wrong, %zu refused, %zu statements failed\n", ++done,
                 files.size(), files[i].c_str(), c.passed, c.queries, c.wrong, c.refused, c.statements_failed);
  });
  Report all;
  for (auto& r : reports) all.add(std::move(r));
  const Counts& c = all.counts;
  std::printf("\n%zu files in %.0f s\n", files.size(),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  std::printf(
      "queries: %zu run, %zu pass (%.2f %%), %zu wrong results, %zu refused, %zu other results after a statement "
      "that failed; %zu skipped (other engines)\n",
      c.queries, c.passed, percent(c.passed, c.queries), c.wrong, c.refused, c.diverged, c.skipped);
  std::printf("statements: %zu run, %zu failed\n", c.statements, c.statements_failed);
  std::printf("\nwrong results (%zu):\n", all.wrong.size());
  for (std::size_t i = 0; i < all.wrong.size() && i < failures; ++i) std::printf("  %s\n", all.wrong[i].c_str());
  std::vector<std::pair<std::size_t, std::string>> kinds;
  for (const auto& [kind, list] : all.refused) kinds.push_back({list.size(), kind});
  std::sort(kinds.rbegin(), kinds.rend());
  std::printf("\nrefused and failed, by error (%zu kinds):\n", kinds.size());
  for (std::size_t k = 0; k < kinds.size() && k < failures; ++k) {
    std::printf("  %8zu  %s\n", kinds[k].first, kinds[k].second.c_str());
    std::printf("            e.g. %s\n", all.refused[kinds[k].second].front().c_str());
  }
  return c.wrong == 0 ? 0 : 1;
}
