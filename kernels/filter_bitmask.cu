// The bitmask filter: WHERE over plain columns of one storage width. Each
// warp takes a span of 1024 positions, reads every term's column there as
// 16-byte vectors (lane l holds V = 16/W consecutive values per step, a
// warp's step covers 32*V positions, so each load instruction reads 512
// contiguous bytes) and evaluates the clauses on bitmasks: 32 bits a lane.
//
// One pass (the default): a block's 8 spans are a tile; the tile's count
// is published at once and its offset found by decoupled look-back while
// the block already evaluates its next tile, so the look-back rarely
// waits; the ids are written from the bits still in registers. The kernel
// runs at the flag pass's speed (ncu, 1 GiB REAL column, 1 %: 371 µs
// against 377), and the bitmask, the scan and the write pass are gone.
//
// Three launches (GPUSQL_FILTER_KERNEL=bitmask, kept for comparison):
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

#include <cuda/atomic>
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

// A span's ids, ascending, at out[0...]: lane l holds the span's word l
// (bit b: position first_id + 32*l + b); the lanes' popcounts scanned with
// shuffles place each lane's ids in the warp's `staged` slice of shared
// memory (kSpan ids), which is then copied out coalesced. `selected`: the
// span's count (uniform).
__device__ __forceinline__ void write_word_ids(uint32_t word, uint32_t first_id, uint32_t selected,
                                               uint32_t* __restrict__ staged, uint32_t* __restrict__ out) {
  const int lane = threadIdx.x % kWarp;
  const uint32_t mine = __popc(word);
  uint32_t inclusive = mine;
#pragma unroll
  for (int offset = 1; offset < kWarp; offset *= 2) {
    const uint32_t other = __shfl_up_sync(0xffffffffu, inclusive, offset);
    if (lane >= offset) inclusive += other;
  }
  uint32_t at = inclusive - mine;
  const uint32_t position = first_id + static_cast<uint32_t>(lane) * 32;
  while (word) {
    staged[at++] = position + static_cast<uint32_t>(__ffs(word) - 1);
    word &= word - 1;
  }
  __syncwarp();
  for (uint32_t i = lane; i < selected; i += kWarp) out[i] = staged[i];
  __syncwarp();  // staged is rewritten for the next span
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
      write_word_ids(word[k], static_cast<uint32_t>((first_span + k) * kSpan), total, staged[warp], out + base[k]);
    }
  }
}

// ---- one pass: the flag pass with the offsets found by look-back ----
//
// A block takes tiles of kWarps consecutive spans from a ticket counter;
// each warp evaluates its span of the tile as the flag pass does and keeps
// the 32 bits in a register. The block publishes the tile's count at once
// (flag kAggregate), then evaluates its next tile before it looks back for
// the first one's offset: by then the tiles before it have published
// theirs, so the look-back finds them instead of waiting, and the next
// tile's loads were in flight meanwhile. With the offset (flag kPrefix
// published for the tiles after it), each warp writes its span's ids as the
// write pass does. The columns are read once; the bits never leave the
// block.
//
// The status words persist across calls (DeviceContext::scan_status()):
// each word carries the call's epoch, and one of an older epoch reads as
// unpublished, so no memset precedes the launch. The ticket counter after
// the words is put back to zero by the last block to finish. (A kernel that
// faults leaves it as it was; a fault is a sticky error that ends the
// context, so no later call would read it.)
//
// No deadlock: a block publishes the count of every tile it holds before it
// waits, except a ticket taken for the tile after its next, which is larger
// than the tile it waits on. So the smallest tile any block waits on
// depends only on tiles whose counts are published or whose blocks are
// running.
constexpr uint64_t kAggregate = 1ull << 62;  // status word: flag (2 bits) | epoch (30) | value (32, a count)
constexpr uint64_t kPrefix = 2ull << 62;     //   kPrefix: the count of this tile and all before it
static_assert(DeviceContext::kScanEpochs == 1u << 30, "the epoch fills bits 32..61 of a status word");

__device__ __forceinline__ void publish_status(uint64_t* status, int tile, uint64_t word) {
  ::cuda::atomic_ref<uint64_t, ::cuda::thread_scope_device>(status[tile]).store(word, ::cuda::memory_order_relaxed);
}

__device__ __forceinline__ uint32_t status_epoch(uint64_t word) {
  return static_cast<uint32_t>(word >> 32) & (DeviceContext::kScanEpochs - 1);
}

// The ids selected in the tiles before `tile` (tile > 0), by warp 0: lane l
// reads tile window - l, windows of 32 going back until one holds a prefix.
__device__ __forceinline__ uint32_t look_back(uint64_t* status, int tile, uint32_t epoch) {
  const int lane = threadIdx.x % kWarp;
  uint32_t before = 0;
  for (int window = tile - 1;; window -= kWarp) {
    const int t = window - lane;
    uint64_t word = kPrefix;  // before tile 0: a prefix of 0
    if (t >= 0) {
      ::cuda::atomic_ref<uint64_t, ::cuda::thread_scope_device> ref(status[t]);
      while (status_epoch(word = ref.load(::cuda::memory_order_relaxed)) != epoch) __nanosleep(64);
    }
    const uint32_t prefixes = __ballot_sync(0xffffffffu, (word & kPrefix) != 0);
    const int nearest = prefixes ? __ffs(prefixes) - 1 : kWarp - 1;  // lowest lane: the nearest tile
    const uint32_t value = lane <= nearest ? static_cast<uint32_t>(word) : 0u;
    before += __reduce_add_sync(0xffffffffu, value);
    if (prefixes) return before;
  }
}

