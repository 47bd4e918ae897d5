#include "storage/device_memory.hpp"

#include <cstdio>

namespace gpusql {

void cuda_check(cudaError_t status, const char* what, const char* file, int line) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so the next call starts clean
  const char* base = file;
  for (const char* p = file; *p; ++p)
    if (*p == '/') base = p + 1;
  std::string where = std::string(" (") + what + " at " + base + ":" + std::to_string(line) + ")";
  if (status == cudaErrorMemoryAllocation)
    throw Error(ErrorKind::OutOfMemory, std::string("out of GPU memory") + where);
  throw Error(ErrorKind::Device, std::string("CUDA error: ") + cudaGetErrorString(status) + where);
}

bool gpu_available(std::string* why) {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();
    if (why) *why = cudaGetErrorString(status);
    return false;
  }
  if (count == 0) {
    if (why) *why = "no CUDA device found";
    return false;
  }
  int major = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) != cudaSuccess || major < 7) {
    cudaGetLastError();
    if (why) *why = "device 0 has compute capability below 7.0";
    return false;
  }
  int pools = 0;
  if (cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, 0) != cudaSuccess || !pools) {
    cudaGetLastError();
    if (why) *why = "device 0 does not support stream-ordered memory pools";
    return false;
  }
  return true;
}

DeviceContext::DeviceContext() {
  std::string why;
  if (!gpu_available(&why)) throw Error(ErrorKind::Device, "no usable GPU: " + why);
  GPUSQL_CUDA_TRY(cudaSetDevice(0));
  cudaDeviceProp props{};
  GPUSQL_CUDA_TRY(cudaGetDeviceProperties(&props, 0));
  name_ = props.name;
  multiprocessors_ = props.multiProcessorCount;
  // Keep freed memory in the pool instead of returning it to the driver at
  // every synchronization: temporaries are then reused without a cudaMalloc.
  cudaMemPool_t pool;
  GPUSQL_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, 0));
  uint64_t threshold = UINT64_MAX;
  GPUSQL_CUDA_TRY(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  GPUSQL_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}

DeviceContext::~DeviceContext() {
  if (stream_) {
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
  }
}

std::size_t DeviceContext::free_bytes() const {
  std::size_t free = 0, total = 0;
  GPUSQL_CUDA_TRY(cudaMemGetInfo(&free, &total));
  if (cap_) return cap_ > in_use_ ? cap_ - in_use_ : 0;
  return free;
}

void DeviceContext::synchronize() const { GPUSQL_CUDA_TRY(cudaStreamSynchronize(stream_)); }

DeviceBuffer::DeviceBuffer(DeviceContext& context, std::size_t bytes) : context_(&context), bytes_(bytes) {
  if (bytes == 0) return;
  if (context.cap_ && context.in_use_ + bytes > context.cap_)
    throw Error(ErrorKind::OutOfMemory, "out of GPU memory: could not allocate " + format_bytes(bytes) + " (" +
                                            format_bytes(context.free_bytes()) + " free under the memory cap)");
  cudaError_t status = cudaMallocAsync(&data_, bytes, context.stream());
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    data_ = nullptr;
    std::size_t free = 0, total = 0;
    cudaMemGetInfo(&free, &total);
    throw Error(ErrorKind::OutOfMemory, "out of GPU memory: could not allocate " + format_bytes(bytes) + " (" +
                                            format_bytes(free) + " free of " + format_bytes(total) + ")");
  }
  GPUSQL_CUDA_TRY(status);
  context.in_use_ += bytes;
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    release();
    context_ = std::exchange(other.context_, nullptr);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

void DeviceBuffer::release() noexcept {
  if (data_) {
    cudaFreeAsync(data_, context_->stream());
    context_->in_use_ -= bytes_;
  }
  data_ = nullptr;
  bytes_ = 0;
}

std::string format_bytes(std::size_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char buffer[64];
  if (unit == 0) std::snprintf(buffer, sizeof buffer, "%zu bytes", bytes);
  else std::snprintf(buffer, sizeof buffer, "%.1f %s", value, units[unit]);
  return buffer;
}

}  // namespace gpusql
