#include <algorithm>
#include <type_traits>

#include "kernels/few_groups.hpp"
#include "kernels/gather.hpp"
#include "kernels/group_by.hpp"
#include "kernels/hash_table.cuh"
#include "kernels/launch.hpp"
#include "kernels/one_pass_select.cuh"
#include "kernels/sort.hpp"

namespace gpusql::kernels {
namespace {

constexpr int kThreads = 256;
constexpr unsigned kFullMask = 0xffffffffu;

unsigned blocks_for(std::size_t items, const DeviceContext& context) {
  return grid_for((items + kThreads - 1) / kThreads, context, 16);
}

// ---- group numbering ----

// A key's (or an argument's) value at position p: loaded as a T straight
// from `column` (a copy in registers) when it is a plain column read at its
// own position, or by the interpreter (T = void). Through evaluate() even a
// plain column ran at a fifth of the bandwidth here: the descriptor loads
// and the interpreter's stack frame stayed in the loop.
template <class T>
__device__ __forceinline__ Slot key_value(const ExprProgram& program, const ColumnPointer& column,
                                          const ColumnSet& columns, uint64_t p, uint32_t& error) {
  if constexpr (std::is_void_v<T>) {
    return evaluate(program, columns, static_cast<int64_t>(p), error);
  } else {
    Slot s;
    const T x = static_cast<const T*>(column.data)[p];
    if constexpr (std::is_floating_point_v<T>) s.d = x;
    else s.i = static_cast<int64_t>(x);
    s.valid = row_is_valid(column.validity, static_cast<int64_t>(p));
    return s;
  }
}

// Calls launch(T*) with the C++ type a column of `type` stores.
template <class Launch>
void with_stored_type(Type type, Launch&& launch) {
  switch (type) {
    case Type::Boolean: return launch(static_cast<uint8_t*>(nullptr));
    case Type::Integer:
    case Type::Date: return launch(static_cast<int32_t*>(nullptr));
    case Type::Varchar: return launch(static_cast<uint32_t*>(nullptr));
    case Type::BigInt:
    case Type::Decimal: return launch(static_cast<int64_t*>(nullptr));
    case Type::Double: return launch(static_cast<double*>(nullptr));
    case Type::Real: return launch(static_cast<float*>(nullptr));
    case Type::HugeInt: break;  // keyed on by its order_parts()
  }
  throw Error(ErrorKind::Invalid, "internal: a 128-bit key column");
}

// Calls launch(T*) with the type key_value() loads `program`'s value as:
// the column's when it is a plain column at its own position, else void.
template <class Launch>
void with_value_type(const ExprProgram& program, const ColumnSet& columns, Launch&& launch) {
  if (program.shape == Shape::Column) {
    const ColumnPointer& c = columns.columns[program.terms[0].slot];
    if (!c.rows && !c.is_rowid) return with_stored_type(c.type, launch);
  }
  launch(static_cast<void*>(nullptr));
}

// The plain column of `program` (for key_value), or none.
ColumnPointer plain_column(const ExprProgram& program, const ColumnSet& columns) {
  return program.shape == Shape::Column ? columns.columns[program.terms[0].slot] : ColumnPointer{};
}

// A key program's value as an insert's key word (kernels/hash_table.cuh):
// one integer key hashed straight from its column or its program, with no
// key words written first (12 bytes a row, read again by the insert).
template <class T>
struct ProgramKey {
  const ExprProgram* program;
  ColumnPointer column;
  const ColumnSet* columns;
  __device__ __forceinline__ bool key(uint64_t p, int64_t& word, uint32_t& error) const {
    const Slot v = key_value<T>(*program, column, *columns, p, error);
    word = v.valid ? v.i : 0;
    return v.valid;
  }
};

// Positions a thread of the key kernels takes per iteration, loads first.
constexpr int kKeyUnroll = 4;

struct KeyRange {
  long long min;
  long long max;
  unsigned int any_null;
  unsigned int any_valid;
};

// One thread's (lo, hi, any_null, any_valid) merged over the block, then
// into *range with one atomic of each per block. Every thread of the block
// calls it.
__device__ __forceinline__ void merge_range(long long lo, long long hi, bool any_null, bool any_valid,
                                            KeyRange* __restrict__ range) {
  __shared__ long long warp_lo[kThreads / 32], warp_hi[kThreads / 32];
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    lo = min(lo, __shfl_xor_sync(kFullMask, lo, offset));
    hi = max(hi, __shfl_xor_sync(kFullMask, hi, offset));
  }
  if (threadIdx.x % 32 == 0) {
    warp_lo[threadIdx.x / 32] = lo;
    warp_hi[threadIdx.x / 32] = hi;
  }
  const int block_null = __syncthreads_or(any_null), block_valid = __syncthreads_or(any_valid);
  if (threadIdx.x == 0) {
    for (int w = 1; w < kThreads / 32; ++w) {
      lo = min(lo, warp_lo[w]);
      hi = max(hi, warp_hi[w]);
    }
    if (block_valid) {
      atomicMin(&range->min, lo);
      atomicMax(&range->max, hi);
      atomicOr(&range->any_valid, 1u);
    }
    if (block_null) atomicOr(&range->any_null, 1u);
  }
}

__global__ void __launch_bounds__(kThreads)
    key_range_kernel(const KeyView keys, int k, KeyRange* __restrict__ range) {
  long long lo = LLONG_MAX, hi = LLONG_MIN;
  bool any_null = false, any_valid = false;
  for (uint64_t p = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < keys.count;
       p += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    if ((keys.nulls[p] >> k) & 1u) {
      any_null = true;
      continue;
    }
    long long v = keys.bits[k * keys.count + p];
    lo = min(lo, v);
    hi = max(hi, v);
    any_valid = true;
  }
  merge_range(lo, hi, any_null, any_valid, range);
}

// The range of an integer key computed by `program`, evaluated at each
// position and not kept: for the dense path, no key words are written.
template <class T>
__global__ void __launch_bounds__(kThreads)
    program_range_kernel(const ExprProgram* __restrict__ d_program, const ColumnPointer column,
                         const ColumnSet* __restrict__ d_columns, uint64_t count, KeyRange* __restrict__ range,
                         uint32_t* __restrict__ error_word) {
  const ExprProgram& program = *d_program;
  const ColumnSet& columns = *d_columns;
  uint32_t error = 0;
  long long lo = LLONG_MAX, hi = LLONG_MIN;
  bool any_null = false, any_valid = false;
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x * kKeyUnroll;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x * kKeyUnroll + threadIdx.x; base < count;
       base += step) {
    Slot v[kKeyUnroll];
    bool in[kKeyUnroll];
    int64_t position[kKeyUnroll];
#pragma unroll
    for (int j = 0; j < kKeyUnroll; ++j) {
      const uint64_t p = base + static_cast<uint64_t>(j) * blockDim.x;
      in[j] = p < count;
      position[j] = in[j] ? static_cast<int64_t>(p) : 0;
      if constexpr (!std::is_void_v<T>) {
        if (in[j]) v[j] = key_value<T>(program, column, columns, p, error);
      }
    }
    if constexpr (std::is_void_v<T>) evaluate_rows<kKeyUnroll>(program, columns, position, v, error);
#pragma unroll
    for (int j = 0; j < kKeyUnroll; ++j) {
      if (!in[j]) continue;
      if (!v[j].valid) {
        any_null = true;
        continue;
      }
      lo = min(lo, static_cast<long long>(v[j].i));
      hi = max(hi, static_cast<long long>(v[j].i));
      any_valid = true;
    }
  }
  if (error) atomicOr(error_word, error);
  merge_range(lo, hi, any_null, any_valid, range);
}

// Slot of each position in the dense array; the lowest position per slot.
__global__ void __launch_bounds__(kThreads)
    dense_slot_kernel(const KeyView keys, const DenseLayout layout, uint32_t* __restrict__ row_slot,
                      uint32_t* __restrict__ first) {
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x; base < keys.count; base += stride) {
    const uint64_t p = base + threadIdx.x;
    uint32_t slot = kEmptySlot;
    if (p < keys.count) {
      uint64_t s = 0;
      const uint32_t nulls = keys.nulls[p];
      for (int k = 0; k < keys.key_count; ++k) {
        uint64_t digit = ((nulls >> k) & 1u) ? layout.span[k]
                                             : static_cast<uint64_t>(keys.bits[k * keys.count + p]) -
                                                   static_cast<uint64_t>(layout.min[k]);
        s += digit * layout.stride[k];
      }
      slot = static_cast<uint32_t>(s);
      row_slot[p] = slot;
    }
    warp_min_position(first, slot, static_cast<uint32_t>(p));
  }
}

