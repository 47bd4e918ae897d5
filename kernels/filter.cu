#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>

#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "kernels/fast_predicate.cuh"
#include "kernels/filter.hpp"
#include "kernels/filter_bitmask.hpp"
#include "kernels/launch.hpp"

namespace gpusql::kernels {
namespace {

constexpr int kWarpThreads = 32;
constexpr int kFilterThreads = 256;
constexpr int kFilterItems = 16;
constexpr int kFilterTile = kFilterThreads * kFilterItems;

using TileState = cub::ScanTileState<uint32_t>;
// The look-back polls at once and then every 128 ns. CUB's default first
// sleeps 450 ns before each tile's look-back when the grid has 500 blocks or
// more, to spare L2 in grids of one block per tile; here only the resident
// blocks look back, and a tile's predecessor was taken just before it.
using LookBackDelay = cub::detail::fixed_delay_constructor_t<128, 0>;
using TilePrefix = cub::TilePrefixCallbackOp<uint32_t, ::cuda::std::plus<uint32_t>, TileState, LookBackDelay>;

// Tile statuses to "not yet", and the tile counter to 0.
__global__ void init_tiles_kernel(TileState tile_state, int tiles, unsigned int* tile_counter) {
  tile_state.InitializeStatus(tiles);
  if (blockIdx.x == 0 && threadIdx.x == 0) *tile_counter = 0;
}

// Tiles of BLOCK_THREADS * ITEMS positions. Item k of thread t is position
// tile + k*BLOCK_THREADS + t (striped: loads coalesce), so in position order
// the items go k, then warp, then lane. A warp ballot per k gives each
// (k, warp) group's selected lanes; a scan over the groups' counts in that
// order gives every selected row its place within the tile, and the tile's
// place comes from decoupled look-back over the tiles before it
// (cub::TilePrefixCallbackOp). Output is thus in ascending position order in
// one pass, and each warp writes a contiguous run per k.
//
// Blocks stay resident and take tiles from an atomic counter, so tiles are
// processed in ticket order and every tile a block waits for belongs to a
// block that is already running or that will reach it after tiles of its
// own that come earlier. A block holds the ticket of its next tile while it
// works on the current one (and asks for the one after), so the fast path
// can prefetch the next tile's columns into L2 and the atomic's latency is
// hidden.
template <int BLOCK_THREADS, int ITEMS>
__global__ void __launch_bounds__(BLOCK_THREADS)
    ordered_filter_kernel(FastPredicate fast, const uint32_t* __restrict__ selection, uint64_t count, int tiles,
                          TileState tile_state, unsigned int* __restrict__ tile_counter, uint32_t* __restrict__ out,
                          uint32_t* __restrict__ total) {
  constexpr int WARPS = BLOCK_THREADS / kWarpThreads;
  constexpr int GROUPS = ITEMS * WARPS;
  constexpr int GROUPS_PER_LANE = (GROUPS + kWarpThreads - 1) / kWarpThreads;
  static_assert(ITEMS <= kWarpThreads, "lane k holds group k's count");
  static_assert(GROUPS_PER_LANE * kWarpThreads == GROUPS, "the groups fill warp 0's lanes evenly");
  __shared__ typename TilePrefix::TempStorage prefix_storage;
  __shared__ uint32_t group_offset[GROUPS];
  __shared__ int shared_tickets[2];
  __shared__ uint32_t tile_offset;

  const int lane = threadIdx.x % kWarpThreads, warp = threadIdx.x / kWarpThreads;
  constexpr uint64_t TILE = static_cast<uint64_t>(BLOCK_THREADS) * ITEMS;
  if (threadIdx.x == 0) {
    shared_tickets[0] = static_cast<int>(atomicAdd(tile_counter, 1u));
    shared_tickets[1] = static_cast<int>(atomicAdd(tile_counter, 1u));
  }
  __syncthreads();
  int tile = shared_tickets[0], next = shared_tickets[1];
  while (tile < tiles) {
    int ticket = 0;
    if (threadIdx.x == 0) ticket = static_cast<int>(atomicAdd(tile_counter, 1u));
    if (next < tiles)
      prefetch_predicate_l2(fast, selection, next * TILE, count < (next + 1) * TILE ? count : (next + 1) * TILE);
    const uint64_t base = static_cast<uint64_t>(tile) * TILE;

    const uint32_t flags = fast_predicate_flags<BLOCK_THREADS, ITEMS>(fast, selection, base, count);

    // Each (k, warp) group's count, at index k*WARPS + warp.
    uint32_t group_count = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      uint32_t ballot = __ballot_sync(0xffffffffu, (flags >> k) & 1u);
      if (lane == k) group_count = __popc(ballot);
    }
    if (lane < ITEMS) group_offset[lane * WARPS + warp] = group_count;
    __syncthreads();

    if (warp == 0) {
      // Lane l scans groups l*GROUPS_PER_LANE ...; the lanes' sums by shuffles.
      uint32_t local[GROUPS_PER_LANE];
      uint32_t sum = 0;
#pragma unroll
      for (int g = 0; g < GROUPS_PER_LANE; ++g) {
        local[g] = sum;
        sum += group_offset[lane * GROUPS_PER_LANE + g];
      }
      uint32_t inclusive = sum;
#pragma unroll
      for (int offset = 1; offset < kWarpThreads; offset *= 2) {
        uint32_t other = __shfl_up_sync(0xffffffffu, inclusive, offset);
        if (lane >= offset) inclusive += other;
      }
      const uint32_t exclusive = inclusive - sum;
      const uint32_t tile_total = __shfl_sync(0xffffffffu, inclusive, kWarpThreads - 1);
#pragma unroll
      for (int g = 0; g < GROUPS_PER_LANE; ++g) group_offset[lane * GROUPS_PER_LANE + g] = exclusive + local[g];

      uint32_t before;
      if (tile == 0) {
        before = 0;
        if (lane == 0) tile_state.SetInclusive(0, tile_total);
      } else {
        TilePrefix prefix(tile_state, prefix_storage, ::cuda::std::plus<uint32_t>(), tile);
        before = prefix(tile_total);
      }
      if (lane == 0) {
        tile_offset = before;
        if (tile == tiles - 1) *total = before + tile_total;
      }
    }
    __syncthreads();

    const uint32_t tile_base = tile_offset;
    const uint32_t lanes_below = (1u << lane) - 1u;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const bool selected = (flags >> k) & 1u;
      uint32_t ballot = __ballot_sync(0xffffffffu, selected);
      if (selected) {
        uint64_t position = base + static_cast<uint64_t>(k) * BLOCK_THREADS + threadIdx.x;
        uint32_t id = selection ? selection[position] : static_cast<uint32_t>(position);
        out[tile_base + group_offset[k * WARPS + warp] + __popc(ballot & lanes_below)] = id;
      }
    }
    if (threadIdx.x == 0) shared_tickets[0] = ticket;
    __syncthreads();  // group_offset, tile_offset and shared_tickets are reused
    tile = next;
    next = shared_tickets[0];
  }
}

