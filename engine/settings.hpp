// The database settings (gpusql::Settings) by name: what SET, PRAGMA and
// RESET change, and what the shell's .show lists.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "gpusql/gpusql.hpp"
#include "parser/ast.hpp"

namespace gpusql {

// Applies `SET name = value` (RESET when the statement has no value) to
// `settings`. Error(Catalog) for an unknown name, with the closest known
// one; Error(Invalid) for a value of the wrong kind or range. `settings`
// is unchanged on error.
void apply_setting(Settings& settings, const ast::SetStatement& set);

// Every setting's name and value as SQL would write it, in a fixed order.
std::vector<std::pair<std::string, std::string>> setting_values(const Settings& settings);

}  // namespace gpusql
