#include "bench/tpch/tpch_text_pool.hpp"

#include <array>
#include <span>
#include <string_view>

namespace gpusql::tpch::detail {
namespace {

struct Weighted {
  std::string_view text;
  int weight;
};

// The specification's word lists (clause 4.2.2.13) with dbgen's weights.
constexpr std::array<Weighted, 45> kNouns = {{
    {"packages", 40},   {"requests", 40},     {"accounts", 40},  {"deposits", 40},    {"foxes", 20},
    {"ideas", 20},      {"theodolites", 20},  {"pinto beans", 20}, {"instructions", 20}, {"dependencies", 10},
    {"excuses", 10},    {"platelets", 10},    {"asymptotes", 10}, {"courts", 5},       {"dolphins", 5},
    {"multipliers", 1}, {"sauternes", 1},     {"warthogs", 1},   {"frets", 1},        {"dinos", 1},
    {"attainments", 1}, {"somas", 1},         {"Tiresias", 1},   {"patterns", 1},     {"forges", 1},
    {"braids", 1},      {"frays", 1},         {"warhorses", 1},  {"dugouts", 1},      {"notornis", 1},
    {"epitaphs", 1},    {"pearls", 1},        {"tithes", 1},     {"waters", 1},       {"orbits", 1},
    {"gifts", 1},       {"sheaves", 1},       {"depths", 1},     {"sentiments", 1},   {"decoys", 1},
    {"realms", 1},      {"pains", 1},         {"grouches", 1},   {"escapades", 1},    {"hockey players", 1},
}};
constexpr std::array<Weighted, 40> kVerbs = {{
    {"sleep", 20},    {"wake", 20},  {"are", 20},     {"cajole", 20},  {"haggle", 20},  {"nag", 10},    {"use", 10},
    {"boost", 10},    {"affix", 5},  {"detect", 5},   {"integrate", 5}, {"maintain", 1}, {"nod", 1},     {"was", 1},
    {"lose", 1},      {"sublate", 1}, {"solve", 1},   {"thrash", 1},   {"promise", 1},  {"engage", 1},  {"hinder", 1},
    {"print", 1},     {"x-ray", 1},  {"breach", 1},   {"eat", 1},      {"grow", 1},     {"impress", 1}, {"mold", 1},
    {"poach", 1},     {"serve", 1},  {"run", 1},      {"dazzle", 1},   {"snooze", 1},   {"doze", 1},    {"unwind", 1},
    {"kindle", 1},    {"play", 1},   {"hang", 1},     {"believe", 1},  {"doubt", 1},
}};
constexpr std::array<Weighted, 28> kAdverbs = {{
    {"sometimes", 1},  {"always", 1},   {"never", 1},     {"furiously", 50},   {"slyly", 50},      {"carefully", 50},
    {"blithely", 40},  {"quickly", 30}, {"fluffily", 20}, {"slowly", 1},       {"quietly", 1},     {"ruthlessly", 1},
    {"thinly", 1},     {"closely", 1},  {"doggedly", 1},  {"daringly", 1},     {"bravely", 1},     {"stealthily", 1},
    {"permanently", 1}, {"enticingly", 1}, {"idly", 1},   {"busily", 1},       {"regularly", 1},   {"finally", 1},
    {"ironically", 1}, {"evenly", 1},   {"boldly", 1},    {"silently", 1},
}};
constexpr std::array<Weighted, 47> kPrepositions = {{
    {"about", 50},      {"above", 50},   {"according to", 50}, {"across", 50},  {"after", 50},     {"against", 40},
    {"along", 40},      {"alongside of", 30}, {"among", 30},   {"around", 20},  {"at", 10},        {"atop", 1},
    {"before", 1},      {"behind", 1},   {"beneath", 1},       {"beside", 1},   {"besides", 1},    {"between", 1},
    {"beyond", 1},      {"by", 1},       {"despite", 1},       {"during", 1},   {"except", 1},     {"for", 1},
    {"from", 1},        {"in place of", 1}, {"inside", 1},     {"instead of", 1}, {"into", 1},     {"near", 1},
    {"of", 1},          {"on", 1},       {"outside", 1},       {"over", 1},     {"past", 1},       {"since", 1},
    {"through", 1},     {"throughout", 1}, {"to", 1},          {"toward", 1},   {"under", 1},      {"until", 1},
    {"up", 1},          {"upon", 1},     {"without", 1},       {"with", 1},     {"within", 1},
}};
constexpr std::array<Weighted, 18> kAuxiliaries = {{
    {"do", 1},           {"may", 1},           {"might", 1},          {"shall", 1},        {"will", 1},
    {"would", 1},        {"can", 1},           {"could", 1},          {"should", 1},       {"ought to", 1},
    {"must", 1},         {"will have to", 1},  {"shall have to", 1},  {"could have to", 1}, {"should have to", 1},
    {"must have to", 1}, {"need to", 1},       {"try to", 1},
}};
constexpr std::array<Weighted, 6> kTerminators = {{{".", 50}, {";", 1}, {":", 1}, {"?", 1}, {"!", 1}, {"--", 1}}};
constexpr std::array<Weighted, 29> kAdjectives = {{
    {"special", 20},  {"pending", 20}, {"unusual", 20}, {"express", 20}, {"furious", 1},   {"sly", 1},
    {"careful", 1},   {"blithe", 1},   {"quick", 1},    {"fluffy", 1},   {"slow", 1},      {"quiet", 1},
    {"ruthless", 1},  {"thin", 1},     {"close", 1},    {"dogged", 1},   {"daring", 1},    {"brave", 1},
    {"stealthy", 1},  {"permanent", 1}, {"enticing", 1}, {"idle", 1},    {"busy", 1},      {"regular", 50},
    {"final", 40},    {"ironic", 40},  {"even", 30},    {"bold", 20},    {"silent", 10},
}};
// Sentence shapes: N noun phrase, V verb phrase, P prepositional phrase, T terminator.
constexpr std::array<Weighted, 5> kSentences = {{{"NVT", 3}, {"NVPT", 3}, {"NVNT", 3}, {"NPVNT", 1}, {"NPVPT", 1}}};
// Noun phrases: N noun, J adjective (',' after it: a comma), D adverb.
constexpr std::array<Weighted, 4> kNounPhrases = {{{"N", 10}, {"JN", 20}, {"J,JN", 10}, {"DJN", 50}}};
// Verb phrases: V verb, X auxiliary, D adverb.
constexpr std::array<Weighted, 4> kVerbPhrases = {{{"V", 30}, {"XV", 1}, {"VD", 40}, {"XVD", 1}}};

std::string_view pick(Rng& rng, std::span<const Weighted> list) {
  int total = 0;
  for (const auto& w : list) total += w.weight;
  int64_t at = rng.uniform(0, total - 1);
  for (const auto& w : list) {
    if (at < w.weight) return w.text;
    at -= w.weight;
  }
  return list.back().text;
}

// Appends a word and the space after it.
void word(std::string& out, std::string_view w) {
  out += w;
  out += ' ';
}

void noun_phrase(Rng& rng, std::string& out) {
  for (char part : pick(rng, kNounPhrases)) {
    switch (part) {
      case 'N': word(out, pick(rng, kNouns)); break;
      case 'J': word(out, pick(rng, kAdjectives)); break;
      case 'D': word(out, pick(rng, kAdverbs)); break;
      case ',': out.back() = ','; out += ' '; break;  // "special, pending accounts"
    }
  }
}

void verb_phrase(Rng& rng, std::string& out) {
  for (char part : pick(rng, kVerbPhrases)) {
    switch (part) {
      case 'V': word(out, pick(rng, kVerbs)); break;
      case 'X': word(out, pick(rng, kAuxiliaries)); break;
      case 'D': word(out, pick(rng, kAdverbs)); break;
    }
  }
}

void sentence(Rng& rng, std::string& out) {
  for (char part : pick(rng, kSentences)) {
    switch (part) {
      case 'N': noun_phrase(rng, out); break;
      case 'V': verb_phrase(rng, out); break;
      case 'P':
        word(out, pick(rng, kPrepositions));
        word(out, "the");
        noun_phrase(rng, out);
        break;
      case 'T':
        out.pop_back();  // the terminator follows the last word directly
        word(out, pick(rng, kTerminators));
        break;
    }
  }
}

}  // namespace

TextPool::TextPool(uint64_t seed, unsigned threads, std::size_t bytes) {
  constexpr std::size_t kBlock = std::size_t{64} << 10;
  const std::size_t blocks = (bytes + kBlock - 1) / kBlock;
  text_.resize(blocks * kBlock);
  parallel_for(
      blocks, threads,
      [&](std::size_t begin, std::size_t end) {
        std::string block;
        for (std::size_t b = begin; b < end; ++b) {
          Rng rng(seed, Stream::TextPool, b);
          block.clear();
          while (block.size() < kBlock) sentence(rng, block);
          block.copy(text_.data() + b * kBlock, kBlock);
        }
      },
      1);
  text_.resize(bytes);
}

std::string TextPool::comment(Rng& rng, int average_length) const {
  const int64_t shortest = average_length * 4 / 10, longest = average_length * 16 / 10;
  const int64_t length = rng.uniform(shortest, longest);
  const int64_t offset = rng.uniform(0, static_cast<int64_t>(text_.size()) - length);
  return text_.substr(static_cast<std::size_t>(offset), static_cast<std::size_t>(length));
}

}  // namespace gpusql::tpch::detail