// Resident blocks for `kernel`: its occupancy on every multiprocessor, no
// more than there are tiles.
unsigned resident_blocks(int tiles, const DeviceContext& context) {
  return grid_for(static_cast<std::size_t>(tiles), context,
                  resident_blocks_per_sm<ordered_filter_kernel<kFilterThreads, kFilterItems>, kFilterThreads>());
}

// The interpreter's verdict on each id (positions, or the selection
// vector's entries), one byte each: a grid-stride loop at full occupancy,
// every item independent of the others (no tile waits on another), for
// cub::DeviceSelect::Flagged to compact.
__global__ void __launch_bounds__(kFilterThreads)
    predicate_flags_kernel(const ExprProgram* __restrict__ program, const ColumnSet* __restrict__ columns,
                           const uint32_t* __restrict__ selection, uint64_t count, uint8_t* __restrict__ flags,
                           uint32_t* __restrict__ error_word) {
  uint32_t error = 0;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    const int64_t row = selection ? selection[i] : static_cast<int64_t>(i);
    flags[i] = evaluate_predicate(*program, *columns, row, error) ? 1 : 0;
  }
  if (error) atomicOr(error_word, error);
}

// One comparison on its column's raw storage (Bits: the unsigned integer of
// the storage's width), the select_op of cub::DeviceSelect::FlaggedIf with the
// column as the flags. One instantiation per width; the column's type is a
// uniform branch per item.
template <class Bits>
struct TermOnStorage {
  FastTerm term;
  __device__ __forceinline__ bool operator()(Bits bits) const {
    if constexpr (sizeof(Bits) == 1) {
      return term_holds(term, bits);
    } else if constexpr (sizeof(Bits) == 4) {
      switch (term.type) {
        case Type::Real: return term_holds(term, __uint_as_float(bits));
        case Type::Varchar: return term_holds(term, bits);
        default: return term_holds(term, static_cast<int32_t>(bits));  // Integer, Date
      }
    } else {
      if (term.type == Type::Double) return term_holds(term, __longlong_as_double(static_cast<long long>(bits)));
      return term_holds(term, static_cast<int64_t>(bits));  // BigInt, Decimal
    }
  }
};

