#include "engine/settings.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <functional>

#include "common/byte_size.hpp"
#include "common/query_control.hpp"
#include "storage/catalog.hpp"  // closest_name
#include "storage/table.hpp"    // to_lower

namespace gpusql {
namespace {

Error bad_value(const ast::SetStatement& set, const std::string& expected) {
  return Error(ErrorKind::Invalid, "setting \"" + set.name + "\" takes " + expected, set.value_offset);
}

// true/false, on/off, 1/0 and their strings.
bool boolean_value(const ast::SetStatement& set) {
  const ast::Literal& v = *set.value;
  if (v.kind == ast::Literal::Kind::Boolean) return v.boolean;
  if (v.kind == ast::Literal::Kind::Integer && (v.integer == 0 || v.integer == 1)) return v.integer == 1;
  if (v.kind == ast::Literal::Kind::String) {
    const std::string word = to_lower(v.text);
    if (word == "true" || word == "on" || word == "1") return true;
    if (word == "false" || word == "off" || word == "0") return false;
  }
  throw bad_value(set, "a boolean (true, false, on, off)");
}

unsigned count_value(const ast::SetStatement& set, unsigned most) {
  const ast::Literal& v = *set.value;
  if (v.kind == ast::Literal::Kind::Integer && v.integer >= 0 && v.integer <= most)
    return static_cast<unsigned>(v.integer);
  throw bad_value(set, "a whole number from 0 to " + std::to_string(most));
}

uint64_t rows_value(const ast::SetStatement& set) {
  constexpr int64_t kMost = int64_t{1} << 48;
  const ast::Literal& v = *set.value;
  if (v.kind == ast::Literal::Kind::Integer && v.integer >= 0 && v.integer <= kMost)
    return static_cast<uint64_t>(v.integer);
  throw bad_value(set, "a whole number from 0 to " + std::to_string(kMost));
}

// A size as DuckDB takes one: a number and a unit (KB, MB, GB, TB for powers
// of 1000, KiB, MiB, GiB, TiB for powers of 1024, B for bytes; case and
// spaces do not matter), or 'none' / -1 for no limit.
uint64_t byte_size_value(const ast::SetStatement& set) {
  const ast::Literal& v = *set.value;
  const char* expected = "a size such as '4GB', '512MiB' or '1.5 GiB', or 'none'";
  if (v.kind == ast::Literal::Kind::Integer && v.integer == -1) return UINT64_MAX;
  if (v.kind != ast::Literal::Kind::String) throw bad_value(set, expected);
  std::string text;
  for (char c : v.text)
    if (!std::isspace(static_cast<unsigned char>(c))) text += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (text == "none" || text == "-1") return UINT64_MAX;
  std::size_t digits = 0;
  while (digits < text.size() && (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.')) ++digits;
  static const std::array<std::pair<const char*, double>, 15> kUnits{{{"b", 1},
                                                                     {"byte", 1},
                                                                     {"bytes", 1},
                                                                     {"k", 1e3},
                                                                     {"kb", 1e3},
                                                                     {"m", 1e6},
                                                                     {"mb", 1e6},
                                                                     {"g", 1e9},
                                                                     {"gb", 1e9},
                                                                     {"t", 1e12},
                                                                     {"tb", 1e12},
                                                                     {"kib", 1024.0},
                                                                     {"mib", 1024.0 * 1024},
                                                                     {"gib", 1024.0 * 1024 * 1024},
                                                                     {"tib", 1024.0 * 1024 * 1024 * 1024}}};
  const std::string unit = text.substr(digits);
  const auto found = std::find_if(kUnits.begin(), kUnits.end(), [&](const auto& u) { return unit == u.first; });
  char* end = nullptr;
  const std::string number = text.substr(0, digits);
  const double value = number.empty() ? -1 : std::strtod(number.c_str(), &end);
  if (found == kUnits.end() || number.empty() || end != number.c_str() + number.size()) throw bad_value(set, expected);
  const double bytes = value * found->second;
  if (!(bytes >= 1) || bytes >= 1.8e19) throw bad_value(set, std::string(expected) + " of at least one byte");
  return static_cast<uint64_t>(bytes);
}

std::string byte_size_name(uint64_t bytes) {
  if (bytes == UINT64_MAX) return "'none'";
  return "'" + format_bytes(bytes == 0 ? default_memory_limit() : bytes) + "'";
}

constexpr std::array<std::pair<const char*, FilterKernel>, 3> kFilterKernels{
    {{"auto", FilterKernel::Auto}, {"cub", FilterKernel::Cub}, {"ordered", FilterKernel::Ordered}}};

FilterKernel filter_kernel_value(const ast::SetStatement& set) {
  const ast::Literal& v = *set.value;
  if (v.kind == ast::Literal::Kind::String)
    for (const auto& [name, kernel] : kFilterKernels)
      if (to_lower(v.text) == name) return kernel;
  throw bad_value(set, "one of 'auto', 'cub', 'ordered'");
}

std::string filter_kernel_name(FilterKernel kernel) {
  for (const auto& [name, k] : kFilterKernels)
    if (k == kernel) return std::string("'") + name + "'";
  return "'auto'";
}

std::string boolean_name(bool value) { return value ? "true" : "false"; }

struct Setting {
  const char* name;
  // Sets the field from set.value, or to `defaults`' when there is none.
  std::function<void(Settings&, const ast::SetStatement&, const Settings& defaults)> apply;
  std::function<std::string(const Settings&)> show;
};

// A setting held in field `field`, read by `parse` and written by `text`.
template <class T, class Parse, class Text>
Setting setting(const char* name, T Settings::*field, Parse parse, Text text) {
  return {name,
          [field, parse](Settings& s, const ast::SetStatement& set, const Settings& d) {
            s.*field = set.value ? parse(set) : d.*field;
          },
          [field, text](const Settings& s) { return text(s.*field); }};
}

Setting boolean_setting(const char* name, bool Settings::*field) {
  return setting(name, field, boolean_value, boolean_name);
}

const std::vector<Setting>& all_settings() {
  static const std::vector<Setting> settings{
      boolean_setting("trace", &Settings::trace),
      setting("threads", &Settings::threads, [](const ast::SetStatement& set) { return count_value(set, 4096); },
              [](unsigned n) { return std::to_string(n); }),
      setting("filter_kernel", &Settings::filter_kernel, filter_kernel_value, filter_kernel_name),
      boolean_setting("small_sort", &Settings::small_sort),
      boolean_setting("pair_program", &Settings::pair_program),
      setting("narrow_subquery_rows", &Settings::narrow_subquery_rows, rows_value,
              [](uint64_t n) { return std::to_string(n); }),
      setting("memory_limit", &Settings::memory_limit, byte_size_value, byte_size_name),
      setting("chunk_rows", &Settings::chunk_rows, rows_value, [](uint64_t n) { return std::to_string(n); }),
      setting("plain_strings_rows", &Settings::plain_strings_rows, rows_value,
              [](uint64_t n) { return std::to_string(n); }),
      boolean_setting("host_mirror", &Settings::host_mirror),
  };
  return settings;
}

}  // namespace

void apply_setting(Settings& settings, const ast::SetStatement& set) {
  for (const Setting& s : all_settings())
    if (set.name == s.name) {
      Settings changed = settings;
      s.apply(changed, set, Settings{});
      settings = changed;
      return;
    }
  std::vector<std::string> names;
  for (const Setting& s : all_settings()) names.push_back(s.name);
  std::string message = "unrecognized configuration parameter \"" + set.name + "\"";
  if (std::string hint = closest_name(set.name, names); !hint.empty()) message += "\nDid you mean \"" + hint + "\"?";
  throw Error(ErrorKind::Catalog, message, set.name_offset);
}

std::vector<std::pair<std::string, std::string>> setting_values(const Settings& settings) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Setting& s : all_settings()) out.emplace_back(s.name, s.show(settings));
  return out;
}

}  // namespace gpusql
