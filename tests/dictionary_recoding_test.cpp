// VARCHAR values of different dictionaries recoded into one
// (planner/dictionary_recoding.hpp): the union's contents, when an operand
// keeps its codes, and the lookup tables, by hand.
#include <catch2/catch.hpp>

#include <cstring>

#include "planner/dictionary_recoding.hpp"

using namespace gpusql;

namespace {

std::shared_ptr<const Dictionary> dictionary(std::vector<std::string> values) {
  auto d = std::make_shared<Dictionary>();
  d->values = StringPool::of(values);
  return d;
}

BoundExpr column(int index, std::shared_ptr<const Dictionary> d) {
  BoundExpr e;
  e.op = Op::Column;
  e.type = DataType::varchar();
  e.column = index;
  e.dictionary = std::move(d);
  return e;
}

BoundExpr literal(std::string s) {
  BoundExpr e;
  e.op = Op::Constant;
  e.type = DataType::varchar();
  e.text = std::move(s);
  return e;
}

std::vector<uint32_t> codes_of(const BoundExpr& e) {
  REQUIRE(e.op == Op::Lookup);
  REQUIRE(e.lookup->type == Type::Varchar);
  std::vector<uint32_t> out(e.lookup->entries);
  REQUIRE(e.lookup->bytes.size() == out.size() * sizeof(uint32_t));
  std::memcpy(out.data(), e.lookup->bytes.data(), e.lookup->bytes.size());
  return out;
}

}  // namespace

TEST_CASE("recoding: two dictionaries and a literal meet in their sorted union", "[recode]") {
  BoundExpr a = column(0, dictionary({"eng", "ops", "sales"}));
  BoundExpr b = column(1, dictionary({"eng", "hr", "ops"}));
  BoundExpr z = literal("zoo");
  auto common = common_dictionary({&a, &b, &z});
  CHECK(common->values.to_strings() == std::vector<std::string>{"eng", "hr", "ops", "sales", "zoo"});
  BoundExpr ra = recode(a, common), rb = recode(b, common), rz = recode(z, common);
  CHECK(codes_of(ra) == std::vector<uint32_t>{0, 2, 3});
  CHECK(codes_of(rb) == std::vector<uint32_t>{0, 1, 2});
  CHECK(ra.children.at(0).column == 0);
  CHECK(ra.dictionary == common);
  CHECK(rz.op == Op::Constant);
  CHECK(rz.constant.value.i == 4);
  CHECK(rz.dictionary == common);
}

TEST_CASE("recoding: a dictionary holding every value is kept, its column untouched", "[recode]") {
  auto big = dictionary({"a", "b", "c", "d"});
  BoundExpr a = column(0, big);
  BoundExpr b = column(1, dictionary({"b", "d"}));
  BoundExpr lit = literal("c");
  auto common = common_dictionary({&b, &a, &lit});
  CHECK(common == big);
  BoundExpr ra = recode(a, common);
  CHECK(ra.op == Op::Column);
  CHECK(codes_of(recode(b, common)) == std::vector<uint32_t>{1, 3});
}

TEST_CASE("recoding: the same strings in another dictionary keep their codes", "[recode]") {
  BoundExpr a = column(0, dictionary({"x", "y"}));
  BoundExpr b = column(1, dictionary({"x", "y"}));
  auto common = common_dictionary({&a, &b});
  BoundExpr rb = recode(b, common);
  CHECK(rb.op == Op::Column);
  CHECK(rb.dictionary == common);
}

TEST_CASE("recoding: literals alone, NULLs aside, make the dictionary", "[recode]") {
  BoundExpr high = literal("high"), low = literal("low"), again = literal("high");
  BoundExpr null = literal("");
  null.constant.null_constant = true;
  auto common = common_dictionary({&high, &low, &again, &null});
  CHECK(common->values.to_strings() == std::vector<std::string>{"high", "low"});
  BoundExpr rn = recode(null, common);
  CHECK(rn.constant.null_constant);
  CHECK(rn.dictionary == common);
  CHECK(recode(low, common).constant.value.i == 1);
}

