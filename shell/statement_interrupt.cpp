#include "shell/statement_interrupt.hpp"

#include <signal.h>

#include <csignal>

namespace gpusql::shell {

namespace {

// Read by the handler: a pointer and a counter, nothing that allocates.
Database* volatile current_database = nullptr;
volatile std::sig_atomic_t presses = 0;

extern "C" void on_statement_interrupt(int) {
  presses = presses + 1;
  if (presses >= 3) {
    signal(SIGINT, SIG_DFL);
    raise(SIGINT);
    return;
  }
  if (Database* database = current_database) database->interrupt();
}

}  // namespace

struct StatementInterruptGuard::Saved {
  struct sigaction action {};
  Database* database = nullptr;
  std::sig_atomic_t presses = 0;
};

StatementInterruptGuard::StatementInterruptGuard(Database& database) : saved_(std::make_unique<Saved>()) {
  saved_->database = current_database;
  saved_->presses = presses;
  current_database = &database;
  presses = 0;
  struct sigaction action {};
  action.sa_handler = on_statement_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // reads and writes of the statement carry on
  sigaction(SIGINT, &action, &saved_->action);
}

StatementInterruptGuard::~StatementInterruptGuard() {
  sigaction(SIGINT, &saved_->action, nullptr);
  current_database = saved_->database;
  // The outer statement (a .read of this script) counts this one's presses.
  presses = saved_->presses + presses;
}

bool StatementInterruptGuard::interrupted() const { return presses > 0; }

}  // namespace gpusql::shell
