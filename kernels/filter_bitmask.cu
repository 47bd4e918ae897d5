// The bitmask filter: WHERE over plain columns of one storage width as three
// launches, none of which waits on another block.
//
//   1. flag pass: each warp takes a span of 1024 positions, reads every
//      term's column there as 16-byte vectors (lane l holds V = 16/W
//      consecutive values per step, a warp's step covers 32*V positions, so
//      each load instruction reads 512 contiguous bytes), evaluates the
//      clauses on bitmasks, and writes the span's 32 bitmask words (bit b of
//      word w: position 32*w + b) and its count of selected rows.
//   2. cub::DeviceScan::ExclusiveSum over the span counts: each span's first
//      output slot, and the total after the last.
//   3. write pass: each warp takes a span's 32 words (one per lane), scans
//      their popcounts with shuffles, stages the span's ids in shared memory
//      in position order and copies them out coalesced.
//
// Against decoupled look-back (cub::DeviceSelect) this trades a second,
// small pass for a first pass that is a plain map: per 4-byte row it adds
// 1/8 byte written and read, and removes every wait between tiles.
#include <cub/device/device_scan.cuh>

#include "kernels/filter_bitmask.hpp"
#include "kernels/launch.hpp"
#include "kernels/vector_predicate.cuh"

namespace gpusql::kernels {
namespace {

constexpr int kThreads = 256;
constexpr int kWarp = 32;
constexpr int kWarps = kThreads / kWarp;
constexpr int kSpan = kVectorSpan;     // positions per warp span: one 32-bit flag word per lane
constexpr int kSpanWords = kSpan / 32;  // bitmask words per span

// Resident blocks asked of ptxas for the flag pass: left to itself it
// gave the 4-byte kernels 48 registers and spilled; at 4 blocks (64
// registers) they fit. The 8-byte ones hold 16 vectors per term in flight
// and need more.
template <int W>
constexpr int kFlagBlocksPerSm = W == 8 ? 2 : 4;

// Pass 1: per warp span, its bitmask words and its count of selected rows.
// Every span up to `spans` gets both, the words of a partial span zero past
// `count`; span_counts[spans] gets 0 (the scan's total lands there). The
// columns are read with ld.global.cs (streamed, evicted first), as the
// ARG_MIN kernel that reaches the read bandwidth reads them.
template <int W, int N>
__global__ void __launch_bounds__(kThreads, kFlagBlocksPerSm<W>) flag_spans_kernel(PlainTerms<N> predicate, uint64_t count, uint64_t spans,
                                                              uint32_t* __restrict__ words,
                                                              uint32_t* __restrict__ span_counts) {
  constexpr int V = kVectorBytes / W;
  constexpr int STEPS = 32 / V;
  constexpr int GROUP = kWarp / V;  // lanes whose items make one word
  const int lane = threadIdx.x % kWarp;
  const uint64_t warps = static_cast<uint64_t>(gridDim.x) * kWarps;
  const uint64_t full_spans = count / kSpan;
  if (blockIdx.x == 0 && threadIdx.x == 0) span_counts[spans] = 0;
  for (uint64_t span = static_cast<uint64_t>(blockIdx.x) * kWarps + threadIdx.x / kWarp; span < spans;
       span += warps) {
    const uint64_t first = span * kSpan + static_cast<uint64_t>(lane) * V;
    const uint32_t bits = span < full_spans ? predicate_bits<W, N, true>(predicate, first, count)
                                            : predicate_bits<W, N, false>(predicate, first, count);
    // Step s's V words: the lanes of each group of GROUP OR their V bits
    // into place; the group's first lane writes the word.
#pragma unroll
    for (int s = 0; s < STEPS; ++s) {
      uint32_t word = ((bits >> (s * V)) & ((1u << V) - 1u)) << ((lane % GROUP) * V);
#pragma unroll
      for (int offset = 1; offset < GROUP; offset *= 2) word |= __shfl_xor_sync(0xffffffffu, word, offset);
      if (lane % GROUP == 0) words[span * kSpanWords + s * V + lane / GROUP] = word;
    }
    const uint32_t selected = __reduce_add_sync(0xffffffffu, static_cast<uint32_t>(__popc(bits)));
    if (lane == 0) span_counts[span] = selected;
  }
}

// Pass 3: each span's ids at its offset (`offsets`: the exclusive scan of
// the span counts, the total after the last). A warp takes kWriteSpans
// consecutive spans at a time and issues all their loads (a word per lane
// per span, the offsets) before it uses any: one span per round trip left
// the pass waiting on memory at a quarter of its bandwidth.
constexpr int kWriteSpans = 4;

__global__ void __launch_bounds__(kThreads) write_ids_kernel(const uint32_t* __restrict__ words,
                                                             const uint32_t* __restrict__ offsets, uint64_t spans,
                                                             uint32_t* __restrict__ out) {
  __shared__ uint32_t staged[kWarps][kSpan];
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const uint64_t warps = static_cast<uint64_t>(gridDim.x) * kWarps;
  const uint64_t groups = (spans + kWriteSpans - 1) / kWriteSpans;
  for (uint64_t group = static_cast<uint64_t>(blockIdx.x) * kWarps + warp; group < groups; group += warps) {
    const uint64_t first_span = group * kWriteSpans;
    uint32_t word[kWriteSpans], base[kWriteSpans + 1];
#pragma unroll
    for (int k = 0; k < kWriteSpans; ++k)
      word[k] = first_span + k < spans ? words[(first_span + k) * kSpanWords + lane] : 0u;
#pragma unroll
    for (int k = 0; k <= kWriteSpans; ++k) base[k] = offsets[first_span + k < spans ? first_span + k : spans];
#pragma unroll
    for (int k = 0; k < kWriteSpans; ++k) {
      const uint32_t total = base[k + 1] - base[k];
      if (total == 0) continue;  // uniform across the warp
      const uint32_t mine = __popc(word[k]);
      uint32_t inclusive = mine;
#pragma unroll
      for (int offset = 1; offset < kWarp; offset *= 2) {
        const uint32_t other = __shfl_up_sync(0xffffffffu, inclusive, offset);
        if (lane >= offset) inclusive += other;
      }
      uint32_t at = inclusive - mine, w = word[k];
      const uint32_t position = static_cast<uint32_t>((first_span + k) * kSpan) + static_cast<uint32_t>(lane) * 32;
      while (w) {
        staged[warp][at++] = position + static_cast<uint32_t>(__ffs(w) - 1);
        w &= w - 1;
      }
      __syncwarp();
      for (uint32_t i = lane; i < total; i += kWarp) out[base[k] + i] = staged[warp][i];
      __syncwarp();  // staged is rewritten for the next span
    }
  }
}

template <int W, int N>
void launch_flags(const FastPredicate& p, uint64_t count, uint64_t spans, uint32_t* words, uint32_t* span_counts,
                  DeviceContext& context) {
  const PlainTerms<N> terms = plain_terms<N>(p);
  static const int per_sm = [] {
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, flag_spans_kernel<W, N>, kThreads, 0) != cudaSuccess)
      (void)cudaGetLastError();
    return blocks < 1 ? 1 : blocks;
  }();
  const unsigned blocks = grid_for((spans + kWarps - 1) / kWarps, context, per_sm);
  flag_spans_kernel<W, N><<<blocks, kThreads, 0, context.stream()>>>(terms, count, spans, words, span_counts);
  GPUSQL_CHECK_LAUNCH();
}

