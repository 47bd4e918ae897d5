#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>

#include "common/trace.hpp"
#include "kernels/fast_predicate.cuh"
#include "kernels/launch.hpp"
#include "kernels/star_join.hpp"
#include "kernels/vector_predicate.cuh"

namespace gpusql::kernels {
namespace {

constexpr int kThreads = 256;
constexpr uint32_t kEmpty = 0xffffffffu;
constexpr unsigned kDuplicateKey = 1u;      // a dimension key appears twice among its selected rows
// Bounds of the direct-mapped tables and of the dense group space.
constexpr uint64_t kMaxKeyRange = uint64_t{1} << 28;
constexpr uint64_t kDenseEnough = uint64_t{1} << 22;
// Group states up to this size aggregate in shared memory first (two blocks
// of 256 threads still fit an H100 multiprocessor's 228 KB).
constexpr std::size_t kSharedStateBytes = 96 * 1024;
constexpr uint64_t kMaxGroups = uint64_t{1} << 22;
// Groups read back with the flags in the copy after the probe (40 KB for
// one aggregate): more take a second round trip.
constexpr uint64_t kReadBackGroups = 1024;
constexpr int kRangeValues = 1 + kStarMaxKeysPerDimension;

std::atomic<std::size_t> fused_runs{0};

// ---- per dimension: key and group-column ranges, then the direct map ----

// A dimension's own filter, in device memory; the kernels that read the
// dimension take its rows that pass.
struct DimensionFilter {
  ExprProgram program;
  ColumnSet columns;
  FastPredicate fast;  // when has_fast: the program without the interpreter
  bool has_fast;
};

__device__ __forceinline__ bool dimension_row_passes(const DimensionFilter* filter, int64_t row, uint32_t& error) {
  if (!filter) return true;
  if (filter->has_fast) return fast_predicate_holds(filter->fast, static_cast<uint32_t>(row));
  return evaluate_predicate(filter->program, filter->columns, row, error);
}

struct RangeParams {
  StarColumn key;
  StarColumn group[kStarMaxKeysPerDimension];
  int group_count;
  const uint32_t* rows;
  uint64_t count;
  const DimensionFilter* filter;  // null: every row of `rows`
  long long* low;                 // [kRangeValues]
  long long* high;                // [kRangeValues]
  unsigned long long* selected;   // how many rows pass the filter
  uint32_t* error_word;
};

__device__ __forceinline__ long long warp_min(long long v) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) v = min(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
__device__ __forceinline__ long long warp_max(long long v) {
#pragma unroll
  for (int o = 16; o > 0; o /= 2) v = max(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// Minimum and maximum of the key (over its non-NULL values) and of each group
// column over the selected rows, and how many are selected; one atomic per
// warp and value.
__global__ void __launch_bounds__(kThreads) dimension_ranges_kernel(const RangeParams p) {
  long long low[kRangeValues], high[kRangeValues];
  unsigned selected = 0;
  uint32_t error = 0;
#pragma unroll
  for (int v = 0; v < kRangeValues; ++v) {
    low[v] = LLONG_MAX;
    high[v] = LLONG_MIN;
  }
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x; base < p.count; base += stride) {
    const uint64_t position = base + threadIdx.x;
    if (position >= p.count) continue;
    const int64_t row = p.rows ? p.rows[position] : static_cast<int64_t>(position);
    if (!dimension_row_passes(p.filter, row, error)) continue;
    ++selected;
    if (row_is_valid(p.key.validity, row)) {
      const long long k = load_raw(p.key.data, p.key.type, row).i;
      low[0] = min(low[0], k);
      high[0] = max(high[0], k);
    }
#pragma unroll
    for (int g = 0; g < kStarMaxKeysPerDimension; ++g) {
      if (g >= p.group_count) break;
      const long long v = load_raw(p.group[g].data, p.group[g].type, row).i;
      low[1 + g] = min(low[1 + g], v);
      high[1 + g] = max(high[1 + g], v);
    }
  }
#pragma unroll
  for (int v = 0; v < kRangeValues; ++v) {
    const long long l = warp_min(low[v]), h = warp_max(high[v]);
    if (threadIdx.x % 32 == 0 && l <= h) {
      atomicMin(p.low + v, l);
      atomicMax(p.high + v, h);
    }
  }
#pragma unroll
  for (int o = 16; o > 0; o /= 2) selected += __shfl_xor_sync(0xffffffffu, selected, o);
  if (threadIdx.x % 32 == 0 && selected) atomicAdd(p.selected, static_cast<unsigned long long>(selected));
  if (error) atomicOr(p.error_word, error);
}

// A GROUP BY column on a dimension: its value's offset from `low`, times
// `stride`, is its part of the dense group number (mixed radix in the
// order of the GROUP BY keys, whichever dimension is probed first).
struct ProbeGroupColumn {
  StarColumn column;
  long long low;
  uint64_t stride;
};

// The GROUP BY columns on one dimension.
struct DimensionGroups {
  ProbeGroupColumn columns[kStarMaxKeysPerDimension];
  int count;
};

// map[key - low] = the row's part of the group number (its GROUP BY columns'
// digits), for the selected rows with a non-NULL key: a probe that finds its
// key has its part of the group without reading the dimension again.
__global__ void __launch_bounds__(kThreads)
    build_dimension_map_kernel(StarColumn key, const uint32_t* rows, uint64_t count, const DimensionFilter* filter,
                               long long low, uint32_t* map, DimensionGroups groups, unsigned* flags) {
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  uint32_t error = 0;  // dimension_ranges_kernel reported any
  for (uint64_t position = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; position < count;
       position += stride) {
    const uint32_t row = rows ? rows[position] : static_cast<uint32_t>(position);
    if (!row_is_valid(key.validity, row) || !dimension_row_passes(filter, row, error)) continue;
    const uint64_t slot = static_cast<uint64_t>(load_raw(key.data, key.type, row).i - low);
    uint64_t part = 0;
    for (int g = 0; g < groups.count; ++g) {
      const ProbeGroupColumn& c = groups.columns[g];
      part += static_cast<uint64_t>(load_raw(c.column.data, c.column.type, row).i - c.low) * c.stride;
    }
    // part < kMaxGroups, so never kEmpty.
    if (atomicCAS(map + slot, kEmpty, static_cast<uint32_t>(part)) != kEmpty) atomicOr(flags, kDuplicateKey);
  }
}

// ---- the probe: one pass over the fact table ----

struct ProbeDimension {
  StarColumn fact_key;
  long long low;
  uint64_t range;
  const uint32_t* map;  // key - low -> the row's part of the group number, or kEmpty
};

// An aggregate argument the warp-aggregated kernel loads itself: a column
// without NULLs, or one integer operation between such columns and
// constants, or 1 for COUNT(*).
struct FastOperand {
  const void* data = nullptr;  // null: the constant `value`
  Type type = Type::Integer;
  long long value = 0;
};
struct FastArgument {
  static constexpr Op kColumn = Op::Column;
  static constexpr Op kOne = Op::Constant;
  Op operation = kOne;  // kOne, kColumn (operand a), or Add/Sub/Mul of a and b
  FastOperand a, b;
  bool exact = false;  // both operands 32-bit: the operation cannot overflow 64 bits, no check
};

struct ProbeParams {
  FastArgument fast_arguments[kStarMaxAggregates];  // when all_fast: every argument has a fast form
  bool all_fast;
  FastPredicate fast_filter;  // when has_fast_filter: the filter without the interpreter
  bool has_fast_filter;
  ExprProgram filter;
  ColumnSet columns;
  ExprProgram arguments[kStarMaxAggregates];
  AggKind kinds[kStarMaxAggregates];
  ProbeDimension dimensions[kStarMaxDimensions];
  int dimension_count;
  int aggregate_count;
  uint64_t fact_rows;
  // Group states: the first fact row of each group; per aggregate and group
  // its value (SUM: two's-complement total; MIN/MAX), count and SUM's
  // largest absolute value.
  uint32_t* first;
  unsigned long long* states;  // [aggregate][value, count, magnitude][groups]
  uint64_t groups;
  // Whether a SUM must watch its largest absolute value: not when the
  // argument's bound times the fact rows stays below 2^63. The host then
  // checks count * largest < 2^63 per group, which bounds every partial sum
  // in any order: the two's-complement total is then exact.
  bool track_magnitude[kStarMaxAggregates];
  unsigned* flags;
  unsigned prefetch;  // kPrefetch* bits: what the probe pulls into L2 a tile ahead
};

// What a probe tile prefetches of the next tile into L2 (ProbeParams::prefetch).
constexpr unsigned kPrefetchFilter = 1;     // the fast filter's columns
constexpr unsigned kPrefetchFirstKey = 2;   // the first-probed dimension's key column
constexpr unsigned kPrefetchArguments = 4;  // the fast aggregate arguments' columns
constexpr unsigned kPrefetchKeys = 8;       // every dimension's key column

constexpr int kProbeItems = 8;
constexpr uint64_t kProbeTile = static_cast<uint64_t>(kThreads) * kProbeItems;

__device__ __forceinline__ unsigned long long magnitude_of(long long v) {
  return v < 0 ? 0ull - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
}

__device__ __forceinline__ uint64_t item_row(uint64_t base, int k) {
  return base + static_cast<uint64_t>(k) * kThreads + threadIdx.x;
}

// The slots of the live items' keys in the dimension's map; items whose key
// is NULL or outside the map drop out of `flags`.
template <class T>
__device__ __forceinline__ void key_slots(const ProbeDimension& dim, uint64_t base, uint32_t& flags,
                                          uint64_t (&slot)[kProbeItems]) {
  const T* __restrict__ keys = static_cast<const T*>(dim.fact_key.data);
  // `loaded`: the items whose key is read, all inside the table (the
  // bitmap ends with the table, the last tile may not). Testing the NULL
  // bits under `flags` as it changes made every test wait on the range
  // checks before it: Q1.1's probe took 1.50 ms instead of 1.31 ms.
  const uint32_t loaded = flags;
  T key[kProbeItems];
#pragma unroll
  for (int k = 0; k < kProbeItems; ++k) key[k] = (loaded >> k) & 1u ? __ldg(keys + item_row(base, k)) : T{};
#pragma unroll
  for (int k = 0; k < kProbeItems; ++k) {
    slot[k] = static_cast<uint64_t>(static_cast<long long>(key[k]) - dim.low);
    if (slot[k] >= dim.range) flags &= ~(1u << k);
    if (dim.fact_key.validity && ((loaded >> k) & 1u) &&
        !row_is_valid(dim.fact_key.validity, static_cast<int64_t>(item_row(base, k))))
      flags &= ~(1u << k);
  }
}

// Filters the tile's items, probes every dimension (all items' loads in
// flight together) and numbers each survivor's group. Returns the
// survivors' bits.
__device__ __forceinline__ uint32_t probe_tile(const ProbeParams& p, uint64_t base, uint64_t (&group)[kProbeItems],
                                               uint32_t& error) {
  // The next tile's filter columns and first key column into L2 while this
  // one works: the loads below then wait on L2, not on memory.
  const uint64_t next = base + static_cast<uint64_t>(gridDim.x) * kProbeTile;
  if (next < p.fact_rows && p.prefetch) {
    const uint64_t end = min(next + kProbeTile, p.fact_rows);
    if (p.has_fast_filter && (p.prefetch & kPrefetchFilter)) prefetch_predicate_l2(p.fast_filter, nullptr, next, end);
    const int keys = p.prefetch & kPrefetchKeys ? p.dimension_count : p.prefetch & kPrefetchFirstKey ? 1 : 0;
    for (int d = 0; d < keys; ++d) prefetch_rows_l2(p.dimensions[d].fact_key.data, p.dimensions[d].fact_key.type, next, end);
    if (p.all_fast && (p.prefetch & kPrefetchArguments))
      for (int a = 0; a < p.aggregate_count; ++a) {
        const FastArgument& f = p.fast_arguments[a];
        if (f.operation == FastArgument::kOne) continue;
        if (f.a.data) prefetch_rows_l2(f.a.data, f.a.type, next, end);
        if (f.operation != FastArgument::kColumn && f.b.data) prefetch_rows_l2(f.b.data, f.b.type, next, end);
      }
  }
  uint32_t flags = p.has_fast_filter
                       ? fast_predicate_flags<kThreads, kProbeItems>(p.fast_filter, nullptr, base, p.fact_rows)
                       : general_predicate_flags<kThreads, kProbeItems>(p.filter, p.columns, nullptr, base, p.fact_rows,
                                                                        error);
#pragma unroll
  for (int k = 0; k < kProbeItems; ++k) group[k] = 0;
  for (int d = 0; d < p.dimension_count && flags; ++d) {
    const ProbeDimension& dim = p.dimensions[d];
    uint64_t slot[kProbeItems];
    if (dim.fact_key.type == Type::BigInt) key_slots<int64_t>(dim, base, flags, slot);
    else key_slots<int32_t>(dim, base, flags, slot);
    uint32_t part[kProbeItems];
#pragma unroll
    for (int k = 0; k < kProbeItems; ++k) part[k] = (flags >> k) & 1u ? __ldg(dim.map + slot[k]) : kEmpty;
#pragma unroll
    for (int k = 0; k < kProbeItems; ++k) {
      if (part[k] == kEmpty) flags &= ~(1u << k);
      else group[k] += part[k];
    }
  }
  return flags;
}

// An aggregate's argument at `row`: one integer operation between columns
// or constants inline (the common case: SUM(price * discount)), anything
// else through the shared evaluator. Same semantics as evaluate_shaped().
__device__ __forceinline__ Slot argument_value(const ExprProgram& p, const ColumnSet& columns, int64_t row,
                                               uint32_t& error) {
  if (p.shape == Shape::Arithmetic && p.terms[0].cls == Cls::Int) {
    const Slot a = term_value(p.terms[0], columns, at(row)), b = term_value(p.terms[1], columns, at(row));
    Slot r;
    r.valid = a.valid && b.valid;
    r.i = !r.valid                      ? 0
          : p.terms[0].op == Op::Add ? checked_add(a.i, b.i, error)
          : p.terms[0].op == Op::Sub ? checked_sub(a.i, b.i, error)
                                     : checked_mul(a.i, b.i, error);
    return r;
  }
  return evaluate(p, columns, row, error);
}

// Adds a share of aggregate `a` -- `count` rows whose values total `value`
// (SUM, AVG) or whose best is `value` (MIN, MAX), with `magnitude` the
// largest of their absolute values -- to the state at `to` (value; count at
// to[groups]; magnitude at to[2 * groups]), in global or shared memory.
__device__ __forceinline__ void add_share(const ProbeParams& p, int a, unsigned long long* to, uint64_t groups,
                                          unsigned long long count, long long value, unsigned long long magnitude) {
  if (count == 0) return;
  atomicAdd(to + groups, count);
  const AggKind kind = p.kinds[a];
  if (kind == AggKind::Min) {
    atomicMin(reinterpret_cast<long long*>(to), value);
  } else if (kind == AggKind::Max) {
    atomicMax(reinterpret_cast<long long*>(to), value);
  } else if (kind == AggKind::Sum || kind == AggKind::Avg) {
    atomicAdd(to, static_cast<unsigned long long>(value));
    if (p.track_magnitude[a]) atomicMax(to + 2 * groups, magnitude);
  }
}

// Adds fact row `row` to group `g` of the states at `first` and `states`
// ([aggregate][value, count, magnitude][groups], global or shared memory).
__device__ __forceinline__ void fold_row(const ProbeParams& p, uint64_t row, uint64_t g, uint32_t* first,
                                         unsigned long long* states, uint64_t groups, uint32_t& error) {
  atomicMin(first + g, static_cast<uint32_t>(row));
  for (int a = 0; a < p.aggregate_count; ++a) {
    Slot v{};
    v.valid = true;
    if (p.kinds[a] != AggKind::CountStar) v = argument_value(p.arguments[a], p.columns, static_cast<int64_t>(row), error);
    if (v.valid) add_share(p, a, states + 3 * a * groups + g, groups, 1, v.i, magnitude_of(v.i));
  }
}

// A block's group states in shared memory: every group empty.
__device__ __forceinline__ void init_shared_states(const ProbeParams& p, int aggregates, uint32_t* first,
                                                   unsigned long long* states, uint64_t groups) {
  for (uint64_t g = threadIdx.x; g < groups; g += blockDim.x) {
    first[g] = kEmpty;
    for (int a = 0; a < aggregates; ++a) {
      unsigned long long* value = states + 3 * a * groups + g;
      value[0] = p.kinds[a] == AggKind::Min   ? static_cast<unsigned long long>(LLONG_MAX)
                 : p.kinds[a] == AggKind::Max ? static_cast<unsigned long long>(LLONG_MIN)
                                              : 0ull;
      value[groups] = value[2 * groups] = 0;
    }
  }
  __syncthreads();
}

// Adds a block's groups from shared memory to the global states.
__device__ __forceinline__ void flush_shared_states(const ProbeParams& p, int aggregates, const uint32_t* first,
                                                    const unsigned long long* states, uint64_t groups) {
  __syncthreads();
  for (uint64_t g = threadIdx.x; g < groups; g += blockDim.x) {
    if (first[g] == kEmpty) continue;
    atomicMin(p.first + g, first[g]);
    for (int a = 0; a < aggregates; ++a) {
      const unsigned long long* from = states + 3 * a * groups + g;
      add_share(p, a, p.states + 3 * a * groups + g, groups, from[groups], static_cast<long long>(from[0]),
                from[2 * groups]);
    }
  }
}

// GROUP BY over many groups: each surviving row adds itself to its group's
// state in global memory with integer atomics (the survivors of a star
// join's filters are few, and spread over the groups).
__global__ void __launch_bounds__(kThreads, 2) star_probe_grouped_kernel(const ProbeParams* __restrict__ params,
                                                                         uint32_t* __restrict__ error_word) {
  const ProbeParams& p = *params;
  if (*p.flags & kDuplicateKey) return;
  uint32_t error = 0;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * kProbeTile; base < p.fact_rows;
       base += static_cast<uint64_t>(gridDim.x) * kProbeTile) {
    uint64_t group[kProbeItems];
    for (uint32_t flags = probe_tile(p, base, group, error); flags; flags &= flags - 1) {
      const int k = __ffs(flags) - 1;
      fold_row(p, item_row(base, k), group[k], p.first, p.states, p.groups, error);
    }
  }
  if (error) atomicOr(error_word, error);
}

// GROUP BY over few groups: each block first aggregates in shared memory,
// then adds its groups to the global states, so that many rows of one group
// do not queue on one global address.
__global__ void __launch_bounds__(kThreads, 2) star_probe_shared_kernel(const ProbeParams* __restrict__ params,
                                                                        uint32_t* __restrict__ error_word) {
  extern __shared__ unsigned long long shared_states[];
  const ProbeParams& p = *params;
  if (*p.flags & kDuplicateKey) return;  // the same for the whole block
  const uint64_t groups = p.groups;
  uint32_t* shared_first = reinterpret_cast<uint32_t*>(shared_states + 3 * p.aggregate_count * groups);
  init_shared_states(p, p.aggregate_count, shared_first, shared_states, groups);
  uint32_t error = 0;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * kProbeTile; base < p.fact_rows;
       base += static_cast<uint64_t>(gridDim.x) * kProbeTile) {
    uint64_t group[kProbeItems];
    for (uint32_t flags = probe_tile(p, base, group, error); flags; flags &= flags - 1) {
      const int k = __ffs(flags) - 1;
      fold_row(p, item_row(base, k), group[k], shared_first, shared_states, groups, error);
    }
  }
  flush_shared_states(p, p.aggregate_count, shared_first, shared_states, groups);
  if (error) atomicOr(error_word, error);
}

// ---- GROUP BY with simple arguments: warp-aggregated ----
//
// Rows next to each other often fall in the same group (an order's lines
// share its date and customer), so before any atomic the lanes of a warp
// that hold the same group for the same item combine their rows: the lowest
// lane (the lowest row) adds the group's share once.

// Loads operand `o` for the tile's live items.
template <class T>
__device__ __forceinline__ void load_operand(const FastOperand& o, uint64_t base, uint32_t flags,
                                             long long (&out)[kProbeItems]) {
  const T* __restrict__ data = static_cast<const T*>(o.data);
#pragma unroll
  for (int k = 0; k < kProbeItems; ++k)
    out[k] = (flags >> k) & 1u ? static_cast<long long>(__ldg(data + item_row(base, k))) : 0;
}

__device__ __forceinline__ void operand_values(const FastOperand& o, uint64_t base, uint32_t flags,
                                               long long (&out)[kProbeItems]) {
  if (!o.data) {
#pragma unroll
    for (int k = 0; k < kProbeItems; ++k) out[k] = o.value;
    return;
  }
  switch (o.type) {
    case Type::Boolean: load_operand<uint8_t>(o, base, flags, out); return;
    case Type::Integer:
    case Type::Date: load_operand<int32_t>(o, base, flags, out); return;
    default: load_operand<int64_t>(o, base, flags, out); return;  // BIGINT, DECIMAL
  }
}

// The argument of fast aggregate `a` at the tile's live items (all loads in
// flight together); COUNT(*) gives 1.
__device__ __forceinline__ void argument_values(const FastArgument& f, uint64_t base, uint32_t flags,
                                                long long (&out)[kProbeItems], uint32_t& error) {
  if (f.operation == FastArgument::kOne) {
#pragma unroll
    for (int k = 0; k < kProbeItems; ++k) out[k] = 1;
    return;
  }
  operand_values(f.a, base, flags, out);
  if (f.operation == FastArgument::kColumn) return;
  long long b[kProbeItems];
  operand_values(f.b, base, flags, b);
  if (f.exact) {
#pragma unroll
    for (int k = 0; k < kProbeItems; ++k)
      out[k] = f.operation == Op::Add ? out[k] + b[k] : f.operation == Op::Sub ? out[k] - b[k] : out[k] * b[k];
    return;
  }
#pragma unroll
  for (int k = 0; k < kProbeItems; ++k)
    out[k] = f.operation == Op::Add ? checked_add(out[k], b[k], error)
             : f.operation == Op::Sub ? checked_sub(out[k], b[k], error)
                                      : checked_mul(out[k], b[k], error);
}

// States in shared memory (SHARED) or global memory; AGGREGATES exactly.
template <int AGGREGATES, bool SHARED>
__global__ void __launch_bounds__(kThreads, 3) star_probe_warp_kernel(const ProbeParams* __restrict__ params,
                                                                      uint32_t* __restrict__ error_word) {
  extern __shared__ unsigned long long shared_states[];
  __shared__ long long scratch[kThreads / 32][AGGREGATES][32];
  const ProbeParams& p = *params;
  if (*p.flags & kDuplicateKey) return;  // the same for the whole grid
  const uint64_t groups = p.groups;
  uint32_t* first = p.first;
  unsigned long long* states = p.states;
  if constexpr (SHARED) {
    first = reinterpret_cast<uint32_t*>(shared_states + 3 * AGGREGATES * groups);
    states = shared_states;
    init_shared_states(p, AGGREGATES, first, states, groups);
  }
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  uint32_t error = 0;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * kProbeTile; base < p.fact_rows;
       base += static_cast<uint64_t>(gridDim.x) * kProbeTile) {
    uint64_t group[kProbeItems];
    const uint32_t flags = probe_tile(p, base, group, error);
    long long value[AGGREGATES][kProbeItems];
#pragma unroll
    for (int a = 0; a < AGGREGATES; ++a) argument_values(p.fast_arguments[a], base, flags, value[a], error);
#pragma unroll
    for (int k = 0; k < kProbeItems; ++k) {
      const bool live = (flags >> k) & 1u;
      const unsigned active = __ballot_sync(0xffffffffu, live);
      if (!active) continue;
      if (live) {
        const unsigned peers = __match_any_sync(active, group[k]);
        const unsigned leader = __ffs(peers) - 1;
#pragma unroll
        for (int a = 0; a < AGGREGATES; ++a) scratch[warp][a][lane] = value[a][k];
        __syncwarp(active);
        if (lane == leader) {
          const uint64_t g = group[k];
          atomicMin(first + g, static_cast<uint32_t>(item_row(base, k)));  // the leader's row is the lowest
#pragma unroll
          for (int a = 0; a < AGGREGATES; ++a) {
            const AggKind kind = p.kinds[a];
            long long best = scratch[warp][a][lane];
            unsigned long long sum = 0, magnitude = 0;
            for (unsigned rest = peers; rest; rest &= rest - 1) {
              const long long v = scratch[warp][a][__ffs(rest) - 1];
              sum += static_cast<unsigned long long>(v);
              magnitude = max(magnitude, magnitude_of(v));
              best = kind == AggKind::Min ? min(best, v) : max(best, v);
            }
            // Not add_share(): its general form (a count that may be 0, the
            // value chosen before the kind) made this kernel spill registers
            // and Q4.1's probe take 2.35 ms instead of 2.09 ms.
            unsigned long long* to = states + 3 * a * groups + g;
            atomicAdd(to + groups, static_cast<unsigned long long>(__popc(peers)));
            if (kind == AggKind::Min) {
              atomicMin(reinterpret_cast<long long*>(to), best);
            } else if (kind == AggKind::Max) {
              atomicMax(reinterpret_cast<long long*>(to), best);
            } else if (kind == AggKind::Sum || kind == AggKind::Avg) {
              atomicAdd(to, sum);
              if (p.track_magnitude[a]) atomicMax(to + 2 * groups, magnitude);
            }
          }
        }
        __syncwarp(active);  // scratch is reused by the next item
      }
    }
  }
  if constexpr (SHARED) flush_shared_states(p, AGGREGATES, first, states, groups);
  if (error) atomicOr(error_word, error);
}

