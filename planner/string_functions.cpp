#include "planner/string_functions.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "gpusql/gpusql.hpp"
#include "planner/scalar_functions.hpp"

namespace gpusql {
namespace {

using Arg = StringFunction::Arg;

bool ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Where each character (UTF-8 code point) of `text` begins, then its end.
std::vector<std::size_t> character_starts(std::string_view text) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (!continuation(text[i])) starts.push_back(i);
  starts.push_back(text.size());
  return starts;
}

int64_t characters(std::string_view text) {
  return static_cast<int64_t>(std::count_if(text.begin(), text.end(), [](char c) { return !continuation(c); }));
}

void check_size(std::size_t bytes, std::string_view function) {
  if (bytes > kMaxStringFunctionBytes)
    throw Error(ErrorKind::Execution, std::string(function) + "'s result would be longer than 1 GiB");
}

std::string cased(std::string_view in, bool upper) {
  std::string text(in);
  for (char& c : text)
    c = static_cast<char>(upper ? std::toupper(static_cast<unsigned char>(c)) : std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// TRIM's characters are UTF-8 code points: a multi-byte one goes whole.
std::string trimmed(std::string_view text, std::string_view characters, bool left, bool right) {
  std::vector<std::string_view> set;
  const std::vector<std::size_t> at = character_starts(characters);
  for (std::size_t i = 0; i + 1 < at.size(); ++i) set.push_back(characters.substr(at[i], at[i + 1] - at[i]));
  std::size_t begin = 0, end = text.size();
  auto strip = [&](bool front) {
    for (bool more = true; more && begin < end;) {
      more = false;
      for (std::string_view c : set) {
        if (end - begin < c.size()) continue;
        if (front ? text.compare(begin, c.size(), c) == 0 : text.compare(end - c.size(), c.size(), c) == 0) {
          (front ? begin += c.size() : end -= c.size());
          more = true;
          break;
        }
      }
    }
  };
  if (left) strip(true);
  if (right) strip(false);
  return std::string(text.substr(begin, end - begin));
}

// LEFT(s, n): the first n characters; n < 0: all but the last -n.
// RIGHT(s, n): the last n; n < 0: all but the first -n.
std::string side(std::string_view text, int64_t n, bool left) {
  const std::vector<std::size_t> at = character_starts(text);
  const int64_t length = static_cast<int64_t>(at.size()) - 1;
  const int64_t keep = std::clamp<int64_t>(n >= 0 ? n : length + n, 0, length);
  const auto k = static_cast<std::size_t>(keep);
  return left ? std::string(text.substr(0, at[k])) : std::string(text.substr(at[at.size() - 1 - k]));
}

// LPAD/RPAD(s, n, padding): s cut or padded with repeats of `padding` to n
// characters; DuckDB refuses padding nothing with nothing.
std::string padded(std::string_view text, int64_t n, std::string_view padding, bool left) {
  if (n <= 0) return "";
  const std::vector<std::size_t> at = character_starts(text);
  const int64_t length = static_cast<int64_t>(at.size()) - 1;
  if (length >= n) return std::string(text.substr(0, at[static_cast<std::size_t>(n)]));
  if (padding.empty())
    throw Error(ErrorKind::Invalid, std::string("Insufficient padding in ") + (left ? "LPAD." : "RPAD."));
  const std::vector<std::size_t> pad_at = character_starts(padding);
  const auto pad_characters = static_cast<int64_t>(pad_at.size()) - 1;
  const int64_t missing = n - length;
  const int64_t whole = missing / pad_characters, rest = missing % pad_characters;
  check_size(text.size() + static_cast<std::size_t>(whole + 1) * padding.size(), left ? "lpad" : "rpad");
  std::string pad;
  for (int64_t i = 0; i < whole; ++i) pad += padding;
  pad += padding.substr(0, pad_at[static_cast<std::size_t>(rest)]);
  return left ? pad + std::string(text) : std::string(text) + pad;
}

// STRPOS(s, search): the character position of the first match, from 1;
// 0 when there is none (1 for an empty search).
int64_t position(std::string_view text, std::string_view search) {
  const std::size_t at = text.find(search);
  return at == std::string_view::npos ? 0 : characters(text.substr(0, at)) + 1;
}

std::string replaced(std::string_view text, std::string_view from, std::string_view to) {
  if (from.empty()) return std::string(text);
  std::string out;
  std::size_t begin = 0;
  for (std::size_t at; (at = text.find(from, begin)) != std::string_view::npos; begin = at + from.size()) {
    out.append(text, begin, at - begin);
    out += to;
    check_size(out.size(), "replace");
  }
  out.append(text, begin);
  return out;
}

std::string repeated(std::string_view text, int64_t count) {
  if (count <= 0 || text.empty()) return "";
  if (static_cast<uint64_t>(count) > kMaxStringFunctionBytes / text.size()) check_size(kMaxStringFunctionBytes + 1, "repeat");
  std::string out;
  out.reserve(text.size() * static_cast<std::size_t>(count));
  for (int64_t i = 0; i < count; ++i) out += text;
  return out;
}

// ASCII(s): the first character's code point; 0 for ''.
int64_t first_code_point(std::string_view text) {
  if (text.empty()) return 0;
  const auto lead = static_cast<unsigned char>(text[0]);
  const int extra = lead < 0x80 ? 0 : lead < 0xE0 ? 1 : lead < 0xF0 ? 2 : 3;
  int64_t code = extra == 0 ? lead : lead & (0x3F >> extra);
  for (int i = 1; i <= extra && static_cast<std::size_t>(i) < text.size(); ++i)
    code = (code << 6) | (static_cast<unsigned char>(text[static_cast<std::size_t>(i)]) & 0x3F);
  return code;
}

const std::vector<StringFunction>& functions() {
  static const std::vector<StringFunction> all = {
      {"length", {}, 0, Type::BigInt},
      {"len", {}, 0, Type::BigInt},
      {"char_length", {}, 0, Type::BigInt},
      {"character_length", {}, 0, Type::BigInt},
      {"strlen", {}, 0, Type::BigInt},
      {"upper", {}, 0, Type::Varchar, true},
      {"ucase", {}, 0, Type::Varchar, true},
      {"lower", {}, 0, Type::Varchar, true},
      {"lcase", {}, 0, Type::Varchar, true},
      {"reverse", {}, 0, Type::Varchar, true},
      {"ascii", {}, 0, Type::Integer},
      {"trim", {Arg::Text}, 0},
      {"ltrim", {Arg::Text}, 0},
      {"rtrim", {Arg::Text}, 0},
      {"substring", {Arg::Integer, Arg::Integer}, 1},
      {"substr", {Arg::Integer, Arg::Integer}, 1},
      {"left", {Arg::Integer}, 1},
      {"right", {Arg::Integer}, 1},
      {"lpad", {Arg::Integer, Arg::Text}, 2},
      {"rpad", {Arg::Integer, Arg::Text}, 2},
      {"repeat", {Arg::Integer}, 1},
      {"replace", {Arg::Text, Arg::Text}, 2},
      {"strpos", {Arg::Text}, 1, Type::BigInt},
      {"instr", {Arg::Text}, 1, Type::BigInt},
      {"starts_with", {Arg::Text}, 1, Type::Boolean},
      {"prefix", {Arg::Text}, 1, Type::Boolean},
      {"ends_with", {Arg::Text}, 1, Type::Boolean},
      {"suffix", {Arg::Text}, 1, Type::Boolean},
      {"contains", {Arg::Text}, 1, Type::Boolean},
  };
  return all;
}

}  // namespace

const StringFunction* find_string_function(std::string_view name) {
  for (const StringFunction& f : functions())
    if (f.name == name) return &f;
  return nullptr;
}

std::vector<std::string> string_function_names() {
  std::vector<std::string> names;
  for (const StringFunction& f : functions()) names.emplace_back(f.name);
  return names;
}

StringValue apply_string_function(const StringFunction& f, std::string_view text, std::span<const StringArgument> args) {
  if (f.ascii_only && !ascii(text))
    throw Error(ErrorKind::NotSupported, "not supported yet: " + std::string(f.name) + " of non-ASCII text");
  auto str = [&](std::size_t i) -> std::string_view { return std::get<std::string>(args[i]); };
  auto integer = [&](std::size_t i) { return std::get<int64_t>(args[i]); };
  const std::string_view n = f.name;
  if (n == "length" || n == "len" || n == "char_length" || n == "character_length") return characters(text);
  if (n == "strlen") return static_cast<int64_t>(text.size());
  if (n == "upper" || n == "ucase") return cased(text, true);
  if (n == "lower" || n == "lcase") return cased(text, false);
  if (n == "reverse") return std::string(text.rbegin(), text.rend());
  if (n == "ascii") return first_code_point(text);
  if (n == "trim" || n == "ltrim" || n == "rtrim")
    return trimmed(text, args.empty() ? std::string_view(" ") : str(0), n != "rtrim", n != "ltrim");
  if (n == "substring" || n == "substr")
    return substring(text, integer(0), args.size() > 1 ? std::optional<int64_t>(integer(1)) : std::nullopt);
  if (n == "left" || n == "right") return side(text, integer(0), n == "left");
  if (n == "lpad" || n == "rpad") return padded(text, integer(0), str(1), n == "lpad");
  if (n == "repeat") return repeated(text, integer(0));
  if (n == "replace") return replaced(text, str(0), str(1));
  if (n == "strpos" || n == "instr") return position(text, str(0));
  if (n == "starts_with" || n == "prefix") return text.starts_with(str(0));
  if (n == "ends_with" || n == "suffix") return text.ends_with(str(0));
  if (n == "contains") return text.find(str(0)) != std::string_view::npos;
  throw Error(ErrorKind::Invalid, "internal: no string function " + std::string(n));
}

}  // namespace gpusql
