// Kernel microbenchmarks: each device operator on its own, on columns of
// about 1 GiB, against its CUB counterpart in the same run where there is
// one, and against a CPU reference on every core (bench/cpu_reference.cpp:
// the same operator as a plain OpenMP loop over host copies of the same
// inputs; its results are checked against the GPU's). Times are medians of
// --reps runs (CUDA events, after a warm-up; the CPU's: steady_clock over
// --cpu-reps runs); effective bandwidth = bytes the operation must move /
// median time, also as a fraction of the H100's measured 3.0 TB/s.
//
//   kernel_bench [--reps K] [--cpu-reps K] [--scale F] [--out DIR] [--only TEXT]
//   (--cpu-reps 0: no CPU reference; --scale 0.25: quarter-size inputs;
//    --only: times only the benchmarks whose name contains TEXT)
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "bench/cpu_reference.hpp"
#include "core/aggregate_state.hpp"
#include "planner/bound_expression_builders.hpp"
#include "planner/expression_compiler.hpp"
#include "kernels/aggregate.hpp"
#include "kernels/arg_extreme.hpp"
#include "kernels/fast_predicate.cuh"
#include "kernels/filter.hpp"
#include "kernels/gather.hpp"
#include "kernels/group_by.hpp"
#include "kernels/hash_join.hpp"
#include "kernels/launch.hpp"
#include "kernels/nested_loop_join.hpp"
#include "kernels/sort.hpp"

using namespace gpusql;