// The one group's states of a thread (value, count, largest |value| per
// aggregate): MIN and MAX start at their identities.
template <int AGGREGATES>
__device__ __forceinline__ void init_single_states(const ProbeParams& p, unsigned long long (&value)[AGGREGATES],
                                                   unsigned long long (&count)[AGGREGATES],
                                                   unsigned long long (&magnitude)[AGGREGATES]) {
#pragma unroll
  for (int a = 0; a < AGGREGATES; ++a) {
    value[a] = p.kinds[a] == AggKind::Min   ? static_cast<unsigned long long>(LLONG_MAX)
               : p.kinds[a] == AggKind::Max ? static_cast<unsigned long long>(LLONG_MIN)
                                            : 0ull;
    count[a] = magnitude[a] = 0;
  }
}

// Folds one value into a thread's state of aggregate kind `kind`.
__device__ __forceinline__ void fold_single(AggKind kind, long long v, unsigned long long& value,
                                            unsigned long long& count, unsigned long long& magnitude) {
  ++count;
  if (kind == AggKind::Min) {
    value = static_cast<unsigned long long>(min(static_cast<long long>(value), v));
  } else if (kind == AggKind::Max) {
    value = static_cast<unsigned long long>(max(static_cast<long long>(value), v));
  } else {
    value += static_cast<unsigned long long>(v);
    magnitude = max(magnitude, magnitude_of(v));
  }
}