// The slot of each position, its keys evaluated from their programs
// (`key_count` consecutive ones). PLAIN: one key, a plain column. `used`
// (when not null) gets 1 at every used slot: read first, so a slot many
// rows share is written about once a cache line's life.
template <class T>
__global__ void __launch_bounds__(kThreads)
    program_slot_kernel(const ExprProgram* __restrict__ programs, int key_count, const ColumnPointer column,
                        const ColumnSet* __restrict__ d_columns, const DenseLayout layout, uint64_t count,
                        uint32_t* __restrict__ row_slot, uint32_t* __restrict__ used,
                        uint32_t* __restrict__ error_word) {
  const ColumnSet& columns = *d_columns;
  uint32_t error = 0;
  constexpr bool kPlain = !std::is_void_v<T>;
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x * kKeyUnroll;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x * kKeyUnroll; base < count; base += step) {
    uint64_t s[kKeyUnroll] = {};
    auto add_digit = [&](int j, int k, const Slot& v) {
      const uint64_t digit = v.valid ? static_cast<uint64_t>(v.i) - static_cast<uint64_t>(layout.min[k]) : layout.span[k];
      s[j] += digit * layout.stride[k];
    };
    if constexpr (kPlain) {
#pragma unroll
      for (int j = 0; j < kKeyUnroll; ++j) {
        const uint64_t p = base + static_cast<uint64_t>(j) * blockDim.x + threadIdx.x;
        if (p < count) add_digit(j, 0, key_value<T>(programs[0], column, columns, p, error));
      }
    } else {
      // Each key at the thread's kKeyUnroll positions at once (a position
      // past the end evaluated at 0, and not stored).
      int64_t position[kKeyUnroll];
#pragma unroll
      for (int j = 0; j < kKeyUnroll; ++j) {
        const uint64_t p = base + static_cast<uint64_t>(j) * blockDim.x + threadIdx.x;
        position[j] = p < count ? static_cast<int64_t>(p) : 0;
      }
      for (int k = 0; k < key_count; ++k) {
        Slot v[kKeyUnroll];
        evaluate_rows<kKeyUnroll>(programs[k], columns, position, v, error);
#pragma unroll
        for (int j = 0; j < kKeyUnroll; ++j) add_digit(j, k, v[j]);
      }
    }
#pragma unroll
    for (int j = 0; j < kKeyUnroll; ++j) {
      const uint64_t p = base + static_cast<uint64_t>(j) * blockDim.x + threadIdx.x;
      if (p >= count) continue;
      const uint32_t slot = static_cast<uint32_t>(s[j]);
      row_slot[p] = slot;
      if (used && !used[slot]) used[slot] = 1;
    }
  }
  if (error) atomicOr(error_word, error);
}

// After an exclusive scan of the used marks (slots + 1 entries), rank[s] is
// the number of used slots below s; slot s is used when rank[s + 1] > rank[s].
__global__ void __launch_bounds__(kThreads)
    ranked_group_slots_kernel(const uint32_t* __restrict__ rank, uint64_t slots, uint32_t* __restrict__ group_slot) {
  for (uint64_t s = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; s < slots;
       s += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    if (rank[s + 1] > rank[s]) group_slot[rank[s]] = static_cast<uint32_t>(s);
}

// Key `key` of each group, decoded from its slot, stored as `type`; the
// validity by warp ballot (grid and block sizes are multiples of 32).
__global__ void __launch_bounds__(kThreads)
    group_keys_kernel(const uint32_t* __restrict__ group_slot, uint64_t groups, const DenseLayout layout, int key,
                      Type type, void* __restrict__ out, uint32_t* __restrict__ validity) {
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x; base < groups; base += stride) {
    const uint64_t g = base + threadIdx.x;
    bool valid = false;
    if (g < groups) {
      const uint64_t digit = (group_slot[g] / layout.stride[key]) % layout.digits[key];
      Slot v{};
      valid = digit != layout.span[key];
      v.valid = valid;
      v.i = valid ? static_cast<int64_t>(static_cast<uint64_t>(layout.min[key]) + digit) : 0;
      store_value(out, type, static_cast<int64_t>(g), v);
    }
    const uint32_t bits = __ballot_sync(kFullMask, valid);
    if (threadIdx.x % 32 == 0 && g < groups) validity[g / 32] = bits;
  }
}

// 1 for each used slot of a keyed table (capacity words) and for its two
// reserved slots, then a 0: `capacity + 3` marks to rank by a scan.
__global__ void __launch_bounds__(kThreads)
    table_marks_kernel(const unsigned long long* __restrict__ table, uint64_t capacity, uint32_t* __restrict__ marks) {
  for (uint64_t s = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; s < capacity + 3;
       s += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    marks[s] = s < capacity ? table[s] != 0 : s < capacity + 2;
}

// group_keys_kernel() for hashed groups: the key word read from the keyed
// table (stored with its top bit flipped), or a reserved slot's. rank_slot:
// the groups' "slots" are ranks of table slots (Groups::rank_slot).
__global__ void __launch_bounds__(kThreads)
    hashed_keys_kernel(const uint32_t* __restrict__ group_slot, const uint32_t* __restrict__ rank_slot,
                       uint64_t groups, const unsigned long long* __restrict__ table, uint64_t capacity, Type type,
                       void* __restrict__ out, uint32_t* __restrict__ validity) {
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x; base < groups; base += stride) {
    const uint64_t g = base + threadIdx.x;
    bool valid = false;
    if (g < groups) {
      const uint64_t slot = rank_slot ? rank_slot[group_slot[g]] : group_slot[g];
      Slot v{};
      valid = slot <= capacity;  // capacity: kKeySentinel's slot; capacity + 1: NULL's
      v.valid = valid;
      if (slot < capacity) v.i = slot_word(table[slot]);
      else if (slot == capacity) v.i = kKeySentinel;
      store_value(out, type, static_cast<int64_t>(g), v);
    }
    const uint32_t bits = __ballot_sync(kFullMask, valid);
    if (threadIdx.x % 32 == 0 && g < groups) validity[g / 32] = bits;
  }
}

// Compacts the used slots as (lowest position, slot) pairs, in no
// particular order (a sort by position follows): one atomic per warp.
__global__ void __launch_bounds__(kThreads)
    used_slots_kernel(const uint32_t* __restrict__ first, uint64_t slots, uint32_t* __restrict__ out_first,
                      uint32_t* __restrict__ out_slot, unsigned int* __restrict__ counter) {
  const int lane = threadIdx.x % 32;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x; base < slots; base += stride) {
    const uint64_t s = base + threadIdx.x;
    const uint32_t f = s < slots ? first[s] : kEmptySlot;
    const bool used = f != kEmptySlot;
    const unsigned ballot = __ballot_sync(kFullMask, used);
    if (ballot == 0) continue;
    const int leader = __ffs(ballot) - 1;
    unsigned int at = 0;
    if (lane == leader) at = atomicAdd(counter, static_cast<unsigned int>(__popc(ballot)));
    at = __shfl_sync(kFullMask, at, leader);
    if (used) {
      const unsigned int i = at + __popc(ballot & ((1u << lane) - 1u));
      out_first[i] = f;
      out_slot[i] = static_cast<uint32_t>(s);
    }
  }
}

__global__ void __launch_bounds__(kThreads)
    scatter_groups_kernel(const uint32_t* __restrict__ group_slot, uint64_t groups, uint32_t* __restrict__ slot_group) {
  for (uint64_t g = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; g < groups;
       g += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    slot_group[group_slot[g]] = static_cast<uint32_t>(g);
}

__global__ void __launch_bounds__(kThreads)
    row_groups_kernel(const uint32_t* __restrict__ row_slot, const uint32_t* __restrict__ slot_group, uint64_t count,
                      uint32_t* __restrict__ row_group) {
  for (uint64_t p = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < count;
       p += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    row_group[p] = slot_group[row_slot[p]];
}

// ---- per-group reduction ----

// start[g] = the first index of group g in the group-sorted order; start[groups] = count.
__global__ void __launch_bounds__(kThreads)
    group_starts_kernel(const uint32_t* __restrict__ sorted_groups, uint64_t count, uint64_t groups,
                        uint64_t* __restrict__ start) {
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    if (i == 0 || sorted_groups[i] != sorted_groups[i - 1]) start[sorted_groups[i]] = i;
    if (i == count - 1) start[groups] = count;
  }
}

// tasks[g] = chunks of group g's sequence (start[g+1] - start[g] items); tasks[groups] = 0.
__global__ void __launch_bounds__(kThreads)
    chunk_counts_kernel(const uint64_t* __restrict__ start, uint64_t groups, uint64_t* __restrict__ tasks) {
  for (uint64_t g = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; g <= groups;
       g += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    tasks[g] = g == groups ? 0 : (start[g + 1] - start[g] + kReduceChunk - 1) / kReduceChunk;
}

__global__ void __launch_bounds__(kThreads)
    task_groups_kernel(const uint64_t* __restrict__ task_start, uint64_t groups, uint32_t* __restrict__ task_group) {
  for (uint64_t g = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; g < groups;
       g += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    for (uint64_t t = task_start[g]; t < task_start[g + 1]; ++t) task_group[t] = static_cast<uint32_t>(g);
}

// One aggregate's items in group order (item i of the group-sorted order is
// the value folded there), read contiguously by the reduce kernels: either
// the argument's column sorted along with the group ids, or the argument
// evaluated at the group-sorted positions by materialize_kernel.
struct Leaves {
  const void* values = nullptr;         // of `type`; null for COUNT(*)
  Type type = Type::BigInt;
  const uint8_t* valid = nullptr;       // null: every value is valid
  const uint32_t* positions = nullptr;  // the items' positions, for ARG_MIN/ARG_MAX; else null
};

// agg_fold_value() of item i into s. T: the values' C++ type, so the load
// is one instruction the compiler can issue early; void: by leaves.type.
template <class T = void>
__device__ __forceinline__ void fold_leaf(AggKind kind, Cls cls, const Leaves& leaves, uint64_t i, AggState& s,
                                          uint32_t& error) {
  Slot v;
  v.i = 0;
  v.valid = true;
  if (kind != AggKind::CountStar) {
    if constexpr (std::is_void_v<T>) {
      v = load_raw(leaves.values, leaves.type, static_cast<int64_t>(i));
    } else {
      const T x = static_cast<const T*>(leaves.values)[i];
      if constexpr (std::is_floating_point_v<T>) v.d = x;
      else v.i = static_cast<int64_t>(x);
    }
    if (leaves.valid) v.valid = leaves.valid[i] != 0;
  }
  agg_fold_value(kind, cls, s, v, error, leaves.positions ? static_cast<int64_t>(leaves.positions[i]) : -1);
}

// Calls launch(T*) with the C++ type of the leaves' values (void for none).
template <class Launch>
void with_leaf_type(const Leaves& leaves, Launch&& launch) {
  if (leaves.values) return with_stored_type(leaves.type, launch);
  launch(static_cast<void*>(nullptr));
}

// Items first, first + 256, ..., first + 7 * 256 (a canonical thread's
// items of a full chunk), all loads issued before any is used.
template <class T>
__device__ __forceinline__ void load_strided(const void* values, uint64_t first, Slot (&v)[kReduceItems]) {
  const T* p = static_cast<const T*>(values) + first;
  T x[kReduceItems];
#pragma unroll
  for (int k = 0; k < kReduceItems; ++k) x[k] = p[k * kReduceThreads];
#pragma unroll
  for (int k = 0; k < kReduceItems; ++k) {
    if constexpr (std::is_floating_point_v<T>) v[k].d = x[k];
    else v[k].i = static_cast<int64_t>(x[k]);
    v[k].valid = true;
  }
}

__device__ __forceinline__ void load_chunk_values(const Leaves& leaves, uint64_t first, Slot (&v)[kReduceItems]) {
  with_storage_type(leaves.type,
                    [&](auto* tag) { load_strided<std::remove_pointer_t<decltype(tag)>>(leaves.values, first, v); });
}

// The argument at each group-sorted position: its bits (int64, or a
// double's) and whether it is valid. Nothing but loads and stores, at full
// occupancy, so the scattered reads of the positions overlap.
template <class T>
__global__ void __launch_bounds__(kThreads)
    materialize_kernel(const ExprProgram* __restrict__ d_program, const ColumnPointer column,
                       const ColumnSet* __restrict__ d_columns, const uint32_t* __restrict__ positions, uint64_t count,
                       int64_t* __restrict__ values, uint8_t* __restrict__ valid, uint32_t* __restrict__ error_word) {
  const ExprProgram& program = *d_program;
  const ColumnSet& columns = *d_columns;
  uint32_t error = 0;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    const Slot v = key_value<T>(program, column, columns, positions[i], error);
    values[i] = v.valid ? v.i : 0;
    valid[i] = v.valid;
  }
  if (error) atomicOr(error_word, error);
}

__device__ __forceinline__ AggState shuffle_state(const AggState& s, int source, bool down) {
  AggState r;
  if (down) {
    r.i = __shfl_down_sync(kFullMask, s.i, source);
    r.d = __shfl_down_sync(kFullMask, s.d, source);
    r.count = __shfl_down_sync(kFullMask, s.count, source);
    r.position = __shfl_down_sync(kFullMask, s.position, source);
  } else {
    r.i = __shfl_sync(kFullMask, s.i, source);
    r.d = __shfl_sync(kFullMask, s.d, source);
    r.count = __shfl_sync(kFullMask, s.count, source);
    r.position = __shfl_sync(kFullMask, s.position, source);
  }
  return r;
}

// warp_tree_host(): lane i combines with lane i + offset. Only the lanes
// whose result is read again compute, so no other lane can raise a spurious
// overflow; the result is in lane 0.
__device__ __forceinline__ AggState warp_tree(AggKind kind, Cls cls, AggState s, uint32_t& error) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int offset = kWarp / 2; offset > 0; offset /= 2) {
    AggState other = shuffle_state(s, offset, true);
    if (lane < offset) s = agg_combine(kind, cls, s, other, error);
  }
  return s;
}

