// How a query flows from text to result -- the whole path in one place:
//
//   SQL text --parse_sql (parser/)--> syntax trees
//            --bind_query (engine/binder)--> typed, resolved BoundQuery
//            --plan_query (planner/plan)--> operator tree (pushdown, join order)
//            --Executor::execute (execution/)--> physical operators, run as
//              pipelines over a compute backend --> host columns --> Result
//
// The backend is the CUDA one (kernels/, over device columns) when a GPU is
// usable, else the host one; both run the same physical operators. Any error on the way is
// a gpusql::Error; it is re-thrown with the SQL line and a caret under the
// fault, and leaves the catalog exactly as it was.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <new>
#include <variant>

#include "planner/binder.hpp"
#include "engine/catalog_statements.hpp"
#include "storage/result_table.hpp"
#include "engine/database_impl.hpp"
#include "common/trace.hpp"
#include "execution/device_like.hpp"
#include "kernels/gather.hpp"
#include "kernels/string_encode.hpp"
#include "planner/plan.hpp"
#include "engine/settings.hpp"
#include "parser/parser.hpp"
#include "storage/csv_reader.hpp"

namespace gpusql {

Database::Impl::Impl(const Options& options) {
  std::string why;
  bool usable = options.executor != ExecutorKind::Host && gpu_available(&why);
  if (options.executor == ExecutorKind::Gpu && !usable)
    throw Error(ErrorKind::Device, "the GPU executor was asked for, but no GPU is usable: " + why);
  if (usable) {
    try {
      device = std::make_unique<DeviceContext>();
    } catch (const Error& e) {
      if (options.executor == ExecutorKind::Gpu) throw;
      why = e.message();
      usable = false;
    }
  }
  settings = options.settings;
  control.set_memory_limit(settings.memory_limit);
  if (usable) {
    device->set_settings(settings);
    device->set_kernels({&kernels::map_codes, &kernels::encode_strings});
    kind = ExecutorKind::Gpu;
    executor = std::make_unique<Executor>(make_cuda_backend(*device, control), control);
    description = "gpu (" + device->name() + ")";
  } else {
    kind = ExecutorKind::Host;
    executor = std::make_unique<Executor>(make_host_backend(control), control);
    description = options.executor == ExecutorKind::Host ? "host (as asked)" : "host (no usable GPU: " + why + ")";
  }
  executor->configure(settings);
}

void Database::Impl::add_table(std::shared_ptr<Table> table) {
  if (device) table->device = upload_table(*table, *device);
  catalog.add(std::move(table));
}

void Database::Impl::place(Table& table) {
  if (!device) return;
  if (!table.device) table.device = upload_table(table, *device);
  if (!settings.host_mirror) table.release_host_copy(*device);
}

void Database::Impl::apply(const Settings& changed) {
  settings = changed;
  control.set_memory_limit(settings.memory_limit);
  executor->configure(settings);
  if (device) device->set_settings(settings);
  trace::set_enabled(settings.trace);
}

std::shared_ptr<ResultData> Database::Impl::run(const ast::Statement& statement, std::string_view sql) {
  if (const auto* set = std::get_if<ast::SetStatement>(&statement.body)) {
    Settings changed = settings;
    apply_setting(changed, *set);
    apply(changed);
    return status_result("");
  }
  if (const auto* select = std::get_if<ast::SelectStatement>(&statement.body)) return run_select(*select, sql);
  if (const auto* explain = std::get_if<ast::ExplainStatement>(&statement.body)) return run_explain(*explain, sql);
  return execute_catalog_statement(statement, *this, sql);
}

Plan Database::Impl::plan_select(const ast::SelectStatement& select, std::string_view sql,
                                 std::optional<const NamedQueries*> names) {
  BoundQuery bound =
      bind_query(select, catalog, sql, table_function_reader(), subquery_runner(sql), names.value_or(views.names()));
  trace::mark("bind");
  Plan plan = plan_query(std::move(bound));
  trace::mark("plan");
  return plan;
}

std::shared_ptr<ResultData> Database::Impl::run_select(const ast::SelectStatement& select, std::string_view sql,
                                                      std::optional<const NamedQueries*> names) {
  std::shared_ptr<ResultData> result = executor->execute(plan_select(select, sql, names));
  trace::mark("execute");
  return result;
}

// EXPLAIN: the plan tree with its estimates, then the physical operators and
// their pipelines, one a row; EXPLAIN ANALYZE runs the query and adds each
// operator's rows and time to both.
std::shared_ptr<ResultData> Database::Impl::run_explain(const ast::ExplainStatement& explain, std::string_view sql) {
  Plan plan = plan_query(
      bind_query(explain.select, catalog, sql, table_function_reader(), subquery_runner(sql), views.names()));
  Profile profile;
  std::string text;
  if (explain.analyze) {
    auto start = std::chrono::steady_clock::now();
    executor->execute(plan, &profile);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    text = "logical plan:\n" + plan.root->to_string(plan.column_names, &profile) + "physical plan:\n" +
           profile.physical_plan;
    char total[128];
    std::snprintf(total, sizeof total, "total: %.3f ms on the %s executor\n", ms,
                  kind == ExecutorKind::Gpu ? "gpu" : "host");
    text += total;
  } else {
    text = "logical plan:\n" + plan.root->to_string(plan.column_names) + "physical plan:\n" + executor->explain(plan);
  }
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end - start));
    start = end == std::string::npos ? text.size() : end + 1;
  }
  std::shared_ptr<Dictionary> dictionary = sorted_dictionary(lines);
  HostColumn column(DataType::varchar(), lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) column.values<uint32_t>()[i] = dictionary->lower_bound(lines[i]);
  column.dictionary = std::move(dictionary);
  auto result = std::make_shared<ResultData>();
  result->names = {explain.analyze ? "explain_analyze" : "physical_plan"};
  result->columns.push_back(std::move(column));
  result->rows = lines.size();
  return result;
}

