#include "shell/dot_commands.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "common/byte_size.hpp"
#include "engine/database_impl.hpp"
#include "engine/settings.hpp"

namespace gpusql::shell {

namespace {

// A dot-command used wrongly; run_dot_command prints it as "Error: ...".
class CommandError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using Arguments = std::vector<std::string>;

struct DotCommand {
  std::string_view name;       // without the dot
  std::string arguments;       // as .help shows them
  std::string help;
  std::size_t min_arguments;
  std::size_t max_arguments;
  Outcome (*run)(Session& session, const Arguments& arguments);
};

// The session's render options with `change` made to them.
template <class F>
RenderOptions with(const Session& s, F change) {
  RenderOptions options = s.settings().render;
  change(options);
  return options;
}

void redirect(Session& s, const std::string& path, bool once) {
  try {
    s.redirect_results(path, once);
  } catch (const std::runtime_error& e) {
    throw CommandError(e.what());
  }
}

bool parse_switch(const std::string& word) {
  if (word == "on" || word == "1" || word == "yes" || word == "true") return true;
  if (word == "off" || word == "0" || word == "no" || word == "false") return false;
  throw CommandError("expected on or off, not '" + word + "'");
}

std::size_t parse_count(const std::string& word) {
  std::size_t value = 0;
  auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (ec != std::errc() || end != word.data() + word.size() || word.empty())
    throw CommandError("expected a number of rows, not '" + word + "'");
  return value;
}

Outcome quit(Session&, const Arguments&) { return Outcome::Quit; }

// A progress bar on stderr for a load that takes longer than a second, only
// when stderr is a terminal; erased when the load ends.
class LoadProgressBar {
 public:
  explicit LoadProgressBar(std::string label)
      : label_(std::move(label)), start_(std::chrono::steady_clock::now()), enabled_(isatty(STDERR_FILENO)) {}
  ~LoadProgressBar() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
  }
  LoadProgressBar(const LoadProgressBar&) = delete;
  LoadProgressBar& operator=(const LoadProgressBar&) = delete;

  void update(std::size_t done, std::size_t total) {
    if (!enabled_ || total == 0) return;
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (seconds < 1.0) return;
    constexpr int WIDTH = 30;
    double fraction = std::min(1.0, static_cast<double>(done) / static_cast<double>(total));
    int filled = static_cast<int>(fraction * WIDTH);
    std::string bar(static_cast<std::size_t>(filled), '=');
    if (filled < WIDTH) bar += '>' + std::string(static_cast<std::size_t>(WIDTH - filled - 1), ' ');
    std::fprintf(stderr, "\r\033[K%s [%s] %3d%% %s/s", label_.c_str(), bar.c_str(), static_cast<int>(fraction * 100),
                 format_bytes(static_cast<std::size_t>(static_cast<double>(done) / seconds)).c_str());
    std::fflush(stderr);
    shown_ = true;
  }

 private:
  std::string label_;
  std::chrono::steady_clock::time_point start_;
  bool enabled_;
  bool shown_ = false;
};


// SQL quoting: a name in "", a string in ''.
std::string quoted(const std::string& text, char quote) {
  std::string out(1, quote);
  for (char c : text) {
    out += c;
    if (c == quote) out += quote;
  }
  return out + quote;
}

// .schema ?NAME?: a CREATE statement for each table (from DESCRIBE) and
// view, or for the one named, as DuckDB's shell prints them.
Outcome show_schema(Session& s, const Arguments& a) {
  Database& database = s.database();
  std::vector<std::string> names = database.table_names();
  for (const std::string& view : database.impl().views.list()) names.push_back(view);
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    if (!a.empty() && !iequals(name, a[0])) continue;
    if (const NamedQueries* view = database.impl().views.find(name)) {
      std::string aliases;
      for (const std::string& alias : view->column_aliases) aliases += (aliases.empty() ? "" : ", ") + quoted(alias, '"');
      s.out() << "CREATE VIEW " << name << (aliases.empty() ? "" : " (" + aliases + ")") << " AS "
              << (view->query ? ast::to_string(*view->query) : std::string("...")) << ";\n";
      continue;
    }
    Result columns = database.query("DESCRIBE " + quoted(name, '"'));
    std::string line = "CREATE TABLE " + name + "(";
    for (std::size_t r = 0; r < columns.row_count(); ++r)
      line += (r ? ", " : "") + columns.text(r, 0) + " " + columns.text(r, 1) +
              (columns.text(r, 2) == "NO" ? " NOT NULL" : "");
    s.out() << line << ");\n";
  }
  return Outcome::Ok;
}

