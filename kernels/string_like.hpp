// LIKE over a column of plain strings on the device (offsets + bytes, the
// Arrow layout of DeviceColumn::string_offsets/string_bytes), so a query on
// a table that lives on the device alone never fetches the strings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "storage/device_memory.hpp"

namespace gpusql::kernels {

// out[i] = 1 where row i, bytes [offsets[i], offsets[i + 1]) of `d_bytes`,
// matches `pattern` ('%' any run of bytes, '_' one UTF-8 character, every
// other byte itself), 0 where it does not or `d_validity` (when not null)
// says the row is NULL. The rule is the host's like_match(), byte for
// byte, so both executors keep the same rows.
void like_rows(const uint64_t* d_offsets, const char* d_bytes, const uint32_t* d_validity, std::size_t rows,
               std::string_view pattern, uint8_t* d_out, DeviceContext& context);

}  // namespace gpusql::kernels
