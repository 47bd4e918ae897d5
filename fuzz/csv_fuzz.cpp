// libFuzzer target for the CSV reader (scripts/fuzz-csv.sh builds and runs it
// under ASan and UBSan). Arbitrary bytes must never crash the reader: every
// input either loads or throws gpusql::Error. And the parallel reader must
// agree with the sequential one: the same input cut into tiny chunks and
// parsed on three threads gives the same table, or the same error message,
// and so does a load that keeps every VARCHAR column as plain strings.
//
// Input layout: byte 0 picks the options (delimiter given or sniffed, header
// given or sniffed, quoting, NULL marker, declared column types as COPY has
// them); byte 1 the chunk size; byte 2 where the text is cut into two files;
// the rest is the CSV text.
//
// The two files are read as one load (COPY t FROM 'glob', read_csv([...])),
// sequentially and in tiny chunks, which must agree. Where the cut follows a
// line end and nothing is sniffed (delimiter, header = false and types given),
// a load of both that succeeds equals the load of the whole text.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

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
    const HostColumn& h = t.host_column(c);  // plain strings encoded
    out += t.columns[c].name + " " + t.columns[c].type.to_string() + ":";
    if (h.size != t.rows) __builtin_trap();
    for (std::size_t r = 0; r < h.size; ++r) {
      out += " ";
      if (!h.is_valid(r)) out += "NULL";
      else if (h.type.id == Type::Varchar) {
        uint32_t code = h.values<uint32_t>()[r];
        if (code >= h.dictionary->size()) __builtin_trap();
        out += "'" + std::string(h.dictionary->values[code]) + "'";
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

std::string outcome(const std::vector<CsvSource>& sources, const CsvLoadSpec& spec) {
  try {
    return describe(*load_csv_texts(sources, spec));
  } catch (const Error& e) {
    return std::string("error: ") + e.what();
  }
}

// Sequential, parallel and plain-strings loads of `sources` agree; returns the outcome.
std::string agreed(const std::vector<CsvSource>& sources, CsvLoadSpec spec, std::size_t chunk) {
  spec.threads = 1;
  spec.chunk_bytes = 0;
  const std::string sequential = outcome(sources, spec);
  spec.threads = 3;
  spec.chunk_bytes = chunk;
  const std::string parallel = outcome(sources, spec);
  if (sequential != parallel) {
    std::fprintf(stderr, "%zu file(s), sequential:\n%s\nparallel (chunks of %zu bytes):\n%s\n", sources.size(),
                 sequential.c_str(), chunk, parallel.c_str());
    __builtin_trap();
  }
  // Every VARCHAR column kept as plain strings, then encoded: the same table.
  spec.plain_strings_rows = 0;
  const std::string plain = outcome(sources, spec);
  if (sequential != plain) {
    std::fprintf(stderr, "%zu file(s), sequential:\n%s\nplain strings (chunks of %zu bytes):\n%s\n", sources.size(),
                 sequential.c_str(), chunk, plain.c_str());
    __builtin_trap();
  }
  return sequential;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const uint8_t flags = data[0];
  const std::size_t chunk = 2 + data[1] % 40;
  std::string_view text(reinterpret_cast<const char*>(data + 3), size - 3);
  const std::size_t cut = text.empty() ? 0 : data[2] * text.size() / 256;

  CsvLoadSpec spec;
  spec.table_name = "fuzz";
  static const char delimiters[] = {',', '|', ';', '\t'};
  if (flags & 0x01) spec.options.delimiter = delimiters[(flags >> 1) & 3];
  if (flags & 0x08) spec.options.header = (flags & 0x10) != 0;
  if (flags & 0x20) spec.options.quote = '\0';
  if (flags & 0x40) spec.options.null_marker = "NA";
  if (flags & 0x80) spec.append_to = declared_table();

  const std::string whole = agreed({{text, "fuzz.csv"}}, spec, chunk);
  const std::string_view first = text.substr(0, cut), second = text.substr(cut);
  const std::string both = agreed({{first, "a.csv"}, {second, "b.csv"}}, spec, chunk);
  const bool nothing_sniffed = (flags & 0x01) && (flags & 0x18) == 0x08 && (flags & 0x80);
  const bool at_line_end = cut > 0 && first.back() == '\n' && second.substr(0, 3) != "\xEF\xBB\xBF";
  if (nothing_sniffed && at_line_end && whole.rfind("error", 0) != 0 && both.rfind("error", 0) != 0 && whole != both) {
    std::fprintf(stderr, "whole:\n%s\ncut at %zu into two files:\n%s\n", whole.c_str(), cut, both.c_str());
    __builtin_trap();
  }
  return 0;
}