// Combines the threads' states of the one group by warp shuffles; lane 0
// adds the warp's share to the global states, one atomic per value.
template <int AGGREGATES>
__device__ __forceinline__ void add_single_states(const ProbeParams& p, unsigned long long (&value)[AGGREGATES],
                                                  unsigned long long (&count)[AGGREGATES],
                                                  unsigned long long (&magnitude)[AGGREGATES]) {
#pragma unroll
  for (int a = 0; a < AGGREGATES; ++a) {
    if (a >= p.aggregate_count) break;
    const AggKind kind = p.kinds[a];
#pragma unroll
    for (int o = 16; o > 0; o /= 2) {
      const unsigned long long v = __shfl_xor_sync(0xffffffffu, value[a], o);
      const unsigned long long m = __shfl_xor_sync(0xffffffffu, magnitude[a], o);
      count[a] += __shfl_xor_sync(0xffffffffu, count[a], o);
      if (kind == AggKind::Min) value[a] = static_cast<unsigned long long>(min(static_cast<long long>(value[a]), static_cast<long long>(v)));
      else if (kind == AggKind::Max) value[a] = static_cast<unsigned long long>(max(static_cast<long long>(value[a]), static_cast<long long>(v)));
      else value[a] += v;
      magnitude[a] = max(magnitude[a], m);
    }
    if (threadIdx.x % 32 == 0)  // one group
      add_share(p, a, p.states + 3 * a, 1, count[a], static_cast<long long>(value[a]), magnitude[a]);
  }
}

