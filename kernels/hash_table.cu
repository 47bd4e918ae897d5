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

HashTable grow_hash_table(std::size_t count, bool keyed, DeviceBuffer* first,
                          const std::function<void(const InsertLaunch&)>& insert, DeviceContext& context) {
  if (count > (uint64_t{1} << 30))
    throw Error(ErrorKind::NotSupported, "not supported yet: hashing more than 2^30 rows in one operator");
  const uint64_t largest = table_capacity(count);
  const unsigned grid = grid_for((count + kInsertThreads - 1) / kInsertThreads, context, 16);
  const uint64_t threads = static_cast<uint64_t>(grid) * kInsertThreads;
  DeviceBuffer filled(context, sizeof(unsigned long long));
  HashTable table;
  // A table smaller than the largest stops a quarter full, plus a key from
  // every thread at most: no more than half full when the threads are no
  // more than a quarter of it. The largest has no limit.
  table.capacity = std::min(largest, kFirstTableCapacity);
  while (table.capacity < largest && threads > table.capacity / 4) table.capacity *= 16;
  table.capacity = std::min(table.capacity, largest);
  table.keyed = keyed;
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
    if (count == 0) return table;
    GPUSQL_CUDA_TRY(cudaMemsetAsync(filled.data(), 0, sizeof(unsigned long long), context.stream()));
    insert(InsertLaunch{table.slots.data(), table.capacity - 1, first ? first->as<uint32_t>() : nullptr,
                        filled.as<unsigned long long>(), limit, grid});
    GPUSQL_CHECK_LAUNCH();
    if (last) return table;
    unsigned long long taken = 0;
    context.copy_to_host(&taken, filled.data(), sizeof taken);
    if (taken <= limit) return table;
    table.capacity = std::min(largest, table.capacity * 16);
  }
}

HashTable build_hash_table(const KeyView& keys, bool skip_nulls, uint32_t* d_row_slot, DeviceBuffer* first,
                           DeviceContext& context) {
  const bool keyed = keys.key_count == 1;
  return grow_hash_table(
      keys.count, keyed, first,
      [&](const InsertLaunch& at) {
        auto insert = keyed ? insert_kernel<true, KeyWords> : insert_kernel<false, KeyWords>;
        insert<<<at.grid, kInsertThreads, 0, context.stream()>>>(at.table, at.mask, KeyWords{keys}, keys.count,
                                                                 skip_nulls, d_row_slot, at.first, at.filled,
                                                                 at.limit, nullptr);
      },
      context);
}

}  // namespace gpusql::kernels
