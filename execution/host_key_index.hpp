// Keys of one or more 64-bit words, every position's in one flat array, and
// an open-addressing index of their distinct values: the host backend's
// hash joins and GROUP BYs without an allocation per row.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace gpusql {

// `width` words a position, each position's hash, and (for joins) whether
// it has a key at all (a NULL part matches nothing).
struct FlatKeys {
  std::size_t width = 0;
  std::vector<int64_t> words;
  std::vector<uint64_t> hashes;
  std::vector<uint8_t> valid;
  const int64_t* at(std::size_t p) const { return words.data() + p * width; }
  std::size_t size() const { return hashes.size(); }
};

inline uint64_t hash_words(const int64_t* words, std::size_t width) {
  uint64_t h = 1469598103934665603ull;
  for (std::size_t i = 0; i < width; ++i) h = (h ^ static_cast<uint64_t>(words[i])) * 1099511628211ull + (h >> 29);
  h ^= h >> 33;  // the low bits pick the slot: mix the high ones down
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 33);
}

// The distinct keys of some positions of one FlatKeys, numbered 0, 1, ...
// in the order they first came, each kept as the position it first came at.
class KeyIndex {
 public:
  KeyIndex() { resize(16); }

  // The number of position p's key; a new one (size() before) where new.
  uint32_t insert(const FlatKeys& keys, std::size_t p) {
    if ((first_.size() + 1) * 2 > slots_.size()) resize(slots_.size() * 2, keys);
    std::size_t s = keys.hashes[p] & mask_;
    for (; slots_[s]; s = (s + 1) & mask_) {
      const uint32_t g = slots_[s] - 1;
      if (same(keys, first_[g], keys, p)) return g;
    }
    first_.push_back(p);
    slots_[s] = static_cast<uint32_t>(first_.size());
    return static_cast<uint32_t>(first_.size() - 1);
  }

  // The number of the key `other`'s position p has (other: keys of the
  // same width; `keys`: the ones this index numbers), or -1.
  int64_t find(const FlatKeys& keys, const FlatKeys& other, std::size_t p) const {
    for (std::size_t s = other.hashes[p] & mask_; slots_[s]; s = (s + 1) & mask_) {
      const uint32_t g = slots_[s] - 1;
      if (same(keys, first_[g], other, p)) return g;
    }
    return -1;
  }

  std::size_t size() const { return first_.size(); }
  std::size_t first(std::size_t g) const { return first_[g]; }

 private:
  std::vector<uint32_t> slots_;  // a key's number + 1; 0: empty
  std::vector<std::size_t> first_;
  std::size_t mask_ = 0;

  static bool same(const FlatKeys& a, std::size_t pa, const FlatKeys& b, std::size_t pb) {
    return a.hashes[pa] == b.hashes[pb] && std::memcmp(a.at(pa), b.at(pb), a.width * sizeof(int64_t)) == 0;
  }

  void resize(std::size_t capacity, const FlatKeys& keys) {
    resize(capacity);
    for (std::size_t g = 0; g < first_.size(); ++g) {
      std::size_t s = keys.hashes[first_[g]] & mask_;
      while (slots_[s]) s = (s + 1) & mask_;
      slots_[s] = static_cast<uint32_t>(g + 1);
    }
  }
  void resize(std::size_t capacity) {
    slots_.assign(capacity, 0);
    mask_ = capacity - 1;
  }
};

}  // namespace gpusql
