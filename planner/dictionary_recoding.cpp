#include "planner/dictionary_recoding.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "gpusql/gpusql.hpp"
#include "planner/bound_expression_builders.hpp"
#include "storage/column_ops.hpp"
#include "storage/parallel_tasks.hpp"

namespace gpusql {

namespace {

// `e`'s code c read as codes[c], a code of `target`.
LookupTable code_table(const std::vector<uint32_t>& codes) {
  LookupTable table;
  table.type = Type::Varchar;
  table.entries = codes.size();
  table.bytes.resize(codes.size() * sizeof(uint32_t));
  if (!codes.empty()) std::memcpy(table.bytes.data(), codes.data(), table.bytes.size());
  return table;
}

BoundExpr code_lookup(BoundExpr e, std::shared_ptr<const LookupTable> table, std::shared_ptr<const Dictionary> target) {
  BoundExpr lookup;
  lookup.op = Op::Lookup;
  lookup.type = DataType::varchar();
  lookup.offset = e.offset;
  lookup.dictionary = std::move(target);
  lookup.lookup = std::move(table);
  lookup.children.push_back(std::move(e));
  return lookup;
}

}  // namespace

std::shared_ptr<const Dictionary> common_dictionary(const std::vector<const BoundExpr*>& operands) {
  // Start from the largest dictionary: the others are often subsets of it
  // (a fact table's strings and a dimension's), and then it is the answer.
  std::shared_ptr<const Dictionary> united;
  std::vector<std::string_view> texts;
  for (const BoundExpr* e : operands) {
    if (e->op == Op::Constant) {
      if (!e->constant.null_constant) texts.push_back(e->text);
    } else if (e->dictionary && (!united || e->dictionary->size() > united->size())) {
      united = e->dictionary;
    }
  }
  std::shared_ptr<const Dictionary> literals = sorted_dictionary(std::move(texts));
  if (!united) return literals;
  for (const BoundExpr* e : operands)
    if (e->op != Op::Constant && e->dictionary && e->dictionary != united)
      united = unite_dictionaries(united, *e->dictionary).dictionary;
  if (!literals->values.empty()) united = unite_dictionaries(united, *literals).dictionary;
  return united;
}

BoundExpr recode(BoundExpr e, const std::shared_ptr<const Dictionary>& target) {
  if (e.op == Op::Constant) {
    e.type = DataType::varchar();
    if (e.constant.null_constant) e.text.clear();
    else e.constant.value.i = target->lower_bound(e.text);
    e.dictionary = target;
    return e;
  }
  if (e.dictionary == target) return e;
  // Both dictionaries are sorted: one merge walk finds every code.
  const StringPool& from = e.dictionary->values;
  const StringPool& to = target->values;
  std::vector<uint32_t> codes(from.size());
  bool identity = from.size() == to.size();
  std::size_t j = 0;
  for (std::size_t i = 0; i < from.size(); ++i) {
    while (j < to.size() && to[j] < from[i]) ++j;
    codes[i] = static_cast<uint32_t>(j);
    identity &= j == i;
  }
  if (identity) {  // the same strings (two tables loaded from one file): same codes
    e.dictionary = target;
    return e;
  }
  return code_lookup(std::move(e), std::make_shared<const LookupTable>(code_table(codes)), target);
}

namespace {

// The dictionary of `images` (sorted, distinct: often few, a prefix of a
// phone number) and each image's code in it.
DerivedDictionary dictionary_of(const std::vector<std::string>& images) {
  // Each slice's distinct images, then merged.
  std::unordered_set<std::string_view> distinct;
  std::mutex merging;
  parallel_ranges(images.size(), 1 << 16, [&](std::size_t begin, std::size_t end) {
    std::unordered_set<std::string_view> local;
    for (std::size_t i = begin; i < end; ++i) local.insert(images[i]);
    std::lock_guard lock(merging);
    distinct.insert(local.begin(), local.end());
  });
  auto target = std::make_shared<Dictionary>();
  std::vector<std::string_view> sorted(distinct.begin(), distinct.end());
  std::sort(sorted.begin(), sorted.end());
  target->values = StringPool::of(sorted);
  std::unordered_map<std::string_view, uint32_t> code_of;
  for (std::size_t c = 0; c < target->values.size(); ++c) code_of.emplace(target->values[c], static_cast<uint32_t>(c));
  DerivedDictionary out;
  out.codes.resize(images.size());
  parallel_ranges(images.size(), 1 << 16, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) out.codes[i] = code_of.find(images[i])->second;
  });
  out.values = std::move(target);
  return out;
}

