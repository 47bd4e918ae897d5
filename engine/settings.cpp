#include "engine/settings.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>

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

constexpr std::array<std::pair<const char*, FilterKernel>, 5> kFilterKernels{{{"auto", FilterKernel::Auto},
                                                                             {"bitmask", FilterKernel::Bitmask},
                                                                             {"cub", FilterKernel::Cub},
                                                                             {"ordered", FilterKernel::Ordered},
                                                                             {"select", FilterKernel::Select}}};

FilterKernel filter_kernel_value(const ast::SetStatement& set) {
  const ast::Literal& v = *set.value;
  if (v.kind == ast::Literal::Kind::String)
    for (const auto& [name, kernel] : kFilterKernels)
      if (to_lower(v.text) == name) return kernel;
  throw bad_value(set, "one of 'auto', 'bitmask', 'cub', 'ordered', 'select'");
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
