#include "storage/device_memory.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "storage/cuda_architectures.hpp"
#include "storage/parallel_tasks.hpp"

namespace gpusql {

namespace {

// Why no device could be counted, in a user's words: the runtime calls a
// machine without the NVIDIA driver one with an "insufficient" driver.
std::string no_device_reason(cudaError_t status) {
  if (status != cudaErrorInsufficientDriver) return cudaGetErrorString(status);
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!driver) return "no NVIDIA driver found (libcuda.so.1 is not installed)";
  dlclose(driver);
  int version = 0;
  cudaDriverGetVersion(&version);
  cudaGetLastError();
  return "the NVIDIA driver supports CUDA " + std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10) +
         "; this build needs CUDA " + std::to_string(CUDART_VERSION / 1000) + "." +
         std::to_string(CUDART_VERSION % 1000 / 10) + " or newer";
}

}  // namespace

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

bool architectures_run_on(std::string_view architectures, int major, int minor) {
  if (architectures.empty() || architectures.rfind("all", 0) == 0 || architectures == "native") return true;
  const int device = major * 10 + minor;
  std::size_t begin = 0;
  while (begin <= architectures.size()) {
    std::size_t end = architectures.find_first_of("; ,", begin);
    if (end == std::string_view::npos) end = architectures.size();
    const std::string_view entry = architectures.substr(begin, end - begin);
    const std::size_t dash = entry.find('-');
    const std::string_view kind = dash == std::string_view::npos ? "" : entry.substr(dash + 1);
    int arch = 0;
    for (char c : entry.substr(0, dash))
      if (c >= '0' && c <= '9') arch = arch * 10 + (c - '0');
    const bool machine_code = kind != "virtual", ptx = kind != "real";
    if (machine_code && arch / 10 == major && arch % 10 <= minor) return true;
    if (ptx && arch > 0 && device >= arch) return true;
    begin = end + 1;
  }
  return false;
}

bool gpu_available(std::string* why) {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();
    if (why) *why = no_device_reason(status);
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
#if defined(GPUSQL_CUDA_ARCHITECTURES)  // CMakeLists.txt passes the build's architectures
  cudaDeviceProp device{};
  if (cudaGetDeviceProperties(&device, 0) != cudaSuccess) {
    cudaGetLastError();
  } else if (!architectures_run_on(GPUSQL_CUDA_ARCHITECTURES, device.major, device.minor)) {
    if (why)
      *why = std::string("device 0 (") + device.name + ", compute capability " + std::to_string(device.major) + "." +
             std::to_string(device.minor) + ") cannot run this build's GPU code, compiled for CUDA architectures " +
             GPUSQL_CUDA_ARCHITECTURES + ": rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(device.major) +
             std::to_string(device.minor);
    return false;
  }
#endif
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
  scan_words_.reset();  // its free goes into the stream, before the stream goes
  arrival_words_.reset();
  if (stream_) {
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
  }
  for (auto& slot : staging_)
    if (slot.copied) cudaEventDestroy(slot.copied);
  if (readback_done_) cudaEventDestroy(readback_done_);
}

std::vector<StagingSlot>& DeviceContext::staging() {
  if (staging_tried_) return staging_;
  staging_tried_ = true;
  // Four slots of 8 MiB: enough to keep the copy engine busy while the next
  // piece is filled, small enough to pin in a few milliseconds.
  constexpr std::size_t SLOTS = 4, SLOT_BYTES = std::size_t(8) << 20;
  try {
    for (std::size_t i = 0; i < SLOTS; ++i) {
      StagingSlot slot;
      slot.buffer = PinnedBuffer(SLOT_BYTES);
      GPUSQL_CUDA_TRY(cudaEventCreateWithFlags(&slot.copied, cudaEventDisableTiming));
      staging_.push_back(std::move(slot));
    }
  } catch (const Error&) {
    for (auto& slot : staging_)
      if (slot.copied) cudaEventDestroy(slot.copied);
    staging_.clear();
  }
  return staging_;
}

