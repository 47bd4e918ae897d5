// The bitmask filter: WHERE over plain columns of one storage width. Each
// warp takes a span of 1024 positions, reads every term's column there as
// 16-byte vectors (lane l holds V = 16/W consecutive values per step, a
// warp's step covers 32*V positions, so each load instruction reads 512
// contiguous bytes) and evaluates the clauses on bitmasks: 32 bits a lane.
//
// One pass (the default, kernels/one_pass_select.cuh): a block's 8 spans
// are a tile; the tile's count is published at once and its offset found
// by decoupled look-back while the block already evaluates its next tile,
// so the look-back rarely waits; the ids are written from the bits still
// in registers. The kernel
// runs at the flag pass's speed (ncu, 1 GiB REAL column, 1 %: 371 µs
// against 377), and the bitmask, the scan and the write pass are gone.
//
// Three launches (SET filter_kernel = 'bitmask', kept for comparison):
//   1. flag pass: the span's 32 bitmask words (bit b of word w: position
//      32*w + b) and its count of selected rows to global memory;
//   2. cub::DeviceScan::ExclusiveSum over the span counts: each span's first
//      output slot, and the total after the last;
//   3. write pass: each warp takes a span's 32 words (one per lane), scans
//      their popcounts with shuffles, stages the span's ids in shared memory
//      in position order and copies them out coalesced.
// No block ever waits on another, but the bits are written and read again
// and two more launches run: 0.463 against 0.411 ms at 1 % (kernel_bench).
//
// cub::DeviceSelect also looks back, one tile per block with no work to
// overlap the wait: 0.606 ms at 1 %; so did a first version of the one pass
// here, at 0.554 ms.
#include <cstdlib>
#include <cstring>

#include <cub/device/device_scan.cuh>

#include "kernels/filter_bitmask.hpp"
#include "kernels/launch.hpp"
#include "kernels/one_pass_select.cuh"
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
      uint32_t* span_out = out + base[k];
      one_pass::emit_word_positions(word[k], static_cast<uint32_t>((first_span + k) * kSpan), total, staged[warp],
                                    [&](uint32_t i, uint32_t position) { span_out[i] = position; });
    }
  }
}

// ---- one pass (kernels/one_pass_select.cuh), flags from the predicate ----

template <int W, int N>
struct PredicateSource {
  static constexpr int kWidth = W;
  static constexpr int kBlocksPerSm = kFlagBlocksPerSm<W>;
  PlainTerms<N> predicate;  // a kernel parameter: indexed at compile time, it stays in the parameter bank
  uint32_t* out;
  template <bool FULL>
  __device__ __forceinline__ uint32_t bits(uint64_t first, uint64_t count) const {
    return predicate_bits<W, N, FULL>(predicate, first, count);
  }
  __device__ __forceinline__ void emit(uint32_t index, uint32_t position) const { out[index] = position; }
  __device__ __forceinline__ void finish(uint32_t) const {}
};

template <int W, int N>
std::size_t select_width_terms(const FastPredicate& p, std::size_t count, uint32_t* out, DeviceContext& context) {
  return one_pass::select(count, context, [&] { return PredicateSource<W, N>{plain_terms<N>(p), out}; }).count;
}

template <int W>
std::size_t select_width(const FastPredicate& p, std::size_t count, uint32_t* out, DeviceContext& context) {
  if (p.count <= 1) return select_width_terms<W, 1>(p, count, out, context);
  if (p.count <= 2) return select_width_terms<W, 2>(p, count, out, context);
  if (p.count <= 4) return select_width_terms<W, 4>(p, count, out, context);
  return select_width_terms<W, 8>(p, count, out, context);
}

std::size_t one_pass_filter(const FastPredicate& p, int width, std::size_t count, uint32_t* d_out,
                            DeviceContext& context) {
  switch (width) {
    case 1: return select_width<1>(p, count, d_out, context);
    case 4: return select_width<4>(p, count, d_out, context);
    default: return select_width<8>(p, count, d_out, context);
  }
}

// SET filter_kernel = 'bitmask': the three launches instead of the one pass
// (so a benchmark can compare both in one process).
bool three_launches_requested(const DeviceContext& context) {
  return context.settings().filter_kernel == FilterKernel::Bitmask;
}

template <int W, int N>
void launch_flags(const FastPredicate& p, uint64_t count, uint64_t spans, uint32_t* words, uint32_t* span_counts,
                  DeviceContext& context) {
  const PlainTerms<N> terms = plain_terms<N>(p);
  const unsigned blocks =
      grid_for((spans + kWarps - 1) / kWarps, context, resident_blocks_per_sm<flag_spans_kernel<W, N>, kThreads>());
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
  if (!three_launches_requested(context)) return one_pass_filter(p, width, count, d_out, context);
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
  const uint64_t groups = (spans + kWriteSpans - 1) / kWriteSpans;
  const unsigned blocks =
      grid_for((groups + kWarps - 1) / kWarps, context, resident_blocks_per_sm<write_ids_kernel, kThreads>());
  write_ids_kernel<<<blocks, kThreads, 0, context.stream()>>>(words, span_counts, spans, d_out);
  GPUSQL_CHECK_LAUNCH();
  uint32_t selected = 0;
  context.copy_to_host(&selected, span_counts + spans, sizeof selected);
  return selected;
}

}  // namespace gpusql::kernels
