#include "execution/device_like.hpp"

#include "kernels/string_like.hpp"

namespace gpusql {

std::vector<uint8_t> like_on_device(const DeviceColumn& column, std::size_t rows, std::string_view pattern,
                                    DeviceContext& context) {
  std::vector<uint8_t> matches(rows);
  if (rows == 0) return matches;
  DeviceBuffer out(context, rows);
  kernels::like_rows(static_cast<const uint64_t*>(column.string_offsets.data()),
                     static_cast<const char*>(column.string_bytes.data()),
                     static_cast<const uint32_t*>(column.validity.data()), rows, pattern,
                     static_cast<uint8_t*>(out.data()), context);
  context.copy_to_host(matches.data(), out.data(), rows);
  return matches;
}

}  // namespace gpusql
