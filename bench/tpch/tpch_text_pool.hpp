// The free text of TPC-H's comment columns, as dbgen makes it (clause
// 4.2.2.13 of the specification): a pool of sentences from the
// specification's grammar and weighted word lists ("furiously regular
// packages sleep slyly about the bold foxes."), of which every comment is a
// substring at a random offset -- so comments start and end mid-word, and
// phrases such as Q13's "special ... requests" occur about as often as in
// dbgen's data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "bench/tpch/tpch_random.hpp"

namespace gpusql::tpch::detail {

class TextPool {
 public:
  // dbgen's pool is 300 MB; a smaller one (the default 8 MiB) builds in a
  // few milliseconds and still gives almost every comment its own text.
  static constexpr std::size_t kDefaultBytes = std::size_t{8} << 20;

  // Builds the pool in parallel: every 64 KiB block is a function of
  // (seed, block) alone.
  TextPool(uint64_t seed, unsigned threads, std::size_t bytes = kDefaultBytes);

  // dbgen's TEXT(average): length uniform in [0.4, 1.6] x `average_length`,
  // from a uniform offset. Two draws from `rng`.
  std::string comment(Rng& rng, int average_length) const;

  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

}  // namespace gpusql::tpch::detail
