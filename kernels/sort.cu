// Radix sorts. The heavy CUB device-wide headers live in this one file.
#include <cub/device/device_radix_sort.cuh>

#include "kernels/filter.hpp"
#include "kernels/launch.hpp"

namespace gpusql::kernels {

void sort_row_ids(uint32_t* d_ids, std::size_t count, std::size_t max_row, DeviceContext& context) {
  if (count < 2) return;
  int end_bit = 1;
  while (end_bit < 32 && (std::size_t{1} << end_bit) <= max_row) ++end_bit;
  DeviceBuffer alternate(context, count * sizeof(uint32_t));
  cub::DoubleBuffer<uint32_t> keys(d_ids, alternate.as<uint32_t>());
  std::size_t temp_bytes = 0;
  GPUSQL_CUDA_TRY(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, keys, static_cast<int64_t>(count), 0, end_bit,
                                                 context.stream()));
  DeviceBuffer temp(context, temp_bytes);
  GPUSQL_CUDA_TRY(cub::DeviceRadixSort::SortKeys(temp.data(), temp_bytes, keys, static_cast<int64_t>(count), 0, end_bit,
                                                 context.stream()));
  if (keys.Current() != d_ids)
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(d_ids, keys.Current(), count * sizeof(uint32_t), cudaMemcpyDeviceToDevice,
                                    context.stream()));
}

}  // namespace gpusql::kernels