// .import ?--csv? ?--skip N? FILE TABLE, as sqlite3 has it: a table that
// does not exist yet is created from the file, its first row the column
// names (the types inferred); an existing table takes every row as data
// (--skip 1 leaves out a header row), all or nothing, as COPY does. Fields
// split at commas (--csv, and every mode but list), in list mode at its
// separator.
Outcome import_file(Session& s, const Arguments& a) {
  bool csv = false;
  std::size_t skip = 0;
  std::vector<std::string> positional;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == "--csv") {
      csv = true;
    } else if (a[i] == "--skip") {
      if (i + 1 == a.size()) throw CommandError("--skip needs a number of rows");
      skip = parse_count(a[++i]);
    } else if (a[i].size() > 1 && a[i][0] == '-' && a[i][1] == '-') {
      throw CommandError("unknown option '" + a[i] + "'; .import takes --csv and --skip N");
    } else {
      positional.push_back(a[i]);
    }
  }
  if (positional.size() != 2) throw CommandError("usage: .import ?--csv? ?--skip N? FILE TABLE");
  const std::string& path = positional[0];
  const std::string& table = positional[1];
  if (skip > 1) throw CommandError("--skip takes 0 or 1 (a header row) here");
  char delimiter = ',';
  const std::string& separator = s.settings().render.separator;
  if (!csv && s.settings().mode == RenderMode::List) {
    if (separator.size() != 1) throw CommandError("list mode's separator \"" + separator + "\" is not one character; use --csv");
    delimiter = separator[0];
  }
  bool exists = false;
  for (const std::string& name : s.database().table_names()) exists |= iequals(name, table);
  if (!exists) {
    if (skip > 0) throw CommandError("--skip applies to an existing table; a new one takes its column names from the first row");
    CsvOptions options;
    options.delimiter = delimiter;
    options.header = true;
    load_with_progress(s.database(), table, path, options);
    return Outcome::Ok;
  }
  s.database().query("COPY " + quoted(table, '"') + " FROM " + quoted(path, '\'') + " (HEADER " +
                     (skip ? "true" : "false") + ", DELIMITER " + quoted(std::string(1, delimiter), '\'') + ")");
  return Outcome::Ok;
}

