// A column of plain strings (offsets + bytes, DeviceColumn's Arrow layout)
// encoded on the device as codes into its sorted dictionary: what every
// query but a LIKE reads of such a column, made without the strings ever
// crossing to the host (only the distinct ones come back, as the dictionary
// the binder needs for literals and results).
#pragma once

#include <cstddef>
#include <cstdint>

#include "storage/device_memory.hpp"

namespace gpusql::kernels {

// The distinct non-NULL strings of rows [0, rows) -- row i being bytes
// [d_offsets[i], d_offsets[i + 1]) of `d_bytes`, NULL where `d_validity`
// (when not null) says -- sorted byte-wise (as memcmp, then shorter first:
// the host Dictionary's order), and each row's index among them. `codes`
// gets `rows` uint32_t (a NULL's 0), `dictionary_offsets` entries + 1
// uint64_t from 0, `dictionary_bytes` their bytes; returns the entries.
// rows < 2^32. Synchronizes (each refinement round reads a count back).
// Error(OutOfMemory) from an allocation leaves the outputs untouched.
//
// A most-significant-first radix sort of the row ids by 7-byte windows of
// their strings (and whether each string goes on), refining only the
// groups of rows still equal so far: a round costs what its rows still
// tie, so mostly distinct columns finish in a few rounds.
std::size_t encode_strings(const uint64_t* d_offsets, const char* d_bytes, const uint32_t* d_validity,
                           std::size_t rows, DeviceBuffer& codes, DeviceBuffer& dictionary_offsets,
                           DeviceBuffer& dictionary_bytes, DeviceContext& context);

}  // namespace gpusql::kernels
