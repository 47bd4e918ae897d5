// Scalar helpers the binder runs once per query on the host: date text,
// LIKE patterns (matched against each dictionary entry, never per row).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gpusql {

// "YYYY-MM-DD" -> days since 1970-01-01; false when malformed or not a real date.
bool parse_date(std::string_view text, int64_t& days);
std::string format_date(int64_t days);

// SQL LIKE: '%' matches any run of characters, '_' any one character
// (UTF-8 aware); everything else matches itself, case-sensitively.
bool like_match(std::string_view text, std::string_view pattern);

}  // namespace gpusql
