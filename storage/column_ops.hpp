// Whole-column operations on host columns: building one value at a time,
// appending one column to another (VARCHAR dictionaries merged, codes
// re-coded, so the sorted-dictionary invariant holds), and the implicit casts
// INSERT applies. Every function returns a new column and leaves its inputs
// as they were.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/host_column.hpp"
#include "storage/value_text.hpp"

namespace gpusql {

// Zeroes the bits past the last row and drops a bitmap that marks no NULL,
// so `validity` is empty exactly when the column has no NULL.
void normalize_validity(HostColumn& column);

// The sorted union of two dictionaries and where each one's codes go in it.
struct DictionaryUnion {
  std::shared_ptr<const Dictionary> dictionary;
  std::vector<uint32_t> left_codes;   // left code -> union code
  std::vector<uint32_t> right_codes;  // right code -> union code
  bool left_unchanged = false;        // the union is `left` itself: its codes stay
};
DictionaryUnion unite_dictionaries(const std::shared_ptr<const Dictionary>& left, const Dictionary& right);

// `a`'s rows followed by `b`'s; both of a.type.
HostColumn concatenate(const HostColumn& a, const HostColumn& b);

// The column converted to `target` as INSERT converts values: numbers widen
// or narrow with a range check (a fraction rounds half away from zero when the
// target has fewer digits), VARCHAR parses as a CSV field does, anything
// formats to VARCHAR. Throws Error(Conversion) naming the value, the target
// type and `column_name` for the first value that does not fit.
HostColumn cast_column(const HostColumn& column, DataType target, std::string_view column_name);

// Builds a column of `type` one value at a time.
class ColumnBuilder {
 public:
  explicit ColumnBuilder(DataType type) : type_(type) {}
  void append_null();
  // VARCHAR only.
  void append_string(std::string_view value);
  // Parses `text` as a value of the type (VARCHAR takes it as it is).
  ParseResult append_text(std::string_view text);
  // Fixed-width types: type.width() bytes of one value.
  void append_raw(const void* value);
  std::size_t size() const { return rows_; }
  HostColumn finish();

 private:
  DataType type_;
  std::size_t rows_ = 0;
  std::vector<std::byte> bytes_;
  std::vector<std::string> strings_;  // VARCHAR: one per row ("" for NULL)
  std::vector<std::size_t> nulls_;
};

// A VARCHAR column of `values`; rows that `validity` (the HostColumn bitmap
// layout, empty: all valid) marks NULL are NULL and add nothing to the dictionary.
HostColumn make_varchar_column(const std::vector<std::string>& values, const std::vector<uint32_t>& validity = {});
HostColumn make_bigint_column(const std::vector<int64_t>& values);

// Host memory a column holds: values, validity and its dictionary's strings.
std::size_t host_bytes(const HostColumn& column);
// Bytes of a dictionary laid out flat: the strings plus (size + 1) offsets.
std::size_t flat_dictionary_bytes(const Dictionary& dictionary);

}  // namespace gpusql
