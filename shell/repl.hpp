// The interactive loop: prompts, line editing and history (with readline),
// statements spanning lines until ';', Ctrl-C to drop a half-typed
// statement, Ctrl-D or .quit to leave.
#pragma once

#include "shell/session.hpp"

namespace gpusql::shell {

// Prints a banner naming the version and the executor, then reads from the
// terminal until Ctrl-D or .quit. For standard input that is not a terminal
// use Session::run_script instead: no prompts, and errors count.
void run_repl(Session& session);

}  // namespace gpusql::shell
