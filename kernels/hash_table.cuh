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

}  // namespace gpusql::kernels
