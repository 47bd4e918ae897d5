// The one-pass select: positions whose flag bit is set, written in
// ascending order, in one launch with the offsets found by decoupled
// look-back. Serves the bitmask filter (kernels/filter_bitmask.cu: flags
// from the WHERE) and GROUP BY's run numbering (kernels/group_by.cu: flags
// where a sorted key differs from the one before it).
//
// Each warp takes a span of 1024 positions, as vector_predicate.cuh lays
// them out: lane l's bit s*V + j is position span + s*32*V + V*l + j, for
// V = 16/W values of W bytes a 16-byte vector. A block's 8 spans are a
// tile, taken from a ticket counter. The block publishes the tile's count at
// once (flag kAggregate), then evaluates its next tile before it looks back
// for the first one's offset: by then the tiles before it have published
// theirs, so the look-back finds them instead of waiting, and the next
// tile's loads were in flight meanwhile. With the offset (flag kPrefix
// published for the tiles after it), each warp emits its span's positions
// from the bits still in registers. The input is read once; the bits never
// leave the block.
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
// running, and every block of the grid is resident (one wave).
//
// A Source supplies the flags and takes the output:
//   static constexpr int kWidth;        // W: the bits' layout, as above
//   static constexpr int kBlocksPerSm;  // asked of ptxas (__launch_bounds__)
//   template <bool FULL> __device__ uint32_t bits(uint64_t first, uint64_t count) const;
//       // the lane's 32 bits, `first` = span + V*lane; FULL: the whole span
//       // is below `count`, otherwise bits at or past it are 0
//   __device__ void emit(uint32_t index, uint32_t position) const;  // the index-th selected
//   __device__ void finish(uint32_t selected) const;                 // once, with the total
// The kernel writes the total to result[0], and 1 to result[1] when some
// span selected nothing (GROUP BY: no run is as long as two spans
// otherwise).
#pragma once

#include <cstdint>

#include <cuda/atomic>

#include "kernels/launch.hpp"
#include "kernels/vector_predicate.cuh"

namespace gpusql::kernels::one_pass {

constexpr int kThreads = 256;
constexpr int kWarp = 32;
constexpr int kWarps = kThreads / kWarp;
constexpr int kSpan = kVectorSpan;  // positions per warp span: one 32-bit flag word per lane

constexpr uint64_t kAggregate = 1ull << 62;  // status word: flag (2 bits) | epoch (30) | value (32, a count)
constexpr uint64_t kPrefix = 2ull << 62;     //   kPrefix: the count of this tile and all before it
static_assert(DeviceContext::kScanEpochs == 1u << 30, "the epoch fills bits 32..61 of a status word");

__device__ __forceinline__ void publish_status(uint64_t* status, int tile, uint64_t word) {
  ::cuda::atomic_ref<uint64_t, ::cuda::thread_scope_device>(status[tile]).store(word, ::cuda::memory_order_relaxed);
}

__device__ __forceinline__ uint32_t status_epoch(uint64_t word) {
  return static_cast<uint32_t>(word >> 32) & (DeviceContext::kScanEpochs - 1);
}

// The positions selected in the tiles before `tile` (tile > 0), by warp 0:
// lane l reads tile window - l, windows of 32 going back until one holds a
// prefix.
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

// A span's positions, ascending, passed to emit(i, position) for i = 0 ..
// selected - 1: lane l holds the span's word l (bit b: position first + 32*l
// + b); the lanes' popcounts scanned with shuffles place each lane's
// positions in the warp's `staged` slice of shared memory (kSpan entries),
// which is then emitted coalesced. `selected`: the span's count (uniform).
template <class Emit>
__device__ __forceinline__ void emit_word_positions(uint32_t word, uint32_t first, uint32_t selected,
                                                    uint32_t* __restrict__ staged, const Emit& emit) {
  const int lane = threadIdx.x % kWarp;
  const uint32_t mine = __popc(word);
  uint32_t inclusive = mine;
#pragma unroll
  for (int offset = 1; offset < kWarp; offset *= 2) {
    const uint32_t other = __shfl_up_sync(0xffffffffu, inclusive, offset);
    if (lane >= offset) inclusive += other;
  }
  uint32_t at = inclusive - mine;
  const uint32_t position = first + static_cast<uint32_t>(lane) * 32;
  while (word) {
    staged[at++] = position + static_cast<uint32_t>(__ffs(word) - 1);
    word &= word - 1;
  }
  __syncwarp();
  for (uint32_t i = lane; i < selected; i += kWarp) emit(i, staged[i]);
  __syncwarp();  // staged is rewritten for the next span
}

// emit_word_positions() from the bits in the vector layout (bit s*V + j of
// lane l: position first + s*32*V + V*l + j), regrouped into word w in lane w.
template <int W, class Emit>
__device__ __forceinline__ void emit_span_positions(uint32_t bits, uint32_t first, uint32_t selected,
                                                    uint32_t* __restrict__ staged, const Emit& emit) {
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
  emit_word_positions(word, first, selected, staged, emit);
}

// The warp's bits of `tile` (0 past the last span).
template <class Source>
__device__ __forceinline__ uint32_t tile_bits(const Source& source, int tile, uint64_t count, uint64_t spans) {
  constexpr int V = kVectorBytes / Source::kWidth;
  const uint64_t span = static_cast<uint64_t>(tile) * kWarps + threadIdx.x / kWarp;
  if (span >= spans) return 0;
  const uint64_t first = span * kSpan + static_cast<uint64_t>(threadIdx.x % kWarp) * V;
  return span < count / kSpan ? source.template bits<true>(first, count)
                              : source.template bits<false>(first, count);
}

// status: a word per tile (none of this epoch yet); counters: the ticket
// counter and the count of blocks done (both zero); result: 2 words, the
// second zero.
template <class Source>
__global__ void __launch_bounds__(kThreads, Source::kBlocksPerSm)
    select_kernel(Source source, uint64_t count, uint64_t spans, int tiles, uint64_t* __restrict__ status,
                  uint64_t* __restrict__ counters, uint32_t epoch, uint32_t* __restrict__ result) {
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
  uint32_t bits = tile_bits(source, tile, count, spans);
  const uint32_t first_count = __reduce_add_sync(0xffffffffu, static_cast<uint32_t>(__popc(bits)));
  if (lane == 0) warp_counts[0][warp] = first_count;
  __syncthreads();
  if (warp == 0) publish(tile, 0);
  int p = 0;
  bool empty_span = false;  // a span of the warp's selected nothing
  while (true) {
    // The next tile's bits and count (its loads overlap the tiles before
    // `tile` finishing), then `tile`'s offset.
    const bool has_next = next < tiles;
    const uint32_t next_bits = has_next ? tile_bits(source, next, count, spans) : 0u;
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
      if (lane == 0 && tile == tiles - 1) {
        result[0] = before + tile_counts[p];
        source.finish(before + tile_counts[p]);
      }
    }
    __syncthreads();
    const uint32_t selected = __reduce_add_sync(0xffffffffu, static_cast<uint32_t>(__popc(bits)));
    if (selected == 0 && static_cast<uint64_t>(tile) * kWarps + warp < spans) empty_span = true;
    if (selected != 0) {
      const uint32_t base = warp_counts[p][warp];
      emit_span_positions<Source::kWidth>(bits, static_cast<uint32_t>((static_cast<uint64_t>(tile) * kWarps + warp) * kSpan),
                                          selected, staged[warp],
                                          [&](uint32_t i, uint32_t position) { source.emit(base + i, position); });
    }
    if (!has_next) break;
    tile = next;
    next = tickets[p ^ 1];
    bits = next_bits;
    p ^= 1;
  }
  if (__syncthreads_or(empty_span) && threadIdx.x == 0) result[1] = 1;  // a store a block, not a span
  finish();
}

