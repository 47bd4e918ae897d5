#include "kernels/string_like.hpp"

#include "kernels/launch.hpp"

namespace gpusql::kernels {
namespace {

constexpr int kLikeThreads = 256;

// Bytes of the UTF-8 character at text[i]: its lead byte's length, or 1
// where that would run past the text (planner/scalar_functions.cpp's rule).
__device__ uint64_t char_length(const char* text, uint64_t size, uint64_t i) {
  const unsigned char c = static_cast<unsigned char>(text[i]);
  const uint64_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  return i + n <= size ? n : 1;
}

// like_match() of the host: a walk with backtracking to the last '%'.
__device__ bool like_match(const char* text, uint64_t size, const char* pattern, uint32_t length) {
  constexpr uint32_t kNoStar = 0xFFFFFFFFu;
  uint64_t t = 0, star_t = 0;
  uint32_t p = 0, star_p = kNoStar;
  while (t < size) {
    const char c = p < length ? pattern[p] : '\0';
    if (p < length && c == '%') {
      star_p = p++;
      star_t = t;
    } else if (p < length && c == '_') {
      t += char_length(text, size, t);
      ++p;
    } else if (p < length && c == text[t]) {
      ++t;
      ++p;
    } else if (star_p != kNoStar) {
      p = star_p + 1;
      star_t += char_length(text, size, star_t);
      t = star_t;
    } else {
      return false;
    }
  }
  while (p < length && pattern[p] == '%') ++p;
  return p == length;
}

// One thread a row: neighbouring threads read neighbouring strings, so a
// warp's loads share cache lines.
__global__ void __launch_bounds__(kLikeThreads)
    like_rows_kernel(const uint64_t* __restrict__ offsets, const char* __restrict__ bytes,
                     const uint32_t* __restrict__ validity, uint64_t rows, const char* __restrict__ pattern,
                     uint32_t length, uint8_t* __restrict__ out) {
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < rows;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    const bool valid = !validity || ((validity[i / 32] >> (i % 32)) & 1u);
    const uint64_t begin = offsets[i];
    out[i] = valid && like_match(bytes + begin, offsets[i + 1] - begin, pattern, length);
  }
}

}  // namespace

void like_rows(const uint64_t* d_offsets, const char* d_bytes, const uint32_t* d_validity, std::size_t rows,
               std::string_view pattern, uint8_t* d_out, DeviceContext& context) {
  if (rows == 0) return;
  // The pattern in device memory, read by every thread (uniform, cached).
  DeviceBuffer d_pattern(context, std::max<std::size_t>(pattern.size(), 1));
  if (!pattern.empty()) context.copy_to_device(d_pattern.data(), pattern.data(), pattern.size());
  like_rows_kernel<<<grid_for((rows + kLikeThreads - 1) / kLikeThreads, context, 16), kLikeThreads, 0,
                     context.stream()>>>(d_offsets, d_bytes, d_validity, rows, static_cast<const char*>(d_pattern.data()),
                                         static_cast<uint32_t>(pattern.size()), d_out);
  GPUSQL_CHECK_LAUNCH();
}

}  // namespace gpusql::kernels