TEST_CASE("recoding: a string function maps each entry once, and the mapping is kept by its key", "[recode]") {
  auto d = dictionary({"13-a", "13-b", "21-a", "31-c"});
  int calls = 0;
  auto prefix = [&](std::string_view s) {
    ++calls;
    return std::string(s.substr(0, 2));
  };
  BoundExpr first = map_strings(column(0, d), "substring 1 2", prefix);
  CHECK(calls == 4);
  CHECK(first.dictionary->values.to_strings() == std::vector<std::string>{"13", "21", "31"});
  CHECK(codes_of(first) == std::vector<uint32_t>{0, 0, 1, 2});
  BoundExpr again = map_strings(column(0, d), "substring 1 2", prefix);
  CHECK(calls == 4);  // kept with the dictionary
  CHECK(again.dictionary == first.dictionary);
  CHECK(codes_of(again) == codes_of(first));
  // Another key is another function.
  BoundExpr suffix = map_strings(column(0, d), "substring 3 -", [](std::string_view s) { return std::string(s.substr(2)); });
  CHECK(suffix.dictionary->values.to_strings() == std::vector<std::string>{"-a", "-b", "-c"});
  // A copy of a dictionary may change: it keeps nothing of its source's.
  auto copy = std::make_shared<Dictionary>(*d);
  std::vector<std::string> changed = copy->values.to_strings();
  changed.back() = "99-z";
  copy->values = StringPool::of(changed);
  BoundExpr mapped = map_strings(column(0, copy), "substring 1 2", prefix);
  CHECK(calls == 8);
  CHECK(mapped.dictionary->values.to_strings() == std::vector<std::string>{"13", "21", "99"});
}

TEST_CASE("concatenation: every pair of two dictionaries' entries, sorted and distinct, indexed by a * |b| + b",
          "[recode]") {
  auto left = dictionary({"", "a"});
  auto right = dictionary({"ab", "b", "c"});
  BoundExpr joined = concat_strings(column(0, left), column(1, right), 7);
  // "ab" "b" "c" "aab" "ab" "ac": "" || "ab" and "a" || "b" are one entry.
  CHECK(joined.dictionary->values.to_strings() == std::vector<std::string>{"aab", "ab", "ac", "b", "c"});
  CHECK(codes_of(joined) == std::vector<uint32_t>{1, 3, 4, 0, 1, 2});
  CHECK(joined.offset == 7);
  // The index: Add(Mul(left code, |right|), right code).
  const BoundExpr& index = joined.children.at(0);
  REQUIRE(index.op == Op::Add);
  REQUIRE(index.children.at(0).op == Op::Mul);
  CHECK(index.children[0].children.at(0).column == 0);
  CHECK(index.children[0].children.at(1).constant.value.i == 3);
  CHECK(index.children.at(1).column == 1);
  // Kept with the left dictionary under the right one's id: made once.
  BoundExpr again = concat_strings(column(0, left), column(1, right), 9);
  CHECK(again.dictionary == joined.dictionary);
  CHECK(again.lookup == joined.lookup);
  // The same strings in another dictionary (another id) are made again, the same.
  BoundExpr other = concat_strings(column(0, left), column(1, dictionary({"ab", "b", "c"})), 9);
  CHECK(other.lookup != joined.lookup);
  CHECK(other.dictionary->values.to_strings() == joined.dictionary->values.to_strings());
  // The other order is another function.
  BoundExpr swapped = concat_strings(column(0, right), column(1, left), 0);
  CHECK(swapped.dictionary->values.to_strings() == std::vector<std::string>{"ab", "aba", "b", "ba", "c", "ca"});
  CHECK(codes_of(swapped) == std::vector<uint32_t>{0, 1, 2, 3, 4, 5});
}

TEST_CASE("concatenation: past its pairs of distinct values, not supported yet, before anything is made",
          "[recode]") {
  std::vector<std::string> many;
  for (int i = 0; i < 2049; ++i) many.push_back("v" + std::to_string(10000 + i));
  auto big = dictionary(many);
  REQUIRE(big->size() * big->size() > kMaxConcatPairs);
  try {
    concat_strings(column(0, big), column(1, big), 12);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::NotSupported);
    CHECK(e.offset() == 12);
    CHECK(std::string(e.what()).find("not supported yet: || of two columns' strings with more than 4194304 pairs of "
                                     "their distinct values (here 2049 x 2049) or 256 MiB of text") !=
          std::string::npos);
  }
  // Under the pairs, over the text: 1,000 x 1,000 pairs of 300-byte strings.
  std::vector<std::string> wide;
  for (int i = 0; i < 1000; ++i) wide.push_back(std::to_string(i) + std::string(300, 'w'));
  auto long_strings = dictionary(wide);
  CHECK_THROWS_WITH(concat_strings(column(0, long_strings), column(1, long_strings), 0),
                    Catch::Matchers::Contains("(here 1000 x 1000) or 256 MiB of text"));
  // An empty dictionary (a column of NULLs) makes an empty one.
  BoundExpr none = concat_strings(column(0, dictionary({})), column(1, big), 0);
  CHECK(none.dictionary->size() == 0);
}