// ---- tasks of at most 256 items: one thread each ----
//
// Such a task's items are one per virtual thread of the canonical block
// (item l is thread l's only one; past the items, threads are empty), so
// its result is block_tree_host()'s: each virtual warp w's tree over its 32
// leaves, then the tree over the 8 warp states. A warp's tree is F(0, 1),
// where F(l, 32) is leaf l (item w*32 + l folded into an empty state, or
// the previous level's state; empty past the items) and F(l, m) =
// combine(F(l, 2m), F(l + m, 2m)). Depth first, that tree meets its leaves
// in bit-reversed order, so one thread computes it with a stack of six
// states merged as a binary counter; unrolled, every stack index is a
// constant and the stack stays in registers. The tree over the warp states
// has the same shape, 8 leaves deep; it is walked the same way with the
// virtual warps in bit-reversed order (0, 4, 2, 6, 1, 5, 3, 7), a loop
// rather than unrolled so the 32-leaf body is compiled once. An empty state
// is combine()'s identity, so warps past the items are skipped.
//
// Tasks of 10^7 groups (~13 rows each) and 10^6 groups (~134) were a warp
// each: mostly idle lanes, or five trees of shuffles a task.

constexpr int bit_reversed5(int j) {
  return ((j & 1) << 4) | ((j & 2) << 2) | (j & 4) | ((j & 8) >> 2) | ((j & 16) >> 4);
}
constexpr int ones_in(int j) { return j == 0 ? 0 : (j & 1) + ones_in(j >> 1); }
constexpr int trailing_ones(int j) { return (j & 1) ? 1 + trailing_ones(j >> 1) : 0; }

// Leaf J of the tree (J in depth-first order), then the merges it completes.
template <int J, class Leaf>
__device__ __forceinline__ void small_tree_step(AggKind kind, Cls cls, AggState (&stack)[6], const Leaf& leaf,
                                                uint32_t& error) {
  if constexpr (J < kWarp) {
    constexpr int depth = ones_in(J);  // subtrees on the stack before this leaf
    stack[depth] = leaf(bit_reversed5(J));
#pragma unroll
    for (int m = 0; m < trailing_ones(J); ++m)
      stack[depth - m - 1] = agg_combine(kind, cls, stack[depth - m - 1], stack[depth - m], error);
    small_tree_step<J + 1>(kind, cls, stack, leaf, error);
  }
}

// Where task t's items are: [begin, begin + items) of its level's order.
__device__ __forceinline__ void task_items(const uint64_t* item_start, const uint64_t* task_start,
                                           const uint32_t* task_group, uint64_t t, uint64_t& begin, int& items) {
  // No task table: task t is all of group t (at most kReduceChunk items).
  const uint32_t g = task_group ? task_group[t] : static_cast<uint32_t>(t);
  const uint64_t first_task = task_group ? task_start[g] : t;
  begin = item_start[g] + (t - first_task) * kReduceChunk;
  const uint64_t end = min(item_start[g + 1], begin + kReduceChunk);
  items = static_cast<int>(end - begin);
}

// The canonical block's tree over leaf(0..items), items <= 256 (see above).
template <class Leaf>
__device__ __forceinline__ AggState block_tree_of_leaves(AggKind kind, Cls cls, int items, const Leaf& leaf,
                                                         uint32_t& error) {
  constexpr int kWarps = kReduceThreads / kWarp;
  static_assert(kWarps == 8, "the walk over warp states below is 3 levels deep");
  AggState level1{}, level2{}, level3{};  // the outer tree's stack
#pragma unroll 1
  for (int j = 0; j < kWarps; ++j) {
    const int w = ((j & 1) << 2) | (j & 2) | ((j & 4) >> 2);  // j bit-reversed
    AggState warp{};
    if (w * kWarp < items) {
      AggState stack[6];
      small_tree_step<0>(kind, cls, stack, [&](int l) { return leaf(w * kWarp + l); }, error);
      warp = stack[0];
    }
    // Binary counter over j: push, then merge each completed pair.
    if ((j & 1) == 0) {
      (j == 0 ? level1 : j == 6 ? level3 : level2) = warp;
    } else if (j == 1) {
      level1 = agg_combine(kind, cls, level1, warp, error);
    } else if (j == 3 || j == 5) {
      level2 = agg_combine(kind, cls, level2, warp, error);
      if (j == 3) level1 = agg_combine(kind, cls, level1, level2, error);
    } else {  // j == 7
      level3 = agg_combine(kind, cls, level3, warp, error);
      level2 = agg_combine(kind, cls, level2, level3, error);
      level1 = agg_combine(kind, cls, level1, level2, error);
    }
  }
  return level1;
}

// Lists task t (when `listed`) in list/*count, one atomic per warp; every
// lane of the warp calls it.
__device__ __forceinline__ void list_tasks(bool listed, uint64_t t, uint32_t* list, unsigned* count) {
  const int lane = threadIdx.x % kWarp;
  const unsigned lanes = __ballot_sync(kFullMask, listed);
  if (!lanes) return;
  unsigned first = 0;
  if (lane == 0) first = atomicAdd(count, static_cast<unsigned>(__popc(lanes)));
  first = __shfl_sync(kFullMask, first, 0);
  if (listed) list[first + __popc(lanes & ((1u << lane) - 1))] = static_cast<uint32_t>(t);
}

// Task t's leaf l: item l folded into an empty state (FOLD, values of type
// T), or the previous level's state; empty past the items.
template <bool FOLD, class T>
struct TaskLeaf {
  AggKind kind;
  Cls cls;
  const Leaves& leaves;
  const AggState* in_states;
  uint64_t begin;
  int items;
  uint32_t& error;
  __device__ __forceinline__ AggState operator()(int l) const {
    AggState s{};
    if (l >= items) return s;
    if constexpr (FOLD) fold_leaf<T>(kind, cls, leaves, begin + l, s, error);
    else s = in_states[begin + l];
    return s;
  }
};

// The aggregate's kind and class fixed at compile time (OP = op_code(...)),
// or taken from the kernel's arguments (OP = kRuntimeOp). Fixed, the
// switches of agg_fold_value() and agg_combine() fold away and the state's
// unused fields stay constants through the unrolled trees.
constexpr int kRuntimeOp = -1;
constexpr int op_code(AggKind kind, Cls cls) { return static_cast<int>(kind) * 2 + (cls == Cls::Double ? 1 : 0); }
template <int OP>
__device__ __forceinline__ AggKind op_kind(AggKind runtime) {
  return OP == kRuntimeOp ? runtime : static_cast<AggKind>(OP / 2);
}
template <int OP>
__device__ __forceinline__ Cls op_cls(Cls runtime) {
  return OP == kRuntimeOp ? runtime : (OP % 2 ? Cls::Double : Cls::Int);
}