const std::vector<DotCommand>& commands() {
  static const std::vector<DotCommand> table = {
      {"bail", "on|off", "stop a script (-c, -f, .read, piped input) at its first error", 1, 1,
       [](Session& s, const Arguments& a) {
         s.set_bail(parse_switch(a[0]));
         return Outcome::Ok;
       }},
      {"echo", "on|off", "print each statement and dot-command before running it", 1, 1,
       [](Session& s, const Arguments& a) {
         s.set_echo(parse_switch(a[0]));
         return Outcome::Ok;
       }},
      {"exit", "", "leave the shell", 0, 0, quit},
      {"headers", "on|off", "csv and list modes: a first line of column names", 1, 1,
       [](Session& s, const Arguments& a) {
         s.set_render(with(s, [&](RenderOptions& o) { o.headers = parse_switch(a[0]); }));
         return Outcome::Ok;
       }},
      {"help", "", "show this message", 0, 0,
       [](Session& s, const Arguments&) {
         s.out() << dot_command_help();
         return Outcome::Ok;
       }},
      {"import", "?--csv? ?--skip N? FILE TABLE",
       "import FILE into TABLE: a new table's column names from the first row; an existing table takes every row "
       "(--skip 1: not the first); fields split at commas, in list mode at its separator",
       2, 5, import_file},
      {"load", "FILE", "(sqlite3's and DuckDB's: load an extension; gpusql has none)", 0, 2,
       [](Session&, const Arguments&) -> Outcome {
         throw CommandError(".load loads an extension in sqlite3 and DuckDB, and gpusql has none; to load a CSV "
                            "file use .import FILE TABLE, or CREATE TABLE t AS SELECT * FROM 'FILE'");
       }},
      {"maxrows", "?N?", "box mode: elide the middle of results longer than N rows (0: never); no N: show N", 0, 1,
       [](Session& s, const Arguments& a) {
         if (a.empty())
           s.out() << s.settings().render.max_rows << '\n';
         else
           s.set_render(with(s, [&](RenderOptions& o) { o.max_rows = parse_count(a[0]); }));
         return Outcome::Ok;
       }},
      {"mode", "?MODE?", "set the output mode: " + std::string(render_mode_names()) + "; no MODE: show it", 0, 1,
       [](Session& s, const Arguments& a) {
         if (a.empty()) {
           s.out() << "current output mode: " << render_mode_name(s.settings().mode) << '\n';
           return Outcome::Ok;
         }
         auto mode = parse_render_mode(a[0]);
         if (!mode)
           throw CommandError("unknown mode '" + a[0] + "'; the modes are " + std::string(render_mode_names()));
         s.set_mode(*mode);
         return Outcome::Ok;
       }},
      {"nullvalue", "TEXT", "list and line modes: print NULL as TEXT (default: nothing)", 1, 1,
       [](Session& s, const Arguments& a) {
         s.set_render(with(s, [&](RenderOptions& o) { o.null_value = a[0]; }));
         return Outcome::Ok;
       }},
      {"once", "FILE", "write the next result to FILE", 1, 1,
       [](Session& s, const Arguments& a) {
         redirect(s, a[0], true);
         return Outcome::Ok;
       }},
      {"output", "?FILE?", "write results to FILE from now on; no FILE: to standard output again", 0, 1,
       [](Session& s, const Arguments& a) {
         redirect(s, a.empty() ? "" : a[0], false);
         return Outcome::Ok;
       }},
      {"quit", "", "leave the shell", 0, 0, quit},
      {"read", "FILE", "run the statements and dot-commands in FILE", 1, 1,
       [](Session& s, const Arguments& a) { return s.run_file(a[0]); }},
      {"schema", "?TABLE?", "the CREATE statement of every table and view, or of TABLE", 0, 1, show_schema},
      {"separator", "TEXT", "list mode: put TEXT between values (default: |)", 1, 1,
       [](Session& s, const Arguments& a) {
         s.set_render(with(s, [&](RenderOptions& o) { o.separator = a[0]; }));
         return Outcome::Ok;
       }},
      {"show", "", "show the current settings", 0, 0,
       [](Session& s, const Arguments&) {
         const SessionSettings& t = s.settings();
         auto on = [](bool b) { return b ? "on" : "off"; };
         s.out() << "     bail: " << on(t.bail) << "\n"
                 << "     echo: " << on(t.echo) << "\n"
                 << "  headers: " << on(t.render.headers) << "\n"
                 << "  maxrows: " << t.render.max_rows << "\n"
                 << "     mode: " << render_mode_name(t.mode) << "\n"
                 << "nullvalue: \"" << t.render.null_value << "\"\n"
                 << "separator: \"" << t.render.separator << "\"\n"
                 << "    timer: " << on(t.timer) << "\n";
         // The database's settings (SET name = value).
         for (const auto& [name, value] : setting_values(s.database().impl().settings))
           s.out() << std::string(name.size() < 9 ? 9 - name.size() : 0, ' ') << name << ": " << value << "\n";
         return Outcome::Ok;
       }},
      {"tables", "", "list the tables (on the GPU with their rows and their bytes in GPU and host memory)", 0, 0,
       [](Session& s, const Arguments&) {
         const bool gpu = s.database().executor() == ExecutorKind::Gpu;
         std::vector<TableInfo> tables = s.database().tables();
         std::size_t width = 0;
         for (const TableInfo& t : tables) width = std::max(width, t.name.size());
         for (const TableInfo& t : tables) {
           if (!gpu) {
             s.out() << t.name << '\n';
             continue;
           }
           std::string name = t.name;
           name.resize(width, ' ');
           s.out() << name << "  " << t.rows << (t.rows == 1 ? " row, " : " rows, ")
                   << format_bytes(t.device_bytes) << " on the GPU, " << format_bytes(t.host_bytes) << " on the host\n";
         }
         return Outcome::Ok;
       }},
      {"timer", "on|off", "print the wall-clock time each statement takes", 1, 1,
       [](Session& s, const Arguments& a) {
         s.set_timer(parse_switch(a[0]));
         return Outcome::Ok;
       }},
  };
  return table;
}

