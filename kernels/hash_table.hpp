// Key columns and the device hash table that joins, GROUP BY, DISTINCT and
// COUNT(DISTINCT) share.
//
// A key is one or more expressions evaluated per position into 64-bit words
// (integers as they are, doubles as their bits with -0.0 made 0.0, so equal
// values have equal words -- the host executor's key_bits) plus a mask of the
// positions' NULL keys. The hash table is open addressing with linear
// probing over uint32 slots, each holding the position of one row of its key
// (the first to win the atomicCAS that filled it); equal keys find the same
// slot. It is sized to at least twice the rows inserted, so probing ends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/expr_program.hpp"
#include "storage/device_memory.hpp"

namespace gpusql::kernels {

constexpr int kMaxKeyColumns = 32;  // NULL flags are bits of one word
constexpr uint32_t kEmptySlot = 0xffffffffu;

// What kernels read of key columns.
struct KeyView {
  const int64_t* bits = nullptr;  // key k of position p at bits[k * count + p]; 0 where NULL
  const uint32_t* nulls = nullptr;  // bit k of nulls[p]: key k is NULL at p
  uint64_t count = 0;
  int32_t key_count = 0;
};

struct KeyColumns {
  DeviceBuffer bits;
  DeviceBuffer nulls;
  std::size_t count = 0;
  int key_count = 0;
  KeyView view() const { return {bits.as<int64_t>(), nulls.as<uint32_t>(), count, key_count}; }
};

// Evaluates the key programs (all over `columns`; classes[k] is program k's
// compute class) at each of `count` positions. Throws Error(NotSupported)
// for more than kMaxKeyColumns keys. Run-time errors go to *d_error.
KeyColumns evaluate_keys(const std::vector<ExprProgram>& programs, const std::vector<Cls>& classes,
                         const ColumnSet& columns, std::size_t count, uint32_t* d_error, DeviceContext& context);

struct HashTable {
  DeviceBuffer slots;  // capacity uint32: a position, or kEmptySlot
  uint64_t capacity = 0;  // a power of two, at most 2^31
};

// Inserts every position's key into a new table and writes the slot of each
// position's key to d_row_slot (room for keys.count; equal keys, same slot).
// With skip_nulls, positions with any NULL key are left out (their slot is
// `capacity`, past the last); otherwise NULL is a value like any other
// (GROUP BY). Throws Error(NotSupported) beyond 2^30 positions. With
// d_first (room for the capacity, see table_capacity), d_first[slot] becomes
// the lowest position of the slot's key and kEmptySlot for unused slots.
HashTable build_hash_table(const KeyView& keys, bool skip_nulls, uint32_t* d_row_slot, DeviceBuffer* first,
                           DeviceContext& context);

// The table size build_hash_table uses for `rows` rows.
uint64_t table_capacity(std::size_t rows);

}  // namespace gpusql::kernels
