// What export_arrow (include/gpusql/arrow.hpp) shows its tests beyond the
// public API: the string size at which VARCHAR switches to 64-bit offsets,
// which a test cannot reach with 2 GiB of real strings, and a count of the
// memory the exported structs still hold, to see that release frees it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "gpusql/arrow.hpp"

namespace gpusql::detail {

// The most string bytes a VARCHAR column may hold and still be "u": 32-bit
// offsets reach no further.
inline constexpr std::size_t kMaxArrowStringBytes = std::numeric_limits<int32_t>::max();

// export_arrow with that limit chosen: a column of more string bytes than
// `max_string_bytes` becomes "U".
void export_arrow(const Result& result, ArrowSchema* schema, ArrowArray* array, std::size_t max_string_bytes);

// How many exported structs (parents and children, schemas and arrays) have
// not been released yet, over the whole process.
std::size_t live_arrow_structs();

}  // namespace gpusql::detail
