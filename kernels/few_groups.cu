#include <algorithm>
#include <cstdint>

#include "kernels/few_groups.hpp"
#include "kernels/launch.hpp"

namespace gpusql::kernels {
namespace {

constexpr int kThreads = 256;

// Positions one thread takes at a time; a group number none has.
constexpr int kRows = 4;
constexpr uint32_t kNoGroup = 0xffffffffu;

// Shared memory for a block's copies of the states: with 8 blocks of 256
// threads resident, 192 KB of the multiprocessor's 228.
constexpr std::size_t kSharedBudget = 24 * 1024;

// A block folds into 32-bit words with 32-bit shared atomics, the ones the
// hardware has (64-bit adds on shared memory compile to compare-and-swap
// loops, ATOMS.CAST.SPIN.64 on sm_90).
// One aggregate's state in one group, 6 words: a SUM adds each value's low
// 32 bits (unsigned) into word 0 with its carries counted in word 1, and
// its high 32 bits (signed) into word 2 with their wraps (+1 up, -1 down)
// in word 3; MIN/MAX keep the extreme as the 64-bit words 0-1; word 4
// counts NULL arguments; word 5 is padding (8-byte alignment).
constexpr int kBlockWords = 6;

// Words of one aggregate's state in one group in the grid's totals (64-bit
// words, added with 64-bit global atomics, which the hardware has): the
// total's low and high 64 bits (or the extreme), then the NULLs.
constexpr int kStateWords = 3;

struct FewGroupsParams {
  AggSpec specs[kMaxAggregates];
  int32_t state[kMaxAggregates];  // the aggregate whose states this one reads (SUM's for an AVG of its argument)
  uint32_t groups;
  uint32_t copies;      // copies of the states per block (thread t folds into copy t % copies)
  uint32_t copy_words;  // 32-bit words of one copy: its states, then a row count per group; 2 mod 4
};

__device__ __forceinline__ unsigned long long initial_word(AggKind kind) {
  return kind == AggKind::Min   ? static_cast<unsigned long long>(INT64_MAX)
         : kind == AggKind::Max ? static_cast<unsigned long long>(INT64_MIN)
                                : 0ull;
}

// v into a SUM's block state (see kBlockWords).
__device__ __forceinline__ void add_to_block_sum(unsigned int* w, int64_t v) {
  const auto low = static_cast<unsigned int>(static_cast<uint64_t>(v));
  const auto high = static_cast<int>(v >> 32);
  if (low != 0) {
    const unsigned int old = atomicAdd(w, low);
    if (old + low < old) atomicAdd(w + 1, 1u);
  }
  if (high != 0) {
    const int old = static_cast<int>(atomicAdd(w + 2, static_cast<unsigned int>(high)));
    const int sum = static_cast<int>(static_cast<unsigned int>(old) + static_cast<unsigned int>(high));
    if (high > 0 && sum < old) atomicAdd(w + 3, 1u);
    else if (high < 0 && sum > old) atomicAdd(w + 3, 0xffffffffu);
  }
}

// A SUM's block state as the 128-bit total it stands for.
__device__ __forceinline__ __int128 block_sum(const unsigned int* w) {
  const __int128 low = static_cast<__int128>(w[0]) + (static_cast<__int128>(w[1]) << 32);
  const __int128 high = static_cast<__int128>(static_cast<int>(w[2])) +
                        static_cast<__int128>(static_cast<int>(w[3])) * (static_cast<__int128>(1) << 32);
  return low + high * (static_cast<__int128>(1) << 32);
}

__device__ __forceinline__ long long block_extreme(const unsigned int* w) {
  return static_cast<long long>(*reinterpret_cast<const unsigned long long*>(w));
}

// MIN/MAX into the block's extreme: a plain read first, so that once the
// extreme settles most values need no compare-and-swap loop.
__device__ __forceinline__ void fold_extreme(unsigned int* w, AggKind kind, int64_t v) {
  auto* x = reinterpret_cast<long long*>(w);
  const long long seen = *reinterpret_cast<volatile long long*>(x);
  if (kind == AggKind::Min) {
    if (v < seen) atomicMin(x, static_cast<long long>(v));
  } else if (v > seen) {
    atomicMax(x, static_cast<long long>(v));
  }
}

// At most 80 registers (3 blocks a multiprocessor), more warps to hide the
// rows' loads behind; ptxas then spills a few bytes.
template <int A>
__global__ void __launch_bounds__(kThreads, 3)
    few_groups_kernel(const FewGroupsParams* __restrict__ parameters, const ColumnSet* __restrict__ column_set,
                      const uint32_t* __restrict__ row_group, uint64_t count, unsigned long long* __restrict__ totals,
                      uint32_t* __restrict__ error_word) {
  extern __shared__ unsigned long long few_group_shared[];
  unsigned int* const words = reinterpret_cast<unsigned int*>(few_group_shared);
  const FewGroupsParams& params = *parameters;
  const ColumnSet& columns = *column_set;
  const uint32_t groups = params.groups, entries = groups * A, copies = params.copies;
  for (uint32_t c = 0; c < copies; ++c)
    for (uint32_t w = threadIdx.x; w < params.copy_words; w += blockDim.x) {
      unsigned int value = 0;
      if (w < entries * kBlockWords && w % kBlockWords < 2) {
        const unsigned long long initial = initial_word(params.specs[(w / kBlockWords) % A].kind);
        value = static_cast<unsigned int>(w % kBlockWords == 0 ? initial : initial >> 32);
      }
      words[c * params.copy_words + w] = value;
    }
  __syncthreads();
  unsigned int* const states = words + (threadIdx.x % copies) * params.copy_words;
  unsigned int* const rows = states + entries * kBlockWords;
  uint32_t error = 0;
  // kRows positions a thread at a time, so that each argument's columns are
  // decoded once for all of them (evaluate_rows()).
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x * kRows;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x * kRows + threadIdx.x; base < count;
       base += stride) {
    int64_t position[kRows];
    uint32_t g[kRows];
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      const uint64_t p = base + static_cast<uint64_t>(r) * blockDim.x;
      const bool in = p < count;
      position[r] = static_cast<int64_t>(in ? p : base);  // past the end: a real position, not folded
      g[r] = in ? row_group[p] : kNoGroup;
      // The warp's rows of one group counted by one lane.
      const unsigned int peers = __match_any_sync(__activemask(), g[r]);
      if (in && static_cast<int>(threadIdx.x % kWarp) == __ffs(peers) - 1) atomicAdd(rows + g[r], __popc(peers));
    }
#pragma unroll 1
    for (int a = 0; a < A; ++a) {
      const AggSpec& spec = params.specs[a];
      if (spec.kind == AggKind::CountStar || params.state[a] != a) continue;
      Slot values[kRows];
      evaluate_rows<kRows>(spec.arg, columns, position, values, error);
#pragma unroll
      for (int r = 0; r < kRows; ++r) {
        if (g[r] == kNoGroup) continue;
        const Slot& v = values[r];
        unsigned int* const s = states + (g[r] * A + a) * kBlockWords;
        if (!v.valid) {
          atomicAdd(s + 4, 1u);
          continue;
        }
        switch (spec.kind) {
          case AggKind::Sum:
          case AggKind::Avg: add_to_block_sum(s, v.i); break;
          case AggKind::Min:
          case AggKind::Max: fold_extreme(s, spec.kind, v.i); break;
          default: break;  // COUNT, COUNT(DISTINCT): the NULLs are all they need
        }
      }
    }
  }
  if (error) atomicOr(error_word, error);
  __syncthreads();
  // The block's copies combined, then added into the totals: one 64-bit
  // atomic per word and block.
  for (uint32_t w = threadIdx.x; w < entries + groups; w += blockDim.x) {
    if (w >= entries) {
      unsigned long long n = 0;
      for (uint32_t c = 0; c < copies; ++c) n += words[c * params.copy_words + entries * kBlockWords + (w - entries)];
      if (n) atomicAdd(totals + entries * kStateWords + (w - entries), n);
      continue;
    }
    if (params.state[w % A] != static_cast<int32_t>(w % A)) continue;
    const AggKind kind = params.specs[w % A].kind;
    __int128 sum = 0;
    long long extreme = static_cast<long long>(initial_word(kind));
    unsigned long long nulls = 0;
    for (uint32_t c = 0; c < copies; ++c) {
      const unsigned int* s = words + c * params.copy_words + w * kBlockWords;
      if (kind == AggKind::Min) extreme = min(extreme, block_extreme(s));
      else if (kind == AggKind::Max) extreme = max(extreme, block_extreme(s));
      else if (kind == AggKind::Sum || kind == AggKind::Avg) sum += block_sum(s);
      nulls += s[4];
    }
    unsigned long long* t = totals + w * kStateWords;
    if (nulls) atomicAdd(t + 2, nulls);
    if (kind == AggKind::Min) {
      atomicMin(reinterpret_cast<long long*>(t), extreme);
    } else if (kind == AggKind::Max) {
      atomicMax(reinterpret_cast<long long*>(t), extreme);
    } else if (kind == AggKind::Sum || kind == AggKind::Avg) {
      const auto low = static_cast<unsigned long long>(sum);
      const auto high = static_cast<unsigned long long>(static_cast<unsigned __int128>(sum) >> 64);
      const unsigned long long old = atomicAdd(t, low);
      const unsigned long long carried = high + (old + low < old ? 1ull : 0ull);
      if (carried) atomicAdd(t + 1, carried);
    }
  }
}

