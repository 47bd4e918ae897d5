// Scalar helpers the binder runs once per query on the host: date text and
// LIKE patterns (matched against each dictionary entry, never per row).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "storage/string_pool.hpp"

namespace gpusql {

// "YYYY-MM-DD" -> days since 1970-01-01; false when malformed or not a real date.
bool parse_date(std::string_view text, int64_t& days);
std::string format_date(int64_t days);

// SQL LIKE: '%' matches any run of characters, '_' any one character
// (UTF-8 aware); everything else matches itself, case-sensitively.
bool like_match(std::string_view text, std::string_view pattern);

// like_match() of every value, on every core for a large dictionary; a
// pattern of literal pieces between '%' (no '_') is matched by searching
// for each piece in turn.
std::vector<uint8_t> like_matches(const StringPool& values, std::string_view pattern);

}  // namespace gpusql
