// Ctrl-C while a statement or dot-command runs, as sqlite3 and DuckDB's
// shells take it: the statement stops with "INTERRUPT Error: Interrupted!"
// (Database::interrupt), every table stays as it was, and the prompt comes
// back (a script ends). A third Ctrl-C during one statement ends the shell
// at once, for work that does not stop.
#pragma once

#include <memory>

#include "gpusql/gpusql.hpp"

namespace gpusql::shell {

class StatementInterruptGuard {
 public:
  // Catches SIGINT for `database` until destroyed, then restores the
  // handler that was there before (nested guards stack).
  explicit StatementInterruptGuard(Database& database);
  ~StatementInterruptGuard();
  StatementInterruptGuard(const StatementInterruptGuard&) = delete;
  StatementInterruptGuard& operator=(const StatementInterruptGuard&) = delete;

  // Whether a Ctrl-C came while this guard was the innermost.
  bool interrupted() const;

 private:
  struct Saved;  // the outer handler and state (keeps <signal.h> out of here)
  std::unique_ptr<Saved> saved_;
};

}  // namespace gpusql::shell