// Whether cub::DeviceSelect::FlaggedIf can run `p` over the positions
// 0..count-1: one comparison on a column read at the position, without NULLs.
bool one_plain_term(const FastPredicate& p, const uint32_t* selection) {
  if (selection || p.count != 1) return false;
  const FastTerm& t = p.terms[0];
  return !t.never && !t.rows && !t.validity;
}

// Whether some clause of `p` has only terms compared with a NULL constant
// (x = NULL, x IN (NULL)): then no row is selected.
bool selects_nothing(const FastPredicate& p) {
  bool all_never = true;
  for (int i = 0; i < p.count; ++i) {
    all_never &= p.terms[i].never;
    if (p.terms[i].or_next) continue;
    if (all_never) return true;
    all_never = true;
  }
  return false;
}

// Runs a cub::DeviceSelect call, `select(d_temp, temp_bytes, d_count)`,
// twice (size, then run) with CUB's temporary storage and the selected count
// in one pool buffer; returns the count (synchronizes).
template <class Select>
std::size_t run_select(Select select, DeviceContext& context) {
  std::size_t temp_bytes = 0;
  GPUSQL_CUDA_TRY(select(nullptr, temp_bytes, nullptr));
  const std::size_t count_at = (temp_bytes + 15) / 16 * 16;
  DeviceBuffer scratch(context, count_at + sizeof(uint32_t));
  uint32_t* d_count = reinterpret_cast<uint32_t*>(static_cast<char*>(scratch.data()) + count_at);
  GPUSQL_CUDA_TRY(select(scratch.data(), temp_bytes, d_count));
  return read_value(d_count, context);
}

// The positions whose value satisfies `t`, by cub::DeviceSelect::FlaggedIf
// (positions as the input, the column as the flags): CUB's tuned blocked
// loads, block scan and decoupled look-back, one tile per block.
template <class Bits>
std::size_t select_by_term(const FastTerm& t, std::size_t count, uint32_t* d_out, DeviceContext& context) {
  const Bits* column = static_cast<const Bits*>(t.data);
  const TermOnStorage<Bits> holds{t};
  return run_select(
      [&](void* d_temp, std::size_t& temp_bytes, uint32_t* d_count) {
        return cub::DeviceSelect::FlaggedIf(d_temp, temp_bytes, thrust::counting_iterator<uint32_t>(0), column, d_out,
                                            d_count, static_cast<int64_t>(count), holds, context.stream());
      },
      context);
}

