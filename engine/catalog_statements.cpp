#include "engine/catalog_statements.hpp"

#include <glob.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <variant>

#include "planner/binder.hpp"
#include "planner/type_names.hpp"
#include "engine/copy_to.hpp"
#include "storage/result_data.hpp"
#include "storage/result_table.hpp"
#include "engine/row_changes.hpp"
#include "storage/column_ops.hpp"
#include "storage/unique_keys.hpp"
#include "storage/value_text.hpp"

namespace gpusql {

std::shared_ptr<ResultData> status_result(std::string status) {
  auto result = std::make_shared<ResultData>();
  result->status = std::move(status);
  return result;
}

std::string rows_text(std::size_t rows) { return std::to_string(rows) + (rows == 1 ? " row" : " rows"); }

void check_unique_keys(const Catalog& catalog, const Table& next, std::size_t first_new_row) {
  for (const UniqueKey& key : catalog.unique_keys(next)) check_unique_key(next, key, first_new_row);
}

namespace {

// Re-throws an error that carries no position with `offset`, so the caret
// points at the value or name it is about.
template <class F>
auto at_offset(std::size_t offset, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error& e) {
    if (e.offset()) throw;
    throw Error(e.kind(), e.message(), offset);
  }
}

// Empty columns of the given types (VARCHAR ones with an empty dictionary).
std::vector<HostColumn> empty_columns(const std::vector<ColumnDefinition>& columns) {
  std::vector<HostColumn> out;
  for (const auto& c : columns) {
    HostColumn column(c.type, 0);
    if (c.type.id == Type::Varchar) column.dictionary = std::make_shared<Dictionary>();
    out.push_back(std::move(column));
  }
  return out;
}

// A new version of `old` with `added` (one column per table column) after its rows.
std::shared_ptr<Table> appended(const Table& old, std::vector<HostColumn> added) {
  auto table = std::make_shared<Table>();
  table->name = old.name;
  table->columns = old.columns;
  table->keys = old.keys;
  table->rows = old.rows + (added.empty() ? 0 : added[0].size);
  for (std::size_t c = 0; c < old.columns.size(); ++c) {
    if (old.rows == 0) {
      if (added[c].type.id == Type::Varchar && !added[c].dictionary)
        added[c].dictionary = std::make_shared<Dictionary>();
      table->host.push_back(std::move(added[c]));
    } else {
      HostColumn fetched;
      table->host.push_back(concatenate(old.read_column(c, fetched), added[c]));
    }
  }
  return table;
}

[[noreturn]] void not_null_violation(const Table& table, std::size_t column, std::size_t offset) {
  throw Error(ErrorKind::Constraint,
              "NOT NULL constraint failed: " + table.name + "." + table.columns[column].name, offset);
}

// ---------------------------------------------------------------------------
// Constant values (INSERT ... VALUES, table function arguments).

// A constant as a one-row column of its natural type; `is_null` for NULL.
struct Constant {
  bool is_null = false;
  HostColumn column;
};

Constant single(DataType type, const void* value) {
  Constant c;
  c.column = HostColumn(type, 1);
  std::memcpy(c.column.bytes.data(), value, type.width());
  return c;
}

Constant evaluate_constant(const ast::Expr& e) {
  using ast::ExprKind;
  using Kind = ast::Literal::Kind;
  switch (e.kind) {
    case ExprKind::Literal: {
      const ast::Literal& l = e.literal;
      switch (l.kind) {
        case Kind::Null: {
          Constant c;
          c.is_null = true;
          return c;
        }
        case Kind::Boolean: {
          uint8_t b = l.boolean;
          return single(DataType::boolean(), &b);
        }
        case Kind::Integer: return single(DataType::bigint(), &l.integer);
        case Kind::Number: {
          // Exact when it is a plain decimal of up to 38 digits (18 after
          // the point); a double otherwise.
          std::string_view text = l.text;
          std::size_t point = text.find('.');
          bool plain = text.find_first_of("eE") == std::string_view::npos;
          std::size_t scale = plain && point != std::string_view::npos ? text.size() - point - 1 : 0;
          std::size_t digits = 0;
          for (char ch : text) digits += ch >= '0' && ch <= '9';
          if (plain && digits <= DataType::kMaxDecimalDigits && scale <= DataType::kMaxNarrowDecimalDigits) {
            DataType type{Type::Decimal, static_cast<uint8_t>(std::max<std::size_t>(digits, 1)),
                          static_cast<uint8_t>(scale)};
            Constant c;
            c.column = HostColumn(type, 1);
            if (parse_fixed(text, type, c.column.bytes.data(), 0) == ParseResult::Ok) return c;
          }
          double d = 0;
          ParseResult r = parse_double(text, d);
          if (r != ParseResult::Ok)
            throw Error(ErrorKind::Conversion, conversion_message(text, DataType::double_(), r, '\''), e.offset);
          return single(DataType::double_(), &d);
        }
        case Kind::String: {
          Constant c;
          c.column = make_varchar_column({l.text});
          return c;
        }
        case Kind::Date: {
          int32_t days = 0;
          ParseResult r = parse_date(l.text, days);
          if (r != ParseResult::Ok)
            throw Error(ErrorKind::Conversion, conversion_message(l.text, DataType::date(), r, '\''), e.offset);
          return single(DataType::date(), &days);
        }
        case Kind::Interval: break;
      }
      break;
    }
    case ExprKind::Unary: {
      if (e.unary_op != ast::UnaryOp::Negate) break;
      Constant c = evaluate_constant(*e.args[0]);
      if (c.is_null) return c;
      HostColumn& v = c.column;
      switch (v.type.id) {
        case Type::Decimal:
          if (v.type.is_wide_decimal()) {  // within 38 digits: negating cannot overflow
            store_wide(v.bytes.data(), 0, -load_wide(v.bytes.data(), 0));
            return c;
          }
          [[fallthrough]];
        case Type::BigInt: {
          int64_t& x = v.values<int64_t>()[0];
          if (x == INT64_MIN) throw Error(ErrorKind::Conversion, "the value is out of range when negated", e.offset);
          x = -x;
          return c;
        }
        case Type::Double: v.values<double>()[0] = -v.values<double>()[0]; return c;
        default:
          throw Error(ErrorKind::Binder, "cannot negate a value of type " + v.type.to_string(), e.offset);
      }
    }
    case ExprKind::Cast: {
      Constant c = evaluate_constant(*e.args[0]);
      DataType type = data_type_from_name(e.cast_type);
      if (c.is_null) return c;
      c.column = at_offset(e.offset, [&] { return cast_column(c.column, type, "CAST"); });
      return c;
    }
    default: break;
  }
  throw Error(ErrorKind::NotSupported, "not supported yet: this expression as a constant value (only literals, "
                                       "negated numbers and CAST of them)",
              e.offset);
}

// The argument as a string, boolean, or single character, for options.
std::string constant_text(const ast::Expr& e, std::string_view option) {
  Constant c = evaluate_constant(e);
  if (c.is_null || c.column.type.id != Type::Varchar)
    throw Error(ErrorKind::Binder, "option \"" + std::string(option) + "\" takes a string", e.offset);
  return std::string(c.column.dictionary->values[0]);
}

bool constant_bool(const ast::Literal& l, std::size_t offset, std::string_view option) {
  using Kind = ast::Literal::Kind;
  if (l.kind == Kind::Boolean) return l.boolean;
  if (l.kind == Kind::Integer && (l.integer == 0 || l.integer == 1)) return l.integer == 1;
  bool b = false;
  if (l.kind == Kind::String && parse_boolean(l.text, b) == ParseResult::Ok) return b;
  throw Error(ErrorKind::Binder, "option \"" + std::string(option) + "\" takes true or false", offset);
}

char option_char(const std::string& text, std::size_t offset, std::string_view option, bool allow_empty) {
  if (text == "\\t") return '\t';
  if (text.empty() && allow_empty) return '\0';
  if (text.size() != 1)
    throw Error(ErrorKind::Binder, "option \"" + std::string(option) + "\" takes a single character, not '" + text + "'",
                offset);
  return text[0];
}

// One CSV option by name into `options`; false when the name is not one.
bool apply_csv_option(CsvOptions& options, std::string_view name, const ast::Literal& value, std::size_t offset) {
  auto text = [&] {
    if (value.kind != ast::Literal::Kind::String)
      throw Error(ErrorKind::Binder, "option \"" + std::string(name) + "\" takes a string", offset);
    return value.text;
  };
  if (name == "delimiter" || name == "delim" || name == "sep") {
    options.delimiter = option_char(text(), offset, name, false);
  } else if (name == "header") {
    options.header = constant_bool(value, offset, name);
  } else if (name == "quote") {
    options.quote = option_char(text(), offset, name, true);
  } else if (name == "null" || name == "nullstr") {
    options.null_marker = text();
  } else if (name == "format") {
    if (!iequals(text(), "csv"))
      throw Error(ErrorKind::NotSupported, "not supported yet: COPY format '" + value.text + "'", offset);
  } else {
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// The statements.

// A column of `table` by name, as a key or an index names it.
int key_column(const Table& table, const std::string& name, std::size_t offset, ErrorKind kind) {
  const int c = table.find_column(name);
  if (c < 0)
    throw Error(kind,
                kind == ErrorKind::Catalog
                    ? "table \"" + table.name + "\" does not have a column named \"" + name + "\""
                    : "Table \"" + table.name + "\" does not have a column named \"" + name + "\"",
                offset);
  return c;
}

// CREATE TABLE's PRIMARY KEY and UNIQUE constraints, of columns or of the table.
std::vector<UniqueKey> key_constraints(const ast::CreateTableStatement& s, const Table& table) {
  std::vector<UniqueKey> keys;
  auto add = [&](UniqueKey key, std::size_t offset) {
    if (key.primary_key && std::any_of(keys.begin(), keys.end(), [](const UniqueKey& k) { return k.primary_key; }))
      throw Error(ErrorKind::Parser, "table \"" + s.name + "\" has more than one primary key", offset);
    keys.push_back(std::move(key));
  };
  for (std::size_t c = 0; c < s.columns.size(); ++c) {
    if (s.columns[c].primary_key) add({{static_cast<int>(c)}, true}, s.columns[c].offset);
    if (s.columns[c].unique) add({{static_cast<int>(c)}, false}, s.columns[c].offset);
  }
  for (const ast::KeyConstraintAst& k : s.keys) {
    UniqueKey key;
    key.primary_key = k.primary_key;
    for (const std::string& name : k.columns) key.columns.push_back(key_column(table, name, k.offset, ErrorKind::Catalog));
    add(std::move(key), k.offset);
  }
  return keys;
}

std::shared_ptr<ResultData> create_table(const ast::CreateTableStatement& s, Database::Impl& database,
                                         std::string_view sql) {
  if (database.catalog.find(s.name)) {
    if (s.if_not_exists) return status_result("");
    throw Error(ErrorKind::Catalog, "Table with name \"" + s.name + "\" already exists!", s.name_offset);
  }
  if (database.views.find(s.name))
    throw Error(ErrorKind::Catalog, "View with name \"" + s.name + "\" already exists!", s.name_offset);
  std::shared_ptr<Table> table;
  if (s.as_select) {
    const ast::SelectStatement& select = *s.as_select;
    const bool plain_read_csv = select.from.size() == 1 && select.from[0].is_function && !select.distinct &&
                                select.items.size() == 1 && select.items[0].expr->kind == ast::ExprKind::Star &&
                                select.items[0].expr->table.empty() && !select.where && select.group_by.empty() &&
                                !select.having && select.order_by.empty() && !select.limit && !select.offset;
    if (plain_read_csv) {
      // Straight from the file into the new table, uploaded while parsing.
      auto read = read_csv_table_function(select.from[0], database);
      table = std::const_pointer_cast<Table>(read);
      table->name = s.name;
    } else {
      std::shared_ptr<ResultData> result = database.run_select(select, sql);
      table = table_from_result(s.name, *result);
    }
    database.place(*table);
    database.catalog.add(table);
    return status_result("created table " + s.name + " with " + rows_text(table->rows));
  }
  if (s.columns.empty())
    throw Error(ErrorKind::Parser, "CREATE TABLE needs at least one column", s.name_offset);
  table = std::make_shared<Table>();
  table->name = s.name;
  for (const auto& c : s.columns) {
    for (const auto& existing : table->columns)
      if (iequals(existing.name, c.name))
        throw Error(ErrorKind::Catalog, "Column with name " + c.name + " already exists!", c.offset);
    table->columns.push_back({c.name, data_type_from_name(c.type), c.not_null});
  }
  table->keys = key_constraints(s, *table);
  for (const UniqueKey& key : table->keys)
    if (key.primary_key)
      for (int c : key.columns) table->columns[static_cast<std::size_t>(c)].not_null = true;
  table->host = empty_columns(table->columns);
  database.place(*table);
  database.catalog.add(table);
  return status_result("");
}

// The files COPY ... FROM `path` reads: the path itself, or where it holds
// a glob pattern (`*`, `?`, `[...]`: 'lineitem.tbl.*', dbgen's chunks), the
// files that match it, in byte order (DuckDB sorts them too).
std::vector<std::string> files_matching(const std::string& path) {
  if (path.find_first_of("*?[") == std::string::npos) return {path};
  glob_t found{};
  const int rc = ::glob(path.c_str(), GLOB_NOSORT, nullptr, &found);
  std::vector<std::string> files;
  if (rc == 0)
    for (std::size_t i = 0; i < found.gl_pathc; ++i) files.emplace_back(found.gl_pathv[i]);
  globfree(&found);
  if (rc == GLOB_NOMATCH || (rc == 0 && files.empty()))
    throw Error(ErrorKind::IO, "No files found that match the pattern \"" + path + "\"");
  if (rc != 0) throw Error(ErrorKind::IO, "cannot list the files that match \"" + path + "\"");
  std::sort(files.begin(), files.end());
  return files;
}

// COPY t FROM 'path' [(options)]: the file's rows appended to t, or the
// rows of every file a pattern matches, one after the other, read together
// as one load: the new version of t replaces the old only when every file
// has loaded and the keys hold, so a bad file anywhere leaves t as it was.
std::shared_ptr<ResultData> copy_from(const ast::CopyStatement& s, Database::Impl& database) {
  std::shared_ptr<const Table> old = database.catalog.get(s.table, s.table_offset);
  CsvLoadSpec spec;
  spec.table_name = old->name;
  spec.append_to = old;
  spec.device = database.device.get();
  spec.device_only = !database.settings.host_mirror;
  spec.control = &database.control;
  spec.threads = database.settings.threads;
  spec.timing = database.settings.trace;
  spec.plain_strings_rows = database.settings.plain_strings_rows;
  for (const auto& [name, value] : s.options)
    if (!apply_csv_option(spec.options, name, value, s.table_offset))
      throw Error(ErrorKind::Binder, "unrecognized COPY option \"" + name + "\"", s.table_offset);
  std::shared_ptr<Table> table;
  try {
    table = load_csv_files(files_matching(s.path), spec);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::OutOfMemory,
                "out of host memory while loading \"" + s.path + "\"; table \"" + old->name + "\" is unchanged");
  }
  check_unique_keys(database.catalog, *table, old->rows);
  const std::size_t added = table->rows - old->rows;
  database.place(*table);
  database.catalog.replace(table);
  return status_result("loaded " + rows_text(added) + " into " + old->name);
}

// The table columns an INSERT fills, in the order its values come.
std::vector<std::size_t> insert_targets(const ast::InsertStatement& s, const Table& table) {
  std::vector<std::size_t> targets;
  if (s.columns.empty()) {
    for (std::size_t c = 0; c < table.columns.size(); ++c) targets.push_back(c);
    return targets;
  }
  for (const auto& name : s.columns) {
    int c = table.find_column(name);
    if (c < 0)
      throw Error(ErrorKind::Binder, "Table \"" + table.name + "\" does not have a column with name \"" + name + "\"",
                  s.table_offset);
    if (std::find(targets.begin(), targets.end(), static_cast<std::size_t>(c)) != targets.end())
      throw Error(ErrorKind::Binder, "Duplicate column name \"" + name + "\" in INSERT", s.table_offset);
    targets.push_back(static_cast<std::size_t>(c));
  }
  return targets;
}

void check_value_count(const ast::InsertStatement& s, const Table& table, std::size_t targets, std::size_t values,
                       std::size_t offset) {
  if (values == targets) return;
  if (s.columns.empty())
    throw Error(ErrorKind::Binder, "table " + table.name + " has " + std::to_string(targets) + " columns but " +
                                       std::to_string(values) + " values were supplied",
                offset);
  throw Error(ErrorKind::Binder, "Column name/value mismatch for insert on " + table.name + ": expected " +
                                     std::to_string(targets) + " columns but " + std::to_string(values) +
                                     " values were supplied",
              offset);
}

std::shared_ptr<ResultData> insert_into(const ast::InsertStatement& s, Database::Impl& database,
                                        std::string_view sql) {
  std::shared_ptr<const Table> old = database.catalog.get(s.table, s.table_offset);
  const Table& table = *old;
  std::vector<std::size_t> targets = insert_targets(s, table);
  std::vector<int> source(table.columns.size(), -1);  // table column -> value position
  for (std::size_t i = 0; i < targets.size(); ++i) source[targets[i]] = static_cast<int>(i);
  std::vector<HostColumn> added;
  std::size_t rows = 0;
  if (s.select) {
    std::shared_ptr<ResultData> result = database.run_select(*s.select, sql);
    check_value_count(s, table, targets.size(), result->columns.size(), s.table_offset);
    rows = result->rows;
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      const ColumnDefinition& def = table.columns[c];
      if (source[c] < 0) {
        if (def.not_null && rows > 0) not_null_violation(table, c, s.table_offset);
        ColumnBuilder nulls(def.type);
        for (std::size_t r = 0; r < rows; ++r) nulls.append_null();
        added.push_back(nulls.finish());
        continue;
      }
      HostColumn& from = result->columns[source[c]];
      from.size = rows;
      normalize_validity(from);
      if (def.not_null && from.has_nulls()) not_null_violation(table, c, s.table_offset);
      added.push_back(at_offset(s.table_offset, [&] { return cast_column(from, def.type, def.name); }));
    }
  } else {
    std::vector<ColumnBuilder> builders;
    for (const auto& def : table.columns) builders.emplace_back(def.type);
    for (const auto& row : s.values) {
      std::size_t row_offset = row.empty() ? s.table_offset : row.front()->offset;
      check_value_count(s, table, targets.size(), row.size(), row_offset);
      for (std::size_t c = 0; c < table.columns.size(); ++c) {
        const ColumnDefinition& def = table.columns[c];
        if (source[c] < 0) {
          if (def.not_null) not_null_violation(table, c, row_offset);
          builders[c].append_null();
          continue;
        }
        const ast::Expr& e = *row[source[c]];
        Constant value = evaluate_constant(e);
        if (value.is_null) {
          if (def.not_null) not_null_violation(table, c, e.offset);
          builders[c].append_null();
          continue;
        }
        HostColumn cast = at_offset(e.offset, [&] { return cast_column(value.column, def.type, def.name); });
        if (def.type.id == Type::Varchar) builders[c].append_string(cast.dictionary->values[cast.values<uint32_t>()[0]]);
        else builders[c].append_raw(cast.bytes.data());
      }
      ++rows;
    }
    for (auto& b : builders) added.push_back(b.finish());
  }
  std::shared_ptr<Table> next = appended(table, std::move(added));
  check_unique_keys(database.catalog, *next, table.rows);
  if (database.device) next->device = upload_appended_table(table, *next, *database.device);
  database.place(*next);
  database.catalog.replace(next);
  return status_result("inserted " + rows_text(rows) + " into " + table.name);
}

// CREATE [UNIQUE] INDEX: a name for columns of a table; a UNIQUE one first
// checks the rows already there (DuckDB's message when they clash).
std::shared_ptr<ResultData> create_index(const ast::CreateIndexStatement& s, Database::Impl& database) {
  std::shared_ptr<const Table> table = database.catalog.get(s.table, s.table_offset);
  if (database.catalog.find_index(s.name)) {
    if (s.if_not_exists) return status_result("");
    throw Error(ErrorKind::Catalog, "Index with name \"" + s.name + "\" already exists!", s.name_offset);
  }
  Index index;
  index.name = s.name;
  index.table = table->name;
  index.unique = s.unique;
  for (const std::string& name : s.columns)
    index.columns.push_back(key_column(*table, name, s.table_offset, ErrorKind::Binder));
  if (s.unique) {
    try {
      check_unique_key(*table, {index.columns, false}, 0);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::Constraint) throw;
      throw Error(ErrorKind::Constraint, "Data contains duplicates on indexed column(s)", s.name_offset);
    }
  }
  database.catalog.add_index(std::move(index));
  return status_result("");
}

