// What flows between physical operators: a chunk of rows, as views of
// columns in one memory space (the host's or the device's), each read
// through an optional selection of positions (late materialization: a
// filter or a join composes positions, values are read only where an
// expression needs them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "storage/data_type.hpp"
#include "storage/device_memory.hpp"
#include "storage/dictionary.hpp"

namespace gpusql {

enum class MemorySpace { Host, Device };

// Row positions (32-bit, as the kernels index), in host memory or in a
// device buffer: a selection into a chunk's columns, or one side of a
// join's pairs (kernels::kNoMatch for an outer join's missing side).
class Positions {
 public:
  explicit Positions(std::vector<uint32_t> ids) : host_(std::move(ids)), size_(host_.size()), on_device_(false) {}
  Positions(DeviceBuffer ids, std::size_t count) : device_(std::move(ids)), size_(count), on_device_(true) {}

  const uint32_t* data() const { return on_device_ ? device_.as<uint32_t>() : host_.data(); }
  uint32_t* mutable_data() { return on_device_ ? device_.as<uint32_t>() : host_.data(); }
  std::size_t size() const { return size_; }
  MemorySpace space() const { return on_device_ ? MemorySpace::Device : MemorySpace::Host; }
  // The host ids (a host Positions only).
  const std::vector<uint32_t>& host_ids() const { return host_; }

 private:
  std::vector<uint32_t> host_;
  DeviceBuffer device_;
  std::size_t size_ = 0;
  bool on_device_ = false;
};
using PositionsPtr = std::shared_ptr<Positions>;

// One column of a chunk: `data` (and `validity`, null when it has no NULL)
// read at row rows[p] for position p, or at p itself without `rows`; for a
// rowid column the row itself is the value. Absent where the plan's column
// is not produced by this chunk's operator (a table not joined in yet).
struct ColumnView {
  const void* data = nullptr;
  const uint32_t* validity = nullptr;
  DataType type;
  bool rowid = false;
  bool present = false;
  PositionsPtr rows;
  std::shared_ptr<const Dictionary> dictionary;

  // The type its values are read as (a rowid is a BIGINT).
  DataType value_type() const { return rowid ? DataType::bigint() : type; }

  // A present column read position for position.
  static ColumnView dense(const void* data, const uint32_t* validity, DataType type,
                          std::shared_ptr<const Dictionary> dictionary) {
    ColumnView v;
    v.data = data;
    v.validity = validity;
    v.type = type;
    v.present = true;
    v.dictionary = std::move(dictionary);
    return v;
  }
};

// A chunk: `count` positions over its columns, which live in `space`.
// `owned` keeps alive the memory the columns point into that no table owns
// (what operators computed): host columns or device buffers, as the
// backend that made them knows.
struct Chunk {
  std::vector<ColumnView> columns;
  std::size_t count = 0;
  MemorySpace space = MemorySpace::Host;
  std::vector<std::shared_ptr<void>> owned;

  void keep(const Chunk& other) { owned.insert(owned.end(), other.owned.begin(), other.owned.end()); }
};

}  // namespace gpusql