// A FastTerm decoded on the host for TermsHold: the storage width and how to
// read the raw bits, so that the device code has no switch on the type.
struct UnrolledTerm {
  const void* data = nullptr;
  const uint32_t* validity = nullptr;  // null: no NULLs
  const uint32_t* rows = nullptr;      // null: the id is the row
  // A term comparing two columns: the other column, compared with in place
  // of `value` (the same storage; never floating).
  const void* other = nullptr;
  const uint32_t* other_validity = nullptr;
  const uint32_t* other_rows = nullptr;
  union {
    int64_t i;
    double d;
  } value{0};
  uint32_t width = 0;      // bytes of storage: 1, 4 or 8; 0: no column read, the term is `fixed`
  uint8_t outcomes = 0;    // as FastTerm
  bool fixed = false;      // the term's value when width is 0 (never: false; padding: true)
  bool is_float = false;   // REAL or DOUBLE: compared as DOUBLE, else as BIGINT
  bool is_real = false;    // the 4 bytes are a float
  bool sign32 = false;     // the 4 bytes are a signed int32 (INTEGER, DATE)
  bool ends_clause = true; // the last term of its clause (no or_next, or the last term)
};

UnrolledTerm unrolled_term(const FastTerm& t, bool last) {
  UnrolledTerm u;
  u.ends_clause = !t.or_next || last;
  if (t.never) return u;  // width 0, fixed false: x = NULL holds for no row
  u.data = t.data;
  u.validity = t.validity;
  u.rows = t.rows;
  u.other = t.other;
  u.other_validity = t.other_validity;
  u.other_rows = t.other_rows;
  u.value.i = t.value.i;
  u.width = static_cast<uint32_t>(storage_bytes(t.type));
  u.outcomes = t.outcomes;
  u.is_float = is_double_type(t.type);
  u.is_real = t.type == Type::Real;
  u.sign32 = t.type == Type::Integer || t.type == Type::Date;
  return u;
}

// The `width` bytes (8, 4, 1, or 0: none) at `address`, zero-extended to 64
// bits, by predicated ld.global.nc with no branch, so CUB's unrolled loop
// over a thread's items stays one basic block and the scheduler can issue
// every item's loads before the first comparison. Not volatile: the loads
// move freely. One 64-bit register pair per term and item.
__device__ __forceinline__ uint64_t load_bits(const void* address, uint32_t width) {
  uint64_t v;
  asm("{\n\t.reg .pred p8, p4, p1;\n\t.reg .b32 lo, hi;\n\t"
      "setp.eq.u32 p8, %2, 8;\n\tsetp.eq.u32 p4, %2, 4;\n\tsetp.eq.u32 p1, %2, 1;\n\t"
      "mov.b32 lo, 0;\n\tmov.b32 hi, 0;\n\t"
      "@p8 ld.global.nc.v2.u32 {lo, hi}, [%1];\n\t"
      "@p4 ld.global.nc.u32 lo, [%1];\n\t"
      "@p1 ld.global.nc.u8 lo, [%1];\n\t"
      "mov.b64 %0, {lo, hi};\n\t}"
      : "=l"(v)
      : "l"(address), "r"(width));
  return v;
}
// `*address` when `on`, else `v` (a predicated ld.global.nc.u32).
__device__ __forceinline__ uint32_t load_u32_if(bool on, const void* address, uint32_t v) {
  asm("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %2, 0;\n\t@q ld.global.nc.u32 %0, [%1];\n\t}"
      : "+r"(v)
      : "l"(address), "r"(static_cast<uint32_t>(on)));
  return v;
}

