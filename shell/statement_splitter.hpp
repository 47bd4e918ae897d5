// Cuts shell input into what runs one at a time: SQL statements, ended by a
// top-level ';', and dot-commands. Database::query runs a whole string and
// returns only its last result, so the shell splits first to print a result
// per statement.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpusql::shell {

struct SplitResult {
  // The complete statements, each without its ';' and trimmed of surrounding
  // whitespace; statements holding nothing but whitespace and comments are
  // left out.
  std::vector<std::string> statements;
  // The text after the last top-level ';': the start of a statement not yet
  // ended.
  std::string rest;
  // Whether `rest` holds only whitespace and complete comments, so nothing is
  // pending. An unclosed string, quoted identifier or block comment is not
  // blank.
  bool rest_is_blank = true;
};

// Splits at each ';' outside '...' strings, "..." identifiers, -- line
// comments and /* */ block comments.
SplitResult split_statements(std::string_view text);

// One thing for the shell to run.
struct InputItem {
  enum class Kind { Sql, DotCommand };
  Kind kind;
  std::string text;         // the statement without its ';', or the whole dot-command line
  bool terminated = false;  // Sql: it ended with ';' (the last one of a script may not)
};

// Collects input line by line, for the REPL and for scripts alike. A line
// whose first non-blank character is '.' while no statement is pending is a
// dot-command; other lines accumulate until a ';' ends a statement.
class StatementReader {
 public:
  // `line` without its line break (a trailing '\r' is dropped too).
  std::vector<InputItem> feed_line(std::string_view line);
  // At end of input: the statement started but never ended with ';', if any.
  std::optional<InputItem> finish();
  // Whether a statement is partly entered (the REPL's continuation prompt).
  bool pending() const { return !buffer_.empty(); }
  // Drops the partly entered statement (Ctrl-C at the prompt).
  void clear() { buffer_.clear(); }

 private:
  std::string buffer_;
};

}  // namespace gpusql::shell
