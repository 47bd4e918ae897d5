// One shell session: the database, the settings dot-commands change, and the
// running of statements, dot-commands and scripts. The REPL loop and the
// command line both drive it; it never reads the terminal itself.
#pragma once

#include <cstddef>
#include <exception>
#include <fstream>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "gpusql/gpusql.hpp"
#include "shell/renderer.hpp"
#include "shell/statement_splitter.hpp"

namespace gpusql::shell {

// What running a statement, a dot-command or a whole script came to.
enum class Outcome {
  Ok,
  Failed,  // an error was printed
  Quit,    // .quit or .exit: the shell should end
  Interrupted,  // Ctrl-C stopped it: a script ends, the prompt comes back
};

struct SessionSettings {
  RenderMode mode = RenderMode::Box;
  RenderOptions render;
  bool bail = false;   // a script stops at its first failure
  bool echo = false;   // print each input line before running what it completes
  bool timer = false;  // print "Run Time: 0.012345 s" after each statement (microseconds: GPU queries take a few milliseconds)
};

class Session {
 public:
  // Results go to `out`, errors to `err`.
  Session(Database& database, SessionSettings settings, std::ostream& out, std::ostream& err);

  // Feeds one input line to `reader` and returns the items it completes.
  // With echo on, the line is shown first, as sqlite3 shows its input:
  // comments and blank lines between statements too, a statement's first
  // line without its indentation. Scripts and the REPL both read through it.
  std::vector<InputItem> feed_line(StatementReader& reader, std::string_view line);
  // Runs one statement or dot-command.
  Outcome run_item(const InputItem& item);
  // Runs a script read line by line from `in` (-c text, -f and .read files,
  // standard input when it is not a terminal). Stops at .quit, and at the
  // first failure when bail is on. Returns Failed when anything in it failed.
  Outcome run_script(std::istream& in);
  // run_script on a file; a file that cannot be opened is a failure.
  Outcome run_file(const std::string& path);

  // Whether anything has failed since the session began: the exit status of
  // a non-interactive run.
  bool had_error() const { return had_error_; }

  // Prints "Error: message" on the error stream.
  void report_error(std::string_view message);
  // Prints a caught exception: a gpusql::Error as its what(), which already
  // names the stage and shows a caret under the fault; others as report_error.
  void report_exception(const std::exception& e);

  // For dot-commands.
  Database& database() { return database_; }
  const SessionSettings& settings() const { return settings_; }
  void set_mode(RenderMode mode);
  void set_render(RenderOptions options);  // .maxrows, .headers, .nullvalue, .separator
  void set_bail(bool on) { settings_.bail = on; }
  void set_echo(bool on) { settings_.echo = on; }
  void set_timer(bool on) { settings_.timer = on; }
  std::ostream& out() { return out_; }
  // Where results go now: the .output/.once file, or `out`.
  std::ostream& results_stream();
  // .output FILE / .once FILE: results go to FILE (truncated), until the
  // next .output (from then on) or after one result (once); an empty path
  // goes back to standard output. Throws std::runtime_error when FILE cannot
  // be opened, leaving the destination as it was.
  void redirect_results(const std::string& path, bool once);

 private:
  Outcome run_statement(const std::string& sql);
  // Echo (.echo on): `text` and a line break where results go now.
  void echo(std::string_view text);

  Database& database_;
  SessionSettings settings_;
  std::unique_ptr<Renderer> renderer_;
  std::ostream& out_;
  std::unique_ptr<std::ofstream> results_file_;  // null: results go to out_
  bool results_once_ = false;
  std::ostream& err_;
  bool had_error_ = false;
  int read_depth_ = 0;  // nested .read files, bounded so a file reading itself stops
};

}  // namespace gpusql::shell
