// See kernels/sort_column.hpp.
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <utility>

#include "kernels/launch.hpp"
#include "kernels/sort_column.hpp"

namespace gpusql::kernels {
namespace {

template <class K>
void sort_column_impl(const void* column, bool descending, DeviceBuffer& positions, std::size_t count,
                      int begin_bit, int end_bit, DeviceContext& context) {
  // CUB keeps the column as it is (the keys' pointer is const) and writes
  // its last pass to keys_out; its own temporary storage holds the buffers
  // the passes alternate between. The keys come out sorted, unused: the
  // price of reading the column in place instead of copying it first.
  const K* keys_in = static_cast<const K*>(column);
  DeviceBuffer keys_out(context, count * sizeof(K));
  DeviceBuffer positions_out(context, count * sizeof(uint32_t));
  const uint32_t n = static_cast<uint32_t>(count);  // 32-bit offsets: CUB's tuned SM90 policy
  run_cub(
      [&](void* temp, std::size_t& temp_bytes) {
        return descending ? cub::DeviceRadixSort::SortPairsDescending(
                                temp, temp_bytes, keys_in, keys_out.as<K>(), positions.as<uint32_t>(),
                                positions_out.as<uint32_t>(), n, begin_bit, end_bit, context.stream())
                          : cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys_in, keys_out.as<K>(),
                                                            positions.as<uint32_t>(), positions_out.as<uint32_t>(),
                                                            n, begin_bit, end_bit, context.stream());
      },
      context);
  std::swap(positions, positions_out);
}

}  // namespace

bool column_sort_type(Type type) {
  return type == Type::Integer || type == Type::Date || type == Type::Double || type == Type::Real;
}

void sort_column_pairs(const void* column, Type type, bool descending, DeviceBuffer& positions, std::size_t count,
                       int begin_bit, int end_bit, DeviceContext& context) {
  switch (type) {
    case Type::Integer:
    case Type::Date: return sort_column_impl<int32_t>(column, descending, positions, count, begin_bit, end_bit, context);
    case Type::Double: return sort_column_impl<double>(column, descending, positions, count, begin_bit, end_bit, context);
    case Type::Real: return sort_column_impl<float>(column, descending, positions, count, begin_bit, end_bit, context);
    default: throw Error(ErrorKind::Execution, "internal: sort_column_pairs over an unsupported type");
  }
}

}  // namespace gpusql::kernels
