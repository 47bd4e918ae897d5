// like_matches() (pieces between '%' found in turn, on every core) against
// like_match() (the general matcher) on every pattern of a small alphabet
// over many strings; SUBSTRING's ASCII and UTF-8 paths against each other.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "planner/scalar_functions.hpp"

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