// Thread per task: tasks of at most 32 items are reduced here, by their one
// virtual warp's tree; the others are listed in `listed` (count in
// *listed_count) for reduce_medium_tasks_kernel. Kept apart from that
// kernel: without the outer tree's states it needs 76 registers, not 116,
// and with one kernel for both, 10^7 groups of ~13 rows went 7.8 -> 8.3 ms.
template <bool FOLD, class T, int OP>
__global__ void __launch_bounds__(kThreads)
    reduce_small_tasks_kernel(AggKind runtime_kind, Cls runtime_cls, const Leaves leaves, const AggState* __restrict__ in_states,
                              const uint64_t* __restrict__ item_start, const uint64_t* __restrict__ task_start,
                              const uint32_t* __restrict__ task_group, uint64_t tasks, AggState* __restrict__ out,
                              uint32_t* __restrict__ listed, unsigned* __restrict__ listed_count,
                              uint32_t* __restrict__ error_word) {
  const AggKind kind = op_kind<OP>(runtime_kind);
  const Cls cls = op_cls<OP>(runtime_cls);
  uint32_t error = 0;
  const int lane = threadIdx.x % kWarp;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  // Whole warps run the loop (list_tasks needs every lane).
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x - lane; base < tasks;
       base += stride) {
    const uint64_t t = base + lane;
    uint64_t begin = 0;
    int items = 0;
    if (t < tasks) task_items(item_start, task_start, task_group, t, begin, items);
    const bool larger = t < tasks && items > kWarp;
    list_tasks(larger, t, listed, listed_count);
    if (t >= tasks || larger) continue;
    AggState stack[6];
    small_tree_step<0>(kind, cls, stack, TaskLeaf<FOLD, T>{kind, cls, leaves, in_states, begin, items, error}, error);
    out[t] = stack[0];
  }
  if (error) atomicOr(error_word, error);
}

// Thread per task again, for the tasks reduce_small_tasks_kernel listed:
// those of at most 256 items, by block_tree_of_leaves(); the others are
// listed in `large` (count in *large_count) for reduce_groups_kernel.
template <bool FOLD, class T, int OP>
__global__ void __launch_bounds__(kThreads)
    reduce_medium_tasks_kernel(AggKind runtime_kind, Cls runtime_cls, const Leaves leaves, const AggState* __restrict__ in_states,
                               const uint64_t* __restrict__ item_start, const uint64_t* __restrict__ task_start,
                               const uint32_t* __restrict__ task_group, AggState* __restrict__ out,
                               const uint32_t* __restrict__ listed, const unsigned* __restrict__ listed_count,
                               uint32_t* __restrict__ large, unsigned* __restrict__ large_count,
                               uint32_t* __restrict__ error_word) {
  const AggKind kind = op_kind<OP>(runtime_kind);
  const Cls cls = op_cls<OP>(runtime_cls);
  uint32_t error = 0;
  const int lane = threadIdx.x % kWarp;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  const uint64_t tasks = *listed_count;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x - lane; base < tasks;
       base += stride) {
    const uint64_t i = base + lane;
    const uint64_t t = i < tasks ? listed[i] : 0;
    uint64_t begin = 0;
    int items = 0;
    if (i < tasks) task_items(item_start, task_start, task_group, t, begin, items);
    const bool larger = i < tasks && items > kReduceThreads;
    list_tasks(larger, t, large, large_count);
    if (i >= tasks || larger) continue;
    out[t] = block_tree_of_leaves(kind, cls, items, TaskLeaf<FOLD, T>{kind, cls, leaves, in_states, begin, items, error},
                                  error);
  }
  if (error) atomicOr(error_word, error);
}

// One warp per task of more than 256 items (listed by
// reduce_medium_tasks_kernel): a chunk of a group's sequence, reduced as the
// canonical 256-thread block would -- the warp plays the block's warps
// 0..7 in turn (virtual thread w*32 + lane folds items k*256 + w*32 + lane
// for k = 0..7), lane w keeps warp w's state, and the 8 states meet in the
// same tree as block_tree_host(). FOLD: items are leaves, folded; otherwise
// the previous level's states, combined.
template <bool FOLD>
__global__ void __launch_bounds__(kThreads)
    reduce_groups_kernel(AggKind kind, Cls cls, const Leaves leaves, const AggState* __restrict__ in_states,
                         const uint64_t* __restrict__ item_start, const uint64_t* __restrict__ task_start,
                         const uint32_t* __restrict__ task_group, AggState* __restrict__ out,
                         const uint32_t* __restrict__ large, const unsigned* __restrict__ large_count,
                         uint32_t* __restrict__ error_word) {
  uint32_t error = 0;
  const int lane = threadIdx.x % 32;
  const uint64_t warps = static_cast<uint64_t>(gridDim.x) * (blockDim.x / 32);
  const uint64_t listed = *large_count;
  for (uint64_t i = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; i < listed; i += warps) {
    const uint64_t t = large[i];
    uint64_t begin = 0;
    int items = 0;
    task_items(item_start, task_start, task_group, t, begin, items);
    AggState mine{};
    for (int w = 0; w < kReduceThreads / kWarp; ++w) {
      if (w * kWarp >= items) break;  // the remaining virtual warps are empty
      AggState s{};
      if constexpr (FOLD) {
        if (items == kReduceChunk && kind != AggKind::CountStar) {
          // A full chunk: the lane's 8 values loaded at once, then folded in order.
          Slot v[kReduceItems];
          load_chunk_values(leaves, begin + w * kWarp + lane, v);
#pragma unroll
          for (int k = 0; k < kReduceItems; ++k) {
            const uint64_t i = begin + k * kReduceThreads + w * kWarp + lane;
            if (leaves.valid) v[k].valid = leaves.valid[i] != 0;
            agg_fold_value(kind, cls, s, v[k], error,
                           leaves.positions ? static_cast<int64_t>(leaves.positions[i]) : -1);
          }
        } else {
#pragma unroll
          for (int k = 0; k < kReduceItems; ++k) {
            const int item = k * kReduceThreads + w * kWarp + lane;
            if (item >= items) break;
            fold_leaf(kind, cls, leaves, begin + item, s, error);
          }
        }
      } else {
#pragma unroll
        for (int k = 0; k < kReduceItems; ++k) {
          const int item = k * kReduceThreads + w * kWarp + lane;
          if (item >= items) break;
          s = agg_combine(kind, cls, s, in_states[begin + item], error);
        }
      }
      const AggState total = shuffle_state(warp_tree(kind, cls, s, error), 0, false);
      if (lane == w) mine = total;
    }
    const AggState total = warp_tree(kind, cls, mine, error);
    if (lane == 0) out[t] = total;
  }
  if (error) atomicOr(error_word, error);
}

// One level of the reduction: the tasks of up to 256 items by a thread
// each (two kernels, by size), then the larger ones by a warp each. `lists`
// has room for 2 * tasks entries, `counts` for 2.
template <bool FOLD>
void launch_reduce_groups(AggKind kind, Cls cls, const Leaves& leaves, const AggState* in_states,
                          const uint64_t* item_start, const uint64_t* task_start, const uint32_t* task_group,
                          uint64_t tasks, AggState* out, uint32_t* lists, unsigned* counts, uint32_t* error,
                          DeviceContext& context) {
  const unsigned small_grid = grid_for((tasks + kThreads - 1) / kThreads, context, 8);
  const unsigned warp_grid = grid_for((tasks * kWarp + kThreads - 1) / kThreads, context, 8);
  cudaStream_t stream = context.stream();
  uint32_t *listed = lists, *large = lists + tasks;
  unsigned *listed_count = counts, *large_count = counts + 1;
  GPUSQL_CUDA_TRY(cudaMemsetAsync(counts, 0, 2 * sizeof(unsigned), stream));
  auto launch_op = [&](auto* tag, auto op) {
    using T = std::remove_pointer_t<decltype(tag)>;
    constexpr int OP = decltype(op)::value;
    reduce_small_tasks_kernel<FOLD, T, OP><<<small_grid, kThreads, 0, stream>>>(
        kind, cls, leaves, in_states, item_start, task_start, task_group, tasks, out, listed, listed_count, error);
    GPUSQL_CHECK_LAUNCH();
    reduce_medium_tasks_kernel<FOLD, T, OP><<<small_grid, kThreads, 0, stream>>>(
        kind, cls, leaves, in_states, item_start, task_start, task_group, out, listed, listed_count, large,
        large_count, error);
    GPUSQL_CHECK_LAUNCH();
  };
  // SUM, MIN, MAX and AVG of DOUBLE values get kernels of their own (the
  // switches cost the runtime form most of its time); the rest share one.
  auto launch_threads = [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    if constexpr (FOLD && std::is_same_v<T, double>) {
      if (cls == Cls::Double) {
        switch (kind) {
          case AggKind::Sum: return launch_op(tag, std::integral_constant<int, op_code(AggKind::Sum, Cls::Double)>{});
          case AggKind::Min: return launch_op(tag, std::integral_constant<int, op_code(AggKind::Min, Cls::Double)>{});
          case AggKind::Max: return launch_op(tag, std::integral_constant<int, op_code(AggKind::Max, Cls::Double)>{});
          case AggKind::Avg: return launch_op(tag, std::integral_constant<int, op_code(AggKind::Avg, Cls::Double)>{});
          default: break;
        }
      }
    }
    launch_op(tag, std::integral_constant<int, kRuntimeOp>{});
  };
  if constexpr (FOLD) with_leaf_type(leaves, launch_threads);
  else launch_threads(static_cast<void*>(nullptr));
  reduce_groups_kernel<FOLD><<<warp_grid, kThreads, 0, stream>>>(kind, cls, leaves, in_states, item_start, task_start,
                                                                 task_group, out, large, large_count, error);
  GPUSQL_CHECK_LAUNCH();
}