// The select_op of cub::DeviceSelect::If for predicates of at most N terms
// (padded with terms that hold): the terms by value, indexed at compile time
// once unrolled, so they stay in registers or the parameter bank (no local
// memory). For one id it first issues every term's loads -- row id, value,
// validity word -- whatever the other terms' outcomes, then evaluates the
// clauses with selects. Same rows as fast_predicate_holds(): a term holds when
// its value is not NULL and satisfies the comparison; a clause (a run of
// or_next terms) when one of its terms holds; the predicate when every clause
// does. No branch per item: CUB's agent keeps all of a thread's items' loads
// in flight at once. PAIRS: a term may compare two columns (pair_holds_at()):
// the other column's row, value and validity are loaded the same way.
template <int N, bool INDIRECT, bool PAIRS = false>
struct TermsHold {
  UnrolledTerm terms[N];

  __device__ __forceinline__ bool operator()(uint32_t id) const {
    uint32_t row[N], word[N], other_row[N], other_word[N];
    uint64_t bits[N], other_bits[N];
#pragma unroll
    for (int t = 0; t < N; ++t) row[t] = INDIRECT ? load_u32_if(terms[t].rows != nullptr, terms[t].rows + id, id) : id;
#pragma unroll
    for (int t = 0; t < N; ++t) {
      const UnrolledTerm& x = terms[t];
      bits[t] = load_bits(static_cast<const char*>(x.data) + static_cast<uint64_t>(row[t]) * x.width, x.width);
      word[t] = INDIRECT ? load_u32_if(x.validity != nullptr, x.validity + (row[t] >> 5), ~0u) : ~0u;
    }
    if constexpr (PAIRS) {
#pragma unroll
      for (int t = 0; t < N; ++t) {
        const UnrolledTerm& x = terms[t];
        other_row[t] = INDIRECT ? load_u32_if(x.other_rows != nullptr, x.other_rows + id, id) : id;
        other_bits[t] = load_bits(static_cast<const char*>(x.other) + static_cast<uint64_t>(other_row[t]) * x.width,
                                  x.other ? x.width : 0);
        other_word[t] =
            INDIRECT ? load_u32_if(x.other_validity != nullptr, x.other_validity + (other_row[t] >> 5), ~0u) : ~0u;
      }
    }
    bool result = true, clause = false;
#pragma unroll
    for (int t = 0; t < N; ++t) {
      const UnrolledTerm& x = terms[t];
      const uint32_t low = static_cast<uint32_t>(bits[t]);
      const int64_t iv = x.sign32 ? static_cast<int64_t>(static_cast<int32_t>(low)) : static_cast<int64_t>(bits[t]);
      const double dv = x.is_real ? static_cast<double>(__uint_as_float(low))
                                  : __longlong_as_double(static_cast<long long>(bits[t]));
      const double c = x.value.d;
      int64_t against = x.value.i;
      bool other_valid = true;
      if constexpr (PAIRS) {
        const uint32_t other_low = static_cast<uint32_t>(other_bits[t]);
        const int64_t ov = x.sign32 ? static_cast<int64_t>(static_cast<int32_t>(other_low))
                                    : static_cast<int64_t>(other_bits[t]);
        against = x.other ? ov : against;
        other_valid = (other_word[t] >> (other_row[t] & 31)) & 1u;
      }
      const int float_outcome = (dv != dv || c != c) ? 3 : dv < c ? 0 : dv == c ? 1 : 2;
      const int int_outcome = iv < against ? 0 : iv == against ? 1 : 2;
      const int outcome = x.is_float ? float_outcome : int_outcome;
      bool holds = ((x.outcomes >> outcome) & 1u) && ((word[t] >> (row[t] & 31)) & 1u) && other_valid;
      holds = x.width == 0 ? x.fixed : holds;
      clause = clause || holds;
      result = x.ends_clause ? result && clause : result;
      clause = x.ends_clause ? false : clause;
    }
    return result;
  }
};

