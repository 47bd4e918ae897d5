// TPC-H, end to end through SQL. Generates the eight tables at a scale factor
// directly in memory (only the columns the chosen queries read) and loads
// them into a GPU database; runs each of the 22 queries on the CUDA executor
// (a warm-up, reported as the first run, then --repeat timed runs: median and
// minimum), then on the host
// executor over the same host columns (--host-repeat runs: the CPU
// reference, measured in the same process). Every time is Database::query
// of the query's SELECT: parse, bind, plan, execute and the copy of the
// result to the host. Q15's view is created before its runs and dropped
// after them, on each database.
//
// A query's result must be identical on both executors -- values, types,
// names and row order; a difference is printed and the runner exits with
// status 1. A query the GPU cannot run yet (Not implemented Error) is
// reported as such and the rest still run. Without a usable GPU the host
// executor runs alone, and the report says so.
//
// Effective bandwidth = bytes of the columns the query reads (rows x width
// of each, listed in tpch_queries.cpp) / GPU median time, also as a fraction
// of the device's copy bandwidth: measured at start (a device-to-device
// copy, device_copy_bandwidth.hpp) unless --peak-gbps gives it. Markdown
// goes to stdout (progress to stderr), CSV to DIR/tpch.csv.
//
//   gpusql_tpch [--sf N] [--repeat R] [--host-repeat R] [--host-jobs J] [--no-host] [--out DIR]
//               [--queries q1,q5,...] [--seed S] [--threads T] [--query-dir DIR] [--peak-gbps G]
//               [--explain]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/tpch/device_copy_bandwidth.hpp"
#include "bench/tpch/tpch_generator.hpp"
#include "bench/tpch/tpch_queries.hpp"
#include "engine/database_impl.hpp"
#include "storage/table.hpp"

using namespace gpusql;

