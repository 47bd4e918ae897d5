// Sizes in bytes as users read them.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

namespace gpusql {

// As DuckDB prints a size: "512 bytes", "3.7 GiB" (units of 1024, one decimal).
inline std::string format_bytes(std::size_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 5) {
    value /= 1024;
    ++unit;
  }
  char buffer[64];
  if (unit == 0) std::snprintf(buffer, sizeof buffer, "%zu bytes", bytes);
  else std::snprintf(buffer, sizeof buffer, "%.1f %s", value, units[unit]);
  return buffer;
}

}  // namespace gpusql