// The ids that `p` (at most N terms) selects, by cub::DeviceSelect::If with
// TermsHold<N>.
template <int N, bool INDIRECT, class Ids, bool PAIRS = false>
std::size_t select_by_terms(const FastPredicate& p, Ids ids, std::size_t count, uint32_t* d_out,
                            DeviceContext& context) {
  TermsHold<N, INDIRECT, PAIRS> holds;
  for (int t = 0; t < N; ++t) {
    if (t < p.count) {
      holds.terms[t] = unrolled_term(p.terms[t], t + 1 == p.count);
    } else {
      holds.terms[t] = UnrolledTerm{};
      holds.terms[t].fixed = true;  // padding: holds, a clause of its own
    }
  }
  return run_select(
      [&](void* d_temp, std::size_t& temp_bytes, uint32_t* d_count) {
        return cub::DeviceSelect::If(d_temp, temp_bytes, ids, d_out, d_count, static_cast<int64_t>(count), holds,
                                     context.stream());
      },
      context);
}

// The largest predicate select_by_terms() takes; larger ones (none while
// kMaxTerms is 8) go to the ordered kernel.
constexpr int kMaxUnrolledTerms = 8;
static_assert(kMaxTerms <= kMaxUnrolledTerms, "every fast predicate has an unrolled path");

// Whether a term of `p` has NULLs or a row-id vector.
bool any_indirect(const FastPredicate& p) {
  for (int t = 0; t < p.count; ++t)
    if (!p.terms[t].never && (p.terms[t].validity || p.terms[t].rows)) return true;
  return false;
}

// TermsHold<2, 4 or 8 terms, INDIRECT>. Plain columns at positions (the
// common case) get their own instantiations of 2 and 4 terms: without the
// row-id and validity registers every item's loads fit in flight at once.
template <class Ids>
std::size_t select_unrolled(const FastPredicate& p, Ids ids, std::size_t count, uint32_t* d_out,
                            DeviceContext& context) {
  constexpr bool positions = !std::is_pointer_v<Ids>;
  if constexpr (positions) {
    if (!any_indirect(p)) {
      if (p.count <= 2) return select_by_terms<2, false>(p, ids, count, d_out, context);
      if (p.count <= 4) return select_by_terms<4, false>(p, ids, count, d_out, context);
    }
  }
  if (p.count <= 2) return select_by_terms<2, true>(p, ids, count, d_out, context);
  if (p.count <= 4) return select_by_terms<4, true>(p, ids, count, d_out, context);
  return select_by_terms<8, true>(p, ids, count, d_out, context);
}


// The clauses of `fast` that compare two columns (`pairs`) and the others
// (`plain`), each an AND of its clauses as in `fast`.
void split_pair_clauses(const FastPredicate& fast, FastPredicate& plain, FastPredicate& pairs) {
  for (int start = 0; start < fast.count;) {
    int end = start;
    bool pair = false;
    do pair |= fast.terms[end].other != nullptr;
    while (fast.terms[end++].or_next && end < fast.count);
    FastPredicate& to = pair ? pairs : plain;
    for (int t = start; t < end; ++t) to.terms[to.count++] = fast.terms[t];
    to.has_pairs |= pair;
    start = end;
  }
}

// Whether a term of `p` reads either of its columns through NULLs or a
// row-id vector.
bool any_indirect_pair(const FastPredicate& p) {
  for (int t = 0; t < p.count; ++t) {
    const FastTerm& x = p.terms[t];
    if (!x.never && (x.validity || x.rows || x.other_validity || x.other_rows)) return true;
  }
  return false;
}

// A predicate with terms comparing two columns (TPC-H Q21's l_receiptdate >
// l_commitdate, Q12's after its one-column clauses) by cub::DeviceSelect::If
// with TermsHold<N, INDIRECT, PAIRS>: up to 2 terms of plain columns (no
// NULLs, no row ids) without the indirect loads' instructions, up to 4
// with them; more by the ordered kernel. Forward declared: ordered_filter()
// is below.
std::size_t ordered_filter(const FastPredicate& fast, const uint32_t* d_selection, std::size_t count, uint32_t* d_out,
                           DeviceContext& context);
