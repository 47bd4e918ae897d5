// SET trace = true (gpusql::Settings::trace): host-side time marks along one
// query (parse, plan, each phase of an operator that waits on the device),
// printed to stderr as microseconds since the previous mark when the query
// ends. For finding where a query's fixed cost goes; free when off. The
// switch is per thread: the database sets it as a statement starts.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace gpusql::trace {

inline bool& enabled_flag() {
  static thread_local bool on = false;
  return on;
}

inline bool enabled() { return enabled_flag(); }
inline void set_enabled(bool on) { enabled_flag() = on; }

struct Mark {
  const char* what;
  std::chrono::steady_clock::time_point at;
};

inline std::vector<Mark>& marks() {
  static thread_local std::vector<Mark> m;
  return m;
}

inline void mark(const char* what) {
  if (enabled()) marks().push_back({what, std::chrono::steady_clock::now()});
}

// Prints "trace: what +us ..." for the marks since the last flush.
inline void flush() {
  if (!enabled() || marks().empty()) return;
  std::string line = "trace:";
  for (std::size_t i = 1; i < marks().size(); ++i) {
    const double us = std::chrono::duration<double, std::micro>(marks()[i].at - marks()[i - 1].at).count();
    char piece[96];
    std::snprintf(piece, sizeof piece, " %s %.0f", marks()[i].what, us);
    line += piece;
  }
  std::fprintf(stderr, "%s\n", line.c_str());
  marks().clear();
}

}  // namespace gpusql::trace
