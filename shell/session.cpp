#include "shell/session.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>

#include "shell/dot_commands.hpp"
#include "shell/statement_interrupt.hpp"

namespace gpusql::shell {

namespace {

constexpr int MAX_READ_DEPTH = 16;

}  // namespace

Session::Session(Database& database, SessionSettings settings, std::ostream& out, std::ostream& err)
    : database_(database),
      settings_(settings),
      renderer_(make_renderer(settings.mode, settings.render)),
      out_(out),
      err_(err) {}

void Session::set_mode(RenderMode mode) {
  settings_.mode = mode;
  renderer_ = make_renderer(settings_.mode, settings_.render);
}

void Session::set_render(RenderOptions options) {
  settings_.render = std::move(options);
  renderer_ = make_renderer(settings_.mode, settings_.render);
}

void Session::report_error(std::string_view message) {
  // Results printed so far come first, also when both streams are one terminal.
  out_.flush();
  err_ << "Error: " << message << '\n';
  err_.flush();
}

void Session::report_exception(const std::exception& e) {
  if (!dynamic_cast<const Error*>(&e)) return report_error(e.what());
  out_.flush();
  err_ << e.what() << '\n';
  err_.flush();
}

std::ostream& Session::results_stream() { return results_file_ ? *results_file_ : out_; }

void Session::echo(std::string_view text) {
  // Flushed at once: a statement's status line and errors go to stderr, and
  // where both streams are one terminal or pipe the echo must come first.
  results_stream() << text << '\n';
  results_stream().flush();
}

std::vector<InputItem> Session::feed_line(StatementReader& reader, std::string_view line) {
  if (settings_.echo) {
    std::string_view shown = line;
    if (shown.ends_with('\r')) shown.remove_suffix(1);
    const SplitResult split = split_statements(shown);
    const bool blank = split.statements.empty() && split.rest_is_blank;
    if (!reader.pending() && !blank) shown.remove_prefix(std::min(shown.find_first_not_of(" \t"), shown.size()));
    echo(shown);
  }
  return reader.feed_line(line);
}

Outcome Session::run_item(const InputItem& item) {
  StatementInterruptGuard guard(database_);
  Outcome outcome =
      item.kind == InputItem::Kind::DotCommand ? run_dot_command(*this, item.text) : run_statement(item.text);
  if (outcome == Outcome::Failed && guard.interrupted()) outcome = Outcome::Interrupted;
  if (outcome == Outcome::Failed || outcome == Outcome::Interrupted) had_error_ = true;
  return outcome;
}

Outcome Session::run_statement(const std::string& sql) {
  try {
    auto start = std::chrono::steady_clock::now();
    Result result = database_.query(sql);
    std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    // A status line ("loaded 5 rows into t") is not a result: it goes to
    // stderr, so `gpusql -csv -f script.sql > out.csv` writes only results.
    if (result.column_count() == 0) {
      renderer_->render(result, err_);
    } else if (results_file_) {
      renderer_->render(result, *results_file_);
      results_file_->flush();
      if (results_once_) results_file_.reset();
    } else {
      renderer_->render(result, out_);
    }
    if (settings_.timer) {
      char line[64];
      std::snprintf(line, sizeof line, "Run Time: %.6f s\n", elapsed.count());
      out_ << line;
    }
    out_.flush();
    return Outcome::Ok;
  } catch (const std::exception& e) {
    report_exception(e);
    return Outcome::Failed;
  }
}

void Session::redirect_results(const std::string& path, bool once) {
  if (path.empty()) {
    results_file_.reset();
    return;
  }
  auto file = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
  if (!*file) throw std::runtime_error("cannot open '" + path + "' for writing: " + std::strerror(errno));
  results_file_ = std::move(file);
  results_once_ = once;
}

Outcome Session::run_script(std::istream& in) {
  StatementReader reader;
  bool failed = false;
  // A Ctrl-C between two statements ends the script too, as in sqlite3;
  // one during a statement stops that statement (run_item's own guard,
  // whose presses this guard then counts).
  StatementInterruptGuard script_guard(database_);
  // Returns how the script ends when this item ends it.
  auto run = [&](const InputItem& item) -> std::optional<Outcome> {
    if (script_guard.interrupted()) {
      report_exception(Error(ErrorKind::Interrupt, "Interrupted!"));
      had_error_ = true;
      return Outcome::Interrupted;
    }
    Outcome outcome = run_item(item);
    if (outcome == Outcome::Failed) failed = true;
    if (outcome == Outcome::Quit || outcome == Outcome::Interrupted || (outcome == Outcome::Failed && settings_.bail))
      return outcome;
    return std::nullopt;
  };
  std::string line;
  while (std::getline(in, line)) {
    for (const InputItem& item : feed_line(reader, line))
      if (auto end = run(item)) return *end;
  }
  if (auto last = reader.finish())
    if (auto end = run(*last)) return *end;
  return failed ? Outcome::Failed : Outcome::Ok;
}

Outcome Session::run_file(const std::string& path) {
  if (read_depth_ >= MAX_READ_DEPTH) {
    report_error("cannot read '" + path + "': .read nested more than " + std::to_string(MAX_READ_DEPTH) + " deep");
    had_error_ = true;
    return Outcome::Failed;
  }
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    report_error("cannot read '" + path + "': it is a directory");
    had_error_ = true;
    return Outcome::Failed;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    report_error("cannot open '" + path + "': " + std::strerror(errno));
    had_error_ = true;
    return Outcome::Failed;
  }
  ++read_depth_;
  Outcome outcome = run_script(in);
  --read_depth_;
  return outcome;
}

}  // namespace gpusql::shell