// Splits at blanks; '...' and "..." group words and are removed.
Arguments split_words(std::string_view line) {
  Arguments words;
  std::size_t i = 0;
  while (i < line.size()) {
    if (line[i] == ' ' || line[i] == '\t') {
      ++i;
      continue;
    }
    std::string word;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') {
      if (line[i] == '\'' || line[i] == '"') {
        char quote = line[i++];
        while (i < line.size() && line[i] != quote) word += line[i++];
        if (i < line.size()) ++i;
      } else {
        word += line[i++];
      }
    }
    words.push_back(std::move(word));
  }
  return words;
}

std::string usage(const DotCommand& command) {
  std::string text = "." + std::string(command.name);
  if (!command.arguments.empty()) text += " " + command.arguments;
  return text;
}

}  // namespace

void load_with_progress(Database& database, const std::string& name, const std::string& path,
                        CsvOptions options) {
  LoadProgressBar bar("loading " + name);
  options.progress = [&bar](std::size_t done, std::size_t total) { bar.update(done, total); };
  database.load_csv(name, path, options);
}

std::string dot_command_help() {
  std::size_t width = 0;
  for (const DotCommand& command : commands()) width = std::max(width, usage(command).size());
  std::string text;
  for (const DotCommand& command : commands()) {
    std::string left = usage(command);
    left.resize(width, ' ');
    text += left + "   " + command.help + "\n";
  }
  return text;
}

Outcome run_dot_command(Session& session, std::string_view line) {
  Arguments words = split_words(line.substr(1));
  std::string name = words.empty() ? "" : words.front();
  auto it = std::find_if(commands().begin(), commands().end(),
                         [&](const DotCommand& command) { return command.name == name; });
  // As in sqlite3: a prefix of one command only stands for it (.hea, .sh).
  if (it == commands().end() && !name.empty()) {
    auto prefixed = [&](const DotCommand& command) { return command.name.starts_with(name); };
    auto first = std::find_if(commands().begin(), commands().end(), prefixed);
    if (first != commands().end() && std::find_if(std::next(first), commands().end(), prefixed) == commands().end())
      it = first;
  }
  if (it == commands().end()) {
    session.report_error("unknown command '." + name + "'; enter \".help\" for the list");
    return Outcome::Failed;
  }
  Arguments arguments(words.begin() + 1, words.end());
  if (arguments.size() < it->min_arguments || arguments.size() > it->max_arguments) {
    session.report_error("usage: " + usage(*it));
    return Outcome::Failed;
  }
  try {
    return it->run(session, arguments);
  } catch (const CommandError& e) {
    session.report_error(std::string(e.what()) + " (usage: " + usage(*it) + ")");
  } catch (const std::exception& e) {
    session.report_exception(e);
  }
  return Outcome::Failed;
}

}  // namespace gpusql::shell