template <int W>
void launch_flags_width(const FastPredicate& p, uint64_t count, uint64_t spans, uint32_t* words,
                        uint32_t* span_counts, DeviceContext& context) {
  if (p.count <= 1) return launch_flags<W, 1>(p, count, spans, words, span_counts, context);
  if (p.count <= 2) return launch_flags<W, 2>(p, count, spans, words, span_counts, context);
  if (p.count <= 4) return launch_flags<W, 4>(p, count, spans, words, span_counts, context);
  return launch_flags<W, 8>(p, count, spans, words, span_counts, context);
}

}  // namespace

bool bitmask_filter_applies(const FastPredicate& p, const uint32_t* d_selection) {
  static_assert(kMaxTerms <= 8, "launch_flags_width() covers every term count");
  return !d_selection && vector_width(merge_intervals(p)) != 0;
}

std::size_t bitmask_filter(const FastPredicate& predicate, std::size_t count, uint32_t* d_out,
                           DeviceContext& context) {
  if (count == 0) return 0;
  const FastPredicate p = merge_intervals(predicate);
  const int width = vector_width(p);
  const uint64_t spans = (count + kSpan - 1) / kSpan;
  // One pool buffer: the bitmask words, the span counts (then offsets, with
  // the total after the last), CUB's scan storage.
  const std::size_t words_bytes = spans * kSpanWords * sizeof(uint32_t);
  const std::size_t counts_bytes = (spans + 1) * sizeof(uint32_t);
  std::size_t scan_bytes = 0;
  GPUSQL_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<uint32_t*>(nullptr),
                                                static_cast<uint32_t*>(nullptr), static_cast<int64_t>(spans + 1),
                                                context.stream()));
  const std::size_t counts_at = words_bytes, scan_at = (counts_at + counts_bytes + 255) / 256 * 256;
  DeviceBuffer scratch(context, scan_at + scan_bytes);
  char* base = static_cast<char*>(scratch.data());
  uint32_t* words = reinterpret_cast<uint32_t*>(base);
  uint32_t* span_counts = reinterpret_cast<uint32_t*>(base + counts_at);

  switch (width) {
    case 1: launch_flags_width<1>(p, count, spans, words, span_counts, context); break;
    case 4: launch_flags_width<4>(p, count, spans, words, span_counts, context); break;
    default: launch_flags_width<8>(p, count, spans, words, span_counts, context); break;
  }
  GPUSQL_CUDA_TRY(cub::DeviceScan::ExclusiveSum(base + scan_at, scan_bytes, span_counts, span_counts,
                                                static_cast<int64_t>(spans + 1), context.stream()));
  static const int per_sm = [] {
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, write_ids_kernel, kThreads, 0) != cudaSuccess)
      (void)cudaGetLastError();
    return blocks < 1 ? 1 : blocks;
  }();
  const uint64_t groups = (spans + kWriteSpans - 1) / kWriteSpans;
  write_ids_kernel<<<grid_for((groups + kWarps - 1) / kWarps, context, per_sm), kThreads, 0, context.stream()>>>(
      words, span_counts, spans, d_out);
  GPUSQL_CHECK_LAUNCH();
  uint32_t selected = 0;
  GPUSQL_CUDA_TRY(
      cudaMemcpyAsync(&selected, span_counts + spans, sizeof selected, cudaMemcpyDeviceToHost, context.stream()));
  context.synchronize();
  return selected;
}

}  // namespace gpusql::kernels