__global__ void __launch_bounds__(kThreads)
    initial_totals_kernel(const FewGroupsParams* __restrict__ parameters, int aggregates,
                          unsigned long long* __restrict__ totals, uint32_t words) {
  for (uint32_t w = blockIdx.x * blockDim.x + threadIdx.x; w < words; w += gridDim.x * blockDim.x) {
    const uint32_t entry = w / kStateWords;
    totals[w] = entry < parameters->groups * aggregates && w % kStateWords == 0
                    ? initial_word(parameters->specs[entry % aggregates].kind)
                    : 0ull;
  }
}

// The totals as the AggStates the canonical fold makes: count the non-NULL
// values (all rows for COUNT(*)), a SUM's exact total as its low word
// (signed) and the multiple of 2^64 to add (AggState), an extreme as i;
// no value, the empty state.
__global__ void __launch_bounds__(kThreads)
    state_kernel(const FewGroupsParams* __restrict__ parameters, int aggregates,
                 const unsigned long long* __restrict__ totals, AggState* __restrict__ states) {
  const uint32_t groups = parameters->groups, entries = groups * aggregates;
  for (uint32_t e = blockIdx.x * blockDim.x + threadIdx.x; e < entries; e += gridDim.x * blockDim.x) {
    const uint32_t g = e / aggregates, a = e % aggregates;
    const AggKind kind = parameters->specs[a].kind;
    const unsigned long long* t = totals + (g * aggregates + parameters->state[a]) * kStateWords;
    const unsigned long long rows = totals[entries * kStateWords + g];
    AggState s;
    s.count = kind == AggKind::CountStar ? rows : rows - t[2];
    if (s.count > 0) {
      if (kind == AggKind::Sum || kind == AggKind::Avg) {
        s.i = static_cast<int64_t>(t[0]);
        s.d = static_cast<double>(static_cast<int64_t>(t[1]) + static_cast<int64_t>(t[0] >> 63));
      } else if (kind == AggKind::Min || kind == AggKind::Max) {
        s.i = static_cast<int64_t>(t[0]);
      }
    }
    states[static_cast<std::size_t>(a) * groups + g] = s;
  }
}