std::shared_ptr<ResultData> drop_index(const ast::DropTableStatement& s, Database::Impl& database) {
  if (!database.catalog.remove_index(s.name) && !s.if_exists) {
    std::string hint = closest_name(s.name, database.catalog.index_names());
    throw Error(ErrorKind::Catalog,
                "Index with name " + s.name + " does not exist!" + (hint.empty() ? "" : "\nDid you mean \"" + hint + "\"?"),
                s.name_offset);
  }
  return status_result("");
}

std::shared_ptr<ResultData> drop_table(const ast::DropTableStatement& s, Database::Impl& database) {
  if (s.index) return drop_index(s, database);
  const bool table = database.catalog.find(s.name) != nullptr, view = database.views.find(s.name) != nullptr;
  if ((s.view && table) || (!s.view && view))
    throw Error(ErrorKind::Catalog,
                "Existing object " + s.name + " is of type " + (view ? "View" : "Table") + ", trying to drop type " +
                    (s.view ? "View" : "Table"),
                s.name_offset);
  if (s.view) {
    if (!view && !s.if_exists) {
      std::string hint = closest_name(s.name, database.views.list());
      throw Error(ErrorKind::Catalog,
                  "View with name " + s.name + " does not exist!" + (hint.empty() ? "" : "\nDid you mean \"" + hint + "\"?"),
                  s.name_offset);
    }
    database.views.remove(s.name);
    return status_result("");
  }
  if (!table) {
    if (s.if_exists) return status_result("");
    database.catalog.get(s.name, s.name_offset);  // throws, with a suggestion
  }
  database.catalog.remove(s.name);
  return status_result("");
}

