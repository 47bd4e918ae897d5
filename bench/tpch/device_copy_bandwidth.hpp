// The device's memory bandwidth as the benchmarks count it: a
// device-to-device copy, bytes read plus bytes written over the copy's time
// (the H100 lent for the SSB numbers gave 3.0 TB/s this way). The runner's
// bandwidth fractions are of this number unless one is given.
#pragma once

#include <cstddef>

namespace gpusql::tpch {

// The best of a few timed copies of `bytes` (after a warm-up), in bytes per
// second. Throws gpusql::Error (Device, OutOfMemory) when there is no usable
// device or not enough memory on it.
double measure_device_copy_bandwidth(std::size_t bytes = std::size_t{1} << 30);

}  // namespace gpusql::tpch
