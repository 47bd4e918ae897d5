#include "kernels/string_encode.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <bit>

#include "common/trace.hpp"
#include "kernels/gather.hpp"
#include "kernels/launch.hpp"

namespace gpusql::kernels {
namespace {

constexpr int kThreads = 256;
// Bytes of a string each round compares: the eighth byte of a key says how
// many of them the string has (8: more follow).
constexpr uint64_t kWindow = 7;

#define GPUSQL_GRID_STRIDE(i, n)                                                                      \
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); \
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x)

unsigned blocks(std::size_t n, const DeviceContext& context) {
  return grid_for((n + kThreads - 1) / kThreads, context);
}

struct ValidRow {
  const uint32_t* validity;
  __device__ bool operator()(uint32_t row) const { return (validity[row / 32] >> (row % 32)) & 1u; }
};

struct Larger {
  __device__ uint32_t operator()(uint32_t a, uint32_t b) const { return a > b ? a : b; }
};

// Bytes [depth, depth + 7) of row `row`'s string, big-endian (0 past its
// end), then min(bytes left, 8): comparing keys compares the windows as
// memcmp does, and of two equal windows the string that ends first is less.
__device__ uint64_t window_key(const uint64_t* offsets, const unsigned char* bytes, uint32_t row, uint64_t depth) {
  const uint64_t begin = offsets[row], size = offsets[row + 1] - begin;
  const uint64_t left = size > depth ? size - depth : 0;
  const unsigned char* p = bytes + begin + depth;
  uint64_t key = 0;
  for (uint64_t i = 0; i < kWindow; ++i) key = key << 8 | (i < left ? p[i] : 0u);
  return key << 8 | (left < kWindow + 1 ? left : kWindow + 1);
}

__device__ bool goes_on(uint64_t key) { return (key & 0xFF) == kWindow + 1; }

// keys[k]: the window at `depth` of the row at active position k; ids[k] = k.
__global__ void windows_kernel(const uint64_t* __restrict__ offsets, const unsigned char* __restrict__ bytes,
                               const uint32_t* __restrict__ order, const uint32_t* __restrict__ active, uint32_t m,
                               uint64_t depth, uint64_t* __restrict__ keys, uint32_t* __restrict__ ids) {
  GPUSQL_GRID_STRIDE(k, m) {
    keys[k] = window_key(offsets, bytes, order[active[k]], depth);
    ids[k] = static_cast<uint32_t>(k);
  }
}

// The group of each active row, in the order its window sorted them.
__global__ void groups_kernel(const uint32_t* __restrict__ group, const uint32_t* __restrict__ active,
                              const uint32_t* __restrict__ by_window, uint32_t m, uint32_t* __restrict__ out) {
  GPUSQL_GRID_STRIDE(k, m) out[k] = group[active[by_window[k]]];
}

// The rows and keys in their new order: sorted by (group, window), they
// take the active positions in turn (a group's positions stay its own).
__global__ void gather_kernel(const uint32_t* __restrict__ order, const uint32_t* __restrict__ active,
                              const uint32_t* __restrict__ sorted, const uint64_t* __restrict__ keys, uint32_t m,
                              uint32_t* __restrict__ rows_moved, uint64_t* __restrict__ keys_moved) {
  GPUSQL_GRID_STRIDE(k, m) {
    rows_moved[k] = order[active[sorted[k]]];
    keys_moved[k] = keys[sorted[k]];
  }
}

// Places the rows, and marks where a new group starts: a row that is the
// first of its old group, or whose window differs from the row before
// (starts[k] = its position, else 0, for the running maximum).
__global__ void place_kernel(uint32_t* __restrict__ order, const uint32_t* __restrict__ group,
                             const uint32_t* __restrict__ active, const uint32_t* __restrict__ rows_moved,
                             const uint64_t* __restrict__ keys_moved, uint32_t m, uint32_t* __restrict__ starts) {
  GPUSQL_GRID_STRIDE(k, m) {
    const uint32_t at = active[k];
    order[at] = rows_moved[k];
    const bool first = k == 0 || group[active[k - 1]] != group[at] || keys_moved[k - 1] != keys_moved[k];
    starts[k] = first ? at : 0;
  }
}

