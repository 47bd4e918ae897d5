#include "shell/repl.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>

#ifdef GPUSQL_WITH_READLINE
#include <poll.h>
#include <readline/history.h>
#include <readline/readline.h>
#include <sys/stat.h>
#endif

#include "shell/options.hpp"
#include "shell/statement_splitter.hpp"

namespace gpusql::shell {

namespace {

constexpr const char* PROMPT = "gpusql> ";
constexpr const char* CONTINUATION_PROMPT = "   ...> ";

enum class ReadStatus { Line, Interrupted, End };

volatile std::sig_atomic_t interrupted = 0;

extern "C" void on_interrupt(int) { interrupted = 1; }

// Catches Ctrl-C while a line is being read: the half-typed statement is
// dropped. While a statement runs, StatementInterruptGuard (session.cpp)
// takes Ctrl-C instead and stops the statement.
class InterruptGuard {
 public:
  InterruptGuard() {
    interrupted = 0;
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: the blocked read must wake up
    sigaction(SIGINT, &action, &previous_);
  }
  ~InterruptGuard() { sigaction(SIGINT, &previous_, nullptr); }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction previous_ {};
};

#ifdef GPUSQL_WITH_READLINE

// readline through its callback interface, as Python's REPL does: the loop
// waits in poll(), which a Ctrl-C interrupts, so the half-typed line can be
// dropped cleanly; the blocking readline() call would swallow the signal.
class LineEditor {
 public:
  LineEditor() {
    rl_readline_name = "gpusql";
    if (const char* home = std::getenv("HOME"); home && *home) {
      history_path_ = std::string(home) + "/.gpusql_history";
      struct stat st;
      // append_history does not create the file.
      if (stat(history_path_.c_str(), &st) != 0) write_history(history_path_.c_str());
      read_history(history_path_.c_str());
    }
  }
  ~LineEditor() {
    if (!history_path_.empty()) history_truncate_file(history_path_.c_str(), HISTORY_LINES);
  }
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  ReadStatus read(const char* prompt, std::string& line) {
    std::cout.flush();
    InterruptGuard guard;
    done_ = false;
    rl_callback_handler_install(prompt, on_line);
    while (!done_) {
      pollfd input{STDIN_FILENO, POLLIN, 0};
      int ready = poll(&input, 1, -1);
      if (ready < 0 && errno == EINTR && interrupted) {
        rl_free_line_state();
        rl_callback_sigcleanup();
        rl_cleanup_after_signal();
        rl_callback_handler_remove();
        std::fputs("^C\n", stdout);
        return ReadStatus::Interrupted;
      }
      if (ready < 0 && errno != EINTR) {
        rl_callback_handler_remove();
        return ReadStatus::End;
      }
      if (ready > 0) rl_callback_read_char();
    }
    if (!line_) {
      // Ctrl-D leaves the cursor after the prompt; readline moves on to a new
      // line itself only when bracketed paste is on.
      const char* paste = rl_variable_value("enable-bracketed-paste");
      if (!paste || std::strcmp(paste, "on") != 0) std::fputs("\n", stdout);
      return ReadStatus::End;
    }
    line = std::move(*line_);
    return ReadStatus::Line;
  }

  // Adds an entered line to the history, and to the history file at once so
  // that it survives the shell being killed.
  void remember(const std::string& line) {
    if (line.find_first_not_of(" \t") == std::string::npos) return;
    if (HIST_ENTRY* last = history_get(history_base + history_length - 1); last && line == last->line) return;
    add_history(line.c_str());
    if (!history_path_.empty()) append_history(1, history_path_.c_str());
  }

 private:
  static constexpr int HISTORY_LINES = 1000;

  static void on_line(char* text) {
    done_ = true;
    if (text) {
      line_ = text;
      std::free(text);
    } else {
      line_.reset();
    }
    rl_callback_handler_remove();
  }

  static inline bool done_ = false;
  static inline std::optional<std::string> line_;
  std::string history_path_;
};

#else

// Plain std::getline: no editing, no history.
class LineEditor {
 public:
  ReadStatus read(const char* prompt, std::string& line) {
    std::cout << prompt << std::flush;
    InterruptGuard guard;
    if (std::getline(std::cin, line)) return ReadStatus::Line;
    if (interrupted) {
      // The interrupted read left stdin's error flag set; the next one must not see it.
      std::clearerr(stdin);
      std::cin.clear();
      std::cout << '\n';
      return ReadStatus::Interrupted;
    }
    // Ctrl-D leaves the cursor after the prompt.
    std::cout << '\n';
    return ReadStatus::End;
  }

  void remember(const std::string&) {}
};

#endif

}  // namespace

void run_repl(Session& session) {
  session.out() << version_text() << "\n"
                << "executor: " << session.database().executor_description() << "\n"
                << "Enter \".help\" for the dot-commands; end statements with ';'.\n";
  LineEditor editor;
  StatementReader reader;
  std::string line;
  while (true) {
    ReadStatus status = editor.read(reader.pending() ? CONTINUATION_PROMPT : PROMPT, line);
    if (status == ReadStatus::Interrupted) {
      reader.clear();
      continue;
    }
    if (status == ReadStatus::End) {
      if (auto last = reader.finish()) session.run_item(*last);
      return;
    }
    editor.remember(line);
    for (const InputItem& item : session.feed_line(reader, line)) {
      const Outcome outcome = session.run_item(item);
      if (outcome == Outcome::Quit) return;
      if (outcome == Outcome::Interrupted) {  // the rest of the input so far is dropped too
        reader.clear();
        break;
      }
    }
  }
}

}  // namespace gpusql::shell
