// like_matches() (pieces between '%' found in turn, on every core) against
// like_match() (the general matcher) on every pattern of a small alphabet
// over many strings; the device's LIKE over plain strings against
// like_match(); SUBSTRING's ASCII and UTF-8 paths against each other.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "execution/device_like.hpp"
#include "planner/scalar_functions.hpp"
#include "planner/string_functions.hpp"
#include "storage/host_column.hpp"
#include "storage/string_pool.hpp"

using namespace gpusql;

TEST_CASE("like_matches equals like_match on every pattern of a small alphabet", "[engine][like]") {
  std::mt19937 rng(7);
  std::vector<std::string> values;
  for (int i = 0; i < 70000; ++i) {  // past one slice, so several threads run
    std::string s;
    for (int n = static_cast<int>(rng() % 7); n > 0; --n) s += "ab%x"[rng() % 4];
    values.push_back(s);
  }
  // Every pattern of up to five characters from a, b, % and _.
  std::vector<std::string> patterns = {""};
  for (std::size_t i = 0; i < patterns.size() && patterns[i].size() < 5; ++i)
    for (char c : std::string("ab%_")) patterns.push_back(patterns[i] + c);
  for (const std::string& pattern : patterns) {
    const std::vector<uint8_t> fast = like_matches(StringPool::of(values), pattern);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < values.size(); ++i) differ += fast[i] != like_match(values[i], pattern);
    INFO("pattern '" << pattern << "'");
    CHECK(differ == 0);
  }
}

// Strings of 'a', '%', 'x', 'é' (two bytes), '€' (three) and, at the end
// of some, a lone lead byte (a character cut short, one byte to '_'); every
// pattern of up to four of 'a', '%', '_', 'é'; NULL rows never match.
TEST_CASE("LIKE on the device over plain strings equals like_match", "[gpu][like]") {
  std::mt19937 rng(11);
  const std::vector<std::string> pieces = {"a", "%", "x", "\xC3\xA9", "\xE2\x82\xAC"};
  std::vector<std::string> values;
  std::vector<bool> valid;
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    for (int n = static_cast<int>(rng() % 7); n > 0; --n) s += pieces[rng() % pieces.size()];
    if (rng() % 9 == 0) s += '\xC3';
    valid.push_back(i % 13 != 5);
    values.push_back(valid.back() ? s : "");
  }
  DeviceContext context;
  DeviceColumn column;
  column.type = DataType::varchar();
  column.size = values.size();
  upload_plain_strings(StringPool::of(values), column, context);
  std::vector<uint32_t> bits(validity_words(values.size()));
  for (std::size_t i = 0; i < values.size(); ++i) bits[i / 32] |= uint32_t(valid[i]) << (i % 32);
  column.validity = DeviceBuffer(context, bits.size() * sizeof(uint32_t));
  context.copy_to_device(column.validity.data(), bits.data(), bits.size() * sizeof(uint32_t));
  std::vector<std::string> patterns = {""};
  std::vector<int> tokens = {0};
  for (std::size_t i = 0; i < patterns.size(); ++i)
    for (const char* c : {"a", "%", "_", "\xC3\xA9"})
      if (tokens[i] < 4) {
        patterns.push_back(patterns[i] + c);
        tokens.push_back(tokens[i] + 1);
      }
  std::size_t checked = 0;
  for (const std::string& pattern : patterns) {
    const std::vector<uint8_t> device = like_on_device(column, values.size(), pattern, context);
    REQUIRE(device.size() == values.size());
    std::size_t differ = 0, matched = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const bool expected = valid[i] && like_match(values[i], pattern);
      differ += device[i] != uint8_t(expected);
      matched += expected;
    }
    INFO("pattern '" << pattern << "'");
    CHECK(differ == 0);
    checked += matched > 0 && matched < values.size();
  }
  CHECK(checked > patterns.size() / 2);  // most patterns split the rows
}

TEST_CASE("SUBSTRING counts characters, not bytes", "[engine][substring]") {
  // 'é' is two bytes: the same positions give the same characters as ASCII.
  for (int64_t start : {-7, -3, -1, 0, 1, 2, 5, 6, 9})
    for (int64_t length : {-4, -1, 1, 2, 10}) {
      INFO(start << ", " << length);
      std::string ascii = substring("hello", start, length), utf8 = substring("h\xc3\xa9llo", start, length);
      const std::size_t e = ascii.find('e');
      if (e != std::string::npos) ascii.replace(e, 1, "\xc3\xa9");
      CHECK(ascii == utf8);
    }
  CHECK(substring("hello", 2, 3) == "ell");
  CHECK(substring("hello", -3, 2) == "ll");
  CHECK(substring("hello", 0, 2) == "h");
  CHECK(substring("hello", 3, std::nullopt) == "llo");
}