// Each active row's group is now the position its new group starts at; a
// row stays active while its string goes on and its group has another row.
__global__ void regroup_kernel(uint32_t* __restrict__ group, const uint32_t* __restrict__ active,
                               const uint32_t* __restrict__ new_group, const uint64_t* __restrict__ keys_moved,
                               uint32_t m, uint8_t* __restrict__ keep) {
  GPUSQL_GRID_STRIDE(k, m) {
    const uint32_t g = new_group[k];
    group[active[k]] = g;
    const bool shared = (k > 0 && new_group[k - 1] == g) || (k + 1 < m && new_group[k + 1] == g);
    keep[k] = goes_on(keys_moved[k]) && shared;
  }
}

__global__ void group_starts_kernel(const uint32_t* __restrict__ group, uint32_t n, uint32_t* __restrict__ first) {
  GPUSQL_GRID_STRIDE(p, n) first[p] = group[p] == p;
}

// A row's code: the number of groups up to its own, less one.
__global__ void codes_kernel(const uint32_t* __restrict__ order, const uint32_t* __restrict__ group,
                             const uint32_t* __restrict__ groups_to, uint32_t n, uint32_t* __restrict__ codes) {
  GPUSQL_GRID_STRIDE(p, n) codes[order[p]] = groups_to[group[p]] - 1;
}

// lengths[e]: entry e's bytes (its first row's string); lengths[entries] = 0.
__global__ void lengths_kernel(const uint64_t* __restrict__ offsets, const uint32_t* __restrict__ firsts,
                               uint32_t entries, uint64_t* __restrict__ lengths) {
  GPUSQL_GRID_STRIDE(e, uint64_t(entries) + 1) lengths[e] = e < entries ? offsets[firsts[e] + 1] - offsets[firsts[e]] : 0;
}

// A warp an entry: its lanes copy neighbouring bytes.
__global__ void copy_entries_kernel(const uint64_t* __restrict__ offsets, const char* __restrict__ bytes,
                                    const uint32_t* __restrict__ firsts, uint32_t entries,
                                    const uint64_t* __restrict__ entry_offsets, char* __restrict__ out) {
  const uint64_t warps = static_cast<uint64_t>(gridDim.x) * blockDim.x / 32;
  for (uint64_t e = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; e < entries; e += warps) {
    const uint64_t from = offsets[firsts[e]], to = entry_offsets[e], size = entry_offsets[e + 1] - to;
    for (uint64_t i = threadIdx.x % 32; i < size; i += 32) out[to + i] = bytes[from + i];
  }
}

}  // namespace

