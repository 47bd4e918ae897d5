// CSV load benchmark (not a test): generates a lineitem-like file -- integer,
// DECIMAL, DATE and VARCHAR columns, '|'-separated with a trailing '|' and no
// header, as dbgen writes -- then loads it end to end, timed, and reports
// MB/s:
//   copy:     CREATE TABLE with declared types + COPY (the dbgen path)
//   read_csv: CREATE TABLE AS SELECT * FROM read_csv(...) (sniffing + inference)
// and then writes the table back out with COPY ... TO, on every thread and
// on one, and with COPY (SELECT * ...) TO on every thread, reporting the
// median MB/s of the file written.
// "End to end" is from the statement to the table in the catalog: reading the
// file (from the page cache: it was just written), parsing on all cores, and,
// on the GPU executor, the copy into GPU memory.
//
//   csv_bench [--mb 1024] [--dir /tmp] [--threads N] [--device host|gpu] [--repeat 3] [--keep]
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gpusql/gpusql.hpp"

namespace {

struct Args {
  std::size_t megabytes = 1024;
  std::string dir = std::filesystem::temp_directory_path().string();
  std::string device = "auto";
  int repeat = 3;
  int threads = 0;  // 0: one per core
  bool keep = false;
};

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: csv_bench [--mb N] [--dir DIR] [--threads N] [--device auto|host|gpu] [--repeat N] [--keep]\n"
               "  generates an N MB lineitem-like '|' file in DIR and reports load MB/s\n"
               "  (--threads N parses on N threads: the setting threads)\n");
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage();
      return argv[++i];
    };
    if (arg == "--mb") a.megabytes = std::stoull(value());
    else if (arg == "--dir") a.dir = value();
    else if (arg == "--device") a.device = value();
    else if (arg == "--repeat") a.repeat = std::stoi(value());
    else if (arg == "--threads") a.threads = std::stoi(value());
    else if (arg == "--keep") a.keep = true;
    else usage();
  }
  return a;
}

struct Random {
  uint64_t state;
  uint64_t next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 17;
  }
  uint64_t below(uint64_t n) { return next() % n; }
};

char* put_uint(char* p, uint64_t v) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) *p++ = digits[--n];
  return p;
}

// Appends rows until `target` bytes; returns the row count. Row r is
// r|qty|price|discount|shipdate|returnflag|shipmode|comment|
std::size_t generate(const std::string& path, std::size_t target) {
  static const char* flags[] = {"A", "N", "R"};
  static const char* modes[] = {"AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"};
  static const char* words[] = {"furiously", "quickly", "carefully", "blithely", "ironic", "regular", "final",
                                "express",   "pending", "special",   "bold",     "even",   "slyly",   "deposits",
                                "requests",  "packages", "accounts", "theodolites", "pinto", "beans"};
  FILE* out = std::fopen(path.c_str(), "wb");
  if (!out) throw std::runtime_error("cannot write " + path);
  Random rng{42};
  std::vector<char> buffer(std::size_t(1) << 22);
  std::size_t written = 0, rows = 0, used = 0;
  const int day0 = 8035;  // 1992-01-01
  while (written + used < target) {
    char* p = buffer.data() + used;
    p = put_uint(p, rows + 1);
    *p++ = '|';
    p = put_uint(p, 1 + rng.below(50));
    *p++ = '|';
    uint64_t cents = 90000 + rng.below(10000000);
    p = put_uint(p, cents / 100);
    *p++ = '.';
    *p++ = static_cast<char>('0' + cents / 10 % 10);
    *p++ = static_cast<char>('0' + cents % 10);
    *p++ = '|';
    *p++ = '0';
    *p++ = '.';
    uint64_t discount = rng.below(11);
    *p++ = static_cast<char>('0' + discount / 10);
    *p++ = static_cast<char>('0' + discount % 10);
    *p++ = '|';
    {
      // days since epoch -> YYYY-MM-DD (civil_from_days)
      int64_t z = day0 + static_cast<int64_t>(rng.below(2557)) + 719468;
      int64_t era = z / 146097;
      unsigned doe = static_cast<unsigned>(z - era * 146097);
      unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
      unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
      unsigned mp = (5 * doy + 2) / 153;
      unsigned d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
      int64_t y = static_cast<int64_t>(yoe) + era * 400 + (m <= 2);
      p = put_uint(p, static_cast<uint64_t>(y));
      *p++ = '-';
      *p++ = static_cast<char>('0' + m / 10);
      *p++ = static_cast<char>('0' + m % 10);
      *p++ = '-';
      *p++ = static_cast<char>('0' + d / 10);
      *p++ = static_cast<char>('0' + d % 10);
    }
    *p++ = '|';
    const char* flag = flags[rng.below(3)];
    p = std::strcpy(p, flag) + std::strlen(flag);
    *p++ = '|';
    const char* mode = modes[rng.below(7)];
    p = std::strcpy(p, mode) + std::strlen(mode);
    *p++ = '|';
    // 2-4 words: a few thousand distinct comments, as a medium-cardinality column.
    int n = 2 + static_cast<int>(rng.below(3));
    for (int w = 0; w < n; ++w) {
      if (w) *p++ = ' ';
      const char* word = words[rng.below(20)];
      p = std::strcpy(p, word) + std::strlen(word);
    }
    *p++ = '|';
    *p++ = '\n';
    used = static_cast<std::size_t>(p - buffer.data());
    ++rows;
    if (used > buffer.size() - 256) {
      std::fwrite(buffer.data(), 1, used, out);
      written += used;
      used = 0;
    }
  }
  std::fwrite(buffer.data(), 1, used, out);
  std::fclose(out);
  return rows;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// CPU seconds (user + system) this process has used: on a shared machine,
// wall time alone says little.
double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return s(usage.ru_utime) + s(usage.ru_stime);
}

}  // namespace

