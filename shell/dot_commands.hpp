// The shell's dot-commands (.mode, .read, .timer, ...): one table that both
// runs them and writes .help, so the two cannot drift apart.
#pragma once

#include <string>
#include <string_view>

#include "shell/session.hpp"

namespace gpusql::shell {

// Runs one dot-command line such as `.mode csv` or `.load "my data.csv" t`.
// Arguments are separated by blanks and may be quoted with '...' or "...".
// Errors are printed on the session's error stream and return Failed.
Outcome run_dot_command(Session& session, std::string_view line);

// The text .help prints: one line per command, generated from the table.
std::string dot_command_help();

// Loads a CSV file as table `name` the way the shell does (-load, and .import
// of a new table): the dialect detected where `options` leave it open, types
// inferred, a progress bar on stderr for a load that takes longer than a
// second when stderr is a terminal. Throws gpusql::Error.
void load_with_progress(Database& database, const std::string& name, const std::string& path,
                        CsvOptions options = {});

}  // namespace gpusql::shell
