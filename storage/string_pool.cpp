#include "storage/string_pool.hpp"

#include <stdexcept>

namespace gpusql {

StringPool StringPool::adopt(std::vector<uint64_t> offsets, Bytes bytes) {
  if (offsets.empty() || offsets.front() != 0 || offsets.back() != bytes.size())
    throw std::invalid_argument("StringPool::adopt: offsets do not span the bytes");
  StringPool pool;
  pool.offsets_ = std::move(offsets);
  pool.bytes_ = std::move(bytes);
  return pool;
}

std::string_view StringPool::at(std::size_t i) const {
  if (i >= size()) throw std::out_of_range("StringPool::at");
  return (*this)[i];
}

}  // namespace gpusql