namespace {

constexpr double kPeakBytesPerSecond = 3.0e12;  // measured on the lent H100 (device copy)

// ---- data, generated on the device ----

__device__ __forceinline__ uint64_t hash64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

// uniform in [0, 1)
__global__ void fill_uniform_float(float* out, uint64_t n, uint64_t seed) {
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<float>(hash64(i ^ seed) >> 40) / 16777216.0f;
}
__global__ void fill_uniform_double(double* out, uint64_t n, uint64_t seed) {
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<double>(hash64(i ^ seed) >> 11) / 9007199254740992.0;
}
// in [0, range)
__global__ void fill_int(int32_t* out, uint64_t n, uint64_t range, uint64_t seed) {
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<int32_t>(hash64(i ^ seed) % range);
}
__global__ void flags_less(const float* values, float threshold, uint64_t n, uint8_t* flags) {
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    flags[i] = values[i] < threshold;
}
// Distinct 32-bit keys made distinct 64-bit words that need all 64 bits
// to sort (an odd multiplier is a bijection): what the hash table's key
// words are for keys without a small range.
__global__ void to_wide_keys(const int32_t* in, uint64_t n, uint64_t* out) {
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<uint64_t>(static_cast<uint32_t>(in[i])) * 0x9e3779b97f4a7c15ull;
}

__global__ void to_unsigned_keys(const int32_t* in, uint64_t n, uint32_t* out) {
  for (uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<uint32_t>(in[i]) ^ 0x80000000u;
}

__global__ void empty_kernel() {}

struct LessThan {
  float threshold;
  __host__ __device__ bool operator()(float v) const { return v < threshold; }
};
// The engine's REAL < DOUBLE comparison (the value widened), for checking.
struct WidenedLessThan {
  double threshold;
  __host__ __device__ bool operator()(float v) const { return static_cast<double>(v) < threshold; }
};

// a < a_max AND b < b_max, the two columns read by the functor at the position.
struct BothLessAt {
  const float* a;
  const float* b;
  float a_max, b_max;
  __device__ bool operator()(uint32_t i) const { return a[i] < a_max && b[i] < b_max; }
};
// The same on the zipped values (a, b).
struct BothLess {
  float a_max, b_max;
  template <class Pair>
  __device__ bool operator()(const Pair& ab) const {
    return ::cuda::std::get<0>(ab) < a_max && ::cuda::std::get<1>(ab) < b_max;
  }
};

// Runs `run` with fast predicates sent to another path of filter_rows (the
// setting filter_kernel): cub (cub::DeviceSelect, no bitmask filter) or
// ordered (the ordered kernel).
void with_filter_kernel(DeviceContext& context, const char* kernel, const std::function<void()>& run) {
  const Settings saved = context.settings();
  Settings settings = saved;
  const std::string k = kernel;
  settings.filter_kernel = k == "cub" ? FilterKernel::Cub : k == "ordered" ? FilterKernel::Ordered : FilterKernel::Auto;
  context.set_settings(settings);
  run();
  context.set_settings(saved);
}

// ---- expressions as the engine compiles them ----

using build::binary;
using build::column;
// A DOUBLE constant.
BoundExpr constant(double v) { return build::real_constant(v); }
ExprProgram compile(const BoundExpr& e) {
  SlotMap slots;
  return compile_expression(e, slots);
}
ColumnPointer pointer(const void* data, Type type, uint8_t side = 0) {
  ColumnPointer p;
  p.data = data;
  p.type = type;
  p.side = side;
  return p;
}
ColumnSet set_of(std::initializer_list<ColumnPointer> columns) {
  ColumnSet set;
  for (const auto& c : columns) set.columns[set.count++] = c;
  return set;
}

// ---- timing ----

struct Bench {
  DeviceContext& context;
  int reps;
  int cpu_reps;      // runs of each CPU reference (0: none)
  std::string only;  // times only the benchmarks whose name contains it
  std::string csv = "benchmark,variant,items,median_ms,bytes,gbps,fraction,items_per_s\n";

  double median_ms(const std::function<void()>& run) {
    cudaEvent_t start, stop;
    GPUSQL_CUDA_TRY(cudaEventCreate(&start));
    GPUSQL_CUDA_TRY(cudaEventCreate(&stop));
    run();  // warm-up: pool growth, first launch
    context.synchronize();
    std::vector<float> times;
    for (int r = 0; r < reps; ++r) {
      GPUSQL_CUDA_TRY(cudaEventRecord(start, context.stream()));
      run();
      GPUSQL_CUDA_TRY(cudaEventRecord(stop, context.stream()));
      GPUSQL_CUDA_TRY(cudaEventSynchronize(stop));
      float ms = 0;
      GPUSQL_CUDA_TRY(cudaEventElapsedTime(&ms, start, stop));
      times.push_back(ms);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
  }

  // The CPU reference's median over cpu_reps runs (after a warm-up run:
  // first touch of its buffers).
  double median_cpu_ms(const std::function<void()>& run) {
    run();
    std::vector<double> times;
    for (int r = 0; r < cpu_reps; ++r) {
      const auto start = std::chrono::steady_clock::now();
      run();
      times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
  }

  // Whether --only selects the benchmark `name` (its checks are skipped too).
  bool wants(const std::string& name) const { return name.find(only) != std::string::npos; }
  bool wants_cpu(const std::string& name) const { return cpu_reps > 0 && wants(name); }

  void report(const std::string& name, const std::string& variant, double items, double bytes,
              const std::function<void()>& run) {
    if (!wants(name)) return;
    line(name, variant, items, bytes, median_ms(run));
  }

  // The CPU reference of benchmark `name`, labelled with its thread count.
  void report_cpu(const std::string& name, const std::string& variant, double items, double bytes,
                  const std::function<void()>& run) {
    if (!wants_cpu(name)) return;
    line(name, "CPU reference, " + std::to_string(bench::cpu::threads()) + " threads: " + variant, items, bytes,
         median_cpu_ms(run));
  }

  void line(const std::string& name, const std::string& variant, double items, double bytes, double ms) {
    double gbps = bytes / (ms * 1e-3) / 1e9;
    double fraction = bytes / (ms * 1e-3) / kPeakBytesPerSecond;
    double rate = items / (ms * 1e-3);
    std::printf("| %s | %s | %.0f | %.3f | %.0f | %.2f | %.3g |\n", name.c_str(), variant.c_str(), items, ms, gbps,
                fraction, rate);
    std::fflush(stdout);
    char line[512];
    std::snprintf(line, sizeof line, "%s,%s,%.0f,%.4f,%.0f,%.1f,%.4f,%.4g\n", name.c_str(), variant.c_str(), items,
                  ms, bytes, gbps, fraction, rate);
    csv += line;
  }
};

unsigned grid(std::size_t n) { return static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 65535)); }

// n values of a device buffer, copied to the host (synchronizes).
template <class T>
std::vector<T> to_host(const void* device, std::size_t n, DeviceContext& context) {
  std::vector<T> host(n);
  context.copy_to_host(host.data(), device, n * sizeof(T));
  return host;
}

// Counts `mismatches` when the CPU reference's result differs from the GPU's.
void expect_same(bool same, const std::string& what, int& mismatches) {
  if (same) return;
  std::fprintf(stderr, "%s: the CPU reference and the GPU differ\n", what.c_str());
  mismatches++;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 10, cpu_reps = 3;
  double scale = 1.0;
  std::string out_dir, only;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--only")) only = argv[i + 1];
    if (!std::strcmp(argv[i], "--reps")) reps = std::stoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--cpu-reps")) cpu_reps = std::stoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--scale")) scale = std::stod(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--out")) out_dir = argv[i + 1];
  }
  try {
    DeviceContext context;
    Bench bench{context, reps, cpu_reps, only};
    cudaStream_t stream = context.stream();
    const std::size_t gib = static_cast<std::size_t>(scale * static_cast<double>(std::size_t{1} << 30));
    const std::size_t n4 = gib / 4, n8 = gib / 8;  // rows of a 1 GiB 4-byte / 8-byte column
    std::printf("gpusql kernel benchmark on %s: medians of %d runs (CPU reference: %d runs, %d threads); "
                "1 GiB = %zu 4-byte or %zu 8-byte values\n\n",
                context.name().c_str(), reps, cpu_reps, bench::cpu::threads(), n4, n8);
    std::printf("| benchmark | variant | items | median ms | GB/s | of 3.0 TB/s | items/s |\n|---|---|---|---|---|---|---|\n");
    DeviceBuffer error(context, sizeof(uint32_t));
    GPUSQL_CUDA_TRY(cudaMemsetAsync(error.data(), 0, sizeof(uint32_t), stream));
    uint32_t* d_error = error.as<uint32_t>();
    int mismatches = 0;  // kernel results that differ from CUB's

    // ---- filter: v < threshold over a 1 GiB REAL column ----
    {
      DeviceBuffer values(context, n4 * sizeof(float)), out(context, n4 * sizeof(uint32_t)), flags(context, n4);
      DeviceBuffer count(context, sizeof(uint32_t)), temp;
      fill_uniform_float<<<grid(n4), 256, 0, stream>>>(values.as<float>(), n4, 1);
      ColumnSet columns = set_of({pointer(values.data(), Type::Real)});
      std::vector<float> host_values;
      std::vector<uint32_t> host_out;
      for (double selectivity : {0.01, 0.10, 0.50, 0.90}) {
        ExprProgram predicate =
            compile(binary(Op::Lt, DataType::boolean(), column(0, DataType::real()), constant(selectivity)));
        const float threshold = static_cast<float>(selectivity);
        const double bytes = static_cast<double>(n4) * (4.0 + 4.0 * selectivity);
        const std::string name = "filter " + std::to_string(static_cast<int>(selectivity * 100)) + "%";
        if (!bench.wants(name)) continue;
        std::size_t selected = 0;
        // The engine's filter path: ids in ascending order, by the one-pass
        // bitmask filter (flag bits kept in registers, look-back offsets).
        bench.report(name, "gpusql filter_rows (one-pass bitmask filter, engine path)", n4, bytes, [&] {
          selected = kernels::filter_rows(predicate, columns, nullptr, n4, out.as<uint32_t>(), d_error, context);
        });
        // Same ids as CUB's (also ordered) with the engine's comparison: REAL widened to DOUBLE.
        auto check_ids = [&] {
          DeviceBuffer expected(context, n4 * sizeof(uint32_t));
          thrust::counting_iterator<uint32_t> positions(0);
          std::size_t bytes_needed = 0;
          GPUSQL_CUDA_TRY(cub::DeviceSelect::FlaggedIf(nullptr, bytes_needed, positions, values.as<float>(),
                                                       expected.as<uint32_t>(), count.as<uint32_t>(),
                                                       static_cast<int64_t>(n4), WidenedLessThan{selectivity}, stream));
          DeviceBuffer check_temp(context, std::max<std::size_t>(1, bytes_needed));
          GPUSQL_CUDA_TRY(cub::DeviceSelect::FlaggedIf(check_temp.data(), bytes_needed, positions, values.as<float>(),
                                                       expected.as<uint32_t>(), count.as<uint32_t>(),
                                                       static_cast<int64_t>(n4), WidenedLessThan{selectivity}, stream));
          uint32_t expected_count = 0;
          GPUSQL_CUDA_TRY(cudaMemcpyAsync(&expected_count, count.data(), sizeof expected_count, cudaMemcpyDeviceToHost,
                                          stream));
          context.synchronize();
          bool same = expected_count == selected &&
                      thrust::equal(thrust::cuda::par.on(stream), out.as<uint32_t>(), out.as<uint32_t>() + selected,
                                    expected.as<uint32_t>());
          if (!same) {
            std::fprintf(stderr, "%s: filter_rows selected %zu ids, CUB %u; the ids %s\n", name.c_str(), selected,
                         expected_count, expected_count == selected ? "differ" : "were not compared");
            mismatches++;
          }
        };
        check_ids();
        bench.report(name, "gpusql filter_rows, filter_kernel=cub (cub::DeviceSelect::FlaggedIf)", n4, bytes,
                     [&] {
                       with_filter_kernel(context, "cub", [&] {
                         kernels::filter_rows(predicate, columns, nullptr, n4, out.as<uint32_t>(), d_error, context);
                       });
                     });
        bench.report(name, "gpusql filter_rows, filter_kernel=ordered (old ordered kernel)", n4, bytes, [&] {
          with_filter_kernel(context, "ordered", [&] {
            kernels::filter_rows(predicate, columns, nullptr, n4, out.as<uint32_t>(), d_error, context);
          });
        });
        bench.report(name, "cub::DeviceSelect::FlaggedIf (values as flags)", n4, bytes, [&] {
          thrust::counting_iterator<uint32_t> positions(0);
          std::size_t bytes_needed = 0;
          GPUSQL_CUDA_TRY(cub::DeviceSelect::FlaggedIf(nullptr, bytes_needed, positions, values.as<float>(),
                                                       out.as<uint32_t>(), count.as<uint32_t>(),
                                                       static_cast<int64_t>(n4), LessThan{threshold}, stream));
          if (temp.size() < bytes_needed) temp = DeviceBuffer(context, bytes_needed);
          GPUSQL_CUDA_TRY(cub::DeviceSelect::FlaggedIf(temp.data(), bytes_needed, positions, values.as<float>(),
                                                       out.as<uint32_t>(), count.as<uint32_t>(),
                                                       static_cast<int64_t>(n4), LessThan{threshold}, stream));
        });
        // As the engine must: the count copied to the host, the stream synchronized.
        bench.report(name, "cub::DeviceSelect::FlaggedIf + count to host (as filter_rows)", n4, bytes, [&] {
          thrust::counting_iterator<uint32_t> positions(0);
          std::size_t bytes_needed = 0;
          GPUSQL_CUDA_TRY(cub::DeviceSelect::FlaggedIf(nullptr, bytes_needed, positions, values.as<float>(),
                                                       out.as<uint32_t>(), count.as<uint32_t>(),
                                                       static_cast<int64_t>(n4), LessThan{threshold}, stream));
          if (temp.size() < bytes_needed) temp = DeviceBuffer(context, bytes_needed);
          GPUSQL_CUDA_TRY(cub::DeviceSelect::FlaggedIf(temp.data(), bytes_needed, positions, values.as<float>(),
                                                       out.as<uint32_t>(), count.as<uint32_t>(),
                                                       static_cast<int64_t>(n4), LessThan{threshold}, stream));
          uint32_t host_count = 0;
          context.copy_to_host(&host_count, count.data(), sizeof host_count);  // as filter_rows reads its count
        });
        flags_less<<<grid(n4), 256, 0, stream>>>(values.as<float>(), threshold, n4, flags.as<uint8_t>());
        bench.report(name, "cub::DeviceSelect::Flagged (precomputed byte flags)", n4,
                     static_cast<double>(n4) * (1.0 + 4.0 * selectivity), [&] {
                       thrust::counting_iterator<uint32_t> positions(0);
                       std::size_t bytes_needed = 0;
                       GPUSQL_CUDA_TRY(cub::DeviceSelect::Flagged(nullptr, bytes_needed, positions, flags.as<uint8_t>(),
                                                                  out.as<uint32_t>(), count.as<uint32_t>(),
                                                                  static_cast<int64_t>(n4), stream));
                       if (temp.size() < bytes_needed) temp = DeviceBuffer(context, bytes_needed);
                       GPUSQL_CUDA_TRY(cub::DeviceSelect::Flagged(temp.data(), bytes_needed, positions,
                                                                  flags.as<uint8_t>(), out.as<uint32_t>(),
                                                                  count.as<uint32_t>(), static_cast<int64_t>(n4),
                                                                  stream));
                     });
        if (bench.wants_cpu(name)) {
          if (host_values.empty()) {
            host_values = to_host<float>(values.data(), n4, context);
            host_out.resize(n4);
          }
          std::size_t cpu_selected = 0;
          bench.report_cpu(name, "positions where (double) v < t, count pass + write pass", n4, bytes, [&] {
            cpu_selected = bench::cpu::filter_less(host_values.data(), n4, selectivity, host_out.data());
          });
          // filter_rows' ids (the first variant's run, checked against CUB's above) against the CPU's.
          selected = kernels::filter_rows(predicate, columns, nullptr, n4, out.as<uint32_t>(), d_error, context);
          expect_same(cpu_selected == selected &&
                          to_host<uint32_t>(out.data(), selected, context) ==
                              std::vector<uint32_t>(host_out.begin(), host_out.begin() + cpu_selected),
                      name, mismatches);
        }
      }
    }

    // ---- filter: a < t AND b < t over two 1 GiB REAL columns (t = sqrt(selectivity)) ----
    {
      DeviceBuffer a(context, n4 * sizeof(float)), b(context, n4 * sizeof(float));
      DeviceBuffer out(context, n4 * sizeof(uint32_t)), expected(context, n4 * sizeof(uint32_t));
      DeviceBuffer count(context, sizeof(uint32_t)), temp;
      fill_uniform_float<<<grid(n4), 256, 0, stream>>>(a.as<float>(), n4, 11);
      fill_uniform_float<<<grid(n4), 256, 0, stream>>>(b.as<float>(), n4, 12);
      ColumnSet columns = set_of({pointer(a.data(), Type::Real), pointer(b.data(), Type::Real)});
      thrust::counting_iterator<uint32_t> positions(0);
      std::vector<float> host_a, host_b;
      std::vector<uint32_t> host_out;
      for (double selectivity : {0.01, 0.10, 0.50}) {
        // A float threshold, so the engine's widened comparison and the plain
        // float one select the same rows.
        const float threshold = static_cast<float>(std::sqrt(selectivity));
        ExprProgram predicate = compile(binary(
            Op::And, DataType::boolean(),
            binary(Op::Lt, DataType::boolean(), column(0, DataType::real()), constant(threshold)),
            binary(Op::Lt, DataType::boolean(), column(1, DataType::real()), constant(threshold))));
        kernels::FastPredicate fast;
        if (!kernels::make_fast_predicate(predicate, columns, fast) || fast.count != 2) {
          std::fprintf(stderr, "a < t AND b < t did not compile to a two-term fast predicate\n");
          mismatches++;
        }
        // Both columns read (b only where a passes, at sector granularity; the
        // logical bytes are counted), the ids written.
        const double bytes = static_cast<double>(n4) * (8.0 + 4.0 * selectivity);
        const std::string name = "filter 2 terms " + std::to_string(static_cast<int>(selectivity * 100)) + "%";
        if (!bench.wants(name)) continue;
        auto cub_if = [&](uint32_t* d_ids) {
          const BothLessAt holds{a.as<float>(), b.as<float>(), threshold, threshold};
          std::size_t bytes_needed = 0;
          GPUSQL_CUDA_TRY(cub::DeviceSelect::If(nullptr, bytes_needed, positions, d_ids, count.as<uint32_t>(),
                                                static_cast<int64_t>(n4), holds, stream));
          if (temp.size() < bytes_needed) temp = DeviceBuffer(context, bytes_needed);
          GPUSQL_CUDA_TRY(cub::DeviceSelect::If(temp.data(), bytes_needed, positions, d_ids, count.as<uint32_t>(),
                                                static_cast<int64_t>(n4), holds, stream));
        };
        // The reference ids, by the plain CUB call.
        cub_if(expected.as<uint32_t>());
        uint32_t expected_count = 0;
        GPUSQL_CUDA_TRY(
            cudaMemcpyAsync(&expected_count, count.data(), sizeof expected_count, cudaMemcpyDeviceToHost, stream));
        context.synchronize();
        // Whether `out` holds the reference ids (`selected`: their count,
        // from the host or from `count` on the device when negative).
        auto check = [&](const char* variant, int64_t selected) {
          if (selected < 0) {
            uint32_t c = 0;
            GPUSQL_CUDA_TRY(cudaMemcpyAsync(&c, count.data(), sizeof c, cudaMemcpyDeviceToHost, stream));
            context.synchronize();
            selected = c;
          }
          bool same = static_cast<uint32_t>(selected) == expected_count &&
                      thrust::equal(thrust::cuda::par.on(stream), out.as<uint32_t>(), out.as<uint32_t>() + selected,
                                    expected.as<uint32_t>());
          if (!same) {
            std::fprintf(stderr, "%s: %s selected %lld ids, cub::DeviceSelect::If %u; the ids %s\n", name.c_str(),
                         variant, static_cast<long long>(selected), expected_count,
                         static_cast<uint32_t>(selected) == expected_count ? "differ" : "were not compared");
            mismatches++;
          }
        };
        // filter_rows down each of its paths (filter_kernel; null:
        // the default), every result checked against CUB's ids.
        struct Path {
          const char* variant;
          const char* kernel;
          const char* checked_as;
        };
        const Path paths[] = {
            {"gpusql filter_rows (one-pass bitmask filter, engine path)", nullptr, "filter_rows"},
            {"gpusql filter_rows, filter_kernel=cub (cub::DeviceSelect::If + TermsHold<2>)", "cub",
             "filter_rows (cub: TermsHold)"},
            {"gpusql filter_rows, filter_kernel=ordered (old ordered kernel)", "ordered",
             "filter_rows (ordered kernel)"}};
        for (const Path& path : paths) {
          std::size_t selected = 0;
          auto run = [&] {
            selected = kernels::filter_rows(predicate, columns, nullptr, n4, out.as<uint32_t>(), d_error, context);
          };
          bench.report(name, path.variant, n4, bytes, [&] {
            if (path.kernel) with_filter_kernel(context, path.kernel, run);
            else run();
          });
          check(path.checked_as, static_cast<int64_t>(selected));
        }
        bench.report(name, "cub::DeviceSelect::If (positions, functor loads a[i], b[i])", n4, bytes,
                     [&] { cub_if(out.as<uint32_t>()); });
        check("cub::DeviceSelect::If (positions)", -1);
        bench.report(name, "cub::DeviceSelect::FlaggedIf (positions, zip(a, b) as flags)", n4, bytes, [&] {
          auto ab = thrust::make_zip_iterator(a.as<float>(), b.as<float>());
          const BothLess holds{threshold, threshold};
          std::size_t bytes_needed = 0;
          GPUSQL_CUDA_TRY(cub::DeviceSelect::FlaggedIf(nullptr, bytes_needed, positions, ab, out.as<uint32_t>(),
                                                       count.as<uint32_t>(), static_cast<int64_t>(n4), holds, stream));
          if (temp.size() < bytes_needed) temp = DeviceBuffer(context, bytes_needed);
          GPUSQL_CUDA_TRY(cub::DeviceSelect::FlaggedIf(temp.data(), bytes_needed, positions, ab, out.as<uint32_t>(),
                                                       count.as<uint32_t>(), static_cast<int64_t>(n4), holds, stream));
        });
        check("cub::DeviceSelect::FlaggedIf (zip)", -1);
        if (bench.wants_cpu(name)) {
          if (host_a.empty()) {
            host_a = to_host<float>(a.data(), n4, context);
            host_b = to_host<float>(b.data(), n4, context);
            host_out.resize(n4);
          }
          std::size_t cpu_selected = 0;
          bench.report_cpu(name, "positions where a < t AND b < t, count pass + write pass", n4, bytes, [&] {
            cpu_selected = bench::cpu::filter_both_less(host_a.data(), host_b.data(), n4, threshold, host_out.data());
          });
          expect_same(cpu_selected == expected_count &&
                          to_host<uint32_t>(expected.data(), expected_count, context) ==
                              std::vector<uint32_t>(host_out.begin(), host_out.begin() + cpu_selected),
                      name, mismatches);
        }
      }
    }

    // ---- SUM over a 1 GiB DOUBLE column ----
    {
      DeviceBuffer values(context, n8 * sizeof(double)), result(context, sizeof(double)), temp;
      fill_uniform_double<<<grid(n8), 256, 0, stream>>>(values.as<double>(), n8, 2);
      ColumnSet columns = set_of({pointer(values.data(), Type::Double)});
      AggSpec sum;
      sum.kind = AggKind::Sum;
      sum.cls = Cls::Double;
      sum.arg = compile(column(0, DataType::double_()));
      // The engine's path for SUM(v) without WHERE or GROUP BY: one kernel,
      // the passes over the chunk states at its end (kernels/column_reduce.cu).
      bench.report("SUM double", "gpusql aggregate_rows (canonical order; one kernel)", n8, n8 * 8.0, [&] {
        kernels::aggregate_rows(ExprProgram{}, {sum}, columns, nullptr, n8, d_error, context);
      });
      // SUM(v), MAX(v): two aggregates take the lean fold and its passes as
      // kernels, as a WHERE does; 8 bytes read a row, as above.
      AggSpec max = sum;
      max.kind = AggKind::Max;
      bench.report("SUM double", "gpusql aggregate_rows SUM, MAX (lean fold + passes)", n8, n8 * 8.0, [&] {
        kernels::aggregate_rows(ExprProgram{}, {sum, max}, columns, nullptr, n8, d_error, context);
      });
      // COUNT(*), SUM(v) WHERE v < 0.5: the filter fused into the same pass.
      AggSpec count_star;
      ExprProgram half = compile(binary(Op::Lt, DataType::boolean(), column(0, DataType::double_()), constant(0.5)));
      bench.report("SUM double", "gpusql COUNT(*), SUM WHERE v < 0.5 (fused filter)", n8, n8 * 8.0, [&] {
        kernels::aggregate_rows(half, {count_star, sum}, columns, nullptr, n8, d_error, context);
      });
      bench.report("SUM double", "cub::DeviceReduce::Sum", n8, n8 * 8.0, [&] {
        std::size_t bytes_needed = 0;
        GPUSQL_CUDA_TRY(cub::DeviceReduce::Sum(nullptr, bytes_needed, values.as<double>(), result.as<double>(),
                                               static_cast<int64_t>(n8), stream));
        if (temp.size() < bytes_needed) temp = DeviceBuffer(context, bytes_needed);
        GPUSQL_CUDA_TRY(cub::DeviceReduce::Sum(temp.data(), bytes_needed, values.as<double>(), result.as<double>(),
                                               static_cast<int64_t>(n8), stream));
      });
      // As the engine must: the sum copied to the host, the stream synchronized.
      bench.report("SUM double", "cub::DeviceReduce::Sum + result to host (as aggregate_rows)", n8, n8 * 8.0, [&] {
        std::size_t bytes_needed = 0;
        GPUSQL_CUDA_TRY(cub::DeviceReduce::Sum(nullptr, bytes_needed, values.as<double>(), result.as<double>(),
                                               static_cast<int64_t>(n8), stream));
        if (temp.size() < bytes_needed) temp = DeviceBuffer(context, bytes_needed);
        GPUSQL_CUDA_TRY(cub::DeviceReduce::Sum(temp.data(), bytes_needed, values.as<double>(), result.as<double>(),
                                               static_cast<int64_t>(n8), stream));
        double host_sum = 0;
        context.copy_to_host(&host_sum, result.data(), sizeof host_sum);  // as aggregate_rows reads its result
      });
      if (bench.wants_cpu("SUM double")) {
        const std::vector<double> host_values = to_host<double>(values.data(), n8, context);
        double cpu_sum = 0;
        bench.report_cpu("SUM double", "OpenMP sum reduction", n8, n8 * 8.0,
                         [&] { cpu_sum = bench::cpu::sum(host_values.data(), n8); });
        double gpu_sum = 0;
        context.copy_to_host(&gpu_sum, result.data(), sizeof gpu_sum);  // CUB's, from the last run above
        // Different orders of addition: equal to 1e-9 relative.
        expect_same(std::fabs(cpu_sum - gpu_sum) <= 1e-9 * std::fabs(gpu_sum), "SUM double", mismatches);
      }
    }

    // ---- ARG_MIN over a 1 GiB INTEGER column ----
    {
      DeviceBuffer values(context, n4 * sizeof(int32_t)), word(context, sizeof(unsigned long long));
      fill_int<<<grid(n4), 256, 0, stream>>>(values.as<int32_t>(), n4, 2000000000ull, 3);
      auto reset = [&] { GPUSQL_CUDA_TRY(cudaMemsetAsync(word.data(), 0xff, sizeof(unsigned long long), stream)); };
      bench.report("ARG_MIN int32", "packed atomicMin (warp + block pre-reduced)", n4, n4 * 4.0, [&] {
        reset();
        kernels::packed_arg_min_int32(values.as<int32_t>(), n4, word.as<unsigned long long>(), context);
      });
      bench.report("ARG_MIN int32", "CAS loop per warp", n4, n4 * 4.0, [&] {
        reset();
        kernels::cas_arg_min_int32(values.as<int32_t>(), n4, word.as<unsigned long long>(), context);
      });
      ColumnSet columns = set_of({pointer(values.data(), Type::Integer)});
      std::vector<kernels::PackedArg> args = {{AggKind::ArgMin, Type::Integer, compile(column(0, DataType::integer()))}};
      bench.report("ARG_MIN int32", "gpusql packed_arg_extreme (query path)", n4, n4 * 4.0, [&] {
        kernels::packed_arg_extreme(ExprProgram{}, args, columns, n4, d_error, context);
      });
      AggSpec arg_min;
      arg_min.kind = AggKind::ArgMin;
      arg_min.cls = Cls::Int;
      arg_min.arg = args[0].order;
      bench.report("ARG_MIN int32", "generic AggState tree (aggregate_rows)", n4, n4 * 4.0, [&] {
        kernels::aggregate_rows(ExprProgram{}, {arg_min}, columns, nullptr, n4, d_error, context);
      });
      if (bench.wants_cpu("ARG_MIN int32")) {
        const std::vector<int32_t> host_values = to_host<int32_t>(values.data(), n4, context);
        bench::cpu::ArgMin cpu{};
        bench.report_cpu("ARG_MIN int32", "minimum and its lowest index per thread, then across threads", n4,
                         n4 * 4.0, [&] { cpu = bench::cpu::arg_min(host_values.data(), n4); });
        // The packed word: the order-preserving value in the high half, the row in the low.
        reset();
        kernels::packed_arg_min_int32(values.as<int32_t>(), n4, word.as<unsigned long long>(), context);
        unsigned long long packed = 0;
        context.copy_to_host(&packed, word.data(), sizeof packed);
        expect_same(static_cast<int32_t>(static_cast<uint32_t>(packed >> 32) ^ 0x80000000u) == cpu.value &&
                        (packed & 0xffffffffull) == cpu.index,
                    "ARG_MIN int32", mismatches);
      }
    }

    // ---- hash join: build 16M unique keys, probe with 1 GiB of keys ----
    {
      const std::size_t build_rows = std::max<std::size_t>(1, n4 / 16), probe_rows = n4;
      DeviceBuffer build(context, build_rows * sizeof(int32_t)), probe(context, probe_rows * sizeof(int32_t));
      kernels::sequence(0, build_rows, build.as<uint32_t>(), context);
      fill_int<<<grid(probe_rows), 256, 0, stream>>>(probe.as<int32_t>(), probe_rows, build_rows * 2, 4);  // ~50% match
      ExprProgram key = compile(column(0, DataType::integer()));
      ColumnSet build_columns = set_of({pointer(build.data(), Type::Integer)});
      ColumnSet probe_columns = set_of({pointer(probe.data(), Type::Integer)});
      const double bytes = (build_rows + probe_rows) * 4.0;
      std::size_t gpu_pairs = 0;
      bench.report("hash join", "keys + build + probe + pairs (build right)", build_rows + probe_rows, bytes, [&] {
        kernels::KeyColumns b = kernels::evaluate_keys({key}, {Cls::Int}, build_columns, build_rows, d_error, context);
        kernels::KeyColumns p = kernels::evaluate_keys({key}, {Cls::Int}, probe_columns, probe_rows, d_error, context);
        kernels::JoinPairs pairs = kernels::hash_join(p, b, true, context);
        gpu_pairs = pairs.count;
      });
      if (bench.wants_cpu("hash join")) {
        const std::vector<int32_t> host_build = to_host<int32_t>(build.data(), build_rows, context);
        const std::vector<int32_t> host_probe = to_host<int32_t>(probe.data(), probe_rows, context);
        std::vector<uint32_t> probe_out(probe_rows), build_out(probe_rows);
        std::size_t cpu_pairs = 0;
        bench.report_cpu("hash join", "open addressing (CAS build), count pass + write pass", build_rows + probe_rows,
                         bytes, [&] {
                           cpu_pairs = bench::cpu::hash_join(host_build.data(), build_rows, host_probe.data(),
                                                             probe_rows, probe_out.data(), build_out.data());
                         });
        expect_same(cpu_pairs == gpu_pairs, "hash join (pair count)", mismatches);
      }
    }

    // ---- nested-loop join: 16K x 16K pair tests of a distance predicate ----
    {
      const std::size_t side = std::max<std::size_t>(1, static_cast<std::size_t>(16384 * std::min(1.0, scale)));
      DeviceBuffer x(context, side * sizeof(double));
      fill_uniform_double<<<grid(side), 256, 0, stream>>>(x.as<double>(), side, 5);
      // (a.x - b.x) * (a.x - b.x) < 1e-6: about 0.2 % of the pairs.
      BoundExpr diff = binary(Op::Sub, DataType::double_(), column(0, DataType::double_()), column(1, DataType::double_()));
      BoundExpr predicate = binary(Op::Lt, DataType::boolean(), binary(Op::Mul, DataType::double_(), diff, diff),
                                   constant(1e-6));
      SlotMap slots;
      ExprProgram program = compile_expression(predicate, slots);
      ColumnSet columns = set_of({pointer(x.data(), Type::Double, 0), pointer(x.data(), Type::Double, 1)});
      const double pairs = static_cast<double>(side) * static_cast<double>(side);
      // The pair test as a register program (kernels/pair_program.hpp: the
      // columns have no NULLs), and through the general interpreter.
      std::size_t gpu_pairs = 0;
      std::vector<std::size_t> variant_pairs;  // each variant's pair count
      for (const bool interpreted : {false, true}) {
        Settings settings;
        settings.pair_program = !interpreted;
        context.set_settings(settings);
        const std::string how = interpreted ? ", interpreter (pair_program=false)" : ", register pair program";
        bench.report("nested-loop join", "pair tests, right tiles staged in shared memory" + how + " (items/s = pairs/s)",
                     pairs, side * 16.0, [&] {
                       gpu_pairs = kernels::nested_loop_join(program, columns, side, side, d_error, context).count;
                     });
        variant_pairs.push_back(gpu_pairs);
        bench.report("nested-loop join", "pair tests, warp per (left, tile), unstaged" + how + " (items/s = pairs/s)",
                     pairs, side * 16.0, [&] {
                       gpu_pairs = kernels::nested_loop_join(program, columns, side, side, d_error, context, false).count;
                     });
        variant_pairs.push_back(gpu_pairs);
        context.set_settings(Settings{});
      }
      if (bench.wants_cpu("nested-loop join")) {
        const std::vector<double> host_x = to_host<double>(x.data(), side, context);
        std::vector<uint32_t> left, right;
        std::size_t cpu_pairs = 0;
        bench.report_cpu("nested-loop join", "pair tests, rows of the left side per thread (items/s = pairs/s)",
                         pairs, side * 16.0,
                         [&] { cpu_pairs = bench::cpu::distance_pairs(host_x.data(), side, 1e-6, left, right); });
        for (const std::size_t count : variant_pairs)
          expect_same(count == cpu_pairs, "nested-loop join (pair count)", mismatches);
      }
    }

    // ---- GROUP BY: SUM(double) by an int key, 10 / 10^4 / 10^7 groups ----
    {
      const std::size_t rows = n8;  // 1 GiB of values + 0.5 GiB of keys
      DeviceBuffer keys(context, rows * sizeof(int32_t)), values(context, rows * sizeof(double));
      DeviceBuffer wide_keys(context, rows * sizeof(uint64_t));
      fill_uniform_double<<<grid(rows), 256, 0, stream>>>(values.as<double>(), rows, 6);
      ColumnSet columns = set_of({pointer(keys.data(), Type::Integer), pointer(values.data(), Type::Double)});
      // One slot map for both programs, so column 1 is slot 1 (with a map
      // each, both read slot 0: until 2026-11-23 this benchmark summed the
      // INTEGER keys, 4 bytes a row, while CUB sorted 8-byte doubles).
      SlotMap slots;
      ExprProgram key = compile_expression(column(0, DataType::integer()), slots);
      AggSpec sum;
      sum.kind = AggKind::Sum;
      sum.cls = Cls::Double;
      sum.arg = compile_expression(column(1, DataType::double_()), slots);
      std::vector<double> host_values;
      for (uint64_t groups : {10ull, 10000ull, 1000000ull, 10000000ull}) {
        fill_int<<<grid(rows), 256, 0, stream>>>(keys.as<int32_t>(), rows, groups, 7);
        const std::string name = "GROUP BY " + std::to_string(groups) + " groups";
        if (bench.wants_cpu(name)) {
          if (host_values.empty()) host_values = to_host<double>(values.data(), rows, context);
          const std::vector<int32_t> host_keys = to_host<int32_t>(keys.data(), rows, context);
          std::vector<double> sums;
          bench.report_cpu(name, "a partial array of sums per thread, then merged", rows, rows * 12.0,
                           [&] { sums = bench::cpu::group_sum(host_keys.data(), host_values.data(), rows, groups); });
          // The engine's groups (the dense array's, in key order): each
          // group's key and sum against the CPU's sum of that key (to 1e-9
          // relative: other orders of addition), and as many groups as keys
          // with a sum.
          kernels::Groups g = kernels::assign_groups({key}, {Cls::Int}, columns, rows, d_error, context);
          DeviceBuffer states = kernels::aggregate_groups({sum}, columns, g, rows, d_error, context);
          DeviceBuffer group_key(context, g.count * sizeof(int32_t)), validity(context, (g.count + 31) / 32 * 4 + 4);
          kernels::group_keys(g, 0, Type::Integer, group_key.data(), validity.as<uint32_t>(), context);
          const std::vector<AggState> gpu_states = to_host<AggState>(states.data(), g.count, context);
          const std::vector<int32_t> gpu_keys = to_host<int32_t>(group_key.data(), g.count, context);
          bool same = static_cast<std::size_t>(std::count_if(sums.begin(), sums.end(), [](double v) { return v != 0; })) ==
                      g.count;
          for (std::size_t i = 0; same && i < g.count; ++i) {
            const int32_t k = gpu_keys[i];
            same = k >= 0 && static_cast<uint64_t>(k) < groups && (i == 0 || k > gpu_keys[i - 1]) &&
                   std::fabs(gpu_states[i].d - sums[k]) <= 1e-9 * std::fabs(sums[k]);
          }
          expect_same(same, name, mismatches);
        }
        for (bool dense : {true, false}) {
          bench.report(name, dense ? "dense array + canonical SUM" : "hash table + canonical SUM", rows, rows * 12.0,
                       [&] {
                         // The engine's paths: keys from their programs into the
                         // dense array, or (one integer key too widely spread
                         // for it) into the keyed hash table, whose slots are
                         // the groups.
                         kernels::Groups g =
                             dense ? kernels::assign_groups({key}, {Cls::Int}, columns, rows, d_error, context)
                                   : kernels::hash_groups(key, columns, rows, d_error, context);
                         kernels::aggregate_groups({sum}, columns, g, rows, d_error, context);
                       });
        }
        // The library counterparts: sort (key, value) pairs by key, then sum
        // each run of equal keys. Their sums' order depends on the launch
        // configuration (not the canonical order); groups come out by key.
        // 32-bit keys for the dense array's; 64-bit words for the hash
        // table's, which serves keys without a small range.
        to_wide_keys<<<grid(rows), 256, 0, stream>>>(keys.as<int32_t>(), rows, wide_keys.as<uint64_t>());
        for (bool wide : {false, true}) {
          bench.report(name,
                       wide ? "cub::DeviceRadixSort::SortPairs (64-bit keys) + cub::DeviceReduce::ReduceByKey"
                            : "cub::DeviceRadixSort::SortPairs (32-bit keys) + cub::DeviceReduce::ReduceByKey",
                       rows, rows * 12.0, [&] {
                         auto run = [&](auto* in_keys) {
                           using K = std::remove_const_t<std::remove_pointer_t<decltype(in_keys)>>;
                           DeviceBuffer sorted_keys(context, rows * sizeof(K));
                           DeviceBuffer sorted_values(context, rows * sizeof(double));
                           std::size_t sort_bytes = 0, reduce_bytes = 0;
                           GPUSQL_CUDA_TRY(cub::DeviceRadixSort::SortPairs(
                               nullptr, sort_bytes, in_keys, sorted_keys.as<K>(), values.as<double>(),
                               sorted_values.as<double>(), rows, 0, static_cast<int>(8 * sizeof(K)), stream));
                           DeviceBuffer unique(context, groups * sizeof(K)), sums(context, groups * sizeof(double));
                           DeviceBuffer runs(context, sizeof(uint32_t));
                           GPUSQL_CUDA_TRY(cub::DeviceReduce::ReduceByKey(
                               nullptr, reduce_bytes, sorted_keys.as<K>(), unique.as<K>(), sorted_values.as<double>(),
                               sums.as<double>(), runs.as<uint32_t>(), ::cuda::std::plus<>{}, rows, stream));
                           DeviceBuffer temp(context, std::max(sort_bytes, reduce_bytes));
                           GPUSQL_CUDA_TRY(cub::DeviceRadixSort::SortPairs(
                               temp.data(), sort_bytes, in_keys, sorted_keys.as<K>(), values.as<double>(),
                               sorted_values.as<double>(), rows, 0, static_cast<int>(8 * sizeof(K)), stream));
                           GPUSQL_CUDA_TRY(cub::DeviceReduce::ReduceByKey(
                               temp.data(), reduce_bytes, sorted_keys.as<K>(), unique.as<K>(),
                               sorted_values.as<double>(), sums.as<double>(), runs.as<uint32_t>(),
                               ::cuda::std::plus<>{}, rows, stream));
                         };
                         if (wide) run(static_cast<const uint64_t*>(wide_keys.as<uint64_t>()));
                         else run(reinterpret_cast<const uint32_t*>(keys.data()));
                       });
        }
      }
    }

    // ---- sort: ORDER BY over 1 GiB of INTEGER / DOUBLE keys vs CUB ----
    {
      DeviceBuffer ints(context, n4 * sizeof(int32_t));
      kernels::OrderKey key;
      key.program = compile(column(0, DataType::integer()));
      key.type = Type::Integer;
      ColumnSet columns = set_of({pointer(ints.data(), Type::Integer)});
      // CUB's SortPairs called directly on (keys, positions), with its item
      // count as a 64-bit or a 32-bit integer: CUB sizes its offsets by that
      // type, and its tuned SM90 policy for 32-bit pairs assumes 32-bit ones.
      auto cub_pairs = [&](auto items) {
        DeviceBuffer k(context, n4 * sizeof(uint32_t)), k2(context, n4 * sizeof(uint32_t));
        DeviceBuffer v(context, n4 * sizeof(uint32_t)), v2(context, n4 * sizeof(uint32_t));
        to_unsigned_keys<<<grid(n4), 256, 0, stream>>>(ints.as<int32_t>(), n4, k.as<uint32_t>());
        kernels::sequence(0, n4, v.as<uint32_t>(), context);
        cub::DoubleBuffer<uint32_t> kb(k.as<uint32_t>(), k2.as<uint32_t>());
        cub::DoubleBuffer<uint32_t> vb(v.as<uint32_t>(), v2.as<uint32_t>());
        std::size_t bytes_needed = 0;
        GPUSQL_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, bytes_needed, kb, vb, items, 0, 32, stream));
        DeviceBuffer temp(context, std::max<std::size_t>(1, bytes_needed));
        GPUSQL_CUDA_TRY(cub::DeviceRadixSort::SortPairs(temp.data(), bytes_needed, kb, vb, items, 0, 32, stream));
      };
      // Full-range keys (all 32 bits differ), then keys in [0, 10^6) (20 bits:
      // order_positions sorts only those, in 3 radix passes instead of 4).
      for (uint64_t range : {0xffffffffull, 1000000ull}) {
        fill_int<<<grid(n4), 256, 0, stream>>>(ints.as<int32_t>(), n4, range, 8);
        const std::string name = range == 1000000ull ? "sort int32 in [0, 10^6)" : "sort int32";
        // Bytes: the radix passes' traffic is CUB's business; count the keys
        // read and the positions written once, for both.
        bench.report(name, "gpusql order_positions (a column without NULLs: stats pass + CUB pairs over its values)", n4, n4 * 8.0, [&] {
          kernels::order_positions({key}, columns, n4, d_error, context);
        });
        if (bench.wants_cpu(name)) {
          const std::vector<int32_t> host_keys = to_host<int32_t>(ints.data(), n4, context);
          std::vector<uint32_t> positions;
          bench.report_cpu(name, "parallel sort of (key, position) words (libstdc++ parallel mode)", n4, n4 * 8.0,
                           [&] { bench::cpu::sort_positions(host_keys.data(), n4, positions); });
          const DeviceBuffer perm = kernels::order_positions({key}, columns, n4, d_error, context);
          expect_same(to_host<uint32_t>(perm.data(), n4, context) == positions, name, mismatches);
        }
        bench.report(name, "cub::DeviceRadixSort::SortPairs (keys, positions; int64_t count)", n4, n4 * 8.0,
                     [&] { cub_pairs(static_cast<int64_t>(n4)); });
        bench.report(name, "cub::DeviceRadixSort::SortPairs (keys, positions; uint32_t count)", n4, n4 * 8.0,
                     [&] { cub_pairs(static_cast<uint32_t>(n4)); });
        if (range != 1000000ull)
          bench.report(name, "cub::DeviceRadixSort::SortKeys (keys only)", n4, n4 * 8.0, [&] {
            DeviceBuffer k(context, n4 * sizeof(uint32_t));
            to_unsigned_keys<<<grid(n4), 256, 0, stream>>>(ints.as<int32_t>(), n4, k.as<uint32_t>());
            kernels::sort_keys(k, n4, 32, false, context);
          });
      }

