// The GPU as storage sees it: one device, one stream, and buffers from the
// stream-ordered pool (cudaMallocAsync), so an operator's temporaries cost no
// cudaMalloc and return to the pool when freed. Every CUDA call is checked;
// without a usable device each call fails cleanly with Error(Device).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/byte_size.hpp"
#include "gpusql/gpusql.hpp"

namespace gpusql {

// Throws Error(OutOfMemory) for allocation failures, Error(Device) otherwise.
void cuda_check(cudaError_t status, const char* what, const char* file, int line);
#define GPUSQL_CUDA_TRY(call) ::gpusql::cuda_check((call), #call, __FILE__, __LINE__)

// Page-locked host memory (cudaMallocHost): the DMA engine copies from it
// while the CPU goes on. Freed with cudaFreeHost.
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  // Throws Error(OutOfMemory) or Error(Device) when it cannot be had.
  explicit PinnedBuffer(std::size_t bytes);
  ~PinnedBuffer();
  PinnedBuffer(PinnedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  void* data() const { return data_; }
  std::size_t size() const { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// Memory the host writes once and both the host and the device read at one
// address, through pointers kept inside objects that kernels are handed by
// value (the instructions of a program longer than ExprProgram holds, see
// SlotMap): CUDA managed memory where a GPU is usable, else host memory.
// Not for data: nothing here comes from the stream-ordered pool.
class UnifiedBuffer {
 public:
  // Throws Error(OutOfMemory) or Error(Device) when a GPU is present and the
  // memory cannot be had.
  explicit UnifiedBuffer(std::size_t bytes);
  // Waits for the device first, where the memory is managed: a kernel
  // launched before may still be reading it.
  ~UnifiedBuffer();
  UnifiedBuffer(const UnifiedBuffer&) = delete;
  UnifiedBuffer& operator=(const UnifiedBuffer&) = delete;

  void* data() const { return data_; }

 private:
  void* data_ = nullptr;
  bool managed_ = false;
};

// One pinned staging buffer and the event that says when the copy out of it
// has finished, so it can be filled again.
struct StagingSlot {
  PinnedBuffer buffer;
  cudaEvent_t copied = nullptr;
  bool in_flight = false;
};

class DeviceBuffer;
class DeviceContext;

// What storage has done on the device but cannot call itself (kernels/ sits
// above it): the engine hands these to its context (DeviceContext::
// set_kernels), and storage reaches them through the context it is given.
struct StorageKernels {
  // Dictionary codes made anew: out[i] = map[ids[i]] for i < count, or 0
  // where `d_validity` (when not null) says row i is NULL, on the context's
  // stream (a load to the device alone; kernels::map_codes).
  using CodeMap = void (*)(const uint32_t* d_map, const uint32_t* d_ids, const uint32_t* d_validity,
                           std::size_t count, uint32_t* d_out, DeviceContext& context);
  // A column of plain strings (`rows` < 2^32 rows: offsets + bytes, NULLs
  // where `d_validity` says) as codes into its sorted dictionary of distinct
  // non-NULL strings, made on the device: `codes` (a NULL's 0) and the
  // dictionary, flat (entries + 1 uint64_t offsets, and bytes); returns the
  // entries. Synchronizes. Error(OutOfMemory) leaves the outputs untouched
  // (kernels::encode_strings).
  using StringEncoder = std::size_t (*)(const uint64_t* d_offsets, const char* d_bytes, const uint32_t* d_validity,
                                        std::size_t rows, DeviceBuffer& codes, DeviceBuffer& dictionary_offsets,
                                        DeviceBuffer& dictionary_bytes, DeviceContext& context);
  CodeMap map_codes = nullptr;
  StringEncoder encode_strings = nullptr;
};

class DeviceContext {
 public:
  // Selects device 0 and creates the stream; throws Error(Device) when no
  // device is usable.
  DeviceContext();
  ~DeviceContext();
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;

  cudaStream_t stream() const { return stream_; }
  // The database's settings the kernels follow (which filter path, ...).
  const Settings& settings() const { return settings_; }
  void set_settings(const Settings& settings) { settings_ = settings; }
  // The kernels storage asks for (none until the engine sets them: a load
  // then keeps its tables whole on the host, and plain strings are encoded
  // there).
  const StorageKernels& kernels() const { return kernels_; }
  void set_kernels(const StorageKernels& kernels) { kernels_ = kernels; }
  const std::string& name() const { return name_; }
  int multiprocessors() const { return multiprocessors_; }
  // Bytes free on the device, counting what the pool holds but does not use.
  std::size_t free_bytes() const;
  void synchronize() const;

  // Tests use a cap to simulate running out of memory: allocations that
  // would take the bytes in use past it fail as the device would.
  void set_memory_cap(std::size_t bytes) { cap_ = bytes; }
  std::size_t bytes_in_use() const { return in_use_; }
  // The most bytes in use at once since the last reset_peak() (tests: what
  // an operator needs, to set a cap just below it).
  std::size_t peak_bytes_in_use() const { return peak_; }
  void reset_peak() { peak_ = in_use_; }

  // The staging buffers uploads go through: made on first use and kept, so
  // loads after the first pay nothing for them. Empty when no pinned memory
  // could be had (uploads then copy from pageable memory).
  std::vector<StagingSlot>& staging();

  // Copies a few host bytes (a kernel's parameters, a small result) to the
  // device in stream order, without waiting for the device: they go through
  // a pinned ring, so the copy is truly asynchronous (one from pageable
  // memory may wait for the stream) and the caller's memory may go away as
  // soon as this returns. The ring is reused after a synchronize when full.
  // Large copies take a pageable copy instead.
  void copy_to_device(void* destination, const void* source, std::size_t bytes);

  // Copies `bytes` of device memory to the host in stream order and waits
  // for them (a count or a result an operator must see before it goes on,
  // or a column read back). Copies land in pinned memory and are copied out
  // of it: a DMA into pageable memory costs more than one into page-locked
  // memory. Large ones go through the staging buffers, copied out on
  // several threads (not thread-safe, as uploads are not).
  void copy_to_host(void* destination, const void* source, std::size_t bytes);

  // copy_to_host() that keeps the device busy while the host waits: the copy
  // is queued, then `meanwhile` queues more work (which must not need what is
  // read back, nor read anything back itself: the pinned slot is shared),
  // and the host waits for the copy alone -- the queued work covers the
  // host's wake-up and the launches that follow.
  template <class F>
  void copy_to_host_meanwhile(void* destination, const void* source, std::size_t bytes, F&& meanwhile) {
    void* staged = queue_readback(destination, source, bytes);
    meanwhile();
    finish_readback(destination, staged, bytes);
  }

  // A few bytes of page-locked host memory that a kernel may write directly
  // (a count it finishes with): after synchronize() the host reads them with
  // no copy launched. Null when no pinned memory could be had, or `bytes` is
  // more than the slot holds; the caller then writes device memory and uses
  // copy_to_host(). Shares the slot copy_to_host() uses: stream order keeps
  // them apart.
  void* mapped_result(std::size_t bytes);

  // Status words for one-pass scans with decoupled look-back: `words` of
  // them and a word of counters, zeroed when made or grown and then kept.
  // Each call gets a new epoch; a kernel reads a word stamped with another
  // epoch as "not published yet", so a call pays no memset. The counters
  // lie past every word any call uses, and the kernel leaves them zero.
  struct ScanStatus {
    uint64_t* words;
    uint64_t* counters;
    uint32_t epoch;  // 1 .. kScanEpochs - 1
  };
  static constexpr uint32_t kScanEpochs = 1u << 30;
  ScanStatus scan_status(std::size_t words);

  // `words` counters for the last-block pattern (each block adds what it
  // finished; the one whose add completes a count goes on with the next
  // level), zeroed when made or grown and then kept: a kernel that uses them
  // must leave every one it touched zero again, so a call pays no memset.
  uint32_t* arrival_counters(std::size_t words);

 private:
  friend class DeviceBuffer;
  std::vector<StagingSlot> staging_;
  bool staging_tried_ = false;
  PinnedBuffer ring_;
  PinnedBuffer readback_;
  bool readback_tried_ = false;
  void* readback_slot();
  void copy_to_host_staged(void* destination, const void* source, std::size_t bytes);
  cudaEvent_t readback_done_ = nullptr;  // made on first use
  // The halves of copy_to_host_meanwhile(): the copy and an event after it;
  // the wait for that event and the copy out of the pinned slot.
  void* queue_readback(void* destination, const void* source, std::size_t bytes);
  void finish_readback(void* destination, const void* staged, std::size_t bytes);
  std::unique_ptr<DeviceBuffer> scan_words_;
  std::size_t scan_capacity_ = 0;  // words, the counter word not counted
  uint32_t scan_epoch_ = 0;
  std::unique_ptr<DeviceBuffer> arrival_words_;
  std::size_t arrival_capacity_ = 0;
  std::size_t ring_head_ = 0;
  bool ring_tried_ = false;
  cudaStream_t stream_ = nullptr;
  Settings settings_;
  StorageKernels kernels_;
  std::string name_;
  int multiprocessors_ = 0;
  std::size_t cap_ = 0;  // 0: none
  std::size_t in_use_ = 0;
  std::size_t peak_ = 0;
};

// An owned allocation from the pool, freed in stream order.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(DeviceContext& context, std::size_t bytes);
  ~DeviceBuffer() { release(); }
  DeviceBuffer(DeviceBuffer&& other) noexcept { *this = std::move(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* data() const { return data_; }
  template <class T>
  T* as() const {
    return static_cast<T*>(data_);
  }
  std::size_t size() const { return bytes_; }
  // The context it came from (null when empty).
  DeviceContext* context() const { return context_; }

 private:
  void release() noexcept;
  DeviceContext* context_ = nullptr;
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// Copies host memory to the device through the context's pinned staging
// buffers, in its stream: each piece is a memcpy into a staging buffer and an
// asynchronous DMA out of it, so the caller may reuse or free its memory as
// soon as a call returns, and the CPU goes on while the copy engine works.
// Not thread-safe: one thread at a time per context.
class StagedUpload {
 public:
  explicit StagedUpload(DeviceContext& context) : context_(context) {}
  // Waits for the copies in flight (errors then are ignored: call finish()).
  ~StagedUpload();
  StagedUpload(const StagedUpload&) = delete;
  StagedUpload& operator=(const StagedUpload&) = delete;

  void to_device(void* destination, const void* source, std::size_t bytes);
  void device_to_device(void* destination, const void* source, std::size_t bytes);
  // Returns once every copy has landed; throws Error(Device) if one failed.
  void finish();

 private:
  DeviceContext& context_;
  std::size_t next_ = 0;
};

}  // namespace gpusql