// Without GROUP BY: each thread accumulates in registers, each warp combines
// with shuffles, and lane 0 makes one atomic per value. AGGREGATES bounds
// aggregate_count at compile time, so the states stay in registers.
template <int AGGREGATES>
__global__ void __launch_bounds__(kThreads, AGGREGATES <= 2 ? 3 : 2) star_probe_single_kernel(const ProbeParams* __restrict__ params,
                                                                     uint32_t* __restrict__ error_word) {
  const ProbeParams& p = *params;
  if (*p.flags & kDuplicateKey) return;
  uint32_t error = 0;
  unsigned long long value[AGGREGATES], count[AGGREGATES], magnitude[AGGREGATES];
  init_single_states<AGGREGATES>(p, value, count, magnitude);
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * kProbeTile; base < p.fact_rows;
       base += static_cast<uint64_t>(gridDim.x) * kProbeTile) {
    uint64_t group[kProbeItems];
    uint32_t flags = probe_tile(p, base, group, error);
    if (AGGREGATES <= 2 && p.all_fast) {  // each argument's loads for the whole tile in flight together
#pragma unroll
      for (int a = 0; a < AGGREGATES; ++a) {
        if (a >= p.aggregate_count) break;
        long long v[kProbeItems];
        argument_values(p.fast_arguments[a], base, flags, v, error);
        const AggKind kind = p.kinds[a];
#pragma unroll
        for (int k = 0; k < kProbeItems; ++k)
          if ((flags >> k) & 1u) fold_single(kind, v[k], value[a], count[a], magnitude[a]);
      }
      continue;
    }
    for (; flags; flags &= flags - 1) {
      const int64_t row = static_cast<int64_t>(item_row(base, __ffs(flags) - 1));
#pragma unroll
      for (int a = 0; a < AGGREGATES; ++a) {
        if (a >= p.aggregate_count) break;
        const AggKind kind = p.kinds[a];
        if (kind == AggKind::CountStar) {
          ++count[a];
          continue;
        }
        const Slot v = argument_value(p.arguments[a], p.columns, row, error);
        if (!v.valid) continue;
        ++count[a];
        if (kind == AggKind::Sum || kind == AggKind::Avg) {
          value[a] += static_cast<unsigned long long>(v.i);
          magnitude[a] = max(magnitude[a], magnitude_of(v.i));
        } else if (kind == AggKind::Min) {
          value[a] = static_cast<unsigned long long>(min(static_cast<long long>(value[a]), static_cast<long long>(v.i)));
        } else if (kind == AggKind::Max) {
          value[a] = static_cast<unsigned long long>(max(static_cast<long long>(value[a]), static_cast<long long>(v.i)));
        }
      }
    }
  }
  add_single_states<AGGREGATES>(p, value, count, magnitude);
  if (error) atomicOr(error_word, error);
}

// ---- without GROUP BY, on 16-byte vectors: the vector probe ----
//
// The Crystal-style probe for the common single-group shape (SSB Q1.x):
// every column 4 bytes wide (INTEGER, DATE), without NULLs, 16-byte
// aligned; fact filter terms as PlainTerms; at most two aggregates, each of
// a fast argument that cannot overflow (exact) or a plain column. Each warp
// takes a span of 1024 fact rows (kernels/vector_predicate.cuh): the filter
// columns are read whole as vectors, but a dimension's key column, and
// then each argument column, only in the 16-byte vectors that still hold a
// live row -- whole 32-byte sectors of rows that an earlier column dropped
// are never fetched. No L2 prefetch of the next span (as the other probes
// do): at SF 20 it made Q1.1-Q1.3 1.26/1.05/1.04 ms against 0.98/0.80/0.79
// without.