      // ---- top-k: ORDER BY k LIMIT n over the full-range keys ----
      fill_int<<<grid(n4), 256, 0, stream>>>(ints.as<int32_t>(), n4, 0xffffffffull, 8);
      for (std::size_t k : {std::size_t{10}, std::size_t{1000}}) {
        const std::string name = "top-k " + std::to_string(k);
        bench.report(name, "gpusql top_positions (radix select + sort of candidates)", n4, n4 * 4.0, [&] {
          kernels::top_positions({key}, columns, n4, k, d_error, context);
        });
        bench.report(name, "gpusql order_positions (full sort)", n4, n4 * 4.0, [&] {
          kernels::order_positions({key}, columns, n4, d_error, context);
        });
        if (bench.wants_cpu(name)) {
          const std::vector<int32_t> host_keys = to_host<int32_t>(ints.data(), n4, context);
          std::vector<uint32_t> positions;
          bench.report_cpu(name, "the k smallest (key, position) words per thread (a heap), then of those", n4,
                           n4 * 4.0, [&] { bench::cpu::top_positions(host_keys.data(), n4, k, positions); });
          const DeviceBuffer top = kernels::top_positions({key}, columns, n4, k, d_error, context);
          expect_same(to_host<uint32_t>(top.data(), k, context) == positions, name, mismatches);
        }
      }
    }
    {
      DeviceBuffer doubles(context, n8 * sizeof(double));
      fill_uniform_double<<<grid(n8), 256, 0, stream>>>(doubles.as<double>(), n8, 9);
      kernels::OrderKey key;
      key.program = compile(column(0, DataType::double_()));
      key.type = Type::Double;
      key.descending = true;
      ColumnSet columns = set_of({pointer(doubles.data(), Type::Double)});
      bench.report("sort double DESC", "gpusql order_positions (a column without NULLs: stats pass + CUB pairs over its values)", n8, n8 * 12.0, [&] {
        kernels::order_positions({key}, columns, n8, d_error, context);
      });
      auto cub_descending = [&](auto items) {
        DeviceBuffer k(context, n8 * sizeof(double)), k2(context, n8 * sizeof(double));
        DeviceBuffer v(context, n8 * sizeof(uint32_t)), v2(context, n8 * sizeof(uint32_t));
        GPUSQL_CUDA_TRY(cudaMemcpyAsync(k.data(), doubles.data(), n8 * sizeof(double), cudaMemcpyDeviceToDevice, stream));
        kernels::sequence(0, n8, v.as<uint32_t>(), context);
        cub::DoubleBuffer<double> kb(k.as<double>(), k2.as<double>());
        cub::DoubleBuffer<uint32_t> vb(v.as<uint32_t>(), v2.as<uint32_t>());
        std::size_t bytes_needed = 0;
        GPUSQL_CUDA_TRY(cub::DeviceRadixSort::SortPairsDescending(nullptr, bytes_needed, kb, vb, items, 0, 64, stream));
        DeviceBuffer temp(context, std::max<std::size_t>(1, bytes_needed));
        GPUSQL_CUDA_TRY(
            cub::DeviceRadixSort::SortPairsDescending(temp.data(), bytes_needed, kb, vb, items, 0, 64, stream));
      };
      bench.report("sort double DESC", "cub::DeviceRadixSort::SortPairsDescending (double keys, positions; int64_t count)",
                   n8, n8 * 12.0, [&] { cub_descending(static_cast<int64_t>(n8)); });
      bench.report("sort double DESC", "cub::DeviceRadixSort::SortPairsDescending (double keys, positions; uint32_t count)",
                   n8, n8 * 12.0, [&] { cub_descending(static_cast<uint32_t>(n8)); });
      if (bench.wants_cpu("sort double DESC")) {
        const std::vector<double> host_keys = to_host<double>(doubles.data(), n8, context);
        std::vector<uint32_t> positions;
        bench.report_cpu("sort double DESC", "parallel sort of (key, position) pairs (libstdc++ parallel mode)", n8,
                         n8 * 12.0, [&] { bench::cpu::sort_positions_descending(host_keys.data(), n8, positions); });
        const DeviceBuffer perm = kernels::order_positions({key}, columns, n8, d_error, context);
        expect_same(to_host<uint32_t>(perm.data(), n8, context) == positions, "sort double DESC", mismatches);
      }
    }

    // ---- call overhead: what a call costs beyond its kernel's run ----
    // The engine's operators hand a count or a result to the host, so each
    // call pays a launch after the start event, the synchronize's wake-up and
    // the stop event. An empty kernel and a filter over one tile show that
    // fixed part, which the 1 GiB rows above include.
    {
      DeviceBuffer values(context, 8192 * sizeof(float)), out(context, 8192 * sizeof(uint32_t));
      fill_uniform_float<<<grid(8192), 256, 0, stream>>>(values.as<float>(), 8192, 1);
      ColumnSet columns = set_of({pointer(values.data(), Type::Real)});
      ExprProgram predicate = compile(binary(Op::Lt, DataType::boolean(), column(0, DataType::real()), constant(0.5)));
      bench.report("call overhead", "empty kernel", 1, 0, [&] {
        empty_kernel<<<1, 32, 0, stream>>>();
        GPUSQL_CHECK_LAUNCH();
      });
      bench.report("call overhead", "empty kernel + cudaStreamSynchronize", 1, 0, [&] {
        empty_kernel<<<1, 32, 0, stream>>>();
        GPUSQL_CHECK_LAUNCH();
        context.synchronize();
      });
      bench.report("call overhead", "empty kernel + 4 bytes to host (pinned slot, synchronize)", 1, 0, [&] {
        empty_kernel<<<1, 32, 0, stream>>>();
        GPUSQL_CHECK_LAUNCH();
        uint32_t word = 0;
        context.copy_to_host(&word, values.data(), sizeof word);
      });
      bench.report("call overhead", "gpusql filter_rows over 8192 rows (one tile, engine path)", 8192, 8192 * 6.0, [&] {
        kernels::filter_rows(predicate, columns, nullptr, 8192, out.as<uint32_t>(), d_error, context);
      });
    }

    uint32_t host_error = 0;
    GPUSQL_CUDA_TRY(cudaMemcpy(&host_error, d_error, sizeof host_error, cudaMemcpyDeviceToHost));
    if (host_error) std::fprintf(stderr, "a kernel reported evaluation error bits %u\n", host_error);
    if (!out_dir.empty()) std::ofstream(out_dir + "/kernel_bench.csv") << bench.csv;
    if (mismatches) return 1;
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
