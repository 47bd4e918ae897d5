// LIKE over a column of plain strings that lives on the device alone: the
// matches made there (kernels/string_like.hpp) and read back, a byte a row,
// so the strings themselves never cross to the host.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "storage/device_table.hpp"

namespace gpusql {

// 1 where row i of `column` (plain strings, `rows` rows) matches `pattern`,
// 0 where it does not or is NULL. Error(OutOfMemory) when the row's bytes
// do not fit; nothing changes then.
std::vector<uint8_t> like_on_device(const DeviceColumn& column, std::size_t rows, std::string_view pattern,
                                    DeviceContext& context);

}  // namespace gpusql
