#include "bench/tpch/tpch_dictionary_encode.hpp"

#include <algorithm>
#include <numeric>
#include <thread>

namespace gpusql::tpch::detail {

std::shared_ptr<const Dictionary> dictionary_encode(std::vector<std::string>& strings, uint32_t* codes,
                                                    unsigned threads) {
  // Row numbers in string order: sorted in one run per thread, then the runs
  // merged pairwise -- a comment column of millions of rows spends most of
  // its time here, and moving 4-byte row numbers is cheaper than strings.
  const std::size_t n = strings.size();
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  auto less = [&](uint32_t a, uint32_t b) { return strings[a] < strings[b]; };
  const std::size_t runs = std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(1, n / (1 << 14)));
  std::vector<std::size_t> bounds(runs + 1);
  for (std::size_t r = 0; r <= runs; ++r) bounds[r] = n * r / runs;
  auto at = [&](std::size_t i) { return order.begin() + static_cast<std::ptrdiff_t>(i); };
  {
    std::vector<std::thread> pool;
    for (std::size_t r = 0; r < runs; ++r)
      pool.emplace_back([&, r] { std::sort(at(bounds[r]), at(bounds[r + 1]), less); });
    for (auto& t : pool) t.join();
  }
  for (std::size_t width = 1; width < runs; width *= 2) {
    std::vector<std::thread> pool;
    for (std::size_t r = 0; r + width < runs; r += 2 * width) {
      const std::size_t begin = bounds[r], middle = bounds[r + width], end = bounds[std::min(runs, r + 2 * width)];
      pool.emplace_back([&, begin, middle, end] { std::inplace_merge(at(begin), at(middle), at(end), less); });
    }
    for (auto& t : pool) t.join();
  }
  // One pass in order: a new code wherever the string changes.
  auto dictionary = std::make_shared<Dictionary>();
  for (uint32_t row : order) {
    if (dictionary->values.empty() || dictionary->values.back() != strings[row])
      dictionary->values.push_back(strings[row]);
    codes[row] = static_cast<uint32_t>(dictionary->values.size() - 1);
  }
  strings.clear();
  return dictionary;
}

}  // namespace gpusql::tpch::detail