template <int A>
void launch_fold(const FewGroupsParams& params, const FewGroupsParams* d_params, const ColumnSet* d_columns,
                 const uint32_t* row_group, std::size_t count, unsigned long long* totals, uint32_t* d_error,
                 DeviceContext& context) {
  const std::size_t shared = static_cast<std::size_t>(params.copies) * params.copy_words * sizeof(unsigned int);
  const unsigned grid =
      resident_grid(few_groups_kernel<A>, kThreads, shared, (count + kThreads * kRows - 1) / (kThreads * kRows), context);
  few_groups_kernel<A><<<grid, kThreads, shared, context.stream()>>>(d_params, d_columns, row_group, count, totals,
                                                                     d_error);
}

// Whether an aggregate of kind `of`'s state (kBlockWords) holds all that one
// of kind `kind` over the same argument needs: AVG's is SUM's, and every
// state counts its NULLs, which is all COUNT needs.
bool holds_state(AggKind of, AggKind kind) {
  const auto sum = [](AggKind k) { return k == AggKind::Sum || k == AggKind::Avg; };
  if (kind == AggKind::Count || kind == AggKind::CountDistinct) return true;
  return (sum(of) && sum(kind)) || of == kind;
}

}  // namespace

bool few_groups_apply(const std::vector<AggSpec>& specs, const Groups& groups) {
  if (groups.by_slot || groups.count == 0 || groups.count > kFewGroups || specs.empty() ||
      specs.size() > static_cast<std::size_t>(kMaxAggregates))
    return false;
  for (const AggSpec& spec : specs) {
    switch (spec.kind) {
      case AggKind::CountStar:
      case AggKind::Count:
      case AggKind::CountDistinct: break;
      case AggKind::Sum:
      case AggKind::Avg:
      case AggKind::Min:
      case AggKind::Max:
        if (spec.cls != Cls::Int || spec.arg.wide) return false;  // doubles: the canonical order decides the bits
        break;
      default: return false;  // ARG_MIN/ARG_MAX: the sorted path's positions
    }
  }
  return true;
}