// The column every aggregate with an argument reads, when that argument is
// the plain column -- no NULLs, read at its own position, 4 or 8 bytes a
// value -- and no aggregate needs positions (ARG_MIN/ARG_MAX): its values
// can then be sorted along with the group ids, and no position is needed.
const ColumnPointer* shared_plain_column(const std::vector<AggSpec>& specs, const ColumnSet& columns) {
  const ColumnPointer* found = nullptr;
  for (const AggSpec& spec : specs) {
    if (spec.kind == AggKind::ArgMin || spec.kind == AggKind::ArgMax) return nullptr;
    if (spec.kind == AggKind::CountStar) continue;
    if (spec.arg.length != 1 || spec.arg.code[0].op != Op::Column) return nullptr;
    const ColumnPointer& c = columns.columns[spec.arg.code[0].slot];
    if (c.validity || c.rows || c.is_rowid || c.side != 0 || c.type == Type::Boolean) return nullptr;
    if (found && found != &c) return nullptr;
    found = &c;
  }
  return found;
}

int value_bytes(Type type) {
  switch (type) {
    case Type::Integer:
    case Type::Date:
    case Type::Varchar:
    case Type::Real: return 4;
    default: return 8;
  }
}

// ---- COUNT(DISTINCT) ----

// Keys (group, value word); positions the predicate rejects or with a NULL
// value are flagged NULL, which the table skips.
__global__ void __launch_bounds__(kThreads)
    distinct_keys_kernel(const ExprProgram* __restrict__ d_predicate, const ExprProgram* __restrict__ d_arg, Cls cls,
                         const ColumnSet* __restrict__ d_columns, const uint32_t* __restrict__ row_group,
                         uint64_t count, int64_t* __restrict__ bits, uint32_t* __restrict__ nulls,
                         uint32_t* __restrict__ error_word) {
  const ExprProgram& predicate = *d_predicate;
  const ExprProgram& arg = *d_arg;
  const ColumnSet& columns = *d_columns;
  uint32_t error = 0;
  for (uint64_t p = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < count;
       p += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    Slot v{};
    v.valid = false;
    if (evaluate_predicate(predicate, columns, static_cast<int64_t>(p), error))
      v = evaluate(arg, columns, static_cast<int64_t>(p), error);
    bits[p] = row_group ? row_group[p] : 0;
    bits[count + p] = !v.valid ? 0 : cls == Cls::Int ? v.i : __double_as_longlong(v.d == 0.0 ? 0.0 : v.d);
    nulls[p] = v.valid ? 0u : 1u;
  }
  if (error) atomicOr(error_word, error);
}

// Each slot's owner (the position stored in it) counts its pair once; the
// owners of one group in a warp add their count with one atomic.
__global__ void __launch_bounds__(kThreads)
    count_owners_kernel(const uint32_t* __restrict__ table, uint64_t capacity, const uint32_t* __restrict__ row_slot,
                        const uint32_t* __restrict__ row_group, uint64_t count,
                        unsigned long long* __restrict__ distinct) {
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x; base < count; base += stride) {
    const uint64_t p = base + threadIdx.x;
    uint32_t group = kEmptySlot;  // none: not an owner
    if (p < count) {
      const uint32_t slot = row_slot[p];
      if (slot < capacity && table[slot] == p) group = row_group ? row_group[p] : 0;
    }
    const unsigned peers = __match_any_sync(kFullMask, group);
    if (group != kEmptySlot && static_cast<int>(threadIdx.x % 32) == __ffs(peers) - 1)
      atomicAdd(&distinct[group], static_cast<unsigned long long>(__popc(peers)));
  }
}

__global__ void __launch_bounds__(kThreads)
    set_counts_kernel(const unsigned long long* __restrict__ distinct, uint64_t groups, AggState* __restrict__ states) {
  for (uint64_t g = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; g < groups;
       g += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    states[g].count = distinct[g];
}

// ---- final values ----

__global__ void __launch_bounds__(kThreads)
    finalize_kernel(const AggregateOutput output, const AggState* __restrict__ states, uint64_t groups,
                    void* __restrict__ out, uint32_t* __restrict__ validity, uint32_t* __restrict__ positions,
                    uint32_t* __restrict__ error_word) {
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  uint32_t error = 0;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x; base < groups; base += stride) {
    const uint64_t g = base + threadIdx.x;
    bool valid = false;
    if (g < groups) {
      const AggState s = states[g];
      if (output.kind == AggKind::ArgMin || output.kind == AggKind::ArgMax) {
        valid = s.count > 0;
        positions[g] = valid ? static_cast<uint32_t>(s.position) : 0u;
      } else {
        int64_t high = 0;
        const Slot value =
            final_value(output.kind, output.double_argument, output.decimal_scale, output.type, s, error, high,
                        output.narrow_decimal);
        store_value(out, output.type, static_cast<int64_t>(g), value, high);
        valid = value.valid;
      }
    }
    const uint32_t bits = __ballot_sync(kFullMask, valid);
    if (threadIdx.x % 32 == 0 && g < groups) validity[g / 32] = bits;
  }
  if (error) atomicOr(error_word, error);
}

__global__ void __launch_bounds__(kThreads)
    and_validity_kernel(uint32_t* __restrict__ validity, const uint32_t* __restrict__ mask, uint64_t words) {
  for (uint64_t w = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; w < words;
       w += static_cast<uint64_t>(gridDim.x) * blockDim.x)
    validity[w] &= mask[w];
}

// Whether the dense array fits: the product of the keys' digit counts, each
// the span of its valid values plus one for NULL where there is one.
bool dense_layout(const std::vector<KeyRange>& ranges, std::size_t rows, DenseLayout& layout, uint64_t& slots) {
  const unsigned __int128 limit = std::min<uint64_t>(uint64_t{1} << 31, std::max<uint64_t>(uint64_t{1} << 16, 2 * rows));
  unsigned __int128 product = 1;
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    const KeyRange& r = ranges[k];
    unsigned __int128 span = r.any_valid ? static_cast<unsigned __int128>(static_cast<__int128>(r.max) - r.min + 1) : 0;
    unsigned __int128 digits = span + (r.any_null ? 1 : 0);
    product *= digits;
    if (product > limit) return false;
    layout.min[k] = r.any_valid ? r.min : 0;
    layout.span[k] = static_cast<uint64_t>(span);
    layout.digits[k] = static_cast<uint64_t>(digits);
  }
  // Key 0 the most significant digit: slot order is key order.
  uint64_t stride = 1;
  for (std::size_t k = ranges.size(); k-- > 0;) {
    layout.stride[k] = stride;
    stride *= layout.digits[k];
  }
  layout.key_count = static_cast<int>(ranges.size());
  slots = static_cast<uint64_t>(product);
  return true;
}

}  // namespace

namespace {

// The groups of positions whose slots are row_slot (of `slots`), given each
// slot's lowest position in `first` (kEmptySlot where unused): the used
// slots ordered by their lowest position are the groups, in order of first
// appearance.
Groups number_groups(DeviceBuffer& row_slot, DeviceBuffer& first, uint64_t slots, std::size_t count,
                     DeviceContext& context) {
  Groups groups;
  groups.rows = count;
  groups.row_group = DeviceBuffer(context, std::max<std::size_t>(1, count) * sizeof(uint32_t));
  DeviceBuffer group_first(context, count * sizeof(uint32_t)), group_slot(context, count * sizeof(uint32_t));
  DeviceBuffer counter(context, sizeof(unsigned int));
  GPUSQL_CUDA_TRY(cudaMemsetAsync(counter.data(), 0, sizeof(unsigned int), context.stream()));
  used_slots_kernel<<<blocks_for(slots, context), kThreads, 0, context.stream()>>>(
      first.as<uint32_t>(), slots, group_first.as<uint32_t>(), group_slot.as<uint32_t>(), counter.as<unsigned int>());
  GPUSQL_CHECK_LAUNCH();
  unsigned int group_count = 0;
  context.copy_to_host(&group_count, counter.data(), sizeof group_count);
  groups.count = group_count;
  sort_pairs_u32(group_first, group_slot, group_count, bits_for(count - 1), context);
  // `first` is no longer needed: it becomes slot -> group.
  scatter_groups_kernel<<<blocks_for(group_count, context), kThreads, 0, context.stream()>>>(
      group_slot.as<uint32_t>(), group_count, first.as<uint32_t>());
  GPUSQL_CHECK_LAUNCH();
  row_groups_kernel<<<blocks_for(count, context), kThreads, 0, context.stream()>>>(
      row_slot.as<uint32_t>(), first.as<uint32_t>(), count, groups.row_group.as<uint32_t>());
  GPUSQL_CHECK_LAUNCH();
  groups.first = std::move(group_first);
  return groups;
}

// Room for the dense array's slots, all unused.
DeviceBuffer unused_slots(uint64_t slots, DeviceContext& context) {
  DeviceBuffer first(context, slots * sizeof(uint32_t));
  GPUSQL_CUDA_TRY(cudaMemsetAsync(first.data(), 0xff, slots * sizeof(uint32_t), context.stream()));
  return first;
}

std::vector<KeyRange> read_ranges(const DeviceBuffer& d_ranges, std::size_t keys, DeviceContext& context) {
  std::vector<KeyRange> ranges(keys);
  context.copy_to_host(ranges.data(), d_ranges.data(), keys * sizeof(KeyRange));
  return ranges;
}

DeviceBuffer empty_ranges(std::size_t keys, DeviceContext& context) {
  const std::vector<KeyRange> ranges(keys, KeyRange{LLONG_MAX, LLONG_MIN, 0, 0});
  DeviceBuffer d_ranges(context, std::max<std::size_t>(1, keys) * sizeof(KeyRange));
  if (keys) context.copy_to_device(d_ranges.data(), ranges.data(), keys * sizeof(KeyRange));
  return d_ranges;
}

}  // namespace

