// libFuzzer target for the CSV reader (scripts/fuzz-csv.sh builds and runs it
// under ASan and UBSan). Arbitrary bytes must never crash the reader: every
// input either loads or throws gpusql::Error. And the parallel reader must
// agree with the sequential one: the same input cut into tiny chunks and
// parsed on three threads gives the same table, or the same error message.
//
// Input layout: byte 0 picks the options (delimiter given or sniffed, header
// given or sniffed, quoting, NULL marker, declared column types as COPY has
// them); byte 1 the chunk size; the rest is the CSV text.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "storage/column_ops.hpp"
#include "storage/csv_reader.hpp"

namespace {

using namespace gpusql;

// A table COPY appends to: two rows, one NULL, so appending is exercised too.
std::shared_ptr<const Table> declared_table() {
  auto t = std::make_shared<Table>();
  t->name = "t";
  t->columns = {{"i", DataType::integer()},
                {"s", DataType::varchar()},
                {"d", DataType{Type::Decimal, 9, 2}},
                {"day", DataType::date()},
                {"b", DataType::boolean(), true}};
  ColumnBuilder i(DataType::integer()), s(DataType::varchar()), d(DataType{Type::Decimal, 9, 2}),
      day(DataType::date()), b(DataType::boolean());
  i.append_text("7");
  i.append_null();
  s.append_string("zeta");
  s.append_string("alpha");
  d.append_text("1.25");
  d.append_text("-3");
  day.append_text("2000-02-29");
  day.append_null();
  b.append_text("true");
  b.append_text("0");
  for (auto* builder : {&i, &s, &d, &day, &b}) t->host.push_back(builder->finish());
  t->rows = 2;
  return t;
}

std::string describe(const Table& t) {
  std::string out = std::to_string(t.rows) + " rows\n";
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    const HostColumn& h = t.host[c];
    out += t.columns[c].name + " " + t.columns[c].type.to_string() + ":";
    if (h.size != t.rows) __builtin_trap();
    for (std::size_t r = 0; r < h.size; ++r) {
      out += " ";
      if (!h.is_valid(r)) out += "NULL";
      else if (h.type.id == Type::Varchar) {
        uint32_t code = h.values<uint32_t>()[r];
        if (code >= h.dictionary->size()) __builtin_trap();
        out += "'" + h.dictionary->values[code] + "'";
      } else {
        out += format_fixed(h.type, h.bytes.data(), r);
      }
    }
    if (h.type.id == Type::Varchar)  // the sorted-dictionary invariant
      for (std::size_t k = 1; k < h.dictionary->size(); ++k)
        if (!(h.dictionary->values[k - 1] < h.dictionary->values[k])) __builtin_trap();
    out += "\n";
  }
  return out;
}

std::string outcome(std::string_view text, const CsvLoadSpec& spec) {
  try {
    return describe(*load_csv_text(text, "fuzz.csv", spec));
  } catch (const Error& e) {
    return std::string("error: ") + e.what();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const uint8_t flags = data[0];
  const std::size_t chunk = 2 + data[1] % 40;
  std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);

  CsvLoadSpec spec;
  spec.table_name = "fuzz";
  static const char delimiters[] = {',', '|', ';', '\t'};
  if (flags & 0x01) spec.options.delimiter = delimiters[(flags >> 1) & 3];
  if (flags & 0x08) spec.options.header = (flags & 0x10) != 0;
  if (flags & 0x20) spec.options.quote = '\0';
  if (flags & 0x40) spec.options.null_marker = "NA";
  if (flags & 0x80) spec.append_to = declared_table();

  spec.threads = 1;
  const std::string sequential = outcome(text, spec);
  spec.threads = 3;
  spec.chunk_bytes = chunk;
  const std::string parallel = outcome(text, spec);
  if (sequential != parallel) {
    std::fprintf(stderr, "sequential:\n%s\nparallel (chunks of %zu bytes):\n%s\n", sequential.c_str(), chunk,
                 parallel.c_str());
    __builtin_trap();
  }
  return 0;
}
