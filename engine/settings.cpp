#include "engine/settings.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>

#include "storage/catalog.hpp"  // closest_name

namespace gpusql {
namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

Error bad_value(const ast::SetStatement& set, const std::string& expected) {
  return Error(ErrorKind::Invalid, "setting \"" + set.name + "\" takes " + expected, set.value_offset);
}

// true/false, on/off, 1/0 and their strings.
bool boolean_value(const ast::SetStatement& set) {
  const ast::Literal& v = *set.value;
  if (v.kind == ast::Literal::Kind::Boolean) return v.boolean;
  if (v.kind == ast::Literal::Kind::Integer && (v.integer == 0 || v.integer == 1)) return v.integer == 1;
  if (v.kind == ast::Literal::Kind::String) {
    const std::string word = lower(v.text);
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

constexpr std::array<std::pair<const char*, FilterKernel>, 5> kFilterKernels{{{"auto", FilterKernel::Auto},
                                                                             {"bitmask", FilterKernel::Bitmask},
                                                                             {"cub", FilterKernel::Cub},
                                                                             {"ordered", FilterKernel::Ordered},
                                                                             {"select", FilterKernel::Select}}};

FilterKernel filter_kernel_value(const ast::SetStatement& set) {
  const ast::Literal& v = *set.value;
  if (v.kind == ast::Literal::Kind::String)
    for (const auto& [name, kernel] : kFilterKernels)
      if (lower(v.text) == name) return kernel;
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

const std::vector<Setting>& all_settings() {
  static const std::vector<Setting> settings{
      {"trace",
       [](Settings& s, const ast::SetStatement& set, const Settings& d) {
         s.trace = set.value ? boolean_value(set) : d.trace;
       },
       [](const Settings& s) { return boolean_name(s.trace); }},
      {"threads",
       [](Settings& s, const ast::SetStatement& set, const Settings& d) {
         s.threads = set.value ? count_value(set, 4096) : d.threads;
       },
       [](const Settings& s) { return std::to_string(s.threads); }},
      {"filter_kernel",
       [](Settings& s, const ast::SetStatement& set, const Settings& d) {
         s.filter_kernel = set.value ? filter_kernel_value(set) : d.filter_kernel;
       },
       [](const Settings& s) { return filter_kernel_name(s.filter_kernel); }},
      {"small_sort",
       [](Settings& s, const ast::SetStatement& set, const Settings& d) {
         s.small_sort = set.value ? boolean_value(set) : d.small_sort;
       },
       [](const Settings& s) { return boolean_name(s.small_sort); }},
      {"pair_program",
       [](Settings& s, const ast::SetStatement& set, const Settings& d) {
         s.pair_program = set.value ? boolean_value(set) : d.pair_program;
       },
       [](const Settings& s) { return boolean_name(s.pair_program); }},
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
