// export_arrow: a Result as the Arrow C data interface's structs. Every
// column is copied into buffers its own child struct owns, so an importer
// may keep the structs past the Result, and release a child it moved out of
// the parent on its own, as the specification requires.
#include "engine/arrow_export.hpp"

#include <atomic>
#include <bit>
#include <cassert>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "storage/result_data.hpp"

namespace gpusql {
namespace {

// The engine's 32-bit validity words and its (lower, upper) 64-bit word
// pairs of a 128-bit DECIMAL are copied byte for byte: read as bytes they
// are Arrow's layout only on a little-endian machine.
static_assert(std::endian::native == std::endian::little, "the Arrow export copies little-endian words as bytes");

std::atomic<std::size_t> live_structs{0};

// One buffer of an exported array. Zero-filled, so the bits of a bitmap past
// its last row are 0 rather than whatever the allocator left; 64-byte
// aligned, as Arrow's own allocator aligns, so that an importer loading a
// 128-bit decimal or a SIMD word never meets an unaligned buffer.
class Buffer {
 public:
  static constexpr std::align_val_t kAlignment{64};

  explicit Buffer(std::size_t bytes)
      : data_(static_cast<std::byte*>(::operator new(bytes == 0 ? 1 : bytes, kAlignment))) {
    std::memset(data_.get(), 0, bytes);
  }
  template <class T>
  T* as() const {
    return reinterpret_cast<T*>(data_.get());
  }

 private:
  struct Free {
    void operator()(std::byte* p) const { ::operator delete(p, kAlignment); }
  };
  std::unique_ptr<std::byte, Free> data_;
};

// What an exported ArrowSchema's private_data owns: the strings its format
// and name point into, and its children's structs.
struct SchemaOwner {
  std::string format;
  std::string name;
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_pointers;

  SchemaOwner(std::string f, std::string n, std::size_t child_count)
      : format(std::move(f)), name(std::move(n)), children(child_count, ArrowSchema{}) {
    for (ArrowSchema& child : children) child_pointers.push_back(&child);
    ++live_structs;
  }
  // A child still in place is released with its parent; one the importer
  // moved out has had its release set to NULL here and lives on its own.
  ~SchemaOwner() {
    for (ArrowSchema& child : children)
      if (child.release != nullptr) child.release(&child);
    --live_structs;
  }
  SchemaOwner(const SchemaOwner&) = delete;
  SchemaOwner& operator=(const SchemaOwner&) = delete;
};

// What an exported ArrowArray's private_data owns: its buffers and its
// children's structs (each child owns its own buffers).
struct ArrayOwner {
  std::vector<Buffer> storage;
  std::vector<const void*> buffers;
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_pointers;

  explicit ArrayOwner(std::size_t child_count) : children(child_count, ArrowArray{}) {
    for (ArrowArray& child : children) child_pointers.push_back(&child);
    ++live_structs;
  }
  ~ArrayOwner() {
    for (ArrowArray& child : children)
      if (child.release != nullptr) child.release(&child);
    --live_structs;
  }
  ArrayOwner(const ArrayOwner&) = delete;
  ArrayOwner& operator=(const ArrayOwner&) = delete;

