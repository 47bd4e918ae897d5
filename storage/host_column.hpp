// A column held in host memory: the copy the host executor reads, the source
// a device column is uploaded from, and the shape query results come back in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "storage/data_type.hpp"
#include "storage/dictionary.hpp"

namespace gpusql {

struct HostColumn {
  DataType type;
  std::size_t size = 0;
  // size * type.width() bytes, native endianness.
  std::vector<std::byte> bytes;
  // Bit i of word i/32 set means row i is valid (not NULL). Empty when the
  // column has no NULL, so the common case costs nothing.
  std::vector<uint32_t> validity;
  // VARCHAR only: the sorted strings the codes index.
  std::shared_ptr<const Dictionary> dictionary;
  // VARCHAR kept as plain strings instead (a CSV load's mostly distinct
  // column): row i's value is (*strings)[i] (empty for a NULL), and
  // `bytes` and `dictionary` are empty. Table::host_column() gives its
  // encoded form, made when a query first reads it.
  std::shared_ptr<const StringPool> strings;

  HostColumn() = default;
  HostColumn(DataType t, std::size_t rows) : type(t), size(rows), bytes(rows * t.width()) {}

  template <class T>
  std::span<T> values() {
    return {reinterpret_cast<T*>(bytes.data()), size};
  }
  template <class T>
  std::span<const T> values() const {
    return {reinterpret_cast<const T*>(bytes.data()), size};
  }

  bool is_plain() const { return strings != nullptr; }
  bool has_nulls() const { return !validity.empty(); }
  bool is_valid(std::size_t row) const {
    return validity.empty() || ((validity[row / 32] >> (row % 32)) & 1u);
  }
  // Marks `row` NULL, creating the bitmap (all valid) on the first NULL.
  void set_null(std::size_t row);
  std::size_t null_count() const;
};

inline std::size_t validity_words(std::size_t rows) { return (rows + 31) / 32; }

}  // namespace gpusql