// CREATE VIEW: the query is bound once now, so that a view that could not
// run is an error here, as in DuckDB; it is bound again where it is used.
std::shared_ptr<ResultData> create_view(const ast::CreateViewStatement& s, Database::Impl& database,
                                        std::string_view sql) {
  if (database.catalog.find(s.name))
    throw Error(ErrorKind::Catalog, "Table with name \"" + s.name + "\" already exists!", s.name_offset);
  if (database.views.find(s.name))
    throw Error(ErrorKind::Catalog, "View with name \"" + s.name + "\" already exists!", s.name_offset);
  BoundQuery bound = bind_query(*s.query, database.catalog, sql, database.table_function_reader(),
                                database.subquery_runner(sql), database.views.names());
  if (s.column_aliases.size() > bound.visible)
    throw Error(ErrorKind::Binder, "More VIEW aliases than columns in query result", s.name_offset);
  NamedQueries view;
  view.name = s.name;
  view.column_aliases = s.column_aliases;
  view.query = s.query;
  database.views.add(std::move(view));
  return status_result("");
}

std::shared_ptr<ResultData> show_tables(Database::Impl& database) {
  auto result = std::make_shared<ResultData>();
  std::vector<std::string> names = database.catalog.names(), views = database.views.list();
  names.insert(names.end(), views.begin(), views.end());
  std::sort(names.begin(), names.end());
  result->names = {"name"};
  result->rows = names.size();
  result->columns.push_back(make_varchar_column(names));
  return result;
}

