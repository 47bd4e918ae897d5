// End-to-end query benchmark: SQL text in, host result out, on in-memory
// tables large enough to fill the GPU's memory system (1 GiB DOUBLE and BIGINT columns).
// Each query runs on the CUDA executor (median and minimum of --reps runs
// after a warm-up) and once more on the host executor in the same run, as
// the CPU reference. Effective bandwidth = bytes of the columns the query
// must read / median time, as a fraction of the H100's measured 3.0 TB/s.
//
//   gpusql_bench [--rows N] [--reps K] [--host-reps K] [--out DIR]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "engine/database_impl.hpp"
#include "storage/table.hpp"

using namespace gpusql;

namespace {

constexpr double kPeakBytesPerSecond = 3.0e12;  // measured on the lent H100 (device copy)

struct Query {
  std::string name;
  std::string sql;
  double bytes_per_row;  // of the columns it must read
};

std::shared_ptr<Table> make_table(std::size_t rows) {
  auto table = std::make_shared<Table>();
  table->name = "big";
  table->rows = rows;
  HostColumn v(DataType::double_(), rows), k(DataType::integer(), rows), b(DataType::bigint(), rows);
  uint64_t state = 42;
  auto values = v.values<double>();
  auto keys = k.values<int32_t>();
  auto bigs = b.values<int64_t>();
  for (std::size_t i = 0; i < rows; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    values[i] = static_cast<double>(state >> 11) / 9007199254740992.0;
    keys[i] = static_cast<int32_t>((state >> 33) % 1000);
    bigs[i] = static_cast<int64_t>((state >> 20) % 1000000007);  // its total stays inside BIGINT
  }
  table->columns = {{"v", DataType::double_()}, {"k", DataType::integer()}, {"b", DataType::bigint()}};
  table->host.push_back(std::move(v));
  table->host.push_back(std::move(k));
  table->host.push_back(std::move(b));
  return table;
}

double seconds_of(Database& db, const std::string& sql, std::size_t* rows_out) {
  auto start = std::chrono::steady_clock::now();
  Result r = db.query(sql);
  auto end = std::chrono::steady_clock::now();
  *rows_out = r.row_count();
  return std::chrono::duration<double>(end - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t rows = std::size_t{1} << 27;  // 128 Mi rows: v is 1 GiB
  int reps = 15, host_reps = 1;
  std::string out_dir;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--rows")) rows = std::stoull(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--reps")) reps = std::stoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--host-reps")) host_reps = std::stoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--out")) out_dir = argv[i + 1];
  }
  try {
    Database gpu(Options{ExecutorKind::Gpu});
    Database host(Options{ExecutorKind::Host});
    auto table = make_table(rows);
    gpu.impl().add_table(table);
    // The host database shares the host columns; it needs no device copy.
    auto host_table = std::make_shared<Table>();
    host_table->name = table->name;
    host_table->rows = table->rows;
    host_table->columns = table->columns;
    host_table->host = table->host;
    host.impl().add_table(host_table);

    const std::vector<Query> queries = {
        {"sum", "SELECT SUM(v) FROM big", 8},
        {"sum_bigint", "SELECT SUM(b) FROM big", 8},
        {"sum_bigint_filter_10", "SELECT SUM(b), COUNT(*) FROM big WHERE k < 100", 12},
        {"count_filter_50", "SELECT COUNT(*) FROM big WHERE v < 0.5", 8},
        {"aggregates_filter_10", "SELECT SUM(v), MIN(v), MAX(v), COUNT(*) FROM big WHERE k < 100", 12},
        {"select_filter_1", "SELECT k FROM big WHERE v < 0.01", 8.0 + 0.01 * 4},
        {"select_filter_10", "SELECT v, k FROM big WHERE k < 100", 4.0 + 0.1 * 12},
    };
    std::printf("gpusql query benchmark: %zu rows, %d GPU reps (median, min), %d host rep(s); device: %s\n\n", rows,
                reps, host_reps, gpu.executor_description().c_str());
    std::printf("| query | GPU median ms | GPU min ms | result rows | GB/s | fraction of 3.0 TB/s | host ms | speedup |\n");
    std::printf("|---|---|---|---|---|---|---|---|\n");
    std::string csv = "query,sql,rows,gpu_median_ms,gpu_min_ms,result_rows,gbps,fraction,host_ms,speedup\n";
    for (const auto& q : queries) {
      std::size_t result_rows = 0;
      seconds_of(gpu, q.sql, &result_rows);  // warm-up: pool growth, first launch
      std::vector<double> times;
      for (int r = 0; r < reps; ++r) times.push_back(seconds_of(gpu, q.sql, &result_rows));
      std::sort(times.begin(), times.end());
      double median = times[times.size() / 2], minimum = times.front();
      std::vector<double> host_times;
      std::size_t host_rows = 0;
      for (int r = 0; r < host_reps; ++r) host_times.push_back(seconds_of(host, q.sql, &host_rows));
      std::sort(host_times.begin(), host_times.end());
      double host_median = host_times.empty() ? 0.0 : host_times[host_times.size() / 2];
      if (!host_times.empty() && host_rows != result_rows) {
        std::fprintf(stderr, "MISMATCH: %s gives %zu rows on the GPU, %zu on the host\n", q.name.c_str(), result_rows,
                     host_rows);
        return 1;
      }
      double bytes = q.bytes_per_row * static_cast<double>(rows);
      double gbps = bytes / median / 1e9;
      std::printf("| %s | %.3f | %.3f | %zu | %.0f | %.2f | %.1f | %.0fx |\n", q.name.c_str(), median * 1e3,
                  minimum * 1e3, result_rows, gbps, bytes / median / kPeakBytesPerSecond, host_median * 1e3,
                  host_median / median);
      char line[512];
      std::snprintf(line, sizeof line, "%s,\"%s\",%zu,%.4f,%.4f,%zu,%.1f,%.4f,%.2f,%.1f\n", q.name.c_str(),
                    q.sql.c_str(), rows, median * 1e3, minimum * 1e3, result_rows, gbps,
                    bytes / median / kPeakBytesPerSecond, host_median * 1e3, host_median / median);
      csv += line;
    }
    if (!out_dir.empty()) std::ofstream(out_dir + "/query_bench.csv") << csv;
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
