#include "planner/string_functions.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <optional>

#include "gpusql/gpusql.hpp"

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

using Args = std::span<const StringArgument>;
std::string_view text_arg(Args args, std::size_t i) { return std::get<std::string>(args[i]); }
int64_t integer_arg(Args args, std::size_t i) { return std::get<int64_t>(args[i]); }

StringValue length_of(std::string_view t, Args) { return characters(t); }
StringValue bytes_of(std::string_view t, Args) { return static_cast<int64_t>(t.size()); }
StringValue upper_of(std::string_view t, Args) { return cased(t, true); }
StringValue lower_of(std::string_view t, Args) { return cased(t, false); }
StringValue reverse_of(std::string_view t, Args) { return std::string(t.rbegin(), t.rend()); }
StringValue ascii_of(std::string_view t, Args) { return first_code_point(t); }
template <bool LEFT, bool RIGHT>
StringValue trim_of(std::string_view t, Args a) { return trimmed(t, a.empty() ? " " : text_arg(a, 0), LEFT, RIGHT); }
StringValue substring_of(std::string_view t, Args a) {
  return substring(t, integer_arg(a, 0), a.size() > 1 ? std::optional<int64_t>(integer_arg(a, 1)) : std::nullopt);
}
template <bool LEFT>
StringValue side_of(std::string_view t, Args a) { return side(t, integer_arg(a, 0), LEFT); }
template <bool LEFT>
StringValue pad_of(std::string_view t, Args a) { return padded(t, integer_arg(a, 0), text_arg(a, 1), LEFT); }
StringValue repeat_of(std::string_view t, Args a) { return repeated(t, integer_arg(a, 0)); }
StringValue replace_of(std::string_view t, Args a) { return replaced(t, text_arg(a, 0), text_arg(a, 1)); }
StringValue position_of(std::string_view t, Args a) { return position(t, text_arg(a, 0)); }
StringValue starts_with_of(std::string_view t, Args a) { return t.starts_with(text_arg(a, 0)); }
StringValue ends_with_of(std::string_view t, Args a) { return t.ends_with(text_arg(a, 0)); }
StringValue contains_of(std::string_view t, Args a) { return t.find(text_arg(a, 0)) != std::string_view::npos; }

const std::vector<StringFunction>& functions() {
  static const std::vector<StringFunction> all = {
      {"length", {}, 0, Type::BigInt, false, length_of},
      {"len", {}, 0, Type::BigInt, false, length_of},
      {"char_length", {}, 0, Type::BigInt, false, length_of},
      {"character_length", {}, 0, Type::BigInt, false, length_of},
      {"strlen", {}, 0, Type::BigInt, false, bytes_of},
      {"upper", {}, 0, Type::Varchar, true, upper_of},
      {"ucase", {}, 0, Type::Varchar, true, upper_of},
      {"lower", {}, 0, Type::Varchar, true, lower_of},
      {"lcase", {}, 0, Type::Varchar, true, lower_of},
      {"reverse", {}, 0, Type::Varchar, true, reverse_of},
      {"ascii", {}, 0, Type::Integer, false, ascii_of},
      {"trim", {Arg::Text}, 0, Type::Varchar, false, trim_of<true, true>},
      {"ltrim", {Arg::Text}, 0, Type::Varchar, false, trim_of<true, false>},
      {"rtrim", {Arg::Text}, 0, Type::Varchar, false, trim_of<false, true>},
      {"substring", {Arg::Integer, Arg::Integer}, 1, Type::Varchar, false, substring_of},
      {"substr", {Arg::Integer, Arg::Integer}, 1, Type::Varchar, false, substring_of},
      {"left", {Arg::Integer}, 1, Type::Varchar, false, side_of<true>},
      {"right", {Arg::Integer}, 1, Type::Varchar, false, side_of<false>},
      {"lpad", {Arg::Integer, Arg::Text}, 2, Type::Varchar, false, pad_of<true>},
      {"rpad", {Arg::Integer, Arg::Text}, 2, Type::Varchar, false, pad_of<false>},
      {"repeat", {Arg::Integer}, 1, Type::Varchar, false, repeat_of},
      {"replace", {Arg::Text, Arg::Text}, 2, Type::Varchar, false, replace_of},
      {"strpos", {Arg::Text}, 1, Type::BigInt, false, position_of},
      {"instr", {Arg::Text}, 1, Type::BigInt, false, position_of},
      {"position", {Arg::Text}, 1, Type::BigInt, false, position_of},  // POSITION(x IN s)
      {"starts_with", {Arg::Text}, 1, Type::Boolean, false, starts_with_of},
      {"prefix", {Arg::Text}, 1, Type::Boolean, false, starts_with_of},
      {"ends_with", {Arg::Text}, 1, Type::Boolean, false, ends_with_of},
      {"suffix", {Arg::Text}, 1, Type::Boolean, false, ends_with_of},
      {"contains", {Arg::Text}, 1, Type::Boolean, false, contains_of},
  };
  return all;
}

}  // namespace

// ASCII text needs no table of where its characters start.
std::string substring(std::string_view text, int64_t start, std::optional<int64_t> length) {
  if (length && *length == 0) return "";
  // Where each character begins, and the end (ASCII text: at[i] = i, kept implicit).
  const bool one_byte = ascii(text);
  const std::vector<std::size_t> starts = one_byte ? std::vector<std::size_t>() : character_starts(text);
  const int64_t n = one_byte ? static_cast<int64_t>(text.size()) : static_cast<int64_t>(starts.size()) - 1;
  auto at = [&](int64_t c) { return one_byte ? static_cast<std::size_t>(c) : starts[static_cast<std::size_t>(c)]; };
  // [first, last) in characters, clamped to the text.
  int64_t first = 0, last = 0;
  const int64_t count = length.value_or(std::numeric_limits<uint32_t>::max());
  if (start >= 0) {
    const int64_t from = start - 1;  // start 0: one character before the first
    first = count < 0 ? std::max<int64_t>(0, from + count) : std::max<int64_t>(0, from);
    last = count < 0 ? from : from + count;
    if (first >= n || last <= first) return "";
    last = std::min(last, n);
  } else {
    // Counted from the back (1 = the last character, which is number n - 1
    // from the front): a range that begins before the text begins at its
    // start; one that ends before the text is empty.
    const int64_t back = 1 - start;
    const int64_t from_back = count < 0 ? back - count : back, to_back = count < 0 ? back : back - count;
    if (to_back > n) return "";
    first = from_back <= n ? n - from_back + 1 : 0;
    last = to_back <= 0 ? n : n - to_back + 1;
    if (last <= first) return "";
  }
  return std::string(text.substr(at(first), at(last) - at(first)));
}

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
  return f.apply(text, args);
}

}  // namespace gpusql