// SUMMARIZE t: DuckDB's columns but the moments and quantiles (avg, std,
// q25, q50, q75). min, max and the non-NULL counts come from one query over
// the table on the executor in use, MIN, MAX and COUNT of every column (a
// query of its own for each 128-bit DECIMAL column: MIN and MAX of one run
// in two GROUP BYs, of one such column at a time); approx_unique is the
// planner's distinct estimate (exact up to 65,536 rows, sampled beyond:
// DuckDB's HyperLogLog may say otherwise).
std::shared_ptr<ResultData> summarize(std::shared_ptr<const Table> table, Database::Impl& database) {
  std::vector<std::vector<std::size_t>> batches(1);  // the columns each query reads
  for (std::size_t c = 0; c < table->columns.size(); ++c) {
    if (table->columns[c].type.is_wide_decimal()) batches.push_back({c});
    else batches[0].push_back(c);
  }
  struct Place {
    std::size_t query = 0, item = 0;
  };
  std::vector<Place> places(table->columns.size());
  std::vector<Result> values;
  for (const std::vector<std::size_t>& batch : batches) {
    if (batch.empty()) {
      values.emplace_back(std::make_shared<ResultData>());
      continue;
    }
    ast::SelectStatement select;
    for (std::size_t c : batch) {
      places[c] = {values.size(), select.items.size()};
      for (const char* aggregate : {"min", "max", "count"}) {
        std::vector<ast::ExprPtr> args;
        args.push_back(ast::make_column("", table->columns[c].name, 0));
        select.items.push_back({ast::make_function(aggregate, std::move(args), false, 0), ""});
      }
    }
    ast::TableRef from;
    from.name = table->name;
    select.from.push_back(std::move(from));
    values.emplace_back(database.run_select(select, "", nullptr));
  }
  std::vector<std::string> names, types, minima, maxima;
  std::vector<uint32_t> min_valid, max_valid;
  std::vector<int64_t> unique, counts;
  HostColumn null_percentage(DataType{Type::Decimal, 9, 2}, table->columns.size());
  const int64_t rows = static_cast<int64_t>(table->rows);
  for (std::size_t c = 0; c < table->columns.size(); ++c) {
    const Result& v = values[places[c].query];
    const std::size_t at = places[c].item;
    names.push_back(table->columns[c].name);
    types.push_back(table->columns[c].type.to_string());
    minima.push_back(v.text(0, at));
    maxima.push_back(v.text(0, at + 1));
    min_valid.push_back(v.is_null(0, at) ? 0 : 1);
    max_valid.push_back(v.is_null(0, at + 1) ? 0 : 1);
    unique.push_back(static_cast<int64_t>(std::llround(table->distinct_estimate(c))));
    counts.push_back(rows);
    // 100 * NULLs / rows, to two places, half away from zero (DuckDB's cast of the quotient).
    const int64_t nulls = rows - v.get<int64_t>(0, at + 2);
    if (rows == 0) null_percentage.set_null(c);
    else null_percentage.values<int64_t>()[c] = (nulls * 20000 / rows + 1) / 2;
  }
  auto validity = [](const std::vector<uint32_t>& valid) {
    std::vector<uint32_t> words(validity_words(valid.size()), 0);
    for (std::size_t i = 0; i < valid.size(); ++i) words[i / 32] |= valid[i] << (i % 32);
    return words;
  };
  auto result = std::make_shared<ResultData>();
  result->names = {"column_name", "column_type", "min", "max", "approx_unique", "count", "null_percentage"};
  result->rows = names.size();
  result->columns.push_back(make_varchar_column(names));
  result->columns.push_back(make_varchar_column(types));
  result->columns.push_back(make_varchar_column(minima, validity(min_valid)));
  result->columns.push_back(make_varchar_column(maxima, validity(max_valid)));
  result->columns.push_back(make_bigint_column(unique));
  result->columns.push_back(make_bigint_column(counts));
  normalize_validity(null_percentage);
  result->columns.push_back(std::move(null_percentage));
  return result;
}

