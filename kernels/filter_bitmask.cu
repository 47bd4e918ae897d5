// The bitmask filter: WHERE over plain columns of one storage width. Each
// warp takes a span of 1024 positions, reads every term's column there as
// 16-byte vectors (lane l holds V = 16/W consecutive values per step, a
// warp's step covers 32*V positions, so each load instruction reads 512
// contiguous bytes) and evaluates the clauses on bitmasks: 32 bits a lane.
//
// One pass (kernels/one_pass_select.cuh): a block's 8 spans are a tile;
// the tile's count is published at once and its offset found by decoupled
// look-back while the block already evaluates its next tile, so the
// look-back rarely waits; the ids are written from the bits still in
// registers. It runs at the speed of a pass that only writes the bits (ncu,
// 1 GiB REAL column, 1 %: 371 us against 377); bench/RESULTS.md has the
// three-launch form it replaced and cub::DeviceSelect's times.

#include "kernels/filter_bitmask.hpp"
#include "kernels/launch.hpp"
#include "kernels/one_pass_select.cuh"
#include "kernels/vector_predicate.cuh"

namespace gpusql::kernels {
namespace {

// Resident blocks asked of ptxas for the select kernel: left to itself it
// gave the 4-byte kernels 48 registers and spilled; at 4 blocks (64
// registers) they fit. The 8-byte ones hold 16 vectors per term in flight
// and need more.
template <int W>
constexpr int kFlagBlocksPerSm = W == 8 ? 2 : 4;

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

}  // namespace

bool bitmask_filter_applies(const FastPredicate& p, const uint32_t* d_selection) {
  static_assert(kMaxTerms <= 8, "select_width() covers every term count");
  return !d_selection && vector_width(merge_intervals(p)) != 0;
}

std::size_t bitmask_filter(const FastPredicate& predicate, std::size_t count, uint32_t* d_out,
                           DeviceContext& context) {
  if (count == 0) return 0;
  const FastPredicate p = merge_intervals(predicate);
  const int width = vector_width(p);
  return one_pass_filter(p, width, count, d_out, context);
}

}  // namespace gpusql::kernels
