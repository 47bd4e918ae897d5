// Distinct strings gathered on many threads and merged into one sorted
// dictionary: how a CSV load encodes its VARCHAR columns as it parses, and
// how a column kept as plain strings is encoded when a query first reads it.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/dictionary.hpp"
#include "storage/host_column.hpp"

namespace gpusql {

// No variable-length copy into a word: its store and reload stall (the
// store cannot forward). Short strings are read as two overlapping halves,
// long ones end with their last 8 bytes.
inline uint64_t hash_bytes(std::string_view s) {
  const char* p = s.data();
  const std::size_t n = s.size();
  uint64_t h = 0x9E3779B97F4A7C15ull ^ n, w = 0;
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 < n; i += 8) {
      std::memcpy(&w, p + i, 8);
      h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
      h ^= h >> 31;
    }
    std::memcpy(&w, p + n - 8, 8);
  } else if (n >= 4) {
    uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + n - 4, 4);
    w = lo | uint64_t(hi) << 32;
  } else if (n > 0) {
    w = uint64_t(static_cast<unsigned char>(p[0])) | uint64_t(static_cast<unsigned char>(p[n / 2])) << 8 |
        uint64_t(static_cast<unsigned char>(p[n - 1])) << 16;
  }
  h = (h ^ w) * 0x94D049BB133111EBull;
  return h ^ (h >> 29);
}

