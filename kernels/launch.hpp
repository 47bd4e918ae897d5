// What every kernel file needs on the host side: grid sizing and the check
// after each launch.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include "storage/device_memory.hpp"

namespace gpusql::kernels {

// Blocks for a grid-stride loop over `tiles` tiles: enough to fill every
// multiprocessor several times over, never more than there are tiles.
inline unsigned grid_for(std::size_t tiles, const DeviceContext& context, int blocks_per_sm = 8) {
  std::size_t cap = static_cast<std::size_t>(std::max(1, context.multiprocessors())) * blocks_per_sm;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min(tiles, cap)));
}

// Blocks for a grid-stride loop that keeps every block resident: as many as
// fit on the multiprocessors at once with `kernel`'s registers and shared
// memory (one wave, no tail of a partial one), never more than `tiles`.
template <class Kernel>
unsigned resident_grid(Kernel kernel, int threads, std::size_t dynamic_shared_bytes, std::size_t tiles,
                       const DeviceContext& context) {
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, dynamic_shared_bytes) != cudaSuccess) {
    (void)cudaGetLastError();  // no device: the launch reports it
    per_sm = 1;
  }
  return grid_for(tiles, context, std::max(1, per_sm));
}

// resident_grid()'s occupancy for a kernel known at compile time, asked of
// the runtime once and kept (the query costs microseconds, more than a small
// kernel's launch): blocks of KERNEL that fit on one multiprocessor at
// THREADS threads and SHARED bytes of dynamic shared memory, at least 1.
template <auto KERNEL, int THREADS, std::size_t SHARED = 0>
int resident_blocks_per_sm() {
  static const int per_sm = [] {
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, KERNEL, THREADS, SHARED) != cudaSuccess)
      (void)cudaGetLastError();  // no device: the launch reports it
    return std::max(1, blocks);
  }();
  return per_sm;
}

#define GPUSQL_CHECK_LAUNCH() GPUSQL_CUDA_TRY(cudaGetLastError())

// CUB's two calls to a device-wide algorithm, `call(d_temp, temp_bytes)`:
// the size of its temporary storage, then the work, with that storage from
// the pool. A null pointer would only ask the size again: never pass one.
template <class Call>
void run_cub(Call call, DeviceContext& context) {
  std::size_t temp_bytes = 0;
  GPUSQL_CUDA_TRY(call(nullptr, temp_bytes));
  DeviceBuffer temp(context, std::max<std::size_t>(1, temp_bytes));
  GPUSQL_CUDA_TRY(call(temp.data(), temp_bytes));
}

// One value the launches before it wrote (a count, a total); waits for them.
template <class T>
T read_value(const T* d_value, DeviceContext& context) {
  T value{};
  context.copy_to_host(&value, d_value, sizeof value);
  return value;
}

// Host objects that kernels read through pointers (expression programs,
// column sets), copied into one pool buffer for a launch. Reads of them are
// uniform across a warp and stay in cache.
//   DeviceObjects objects;
//   std::size_t p = objects.add(program), c = objects.add(columns);
//   objects.upload(context);
//   kernel<<<...>>>(objects.at<ExprProgram>(p), objects.at<ColumnSet>(c), ...);
class DeviceObjects {
 public:
  template <class T>
  std::size_t add(const T& value) {
    std::size_t at = (host_.size() + alignof(T) - 1) / alignof(T) * alignof(T);
    host_.resize(at + sizeof(T));
    std::memcpy(host_.data() + at, &value, sizeof(T));
    return at;
  }
  void upload(DeviceContext& context) {
    buffer_ = DeviceBuffer(context, std::max<std::size_t>(host_.size(), 1));
    if (!host_.empty())
      context.copy_to_device(buffer_.data(), host_.data(), host_.size());
  }
  template <class T>
  const T* at(std::size_t offset) const {
    return reinterpret_cast<const T*>(static_cast<const char*>(buffer_.data()) + offset);
  }

 private:
  std::vector<char> host_;
  DeviceBuffer buffer_;
};

// An error word of one launch's own, zero at the start: for a fast path
// that gives way to a general one when its kernel reports anything (a
// checked 64-bit sum that overflowed part way, where the general path's
// exact sum may still fit).
class OwnErrorWord {
 public:
  explicit OwnErrorWord(DeviceContext& context) : buffer_(context, sizeof(uint32_t)) {
    const uint32_t zero = 0;
    context.copy_to_device(buffer_.data(), &zero, sizeof zero);
  }
  uint32_t* get() { return buffer_.as<uint32_t>(); }
  // Waits for the launches before it.
  uint32_t read(DeviceContext& context) const {
    uint32_t value = 0;
    context.copy_to_host(&value, buffer_.data(), sizeof value);
    return value;
  }

 private:
  DeviceBuffer buffer_;
};

}  // namespace gpusql::kernels