void DeviceContext::copy_to_device(void* destination, const void* source, std::size_t bytes) {
  if (bytes == 0) return;
  constexpr std::size_t kRingBytes = std::size_t{4} << 20, kAlign = 256;
  if (!ring_tried_) {
    ring_tried_ = true;
    try {
      ring_ = PinnedBuffer(kRingBytes);
    } catch (const Error&) {  // no pinned memory: pageable copies
    }
  }
  const std::size_t need = (bytes + kAlign - 1) / kAlign * kAlign;
  if (!ring_.data() || need > kRingBytes / 4) {
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(destination, source, bytes, cudaMemcpyHostToDevice, stream_));
    return;
  }
  if (ring_head_ + need > ring_.size()) {
    synchronize();  // every copy out of the ring has landed: start over
    ring_head_ = 0;
  }
  char* staged = static_cast<char*>(ring_.data()) + ring_head_;
  std::memcpy(staged, source, bytes);
  GPUSQL_CUDA_TRY(cudaMemcpyAsync(destination, staged, bytes, cudaMemcpyHostToDevice, stream_));
  ring_head_ += need;
}

namespace {
constexpr std::size_t kReadbackBytes = 4096;
}

void* DeviceContext::readback_slot() {
  if (!readback_tried_) {
    readback_tried_ = true;
    try {
      readback_ = PinnedBuffer(kReadbackBytes);
    } catch (const Error&) {  // no pinned memory: pageable copies
    }
  }
  return readback_.data();
}

void DeviceContext::copy_to_host(void* destination, const void* source, std::size_t bytes) {
  if (bytes == 0) return;
  void* slot = readback_slot();
  if (!slot || bytes > kReadbackBytes) return copy_to_host_staged(destination, source, bytes);
  GPUSQL_CUDA_TRY(cudaMemcpyAsync(slot, source, bytes, cudaMemcpyDeviceToHost, stream_));
  synchronize();
  std::memcpy(destination, slot, bytes);
}

// A DMA into pageable memory that nothing has touched yet ran at 1.4 GB/s
// on the H200 host (the driver stages it, and each new page faults on one
// thread). Through the pinned staging slots instead, a worker thread per
// slot: each copies its pieces out (faulting their pages) while the
// others' pieces cross.
void DeviceContext::copy_to_host_staged(void* destination, const void* source, std::size_t bytes) {
  auto& slots = staging();
  if (slots.empty()) {
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToHost, stream_));
    synchronize();
    return;
  }
  for (StagingSlot& slot : slots)
    if (slot.in_flight) {
      GPUSQL_CUDA_TRY(cudaEventSynchronize(slot.copied));
      slot.in_flight = false;
    }
  const std::size_t piece = slots[0].buffer.size(), pieces = (bytes + piece - 1) / piece;
  auto* to = static_cast<std::byte*>(destination);
  const auto* from = static_cast<const std::byte*>(source);
  parallel_for_workers(std::min(slots.size(), pieces), slots.size(), [&](std::size_t w, std::size_t) {
    StagingSlot& slot = slots[w];
    for (std::size_t i = w; i < pieces; i += slots.size()) {
      const std::size_t at = i * piece, size = std::min(piece, bytes - at);
      GPUSQL_CUDA_TRY(cudaMemcpyAsync(slot.buffer.data(), from + at, size, cudaMemcpyDeviceToHost, stream_));
      GPUSQL_CUDA_TRY(cudaEventRecord(slot.copied, stream_));
      GPUSQL_CUDA_TRY(cudaEventSynchronize(slot.copied));
      std::memcpy(to + at, slot.buffer.data(), size);
    }
  });
}

void* DeviceContext::queue_readback(void* destination, const void* source, std::size_t bytes) {
  if (!readback_done_) GPUSQL_CUDA_TRY(cudaEventCreateWithFlags(&readback_done_, cudaEventDisableTiming));
  void* slot = readback_slot();
  void* staged = slot && bytes <= kReadbackBytes ? slot : destination;
  if (bytes) GPUSQL_CUDA_TRY(cudaMemcpyAsync(staged, source, bytes, cudaMemcpyDeviceToHost, stream_));
  GPUSQL_CUDA_TRY(cudaEventRecord(readback_done_, stream_));
  return staged;
}

void DeviceContext::finish_readback(void* destination, const void* staged, std::size_t bytes) {
  GPUSQL_CUDA_TRY(cudaEventSynchronize(readback_done_));
  if (staged != destination) std::memcpy(destination, staged, bytes);
}

void* DeviceContext::mapped_result(std::size_t bytes) {
  // cudaMallocHost memory is mapped for the device, at the same address
  // under unified addressing (every 64-bit platform CUDA 13 runs on).
  return bytes <= kReadbackBytes ? readback_slot() : nullptr;
}

