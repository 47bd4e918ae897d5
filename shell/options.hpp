// The shell's command line: one table of flags that both parses arguments
// and writes --help, so the two cannot drift apart.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "gpusql/gpusql.hpp"
#include "shell/renderer.hpp"

namespace gpusql::shell {

// A -c or -f argument: run in command-line order, then the shell exits.
struct BatchInput {
  enum class Kind { Sql, File };
  Kind kind;
  std::string text;  // the SQL, or the script's path
};

struct TableLoad {
  std::string name;
  std::string path;
};

struct ShellOptions {
  ExecutorKind executor = ExecutorKind::Auto;
  std::vector<TableLoad> loads;
  std::vector<BatchInput> batch;  // empty: read standard input
  // -init FILE and -cmd COMMAND, in order: run first, before the batch,
  // standard input or the REPL (which then still runs).
  std::vector<BatchInput> startup;
  std::optional<RenderMode> mode;  // unset: box on a terminal, csv otherwise
  RenderOptions render;            // -header/-noheader, -nullvalue, -separator
  bool bail = false;
  bool echo = false;
  bool help = false;
  bool version = false;
};

// A bad command line; what() says what is wrong, without the usage text.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses argv[1..]. Every flag may be spelled with one dash or two
// ("-help", "--help"). Throws UsageError.
ShellOptions parse_arguments(const std::vector<std::string>& arguments);

// The usage text --help prints, generated from the flag table.
std::string usage_text();

// "gpusql 0.1.0".
std::string version_text();

}  // namespace gpusql::shell