constexpr int kMaxPairTerms = 4, kMaxPlainPairTerms = 2;
template <class Ids>
std::size_t select_pair_terms(const FastPredicate& p, Ids ids, std::size_t count, uint32_t* d_out,
                              DeviceContext& context) {
  if (p.count <= kMaxPlainPairTerms && !any_indirect_pair(p))
    return select_by_terms<kMaxPlainPairTerms, false, Ids, true>(p, ids, count, d_out, context);
  return select_by_terms<kMaxPairTerms, true, Ids, true>(p, ids, count, d_out, context);
}
std::size_t select_pairs(const FastPredicate& p, const uint32_t* d_selection, std::size_t count, uint32_t* d_out,
                         DeviceContext& context) {
  if (p.count > kMaxPairTerms) return ordered_filter(p, d_selection, count, d_out, context);
  if (d_selection) return select_pair_terms(p, d_selection, count, d_out, context);
  return select_pair_terms(p, thrust::counting_iterator<uint32_t>(0), count, d_out, context);
}

// The ordered kernel over `fast`.
std::size_t ordered_filter(const FastPredicate& fast, const uint32_t* d_selection, std::size_t count, uint32_t* d_out,
                           DeviceContext& context) {
  const int tiles = static_cast<int>((count + kFilterTile - 1) / kFilterTile);
  std::size_t state_bytes = 0;
  GPUSQL_CUDA_TRY(TileState::AllocationSize(tiles, state_bytes));
  const std::size_t words_at = (state_bytes + 15) / 16 * 16;
  // Tile statuses, then the tile counter and the selected total.
  DeviceBuffer scratch(context, words_at + 2 * sizeof(uint32_t));
  unsigned int* tile_counter = reinterpret_cast<unsigned int*>(static_cast<char*>(scratch.data()) + words_at);
  uint32_t* total = tile_counter + 1;
  TileState tile_state;
  GPUSQL_CUDA_TRY(tile_state.Init(tiles, scratch.data(), state_bytes));
  init_tiles_kernel<<<(tiles + kWarpThreads * 8 - 1) / (kWarpThreads * 8), kWarpThreads * 8, 0, context.stream()>>>(
      tile_state, tiles, tile_counter);
  GPUSQL_CHECK_LAUNCH();

  auto kernel = ordered_filter_kernel<kFilterThreads, kFilterItems>;
  kernel<<<resident_blocks(tiles, context), kFilterThreads, 0, context.stream()>>>(fast, d_selection, count, tiles,
                                                                                   tile_state, tile_counter, d_out,
                                                                                   total);
  GPUSQL_CHECK_LAUNCH();
  return read_value(total, context);
}

// `predicate` through the interpreter: a byte per id, then
// cub::DeviceSelect::Flagged keeps the ids in order.
std::size_t interpreted_filter(const ExprProgram& predicate, const ColumnSet& columns, const uint32_t* d_selection,
                               std::size_t count, uint32_t* d_out, uint32_t* d_error, DeviceContext& context) {
  DeviceObjects objects;
  const std::size_t p = objects.add(predicate), c = objects.add(columns);
  objects.upload(context);
  DeviceBuffer flags(context, count);
  predicate_flags_kernel<<<grid_for((count + kFilterThreads - 1) / kFilterThreads, context, 8), kFilterThreads, 0,
                           context.stream()>>>(objects.at<ExprProgram>(p), objects.at<ColumnSet>(c), d_selection,
                                               count, flags.as<uint8_t>(), d_error);
  GPUSQL_CHECK_LAUNCH();
  return run_select(
      [&](void* d_temp, std::size_t& temp_bytes, uint32_t* d_count) {
        if (d_selection)
          return cub::DeviceSelect::Flagged(d_temp, temp_bytes, d_selection, flags.as<uint8_t>(), d_out, d_count,
                                            static_cast<int64_t>(count), context.stream());
        return cub::DeviceSelect::Flagged(d_temp, temp_bytes, thrust::counting_iterator<uint32_t>(0),
                                          flags.as<uint8_t>(), d_out, d_count, static_cast<int64_t>(count),
                                          context.stream());
      },
      context);
}