std::shared_ptr<ResultData> describe(const ast::DescribeStatement& s, Database::Impl& database) {
  if (database.views.find(s.name))
    throw Error(ErrorKind::NotSupported,
                std::string("not supported yet: ") + (s.summarize ? "SUMMARIZE" : "DESCRIBE") + " of a view",
                s.name_offset);
  std::shared_ptr<const Table> table = database.catalog.get(s.name, s.name_offset);
  if (s.summarize) return summarize(std::move(table), database);
  std::vector<std::string> names, types, nullable;
  std::vector<int64_t> null_counts, device_bytes;
  for (std::size_t c = 0; c < table->columns.size(); ++c) {
    names.push_back(table->columns[c].name);
    types.push_back(table->columns[c].type.to_string());
    nullable.push_back(table->columns[c].not_null ? "NO" : "YES");
    null_counts.push_back(static_cast<int64_t>(table->null_count(c)));
    device_bytes.push_back(table->device ? static_cast<int64_t>(table->device->columns[c].bytes()) : 0);
  }
  auto result = std::make_shared<ResultData>();
  result->names = {"column_name", "column_type", "null", "null_count", "device_bytes"};
  result->rows = names.size();
  result->columns.push_back(make_varchar_column(names));
  result->columns.push_back(make_varchar_column(types));
  result->columns.push_back(make_varchar_column(nullable));
  result->columns.push_back(make_bigint_column(null_counts));
  result->columns.push_back(make_bigint_column(device_bytes));
  return result;
}

}  // namespace

