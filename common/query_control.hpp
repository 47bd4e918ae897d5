// What can stop a statement from outside its own logic: an interrupt
// (Ctrl-C in the shell, Database::interrupt() from another thread) and the
// host memory limit (SET memory_limit). A database owns one; the executors
// and the CSV loader check it between blocks of work, so a stopped
// statement unwinds through the same paths as any other error and leaves
// the catalog as it was.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "gpusql/gpusql.hpp"

namespace gpusql {

class QueryControl {
 public:
  // A lock-free store and nothing else, so a signal handler may call it.
  void request_interrupt() noexcept { interrupt_.store(true, std::memory_order_relaxed); }
  void clear_interrupt() noexcept { interrupt_.store(false, std::memory_order_relaxed); }
  bool interrupt_requested() const noexcept { return interrupt_.load(std::memory_order_relaxed); }

  // Throws Error(Interrupt) once an interrupt was requested.
  void check_interrupt() const {
    if (interrupt_requested()) throw_interrupted();
  }
  // For a loop over rows: checks the interrupt once every 65,536
  // iterations (a few milliseconds of the slowest loops) and the memory
  // limit once every 4,194,304 (for loops whose output grows as they go),
  // so the checks cost nothing.
  void check_at(std::size_t iteration) const {
    if ((iteration & 0xFFFF) != 0) return;
    check_interrupt();
    if ((iteration & 0x3FFFFF) == 0 && iteration != 0) check_memory(0, "a growing operator output");
  }

  // Bytes; 0 is resolved to default_memory_limit().
  void set_memory_limit(uint64_t bytes) noexcept;
  uint64_t memory_limit() const noexcept { return memory_limit_.load(std::memory_order_relaxed); }

  // Called before allocating `bytes` more host memory for `what` (e.g. "a
  // join's output"): throws Error(OutOfMemory) when the process's resident
  // memory plus `bytes` would pass the limit, and Error(Interrupt) when an
  // interrupt is pending. Below 64 KiB the limit is not looked at: a small
  // statement makes dozens of such allocations, and each look reads /proc.
  void reserve_host_memory(std::size_t bytes, const char* what) const {
    check_interrupt();
    if (bytes >= (std::size_t{64} << 10)) check_memory(bytes, what);
  }

 private:
  void check_memory(std::size_t bytes, const char* what) const;
  [[noreturn]] static void throw_interrupted();
  std::atomic<bool> interrupt_{false};
  std::atomic<uint64_t> memory_limit_{UINT64_MAX};
};

// The process's resident memory in bytes (/proc/self/statm); 0 where unknown.
std::size_t resident_bytes();

// 80 % of the machine's memory, or of the cgroup's limit where that is lower
// (a container's), as DuckDB takes it.
uint64_t default_memory_limit();

}  // namespace gpusql
