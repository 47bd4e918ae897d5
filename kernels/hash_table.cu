#include "kernels/hash_table.cuh"
#include "kernels/launch.hpp"

namespace gpusql::kernels {
namespace {

constexpr int kKeyThreads = 256;

// Key k of every position; the first key's launch also starts the NULL masks.
__global__ void __launch_bounds__(kKeyThreads)
    evaluate_key_kernel(const ExprProgram* __restrict__ d_program, Cls cls, int k, const ColumnSet* __restrict__ d_columns,
                        uint64_t count, int64_t* __restrict__ bits, uint32_t* __restrict__ nulls,
                        uint32_t* __restrict__ error_word) {
  const ExprProgram& program = *d_program;
  const ColumnSet& columns = *d_columns;
  uint32_t error = 0;
  for (uint64_t p = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < count;
       p += static_cast<uint64_t>(gridDim.x) * blockDim.x) {
    Slot s = evaluate(program, columns, static_cast<int64_t>(p), error);
    int64_t b = 0;
    if (s.valid) b = cls == Cls::Int ? s.i : __double_as_longlong(s.d == 0.0 ? 0.0 : s.d);
    bits[k * count + p] = b;
    uint32_t null_bit = s.valid ? 0u : (1u << k);
    nulls[p] = k == 0 ? null_bit : (nulls[p] | null_bit);
  }
  if (error) atomicOr(error_word, error);
}

// Inserts every position's key (filled counts the slots taken, one atomic
// per warp) and, with `first`, keeps each slot's lowest position. Once more
// than `limit` are filled, warps stop at their next step: the caller sees it
// in *filled and starts again in a larger table. Each thread inserts at most
// one key after the counter last said otherwise, so a table with room for
// limit + the grid's threads keys never fills and every probe ends.
// KEYED: one key, its words kept in the slots (see hash_table.hpp).
template <bool KEYED>
__global__ void __launch_bounds__(kKeyThreads)
    insert_kernel(void* __restrict__ table, uint64_t mask, const KeyView keys, bool skip_nulls,
                  uint32_t* __restrict__ row_slot, uint32_t* __restrict__ first, unsigned long long* filled,
                  unsigned long long limit) {
  // Whole warps per iteration (the block size is a multiple of 32), for the
  // warp-wide count and minimum below.
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  const int lane = threadIdx.x % 32;
  const uint32_t sentinel_slot = static_cast<uint32_t>(mask + 1), null_slot = sentinel_slot + 1;
  const uint32_t left_out = KEYED ? null_slot : sentinel_slot;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x; base < keys.count; base += stride) {
    unsigned long long seen = 0;
    if (lane == 0) seen = *static_cast<volatile unsigned long long*>(filled);
    if (__shfl_sync(0xffffffffu, seen, 0) > limit) return;  // the whole warp
    const uint64_t p = base + threadIdx.x;
    uint32_t slot = kEmptySlot;
    bool inserted = false;
    if (p < keys.count) {
      if (skip_nulls && keys.nulls[p] != 0) {
        row_slot[p] = left_out;
      } else {
        if constexpr (KEYED) {
          const int64_t word = keys.bits[p];
          if (keys.nulls[p] != 0) slot = null_slot;
          else if (word == kKeySentinel) slot = sentinel_slot;
          else
            slot = static_cast<uint32_t>(
                insert_or_find_word(static_cast<unsigned long long*>(table), mask, word, inserted));
        } else {
          slot = static_cast<uint32_t>(
              insert_or_find(static_cast<uint32_t*>(table), mask, keys, static_cast<uint32_t>(p), inserted));
        }
        row_slot[p] = slot;
      }
    }
    const unsigned new_keys = __ballot_sync(0xffffffffu, inserted);
    if (new_keys && lane == 0) atomicAdd(filled, static_cast<unsigned long long>(__popc(new_keys)));
    if (first) warp_min_position(first, slot, static_cast<uint32_t>(p));
  }
}

}  // namespace

