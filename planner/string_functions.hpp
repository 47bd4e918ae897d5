// Scalar functions of one string and constant arguments -- LENGTH, UPPER,
// TRIM, SUBSTRING, REPLACE, LPAD, STRPOS, STARTS_WITH and the rest -- as
// DuckDB defines them. The binder applies one to a string literal, or to
// each entry of a column's dictionary (never per row): a VARCHAR result
// becomes a new dictionary (map_strings), any other a lookup table the rows
// index by their code. Both executors then read the same table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "storage/data_type.hpp"

namespace gpusql {

struct StringFunction {
  enum class Arg { Text, Integer };
  std::string_view name;
  // The arguments after the string; the first `required` of them must be
  // given, the rest may be left off.
  std::vector<Arg> args;
  std::size_t required = 0;
  Type result = Type::Varchar;  // Varchar, BigInt, Integer or Boolean
  // Characters are grapheme clusters here (REVERSE), or cased beyond ASCII
  // (UPPER, LOWER): text with any other byte is refused, not answered
  // differently from DuckDB.
  bool ascii_only = false;
};

using StringArgument = std::variant<std::string, int64_t>;
using StringValue = std::variant<std::string, int64_t, bool>;

// The function called `name` (lower case), or nullptr.
const StringFunction* find_string_function(std::string_view name);

// Every function's name, for "did you mean" hints.
std::vector<std::string> string_function_names();

// `f` of `text` and `args` (as many as f takes, each of its kind; none
// NULL): a std::string for VARCHAR, an int64_t for BIGINT and INTEGER, a
// bool for BOOLEAN. Throws for text outside ASCII where f is ascii_only,
// for LPAD/RPAD without padding to pad with, and for a result over
// kMaxStringFunctionBytes.
StringValue apply_string_function(const StringFunction& f, std::string_view text,
                                  std::span<const StringArgument> args);

inline constexpr std::size_t kMaxStringFunctionBytes = std::size_t{1} << 30;

}  // namespace gpusql
