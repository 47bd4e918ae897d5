#include "common/query_control.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "common/byte_size.hpp"

namespace gpusql {

void QueryControl::set_memory_limit(uint64_t bytes) noexcept {
  memory_limit_.store(bytes == 0 ? default_memory_limit() : bytes, std::memory_order_relaxed);
}

void QueryControl::check_memory(std::size_t bytes, const char* what) const {
  const uint64_t limit = memory_limit();
  if (limit == UINT64_MAX) return;
  const std::size_t in_use = resident_bytes();
  if (in_use <= limit && bytes <= limit - in_use) return;
  const std::string held = "the process holds " + format_bytes(in_use);
  const std::string tail = " its memory_limit of " + format_bytes(limit) + " (SET memory_limit = '...' changes it)";
  throw Error(ErrorKind::OutOfMemory, bytes == 0 ? std::string(what) + ": " + held + ", past" + tail
                                                 : std::string(what) + " needs " + format_bytes(bytes) +
                                                       " of host memory; " + held + " of" + tail);
}

void QueryControl::throw_interrupted() { throw Error(ErrorKind::Interrupt, "Interrupted!"); }

std::size_t resident_bytes() {
  // statm's second field: resident pages. One read() of a short file.
  std::FILE* file = std::fopen("/proc/self/statm", "r");
  if (!file) return 0;
  unsigned long long size = 0, resident = 0;
  const int read = std::fscanf(file, "%llu %llu", &size, &resident);
  std::fclose(file);
  if (read != 2) return 0;
  return static_cast<std::size_t>(resident) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

uint64_t default_memory_limit() {
  uint64_t total = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  // cgroup v2, then v1; "max" or an absurd v1 value means no limit.
  for (const char* path : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(path);
    unsigned long long limit = 0;
    if (in >> limit && limit > 0 && limit < total) total = limit;
  }
  return total / 10 * 8;
}

}  // namespace gpusql