// The 4 values at `p` (a multiple of 4) of a 4-byte column, of which only
// the live ones (bits of `live`) are read; FULL: one vector load when any
// is live, else a guarded load per live value (the span's last vector
// may end past the table).
template <bool FULL>
__device__ __forceinline__ uint4 load_live(const void* data, uint64_t p, uint32_t live) {
  const uint32_t* __restrict__ column = static_cast<const uint32_t*>(data);
  if constexpr (FULL) {
    return live ? __ldg(reinterpret_cast<const uint4*>(column + p)) : make_uint4(0, 0, 0, 0);
  } else {
    uint4 v = make_uint4(0, 0, 0, 0);
    if (live & 1u) v.x = __ldg(column + p);
    if (live & 2u) v.y = __ldg(column + p + 1);
    if (live & 4u) v.z = __ldg(column + p + 2);
    if (live & 8u) v.w = __ldg(column + p + 3);
    return v;
  }
}

// The lane's live rows (bits of `bits`) whose key is in the dimension's map
// and whose dimension row was selected.
// Half a span at a time (4 vector steps, 16 map loads in flight): the
// whole span's 32 map values held at once spilled at 80 registers.
template <bool FULL>
__device__ __forceinline__ uint32_t vector_probe_dimension(const ProbeDimension& dim, uint64_t first, uint32_t bits) {
  constexpr int HALF = 4;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    uint4 keys[HALF];
#pragma unroll
    for (int s = 0; s < HALF; ++s) {
      const int step = h * HALF + s;
      keys[s] = load_live<FULL>(dim.fact_key.data, first + step * kVectorLanes * 4, (bits >> (4 * step)) & 0xfu);
    }
    uint32_t part[4 * HALF];
#pragma unroll
    for (int s = 0; s < HALF; ++s)
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int b = 4 * (h * HALF + s) + j;
        const uint64_t slot =
            static_cast<uint64_t>(static_cast<long long>(static_cast<int32_t>(vector_item<4>(keys[s], j))) - dim.low);
        if (slot >= dim.range) bits &= ~(1u << b);
        part[4 * s + j] = (bits >> b) & 1u ? __ldg(dim.map + slot) : kEmpty;
      }
#pragma unroll
    for (int i = 0; i < 4 * HALF; ++i)
      if (part[i] == kEmpty) bits &= ~(1u << (16 * h + i));
  }
  return bits;
}

// The 4-byte operand's 4 values at vector step s (constants: the value).
template <bool FULL>
__device__ __forceinline__ uint4 vector_operand(const FastOperand& o, uint64_t p, uint32_t live) {
  if (!o.data) {
    const uint32_t v = static_cast<uint32_t>(o.value);
    return make_uint4(v, v, v, v);
  }
  return load_live<FULL>(o.data, p, live);
}

// Folds fast aggregate `a` over the lane's live rows.
template <bool FULL>
__device__ __forceinline__ void vector_fold(const FastArgument& f, AggKind kind, uint64_t first, uint32_t bits,
                                            unsigned long long& value, unsigned long long& count,
                                            unsigned long long& magnitude) {
  constexpr int STEPS = 8;
  if (f.operation == FastArgument::kOne) {
    count += __popc(bits);
    return;
  }
#pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    const uint32_t live = (bits >> (4 * s)) & 0xfu;
    const uint64_t p = first + s * kVectorLanes * 4;
    const uint4 a = vector_operand<FULL>(f.a, p, live);
    const uint4 b = f.operation == FastArgument::kColumn ? a : vector_operand<FULL>(f.b, p, live);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      if (!((live >> j) & 1u)) continue;
      // Operands of 4 bytes (or constants within 2^31): exact in 64 bits.
      const long long x = static_cast<int32_t>(vector_item<4>(a, j)), y = static_cast<int32_t>(vector_item<4>(b, j));
      const long long v = f.operation == FastArgument::kColumn ? x
                          : f.operation == Op::Add             ? x + y
                          : f.operation == Op::Sub             ? x - y
                                                               : x * y;
      fold_single(kind, v, value, count, magnitude);
    }
  }
}

template <int AGGREGATES, int N, bool FULL>
__device__ __forceinline__ void vector_probe_span(const PlainTerms<N>& filter, const ProbeParams& p, uint64_t span,
                                                  unsigned long long (&value)[AGGREGATES],
                                                  unsigned long long (&count)[AGGREGATES],
                                                  unsigned long long (&magnitude)[AGGREGATES]) {
  const uint64_t first = span * kVectorSpan + static_cast<uint64_t>(threadIdx.x % kVectorLanes) * 4;
  uint32_t bits = predicate_bits<4, N, FULL>(filter, first, p.fact_rows);
  if constexpr (!FULL) {
#pragma unroll
    for (int s = 0; s < 8; ++s)
#pragma unroll
      for (int j = 0; j < 4; ++j)
        if (first + s * kVectorLanes * 4 + j >= p.fact_rows) bits &= ~(1u << (4 * s + j));
  }
  for (int d = 0; d < p.dimension_count; ++d) {
    if (!__any_sync(0xffffffffu, bits)) return;
    bits = vector_probe_dimension<FULL>(p.dimensions[d], first, bits);
  }
#pragma unroll
  for (int a = 0; a < AGGREGATES; ++a)
    vector_fold<FULL>(p.fast_arguments[a], p.kinds[a], first, bits, value[a], count[a], magnitude[a]);
}

// Resident blocks asked of ptxas: at most 85 registers a thread (it uses
// 80, no spills for up to 4 filter terms); at 2 blocks and 128 registers
// the probe was latency-bound (ncu: 24.6 % occupancy, DRAM at 48 %).
constexpr int kVectorProbeBlocks = 3;

// AGGREGATES: exactly the query's; N: the filter's terms, padded.
template <int AGGREGATES, int N>
__global__ void __launch_bounds__(kThreads, kVectorProbeBlocks) star_probe_vector_kernel(const PlainTerms<N> filter,
                                                                        const ProbeParams* __restrict__ params,
                                                                        uint32_t* __restrict__ error_word) {
  const ProbeParams& p = *params;
  if (*p.flags & kDuplicateKey) return;
  unsigned long long value[AGGREGATES], count[AGGREGATES], magnitude[AGGREGATES];
  init_single_states<AGGREGATES>(p, value, count, magnitude);
  const uint64_t warps = static_cast<uint64_t>(gridDim.x) * (kThreads / kVectorLanes);
  const uint64_t spans = (p.fact_rows + kVectorSpan - 1) / kVectorSpan, full_spans = p.fact_rows / kVectorSpan;
  for (uint64_t span = static_cast<uint64_t>(blockIdx.x) * (kThreads / kVectorLanes) + threadIdx.x / kVectorLanes;
       span < spans; span += warps) {
    if (span < full_spans) vector_probe_span<AGGREGATES, N, true>(filter, p, span, value, count, magnitude);
    else vector_probe_span<AGGREGATES, N, false>(filter, p, span, value, count, magnitude);
  }
  add_single_states<AGGREGATES>(p, value, count, magnitude);
  (void)error_word;  // exact arguments: nothing can fail
}

// ---- the groups that got rows ----

__global__ void __launch_bounds__(kThreads)
    active_groups_kernel(const uint32_t* first, uint64_t groups, uint32_t* active, unsigned* active_count) {
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x; base < groups; base += stride) {
    const uint64_t g = base + threadIdx.x;
    const bool used = g < groups && first[g] != kEmpty;
    // One atomic per warp.
    const unsigned ballot = __ballot_sync(0xffffffffu, used);
    unsigned at = 0;
    if (threadIdx.x % 32 == 0 && ballot) at = atomicAdd(active_count, __popc(ballot));
    at = __shfl_sync(0xffffffffu, at, 0);
    if (used) active[at + __popc(ballot & ((1u << (threadIdx.x % 32)) - 1u))] = static_cast<uint32_t>(g);
  }
}