  // Appends `buffer` as the next of the array's buffers; nullptr (no
  // buffer) only where the specification allows it: a validity bitmap of no
  // NULL.
  void add(Buffer buffer) {
    storage.push_back(std::move(buffer));
    buffers.push_back(storage.back().as<const void>());
  }
  void add_absent() { buffers.push_back(nullptr); }
};

// The release callbacks free the owner seal() let go of into private_data,
// and take nothing from the struct's address: an importer may have moved it.
void release_schema(ArrowSchema* schema) {
  assert(schema->release == &release_schema);
  delete static_cast<SchemaOwner*>(schema->private_data);
  schema->private_data = nullptr;
  schema->release = nullptr;
}

void release_array(ArrowArray* array) {
  assert(array->release == &release_array);
  delete static_cast<ArrayOwner*>(array->private_data);
  array->private_data = nullptr;
  array->release = nullptr;
}

// Hands `owner` to `out`; from here on out's release callback frees it.
void seal(std::unique_ptr<SchemaOwner> owner, int64_t flags, ArrowSchema* out) noexcept {
  out->format = owner->format.c_str();
  out->name = owner->name.c_str();
  out->metadata = nullptr;
  out->flags = flags;
  out->n_children = static_cast<int64_t>(owner->children.size());
  out->children = owner->children.empty() ? nullptr : owner->child_pointers.data();
  out->dictionary = nullptr;
  out->release = &release_schema;
  out->private_data = owner.release();
}

void seal(std::unique_ptr<ArrayOwner> owner, std::size_t length, std::size_t null_count, ArrowArray* out) noexcept {
  out->length = static_cast<int64_t>(length);
  out->null_count = static_cast<int64_t>(null_count);
  out->offset = 0;
  out->n_buffers = static_cast<int64_t>(owner->buffers.size());
  out->n_children = static_cast<int64_t>(owner->children.size());
  out->buffers = owner->buffers.data();
  out->children = owner->children.empty() ? nullptr : owner->child_pointers.data();
  out->dictionary = nullptr;
  out->release = &release_array;
  out->private_data = owner.release();
}

std::size_t count_nulls(const HostColumn& column, std::size_t rows) {
  std::size_t nulls = 0;
  for (std::size_t row = 0; row < rows; ++row) nulls += !column.is_valid(row);
  return nulls;
}

// memcpy, but a count of 0 may come with null pointers (an empty column's
// vectors hold no storage), which memcpy itself must not be given.
void copy_bytes(void* to, const void* from, std::size_t bytes) {
  if (bytes != 0) std::memcpy(to, from, bytes);
}

// Bit i of the engine's 32-bit word i/32 is, in little-endian bytes, bit i%8
// of byte i/8: Arrow's bitmap order, so the words copy as they are. The bits
// past the last row are cleared: the engine does not promise them.
Buffer validity_bitmap(const HostColumn& column, std::size_t rows) {
  assert(column.validity.size() == validity_words(rows));
  const std::size_t bytes = (rows + 7) / 8;
  Buffer out(bytes);
  copy_bytes(out.as<uint8_t>(), column.validity.data(), bytes);
  if (rows % 8 != 0) out.as<uint8_t>()[rows / 8] &= static_cast<uint8_t>((1u << (rows % 8)) - 1);
  return out;
}

// INTEGER, BIGINT, REAL, DOUBLE and DATE are stored as Arrow lays them out.
Buffer copy_values(const HostColumn& column, std::size_t rows) {
  Buffer out(rows * column.type.width());
  copy_bytes(out.as<std::byte>(), column.bytes.data(), rows * column.type.width());
  return out;
}

// The engine keeps a BOOLEAN in a byte, Arrow in a bit.
Buffer boolean_bits(const HostColumn& column, std::size_t rows) {
  Buffer out((rows + 7) / 8);
  uint8_t* bits = out.as<uint8_t>();
  const auto values = column.values<uint8_t>();
  for (std::size_t row = 0; row < rows; ++row)
    if (values[row] != 0) bits[row / 8] |= static_cast<uint8_t>(1u << (row % 8));
  return out;
}

// Arrow's "d:p,s" is 128 bits wide whatever the precision: a 64-bit DECIMAL
// is sign-extended, a 128-bit one already is two's complement (lower word,
// upper word).
Buffer decimal128_values(const HostColumn& column, std::size_t rows) {
  Buffer out(rows * 16);
  if (column.type.is_wide_decimal()) {
    copy_bytes(out.as<std::byte>(), column.bytes.data(), rows * 16);
    return out;
  }
  int64_t* words = out.as<int64_t>();
  const auto values = column.values<int64_t>();
  for (std::size_t row = 0; row < rows; ++row) {
    words[2 * row] = values[row];
    words[2 * row + 1] = values[row] < 0 ? -1 : 0;
  }
  return out;
}

// The bytes a VARCHAR column's strings take once its codes are resolved
// through the dictionary; NULLs take none.
std::size_t string_bytes(const HostColumn& column, std::size_t rows) {
  std::size_t total = 0;
  const auto codes = column.values<uint32_t>();
  for (std::size_t row = 0; row < rows; ++row)
    if (column.is_valid(row)) total += column.dictionary->values[codes[row]].size();
  return total;
}

// Offsets and bytes of plain strings: the dictionary resolved row by row,
// since an importer wants the values, not the engine's codes. A NULL row is
// an empty string (its code may name no entry).
template <class Offset>
void add_string_buffers(const HostColumn& column, std::size_t rows, std::size_t bytes, ArrayOwner& owner) {
  Buffer offsets((rows + 1) * sizeof(Offset));
  Buffer data(bytes);
  Offset* offset = offsets.as<Offset>();
  char* out = data.as<char>();
  const auto codes = column.values<uint32_t>();
  std::size_t at = 0;
  for (std::size_t row = 0; row < rows; ++row) {
    offset[row] = static_cast<Offset>(at);
    if (!column.is_valid(row)) continue;
    const std::string_view value = column.dictionary->values[codes[row]];
    copy_bytes(out + at, value.data(), value.size());
    at += value.size();
  }
  offset[rows] = static_cast<Offset>(at);
  owner.add(std::move(offsets));
  owner.add(std::move(data));
}

[[noreturn]] void throw_not_exportable(const DataType& type) {
  throw Error(ErrorKind::NotSupported, "not supported yet: exporting " + type.to_string() + " values to Arrow");
}

// The format of a column's values; VARCHAR's "u" becomes "U" where its
// strings outgrow 32-bit offsets (export_column decides).
std::string arrow_format(const DataType& type) {
  switch (type.id) {
    case Type::Boolean: return "b";
    case Type::Integer: return "i";
    case Type::BigInt: return "l";
    case Type::Real: return "f";
    case Type::Double: return "g";
    case Type::Date: return "tdD";
    case Type::Decimal: return "d:" + std::to_string(type.precision) + "," + std::to_string(type.scale);
    case Type::Varchar: return "u";
    case Type::HugeInt: break;
  }
  throw_not_exportable(type);
}

struct ExportedColumn {
  std::string format;
  std::unique_ptr<ArrayOwner> array;
};

// One column's child: its format, and an array of its validity bitmap, then
// its values.
ExportedColumn export_column(const HostColumn& column, std::size_t rows, std::size_t null_count,
                             std::size_t max_string_bytes) {
  ExportedColumn out{arrow_format(column.type), std::make_unique<ArrayOwner>(0)};
  ArrayOwner& array = *out.array;
  if (null_count == 0) array.add_absent();
  else array.add(validity_bitmap(column, rows));
  switch (column.type.id) {
    case Type::Boolean: array.add(boolean_bits(column, rows)); break;
    case Type::Integer:
    case Type::BigInt:
    case Type::Real:
    case Type::Double:
    case Type::Date: array.add(copy_values(column, rows)); break;
    case Type::Decimal: array.add(decimal128_values(column, rows)); break;
    case Type::Varchar: {
      const std::size_t bytes = string_bytes(column, rows);
      if (bytes <= max_string_bytes) {
        add_string_buffers<int32_t>(column, rows, bytes, array);
      } else {
        out.format = "U";
        add_string_buffers<int64_t>(column, rows, bytes, array);
      }
      break;
    }
    case Type::HugeInt: throw_not_exportable(column.type);
  }
  return out;
}

}  // namespace

namespace detail {

void export_arrow(const Result& result, ArrowSchema* schema, ArrowArray* array, std::size_t max_string_bytes) {
  if (schema == nullptr || array == nullptr)
    throw Error(ErrorKind::Invalid, "export_arrow: the ArrowSchema and ArrowArray pointers must not be null");
  const ResultData& data = result.data();
  const std::size_t columns = data.columns.size();
  // A status-only result may carry a row count; with no column there are no rows to show.
  const std::size_t rows = columns == 0 ? 0 : data.rows;

  // Built in owners first, handed to the caller's structs last: an exception
  // part way frees what was built and leaves `schema` and `array` untouched.
  auto schema_owner = std::make_unique<SchemaOwner>("+s", "", columns);
  auto array_owner = std::make_unique<ArrayOwner>(columns);
  array_owner->add_absent();  // the struct has no NULL rows of its own
  for (std::size_t i = 0; i < columns; ++i) {
    const HostColumn& column = data.columns[i];
    assert(column.size == rows);
    const std::size_t null_count = count_nulls(column, rows);
    ExportedColumn child = export_column(column, rows, null_count, max_string_bytes);
    seal(std::make_unique<SchemaOwner>(std::move(child.format), data.names[i], 0), ARROW_FLAG_NULLABLE,
         &schema_owner->children[i]);
    seal(std::move(child.array), rows, null_count, &array_owner->children[i]);
  }
  seal(std::move(schema_owner), 0, schema);
  seal(std::move(array_owner), rows, 0, array);
}

std::size_t live_arrow_structs() { return live_structs.load(); }

}  // namespace detail

void export_arrow(const Result& result, ArrowSchema* schema, ArrowArray* array) {
  detail::export_arrow(result, schema, array, detail::kMaxArrowStringBytes);
}

}  // namespace gpusql
