#include "storage/device_table.hpp"

#include <algorithm>

#include "common/trace.hpp"
#include "storage/column_ops.hpp"
#include "storage/string_pool.hpp"
#include "storage/table.hpp"

namespace gpusql {

std::size_t DeviceColumn::bytes() const {
  return data.size() + validity.size() + dictionary_offsets.size() + dictionary_bytes.size() + string_offsets.size() +
         string_bytes.size();
}

std::size_t DeviceTable::bytes() const {
  std::size_t total = 0;
  for (const auto& c : columns) total += c.bytes();
  return total;
}

std::size_t device_bytes_needed(const HostColumn& column) {
  std::size_t total = column.bytes.size() + column.validity.size() * sizeof(uint32_t);
  if (column.type.id == Type::Varchar && column.dictionary) total += flat_dictionary_bytes(*column.dictionary);
  return total;
}

void throw_table_does_not_fit(const std::string& table, std::size_t needed, const DeviceContext& context) {
  throw Error(ErrorKind::OutOfMemory, "out of GPU memory: table \"" + table + "\" needs " + format_bytes(needed) +
                                          ", " + format_bytes(context.free_bytes()) + " free; no table was changed");
}

namespace {

// `bytes` of `buffer` from byte `at` into `destination`, through its
// context's pinned staging (DeviceContext::copy_to_host); waits for them.
void read_back(void* destination, const DeviceBuffer& buffer, std::size_t at, std::size_t bytes) {
  if (bytes) buffer.context()->copy_to_host(destination, static_cast<const std::byte*>(buffer.data()) + at, bytes);
}

}  // namespace

HostColumn download_column(const DeviceColumn& column, std::size_t rows) { return download_rows(column, 0, rows); }

HostColumn download_rows(const DeviceColumn& column, std::size_t begin, std::size_t end) {
  if (begin % 32) throw Error(ErrorKind::Invalid, "internal: a column's rows read from a row not a multiple of 32");
  const std::size_t rows = end - begin;
  HostColumn host;
  host.type = column.type;
  host.size = rows;
  if (column.plain_strings()) {
    std::vector<uint64_t> offsets(rows + 1);
    read_back(offsets.data(), column.string_offsets, begin * sizeof(uint64_t), offsets.size() * sizeof(uint64_t));
    const uint64_t first = offsets.front();
    for (uint64_t& offset : offsets) offset -= first;
    StringPool::Bytes bytes(offsets.back());
    read_back(bytes.data(), column.string_bytes, first, bytes.size());
    host.strings = std::make_shared<const StringPool>(StringPool::adopt(std::move(offsets), std::move(bytes)));
  } else if (rows) {
    const std::size_t width = column.type.width();
    host.bytes.resize(rows * width);
    read_back(host.bytes.data(), column.data, begin * width, host.bytes.size());
  }
  if (column.validity.size() && rows) {
    host.validity.resize(validity_words(rows));
    read_back(host.validity.data(), column.validity, begin / 32 * sizeof(uint32_t),
              host.validity.size() * sizeof(uint32_t));
    normalize_validity(host);
  }
  return host;
}

std::vector<uint32_t> download_validity(const DeviceColumn& column, std::size_t rows) {
  std::vector<uint32_t> validity;
  if (!column.validity.size() || !rows) return validity;
  validity.resize(validity_words(rows));
  read_back(validity.data(), column.validity, 0, validity.size() * sizeof(uint32_t));
  return validity;
}

void upload_plain_strings(const StringPool& strings, DeviceColumn& device, DeviceContext& context) {
  DeviceBuffer offsets(context, (strings.size() + 1) * sizeof(uint64_t));
  DeviceBuffer bytes(context, strings.byte_size());
  StagedUpload upload(context);
  upload.to_device(offsets.data(), strings.offsets(), offsets.size());
  upload.to_device(bytes.data(), strings.bytes(), strings.byte_size());
  upload.finish();
  device.string_offsets = std::move(offsets);
  device.string_bytes = std::move(bytes);
}

bool can_encode_on_device(std::size_t rows, const DeviceContext& context) {
  return context.kernels().encode_strings && rows < std::size_t(UINT32_MAX);
}

DeviceColumn encode_on_device(const DeviceColumn& plain, std::size_t rows, std::shared_ptr<const Dictionary>& dictionary,
                              DeviceContext& context) {
  DeviceColumn encoded;
  encoded.type = plain.type;
  encoded.size = rows;
  encoded.validity = DeviceBuffer(context, plain.validity.size());
  encoded.dictionary_entries = context.kernels().encode_strings(
      plain.string_offsets.as<uint64_t>(), plain.string_bytes.as<char>(),
      plain.validity.size() ? plain.validity.as<uint32_t>() : nullptr, rows, encoded.data, encoded.dictionary_offsets,
      encoded.dictionary_bytes, context);
  StagedUpload copy(context);
  if (plain.validity.size()) copy.device_to_device(encoded.validity.data(), plain.validity.data(), plain.validity.size());
  copy.finish();
  trace::mark("encode-validity");
  std::vector<uint64_t> offsets(encoded.dictionary_entries + 1);
  context.copy_to_host(offsets.data(), encoded.dictionary_offsets.data(), offsets.size() * sizeof(uint64_t));
  StringPool::Bytes bytes(offsets.back());
  context.copy_to_host(bytes.data(), encoded.dictionary_bytes.data(), bytes.size());
  trace::mark("encode-dictionary-read");
  auto made = std::make_shared<Dictionary>();
  made->values = StringPool::adopt(std::move(offsets), std::move(bytes));
  dictionary = std::move(made);
  return encoded;
}

void upload_validity(const HostColumn& column, DeviceColumn& device, DeviceContext& context, StagedUpload& upload) {
  if (column.validity.empty()) return;
  const std::size_t bytes = column.validity.size() * sizeof(uint32_t);
  device.validity = DeviceBuffer(context, bytes);
  upload.to_device(device.validity.data(), column.validity.data(), bytes);
}

namespace {

void allocate_dictionary(const Dictionary& dictionary, DeviceColumn& device, DeviceContext& context) {
  device.dictionary_offsets = DeviceBuffer(context, (dictionary.size() + 1) * sizeof(uint64_t));
  device.dictionary_bytes = DeviceBuffer(context, dictionary.values.byte_size());
  device.dictionary_entries = dictionary.size();
}

// The pool's layout is the device's: both buffers go over as they are.
void copy_dictionary(const Dictionary& dictionary, DeviceColumn& device, StagedUpload& upload) {
  upload.to_device(device.dictionary_offsets.data(), dictionary.values.offsets(),
                   (dictionary.size() + 1) * sizeof(uint64_t));
  upload.to_device(device.dictionary_bytes.as<char>(), dictionary.values.bytes(), dictionary.values.byte_size());
}

}  // namespace

void upload_dictionary(const Dictionary& dictionary, DeviceColumn& device, DeviceContext& context,
                       StagedUpload& upload) {
  allocate_dictionary(dictionary, device, context);
  copy_dictionary(dictionary, device, upload);
}

std::unique_ptr<DeviceTable> upload_table(const Table& table, DeviceContext& context) {
  std::size_t needed = 0;
  for (const auto& c : table.host) needed += device_bytes_needed(c);
  auto device = std::make_unique<DeviceTable>();
  StagedUpload upload(context);
  try {
    for (const auto& c : table.host) {
      DeviceColumn d;
      d.type = c.type;
      d.size = c.size;
      d.data = DeviceBuffer(context, c.bytes.size());
      d.validity = DeviceBuffer(context, c.validity.size() * sizeof(uint32_t));
      if (c.type.id == Type::Varchar && c.dictionary) allocate_dictionary(*c.dictionary, d, context);
      device->columns.push_back(std::move(d));
    }
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::OutOfMemory) throw;
    device.reset();
    throw_table_does_not_fit(table.name, needed, context);
  }
  for (std::size_t i = 0; i < table.host.size(); ++i) {
    const auto& h = table.host[i];
    auto& d = device->columns[i];
    upload.to_device(d.data.data(), h.bytes.data(), h.bytes.size());
    if (!h.validity.empty()) upload.to_device(d.validity.data(), h.validity.data(), d.validity.size());
    if (h.type.id == Type::Varchar && h.dictionary) copy_dictionary(*h.dictionary, d, upload);
  }
  upload.finish();
  return device;
}

