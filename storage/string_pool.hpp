// Strings stored Arrow-style: one buffer of bytes and n + 1 offsets, string
// i being bytes [offsets[i], offsets[i + 1]). A dictionary of tens of
// millions of strings is then two allocations, not one per string, and goes
// to the device as it is (DeviceColumn's flat dictionary has this layout).
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gpusql {

// An allocator whose resize() leaves new chars uninitialized: the bulk
// builders overwrite every byte, and zeroing gigabytes first would cost a
// pass over them.
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

class StringPool {
 public:
  class iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = std::string_view;

    iterator() = default;
    iterator(const StringPool* pool, std::size_t i) : pool_(pool), i_(i) {}
    std::string_view operator*() const { return (*pool_)[i_]; }
    std::string_view operator[](difference_type k) const { return (*pool_)[i_ + k]; }
    iterator& operator++() { ++i_; return *this; }
    iterator operator++(int) { iterator t = *this; ++i_; return t; }
    iterator& operator--() { --i_; return *this; }
    iterator operator--(int) { iterator t = *this; --i_; return t; }
    iterator& operator+=(difference_type k) { i_ += k; return *this; }
    iterator& operator-=(difference_type k) { i_ -= k; return *this; }
    friend iterator operator+(iterator a, difference_type k) { return a += k; }
    friend iterator operator+(difference_type k, iterator a) { return a += k; }
    friend iterator operator-(iterator a, difference_type k) { return a -= k; }
    friend difference_type operator-(const iterator& a, const iterator& b) {
      return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.i_ == b.i_; }
    friend auto operator<=>(const iterator& a, const iterator& b) { return a.i_ <=> b.i_; }

   private:
    const StringPool* pool_ = nullptr;
    std::size_t i_ = 0;
  };
  using const_iterator = iterator;
  using value_type = std::string_view;
  using Bytes = std::vector<char, UninitializedAllocator<char>>;

  StringPool() = default;
  // The strings of any range of things convertible to std::string_view.
  template <class Range>
  static StringPool of(const Range& strings) {
    StringPool pool;
    std::size_t bytes = 0, n = 0;
    for (const auto& s : strings) {
      bytes += std::string_view(s).size();
      ++n;
    }
    pool.reserve(n, bytes);
    for (const auto& s : strings) pool.push_back(std::string_view(s));
    return pool;
  }
  // A pool taking `offsets` (n + 1 of them, from 0) and `bytes` as they are.
  static StringPool adopt(std::vector<uint64_t> offsets, Bytes bytes);

  std::size_t size() const { return offsets_.size() - 1; }
  bool empty() const { return offsets_.size() == 1; }
  std::string_view operator[](std::size_t i) const {
    return {bytes_.data() + offsets_[i], static_cast<std::size_t>(offsets_[i + 1] - offsets_[i])};
  }
  // operator[] after a bounds check (std::out_of_range).
  std::string_view at(std::size_t i) const;
  std::string_view back() const { return (*this)[size() - 1]; }
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, size()}; }

  void push_back(std::string_view s) {
    bytes_.insert(bytes_.end(), s.begin(), s.end());
    offsets_.push_back(bytes_.size());
  }
  void reserve(std::size_t strings, std::size_t bytes) {
    offsets_.reserve(strings + 1);
    bytes_.reserve(bytes);
  }
  void clear() {
    offsets_.assign(1, 0);
    bytes_.clear();
  }

  // Copies, for tests and messages.
  std::vector<std::string> to_strings() const { return {begin(), end()}; }

  // The layout itself: size() + 1 offsets, and byte_size() bytes.
  const uint64_t* offsets() const { return offsets_.data(); }
  const char* bytes() const { return bytes_.data(); }
  std::size_t byte_size() const { return bytes_.size(); }
  // Host memory held.
  std::size_t memory_bytes() const { return offsets_.capacity() * sizeof(uint64_t) + bytes_.capacity(); }

  friend bool operator==(const StringPool& a, const StringPool& b) {
    return a.offsets_ == b.offsets_ && std::string_view(a.bytes_.data(), a.bytes_.size()) ==
                                           std::string_view(b.bytes_.data(), b.bytes_.size());
  }

 private:
  std::vector<uint64_t> offsets_ = std::vector<uint64_t>(1, 0);
  Bytes bytes_;
};

}  // namespace gpusql