std::size_t encode_strings(const uint64_t* d_offsets, const char* d_bytes, const uint32_t* d_validity,
                           std::size_t rows, DeviceBuffer& codes, DeviceBuffer& dictionary_offsets,
                           DeviceBuffer& dictionary_bytes, DeviceContext& context) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(d_bytes);
  const cudaStream_t stream = context.stream();
  DeviceBuffer out_codes(context, rows * sizeof(uint32_t));
  if (rows) GPUSQL_CUDA_TRY(cudaMemsetAsync(out_codes.data(), 0, rows * sizeof(uint32_t), stream));
  const auto total = static_cast<uint32_t>(rows);

  // order: the non-NULL rows, sorted as far as the rounds went; group[p]:
  // the position where the group of rows equal so far, that p is in, starts.
  DeviceBuffer order(context, rows * sizeof(uint32_t)), group(context, rows * sizeof(uint32_t));
  DeviceBuffer count(context, sizeof(uint32_t));
  uint32_t n = total;
  if (d_validity) {
    run_cub(
        [&](void* temp, std::size_t& temp_bytes) {
          return cub::DeviceSelect::If(temp, temp_bytes, thrust::counting_iterator<uint32_t>(0), order.as<uint32_t>(),
                                       count.as<uint32_t>(), total, ValidRow{d_validity}, stream);
        },
        context);
    n = read_value(count.as<uint32_t>(), context);
  } else if (n) {
    sequence(0, n, order.as<uint32_t>(), context);
  }
  if (n) GPUSQL_CUDA_TRY(cudaMemsetAsync(group.data(), 0, n * sizeof(uint32_t), stream));
  trace::mark("encode-valid-rows");

  {
    // The positions of rows still tied with another, and each round's work.
    DeviceBuffer active(context, n * sizeof(uint32_t)), next_active(context, n * sizeof(uint32_t));
    DeviceBuffer keys(context, n * sizeof(uint64_t)), keys_sorted(context, n * sizeof(uint64_t));
    DeviceBuffer ids(context, n * sizeof(uint32_t)), by_window(context, n * sizeof(uint32_t));
    DeviceBuffer groups(context, n * sizeof(uint32_t)), groups_sorted(context, n * sizeof(uint32_t));
    DeviceBuffer sorted(context, n * sizeof(uint32_t)), rows_moved(context, n * sizeof(uint32_t));
    DeviceBuffer starts(context, n * sizeof(uint32_t)), new_group(context, n * sizeof(uint32_t));
    DeviceBuffer keep(context, n);
    if (n) sequence(0, n, active.as<uint32_t>(), context);
    const int group_bits = std::max(1, static_cast<int>(std::bit_width(n)));
    uint32_t m = n;
    for (uint64_t depth = 0; m > 1; depth += kWindow) {
      const unsigned grid = blocks(m, context);
      windows_kernel<<<grid, kThreads, 0, stream>>>(d_offsets, bytes, order.as<uint32_t>(), active.as<uint32_t>(), m,
                                                    depth, keys.as<uint64_t>(), ids.as<uint32_t>());
      GPUSQL_CHECK_LAUNCH();
      run_cub(
          [&](void* temp, std::size_t& temp_bytes) {
            return cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys.as<uint64_t>(), keys_sorted.as<uint64_t>(),
                                                   ids.as<uint32_t>(), by_window.as<uint32_t>(), m, 0, 64, stream);
          },
          context);
      // The first round has one group; later ones sort stably by group
      // too, each group's rows then in window order.
      const uint32_t* order_of = by_window.as<uint32_t>();
      if (depth > 0) {
        groups_kernel<<<grid, kThreads, 0, stream>>>(group.as<uint32_t>(), active.as<uint32_t>(),
                                                     by_window.as<uint32_t>(), m, groups.as<uint32_t>());
        GPUSQL_CHECK_LAUNCH();
        run_cub(
            [&](void* temp, std::size_t& temp_bytes) {
              return cub::DeviceRadixSort::SortPairs(temp, temp_bytes, groups.as<uint32_t>(),
                                                     groups_sorted.as<uint32_t>(), by_window.as<uint32_t>(),
                                                     sorted.as<uint32_t>(), m, 0, group_bits, stream);
            },
            context);
        order_of = sorted.as<uint32_t>();
      }
      gather_kernel<<<grid, kThreads, 0, stream>>>(order.as<uint32_t>(), active.as<uint32_t>(), order_of,
                                                   keys.as<uint64_t>(), m, rows_moved.as<uint32_t>(),
                                                   keys_sorted.as<uint64_t>());
      GPUSQL_CHECK_LAUNCH();
      place_kernel<<<grid, kThreads, 0, stream>>>(order.as<uint32_t>(), group.as<uint32_t>(), active.as<uint32_t>(),
                                                  rows_moved.as<uint32_t>(), keys_sorted.as<uint64_t>(), m,
                                                  starts.as<uint32_t>());
      GPUSQL_CHECK_LAUNCH();
      run_cub(
          [&](void* temp, std::size_t& temp_bytes) {
            return cub::DeviceScan::InclusiveScan(temp, temp_bytes, starts.as<uint32_t>(), new_group.as<uint32_t>(),
                                                  Larger{}, m, stream);
          },
          context);
      regroup_kernel<<<grid, kThreads, 0, stream>>>(group.as<uint32_t>(), active.as<uint32_t>(),
                                                    new_group.as<uint32_t>(), keys_sorted.as<uint64_t>(), m,
                                                    keep.as<uint8_t>());
      GPUSQL_CHECK_LAUNCH();
      run_cub(
          [&](void* temp, std::size_t& temp_bytes) {
            return cub::DeviceSelect::Flagged(temp, temp_bytes, active.as<uint32_t>(), keep.as<uint8_t>(),
                                              next_active.as<uint32_t>(), count.as<uint32_t>(), m, stream);
          },
          context);
      m = read_value(count.as<uint32_t>(), context);
      std::swap(active, next_active);
      trace::mark("encode-round");
    }
  }

  // Entry e is the e-th group; its string is its first row's.
  DeviceBuffer first(context, n * sizeof(uint32_t)), groups_to(context, n * sizeof(uint32_t));
  DeviceBuffer firsts(context, n * sizeof(uint32_t));
  uint32_t entries = 0;
  if (n) {
    group_starts_kernel<<<blocks(n, context), kThreads, 0, stream>>>(group.as<uint32_t>(), n, first.as<uint32_t>());
    GPUSQL_CHECK_LAUNCH();
    run_cub(
        [&](void* temp, std::size_t& temp_bytes) {
          return cub::DeviceScan::InclusiveSum(temp, temp_bytes, first.as<uint32_t>(), groups_to.as<uint32_t>(), n,
                                               stream);
        },
        context);
    codes_kernel<<<blocks(n, context), kThreads, 0, stream>>>(order.as<uint32_t>(), group.as<uint32_t>(),
                                                              groups_to.as<uint32_t>(), n, out_codes.as<uint32_t>());
    GPUSQL_CHECK_LAUNCH();
    run_cub(
        [&](void* temp, std::size_t& temp_bytes) {
          return cub::DeviceSelect::Flagged(temp, temp_bytes, order.as<uint32_t>(), first.as<uint32_t>(),
                                            firsts.as<uint32_t>(), count.as<uint32_t>(), n, stream);
        },
        context);
    entries = read_value(count.as<uint32_t>(), context);
  }
  DeviceBuffer lengths(context, (std::size_t(entries) + 1) * sizeof(uint64_t));
  DeviceBuffer out_offsets(context, (std::size_t(entries) + 1) * sizeof(uint64_t));
  lengths_kernel<<<blocks(std::size_t(entries) + 1, context), kThreads, 0, stream>>>(
      d_offsets, firsts.as<uint32_t>(), entries, lengths.as<uint64_t>());
  GPUSQL_CHECK_LAUNCH();
  run_cub(
      [&](void* temp, std::size_t& temp_bytes) {
        return cub::DeviceScan::ExclusiveSum(temp, temp_bytes, lengths.as<uint64_t>(), out_offsets.as<uint64_t>(),
                                             entries + 1, stream);
      },
      context);
  const uint64_t total_bytes = read_value(out_offsets.as<uint64_t>() + entries, context);
  DeviceBuffer out_bytes(context, total_bytes);
  if (entries) {
    copy_entries_kernel<<<grid_for((std::size_t(entries) * 32 + kThreads - 1) / kThreads, context), kThreads, 0,
                          stream>>>(d_offsets, d_bytes, firsts.as<uint32_t>(), entries, out_offsets.as<uint64_t>(),
                                    out_bytes.as<char>());
    GPUSQL_CHECK_LAUNCH();
  }
  context.synchronize();
  trace::mark("encode-entries");
  codes = std::move(out_codes);
  dictionary_offsets = std::move(out_offsets);
  dictionary_bytes = std::move(out_bytes);
  return entries;
}

}  // namespace gpusql::kernels
