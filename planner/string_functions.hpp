// Scalar functions of one string and constant arguments -- LENGTH, UPPER,
// TRIM, SUBSTRING, REPLACE, LPAD, STRPOS, STARTS_WITH and the rest -- as
// DuckDB defines them. The binder applies one to a string literal, or to
// each entry of a column's dictionary (never per row): a VARCHAR result
// becomes a new dictionary (map_strings), any other a lookup table the rows
// index by their code. Both executors then read the same table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
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
  // f(text, args): the arguments as `args` says, none NULL.
  std::variant<std::string, int64_t, bool> (*apply)(std::string_view,
                                                    std::span<const std::variant<std::string, int64_t>>) = nullptr;
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

// SUBSTRING(text, start[, length]) as DuckDB's: characters are UTF-8 code
// points counted from 1; a start of 0 or below begins before the first (a
// negative one counts from the end), a negative length takes the characters
// before the start. `length` absent: to the end.
std::string substring(std::string_view text, int64_t start, std::optional<int64_t> length);

}  // namespace gpusql