int main(int argc, char** argv) {
  Args args = parse(argc, argv);
  gpusql::Options options;
  options.settings.threads = static_cast<unsigned>(args.threads);
  if (args.device == "host") options.executor = gpusql::ExecutorKind::Host;
  else if (args.device == "gpu") options.executor = gpusql::ExecutorKind::Gpu;
  try {
    std::string path = args.dir + "/gpusql_csv_bench_" + std::to_string(::getpid()) + ".tbl";
    auto start = std::chrono::steady_clock::now();
    std::size_t rows = generate(path, args.megabytes << 20);
    const double bytes = static_cast<double>(std::filesystem::file_size(path));
    std::printf("generated %s: %.0f MB, %zu rows in %.2f s\n", path.c_str(), bytes / 1e6, rows, seconds_since(start));

    gpusql::Database db(options);
    std::printf("executor: %s, %u hardware threads, parsing on %s\n", db.executor_description().c_str(),
                std::thread::hardware_concurrency(),
                args.threads > 0 ? (std::to_string(args.threads) + " threads").c_str() : "all of them");
    const char* target = db.executor() == gpusql::ExecutorKind::Gpu ? "into GPU memory" : "on the host (no GPU)";
    for (int run = 0; run < args.repeat; ++run) {
      db.query("DROP TABLE IF EXISTS lineitem");
      db.query("CREATE TABLE lineitem (l_orderkey BIGINT, l_quantity INTEGER, l_extendedprice DECIMAL(15,2), "
               "l_discount DECIMAL(15,2), l_shipdate DATE, l_returnflag VARCHAR, l_shipmode VARCHAR, "
               "l_comment VARCHAR)");
      start = std::chrono::steady_clock::now();
      double cpu = cpu_seconds();
      db.query("COPY lineitem FROM '" + path + "' (DELIMITER '|')");
      double s = seconds_since(start);
      cpu = cpu_seconds() - cpu;
      std::printf("copy     run %d: %.3f s  %8.1f MB/s %s  (cpu %.2f s: %.0f MB per cpu-second)\n", run + 1, s,
                  bytes / 1e6 / s, target, cpu, bytes / 1e6 / cpu);
    }
    for (int run = 0; run < args.repeat; ++run) {
      db.query("DROP TABLE IF EXISTS inferred");
      start = std::chrono::steady_clock::now();
      double cpu = cpu_seconds();
      db.query("CREATE TABLE inferred AS SELECT * FROM read_csv('" + path + "')");
      double s = seconds_since(start);
      cpu = cpu_seconds() - cpu;
      std::printf("read_csv run %d: %.3f s  %8.1f MB/s %s  (cpu %.2f s: %.0f MB per cpu-second)\n", run + 1, s,
                  bytes / 1e6 / s, target, cpu, bytes / 1e6 / cpu);
    }
    // COPY ... TO of the loaded table, on every thread and then on one (the
    // single writer it replaced), and COPY (SELECT ...) TO of the same rows
    // as a query's result (which on the GPU executor comes back from the
    // device first), in the same run: MB/s of the file written.
    const std::string out = path + ".out";
    auto time_export = [&](const std::string& what, const std::string& source) {
      std::vector<double> times;
      for (int run = 0; run < args.repeat; ++run) {
        start = std::chrono::steady_clock::now();
        db.query("COPY " + source + " TO '" + out + "' (DELIMITER '|', HEADER false)");
        times.push_back(seconds_since(start));
      }
      const double written = static_cast<double>(std::filesystem::file_size(out));
      std::sort(times.begin(), times.end());
      const double median = times[times.size() / 2];
      std::printf("copy_to  %s: median of %d %.3f s  %8.1f MB/s  (%.0f MB written)\n", what.c_str(), args.repeat,
                  median, written / 1e6 / median, written / 1e6);
    };
    for (unsigned threads : {0u, 1u}) {
      db.query("SET threads = " + std::to_string(threads));
      time_export(threads ? "1 thread  " : "all threads", "lineitem");
    }
    db.query("RESET threads");
    time_export("(SELECT *), all threads", "(SELECT * FROM lineitem)");
    std::filesystem::remove(out);
    for (const auto& t : db.tables())
      std::printf("table %s: %zu rows, %zu columns, %.1f MB on host, %.1f MB on device\n", t.name.c_str(), t.rows,
                  t.columns, t.host_bytes / 1e6, t.device_bytes / 1e6);
    if (!args.keep) std::filesystem::remove(path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "csv_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