// The span's ids, ascending, at out[0...], from the bits as predicate_bits()
// gives them (bit s*V + j of lane l: position first_id + s*32*V + V*l + j),
// regrouped into word w in lane w for write_word_ids().
template <int W>
__device__ __forceinline__ void write_span_ids(uint32_t bits, uint32_t first_id, uint32_t selected,
                                               uint32_t* __restrict__ staged, uint32_t* __restrict__ out) {
  constexpr int V = kVectorBytes / W;
  constexpr int STEPS = 32 / V;
  constexpr int GROUP = kWarp / V;
  const int lane = threadIdx.x % kWarp;
  uint32_t word = 0;
#pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    // Step s's words s*V + g, g = 0..V-1: group g's lanes OR their bits.
    uint32_t part = ((bits >> (s * V)) & ((1u << V) - 1u)) << ((lane % GROUP) * V);
#pragma unroll
    for (int offset = 1; offset < GROUP; offset *= 2) part |= __shfl_xor_sync(0xffffffffu, part, offset);
    const uint32_t mine = __shfl_sync(0xffffffffu, part, (lane % V) * GROUP);  // word s*V + lane % V
    if (lane / V == s) word = mine;
  }
  write_word_ids(word, first_id, selected, staged, out);
}

// The warp's bits of `tile` (0 past the last span).
template <int W, int N>
__device__ __forceinline__ uint32_t tile_bits(const PlainTerms<N>& predicate, int tile, uint64_t count,
                                              uint64_t spans) {
  constexpr int V = kVectorBytes / W;
  const uint64_t span = static_cast<uint64_t>(tile) * kWarps + threadIdx.x / kWarp;
  if (span >= spans) return 0;
  const uint64_t first = span * kSpan + static_cast<uint64_t>(threadIdx.x % kWarp) * V;
  return span < count / kSpan ? predicate_bits<W, N, true>(predicate, first, count)
                              : predicate_bits<W, N, false>(predicate, first, count);
}

// status: a word per tile (none of this epoch yet); counters: the ticket
// counter and the count of blocks done (both zero). `total` may be host memory.
template <int W, int N>
__global__ void __launch_bounds__(kThreads, kFlagBlocksPerSm<W>)
    select_spans_kernel(PlainTerms<N> predicate, uint64_t count, uint64_t spans, int tiles,
                        uint64_t* __restrict__ status, uint64_t* __restrict__ counters, uint32_t epoch,
                        uint32_t* __restrict__ out, uint32_t* __restrict__ total) {
  __shared__ uint32_t warp_counts[2][kWarps];  // per tile held (by parity): counts, then offsets
  __shared__ uint32_t tile_counts[2];
  __shared__ int tickets[2];
  __shared__ uint32_t staged[kWarps][kSpan];
  unsigned int* ticket_counter = reinterpret_cast<unsigned int*>(counters);
  unsigned int* blocks_done = ticket_counter + 1;
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const uint64_t stamp = static_cast<uint64_t>(epoch) << 32;

  // Thread 0, once its block takes no more tickets: the last block to get
  // here zeroes the counters for the next call (every ticket is taken by then).
  auto finish = [&] {
    if (threadIdx.x != 0) return;
    __threadfence();
    if (atomicAdd(blocks_done, 1u) == gridDim.x - 1) {
      *ticket_counter = 0;
      *blocks_done = 0;
    }
  };

  // Warp 0: the counts of the tile in slot `p` scanned into offsets within
  // it, its total kept, and its status published.
  auto publish = [&](int tile, int p) {
    const uint32_t mine = lane < kWarps ? warp_counts[p][lane] : 0u;
    uint32_t inclusive = mine;
#pragma unroll
    for (int offset = 1; offset < kWarps; offset *= 2) {
      const uint32_t other = __shfl_up_sync(0xffffffffu, inclusive, offset);
      if (lane >= offset) inclusive += other;
    }
    const uint32_t tile_total = __shfl_sync(0xffffffffu, inclusive, kWarps - 1);
    if (lane < kWarps) warp_counts[p][lane] = inclusive - mine;
    if (lane == 0) {
      tile_counts[p] = tile_total;
      publish_status(status, tile, (tile == 0 ? kPrefix : kAggregate) | stamp | tile_total);
    }
  };

  if (threadIdx.x == 0) {
    tickets[0] = static_cast<int>(atomicAdd(ticket_counter, 1u));
    tickets[1] = static_cast<int>(atomicAdd(ticket_counter, 1u));
  }
  __syncthreads();
  int tile = tickets[0], next = tickets[1];
  if (tile >= tiles) return finish();  // uniform across the block
  uint32_t bits = tile_bits<W, N>(predicate, tile, count, spans);
  const uint32_t first_count = __reduce_add_sync(0xffffffffu, static_cast<uint32_t>(__popc(bits)));
  if (lane == 0) warp_counts[0][warp] = first_count;
  __syncthreads();
  if (warp == 0) publish(tile, 0);
  int p = 0;
  while (true) {
    // The next tile's bits and count (its loads overlap the tiles before
    // `tile` finishing), then `tile`'s offset.
    const bool has_next = next < tiles;
    const uint32_t next_bits = has_next ? tile_bits<W, N>(predicate, next, count, spans) : 0u;
    const uint32_t next_count = __reduce_add_sync(0xffffffffu, static_cast<uint32_t>(__popc(next_bits)));
    if (lane == 0) warp_counts[p ^ 1][warp] = next_count;
    __syncthreads();
    if (warp == 0) {
      if (has_next) publish(next, p ^ 1);
      if (lane == 0) tickets[p ^ 1] = has_next ? static_cast<int>(atomicAdd(ticket_counter, 1u)) : tiles;
      uint32_t before = 0;
      if (tile > 0) {
        before = look_back(status, tile, epoch);
        if (lane == 0) publish_status(status, tile, kPrefix | stamp | (before + tile_counts[p]));
      }
      if (lane < kWarps) warp_counts[p][lane] += before;
      if (lane == 0 && tile == tiles - 1) *total = before + tile_counts[p];
    }
    __syncthreads();
    const uint32_t selected = __reduce_add_sync(0xffffffffu, static_cast<uint32_t>(__popc(bits)));
    if (selected != 0)
      write_span_ids<W>(bits, static_cast<uint32_t>((static_cast<uint64_t>(tile) * kWarps + warp) * kSpan), selected,
                        staged[warp], out + warp_counts[p][warp]);
    if (!has_next) break;
    tile = next;
    next = tickets[p ^ 1];
    bits = next_bits;
    p ^= 1;
  }
  finish();
}

