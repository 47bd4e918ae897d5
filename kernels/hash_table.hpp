// Key columns and the device hash table that joins, GROUP BY, DISTINCT and
// COUNT(DISTINCT) share.
//
// A key is one or more expressions evaluated per position into 64-bit words
// (integers as they are, doubles as their bits with -0.0 made 0.0, so equal
// values have equal words -- the host executor's key_bits) plus a mask of the
// positions' NULL keys. The hash table is open addressing with linear
// probing; equal keys find the same slot. It is sized by the distinct keys it
// ends up holding (see build_hash_table), at most a quarter full, so probes
// stay short. Its slots are either
//   - (one key) the key's word itself (top bit flipped, so a zeroed slot is
//     empty): inserts and probes compare the word in the slot. Two reserved
//     slot numbers past the hashed ones stand for the keys no slot can hold:
//     `capacity` for the word kKeySentinel (BIGINT -2^63), `capacity + 1`
//     for NULL. Until
//     2026-11-23 one-key tables were the kind below, whose compare reads the
//     key columns at the slot's position: two dependent random reads a row,
//     11.8 of GROUP BY's 21.6 ms for 2^27 rows into 10^6 groups (H100);
//   - (several keys) the position of one row of its key (the first to win
//     the atomicCAS that filled it), kEmptySlot where empty.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/expr_program.hpp"
#include "storage/device_memory.hpp"

namespace gpusql::kernels {

constexpr int kMaxKeyColumns = 32;  // NULL flags are bits of one word
constexpr uint32_t kEmptySlot = 0xffffffffu;
constexpr int64_t kKeySentinel = INT64_MIN;  // the key word a keyed table's slots cannot hold

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
  DeviceBuffer slots;  // capacity of: 64-bit key words (keyed), or uint32 positions
  uint64_t capacity = 0;  // hashed slots: a power of two, at most 2^31
  bool keyed = false;     // one key: slots hold key words
  // The slot number of rows left out (skip_nulls), past every used one.
  uint64_t left_out() const { return keyed ? capacity + 1 : capacity; }
  // How many slot numbers rows can have when none is left out.
  uint64_t slot_count() const { return keyed ? capacity + 2 : capacity; }
};

// Inserts every position's key into a new table and writes the slot of each
// position's key to d_row_slot (room for keys.count; equal keys, same slot).
// With skip_nulls, positions with any NULL key are left out (their slot is
// left_out()); otherwise NULL is a value like any other (GROUP BY). Throws
// Error(NotSupported) beyond 2^30 positions. With `first`, it becomes
// slot_count() words: first[slot] the lowest position of the slot's key,
// kEmptySlot for unused slots.
//
// The table first gets kFirstTableCapacity slots (or fewer for few rows),
// which hold a quarter as many distinct keys: a join's or GROUP BY's few
// thousand keys then sit in a table of megabytes that the L2 cache and the
// TLB cover, not in one of 8 bytes a row scattered over gigabytes (GROUP BY
// of 2^27 rows into 10^4 groups: 14.5 -> 10.1 ms on an H100). When more
// keys arrive the insert stops early (every warp checks a counter of filled
// slots) and starts again in a table 16 times larger, up to one of at least
// twice the rows, which always holds every key. Each smaller table costs a
// read-back of its counter.
HashTable build_hash_table(const KeyView& keys, bool skip_nulls, uint32_t* d_row_slot, DeviceBuffer* first,
                           DeviceContext& context);

// What an insert kernel gets from grow_hash_table(): the table (`mask` =
// capacity - 1), `first` (or null), the fill counter and its limit, and the
// grid to launch (of kInsertThreads-thread blocks).
struct InsertLaunch {
  void* table;
  uint64_t mask;
  uint32_t* first;
  unsigned long long* filled;
  unsigned long long limit;
  unsigned grid;
};

// build_hash_table()'s tables, growing, for `count` positions whose insert
// kernel `insert` launches (keyed: one key, words in the slots): the same
// sizing, restarts and `first`, for callers whose keys are not KeyColumns.
HashTable grow_hash_table(std::size_t count, bool keyed, DeviceBuffer* first,
                          const std::function<void(const InsertLaunch&)>& insert, DeviceContext& context);

// The size of the last, largest table build_hash_table may use for `rows` rows.
uint64_t table_capacity(std::size_t rows);

constexpr uint64_t kFirstTableCapacity = uint64_t{1} << 22;

}  // namespace gpusql::kernels