// A fast predicate without pair terms by the paths filter_rows() names.
std::size_t filter_fast(const FastPredicate& fast, const uint32_t* d_selection, std::size_t count, uint32_t* d_out,
                        FilterKernel kernel, DeviceContext& context) {
  if (selects_nothing(fast)) return 0;
  if (kernel == FilterKernel::Auto && bitmask_filter_applies(fast, d_selection))
    return bitmask_filter(fast, count, d_out, context);
  if (one_plain_term(fast, d_selection)) {
    const FastTerm& t = fast.terms[0];
    switch (storage_bytes(t.type)) {
      case 1: return select_by_term<uint8_t>(t, count, d_out, context);
      case 4: return select_by_term<uint32_t>(t, count, d_out, context);
      default: return select_by_term<uint64_t>(t, count, d_out, context);
    }
  }
  if (d_selection) return select_unrolled(fast, d_selection, count, d_out, context);
  return select_unrolled(fast, thrust::counting_iterator<uint32_t>(0), count, d_out, context);
}

}  // namespace

std::size_t filter_rows(const ExprProgram& predicate, const ColumnSet& columns, const uint32_t* d_selection,
                        std::size_t count, uint32_t* d_out, uint32_t* d_error, DeviceContext& context) {
  if (count == 0) return 0;
  // Fast predicates, by default: the bitmask filter when positions are rows
  // and the columns have no NULLs and one width; else
  // cub::DeviceSelect::FlaggedIf for one comparison on a column without
  // NULLs, cub::DeviceSelect::If with TermsHold<2, 4 or 8> (every term's
  // loads issued at once, clauses evaluated without branches) for the rest.
  // SET filter_kernel = 'cub': no bitmask filter; 'ordered': the ordered
  // kernel. The interpreter: a byte per id, compacted by cub::DeviceSelect.
  // A predicate comparing two columns (l_commitdate < l_receiptdate) takes
  // select_pairs() (cub::DeviceSelect::If, the other column loaded beside
  // the first; the ordered kernel past 4 terms); when it also has clauses
  // of one column each (TPC-H Q12's shipping modes and dates), those select
  // first by the paths above and the pair clauses then read only their ids.
  FastPredicate fast;
  const bool is_fast = make_fast_predicate(predicate, columns, fast, /*pairs=*/true);
  // The setting filter_kernel: a benchmark or a test compares the paths in one process.
  const FilterKernel kernel = is_fast ? context.settings().filter_kernel : FilterKernel::Ordered;
  if (is_fast && fast.has_pairs && kernel == FilterKernel::Auto) {
    FastPredicate plain, pairs;
    split_pair_clauses(fast, plain, pairs);
    if (plain.count > 0 && plain.count <= kMaxUnrolledTerms) {
      DeviceBuffer first(context, count * sizeof(uint32_t));
      const std::size_t kept = filter_fast(plain, d_selection, count, first.as<uint32_t>(), kernel, context);
      if (kept == 0) return 0;
      return select_pairs(pairs, first.as<uint32_t>(), kept, d_out, context);
    }
    return select_pairs(fast, d_selection, count, d_out, context);
  }
  if (is_fast && !fast.has_pairs && kernel != FilterKernel::Ordered && fast.count <= kMaxUnrolledTerms)
    return filter_fast(fast, d_selection, count, d_out, kernel, context);
  if (is_fast) return ordered_filter(fast, d_selection, count, d_out, context);
  return interpreted_filter(predicate, columns, d_selection, count, d_out, d_error, context);
}


}  // namespace gpusql::kernels