// Byte equality without a library call (the strings here are mostly short).
inline bool same_bytes(const char* a, const char* b, std::size_t n) {
  if (n < 8) {
    for (std::size_t i = 0; i < n; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  uint64_t x, y;
  for (std::size_t i = 0; i + 8 <= n; i += 8) {
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    if (x != y) return false;
  }
  std::memcpy(&x, a + n - 8, 8);
  std::memcpy(&y, b + n - 8, 8);
  return x == y;
}

// Asks for the cache line at `p`. (GCC 12 dropped __builtin_prefetch here,
// so on x86 the instruction is written out.)
inline void prefetch(const void* p) {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("prefetcht0 (%0)" : : "r"(p));  // a hint: no fault, whatever the address
#else
  __builtin_prefetch(p);
#endif
}

// Distinct strings numbered as first seen: one per column per chunk, and one
// per column over all chunks.
class StringSet {
 public:
  uint32_t intern(std::string_view s, bool stable) { return intern_hashed(s, hash_bytes(s), stable); }
  uint32_t intern_hashed(std::string_view s, uint64_t h, bool stable) {
    if (slots_.empty()) slots_.resize(256);
    // A slot holds all a probe needs, so a lookup touches one slot and, on a
    // hash match, the string's bytes.
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = h & mask;
    for (;; i = (i + 1) & mask) {
      const Slot& slot = slots_[i];
      if (slot.data == nullptr) break;
      if (slot.hash == h && slot.size == s.size() && same_bytes(slot.data, s.data(), s.size())) return slot.id;
    }
    const auto id = static_cast<uint32_t>(entries_.size());
    if (!stable) s = arena_.emplace_back(s);
    entries_.push_back(s);
    hashes_.push_back(h);
    // An empty string still needs a non-null pointer to mark the slot used.
    slots_[i] = {h, s.empty() ? "" : s.data(), static_cast<uint32_t>(s.size()), id};
    if (entries_.size() * 2 > slots_.size()) grow();
    return id;
  }
  const std::vector<std::string_view>& entries() const { return entries_; }
  const std::vector<uint64_t>& hashes() const { return hashes_; }
  // Asks for the cache line of the slot where `h` is looked up first.
  void prefetch_slot(uint64_t h) const {
    if (!slots_.empty()) prefetch(&slots_[h & (slots_.size() - 1)]);
  }
  // When that slot holds a string with hash `h`, asks for the string's bytes
  // (a hit compares them; they lie wherever in the file the string was first seen).
  void prefetch_match(uint64_t h) const {
    if (slots_.empty()) return;
    const Slot& slot = slots_[h & (slots_.size() - 1)];
    if (slot.hash == h) prefetch(slot.data);
  }
  // No more strings will be interned: frees the hash table (entries stay).
  void seal() { std::vector<Slot>().swap(slots_); }
  // Sizes the (empty) table for `n` strings, so it never grows.
  void reserve(std::size_t n) {
    if (!entries_.empty()) return;
    std::size_t size = 256;
    while (size < 2 * n + 2) size *= 2;
    slots_.assign(size, Slot{});
    entries_.reserve(n);
    hashes_.reserve(n);
  }

 private:
  struct Slot {
    uint64_t hash = 0;
    const char* data = nullptr;  // null: empty
    uint32_t size = 0;
    uint32_t id = 0;
  };
  void grow() {
    std::vector<Slot> slots(slots_.size() * 2);
    const std::size_t mask = slots.size() - 1;
    for (const Slot& slot : slots_) {
      if (!slot.data) continue;
      std::size_t i = slot.hash & mask;
      while (slots[i].data) i = (i + 1) & mask;
      slots[i] = slot;
    }
    slots_ = std::move(slots);
  }
  std::vector<std::string_view> entries_;
  std::vector<uint64_t> hashes_;
  std::vector<Slot> slots_;
  std::deque<std::string> arena_;  // unescaped strings that are not in the file as they are
};

// VARCHAR values waiting to be interned, a batch at a time. A large string
// set misses the cache twice per lookup: its slot, then the string a hit is
// compared with (wherever in the file that string was first seen). So a
// value's slot is prefetched when it is parsed; when its batch fills, the
// strings those slots point to are prefetched; and the batch is looked up
// only after the next one has filled. The misses overlap instead of stalling
// the parse one at a time.
class PendingStrings {
 public:
  void add(StringSet& set, std::string_view text, uint32_t* code) { add_hashed(set, text, hash_bytes(text), code); }
  void add_hashed(StringSet& set, std::string_view text, uint64_t h, uint32_t* code) {
    set.prefetch_slot(h);
    prefetch(text.data());  // the merge's strings are far apart in the file
    filling_[count_++] = {&set, text, h, code};
    if (count_ == BATCH) {
      for (const Item& item : filling_) item.set->prefetch_match(item.hash);
      intern(waiting_, waiting_count_);
      std::swap(filling_, waiting_);
      waiting_count_ = count_;
      count_ = 0;
    }
  }
  // Interns everything still waiting.
  void flush() {
    intern(waiting_, waiting_count_);
    intern(filling_, count_);
    waiting_count_ = count_ = 0;
  }

 private:
  static constexpr std::size_t BATCH = 32;
  struct Item {
    StringSet* set;
    std::string_view text;  // in the file (escaped values are interned at once)
    uint64_t hash;
    uint32_t* code;
  };
  using Batch = std::array<Item, BATCH>;
  static void intern(const Batch& batch, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i)
      *batch[i].code = batch[i].set->intern_hashed(batch[i].text, batch[i].hash, true);
  }
  Batch filling_, waiting_;
  std::size_t count_ = 0, waiting_count_ = 0;
};

// The distinct strings of one column over several sets, sorted;
// codes[k][id] becomes the final code of set k's entry `id`. On `threads` threads.
std::vector<std::string_view> merge_strings(const std::vector<const StringSet*>& sets,
                                            std::vector<std::vector<uint32_t>>& codes, std::size_t threads);

// The dictionary of `strings` (sorted, distinct), copied into its pool on `threads` threads.
std::shared_ptr<Dictionary> make_dictionary(const std::vector<std::string_view>& strings, std::size_t threads);

// A VARCHAR column of plain strings (HostColumn::strings) as codes into a
// sorted dictionary, with the same validity; on `threads` threads.
HostColumn encode_strings(const HostColumn& plain, std::size_t threads);

}  // namespace gpusql
