// A table's columns in GPU memory: one pool buffer of values per column and,
// for columns with NULLs, one of validity bits (the host layout, byte for byte).
#pragma once

#include <memory>
#include <vector>

#include "storage/data_type.hpp"
#include "storage/device_memory.hpp"

namespace gpusql {

struct Table;

struct DeviceColumn {
  DataType type;
  std::size_t size = 0;
  DeviceBuffer data;
  DeviceBuffer validity;  // empty when the column has no NULL
};

struct DeviceTable {
  std::vector<DeviceColumn> columns;
  std::size_t bytes() const;
};

// Copies every column of `table` to the device. All buffers are allocated
// before the first copy, so running out of memory fails before anything is
// half-uploaded; the error names the bytes needed and free.
std::unique_ptr<DeviceTable> upload_table(const Table& table, DeviceContext& context);

}  // namespace gpusql