Groups assign_groups(const KeyColumns& keys, DeviceContext& context, bool dense) {
  const std::size_t count = keys.count;
  if (count >= kEmptySlot) throw Error(ErrorKind::NotSupported, "not supported yet: 2^32 or more rows");
  if (count == 0) {
    Groups groups;
    groups.row_group = DeviceBuffer(context, sizeof(uint32_t));
    return groups;
  }
  const KeyView view = keys.view();
  const unsigned grid = blocks_for(count, context);

  DeviceBuffer row_slot(context, count * sizeof(uint32_t));
  DeviceBuffer first;  // per slot: lowest position, kEmptySlot where unused
  uint64_t slots = 0;
  DenseLayout layout{};
  bool use_dense = false;
  if (dense) {
    DeviceBuffer d_ranges = empty_ranges(keys.key_count, context);
    for (int k = 0; k < keys.key_count; ++k) {
      key_range_kernel<<<grid, kThreads, 0, context.stream()>>>(view, k, d_ranges.as<KeyRange>() + k);
      GPUSQL_CHECK_LAUNCH();
    }
    use_dense = dense_layout(read_ranges(d_ranges, keys.key_count, context), count, layout, slots);
  }
  if (use_dense) {
    first = unused_slots(slots, context);
    dense_slot_kernel<<<grid, kThreads, 0, context.stream()>>>(view, layout, row_slot.as<uint32_t>(),
                                                                first.as<uint32_t>());
    GPUSQL_CHECK_LAUNCH();
  } else {
    HashTable table = build_hash_table(view, false, row_slot.as<uint32_t>(), &first, context);
    slots = table.slot_count();
  }
  return number_groups(row_slot, first, slots, count, context);
}

Groups assign_groups(const std::vector<ExprProgram>& programs, const std::vector<Cls>& classes,
                     const ColumnSet& columns, std::size_t count, uint32_t* d_error, DeviceContext& context,
                     const std::vector<std::optional<KeyBounds>>& known) {
  if (count >= kEmptySlot) throw Error(ErrorKind::NotSupported, "not supported yet: 2^32 or more rows");
  const bool integers = std::all_of(classes.begin(), classes.end(), [](Cls c) { return c == Cls::Int; });
  if (count == 0 || !integers || programs.empty() || programs.size() > static_cast<std::size_t>(kMaxKeyColumns))
    return assign_groups(evaluate_keys(programs, classes, columns, count, d_error, context), context);
  DeviceObjects objects;
  std::vector<std::size_t> at;
  for (const auto& program : programs) at.push_back(objects.add(program));  // consecutive: an array
  const std::size_t c = objects.add(columns);
  objects.upload(context);
  const unsigned grid = blocks_for(count, context);
  // The known bounds, while they keep the dense array small; the other
  // keys' ranges measured.
  std::vector<KeyRange> bounds(programs.size());
  std::vector<bool> measure(programs.size(), true);
  if (known.size() == programs.size()) {
    unsigned __int128 slots = 1;
    for (std::size_t k = 0; k < programs.size(); ++k) {
      if (!known[k]) continue;
      const KeyBounds& b = *known[k];
      const bool any_valid = b.max >= b.min;
      bounds[k] = KeyRange{any_valid ? b.min : LLONG_MAX, any_valid ? b.max : LLONG_MIN, b.may_be_null, any_valid};
      slots *= (any_valid ? static_cast<unsigned __int128>(static_cast<__int128>(b.max) - b.min + 1) : 0) + b.may_be_null;
      measure[k] = false;
    }
    if (slots > kRankedSlots) measure.assign(programs.size(), true);
  }
  DeviceBuffer d_ranges = empty_ranges(programs.size(), context);
  for (std::size_t k = 0; k < programs.size(); ++k) {
    if (!measure[k]) continue;
    with_value_type(programs[k], columns, [&](auto* tag) {
      program_range_kernel<std::remove_pointer_t<decltype(tag)>><<<grid, kThreads, 0, context.stream()>>>(
          objects.at<ExprProgram>(at[k]), plain_column(programs[k], columns), objects.at<ColumnSet>(c), count,
          d_ranges.as<KeyRange>() + k, d_error);
    });
    GPUSQL_CHECK_LAUNCH();
  }
  const bool any_measured = std::find(measure.begin(), measure.end(), true) != measure.end();
  std::vector<KeyRange> ranges = any_measured ? read_ranges(d_ranges, programs.size(), context) : bounds;
  for (std::size_t k = 0; k < programs.size(); ++k)
    if (!measure[k]) ranges[k] = bounds[k];
  DenseLayout layout{};
  uint64_t slots = 0;
  if (!dense_layout(ranges, count, layout, slots)) {
    if (programs.size() == 1) return hash_groups(programs[0], columns, count, d_error, context);
    return assign_groups(evaluate_keys(programs, classes, columns, count, d_error, context), context, false);
  }
  Groups groups;
  groups.rows = count;
  groups.key_ordered = true;
  groups.layout = layout;
  groups.slots = slots;
  DeviceBuffer row_slot(context, count * sizeof(uint32_t));
  // Few slots: marks, then ranks (slots + 1 entries, the last for the total).
  const bool ranked = slots <= kRankedSlots;
  DeviceBuffer rank;
  if (ranked) {
    rank = DeviceBuffer(context, (slots + 1) * sizeof(uint32_t));
    GPUSQL_CUDA_TRY(cudaMemsetAsync(rank.data(), 0, (slots + 1) * sizeof(uint32_t), context.stream()));
  }
  auto launch_slots = [&](auto* tag) {
    program_slot_kernel<std::remove_pointer_t<decltype(tag)>><<<grid, kThreads, 0, context.stream()>>>(
        objects.at<ExprProgram>(at[0]), static_cast<int>(programs.size()), plain_column(programs[0], columns),
        objects.at<ColumnSet>(c), layout, count, row_slot.as<uint32_t>(), ranked ? rank.as<uint32_t>() : nullptr,
        d_error);
  };
  if (programs.size() == 1) with_value_type(programs[0], columns, launch_slots);
  else launch_slots(static_cast<void*>(nullptr));
  GPUSQL_CHECK_LAUNCH();
  if (!ranked) {
    groups.by_slot = true;
    groups.row_group = std::move(row_slot);
    return groups;
  }
  groups.count = exclusive_scan(rank.as<uint32_t>(), slots + 1, context);
  groups.group_slot = DeviceBuffer(context, std::max<std::size_t>(1, groups.count) * sizeof(uint32_t));
  ranked_group_slots_kernel<<<blocks_for(slots, context), kThreads, 0, context.stream()>>>(
      rank.as<uint32_t>(), slots, groups.group_slot.as<uint32_t>());
  GPUSQL_CHECK_LAUNCH();
  // The ranks are each slot's group.
  groups.row_group = DeviceBuffer(context, count * sizeof(uint32_t));
  row_groups_kernel<<<blocks_for(count, context), kThreads, 0, context.stream()>>>(
      row_slot.as<uint32_t>(), rank.as<uint32_t>(), count, groups.row_group.as<uint32_t>());
  GPUSQL_CHECK_LAUNCH();
  return groups;
}

Groups hash_groups(const ExprProgram& program, const ColumnSet& columns, std::size_t count, uint32_t* d_error,
                   DeviceContext& context) {
  if (count >= kEmptySlot) throw Error(ErrorKind::NotSupported, "not supported yet: 2^32 or more rows");
  if (program.result_cls != Cls::Int) throw Error(ErrorKind::Execution, "internal: hash_groups() of a non-integer key");
  Groups groups;
  if (count == 0) {  // no groups
    groups.row_group = DeviceBuffer(context, sizeof(uint32_t));
    return groups;
  }
  groups.rows = count;
  groups.by_slot = true;
  groups.hashed = true;
  groups.row_group = DeviceBuffer(context, std::max<std::size_t>(1, count) * sizeof(uint32_t));
  DeviceObjects objects;
  const std::size_t p = objects.add(program), c = objects.add(columns);
  objects.upload(context);
  HashTable table = grow_hash_table(
      count, true, nullptr,
      [&](const InsertLaunch& at) {
        with_value_type(program, columns, [&](auto* tag) {
          using Key = ProgramKey<std::remove_pointer_t<decltype(tag)>>;
          insert_kernel<true, Key><<<at.grid, kInsertThreads, 0, context.stream()>>>(
              at.table, at.mask, Key{objects.at<ExprProgram>(p), plain_column(program, columns), objects.at<ColumnSet>(c)},
              count, false, groups.row_group.as<uint32_t>(), at.first, at.filled, at.limit, d_error);
        });
      },
      context);
  groups.slots = table.slot_count();
  groups.table_capacity = table.capacity;
  // Few keys in the first table: its slots ranked (the ranks stay in
  // cache), so aggregate_groups() sorts fewer bits. Worth it when that
  // saves a radix pass of 8 bits; a table small enough for one pass (few
  // rows) is not ranked, and costs no scan or read-back.
  auto passes = [](uint64_t values) { return (bits_for(values - 1) + 7) / 8; };
  if (table.capacity <= kFirstTableCapacity && passes(groups.slots) > 1) {
    DeviceBuffer rank(context, (groups.slots + 1) * sizeof(uint32_t));
    table_marks_kernel<<<blocks_for(groups.slots + 1, context), kThreads, 0, context.stream()>>>(
        table.slots.as<unsigned long long>(), table.capacity, rank.as<uint32_t>());
    GPUSQL_CHECK_LAUNCH();
    const uint32_t ranks = exclusive_scan(rank.as<uint32_t>(), groups.slots + 1, context);
    if (passes(ranks) < passes(groups.slots)) {
      groups.rank_slot = DeviceBuffer(context, ranks * sizeof(uint32_t));
      ranked_group_slots_kernel<<<blocks_for(groups.slots, context), kThreads, 0, context.stream()>>>(
          rank.as<uint32_t>(), groups.slots, groups.rank_slot.as<uint32_t>());
      GPUSQL_CHECK_LAUNCH();
      DeviceBuffer row_rank(context, count * sizeof(uint32_t));
      row_groups_kernel<<<blocks_for(count, context), kThreads, 0, context.stream()>>>(
          groups.row_group.as<uint32_t>(), rank.as<uint32_t>(), count, row_rank.as<uint32_t>());
      GPUSQL_CHECK_LAUNCH();
      groups.row_group = std::move(row_rank);
      groups.slots = ranks;
    }
  }
  groups.table = std::move(table.slots);
  return groups;
}