// A DerivedDictionary with the lookup table of its codes.
struct MappedStrings {
  DerivedDictionary mapped;
  std::shared_ptr<const LookupTable> table;
};

}  // namespace

BoundExpr map_strings(BoundExpr e, const std::string& key, const std::function<std::string(std::string_view)>& f) {
  const Dictionary& source = *e.dictionary;
  std::shared_ptr<const DerivedDictionary> mapped = source.derived<DerivedDictionary>(key, [&] {
    const StringPool& from = source.values;
    std::vector<std::string> images(from.size());
    parallel_ranges(from.size(), 1 << 16, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) images[i] = f(from[i]);
    });
    return dictionary_of(images);
  });
  // The lookup table of the codes is kept too: binding the query again
  // copies nothing (TPC-H Q22: 1.5 M phone numbers, twice a run).
  std::shared_ptr<const LookupTable> table =
      source.derived<LookupTable>(key + "\nlookup", [&] { return code_table(mapped->codes); });
  return code_lookup(std::move(e), std::move(table), mapped->values);
}

BoundExpr concat_strings(BoundExpr a, BoundExpr b, std::size_t offset) {
  const Dictionary &left = *a.dictionary, &right = *b.dictionary;
  auto text_bytes = [](const Dictionary& d) {
    std::size_t n = 0;
    for (std::string_view s : d.values) n += s.size();
    return n;
  };
  const bool few = right.size() == 0 || left.size() <= kMaxConcatPairs / right.size();
  const std::size_t pairs = few ? left.size() * right.size() : 0;
  if (!few || text_bytes(left) * right.size() + text_bytes(right) * left.size() > kMaxConcatBytes)
    throw Error(ErrorKind::NotSupported,
                "not supported yet: || of two columns' strings with more than " + std::to_string(kMaxConcatPairs) +
                    " pairs of their distinct values (here " + std::to_string(left.size()) + " x " +
                    std::to_string(right.size()) + ") or " + std::to_string(kMaxConcatBytes >> 20) + " MiB of text",
                offset);
  // Kept with the left dictionary under the right one's id (which no other
  // dictionary ever has).
  std::shared_ptr<const MappedStrings> made =
      left.derived<MappedStrings>("concat\n" + std::to_string(right.id()), [&] {
        std::vector<std::string> images(pairs);
        parallel_ranges(left.size(), std::max<std::size_t>(1, (1 << 16) / std::max<std::size_t>(right.size(), 1)),
                        [&](std::size_t begin, std::size_t end) {
                          for (std::size_t i = begin; i < end; ++i)
                            for (std::size_t j = 0; j < right.size(); ++j) {
                              std::string& image = images[i * right.size() + j];
                              image.reserve(left.values[i].size() + right.values[j].size());
                              image.append(left.values[i]).append(right.values[j]);
                            }
                        });
        MappedStrings out;
        out.mapped = dictionary_of(images);
        out.table = std::make_shared<const LookupTable>(code_table(out.mapped.codes));
        return out;
      });
  // Pair (i, j) is entry i * |right| + j; a NULL either side makes the
  // index, and so the result, NULL.
  BoundExpr width = build::int_constant(static_cast<int64_t>(right.size()));
  BoundExpr index = build::binary(Op::Add, DataType::bigint(),
                                  build::binary(Op::Mul, DataType::bigint(), std::move(a), std::move(width)), std::move(b));
  index.offset = offset;
  BoundExpr out = code_lookup(std::move(index), made->table, made->mapped.values);
  out.offset = offset;
  return out;
}

}  // namespace gpusql
