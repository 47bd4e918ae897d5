#include "shell/options.hpp"

#include <algorithm>

// The build may pass the project version; otherwise the shell names this one.
#ifndef GPUSQL_VERSION
#define GPUSQL_VERSION "0.1.0"
#endif

namespace gpusql::shell {

namespace {

struct Flag {
  std::string_view name;      // with one leading dash
  std::string_view argument;  // shown in --help; empty for a flag without one
  std::string_view help;
  void (*apply)(ShellOptions& options, const std::string& argument);
};

void set_mode(ShellOptions& options, RenderMode mode) { options.mode = mode; }

const Flag FLAGS[] = {
    {"-bail", "", "stop a script at its first error",  //
     [](ShellOptions& o, const std::string&) { o.bail = true; }},
    {"-box", "", "set output mode to 'box'",  //
     [](ShellOptions& o, const std::string&) { set_mode(o, RenderMode::Box); }},
    {"-c", "SQL", "run SQL (statements and dot-commands) and exit",
     [](ShellOptions& o, const std::string& sql) { o.batch.push_back({BatchInput::Kind::Sql, sql}); }},
    {"-cmd", "COMMAND", "run COMMAND (SQL or a dot-command) first, then go on (repeatable)",
     [](ShellOptions& o, const std::string& sql) { o.startup.push_back({BatchInput::Kind::Sql, sql}); }},
    {"-csv", "", "set output mode to 'csv'",  //
     [](ShellOptions& o, const std::string&) { set_mode(o, RenderMode::Csv); }},
    {"-device", "host|gpu|auto", "run queries on the CPU, on the GPU, or on the GPU when one is usable (default)",
     [](ShellOptions& o, const std::string& device) {
       if (device == "host")
         o.executor = ExecutorKind::Host;
       else if (device == "gpu")
         o.executor = ExecutorKind::Gpu;
       else if (device == "auto")
         o.executor = ExecutorKind::Auto;
       else
         throw UsageError("-device takes host, gpu or auto, not '" + device + "'");
     }},
    {"-column", "", "set output mode to 'column'",  //
     [](ShellOptions& o, const std::string&) { set_mode(o, RenderMode::Column); }},
    {"-echo", "", "print each command before running it",  //
     [](ShellOptions& o, const std::string&) { o.echo = true; }},
    {"-f", "FILE", "run the statements and dot-commands in FILE and exit",
     [](ShellOptions& o, const std::string& path) { o.batch.push_back({BatchInput::Kind::File, path}); }},
    {"-header", "", "csv and list modes: print a line of column names (default)",  //
     [](ShellOptions& o, const std::string&) { o.render.headers = true; }},
    {"-help", "", "show this message and exit",  //
     [](ShellOptions& o, const std::string&) { o.help = true; }},
    {"-init", "FILE", "run the statements and dot-commands in FILE first, then go on",
     [](ShellOptions& o, const std::string& path) { o.startup.push_back({BatchInput::Kind::File, path}); }},
    {"-json", "", "set output mode to 'json'",  //
     [](ShellOptions& o, const std::string&) { set_mode(o, RenderMode::Json); }},
    {"-line", "", "set output mode to 'line'",  //
     [](ShellOptions& o, const std::string&) { set_mode(o, RenderMode::Line); }},
    {"-list", "", "set output mode to 'list'",  //
     [](ShellOptions& o, const std::string&) { set_mode(o, RenderMode::List); }},
    {"-load", "NAME=PATH", "load the CSV file PATH as table NAME before anything runs (repeatable)",
     [](ShellOptions& o, const std::string& spec) {
       std::size_t equals = spec.find('=');
       if (equals == 0 || equals == std::string::npos || equals + 1 == spec.size())
         throw UsageError("-load takes NAME=PATH, not '" + spec + "'");
       o.loads.push_back({spec.substr(0, equals), spec.substr(equals + 1)});
     }},
    {"-markdown", "", "set output mode to 'markdown'",  //
     [](ShellOptions& o, const std::string&) { set_mode(o, RenderMode::Markdown); }},
    {"-noheader", "", "csv and list modes: no line of column names",  //
     [](ShellOptions& o, const std::string&) { o.render.headers = false; }},
    {"-nullvalue", "TEXT", "list and line modes: print NULL as TEXT",  //
     [](ShellOptions& o, const std::string& text) { o.render.null_value = text; }},
    {"-table", "", "set output mode to 'table'",  //
     [](ShellOptions& o, const std::string&) { set_mode(o, RenderMode::Table); }},
    {"-separator", "SEP", "list mode: put SEP between values (default: |)",  //
     [](ShellOptions& o, const std::string& sep) { o.render.separator = sep; }},
    {"-trash", "", "set output mode to 'trash' (print no results)",  //
     [](ShellOptions& o, const std::string&) { set_mode(o, RenderMode::Trash); }},
    {"-version", "", "show the version and exit",  //
     [](ShellOptions& o, const std::string&) { o.version = true; }},
};

const Flag* find_flag(std::string_view name) {
  for (const Flag& flag : FLAGS)
    if (flag.name == name) return &flag;
  return nullptr;
}

}  // namespace

ShellOptions parse_arguments(const std::vector<std::string>& arguments) {
  ShellOptions options;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    std::string_view spelled = arguments[i];
    // "--help" is "-help": both spellings are common and neither is ambiguous.
    std::string_view name = spelled.starts_with("--") ? spelled.substr(1) : spelled;
    const Flag* flag = name.starts_with('-') ? find_flag(name) : nullptr;
    if (!flag) {
      if (spelled.starts_with('-')) throw UsageError("unknown option: " + std::string(spelled));
      throw UsageError("unexpected argument: '" + std::string(spelled) + "' (use -c SQL or -f FILE)");
    }
    std::string argument;
    if (!flag->argument.empty()) {
      if (i + 1 == arguments.size())
        throw UsageError("option " + std::string(spelled) + " needs an argument: " + std::string(flag->argument));
      argument = arguments[++i];
    }
    flag->apply(options, argument);
  }
  return options;
}

std::string usage_text() {
  std::string text =
      "Usage: gpusql [OPTIONS] [-c SQL] [-f FILE]\n"
      "An in-memory columnar SQL engine that runs queries on the GPU.\n"
      "With neither -c nor -f, reads SQL from standard input: interactively on a\n"
      "terminal (enter \".help\" there for the dot-commands), as a script otherwise.\n"
      "\n"
      "OPTIONS:\n";
  std::size_t width = 0;
  for (const Flag& flag : FLAGS) width = std::max(width, flag.name.size() + 1 + flag.argument.size());
  for (const Flag& flag : FLAGS) {
    std::string left(flag.name);
    if (!flag.argument.empty()) left += " " + std::string(flag.argument);
    left.resize(width, ' ');
    text += "   " + left + "   " + std::string(flag.help) + "\n";
  }
  return text;
}

std::string version_text() { return std::string("gpusql ") + GPUSQL_VERSION; }

}  // namespace gpusql::shell