namespace {

struct RunSettings {
  double sf = 1;
  int repeat = 10;
  int host_repeat = 1;
  std::size_t host_jobs = 1;  // 0: as many as the cores and free memory allow
  bool host = true;
  std::string out_dir;
  std::vector<std::string> queries;  // empty: all 22
  uint64_t seed = tpch::GeneratorOptions{}.seed;
  unsigned threads = 0;
  std::string query_dir = tpch::default_query_dir();
  double peak_gbps = 0;  // 0: measure
  bool explain = false;  // print each query's EXPLAIN ANALYZE on the GPU
};

void usage(FILE* to) {
  std::fprintf(to,
               "usage: gpusql_tpch [--sf N] [--repeat R] [--host-repeat R] [--host-jobs J] [--no-host] [--out DIR]\n"
               "                   [--queries q1,q5,...] [--seed S] [--threads T] [--query-dir DIR]\n"
               "                   [--peak-gbps G] [--explain]\n"
               "  --sf N           scale factor, fractions allowed (default 1)\n"
               "  --repeat R       timed GPU runs per query after one warm-up (default 10)\n"
               "  --host-repeat R  timed host-executor runs per query (default 1)\n"
               "  --host-jobs J    host queries run at once, each on its own thread, after all GPU\n"
               "                   runs (default 1; 0: as many as the cores and free memory allow)\n"
               "  --no-host        skip the host executor (and so the result check)\n"
               "  --out DIR        also write DIR/tpch.csv\n"
               "  --queries L      a comma-separated subset (default: all 22)\n"
               "  --seed S         the generator's seed (default %llu)\n"
               "  --threads T      generator threads (default: all cores)\n"
               "  --query-dir D    where q1.sql .. q22.sql are (default %s)\n"
               "  --peak-gbps G    the device's bandwidth for the fractions, GB/s (default: measured\n"
               "                   with a device-to-device copy)\n"
               "  --explain        print each query's EXPLAIN ANALYZE on the GPU (after its timed runs)\n",
               static_cast<unsigned long long>(tpch::GeneratorOptions{}.seed), tpch::default_query_dir().c_str());
}

std::optional<RunSettings> parse_arguments(int argc, char** argv) {
  RunSettings s;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--sf")
      s.sf = std::stod(value());
    else if (a == "--repeat")
      s.repeat = std::max(1, std::stoi(value()));
    else if (a == "--host-repeat")
      s.host_repeat = std::max(1, std::stoi(value()));
    else if (a == "--host-jobs")
      s.host_jobs = std::stoul(value());
    else if (a == "--no-host")
      s.host = false;
    else if (a == "--out")
      s.out_dir = value();
    else if (a == "--seed")
      s.seed = std::stoull(value());
    else if (a == "--threads")
      s.threads = static_cast<unsigned>(std::stoul(value()));
    else if (a == "--query-dir")
      s.query_dir = value();
    else if (a == "--peak-gbps")
      s.peak_gbps = std::stod(value());
    else if (a == "--explain")
      s.explain = true;
    else if (a == "--queries") {
      std::stringstream list(value());
      for (std::string q; std::getline(list, q, ',');)
        if (!q.empty()) s.queries.push_back(q);
    } else if (a == "--help" || a == "-h") {
      usage(stdout);
      return std::nullopt;
    } else {
      throw std::invalid_argument("unknown argument " + a);
    }
  }
  return s;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The outcome of running one query on one executor.
struct Timing {
  bool ran = false;
  std::string error;               // first line of the error when it did not run
  bool unsupported = false;        // Not implemented on this executor (yet)
  int runs = 0;                    // timed runs
  double median = 0, minimum = 0;  // seconds
  // The first run (a warm-up): what a query costs the first time, with what
  // its first run makes and keeps (a LIKE's matches, encoded strings).
  double first = 0;
  Result result;
};

// A query whose warm-up run takes longer than this gets fewer timed runs, so
// that one slow query cannot eat the GPU machine's time budget.
constexpr double kSecondsPerQuery = 10;

Timing time_query(Database& db, const tpch::QueryText& text, int warmups, int runs) {
  Timing t;
  std::vector<double> times;
  try {
    for (const auto& statement : text.setup) db.query(statement);
    for (int w = 0; w < warmups; ++w) {  // pool growth, first launches
      auto start = std::chrono::steady_clock::now();
      t.result = db.query(text.select);
      if (w == 0) t.first = seconds_since(start);
      runs = std::clamp(static_cast<int>(kSecondsPerQuery / seconds_since(start)), 1, runs);
    }
    t.runs = runs;
    for (int r = 0; r < runs; ++r) {
      auto start = std::chrono::steady_clock::now();
      t.result = db.query(text.select);
      times.push_back(seconds_since(start));
    }
    for (const auto& statement : text.teardown) db.query(statement);
  } catch (const Error& e) {
    t.unsupported = e.kind() == ErrorKind::NotSupported;
    t.error = std::string(error_kind_name(e.kind())) + ": " + e.message().substr(0, e.message().find('\n'));
    try {  // leave the database as it was: Q15's view must not outlive a failed run
      for (const auto& statement : text.teardown) db.query(statement);
    } catch (const Error&) {
    }
    return t;
  }
  std::sort(times.begin(), times.end());
  t.ran = true;
  t.median = times[times.size() / 2];
  t.minimum = times.front();
  return t;
}

std::string describe(const Value& v) {
  if (std::holds_alternative<std::monostate>(v)) return "NULL";
  if (auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (auto* i = std::get_if<int32_t>(&v)) return std::to_string(*i);
  if (auto* l = std::get_if<int64_t>(&v)) return std::to_string(*l);
  if (auto* d = std::get_if<double>(&v)) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", *d);
    return buffer;
  }
  if (auto* s = std::get_if<std::string>(&v)) return "'" + *s + "'";
  if (auto* date = std::get_if<Date>(&v)) return to_string(*date);
  return to_string(std::get<Decimal>(v));
}

// Empty when `gpu` and `host` are the same result; else what differs first.
std::string difference(const Result& gpu, const Result& host) {
  if (gpu.column_count() != host.column_count())
    return std::to_string(gpu.column_count()) + " columns on the GPU, " + std::to_string(host.column_count()) +
           " on the host";
  for (std::size_t c = 0; c < gpu.column_count(); ++c) {
    if (gpu.column_name(c) != host.column_name(c) || gpu.column_type(c) != host.column_type(c))
      return "column " + std::to_string(c) + " is " + gpu.column_name(c) + " " +
             std::string(type_name(gpu.column_type(c))) + " on the GPU, " + host.column_name(c) + " " +
             std::string(type_name(host.column_type(c))) + " on the host";
  }
  if (gpu.row_count() != host.row_count())
    return std::to_string(gpu.row_count()) + " rows on the GPU, " + std::to_string(host.row_count()) + " on the host";
  for (std::size_t r = 0; r < gpu.row_count(); ++r)
    for (std::size_t c = 0; c < gpu.column_count(); ++c) {
      Value g = gpu.value(r, c), h = host.value(r, c);
      if (!(g == h))
        return "row " + std::to_string(r) + " column " + gpu.column_name(c) + ": " + describe(g) + " on the GPU, " +
               describe(h) + " on the host";
    }
  return {};
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string format(const char* pattern, double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, v);
  return buffer;
}

// The host database reads the same host columns; it needs no device copy.
std::shared_ptr<Table> host_copy(const Table& table) {
  auto copy = std::make_shared<Table>();
  copy->name = table.name;
  copy->rows = table.rows;
  copy->columns = table.columns;
  copy->host = table.host;
  return copy;
}

// Bytes of memory available now (Linux's MemAvailable); 0 when unknown.
std::size_t available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  while (meminfo >> key >> kib) {
    if (key == "MemAvailable:") return kib * 1024;
    meminfo.ignore(256, '\n');
  }
  return 0;
}