// read_csv(...) in FROM reads onto this database's device, if it has one.
TableFunctionReader Database::Impl::table_function_reader() {
  return [this](const ast::TableRef& ref) { return read_csv_table_function(ref, *this); };
}


SubqueryRunner Database::Impl::subquery_runner(std::string_view sql) {
  SubqueryRunner runner;
  runner.narrow_from_rows = settings.narrow_subquery_rows;
  runner.result = [this, sql](const ast::SelectStatement& select, const NamedQueries* names) {
    return run_select(select, sql, names);
  };
  // A subquery's rows stay where the executor made them (on the GPU, the
  // device), with statistics from its plan alone: the query around it plans
  // the same on either executor.
  runner.table = [this, sql](const ast::SelectStatement& select, const NamedQueries* names) {
    Plan plan = plan_select(select, sql, names);
    std::shared_ptr<Table> table = executor->execute_to_table(plan, "(subquery)");
    trace::mark("subquery-table");
    if (device && !table->device) table->device = upload_table(*table, *device);
    table->set_plan_estimates(result_distinct_estimates(plan, table->rows));
    return std::shared_ptr<const Table>(std::move(table));
  };
  runner.table_of = [this](std::string name, ResultData& rows) {
    std::shared_ptr<Table> table = table_from_result(std::move(name), rows);
    if (device) table->device = upload_table(*table, *device);
    return std::shared_ptr<const Table>(std::move(table));
  };
  if (device)
    runner.device_like = [this](const Table& table, std::size_t column, std::string_view pattern) {
      return like_on_device(table.device->columns[column], table.rows, pattern, *device);
    };
  return runner;
}

Database::Database(Options options) : impl_(std::make_unique<Impl>(options)) {}
Database::~Database() = default;
Database::Database(Database&&) noexcept = default;
Database& Database::operator=(Database&&) noexcept = default;

Database::Impl& Database::impl() { return *impl_; }

void Database::load_csv(std::string_view name, const std::string& path) { load_csv(name, path, CsvOptions{}); }

Result Database::query(std::string_view sql) {
  impl_->control.clear_interrupt();
  try {
    trace::set_enabled(impl_->settings.trace);
    trace::mark("start");
    std::vector<ast::Statement> statements = parse_sql(sql, &impl_->control);
    trace::mark("parse");
    std::shared_ptr<ResultData> last = std::make_shared<ResultData>();
    for (const auto& statement : statements) last = impl_->run(statement, sql);
    trace::mark("done");
    trace::flush();
    return Result(std::move(last));
  } catch (const Error& e) {
    throw e.with_source(sql);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::OutOfMemory, "out of host memory while running the query");
  }
}

void Database::interrupt() noexcept { impl_->control.request_interrupt(); }

ExecutorKind Database::executor() const { return impl_->kind; }
std::string Database::executor_description() const { return impl_->description; }
std::vector<std::string> Database::table_names() const { return impl_->catalog.names(); }

}  // namespace gpusql