KeyColumns evaluate_keys(const std::vector<ExprProgram>& programs, const std::vector<Cls>& classes,
                         const ColumnSet& columns, std::size_t count, uint32_t* d_error, DeviceContext& context) {
  if (programs.size() > static_cast<std::size_t>(kMaxKeyColumns))
    throw Error(ErrorKind::NotSupported,
                "not supported yet: more than " + std::to_string(kMaxKeyColumns) + " key columns in one operator");
  KeyColumns keys;
  keys.count = count;
  keys.key_count = static_cast<int>(programs.size());
  keys.bits = DeviceBuffer(context, std::max<std::size_t>(1, count * programs.size()) * sizeof(int64_t));
  keys.nulls = DeviceBuffer(context, std::max<std::size_t>(1, count) * sizeof(uint32_t));
  if (count == 0) return keys;
  if (programs.empty()) {
    GPUSQL_CUDA_TRY(cudaMemsetAsync(keys.nulls.data(), 0, count * sizeof(uint32_t), context.stream()));
    return keys;
  }
  const unsigned grid = grid_for((count + kKeyThreads - 1) / kKeyThreads, context, 16);
  DeviceObjects objects;
  const std::size_t c = objects.add(columns);
  std::vector<std::size_t> p;
  for (const auto& program : programs) p.push_back(objects.add(program));
  objects.upload(context);
  for (std::size_t k = 0; k < programs.size(); ++k) {
    evaluate_key_kernel<<<grid, kKeyThreads, 0, context.stream()>>>(
        objects.at<ExprProgram>(p[k]), classes[k], static_cast<int>(k), objects.at<ColumnSet>(c), count,
        keys.bits.as<int64_t>(), keys.nulls.as<uint32_t>(), d_error);
    GPUSQL_CHECK_LAUNCH();
  }
  return keys;
}

uint64_t table_capacity(std::size_t rows) {
  uint64_t capacity = 64;
  while (capacity < 2 * static_cast<uint64_t>(rows)) capacity *= 2;
  return capacity;
}

HashTable build_hash_table(const KeyView& keys, bool skip_nulls, uint32_t* d_row_slot, DeviceBuffer* first,
                           DeviceContext& context) {
  if (keys.count > (uint64_t{1} << 30))
    throw Error(ErrorKind::NotSupported, "not supported yet: hashing more than 2^30 rows in one operator");
  const uint64_t largest = table_capacity(keys.count);
  const unsigned grid = grid_for((keys.count + kKeyThreads - 1) / kKeyThreads, context, 16);
  const uint64_t threads = static_cast<uint64_t>(grid) * kKeyThreads;
  DeviceBuffer filled(context, sizeof(unsigned long long));
  HashTable table;
  // A table smaller than the largest stops a quarter full, plus a key from
  // every thread at most: no more than half full when the threads are no
  // more than a quarter of it. The largest has no limit.
  table.capacity = std::min(largest, kFirstTableCapacity);
  while (table.capacity < largest && threads > table.capacity / 4) table.capacity *= 16;
  table.capacity = std::min(table.capacity, largest);
  table.keyed = keys.key_count == 1;
  const std::size_t slot_bytes = table.keyed ? sizeof(int64_t) : sizeof(uint32_t);
  for (;;) {
    const bool last = table.capacity == largest;
    const unsigned long long limit = last ? ~0ull : table.capacity / 4;
    table.slots = DeviceBuffer(context, table.capacity * slot_bytes);
    // Empty: a zero word (keyed), or kEmptySlot.
    GPUSQL_CUDA_TRY(
        cudaMemsetAsync(table.slots.data(), table.keyed ? 0 : 0xff, table.capacity * slot_bytes, context.stream()));
    if (first) {
      const uint64_t slots = table.slot_count();
      *first = DeviceBuffer(context, slots * sizeof(uint32_t));
      GPUSQL_CUDA_TRY(cudaMemsetAsync(first->data(), 0xff, slots * sizeof(uint32_t), context.stream()));
    }
    if (keys.count == 0) return table;
    GPUSQL_CUDA_TRY(cudaMemsetAsync(filled.data(), 0, sizeof(unsigned long long), context.stream()));
    auto insert = table.keyed ? insert_kernel<true> : insert_kernel<false>;
    insert<<<grid, kKeyThreads, 0, context.stream()>>>(table.slots.data(), table.capacity - 1, keys, skip_nulls,
                                                        d_row_slot, first ? first->as<uint32_t>() : nullptr,
                                                        filled.as<unsigned long long>(), limit);
    GPUSQL_CHECK_LAUNCH();
    if (last) return table;
    unsigned long long taken = 0;
    GPUSQL_CUDA_TRY(
        cudaMemcpyAsync(&taken, filled.data(), sizeof taken, cudaMemcpyDeviceToHost, context.stream()));
    context.synchronize();
    if (taken <= limit) return table;
    table.capacity = std::min(largest, table.capacity * 16);
  }
}

}  // namespace gpusql::kernels