struct Selected {
  std::size_t count;
  bool empty_span;  // some span of kSpan positions selected none
};

// Runs the select over positions 0 .. count-1 (count >= 1, below 2^32) with
// the Source make() gives. The result words are pinned host memory when
// there is some (no copy after the kernel, only the synchronize), else
// device memory copied back.
template <class Make>
Selected select(std::size_t count, DeviceContext& context, Make&& make) {
  using Source = decltype(make());
  const uint64_t spans = (count + kSpan - 1) / kSpan;
  const int tiles = static_cast<int>((spans + kWarps - 1) / kWarps);
  const DeviceContext::ScanStatus status = context.scan_status(static_cast<std::size_t>(tiles));
  uint32_t* mapped = static_cast<uint32_t*>(context.mapped_result(2 * sizeof(uint32_t)));
  DeviceBuffer fallback(context, mapped ? 0 : 2 * sizeof(uint32_t));
  uint32_t* result = mapped ? mapped : fallback.as<uint32_t>();
  if (mapped) {
    // Nothing else uses the slot now: its users synchronize before they return.
    static_cast<volatile uint32_t*>(mapped)[1] = 0;
  } else {
    GPUSQL_CUDA_TRY(cudaMemsetAsync(result, 0, 2 * sizeof(uint32_t), context.stream()));
  }
  // Every block resident (a block waits only on tiles that running blocks hold).
  const unsigned blocks = grid_for(static_cast<std::size_t>(tiles), context,
                                   resident_blocks_per_sm<select_kernel<Source>, kThreads>());
  select_kernel<Source><<<blocks, kThreads, 0, context.stream()>>>(make(), count, spans, tiles, status.words,
                                                                   status.counters, status.epoch, result);
  GPUSQL_CHECK_LAUNCH();
  uint32_t words[2];
  if (mapped) {
    context.synchronize();
    words[0] = static_cast<volatile uint32_t*>(mapped)[0];
    words[1] = static_cast<volatile uint32_t*>(mapped)[1];
  } else {
    context.copy_to_host(words, result, sizeof words);
  }
  return Selected{words[0], words[1] != 0};
}

}  // namespace gpusql::kernels::one_pass
