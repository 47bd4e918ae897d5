// Host work split over the machine's cores: loading (csv_reader) and the
// binder's per-dictionary-entry work (LIKE, string functions).
#pragma once

#include <cstddef>
#include <functional>

namespace gpusql {

// Runs task(i, worker) for every i in [0, count) on up to `threads` threads
// (worker: which of them, 0-based); the caller's thread calls `tick` about
// every 100 ms meanwhile. The first exception a task lets escape is rethrown
// once all threads have stopped.
void parallel_for_workers(std::size_t count, std::size_t threads,
                          const std::function<void(std::size_t, std::size_t)>& task,
                          const std::function<void()>& tick = nullptr);

// One thread per core.
std::size_t hardware_threads();

// f(begin, end) over [0, count) in slices of at least `grain`, on every core
// when there is that much work, else on the caller's thread.
void parallel_ranges(std::size_t count, std::size_t grain, const std::function<void(std::size_t, std::size_t)>& f);

}  // namespace gpusql
