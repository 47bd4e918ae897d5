// Plain strings encoded on the device (kernels/string_encode.hpp) against
// the host's encode_strings(): the same sorted dictionary, the same code in
// every row.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "storage/column_ops.hpp"
#include "storage/device_table.hpp"
#include "storage/string_sets.hpp"
#include "kernels/gather.hpp"
#include "kernels/string_encode.hpp"

using namespace gpusql;

namespace {

// `values` (NULL where `valid` is false) encoded both ways, compared.
void check_encoding(const std::vector<std::string>& values, const std::vector<bool>& valid, bool with_validity) {
  DeviceContext context;
  context.set_kernels({&kernels::map_codes, &kernels::encode_strings});
  HostColumn plain(DataType::varchar(), values.size());
  plain.strings = std::make_shared<const StringPool>(StringPool::of(values));
  if (with_validity) {
    plain.validity.assign(validity_words(values.size()), 0);
    for (std::size_t i = 0; i < values.size(); ++i) plain.validity[i / 32] |= uint32_t(valid[i]) << (i % 32);
  }
  DeviceColumn column;
  column.type = DataType::varchar();
  column.size = values.size();
  upload_plain_strings(*plain.strings, column, context);
  if (with_validity) {
    column.validity = DeviceBuffer(context, plain.validity.size() * sizeof(uint32_t));
    context.copy_to_device(column.validity.data(), plain.validity.data(), plain.validity.size() * sizeof(uint32_t));
  }
  const HostColumn expected = encode_strings(plain, 2);

  REQUIRE(can_encode_on_device(values.size(), context));
  std::shared_ptr<const Dictionary> dictionary;
  DeviceColumn encoded = encode_on_device(column, values.size(), dictionary, context);
  REQUIRE(dictionary);
  CHECK(encoded.dictionary_entries == expected.dictionary->size());
  CHECK(dictionary->values.to_strings() == expected.dictionary->values.to_strings());
  HostColumn codes = download_column(encoded, values.size());
  codes.dictionary = dictionary;
  REQUIRE(codes.bytes.size() == expected.bytes.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < values.size(); ++i)
    differ += expected.is_valid(i) && codes.values<uint32_t>()[i] != expected.values<uint32_t>()[i];
  CHECK(differ == 0);
  CHECK(codes.validity == expected.validity);
  // The device's flat dictionary is the host one's, byte for byte.
  std::vector<uint64_t> offsets(encoded.dictionary_entries + 1);
  context.copy_to_host(offsets.data(), encoded.dictionary_offsets.data(), offsets.size() * sizeof(uint64_t));
  CHECK(std::equal(offsets.begin(), offsets.end(), expected.dictionary->values.offsets()));
}

}  // namespace

TEST_CASE("plain strings encoded on the device equal the host's encoding", "[gpu][encode]") {
  std::mt19937 rng(29);
  // Bytes that sort apart only as unsigned (0x80, 0xFF) or only by length
  // (a string and the same with '\0' after it), long shared prefixes that
  // take several 7-byte rounds, and many duplicates.
  const std::vector<std::string> pieces = {"a", "b", std::string(1, '\0'), "\x7F", "\x80", "\xFF", "furiously ",
                                           "regular deposits ", ""};
  std::vector<std::string> values;
  std::vector<bool> valid;
  for (int i = 0; i < 60000; ++i) {
    std::string s;
    if (i % 5 == 0) s = "the same long prefix, shared by many rows: ";
    for (int n = static_cast<int>(rng() % 9); n > 0; --n) s += pieces[rng() % pieces.size()];
    values.push_back(s);
    valid.push_back(i % 17 != 3);
  }
  SECTION("with NULLs") { check_encoding(values, valid, true); }
  SECTION("without a validity bitmap") { check_encoding(values, std::vector<bool>(values.size(), true), false); }
  SECTION("every row NULL") { check_encoding(values, std::vector<bool>(values.size(), false), true); }
  SECTION("one row, and none") {
    check_encoding({"x"}, {true}, false);
    check_encoding({}, {}, false);
  }
  SECTION("mostly distinct, as a comment column") {
    std::vector<std::string> distinct;
    for (int i = 0; i < 200000; ++i) distinct.push_back("c" + std::to_string(rng()) + pieces[rng() % pieces.size()]);
    check_encoding(distinct, std::vector<bool>(distinct.size(), true), false);
  }
}
