// gpusql results through the Arrow C data interface
// (https://arrow.apache.org/docs/format/CDataInterface.html): the two C
// structs the specification defines, and a function that fills them from a
// Result. Any Arrow implementation (pyarrow, arrow-rs, nanoarrow, DuckDB,
// Polars...) can import them; no Arrow library is needed to build or link.
//
//   ArrowSchema schema;
//   ArrowArray array;
//   gpusql::export_arrow(db.query("SELECT id, name FROM t"), &schema, &array);
//   // pyarrow: pa.RecordBatch._import_from_c(array_address, schema_address)
//   // ... or release them yourself when done:
//   array.release(&array);
//   schema.release(&schema);
//
// Like gpusql.hpp, this header needs no CUDA header and no Arrow header; where
// Arrow's own abi.h is included as well, the guard below keeps one definition.
#pragma once

#include <cstdint>

#include "gpusql/gpusql.hpp"

// The structs and flags exactly as the specification gives them.
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

#ifdef __cplusplus
extern "C" {
#endif

struct ArrowSchema {
  // Array type description
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;

  // Release callback
  void (*release)(struct ArrowSchema*);
  // Opaque producer-specific data
  void* private_data;
};

struct ArrowArray {
  // Array data description
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;

  // Release callback
  void (*release)(struct ArrowArray*);
  // Opaque producer-specific data
  void* private_data;
};

#ifdef __cplusplus
}
#endif

#endif  // ARROW_C_DATA_INTERFACE

namespace gpusql {

// Exports `result` as one Arrow record batch: `schema` becomes a struct
// ("+s", unnamed, flags 0) whose children are the result's columns in order,
// each named as Result::column_name and flagged ARROW_FLAG_NULLABLE; `array`
// becomes a struct array of row_count() rows (offset 0, no NULLs of its own,
// its validity buffer NULL) whose children hold the columns' values:
//
//   SQL type        format   buffers (after the validity bitmap)
//   BOOLEAN         "b"      values, bit-packed (LSB first)
//   INTEGER         "i"      int32
//   BIGINT          "l"      int64
//   REAL            "f"      float (binary32)
//   DOUBLE          "g"      double (binary64)
//   DATE            "tdD"    int32 days since 1970-01-01
//   DECIMAL(p,s)    "d:p,s"  128-bit little-endian two's complement unscaled
//                            values, whether the engine holds them in 64 bits
//                            (p <= 18) or 128 (a SUM's DECIMAL(38,s))
//   VARCHAR         "u"      int32 offsets, UTF-8 bytes: plain strings, never
//                            an Arrow dictionary, even where the engine stores
//                            the column as dictionary codes
//                   "U"      the same with int64 offsets, when the column's
//                            strings total more than INT32_MAX bytes
//
// A column's validity bitmap (LSB first, 1 = valid) is present exactly when
// it has a NULL, and its null_count is exact; a NULL string is empty in the
// offsets, other NULL slots hold unspecified values. A result without
// columns (a statement's status) exports a struct of 0 children and length 0.
// Buffers are 64-byte aligned.
//
// The export is a copy: both structs own their memory, independent of
// `result`, until their release callbacks run; releasing a parent releases
// the children still in it, and a child moved out of its parent (its struct
// copied elsewhere, the original's release set to NULL, as the
// specification's "Moving child arrays" allows) stays valid until released
// on its own. `schema` and `array` are written only on success; on an error
// they are left untouched and nothing leaks. Throws Error(Invalid) when
// `schema` or `array` is null, std::bad_alloc when out of memory.
void export_arrow(const Result& result, ArrowSchema* schema, ArrowArray* array);

}  // namespace gpusql
