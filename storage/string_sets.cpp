#include "storage/string_sets.hpp"

#include <algorithm>
#include <functional>

#include "storage/parallel_tasks.hpp"

namespace gpusql {
namespace {

void parallel_for(std::size_t count, std::size_t threads, const std::function<void(std::size_t)>& task) {
  parallel_for_workers(count, threads, [&](std::size_t i, std::size_t) { task(i); });
}

// The first 8 bytes of `s` as a big-endian number, zero-padded: when two
// strings' keys differ, they order the strings as a byte-wise comparison
// would (a shorter string's padding sorts it first).
inline uint64_t prefix_key(std::string_view s) {
  unsigned char bytes[8] = {};
  if (!s.empty()) std::memcpy(bytes, s.data(), std::min<std::size_t>(8, s.size()));
  uint64_t key = 0;
  for (unsigned char b : bytes) key = key << 8 | b;
  return key;
}

// The positions of `strings` (distinct) in byte-wise order. Sorts (bytes
// [d, d + 8), bytes [d + 8, d + 16), position) triples, each part a
// big-endian number, from d = 0; a run of equal keys is sorted again on the
// next 16 bytes, so comparisons never call memcmp or touch a string. (dbgen's
// comments, words from a small vocabulary, share 16-byte prefixes often:
// 80 % of lineitem's are in a tie there, 7 % at 32 bytes.)
std::vector<uint32_t> sorted_order(const std::vector<std::string_view>& strings) {
  struct Key {
    uint64_t prefix, next;
    uint32_t id;
  };
  auto key_at = [&](uint32_t id, std::size_t depth) {
    const std::string_view s = strings[id];
    const std::string_view rest = s.size() > depth ? s.substr(depth) : std::string_view();
    return Key{prefix_key(rest), rest.size() > 8 ? prefix_key(rest.substr(8)) : 0, id};
  };
  auto less = [](const Key& a, const Key& b) { return a.prefix != b.prefix ? a.prefix < b.prefix : a.next < b.next; };
  const std::size_t n = strings.size();
  std::vector<Key> keys(n);
  constexpr std::size_t AHEAD = 16;  // strings prefetched ahead: they lie far apart in the file
  for (std::size_t i = 0; i < n; ++i) {
    if (i + AHEAD < n) prefetch(strings[i + AHEAD].data());
    keys[i] = key_at(static_cast<uint32_t>(i), 0);
  }
  struct Range {
    std::size_t begin, end, depth;
  };
  std::vector<Range> work{{0, n, 0}};
  while (!work.empty()) {
    const Range r = work.back();
    work.pop_back();
    std::sort(keys.begin() + r.begin, keys.begin() + r.end, less);
    for (std::size_t i = r.begin; i < r.end;) {
      std::size_t j = i + 1;
      while (j < r.end && keys[j].prefix == keys[i].prefix && keys[j].next == keys[i].next) ++j;
      if (j - i > 1) {
        // Equal padded 16 bytes at the depth: a string that ends within
        // them is a prefix of every longer one (the rest of its key is
        // zero padding), so those come first, shortest first.
        const std::size_t depth = r.depth + 16;
        auto ends = [&](const Key& k) { return strings[k.id].size() <= depth; };
        auto longer = std::partition(keys.begin() + i, keys.begin() + j, ends);
        std::sort(keys.begin() + i, longer,
                  [&](const Key& a, const Key& b) { return strings[a.id].size() < strings[b.id].size(); });
        const auto first_longer = static_cast<std::size_t>(longer - keys.begin());
        for (std::size_t k = first_longer; k < j; ++k) {
          if (k + AHEAD < j) prefetch(strings[keys[k + AHEAD].id].data() + depth);
          keys[k] = key_at(keys[k].id, depth);
        }
        if (j - first_longer > 1) work.push_back({first_longer, j, depth});
      }
      i = j;
    }
  }
  std::vector<uint32_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = keys[i].id;
  return order;
}

}  // namespace

std::vector<std::string_view> merge_strings(const std::vector<const StringSet*>& sets,
                                            std::vector<std::vector<uint32_t>>& codes, std::size_t threads) {
  const std::size_t chunk_count = sets.size();
  codes.assign(chunk_count, {});
  std::size_t total = 0;
  for (std::size_t k = 0; k < chunk_count; ++k) {
    total += (*sets[k]).entries().size();
    codes[k].resize((*sets[k]).entries().size());
  }
  // Splitters: evenly spaced strings of a sorted sample.
  std::vector<std::string_view> splitters;
  if (threads > 1 && total >= 4096) {
    std::vector<std::string_view> sample;
    for (const StringSet* set : sets) {
      const auto& entries = set->entries();
      std::size_t step = std::max<std::size_t>(1, entries.size() / 64);
      for (std::size_t i = 0; i < entries.size(); i += step) sample.push_back(entries[i]);
    }
    std::sort(sample.begin(), sample.end());
    sample.erase(std::unique(sample.begin(), sample.end()), sample.end());
    const std::size_t ranges = std::min(threads * 4, sample.size());
    for (std::size_t p = 1; p < ranges; ++p) splitters.push_back(sample[p * sample.size() / ranges]);
  }
  const std::size_t ranges = splitters.size() + 1;
  // Which range each chunk entry falls in: ids[k][p] lists chunk k's entries
  // in range p. The search compares prefix keys, and strings only on a tie.
  std::vector<uint64_t> splitter_keys(splitters.size());
  for (std::size_t j = 0; j < splitters.size(); ++j) splitter_keys[j] = prefix_key(splitters[j]);
  std::vector<std::vector<std::vector<uint32_t>>> ids(chunk_count, std::vector<std::vector<uint32_t>>(ranges));
  parallel_for(
      chunk_count, threads,
      [&](std::size_t k) {
        const auto& entries = (*sets[k]).entries();
        constexpr std::size_t AHEAD = 16;  // strings prefetched ahead: they lie far apart in the file
        for (uint32_t id = 0; id < entries.size(); ++id) {
          if (id + AHEAD < entries.size()) prefetch(entries[id + AHEAD].data());
          const uint64_t key = prefix_key(entries[id]);
          std::size_t low = 0, high = splitters.size();  // the first splitter greater than the entry
          while (low < high) {
            const std::size_t mid = (low + high) / 2;
            const bool greater =
                splitter_keys[mid] != key ? splitter_keys[mid] > key : splitters[mid] > entries[id];
            if (greater) high = mid;
            else low = mid + 1;
          }
          ids[k][low].push_back(id);
        }
      });
  // Each range: distinct strings, sorted; codes within the range.
  std::vector<std::vector<std::string_view>> sorted(ranges);
  parallel_for(
      ranges, threads,
      [&](std::size_t p) {
        // Distinct strings as they come; a range with strings from one set
        // only has them distinct already.
        std::size_t contributors = 0, only = 0;
        for (std::size_t k = 0; k < chunk_count; ++k)
          if (!ids[k][p].empty()) {
            ++contributors;
            only = k;
          }
        StringSet set;
        std::vector<std::string_view> listed;
        if (contributors == 1) {
          const auto& chunk_entries = sets[only]->entries();
          listed.reserve(ids[only][p].size());
          for (uint32_t id : ids[only][p]) {
            codes[only][id] = static_cast<uint32_t>(listed.size());
            listed.push_back(chunk_entries[id]);
          }
        } else {
          // At least as many distinct strings as the largest set gives (often
          // about that many: sets overlap); a table sized for all of them
          // would spill out of the cache.
          std::size_t largest = 0;
          for (std::size_t k = 0; k < chunk_count; ++k) largest = std::max(largest, ids[k][p].size());
          set.reserve(largest);
          PendingStrings pending;
          for (std::size_t k = 0; k < chunk_count; ++k) {
            const StringSet& chunk = (*sets[k]);
            for (uint32_t id : ids[k][p])
              pending.add_hashed(set, chunk.entries()[id], chunk.hashes()[id], &codes[k][id]);
          }
          pending.flush();
        }
        const std::vector<std::string_view>& entries = contributors == 1 ? listed : set.entries();
        const std::vector<uint32_t> order = sorted_order(entries);
        std::vector<uint32_t> rank(entries.size());
        sorted[p].resize(entries.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
          rank[order[i]] = static_cast<uint32_t>(i);
          sorted[p][i] = entries[order[i]];
        }
        for (std::size_t k = 0; k < chunk_count; ++k)
          for (uint32_t id : ids[k][p]) codes[k][id] = rank[codes[k][id]];
      });
  // Ranges follow one another: offset each range's codes.
  std::vector<uint32_t> offset(ranges, 0);
  for (std::size_t p = 1; p < ranges; ++p) offset[p] = offset[p - 1] + static_cast<uint32_t>(sorted[p - 1].size());
  if (ranges > 1)
    parallel_for(
        chunk_count, threads,
        [&](std::size_t k) {
          for (std::size_t p = 1; p < ranges; ++p)
            for (uint32_t id : ids[k][p]) codes[k][id] += offset[p];
        });
  std::vector<std::string_view> merged;
  merged.reserve(offset.back() + sorted.back().size());
  for (const auto& range : sorted) merged.insert(merged.end(), range.begin(), range.end());
  return merged;
}

// The dictionary of `strings` (sorted, distinct), its strings copied into
// one pool on all threads: each part sums its bytes, then writes its offsets
// and bytes where the parts before it end.
std::shared_ptr<Dictionary> make_dictionary(const std::vector<std::string_view>& strings, std::size_t threads) {
  const std::size_t n = strings.size();
  const std::size_t parts = n < 65536 ? 1 : threads * 4;
  std::vector<uint64_t> part_bytes(parts + 1, 0);
  parallel_for(
      parts, threads,
      [&](std::size_t part) {
        uint64_t total = 0;
        for (std::size_t i = part * n / parts, end = (part + 1) * n / parts; i < end; ++i) total += strings[i].size();
        part_bytes[part + 1] = total;
      });
  for (std::size_t part = 0; part < parts; ++part) part_bytes[part + 1] += part_bytes[part];
  std::vector<uint64_t> offsets(n + 1);
  StringPool::Bytes bytes(part_bytes[parts]);
  parallel_for(
      parts, threads,
      [&](std::size_t part) {
        uint64_t at = part_bytes[part];
        for (std::size_t i = part * n / parts, end = (part + 1) * n / parts; i < end; ++i) {
          offsets[i] = at;
          if (!strings[i].empty()) std::memcpy(bytes.data() + at, strings[i].data(), strings[i].size());
          at += strings[i].size();
        }
      });
  offsets[n] = part_bytes[parts];
  auto dictionary = std::make_shared<Dictionary>();
  dictionary->values = StringPool::adopt(std::move(offsets), std::move(bytes));
  return dictionary;
}

HostColumn encode_strings(const HostColumn& plain, std::size_t threads) {
  const StringPool& strings = *plain.strings;
  const std::size_t rows = plain.size;
  HostColumn out(plain.type, rows);
  out.validity = plain.validity;
  // Each part's distinct strings numbered as first seen, then merged.
  const std::size_t parts = std::max<std::size_t>(1, std::min(threads, rows / 65536));
  std::vector<StringSet> sets(parts);
  uint32_t* codes = out.values<uint32_t>().data();
  parallel_for(parts, threads, [&](std::size_t part) {
    PendingStrings pending;
    for (std::size_t row = part * rows / parts, end = (part + 1) * rows / parts; row < end; ++row) {
      if (plain.is_valid(row)) pending.add(sets[part], strings[row], &codes[row]);
      else codes[row] = 0;
    }
    pending.flush();
    sets[part].seal();
  });
  std::vector<const StringSet*> set_pointers;
  for (const StringSet& set : sets) set_pointers.push_back(&set);
  std::vector<std::vector<uint32_t>> maps;
  out.dictionary = make_dictionary(merge_strings(set_pointers, maps, threads), threads);
  parallel_for(parts, threads, [&](std::size_t part) {
    const std::vector<uint32_t>& map = maps[part];
    for (std::size_t row = part * rows / parts, end = (part + 1) * rows / parts; row < end; ++row)
      if (plain.is_valid(row)) codes[row] = map[codes[row]];
  });
  return out;
}

}  // namespace gpusql
