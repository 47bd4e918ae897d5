#include "storage/device_code.hpp"

#include <cuda_runtime.h>

namespace gpusql {

namespace {
__global__ void probe_kernel() {}
}  // namespace

bool device_code_runs(std::string* why) {
  cudaFuncAttributes attributes;
  const cudaError_t status = cudaFuncGetAttributes(&attributes, probe_kernel);
  if (status == cudaSuccess) return true;
  cudaGetLastError();
  if (why) {
    cudaDeviceProp device{};
    cudaGetDeviceProperties(&device, 0);
    cudaGetLastError();
    *why = std::string("device 0 (") + device.name + ", compute capability " + std::to_string(device.major) + "." +
           std::to_string(device.minor) + ") cannot run this build's GPU code, compiled for CUDA architectures " +
           GPUSQL_CUDA_ARCHITECTURES + ": rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(device.major) +
           std::to_string(device.minor) + " (" + cudaGetErrorString(status) + ")";
  }
  return false;
}

}  // namespace gpusql
