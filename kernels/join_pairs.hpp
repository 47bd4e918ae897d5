// The output of a join: pairs of positions into its two inputs.
#pragma once

#include <cstddef>
#include <cstdint>

#include "storage/device_memory.hpp"

namespace gpusql::kernels {

// `count` pairs (left[i], right[i]), ordered by left position, then right --
// the order the host executor gives. Each buffer holds at least one entry.
struct JoinPairs {
  DeviceBuffer left;
  DeviceBuffer right;
  std::size_t count = 0;
};

// Joins whose output would not fit 32-bit positions are refused.
constexpr std::size_t kMaxJoinPairs = 0xfffffffeull;

// An outer join's position of the side a row found no match on.
constexpr uint32_t kNoMatch = 0xffffffffu;

}  // namespace gpusql::kernels
