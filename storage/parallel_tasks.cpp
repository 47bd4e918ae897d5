#include "storage/parallel_tasks.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gpusql {

void parallel_for_workers(std::size_t count, std::size_t threads,
                          const std::function<void(std::size_t, std::size_t)>& task,
                          const std::function<void()>& tick) {
  threads = std::min(threads, count);
  if (threads <= 1) {
    for (std::size_t i = 0; i < count; ++i) {
      task(i, 0);
      if (tick) tick();
    }
    return;
  }
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr failure;
  std::mutex mutex;
  std::condition_variable finished;
  std::size_t running = threads;
  std::vector<std::thread> pool;
  for (std::size_t w = 0; w < threads; ++w) {
    pool.emplace_back([&, w] {
      try {
        for (std::size_t i; !failed && (i = next++) < count;) task(i, w);
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        failed = true;
      }
      std::lock_guard lock(mutex);
      if (--running == 0) finished.notify_all();
    });
  }
  {
    std::unique_lock lock(mutex);
    while (running > 0) {
      finished.wait_for(lock, std::chrono::milliseconds(100));
      if (tick && running > 0) {
        lock.unlock();
        tick();
        lock.lock();
      }
    }
  }
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

std::size_t hardware_threads() { return std::max<std::size_t>(1, std::thread::hardware_concurrency()); }

void parallel_ranges(std::size_t count, std::size_t grain, const std::function<void(std::size_t, std::size_t)>& f) {
  const std::size_t slices = std::min(hardware_threads(), std::max<std::size_t>(1, count / std::max<std::size_t>(1, grain)));
  if (slices <= 1) {
    f(0, count);
    return;
  }
  const std::size_t step = (count + slices - 1) / slices;
  parallel_for_workers(slices, slices, [&](std::size_t i, std::size_t) { f(i * step, std::min(count, (i + 1) * step)); });
}

}  // namespace gpusql
