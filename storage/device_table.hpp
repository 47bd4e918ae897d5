// A table's columns in GPU memory: one pool buffer of values per column and,
// for columns with NULLs, one of validity bits (the host layout, byte for
// byte). A VARCHAR column also carries its sorted dictionary, flat, so a
// kernel can evaluate a string predicate (LIKE) once per distinct string and
// then filter on codes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "storage/data_type.hpp"
#include "storage/device_memory.hpp"

namespace gpusql {

struct Table;
struct HostColumn;
struct Dictionary;
class StringPool;

struct DeviceColumn {
  DataType type;
  std::size_t size = 0;
  DeviceBuffer data;      // at least size * type.width() bytes
  DeviceBuffer validity;  // empty when the column has no NULL
  // VARCHAR: entry i of the dictionary is bytes [offsets[i], offsets[i + 1])
  // of `dictionary_bytes`; `dictionary_offsets` holds entries + 1 uint64_t.
  DeviceBuffer dictionary_offsets;
  DeviceBuffer dictionary_bytes;
  std::size_t dictionary_entries = 0;
  // VARCHAR kept as plain strings (HostColumn::strings) by a table that lives
  // on the device alone: row i is bytes [string_offsets[i],
  // string_offsets[i + 1]) of `string_bytes` (size + 1 uint64_t offsets, a
  // NULL's range empty), and `data` is empty. A LIKE reads this form
  // (kernels/string_like.hpp); every other query reads the column's encoded
  // form (Table::device_column), made on the device (encode_on_device()).
  DeviceBuffer string_offsets;
  DeviceBuffer string_bytes;

  bool plain_strings() const { return string_offsets.size() != 0; }
  std::size_t bytes() const;
};

struct DeviceTable {
  std::vector<DeviceColumn> columns;
  std::size_t bytes() const;
};

// Bytes a host column takes once uploaded: values, validity, dictionary.
std::size_t device_bytes_needed(const HostColumn& column);

// The error for a table that does not fit: it names the bytes needed and free.
[[noreturn]] void throw_table_does_not_fit(const std::string& table, std::size_t needed, const DeviceContext& context);

// Copies every column of `table` to the device. All buffers are allocated
// before the first copy, so running out of memory fails before anything is
// half-uploaded; the error names the bytes needed and free.
std::unique_ptr<DeviceTable> upload_table(const Table& table, DeviceContext& context);

// Copies one host column to the device (values, validity, dictionary) and
// waits for it. Error(OutOfMemory) names the bytes needed and free.
DeviceColumn upload_column(const HostColumn& column, DeviceContext& context);

// The device copy of `next`, a version of `old` with rows appended (INSERT):
// what `old` already has on the device is copied there (values, and a
// dictionary that did not change), only the rest goes over from the host.
// Errors as upload_table.
std::unique_ptr<DeviceTable> upload_appended_table(const Table& old, const Table& next, DeviceContext& context);

// A host copy of device column `column` of `rows` values (values, or plain
// strings, and validity; a bitmap without a NULL is dropped), for a table
// that lives on the device alone. Waits for the copy; throws Error(Device)
// if it fails.
HostColumn download_column(const DeviceColumn& column, std::size_t rows);
// Rows [begin, end) of the column the same way; `begin` a multiple of 32
// (the validity bitmap is read from a whole word).
HostColumn download_rows(const DeviceColumn& column, std::size_t begin, std::size_t end);
// Its validity words alone (for `rows` rows; none when it has no NULL).
std::vector<uint32_t> download_validity(const DeviceColumn& column, std::size_t rows);

// Gives `device` (a column of `strings.size()` rows) the plain strings'
// device form. Error(OutOfMemory) from the allocation leaves it unchanged.
void upload_plain_strings(const StringPool& strings, DeviceColumn& device, DeviceContext& context);

// Whether `context` can encode plain strings on the device: its engine gave
// it the kernel (StorageKernels::encode_strings), and `rows` fit its 32-bit
// row ids.
bool can_encode_on_device(std::size_t rows, const DeviceContext& context);
// The encoded form of `plain` (plain strings of `rows` rows on the device):
// codes into their sorted dictionary, its validity, and that dictionary
// flat -- what upload_column() makes of encode_strings()'s host column --
// made on the device by the context's kernel; the dictionary read back into
// `dictionary`. Only the distinct strings cross to the host.
// Error(OutOfMemory) leaves nothing behind.
DeviceColumn encode_on_device(const DeviceColumn& plain, std::size_t rows, std::shared_ptr<const Dictionary>& dictionary,
                              DeviceContext& context);

// Allocates and fills a column's validity bits (when it has NULLs) and, for
// VARCHAR, its flat dictionary. Throws Error(OutOfMemory) from the allocation.
void upload_validity(const HostColumn& column, DeviceColumn& device, DeviceContext& context, StagedUpload& upload);
void upload_dictionary(const Dictionary& dictionary, DeviceColumn& device, DeviceContext& context,
                       StagedUpload& upload);

}  // namespace gpusql