void group_keys(const Groups& groups, int key, Type type, void* d_out, uint32_t* d_validity, DeviceContext& context) {
  if (groups.count == 0) return;
  if (groups.hashed) {
    hashed_keys_kernel<<<blocks_for(groups.count, context), kThreads, 0, context.stream()>>>(
        groups.group_slot.as<uint32_t>(), groups.rank_slot.data() ? groups.rank_slot.as<uint32_t>() : nullptr, groups.count,
        groups.table.as<unsigned long long>(), groups.table_capacity, type, d_out, d_validity);
    GPUSQL_CHECK_LAUNCH();
    return;
  }
  group_keys_kernel<<<blocks_for(groups.count, context), kThreads, 0, context.stream()>>>(
      groups.group_slot.as<uint32_t>(), groups.count, groups.layout, key, type, d_out, d_validity);
  GPUSQL_CHECK_LAUNCH();
}

const uint32_t* row_groups(Groups& groups, DeviceContext& context) {
  if (groups.by_slot) {
    const std::size_t count = groups.rows;
    DeviceBuffer slot_group(context, std::max<uint64_t>(1, groups.slots) * sizeof(uint32_t));
    scatter_groups_kernel<<<blocks_for(groups.count, context), kThreads, 0, context.stream()>>>(
        groups.group_slot.as<uint32_t>(), groups.count, slot_group.as<uint32_t>());
    GPUSQL_CHECK_LAUNCH();
    DeviceBuffer row_group(context, std::max<std::size_t>(1, count) * sizeof(uint32_t));
    row_groups_kernel<<<blocks_for(count, context), kThreads, 0, context.stream()>>>(
        groups.row_group.as<uint32_t>(), slot_group.as<uint32_t>(), count, row_group.as<uint32_t>());
    GPUSQL_CHECK_LAUNCH();
    groups.row_group = std::move(row_group);
    groups.by_slot = false;
  }
  return groups.row_group.as<uint32_t>();
}

namespace {

// The run starts of sorted slots for the one-pass select
// (kernels/one_pass_select.cuh): position p is flagged when p == 0 or its
// slot differs from the one before it, and each start is emitted as its
// group's first index and slot. One read of the slots; the select's output
// is the group numbering itself (cub::DeviceSelect over a counting iterator,
// then a gather of the slots, took 0.65 ms for 2^28 rows in 10^7 groups;
// this pass 0.385 ms, ncu on the H100).
struct RunStartSource {
  static constexpr int kWidth = 4;
  static constexpr int kBlocksPerSm = 4;
  const uint32_t* sorted;
  uint64_t* start;        // groups + 1 entries: start[groups] = count
  uint32_t* group_slot;
  uint64_t rows;          // sorted slots

  template <bool FULL>
  __device__ __forceinline__ uint32_t bits(uint64_t first, uint64_t count) const {
    constexpr int V = kVectorBytes / kWidth;
    constexpr int STEPS = 32 / V;
    uint32_t bits = 0;
    if constexpr (FULL) {
      // Each value against the one before it: within the lane's vector, the
      // last of lane l - 1's (a shuffle), for lane 0 the last of lane 31's in
      // the step before, and before the span's first step one loaded value.
      // Plain loads (not streamed): emit() reads the starts' slots again.
      const int lane = threadIdx.x % kWarp;
      const uint64_t span_first = first - static_cast<uint64_t>(lane) * V;
      uint4 raw[STEPS];
#pragma unroll
      for (int s = 0; s < STEPS; ++s) raw[s] = __ldg(reinterpret_cast<const uint4*>(sorted + first + s * kVectorLanes * V));
      uint32_t carry = span_first > 0 ? __ldg(sorted + span_first - 1) : ~raw[0].x;
#pragma unroll
      for (int s = 0; s < STEPS; ++s) {
        const uint32_t left = __shfl_up_sync(kFullMask, raw[s].w, 1);
        const uint32_t previous = lane == 0 ? carry : left;
        carry = __shfl_sync(kFullMask, raw[s].w, kWarp - 1);
        bits |= (static_cast<uint32_t>(raw[s].x != previous) << (s * V)) |
                (static_cast<uint32_t>(raw[s].y != raw[s].x) << (s * V + 1)) |
                (static_cast<uint32_t>(raw[s].z != raw[s].y) << (s * V + 2)) |
                (static_cast<uint32_t>(raw[s].w != raw[s].z) << (s * V + 3));
      }
    } else {
      // The last span, partly past `count`: one value at a time.
#pragma unroll 1
      for (int b = 0; b < 32; ++b) {
        const uint64_t p = first + (b / V) * kVectorLanes * V + b % V;
        if (p < count && (p == 0 || __ldg(sorted + p) != __ldg(sorted + p - 1))) bits |= 1u << b;
      }
    }
    return bits;
  }
  __device__ __forceinline__ void emit(uint32_t index, uint32_t position) const {
    start[index] = position;
    group_slot[index] = __ldg(sorted + position);
  }
  __device__ __forceinline__ void finish(uint32_t runs) const { start[runs] = rows; }
};

// Numbers by_slot groups from their sorted slots: the runs are the groups,
// in slot order. Returns each group's first index in the sorted order
// (groups.count + 1 entries, the last `count`), and in `short_runs` whether
// every span of the select held a run start: then no run is as long as two
// spans, so each group is one task of the reduce (at most kReduceChunk
// items). count >= 1.
DeviceBuffer number_runs(Groups& groups, const uint32_t* sorted_slots, std::size_t count, bool& short_runs,
                         DeviceContext& context) {
  static_assert(kReduceChunk >= 2 * one_pass::kSpan, "a run that fits two spans fits a chunk");
  const std::size_t most = std::min<uint64_t>(count, groups.slots);
  DeviceBuffer start(context, (most + 1) * sizeof(uint64_t));
  DeviceBuffer group_slot(context, std::max<std::size_t>(1, most) * sizeof(uint32_t));
  const one_pass::Selected runs = one_pass::select(count, context, [&] {
    return RunStartSource{sorted_slots, start.as<uint64_t>(), group_slot.as<uint32_t>(), count};
  });
  groups.count = runs.count;
  groups.group_slot = std::move(group_slot);
  short_runs = !runs.empty_span;
  return start;
}

}  // namespace

bool same_program(const ExprProgram& a, const ExprProgram& b) {
  if (a.length != b.length || a.result_cls != b.result_cls) return false;
  for (int i = 0; i < a.length; ++i) {
    const Instr &x = a.instr(i), &y = b.instr(i);
    if (x.op != y.op || x.cls != y.cls || x.slot != y.slot || x.null_constant != y.null_constant ||
        x.value.i != y.value.i)
      return false;
  }
  return true;
}