template <int W, int N>
void launch_select(const FastPredicate& p, uint64_t count, uint64_t spans, int tiles,
                   DeviceContext::ScanStatus status, uint32_t* out, uint32_t* total, DeviceContext& context) {
  // Every block resident (a block waits only on tiles that running blocks hold).
  const unsigned blocks = grid_for(static_cast<std::size_t>(tiles), context,
                                   resident_blocks_per_sm<select_spans_kernel<W, N>, kThreads>());
  select_spans_kernel<W, N><<<blocks, kThreads, 0, context.stream()>>>(
      plain_terms<N>(p), count, spans, tiles, status.words, status.counters, status.epoch, out, total);
  GPUSQL_CHECK_LAUNCH();
}

template <int W>
void launch_select_width(const FastPredicate& p, uint64_t count, uint64_t spans, int tiles,
                         DeviceContext::ScanStatus status, uint32_t* out, uint32_t* total, DeviceContext& context) {
  if (p.count <= 1) return launch_select<W, 1>(p, count, spans, tiles, status, out, total, context);
  if (p.count <= 2) return launch_select<W, 2>(p, count, spans, tiles, status, out, total, context);
  if (p.count <= 4) return launch_select<W, 4>(p, count, spans, tiles, status, out, total, context);
  return launch_select<W, 8>(p, count, spans, tiles, status, out, total, context);
}

std::size_t one_pass_filter(const FastPredicate& p, int width, std::size_t count, uint32_t* d_out,
                            DeviceContext& context) {
  const uint64_t spans = (count + kSpan - 1) / kSpan;
  const int tiles = static_cast<int>((spans + kWarps - 1) / kWarps);
  // The count goes straight to pinned host memory when there is some: no
  // memset before the kernel and no copy after it, only the synchronize.
  const DeviceContext::ScanStatus status = context.scan_status(static_cast<std::size_t>(tiles));
  uint32_t* mapped = static_cast<uint32_t*>(context.mapped_result(sizeof(uint32_t)));
  DeviceBuffer fallback(context, mapped ? 0 : sizeof(uint32_t));
  uint32_t* total = mapped ? mapped : fallback.as<uint32_t>();
  switch (width) {
    case 1: launch_select_width<1>(p, count, spans, tiles, status, d_out, total, context); break;
    case 4: launch_select_width<4>(p, count, spans, tiles, status, d_out, total, context); break;
    default: launch_select_width<8>(p, count, spans, tiles, status, d_out, total, context); break;
  }
  uint32_t selected = 0;
  if (mapped) {
    context.synchronize();
    selected = *static_cast<volatile uint32_t*>(mapped);
  } else {
    context.copy_to_host(&selected, total, sizeof selected);
  }
  return selected;
}

// GPUSQL_FILTER_KERNEL=bitmask: the three launches instead of the one pass
// (read at each call, so a benchmark can compare both in one process).
bool three_launches_requested() {
  const char* kernel = std::getenv("GPUSQL_FILTER_KERNEL");
  return kernel && std::strcmp(kernel, "bitmask") == 0;
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
  if (!three_launches_requested()) return one_pass_filter(p, width, count, d_out, context);
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