std::shared_ptr<const Table> read_csv_table_function(const ast::TableRef& ref, Database::Impl& database) {
  if (!iequals(ref.name, "read_csv") && !iequals(ref.name, "read_csv_auto"))
    throw Error(ErrorKind::Catalog, "Table Function with name " + ref.name + " does not exist!", ref.offset);
  if (ref.function_args.size() != 1)
    throw Error(ErrorKind::Binder,
                "read_csv takes one positional argument: a path, a glob pattern, or a list of them", ref.offset);
  CsvLoadSpec spec;
  spec.table_name = "read_csv";
  spec.device = database.device.get();
  spec.threads = database.settings.threads;
  spec.timing = database.settings.trace;
  spec.plain_strings_rows = database.settings.plain_strings_rows;
  spec.control = &database.control;
  // 'a.csv', 'dir/*.csv', or ['a.csv', 'b*.csv']: every file, in the order
  // given (each pattern's matches in byte order), read as one table.
  const ast::Expr& argument = *ref.function_args[0];
  std::vector<std::string> paths, files;
  if (argument.kind == ast::ExprKind::Function && argument.name == "list_value") {
    for (const auto& element : argument.args) paths.push_back(constant_text(*element, "path"));
    if (paths.empty()) throw Error(ErrorKind::Binder, "read_csv needs at least one file", argument.offset);
  } else {
    paths.push_back(constant_text(argument, "path"));
  }
  for (const std::string& path : paths)
    for (std::string& file : files_matching(path)) files.push_back(std::move(file));
  const std::string path = paths.size() == 1 ? paths[0] : "[" + std::to_string(paths.size()) + " paths]";
  for (const auto& [name, value] : ref.function_named_args) {
    if (value->kind != ast::ExprKind::Literal)
      throw Error(ErrorKind::Binder, "option \"" + name + "\" takes a constant", value->offset);
    if (!apply_csv_option(spec.options, name, value->literal, value->offset))
      throw Error(ErrorKind::Binder, "unrecognized read_csv option \"" + name + "\"", value->offset);
  }
  try {
    return load_csv_files(files, spec);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::OutOfMemory, "out of host memory while reading \"" + path + "\"");
  }
}