// What the host reads back after the probe, in one copy: out[0] the flags
// and (high half) the query's error word, out[1] the number n of active
// groups, then for the first min(n, capacity)
// of them [group id, first row, per aggregate value, count, magnitude], one
// 64-bit word each, column after column (`capacity` words a column).
__global__ void __launch_bounds__(kThreads)
    gather_groups_kernel(const ProbeParams* __restrict__ params, const uint32_t* active, const unsigned* active_count,
                         uint64_t capacity, const uint32_t* error_word, unsigned long long* out) {
  const ProbeParams& p = *params;
  const uint64_t n = *active_count;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    out[0] = *p.flags | static_cast<unsigned long long>(*error_word) << 32;
    out[1] = n;
  }
  unsigned long long* columns = out + 2;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < min(n, capacity); i += stride) {
    const uint32_t g = active[i];
    columns[i] = g;
    columns[capacity + i] = p.first[g];
    for (int a = 0; a < p.aggregate_count; ++a) {
      const unsigned long long* state = p.states + 3 * a * p.groups + g;
      columns[(2 + 3 * a) * capacity + i] = state[0];
      columns[(3 + 3 * a) * capacity + i] = state[p.groups];
      columns[(4 + 3 * a) * capacity + i] = state[2 * p.groups];
    }
  }
}

__global__ void fill_kernel(unsigned long long* data, uint64_t n, unsigned long long value) {
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) data[i] = value;
}

unsigned blocks_for(uint64_t items, const DeviceContext& context) {
  return grid_for((items + kThreads - 1) / kThreads, context, 8);
}


StarResult not_fused(const char* why) {
  StarResult r;
  r.why_not = why;
  return r;
}

// A finished result over no rows: no group, or without GROUP BY one empty one.
StarResult empty_result(const StarQueryInput& q) {
  StarResult r;
  r.done = true;
  if (q.group_keys.empty()) {
    r.groups = 1;
    r.states.assign(q.aggregates.size(), AggState{});
  }
  ++fused_runs;
  return r;
}

AggState state_of(AggKind kind, unsigned long long value, unsigned long long count) {
  AggState s;
  s.count = count;
  if (kind != AggKind::CountStar && kind != AggKind::Count) s.i = static_cast<int64_t>(value);
  return s;
}

// The fast form of an aggregate's argument (FastArgument), when it has one.
bool fast_operand(const Term& t, const ColumnSet& columns, FastOperand& out) {
  if (t.is_constant) {
    out = {nullptr, Type::BigInt, t.value.i};
    return !t.null_constant;
  }
  const ColumnPointer& c = columns.columns[t.slot];
  const bool integer = c.type == Type::Boolean || c.type == Type::Integer || c.type == Type::Date ||
                       c.type == Type::BigInt || c.type == Type::Decimal;
  out = {c.data, c.type, 0};
  return integer && c.data && !c.is_rowid && !c.rows && !c.validity && c.side == 0;
}

bool fast_argument(const StarAggregateInput& aggregate, const ColumnSet& columns, FastArgument& out) {
  out = FastArgument{};
  if (aggregate.kind == AggKind::CountStar) return true;
  const ExprProgram& p = aggregate.argument;
  if (p.shape == Shape::Column) {
    out.operation = FastArgument::kColumn;
    return fast_operand(p.terms[0], columns, out.a);
  }
  if (p.shape != Shape::Arithmetic || p.terms[0].cls != Cls::Int) return false;
  out.operation = p.terms[0].op;
  if (!fast_operand(p.terms[0], columns, out.a) || !fast_operand(p.terms[1], columns, out.b)) return false;
  // |a|, |b| <= 2^31: a product stays within 2^62, a sum or difference 2^32.
  auto narrow = [](const FastOperand& o) {
    return o.data ? o.type != Type::BigInt && o.type != Type::Decimal
                  : o.value >= -(1ll << 31) && o.value <= (1ll << 31);
  };
  out.exact = narrow(out.a) && narrow(out.b);
  return true;
}

// Launches a probe kernel over the fact table's tiles with every block
// resident: a block's tiles are strided by the grid. The former 8 blocks a
// multiprocessor, of which 3 fit, ran 2.67 waves (ncu); SSB at SF 20 took
// 28.2-29.2 ms this way against 28.5-30.0 ms that way, within the noise.
template <class Kernel>
void launch_probe(Kernel kernel, std::size_t shared_bytes, uint64_t fact_rows, const ProbeParams* d_params,
                  uint32_t* d_error, DeviceContext& context) {
  if (shared_bytes)
    GPUSQL_CUDA_TRY(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(kSharedStateBytes)));
  const unsigned grid =
      resident_grid(kernel, kThreads, shared_bytes, (fact_rows + kProbeTile - 1) / kProbeTile, context);
  kernel<<<grid, kThreads, shared_bytes, context.stream()>>>(d_params, d_error);
}

template <int AGGREGATES>
void launch_warp_kernel(uint64_t fact_rows, uint64_t groups, const ProbeParams* d_params, uint32_t* d_error,
                        DeviceContext& context) {
  const std::size_t bytes = groups * (3 * AGGREGATES * sizeof(unsigned long long) + sizeof(uint32_t));
  if (bytes <= kSharedStateBytes)
    launch_probe(star_probe_warp_kernel<AGGREGATES, true>, bytes, fact_rows, d_params, d_error, context);
  else
    launch_probe(star_probe_warp_kernel<AGGREGATES, false>, 0, fact_rows, d_params, d_error, context);
}

// Whether the vector probe (star_probe_vector_kernel) takes the query:
// no GROUP BY, one or two aggregates of 4-byte columns or 32-bit constants
// that cannot overflow, fact keys and filter columns of 4 bytes without
// NULLs.
bool vector_probe_applies(const ProbeParams& params, const StarQueryInput& q) {
  const std::size_t aggs = q.aggregates.size();
  if (!q.group_keys.empty() || aggs == 0 || aggs > 2 || !params.all_fast || !params.has_fast_filter) return false;
  if (params.fast_filter.count > 0 && vector_width(params.fast_filter) != 4) return false;
  auto four_bytes = [](const void* data, Type type) {
    return data && (type == Type::Integer || type == Type::Date) &&
           reinterpret_cast<uintptr_t>(data) % kVectorBytes == 0;
  };
  for (int d = 0; d < params.dimension_count; ++d) {
    const StarColumn& key = params.dimensions[d].fact_key;
    if (key.validity || !four_bytes(key.data, key.type)) return false;
  }
  auto operand = [&](const FastOperand& o) {
    return o.data ? four_bytes(o.data, o.type) : o.value >= INT32_MIN && o.value <= INT32_MAX;
  };
  for (std::size_t a = 0; a < aggs; ++a) {
    const FastArgument& f = params.fast_arguments[a];
    if (f.operation == FastArgument::kOne) continue;
    if (!operand(f.a)) return false;
    if (f.operation != FastArgument::kColumn && (!f.exact || !operand(f.b))) return false;
  }
  return true;
}

template <int AGGREGATES, int N>
void launch_vector_probe(const FastPredicate& filter, uint64_t fact_rows, const ProbeParams* d_params,
                         uint32_t* d_error, DeviceContext& context) {
  const uint64_t spans = (fact_rows + kVectorSpan - 1) / kVectorSpan;
  const unsigned grid = resident_grid(star_probe_vector_kernel<AGGREGATES, N>, kThreads, 0,
                                      (spans + kThreads / kVectorLanes - 1) / (kThreads / kVectorLanes), context);
  star_probe_vector_kernel<AGGREGATES, N>
      <<<grid, kThreads, 0, context.stream()>>>(plain_terms<N>(filter), d_params, d_error);
}

template <int AGGREGATES>
void launch_vector_probe_terms(const FastPredicate& filter, uint64_t fact_rows, const ProbeParams* d_params,
                               uint32_t* d_error, DeviceContext& context) {
  static_assert(kMaxTerms <= 8, "every term count has a kernel");
  if (filter.count <= 1) launch_vector_probe<AGGREGATES, 1>(filter, fact_rows, d_params, d_error, context);
  else if (filter.count <= 2) launch_vector_probe<AGGREGATES, 2>(filter, fact_rows, d_params, d_error, context);
  else if (filter.count <= 4) launch_vector_probe<AGGREGATES, 4>(filter, fact_rows, d_params, d_error, context);
  else launch_vector_probe<AGGREGATES, 8>(filter, fact_rows, d_params, d_error, context);
}

}  // namespace