// Runs text[i] on the host executor for every i, on `jobs` threads, each
// with its own host Database over the same (read-only) tables.
std::vector<Timing> run_on_host(const std::vector<std::shared_ptr<Table>>& tables,
                                const std::vector<tpch::QueryText>& text, int repeat, std::size_t jobs) {
  std::vector<Timing> timings(text.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    Database db(Options{ExecutorKind::Host});
    for (const auto& t : tables) db.impl().add_table(t);
    for (std::size_t i; (i = next++) < text.size();) timings[i] = time_query(db, text[i], 0, repeat);
  };
  std::vector<std::thread> pool;
  for (std::size_t j = 1; j < jobs; ++j) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  return timings;
}

int run(const RunSettings& s) {
  std::vector<tpch::Query> queries;
  if (s.queries.empty()) queries = tpch::standard_queries();
  for (const auto& name : s.queries) queries.push_back(tpch::find_query(name));
  std::vector<tpch::QueryText> text;
  for (const auto& q : queries) text.push_back(tpch::query_text(q, s.query_dir));

  std::string why;
  const bool have_gpu = gpu_available(&why);
  if (!have_gpu) std::fprintf(stderr, "gpusql_tpch: no usable GPU (%s): the host executor runs alone\n", why.c_str());
  if (!have_gpu && !s.host) {
    std::fprintf(stderr, "gpusql_tpch: nothing to run (no GPU and --no-host)\n");
    return 1;
  }

  // Measured before anything else holds device memory.
  double peak = s.peak_gbps * 1e9;
  std::string peak_source = "given";
  if (have_gpu && peak <= 0) {
    peak = tpch::measure_device_copy_bandwidth();
    peak_source = "measured: device-to-device copy";
  }

  // Declared before the tables so that it is destroyed after the tables'
  // device buffers, which go back to its stream.
  std::optional<Database> gpu;

  tpch::GeneratorOptions options;
  options.scale_factor = s.sf;
  options.seed = s.seed;
  options.threads = s.threads;
  options.columns = tpch::columns_read(queries);
  auto start = std::chrono::steady_clock::now();
  auto tables = tpch::generate(options);
  const double generate_seconds = seconds_since(start);
  // A subset of the queries may leave a table with no column to build.
  std::erase_if(tables, [](const auto& t) { return t->columns.empty(); });
  std::size_t largest_rows = 0;
  for (const auto& t : tables) largest_rows = std::max(largest_rows, t->rows);

  double upload_seconds = 0;
  if (have_gpu) {
    gpu.emplace(Options{ExecutorKind::Gpu});
    start = std::chrono::steady_clock::now();
    for (const auto& t : tables) gpu->impl().add_table(t);
    upload_seconds = seconds_since(start);
  }
  std::fprintf(stderr, "gpusql_tpch: SF %g generated in %.2f s", s.sf, generate_seconds);
  if (have_gpu) std::fprintf(stderr, ", loaded onto the GPU in %.2f s", upload_seconds);
  std::fprintf(stderr, "\n");

  // The host executor's working set: assumed ~128 bytes per row of the
  // largest table (SSB's measure): with --host-jobs 0, as many queries at a
  // time as there are cores and as 60 % of the free memory allows.
  std::size_t host_jobs = s.host_jobs;
  if (host_jobs == 0) {
    host_jobs = std::max(1u, std::thread::hardware_concurrency());
    if (std::size_t free = available_memory())
      host_jobs = std::min(host_jobs, std::max<std::size_t>(1, free / 10 * 6 / (128 * largest_rows + 1)));
  }
  host_jobs = std::clamp<std::size_t>(host_jobs, 1, queries.size());

  // GPU first, alone on the machine; progress goes to stderr as it comes.
  std::vector<Timing> on_gpu(queries.size()), on_host(queries.size());
  if (have_gpu) {
    for (std::size_t i = 0; i < queries.size(); ++i) {
      on_gpu[i] = time_query(*gpu, text[i], 1, s.repeat);
      if (on_gpu[i].ran)
        std::fprintf(stderr, "  %s GPU: %.3f ms\n", queries[i].title.c_str(), on_gpu[i].median * 1e3);
      else
        std::fprintf(stderr, "  %s GPU: %s\n", queries[i].title.c_str(), on_gpu[i].error.c_str());
      if (s.explain && on_gpu[i].ran) {
        try {
          for (const auto& statement : text[i].setup) gpu->query(statement);
          Result plan = gpu->query("EXPLAIN ANALYZE " + text[i].select);
          for (const auto& statement : text[i].teardown) gpu->query(statement);
          for (std::size_t r = 0; r < plan.row_count(); ++r)
            std::fprintf(stderr, "    %s\n", plan.text(r, 0).c_str());
        } catch (const Error& e) {
          std::fprintf(stderr, "    EXPLAIN ANALYZE: %s\n", e.what());
        }
      }
    }
  }
  if (s.host) {
    std::fprintf(stderr, "gpusql_tpch: host executor, %zu quer%s at a time\n", host_jobs,
                 host_jobs == 1 ? "y" : "ies");
    start = std::chrono::steady_clock::now();
    std::vector<std::shared_ptr<Table>> host_tables;
    for (const auto& t : tables) host_tables.push_back(have_gpu ? host_copy(*t) : t);
    on_host = run_on_host(host_tables, text, s.host_repeat, host_jobs);
    std::fprintf(stderr, "gpusql_tpch: host runs took %.1f s\n", seconds_since(start));
  }

  std::printf("## gpusql TPC-H: scale factor %g\n\n", s.sf);
  if (have_gpu)
    std::printf("device: %s; %d GPU runs a query after a warm-up (median, min); peak %.0f GB/s (%s)\n\n",
                gpu->executor_description().c_str(), s.repeat, peak / 1e9, peak_source.c_str());
  else
    std::printf("device: none (%s): host executor only\n\n", why.c_str());
  if (s.host)
    std::printf("host executor: %d run(s) a query (median), %s\n\n", s.host_repeat,
                host_jobs == 1 ? "one query at a time"
                               : (std::to_string(host_jobs) + " queries at a time, each on its own thread").c_str());
  std::printf("rows:");
  for (const auto& t : tables) std::printf(" %s %zu%s", t->name.c_str(), t->rows, &t == &tables.back() ? "" : ",");
  std::printf("; generated in %.2f s (%zu columns built)", generate_seconds, options.columns.size());
  if (have_gpu) std::printf(", loaded onto the GPU in %.2f s", upload_seconds);
  std::printf("\n\n");

  std::printf(
      "| query | GPU median ms | GPU min ms | GPU first ms | result rows | MB read | GB/s | fraction of peak | host ms | "
      "speedup | check |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::string csv =
      "query,sf,gpu_median_ms,gpu_min_ms,gpu_first_ms,result_rows,bytes_read,gbps,fraction_of_peak,host_median_ms,speedup,"
      "status\n";
  int failures = 0, gpu_ran = 0, gpu_unsupported = 0;
  double total_median = 0, total_minimum = 0, total_first = 0, total_host = 0, total_gpu_bytes = 0, total_bytes = 0;
  std::vector<std::string> notes;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const tpch::Query& q = queries[i];
    const Timing& g = on_gpu[i];
    const Timing& h = on_host[i];
    const double bytes = static_cast<double>(tpch::bytes_read(q, tables));
    total_bytes += bytes;

    std::string status;
    if (g.ran && g.runs < s.repeat)
      notes.push_back(q.title + " on the GPU: " + std::to_string(g.runs) + " timed run(s) only, its warm-up was slow");
    if (have_gpu && !g.ran) {
      status = g.unsupported ? "not supported on the GPU yet" : "GPU error";
      notes.push_back(q.title + " on the GPU: " + g.error);
      if (g.unsupported)
        ++gpu_unsupported;
      else
        ++failures;
    }
    if (s.host && !h.ran) {
      status += std::string(status.empty() ? "" : "; ") + "host error";
      notes.push_back(q.title + " on the host: " + h.error);
      ++failures;
    }
    if (g.ran && h.ran) {
      std::string diff = difference(g.result, h.result);
      if (diff.empty()) {
        status = "ok: same as host";
      } else {
        status = "MISMATCH";
        std::fprintf(stderr, "MISMATCH: %s: %s\n", q.title.c_str(), diff.c_str());
        notes.push_back(q.title + " MISMATCH: " + diff);
        ++failures;
      }
    } else if (g.ran) {
      status = "unchecked (no host run)";
    } else if (h.ran && !have_gpu) {
      status = "host only";
    }

    const std::size_t rows = g.ran ? g.result.row_count() : h.ran ? h.result.row_count() : 0;
    std::string gpu_median = "-", gpu_min = "-", gpu_first = "-", gbps = "-", fraction = "-", host_ms = "-", speedup = "-";
    if (g.ran) {
      ++gpu_ran;
      total_median += g.median;
      total_minimum += g.minimum;
      total_first += g.first;
      total_gpu_bytes += bytes;
      gpu_median = format("%.3f", g.median * 1e3);
      gpu_min = format("%.3f", g.minimum * 1e3);
      gpu_first = format("%.3f", g.first * 1e3);
      gbps = format("%.0f", bytes / g.median / 1e9);
      fraction = format("%.2f", bytes / g.median / peak);
    }
    if (h.ran) {
      total_host += h.median;
      host_ms = format("%.1f", h.median * 1e3);
      if (g.ran) speedup = format("%.0fx", h.median / g.median);
    }
    std::printf("| %s | %s | %s | %s | %zu | %.1f | %s | %s | %s | %s | %s |\n", q.title.c_str(), gpu_median.c_str(),
                gpu_min.c_str(), gpu_first.c_str(), rows, bytes / 1e6, gbps.c_str(), fraction.c_str(), host_ms.c_str(), speedup.c_str(),
                status.c_str());
    csv += q.name + "," + format("%g", s.sf) + "," + (g.ran ? format("%.4f", g.median * 1e3) : "") + "," +
           (g.ran ? format("%.4f", g.minimum * 1e3) : "") + "," + (g.ran ? format("%.4f", g.first * 1e3) : "") + "," +
           std::to_string(rows) + "," + format("%.0f", bytes) +
           "," + (g.ran ? format("%.1f", bytes / g.median / 1e9) : "") + "," +
           (g.ran ? format("%.4f", bytes / g.median / peak) : "") + "," +
           (h.ran ? format("%.3f", h.median * 1e3) : "") + "," +
           (g.ran && h.ran ? format("%.1f", h.median / g.median) : "") + "," + csv_field(status) + "\n";
  }
  // The GPU total is over the queries that ran there; its name says so when
  // that is not all of them. Bandwidth and speedup only for a complete total.
  const bool complete = gpu_ran == static_cast<int>(queries.size());
  const std::string total_name =
      complete || !have_gpu
          ? "total"
          : "total (" + std::to_string(gpu_ran) + " of " + std::to_string(queries.size()) + " on the GPU)";
  const bool host_complete =
      s.host && std::all_of(on_host.begin(), on_host.end(), [](const Timing& t) { return t.ran; });
  std::string t_median = "-", t_min = "-", t_first = "-", t_gbps = "-", t_fraction = "-", t_host = "-", t_speedup = "-";
  if (gpu_ran) {
    t_median = format("%.3f", total_median * 1e3);
    t_min = format("%.3f", total_minimum * 1e3);
    t_first = format("%.3f", total_first * 1e3);
    t_gbps = format("%.0f", total_gpu_bytes / total_median / 1e9);
    t_fraction = format("%.2f", total_gpu_bytes / total_median / peak);
  }
  if (host_complete) t_host = format("%.1f", total_host * 1e3);
  if (complete && host_complete) t_speedup = format("%.0fx", total_host / total_median);
  std::printf("| **%s** | %s | %s | %s | | %.1f | %s | %s | %s | %s | |\n", total_name.c_str(), t_median.c_str(),
              t_min.c_str(), t_first.c_str(), total_bytes / 1e6, t_gbps.c_str(), t_fraction.c_str(), t_host.c_str(), t_speedup.c_str());
  csv += "total," + format("%g", s.sf) + "," + (gpu_ran ? format("%.4f", total_median * 1e3) : "") + "," +
         (gpu_ran ? format("%.4f", total_minimum * 1e3) : "") + "," +
         (gpu_ran ? format("%.4f", total_first * 1e3) : "") + ",," + format("%.0f", total_bytes) + "," +
         (gpu_ran ? format("%.1f", total_gpu_bytes / total_median / 1e9) : "") + "," +
         (gpu_ran ? format("%.4f", total_gpu_bytes / total_median / peak) : "") + "," +
         (host_complete ? format("%.3f", total_host * 1e3) : "") + "," +
         (complete && host_complete ? format("%.1f", total_host / total_median) : "") + "," + csv_field(total_name) +
         "\n";

  if (!notes.empty()) {
    std::printf("\n");
    for (const auto& n : notes) std::printf("- %s\n", n.c_str());
  }
  if (have_gpu)
    std::printf("\n%d of %zu queries ran on the GPU, %d not supported there yet; %d failure(s)\n", gpu_ran,
                queries.size(), gpu_unsupported, failures);
  else
    std::printf("\nno GPU: %zu queries on the host executor only, unchecked; %d failure(s)\n", queries.size(),
                failures);
  std::fflush(stdout);
  if (!s.out_dir.empty()) {
    const std::string path = s.out_dir + "/tpch.csv";
    std::ofstream out(path);
    out << csv;
    if (!out) {
      std::fprintf(stderr, "gpusql_tpch: cannot write %s\n", path.c_str());
      return 1;
    }
  }
  if (failures) std::fprintf(stderr, "gpusql_tpch: FAILED: %d failure(s), see above\n", failures);
  return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::optional<RunSettings> settings = parse_arguments(argc, argv);
    if (!settings) return 0;
    return run(*settings);
  } catch (const Error& e) {
    std::fprintf(stderr, "gpusql_tpch: %s\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpusql_tpch: %s\n", e.what());
    usage(stderr);
  }
  return 1;
}