void load_csv_table(Database::Impl& database, std::string_view name, const std::string& path,
                    const CsvOptions& options) {
  if (database.catalog.find(name))
    throw Error(ErrorKind::Catalog, "Table with name \"" + std::string(name) + "\" already exists!");
  if (database.views.find(name))
    throw Error(ErrorKind::Catalog, "View with name \"" + std::string(name) + "\" already exists!");
  CsvLoadSpec spec;
  spec.table_name = std::string(name);
  spec.options = options;
  spec.device = database.device.get();
  spec.device_only = !database.settings.host_mirror;
  spec.control = &database.control;
  spec.threads = database.settings.threads;
  spec.timing = database.settings.trace;
  spec.plain_strings_rows = database.settings.plain_strings_rows;
  try {
    std::shared_ptr<Table> table = load_csv_file(path, spec);
    database.place(*table);
    database.catalog.add(std::move(table));
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::OutOfMemory, "out of host memory while loading \"" + path + "\"; no table was created");
  }
}

std::shared_ptr<ResultData> execute_catalog_statement(const ast::Statement& statement, Database::Impl& database,
                                                      std::string_view sql) {
  return std::visit(
      [&](const auto& s) -> std::shared_ptr<ResultData> {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, ast::CreateTableStatement>) return create_table(s, database, sql);
        else if constexpr (std::is_same_v<T, ast::CopyStatement>)
          return s.to ? copy_to(s, database, sql) : copy_from(s, database);
        else if constexpr (std::is_same_v<T, ast::InsertStatement>) return insert_into(s, database, sql);
        else if constexpr (std::is_same_v<T, ast::DropTableStatement>) return drop_table(s, database);
        else if constexpr (std::is_same_v<T, ast::ShowTablesStatement>) return show_tables(database);
        else if constexpr (std::is_same_v<T, ast::DescribeStatement>) return describe(s, database);
        else if constexpr (std::is_same_v<T, ast::CreateViewStatement>) return create_view(s, database, sql);
        else if constexpr (std::is_same_v<T, ast::CreateIndexStatement>) return create_index(s, database);
        else if constexpr (std::is_same_v<T, ast::UpdateStatement>) return update_rows(s, database, sql);
        else if constexpr (std::is_same_v<T, ast::DeleteStatement>) return delete_rows(s, database, sql);
        else throw Error(ErrorKind::NotSupported, "not supported yet: this statement", statement.offset);
      },
      statement.body);
}

// Database members that are the catalog's business.

void Database::load_csv(std::string_view name, const std::string& path, const CsvOptions& options) {
  impl_->control.clear_interrupt();
  load_csv_table(impl(), name, path, options);
}

std::vector<TableInfo> Database::tables() const {
  std::vector<TableInfo> out;
  const Catalog& catalog = impl_->catalog;
  for (const std::string& name : catalog.names()) {
    std::shared_ptr<const Table> t = catalog.find(name);
    out.push_back({t->name, t->rows, t->columns.size(), t->device_bytes(), t->host_bytes()});
  }
  return out;
}

}  // namespace gpusql