DeviceContext::ScanStatus DeviceContext::scan_status(std::size_t words) {
  const bool grow = words > scan_capacity_;
  if (grow) {
    const std::size_t capacity = std::max(words, 2 * scan_capacity_);
    scan_words_.reset();  // freed in stream order, after the calls that used it
    scan_capacity_ = 0;   // until the new buffer is had (it may throw OutOfMemory)
    scan_words_ = std::make_unique<DeviceBuffer>(*this, (capacity + 1) * sizeof(uint64_t));
    scan_capacity_ = capacity;
  }
  if (grow || ++scan_epoch_ == kScanEpochs) {
    GPUSQL_CUDA_TRY(cudaMemsetAsync(scan_words_->data(), 0, (scan_capacity_ + 1) * sizeof(uint64_t), stream_));
    scan_epoch_ = 1;
  }
  return ScanStatus{scan_words_->as<uint64_t>(), scan_words_->as<uint64_t>() + scan_capacity_, scan_epoch_};
}

uint32_t* DeviceContext::arrival_counters(std::size_t words) {
  if (words > arrival_capacity_) {
    const std::size_t capacity = std::max(words, 2 * arrival_capacity_);
    arrival_words_.reset();  // freed in stream order, after the calls that used it
    arrival_capacity_ = 0;   // until the new buffer is had (it may throw OutOfMemory)
    arrival_words_ = std::make_unique<DeviceBuffer>(*this, capacity * sizeof(uint32_t));
    GPUSQL_CUDA_TRY(cudaMemsetAsync(arrival_words_->data(), 0, capacity * sizeof(uint32_t), stream_));
    arrival_capacity_ = capacity;
  }
  return arrival_words_->as<uint32_t>();
}

PinnedBuffer::PinnedBuffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  GPUSQL_CUDA_TRY(cudaMallocHost(&data_, bytes));
}

PinnedBuffer::~PinnedBuffer() {
  if (data_) cudaFreeHost(data_);
}

PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& other) noexcept {
  if (this != &other) {
    if (data_) cudaFreeHost(data_);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

UnifiedBuffer::UnifiedBuffer(std::size_t bytes) {
  bytes = std::max<std::size_t>(bytes, 1);
  managed_ = gpu_available();
  if (managed_) {
    GPUSQL_CUDA_TRY(cudaMallocManaged(&data_, bytes));
  } else {
    data_ = ::operator new(bytes);
  }
}

UnifiedBuffer::~UnifiedBuffer() {
  if (!managed_) {
    ::operator delete(data_);
    return;
  }
  // An error of an earlier launch that this wait sees stays for whoever
  // checks next.
  cudaDeviceSynchronize();
  cudaFree(data_);
}

StagedUpload::~StagedUpload() { cudaStreamSynchronize(context_.stream()); }

void StagedUpload::to_device(void* destination, const void* source, std::size_t bytes) {
  if (bytes == 0) return;
  auto& slots = context_.staging();
  if (slots.empty()) {
    // No pinned memory: a pageable copy, finished before the caller's memory may change.
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(destination, source, bytes, cudaMemcpyHostToDevice, context_.stream()));
    context_.synchronize();
    return;
  }
  auto* to = static_cast<std::byte*>(destination);
  const auto* from = static_cast<const std::byte*>(source);
  while (bytes > 0) {
    StagingSlot& slot = slots[next_++ % slots.size()];
    if (slot.in_flight) {
      GPUSQL_CUDA_TRY(cudaEventSynchronize(slot.copied));
      slot.in_flight = false;
    }
    std::size_t piece = std::min(bytes, slot.buffer.size());
    std::memcpy(slot.buffer.data(), from, piece);
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(to, slot.buffer.data(), piece, cudaMemcpyHostToDevice, context_.stream()));
    GPUSQL_CUDA_TRY(cudaEventRecord(slot.copied, context_.stream()));
    slot.in_flight = true;
    to += piece;
    from += piece;
    bytes -= piece;
  }
}

void StagedUpload::device_to_device(void* destination, const void* source, std::size_t bytes) {
  if (bytes == 0) return;
  GPUSQL_CUDA_TRY(cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToDevice, context_.stream()));
}

void StagedUpload::finish() {
  context_.synchronize();
  for (auto& slot : context_.staging()) slot.in_flight = false;
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
  context.peak_ = std::max(context.peak_, context.in_use_);
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

}  // namespace gpusql