DeviceBuffer aggregate_few_groups(const std::vector<AggSpec>& specs, const ColumnSet& columns, const Groups& groups,
                                  std::size_t count, uint32_t* d_error, DeviceContext& context) {
  const int aggregates = static_cast<int>(specs.size());
  FewGroupsParams params{};
  // Aggregates over the same argument whose states one holds share it
  // (SUM and AVG of TPC-H Q1's l_quantity): folded once.
  for (int a = 0; a < aggregates; ++a) {
    params.specs[a] = specs[a];
    params.state[a] = a;
    if (specs[a].kind == AggKind::CountStar) continue;
    for (int b = 0; b < a; ++b)
      if (params.state[b] == b && specs[b].kind != AggKind::CountStar && holds_state(specs[b].kind, specs[a].kind) &&
          same_program(specs[b].arg, specs[a].arg)) {
        params.state[a] = b;
        break;
      }
  }
  params.groups = static_cast<uint32_t>(groups.count);
  const uint32_t state_words = params.groups * static_cast<uint32_t>(aggregates) * kStateWords;
  // Between copies, a number of 4-byte words that is 2 mod 4: even, for the
  // 8-byte extremes, and spreading the lanes of a warp (each in its own
  // copy) over 16 banks.
  const uint32_t block_words = params.groups * static_cast<uint32_t>(aggregates) * kBlockWords + params.groups;
  params.copy_words = (block_words + 1) / 2 * 2;
  if (params.copy_words % 4 == 0) params.copy_words += 2;
  params.copies = 1;
  while (params.copies < kWarp && 2 * params.copies * params.copy_words * sizeof(unsigned int) <= kSharedBudget)
    params.copies *= 2;

  DeviceObjects objects;
  const std::size_t p = objects.add(params), c = objects.add(columns);
  objects.upload(context);
  const auto* d_params = objects.at<FewGroupsParams>(p);
  const uint32_t total_words = state_words + params.groups;
  DeviceBuffer totals(context, total_words * sizeof(unsigned long long));
  initial_totals_kernel<<<grid_for((total_words + kThreads - 1) / kThreads, context), kThreads, 0, context.stream()>>>(
      d_params, aggregates, totals.as<unsigned long long>(), total_words);
  GPUSQL_CHECK_LAUNCH();
  const uint32_t* row_group = groups.row_group.as<uint32_t>();
  const ColumnSet* d_columns = objects.at<ColumnSet>(c);
  auto* t = totals.as<unsigned long long>();
  switch (aggregates) {
    case 1: launch_fold<1>(params, d_params, d_columns, row_group, count, t, d_error, context); break;
    case 2: launch_fold<2>(params, d_params, d_columns, row_group, count, t, d_error, context); break;
    case 3: launch_fold<3>(params, d_params, d_columns, row_group, count, t, d_error, context); break;
    case 4: launch_fold<4>(params, d_params, d_columns, row_group, count, t, d_error, context); break;
    case 5: launch_fold<5>(params, d_params, d_columns, row_group, count, t, d_error, context); break;
    case 6: launch_fold<6>(params, d_params, d_columns, row_group, count, t, d_error, context); break;
    case 7: launch_fold<7>(params, d_params, d_columns, row_group, count, t, d_error, context); break;
    default: launch_fold<kMaxAggregates>(params, d_params, d_columns, row_group, count, t, d_error, context); break;
  }
  GPUSQL_CHECK_LAUNCH();
  DeviceBuffer states(context, static_cast<std::size_t>(aggregates) * groups.count * sizeof(AggState));
  state_kernel<<<grid_for((groups.count * aggregates + kThreads - 1) / kThreads, context), kThreads, 0,
                 context.stream()>>>(d_params, aggregates, t, states.as<AggState>());
  GPUSQL_CHECK_LAUNCH();
  return states;
}

}  // namespace gpusql::kernels