std::size_t star_join_runs() { return fused_runs.load(); }

StarResult star_join_aggregate(const StarQueryInput& q, uint32_t* d_error, DeviceContext& context) {
  const std::size_t dims = q.dimensions.size();
  if (dims == 0 || dims > static_cast<std::size_t>(kStarMaxDimensions) ||
      q.group_keys.size() > static_cast<std::size_t>(kStarMaxGroupKeys) ||
      q.aggregates.size() > static_cast<std::size_t>(kStarMaxAggregates))
    return not_fused("outside the fused kernel's limits");
  if (q.fact_rows >= kEmpty) return not_fused("a fact table of 2^32 rows or more");
  for (const auto& d : q.dimensions) {
    if (d.group_columns.size() > static_cast<std::size_t>(kStarMaxKeysPerDimension))
      return not_fused("too many GROUP BY columns on one dimension");
    for (const auto& c : d.group_columns)
      if (c.validity) return not_fused("a GROUP BY column with NULLs");
  }
  if (q.fact_rows == 0) return empty_result(q);
  // A dimension with no row makes the join empty, but the fact filter must
  // still run on every fact row, as the host executor runs it (a run-time
  // error there is the query's): the general operators take such a join.
  for (const auto& d : q.dimensions)
    if (d.count == 0) return not_fused("a dimension with no row");

  // The dimensions' own filters, for the kernels that read the dimensions.
  DeviceObjects filters;
  std::vector<std::size_t> filter_at(dims, SIZE_MAX);
  for (std::size_t d = 0; d < dims; ++d)
    if (q.dimensions[d].filter.shape != Shape::Empty) {
      DimensionFilter f{q.dimensions[d].filter, q.dimensions[d].filter_columns, FastPredicate{}, false};
      f.has_fast = make_fast_predicate(f.program, f.columns, f.fast);
      filter_at[d] = filters.add(f);
    }
  filters.upload(context);
  auto filter_of = [&](std::size_t d) {
    return filter_at[d] == SIZE_MAX ? nullptr : filters.at<DimensionFilter>(filter_at[d]);
  };

  // 1. Each dimension's key range, its group columns' ranges and how many
  // of its rows pass its filter: the one read back before the probe.
  const std::size_t range_words = dims * kRangeValues;
  std::vector<long long> host_ranges(2 * range_words + dims);
  std::fill(host_ranges.begin(), host_ranges.begin() + range_words, LLONG_MAX);
  std::fill(host_ranges.begin() + range_words, host_ranges.begin() + 2 * range_words, LLONG_MIN);
  std::fill(host_ranges.begin() + 2 * range_words, host_ranges.end(), 0);
  DeviceBuffer ranges(context, host_ranges.size() * sizeof(long long));
  context.copy_to_device(ranges.data(), host_ranges.data(), host_ranges.size() * sizeof(long long));
  for (std::size_t d = 0; d < dims; ++d) {
    const StarDimensionInput& dim = q.dimensions[d];
    RangeParams p{};
    p.key = dim.key;
    p.group_count = static_cast<int>(dim.group_columns.size());
    for (int g = 0; g < p.group_count; ++g) p.group[g] = dim.group_columns[g];
    p.rows = dim.rows;
    p.count = dim.count;
    p.filter = filter_of(d);
    p.low = ranges.as<long long>() + d * kRangeValues;
    p.high = ranges.as<long long>() + range_words + d * kRangeValues;
    p.selected = reinterpret_cast<unsigned long long*>(ranges.as<long long>() + 2 * range_words + d);
    p.error_word = d_error;
    dimension_ranges_kernel<<<blocks_for(dim.count, context), kThreads, 0, context.stream()>>>(p);
    GPUSQL_CHECK_LAUNCH();
  }
  trace::mark("sj-ranges-enqueue");
  context.copy_to_host(host_ranges.data(), ranges.data(), host_ranges.size() * sizeof(long long));
  trace::mark("sj-ranges-wait");
  auto low = [&](std::size_t d, int v) { return host_ranges[d * kRangeValues + v]; };
  auto high = [&](std::size_t d, int v) { return host_ranges[range_words + d * kRangeValues + v]; };
  std::vector<std::size_t> selected(dims);
  for (std::size_t d = 0; d < dims; ++d) {
    selected[d] = static_cast<std::size_t>(host_ranges[2 * range_words + d]);
    // No selected row, or every selected key NULL: the inner join is empty
    // (and with a key in range, every group column's range is too); the
    // fact filter still runs, in the general operators (above).
    if (selected[d] == 0 || low(d, 0) > high(d, 0)) return not_fused("a dimension with no selected key");
  }

  ProbeParams params{};
  // 2. The dense group space.
  // Key k's digit has stride = the product of the later keys' ranges.
  const std::size_t keys = q.group_keys.size();
  std::vector<long long> key_low(keys);
  std::vector<uint64_t> key_range(keys), key_stride(keys);
  uint64_t groups = 1;
  std::vector<DimensionGroups> dimension_groups(dims, DimensionGroups{});
  for (std::size_t k = keys; k-- > 0;) {
    const StarGroupKeyInput& key = q.group_keys[k];
    const std::size_t d = static_cast<std::size_t>(key.dimension);
    key_low[k] = low(d, 1 + key.index);
    key_range[k] = static_cast<uint64_t>(high(d, 1 + key.index)) - static_cast<uint64_t>(key_low[k]) + 1;
    if (key_range[k] == 0 || key_range[k] > kMaxGroups || groups * key_range[k] > kMaxGroups)
      return not_fused("too many possible groups");
    key_stride[k] = groups;
    groups *= key_range[k];
    DimensionGroups& g = dimension_groups[d];
    g.columns[g.count++] = {q.dimensions[d].group_columns[key.index], key_low[k], key_stride[k]};
  }
  // 3. The direct maps, probed most selective first: a row that drops out
  // early reads fewer key columns.
  std::vector<std::size_t> order(dims), probe_slot(dims);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return static_cast<double>(selected[a]) / std::max<std::size_t>(1, q.dimensions[a].table_rows) <
           static_cast<double>(selected[b]) / std::max<std::size_t>(1, q.dimensions[b].table_rows);
  });
  for (std::size_t i = 0; i < dims; ++i) probe_slot[order[i]] = i;
  DeviceBuffer flags(context, sizeof(unsigned));
  GPUSQL_CUDA_TRY(cudaMemsetAsync(flags.data(), 0, sizeof(unsigned), context.stream()));
  std::vector<DeviceBuffer> maps;
  maps.reserve(dims);
  for (std::size_t d = 0; d < dims; ++d) {
    const StarDimensionInput& dim = q.dimensions[d];
    const uint64_t range = static_cast<uint64_t>(high(d, 0)) - static_cast<uint64_t>(low(d, 0)) + 1;
    // Up to 16 MB of map for any dimension (yyyymmdd date keys: 69,000
    // slots for 2,556 days), more only for keys about as dense as the rows.
    if (range == 0 || range > kMaxKeyRange ||
        range > std::max<uint64_t>(4 * static_cast<uint64_t>(dim.table_rows), kDenseEnough))
      return not_fused("dimension keys too sparse for a direct map");
    maps.emplace_back(context, range * sizeof(uint32_t));
    GPUSQL_CUDA_TRY(cudaMemsetAsync(maps.back().data(), 0xff, range * sizeof(uint32_t), context.stream()));
    build_dimension_map_kernel<<<blocks_for(dim.count, context), kThreads, 0, context.stream()>>>(
        dim.key, dim.rows, dim.count, filter_of(d), low(d, 0), maps.back().as<uint32_t>(), dimension_groups[d],
        flags.as<unsigned>());
    GPUSQL_CHECK_LAUNCH();
    ProbeDimension& probe = params.dimensions[probe_slot[d]];
    probe.fact_key = dim.fact_key;
    probe.low = low(d, 0);
    probe.range = range;
    probe.map = maps.back().as<uint32_t>();
  }

  params.has_fast_filter = make_fast_predicate(q.fact_filter, q.fact_columns, params.fast_filter);
  params.filter = q.fact_filter;
  params.columns = q.fact_columns;
  params.dimension_count = static_cast<int>(dims);
  params.aggregate_count = static_cast<int>(q.aggregates.size());
  params.fact_rows = q.fact_rows;
  params.flags = flags.as<unsigned>();
  for (std::size_t a = 0; a < q.aggregates.size(); ++a) {
    params.kinds[a] = q.aggregates[a].kind;
    params.arguments[a] = q.aggregates[a].argument;
  }
  const std::size_t aggs = q.aggregates.size();
  DeviceBuffer first(context, groups * sizeof(uint32_t));
  DeviceBuffer states(context, std::max<std::size_t>(1, 3 * aggs) * groups * sizeof(unsigned long long));
  GPUSQL_CUDA_TRY(cudaMemsetAsync(first.data(), 0xff, groups * sizeof(uint32_t), context.stream()));
  GPUSQL_CUDA_TRY(cudaMemsetAsync(states.data(), 0, states.size(), context.stream()));
  params.first = first.as<uint32_t>();
  params.states = states.as<unsigned long long>();
  params.groups = groups;
  bool fast = true;
  for (std::size_t a = 0; a < aggs; ++a) fast &= fast_argument(q.aggregates[a], q.fact_columns, params.fast_arguments[a]);
  params.all_fast = fast;
  params.prefetch = kPrefetchFilter | kPrefetchFirstKey;
  for (std::size_t a = 0; a < aggs; ++a) {
    unsigned long long* base = states.as<unsigned long long>() + 3 * a * groups;
    params.track_magnitude[a] = !sum_cannot_overflow(q.aggregates[a].argument, q.fact_columns, q.fact_rows);
    if (q.aggregates[a].kind == AggKind::Min || q.aggregates[a].kind == AggKind::Max) {
      const long long start = q.aggregates[a].kind == AggKind::Min ? LLONG_MAX : LLONG_MIN;
      fill_kernel<<<blocks_for(groups, context), kThreads, 0, context.stream()>>>(
          base, groups, static_cast<unsigned long long>(start));
      GPUSQL_CHECK_LAUNCH();
    }
  }
  DeviceObjects objects;
  const std::size_t at = objects.add(params);
  objects.upload(context);
  const ProbeParams* d_params = objects.at<ProbeParams>(at);

  trace::mark("sj-maps-params");
  // 4. The probe.
  const uint64_t rows = q.fact_rows;
  if (vector_probe_applies(params, q)) {
    const FastPredicate filter = merge_intervals(params.fast_filter);
    if (aggs == 1) launch_vector_probe_terms<1>(filter, rows, d_params, d_error, context);
    else launch_vector_probe_terms<2>(filter, rows, d_params, d_error, context);
  } else if (q.group_keys.empty()) {
    if (aggs <= 1) launch_probe(star_probe_single_kernel<1>, 0, rows, d_params, d_error, context);
    else if (aggs <= 2) launch_probe(star_probe_single_kernel<2>, 0, rows, d_params, d_error, context);
    else if (aggs <= 4) launch_probe(star_probe_single_kernel<4>, 0, rows, d_params, d_error, context);
    else launch_probe(star_probe_single_kernel<kStarMaxAggregates>, 0, rows, d_params, d_error, context);
  } else if (fast && aggs == 1) {
    launch_warp_kernel<1>(rows, groups, d_params, d_error, context);
  } else if (fast && aggs == 2) {
    launch_warp_kernel<2>(rows, groups, d_params, d_error, context);
  } else if (const std::size_t bytes = groups * (3 * aggs * sizeof(unsigned long long) + sizeof(uint32_t));
             bytes <= kSharedStateBytes) {
    launch_probe(star_probe_shared_kernel, bytes, rows, d_params, d_error, context);
  } else {
    launch_probe(star_probe_grouped_kernel, 0, rows, d_params, d_error, context);
  }
  GPUSQL_CHECK_LAUNCH();

  // 5. The groups with rows, by first fact row, read back with the flags
  // and their number in one copy when at most kReadBackGroups (one more
  // round trip otherwise).
  DeviceBuffer active(context, groups * sizeof(uint32_t));
  DeviceBuffer active_count(context, sizeof(unsigned));
  if (!q.group_keys.empty()) {
    GPUSQL_CUDA_TRY(cudaMemsetAsync(active_count.data(), 0, sizeof(unsigned), context.stream()));
    active_groups_kernel<<<blocks_for(groups, context), kThreads, 0, context.stream()>>>(
        first.as<uint32_t>(), groups, active.as<uint32_t>(), active_count.as<unsigned>());
    GPUSQL_CHECK_LAUNCH();
  } else {
    const uint32_t only[2] = {0, 1};  // group 0; one active group
    context.copy_to_device(active.data(), &only[0], sizeof(uint32_t));
    context.copy_to_device(active_count.data(), &only[1], sizeof(unsigned));
  }
  const std::size_t row_words = 2 + 3 * aggs;
  auto read_back = [&](uint64_t capacity) {
    std::vector<unsigned long long> words(2 + row_words * capacity);
    DeviceBuffer packed(context, words.size() * sizeof(unsigned long long));
    gather_groups_kernel<<<blocks_for(std::max<uint64_t>(1, capacity), context), kThreads, 0, context.stream()>>>(
        d_params, active.as<uint32_t>(), active_count.as<unsigned>(), capacity, d_error,
        packed.as<unsigned long long>());
    GPUSQL_CHECK_LAUNCH();
    trace::mark("sj-probe-enqueue");
    context.copy_to_host(words.data(), packed.data(), words.size() * sizeof(unsigned long long));
    trace::mark("sj-probe-wait");
    return words;
  };
  uint64_t capacity = std::min<uint64_t>(groups, kReadBackGroups);
  std::vector<unsigned long long> packed = read_back(capacity);
  const unsigned host_flags = static_cast<unsigned>(packed[0]);
  const uint32_t error = static_cast<uint32_t>(packed[0] >> 32);
  const std::size_t n = static_cast<std::size_t>(packed[1]);
  if (host_flags & kDuplicateKey) return not_fused("a dimension key that is not unique");
  if (n > capacity) packed = read_back(capacity = n);
  const unsigned long long* host = packed.data() + 2;
  auto word = [&](std::size_t column, std::size_t i) { return host[column * capacity + i]; };
  for (std::size_t a = 0; a < aggs; ++a) {
    const AggKind kind = q.aggregates[a].kind;
    if (!params.track_magnitude[a] || (kind != AggKind::Sum && kind != AggKind::Avg)) continue;
    for (std::size_t i = 0; i < n; ++i)  // count * largest |value| bounds every partial sum
      if (static_cast<unsigned __int128>(word(3 + 3 * a, i)) * word(4 + 3 * a, i) >= (unsigned __int128)1 << 63)
        return not_fused("a sum that might overflow");
  }

  std::vector<std::size_t> by_first(n);
  std::iota(by_first.begin(), by_first.end(), std::size_t{0});
  std::sort(by_first.begin(), by_first.end(), [&](std::size_t a, std::size_t b) { return word(1, a) < word(1, b); });

  StarResult result;
  result.done = true;
  result.error = error;
  result.groups = n;
  result.keys.resize(keys * n);
  result.states.resize(aggs * n);
  for (std::size_t r = 0; r < n; ++r) {
    const std::size_t i = by_first[r];
    const uint64_t id = word(0, i);
    for (std::size_t k = 0; k < keys; ++k)
      result.keys[k * n + r] = key_low[k] + static_cast<long long>(id / key_stride[k] % key_range[k]);
    for (std::size_t a = 0; a < aggs; ++a)
      result.states[a * n + r] = state_of(q.aggregates[a].kind, word(2 + 3 * a, i), word(3 + 3 * a, i));
  }
  ++fused_runs;
  trace::mark("sj-decode");
  return result;
}

}  // namespace gpusql::kernels
