// Device side of kernels/hash_table.hpp: hashing and comparing key rows,
// inserting into and probing the open-addressing table. Included by .cu
// files only.
#pragma once

#include "kernels/hash_table.hpp"

namespace gpusql::kernels {

// splitmix64's finalizer: every input bit affects every output bit.
__device__ __forceinline__ uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

__device__ __forceinline__ uint64_t hash_key(const KeyView& keys, uint64_t p) {
  uint64_t h = mix64(0x9e3779b97f4a7c15ull ^ keys.nulls[p]);
  for (int k = 0; k < keys.key_count; ++k) h = mix64(h ^ static_cast<uint64_t>(keys.bits[k * keys.count + p]));
  return h;
}

// Whether position pa of `a` and position pb of `b` have equal keys (NULL
// flags included).
__device__ __forceinline__ bool keys_equal(const KeyView& a, uint64_t pa, const KeyView& b, uint64_t pb) {
  if (a.nulls[pa] != b.nulls[pb]) return false;
  for (int k = 0; k < a.key_count; ++k)
    if (a.bits[k * a.count + pa] != b.bits[k * b.count + pb]) return false;
  return true;
}

// The slot of position p's key, inserting p when the key is new (then
// `inserted` is set). Slots only ever go from empty to a position of their
// key, so a stale read of an empty slot is settled by the CAS and a
// non-empty one is final.
__device__ __forceinline__ uint64_t insert_or_find(uint32_t* table, uint64_t mask, const KeyView& keys, uint32_t p,
                                                   bool& inserted) {
  uint64_t slot = hash_key(keys, p) & mask;
  while (true) {
    uint32_t current = table[slot];
    if (current == kEmptySlot) {
      current = atomicCAS(&table[slot], kEmptySlot, p);
      if (current == kEmptySlot) {
        inserted = true;
        return slot;
      }
    }
    if (keys_equal(keys, current, keys, p)) return slot;
    slot = (slot + 1) & mask;
  }
}

// A keyed table's hash of a key word (not hash_key()'s: the two kinds of
// table never meet).
__device__ __forceinline__ uint64_t hash_word(int64_t word) {
  return mix64(0x9e3779b97f4a7c15ull ^ static_cast<uint64_t>(word));
}

// A keyed table's slot holds its word with the top bit flipped, so the
// zeroed table is empty and only the word kKeySentinel has no slot.
__device__ __forceinline__ unsigned long long stored_word(int64_t word) {
  return static_cast<unsigned long long>(word) ^ static_cast<unsigned long long>(kKeySentinel);
}

// The key word a filled slot of a keyed table holds.
__device__ __forceinline__ int64_t slot_word(unsigned long long stored) {
  return static_cast<int64_t>(stored ^ static_cast<unsigned long long>(kKeySentinel));
}

// insert_or_find() for a keyed table and a word other than kKeySentinel.
// Slots only ever go from empty to a word, so a stale read of an empty slot
// is settled by the CAS and a filled one is final.
__device__ __forceinline__ uint64_t insert_or_find_word(unsigned long long* table, uint64_t mask, int64_t word,
                                                        bool& inserted) {
  const unsigned long long stored = stored_word(word);
  uint64_t slot = hash_word(word) & mask;
  while (true) {
    unsigned long long current = table[slot];
    if (current == 0) {
      current = atomicCAS(&table[slot], 0ull, stored);
      if (current == 0) {
        inserted = true;
        return slot;
      }
    }
    if (current == stored) return slot;
    slot = (slot + 1) & mask;
  }
}

// The slot of a keyed table holding `word` (which is not kKeySentinel), or
// -1 when it is not in the table.
__device__ __forceinline__ int64_t find_word(const unsigned long long* table, uint64_t mask, int64_t word) {
  const unsigned long long stored = stored_word(word);
  uint64_t slot = hash_word(word) & mask;
  while (true) {
    const unsigned long long current = table[slot];
    if (current == stored) return static_cast<int64_t>(slot);
    if (current == 0) return -1;
    slot = (slot + 1) & mask;
  }
}

// The slot holding probe position p's key (keys of `probe`, table built over
// `build`), or -1 when the key is not in the table.
__device__ __forceinline__ int64_t find_slot(const uint32_t* table, uint64_t mask, const KeyView& build,
                                             const KeyView& probe, uint64_t p) {
  uint64_t slot = hash_key(probe, p) & mask;
  while (true) {
    uint32_t current = table[slot];
    if (current == kEmptySlot) return -1;
    if (keys_equal(build, current, probe, p)) return static_cast<int64_t>(slot);
    slot = (slot + 1) & mask;
  }
}

// first[slot] = min(first[slot], p) for each lane's (slot, p), slot
// kEmptySlot for none; all 32 lanes call it, with p ascending by lane. Lanes
// of one slot send one atomic (from the lowest lane, which has the lowest
// position), and none when the slot already holds a lower position: with
// few distinct keys the atomics would otherwise queue on a few addresses.
__device__ __forceinline__ void warp_min_position(uint32_t* first, uint32_t slot, uint32_t p) {
  const unsigned peers = __match_any_sync(0xffffffffu, slot);
  if (slot != kEmptySlot && static_cast<int>(threadIdx.x % 32) == __ffs(peers) - 1 && first[slot] > p)
    atomicMin(&first[slot], p);
}

// Where an insert reads position p's key: its word (the first key's, for
// a table of several keys) and whether it is valid (no key NULL). A source
// evaluating a key program can stand in for the key columns (GROUP BY of
// one integer key: kernels/group_by.cu), so no key words are written.
struct KeyWords {
  KeyView keys;
  __device__ __forceinline__ bool key(uint64_t p, int64_t& word, uint32_t&) const {
    word = keys.bits[p];
    return keys.nulls[p] == 0;
  }
};

constexpr int kInsertThreads = 256;

// Inserts every position's key (filled counts the slots taken, one atomic
// per warp) and, with `first`, keeps each slot's lowest position. Once more
// than `limit` are filled, warps stop at their next step: the caller sees it
// in *filled and starts again in a larger table. Each thread inserts at most
// one key after the counter last said otherwise, so a table with room for
// limit + the grid's threads keys never fills and every probe ends.
// KEYED: one key, its words kept in the slots (hash_table.hpp); otherwise
// Source is KeyWords, whose key columns the slots' positions index.
// Errors of a key program go to *error_word.
template <bool KEYED, class Source>
__global__ void __launch_bounds__(kInsertThreads)
    insert_kernel(void* __restrict__ table, uint64_t mask, const Source source, uint64_t count, bool skip_nulls,
                  uint32_t* __restrict__ row_slot, uint32_t* __restrict__ first, unsigned long long* filled,
                  unsigned long long limit, uint32_t* __restrict__ error_word) {
  // Whole warps per iteration (the block size is a multiple of 32), for the
  // warp-wide count and minimum below.
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  const int lane = threadIdx.x % 32;
  const uint32_t sentinel_slot = static_cast<uint32_t>(mask + 1), null_slot = sentinel_slot + 1;
  const uint32_t left_out = KEYED ? null_slot : sentinel_slot;
  uint32_t error = 0;
  for (uint64_t base = static_cast<uint64_t>(blockIdx.x) * blockDim.x; base < count; base += stride) {
    unsigned long long seen = 0;
    if (lane == 0) seen = *static_cast<volatile unsigned long long*>(filled);
    if (__shfl_sync(0xffffffffu, seen, 0) > limit) break;  // the whole warp
    const uint64_t p = base + threadIdx.x;
    uint32_t slot = kEmptySlot;
    bool inserted = false;
    if (p < count) {
      int64_t word = 0;
      const bool valid = source.key(p, word, error);
      if (skip_nulls && !valid) {
        row_slot[p] = left_out;
      } else {
        if constexpr (KEYED) {
          if (!valid) slot = null_slot;
          else if (word == kKeySentinel) slot = sentinel_slot;
          else
            slot = static_cast<uint32_t>(
                insert_or_find_word(static_cast<unsigned long long*>(table), mask, word, inserted));
        } else {
          slot = static_cast<uint32_t>(
              insert_or_find(static_cast<uint32_t*>(table), mask, source.keys, static_cast<uint32_t>(p), inserted));
        }
        row_slot[p] = slot;
      }
    }
    const unsigned new_keys = __ballot_sync(0xffffffffu, inserted);
    if (new_keys && lane == 0) atomicAdd(filled, static_cast<unsigned long long>(__popc(new_keys)));
    if (first) warp_min_position(first, slot, static_cast<uint32_t>(p));
  }
  if (error) atomicOr(error_word, error);
}

}  // namespace gpusql::kernels