DeviceBuffer aggregate_groups(const std::vector<AggSpec>& specs, const ColumnSet& columns, Groups& groups,
                              std::size_t count, uint32_t* d_error, DeviceContext& context) {
  const std::size_t n_specs = specs.size();
  if (n_specs > static_cast<std::size_t>(kMaxAggregates))
    throw Error(ErrorKind::NotSupported, "not supported yet: more than 8 aggregates in one operator");
  if (count > 0 && few_groups_apply(specs, groups))
    return aggregate_few_groups(specs, columns, groups, count, d_error, context);
  const bool by_slot = groups.by_slot && count > 0;
  if (by_slot && n_specs == 0) {
    // No aggregates: only the groups are wanted.
    DeviceBuffer sorted(context, count * sizeof(uint32_t));
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(sorted.data(), groups.row_group.data(), count * sizeof(uint32_t),
                                    cudaMemcpyDeviceToDevice, context.stream()));
    sort_keys(sorted, count, bits_for(groups.slots - 1), false, context);
    bool short_runs = false;
    number_runs(groups, sorted.as<uint32_t>(), count, short_runs, context);
  }
  if (n_specs == 0 || (!by_slot && (groups.count == 0 || count == 0)))
    return DeviceBuffer(context, std::max<std::size_t>(1, n_specs * groups.count) * sizeof(AggState));
  const int group_bits = bits_for((by_slot ? groups.slots : groups.count) - 1);
  const uint32_t* row_group = groups.row_group.as<uint32_t>();

  // Each aggregate's leaves in group order: positions ascending within each
  // group (the sorts are stable). When the aggregates read one plain column,
  // its values sort along with the group ids and the reduce reads them in
  // order; otherwise the positions sort, and each distinct argument is
  // evaluated at them once (scattered reads, at full occupancy).
  DeviceBuffer sorted_groups(context, count * sizeof(uint32_t)), positions;
  std::vector<DeviceBuffer> buffers;  // values and validity the leaves point into
  buffers.reserve(2 * n_specs + 1);   // no reallocation: references into it are held
  std::vector<Leaves> leaves(n_specs);
  if (const ColumnPointer* plain = shared_plain_column(specs, columns)) {
    const int width = value_bytes(plain->type);
    buffers.emplace_back(context, count * width);
    sort_pairs_copy(row_group, plain->data, width, sorted_groups.as<uint32_t>(), buffers.back().data(), count,
                    group_bits, context);
    for (std::size_t a = 0; a < n_specs; ++a)
      if (specs[a].kind != AggKind::CountStar) leaves[a] = Leaves{buffers.back().data(), plain->type, nullptr, nullptr};
  } else {
    positions = DeviceBuffer(context, count * sizeof(uint32_t));
    GPUSQL_CUDA_TRY(cudaMemcpyAsync(sorted_groups.data(), row_group, count * sizeof(uint32_t),
                                    cudaMemcpyDeviceToDevice, context.stream()));
    sequence(0, count, positions.as<uint32_t>(), context);
    sort_pairs_u32(sorted_groups, positions, count, group_bits, context);
    DeviceObjects objects;
    std::vector<std::size_t> program_at(n_specs);
    for (std::size_t a = 0; a < n_specs; ++a) program_at[a] = objects.add(specs[a].arg);
    const std::size_t c = objects.add(columns);
    objects.upload(context);
    for (std::size_t a = 0; a < n_specs; ++a) {
      const AggSpec& spec = specs[a];
      const bool arg = spec.kind == AggKind::ArgMin || spec.kind == AggKind::ArgMax;
      if (arg) leaves[a].positions = positions.as<uint32_t>();
      if (spec.kind == AggKind::CountStar) continue;
      std::size_t same = a;
      for (std::size_t b = 0; b < a; ++b)
        if (specs[b].kind != AggKind::CountStar && same_program(specs[b].arg, spec.arg)) same = b;
      if (same != a) {
        leaves[a].values = leaves[same].values;
        leaves[a].type = leaves[same].type;
        leaves[a].valid = leaves[same].valid;
        continue;
      }
      buffers.emplace_back(context, count * sizeof(int64_t));
      DeviceBuffer& values = buffers.back();
      buffers.emplace_back(context, count);
      DeviceBuffer& valid = buffers.back();
      with_value_type(spec.arg, columns, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        materialize_kernel<T><<<blocks_for(count, context), kThreads, 0, context.stream()>>>(
            objects.at<ExprProgram>(program_at[a]), plain_column(spec.arg, columns), objects.at<ColumnSet>(c),
            positions.as<uint32_t>(), count, values.as<int64_t>(), valid.as<uint8_t>(), d_error);
      });
      GPUSQL_CHECK_LAUNCH();
      leaves[a].values = values.data();
      leaves[a].type = spec.cls == Cls::Double ? Type::Double : Type::BigInt;
      leaves[a].valid = valid.as<uint8_t>();
    }
  }
  DeviceBuffer group_start;
  bool short_runs = false;  // every group one task of the first level
  if (by_slot) {
    group_start = number_runs(groups, sorted_groups.as<uint32_t>(), count, short_runs, context);
  } else {
    group_start = DeviceBuffer(context, (groups.count + 1) * sizeof(uint64_t));
    group_starts_kernel<<<blocks_for(count, context), kThreads, 0, context.stream()>>>(
        sorted_groups.as<uint32_t>(), count, groups.count, group_start.as<uint64_t>());
    GPUSQL_CHECK_LAUNCH();
  }
  const std::size_t n_groups = groups.count;
  DeviceBuffer states(context, std::max<std::size_t>(1, n_specs * n_groups) * sizeof(AggState));

  // The levels, the same for every aggregate: level 1 folds each group's
  // leaves into chunk states; each further level combines a group's chunk
  // states by the same scheme, until every group has one. With short runs
  // the one level's tasks are the groups, and no task table is made
  // (task_items() reads null tables as that).
  struct Level {
    const uint64_t* item_start;
    DeviceBuffer task_start, task_group;
    uint64_t tasks;
  };
  std::vector<Level> levels;
  if (short_runs) levels.push_back(Level{group_start.as<uint64_t>(), DeviceBuffer(), DeviceBuffer(), n_groups});
  else for (const uint64_t* item_start = group_start.as<uint64_t>();;) {
    Level level{item_start, DeviceBuffer(context, (n_groups + 1) * sizeof(uint64_t)), DeviceBuffer(), 0};
    chunk_counts_kernel<<<blocks_for(n_groups + 1, context), kThreads, 0, context.stream()>>>(
        item_start, n_groups, level.task_start.as<uint64_t>());
    GPUSQL_CHECK_LAUNCH();
    level.tasks = exclusive_scan(level.task_start.as<uint64_t>(), n_groups + 1, context);
    level.task_group = DeviceBuffer(context, level.tasks * sizeof(uint32_t));
    task_groups_kernel<<<blocks_for(n_groups, context), kThreads, 0, context.stream()>>>(
        level.task_start.as<uint64_t>(), n_groups, level.task_group.as<uint32_t>());
    GPUSQL_CHECK_LAUNCH();
    levels.push_back(std::move(level));
    if (levels.back().tasks == n_groups) break;
    item_start = levels.back().task_start.as<uint64_t>();
  }

  DeviceBuffer large(context, 2 * levels.front().tasks * sizeof(uint32_t)), large_count(context, 2 * sizeof(unsigned));
  for (std::size_t a = 0; a < n_specs; ++a) {
    const AggSpec& spec = specs[a];
    DeviceBuffer previous;
    for (std::size_t l = 0; l < levels.size(); ++l) {
      const Level& level = levels[l];
      const bool last = l + 1 == levels.size();
      DeviceBuffer out;
      AggState* out_states = states.as<AggState>() + a * n_groups;  // the last level: one task per group
      if (!last) {
        out = DeviceBuffer(context, level.tasks * sizeof(AggState));
        out_states = out.as<AggState>();
      }
      if (l == 0)
        launch_reduce_groups<true>(spec.kind, spec.cls, leaves[a], nullptr, level.item_start,
                                   level.task_start.as<uint64_t>(), level.task_group.as<uint32_t>(), level.tasks,
                                   out_states, large.as<uint32_t>(), large_count.as<unsigned>(), d_error, context);
      else
        launch_reduce_groups<false>(spec.kind, spec.cls, Leaves{}, previous.as<AggState>(), level.item_start,
                                    level.task_start.as<uint64_t>(), level.task_group.as<uint32_t>(), level.tasks,
                                    out_states, large.as<uint32_t>(), large_count.as<unsigned>(), d_error, context);
      previous = std::move(out);
    }
  }
  return states;
}

void count_distinct(const ExprProgram& predicate, const ExprProgram& arg, Cls cls, const ColumnSet& columns,
                    const uint32_t* d_row_group, std::size_t count, std::size_t groups, AggState* d_states,
                    uint32_t* d_error, DeviceContext& context) {
  if (groups == 0) return;
  DeviceBuffer distinct(context, groups * sizeof(unsigned long long));
  GPUSQL_CUDA_TRY(cudaMemsetAsync(distinct.data(), 0, groups * sizeof(unsigned long long), context.stream()));
  if (count > 0) {
    KeyColumns keys;
    keys.count = count;
    keys.key_count = 2;
    keys.bits = DeviceBuffer(context, 2 * count * sizeof(int64_t));
    keys.nulls = DeviceBuffer(context, count * sizeof(uint32_t));
    const unsigned grid = blocks_for(count, context);
    DeviceObjects objects;
    const std::size_t p = objects.add(predicate), a = objects.add(arg), c = objects.add(columns);
    objects.upload(context);
    distinct_keys_kernel<<<grid, kThreads, 0, context.stream()>>>(
        objects.at<ExprProgram>(p), objects.at<ExprProgram>(a), cls, objects.at<ColumnSet>(c), d_row_group, count,
        keys.bits.as<int64_t>(), keys.nulls.as<uint32_t>(), d_error);
    GPUSQL_CHECK_LAUNCH();
    DeviceBuffer row_slot(context, count * sizeof(uint32_t));
    // Two keys: slots hold positions (not keyed), which count_owners_kernel reads.
    HashTable table = build_hash_table(keys.view(), true, row_slot.as<uint32_t>(), nullptr, context);
    count_owners_kernel<<<grid, kThreads, 0, context.stream()>>>(table.slots.as<uint32_t>(), table.capacity,
                                                                  row_slot.as<uint32_t>(),
                                                                  d_row_group, count,
                                                                  distinct.as<unsigned long long>());
    GPUSQL_CHECK_LAUNCH();
  }
  set_counts_kernel<<<blocks_for(groups, context), kThreads, 0, context.stream()>>>(distinct.as<unsigned long long>(),
                                                                                    groups, d_states);
  GPUSQL_CHECK_LAUNCH();
}

void finalize_aggregate(const AggregateOutput& output, const AggState* d_states, std::size_t groups, void* d_out,
                        uint32_t* d_validity, uint32_t* d_positions, uint32_t* d_error, DeviceContext& context) {
  if (groups == 0) return;
  finalize_kernel<<<blocks_for(groups, context), kThreads, 0, context.stream()>>>(output, d_states, groups, d_out,
                                                                                  d_validity, d_positions, d_error);
  GPUSQL_CHECK_LAUNCH();
}

void and_validity(uint32_t* d_validity, const uint32_t* d_mask, std::size_t words, DeviceContext& context) {
  if (words == 0) return;
  and_validity_kernel<<<blocks_for(words, context), kThreads, 0, context.stream()>>>(d_validity, d_mask, words);
  GPUSQL_CHECK_LAUNCH();
}

}  // namespace gpusql::kernels