DeviceColumn upload_column(const HostColumn& column, DeviceContext& context) {
  DeviceColumn d;
  d.type = column.type;
  d.size = column.size;
  StagedUpload upload(context);
  try {
    d.data = DeviceBuffer(context, column.bytes.size());
    upload.to_device(d.data.data(), column.bytes.data(), column.bytes.size());
    upload_validity(column, d, context, upload);
    if (column.type.id == Type::Varchar && column.dictionary) upload_dictionary(*column.dictionary, d, context, upload);
    upload.finish();
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::OutOfMemory) throw;
    throw Error(ErrorKind::OutOfMemory, "out of GPU memory: a column needs " + format_bytes(device_bytes_needed(column)) +
                                            ", " + format_bytes(context.free_bytes()) + " free; no table was changed");
  }
  return d;
}

std::unique_ptr<DeviceTable> upload_appended_table(const Table& old, const Table& next, DeviceContext& context) {
  if (!old.device || old.columns.size() != next.columns.size()) return upload_table(next, context);
  std::size_t needed = 0;
  for (const auto& c : next.host) needed += device_bytes_needed(c);
  auto device = std::make_unique<DeviceTable>();
  StagedUpload upload(context);
  try {
    for (std::size_t i = 0; i < next.host.size(); ++i) {
      const HostColumn& h = next.host[i];
      const DeviceColumn& before = old.device->columns[i];
      DeviceColumn d;
      d.type = h.type;
      d.size = h.size;
      d.data = DeviceBuffer(context, h.bytes.size());
      // Codes of the old rows stay valid only when the dictionary did not change.
      // (old.host[i] may hold no values: a table on the device alone.)
      const bool same_dictionary = h.dictionary == old.host[i].dictionary;
      const std::size_t kept = h.type.id != Type::Varchar || same_dictionary
                                   ? std::min(before.data.size(), old.rows * h.type.width())
                                   : 0;
      upload.device_to_device(d.data.data(), before.data.data(), kept);
      upload.to_device(d.data.as<std::byte>() + kept, h.bytes.data() + kept, h.bytes.size() - kept);
      upload_validity(h, d, context, upload);
      if (h.type.id == Type::Varchar && h.dictionary) {
        if (same_dictionary && before.dictionary_offsets.size()) {
          d.dictionary_offsets = DeviceBuffer(context, before.dictionary_offsets.size());
          d.dictionary_bytes = DeviceBuffer(context, before.dictionary_bytes.size());
          d.dictionary_entries = before.dictionary_entries;
          upload.device_to_device(d.dictionary_offsets.data(), before.dictionary_offsets.data(),
                                  before.dictionary_offsets.size());
          upload.device_to_device(d.dictionary_bytes.data(), before.dictionary_bytes.data(),
                                  before.dictionary_bytes.size());
        } else {
          upload_dictionary(*h.dictionary, d, context, upload);
        }
      }
      device->columns.push_back(std::move(d));
    }
    upload.finish();
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::OutOfMemory) throw;
    device.reset();
    throw_table_does_not_fit(next.name, needed, context);
  }
  return device;
}

}  // namespace gpusql
