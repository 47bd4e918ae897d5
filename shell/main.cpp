// gpusql: the command-line shell. Parses the arguments, opens the database,
// and hands over to a script run or to the REPL.
#include <unistd.h>

#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "gpusql/gpusql.hpp"
#include "shell/dot_commands.hpp"
#include "shell/options.hpp"
#include "shell/repl.hpp"
#include "shell/session.hpp"

namespace shell = gpusql::shell;

int main(int argc, char* argv[]) {
  shell::ShellOptions options;
  try {
    options = shell::parse_arguments(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const shell::UsageError& e) {
    std::cerr << "gpusql: " << e.what() << "\n\n" << shell::usage_text();
    return 1;
  }
  if (options.help) {
    std::cout << shell::usage_text();
    return 0;
  }
  if (options.version) {
    std::cout << shell::version_text() << '\n';
    return 0;
  }

  const bool interactive = options.batch.empty() && isatty(STDIN_FILENO);
  std::optional<gpusql::Database> database;
  try {
    database.emplace(gpusql::Options{options.executor});
  } catch (const std::exception& e) {
    std::cerr << e.what() << '\n';
    return 1;
  }
  // A script's standard output is its results and nothing else.
  if (!interactive) std::cerr << "executor: " << database->executor_description() << '\n';
  for (const shell::TableLoad& load : options.loads) {
    try {
      shell::load_with_progress(*database, load.name, load.path);
    } catch (const std::exception& e) {
      std::cerr << e.what() << '\n';
      return 1;
    }
  }

  shell::SessionSettings settings;
  settings.mode = options.mode.value_or(isatty(STDOUT_FILENO) ? shell::RenderMode::Box : shell::RenderMode::Csv);
  settings.render = options.render;
  settings.bail = options.bail;
  settings.echo = options.echo;
  shell::Session session(*database, settings, std::cout, std::cerr);
  auto run = [&](const shell::BatchInput& input) {
    if (input.kind == shell::BatchInput::Kind::File) return session.run_file(input.text);
    std::istringstream text(input.text);
    return session.run_script(text);
  };
  auto stops = [&](shell::Outcome outcome) {
    return outcome == shell::Outcome::Quit || outcome == shell::Outcome::Interrupted ||
           (outcome == shell::Outcome::Failed && session.settings().bail);
  };

  for (const shell::BatchInput& input : options.startup)
    if (stops(run(input))) return session.had_error() ? 1 : 0;
  if (interactive) {
    shell::run_repl(session);
    return 0;
  }
  if (options.batch.empty()) {
    session.run_script(std::cin);
    return session.had_error() ? 1 : 0;
  }
  for (const shell::BatchInput& input : options.batch)
    if (stops(run(input))) break;
  return session.had_error() ? 1 : 0;
}
