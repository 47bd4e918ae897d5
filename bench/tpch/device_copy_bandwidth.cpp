#include "bench/tpch/device_copy_bandwidth.hpp"

#include <algorithm>

#include "storage/device_memory.hpp"

namespace gpusql::tpch {
namespace {

// A CUDA event, destroyed with its owner.
class Event {
 public:
  Event() { GPUSQL_CUDA_TRY(cudaEventCreate(&event_)); }
  ~Event() { cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace

double measure_device_copy_bandwidth(std::size_t bytes) {
  constexpr int kRuns = 5;
  DeviceContext context;
  DeviceBuffer from(context, bytes), to(context, bytes);
  Event start, stop;
  GPUSQL_CUDA_TRY(cudaMemsetAsync(from.data(), 1, bytes, context.stream()));
  float best_ms = 0;
  for (int run = 0; run <= kRuns; ++run) {  // run 0 warms up
    GPUSQL_CUDA_TRY(cudaEventRecord(start.get(), context.stream()));
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(to.data(), from.data(), bytes, cudaMemcpyDeviceToDevice, context.stream()));
    GPUSQL_CUDA_TRY(cudaEventRecord(stop.get(), context.stream()));
    GPUSQL_CUDA_TRY(cudaEventSynchronize(stop.get()));
    float ms = 0;
    GPUSQL_CUDA_TRY(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    if (run > 0) best_ms = run == 1 ? ms : std::min(best_ms, ms);
  }
  return 2.0 * static_cast<double>(bytes) / (static_cast<double>(best_ms) * 1e-3);
}

}  // namespace gpusql::tpch
