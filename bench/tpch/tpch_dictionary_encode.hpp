// Free text to a VARCHAR column: the sorted dictionary of its distinct
// strings and each row's code into it. Internal to bench/tpch.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "storage/dictionary.hpp"

namespace gpusql::tpch::detail {

// Sorts the rows' strings (in parallel on `threads` threads), gives each
// distinct one a code in sorted order and writes row i's code to codes[i].
// Moves the strings out of `strings`, which is left empty.
std::shared_ptr<const Dictionary> dictionary_encode(std::vector<std::string>& strings, uint32_t* codes,
                                                    unsigned threads);

}  // namespace gpusql::tpch::detail
