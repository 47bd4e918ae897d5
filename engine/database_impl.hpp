// The state behind gpusql::Database, for code inside the engine (the shell's
// DESCRIBE, benchmarks that build tables in memory) that needs more than the
// public API.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "common/query_control.hpp"
#include "planner/binder.hpp"
#include "engine/views.hpp"
#include "execution/executor.hpp"
#include "gpusql/gpusql.hpp"
#include "parser/ast.hpp"
#include "storage/catalog.hpp"
#include "storage/device_memory.hpp"

namespace gpusql {

struct Database::Impl {
  // Declared first so it is destroyed last: the tables' device buffers are
  // freed on its stream.
  std::unique_ptr<DeviceContext> device;  // null on the host executor
  // Before the executor, which keeps a reference to it.
  QueryControl control;
  Catalog catalog;
  Views views;
  std::unique_ptr<Executor> executor;
  ExecutorKind kind = ExecutorKind::Host;
  std::string description;
  Settings settings;

  explicit Impl(const Options& options);

  // Adds a complete table: uploaded to the device first when one is in use,
  // so a failure (out of GPU memory) leaves the catalog unchanged.
  // (The caller's table keeps its host copy: it may share it with another
  // database, as the benchmarks share theirs with a host one.)
  void add_table(std::shared_ptr<Table> table);
  // A table or new version this database made, before it enters the
  // catalog: uploaded when a device is in use, then living there alone
  // unless settings.host_mirror (Table::release_host_copy).
  void place(Table& table);

  // Takes `changed` as the database's settings (SET, RESET).
  void apply(const Settings& changed);
  // Runs one statement of `sql` (the whole text, for names and carets).
  std::shared_ptr<ResultData> run(const ast::Statement& statement, std::string_view sql);
  // Runs a SELECT: bind, plan, execute. `names`: the named queries its FROM
  // sees (a subquery's: those around it); by default the views.
  // Binds and plans a SELECT; `names`: the views and WITH's it may name
  // (the database's views when not given).
  Plan plan_select(const ast::SelectStatement& select, std::string_view sql,
                   std::optional<const NamedQueries*> names = std::nullopt);
  std::shared_ptr<ResultData> run_select(const ast::SelectStatement& select, std::string_view sql,
                                         std::optional<const NamedQueries*> names = std::nullopt);
  std::shared_ptr<ResultData> run_explain(const ast::ExplainStatement& explain, std::string_view sql);
  TableFunctionReader table_function_reader();
  // Runs the subqueries binding cannot fold into `sql`'s query.
  SubqueryRunner subquery_runner(std::string_view sql);
};

}  // namespace gpusql
