// The binder: resolves the names of a parsed SELECT against the catalog,
// types every expression, makes implicit casts explicit, folds constants,
// and checks the SQL rules (aggregates, GROUP BY, booleans). Errors carry the
// byte offset of the offending name for the caret.
//
// Column numbering. The tables of FROM are laid side by side: table i's
// column j is column `tables[i].first_column + j`, and its rowid is the
// column right after its last one. Expressions below the aggregate
// (conjuncts, group keys, aggregate arguments, outputs of a plain query) use
// these numbers; expressions above it (HAVING, outputs of an aggregate query)
// number the group keys first, then the aggregates.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planner/bound_expression.hpp"
#include "parser/ast.hpp"
#include "storage/catalog.hpp"

namespace gpusql {

struct BoundTableRef {
  std::shared_ptr<const Table> table;
  std::string alias;
  int first_column = 0;
  std::size_t offset = 0;
  // A base table of a derived table in FROM: scanned and joined like any
  // other, but names outside the derived table do not reach it.
  bool hidden = false;
  // An outer join's nullable side (LEFT, RIGHT, FULL), joined after every
  // inner table (the planner's rule), by `on`: its ON condition split at
  // top-level AND, kept by the side's first table.
  bool left_outer = false;
  std::vector<BoundExpr> on;
  // FULL JOIN: this table and the one before it in FROM, both nullable
  // (left_outer), join each other alone; `on` is the JOIN's condition.
  bool full_outer = false;
  // The first table of a nullable side of several (a LEFT JOIN of a group
  // in parentheses, a RIGHT JOIN of joins): the tables in it, this one and
  // the next unit_size - 1, all left_outer, which join among themselves
  // first. `on` holds the JOIN's ON and the inner ONs inside the side.
  int unit_size = 0;
  // FROM t AS alias(a, b, ...): the names of its first columns.
  std::vector<std::string> column_aliases;
  const std::string& column_name(int c) const;
  int find_column(std::string_view name) const;  // -1: none
  int column_count() const { return static_cast<int>(table->columns.size()) + 1; }  // + rowid
};

// FROM (SELECT ...) AS alias, flattened into the query that reads it: its
// tables join the query's (hidden), its WHERE joins the conjuncts, and each
// of its columns is the expression its select list gives.
struct DerivedTable {
  std::string alias;
  std::vector<std::string> names;
  std::vector<BoundExpr> columns;
  // A table of joins that ran first (ast::TableRef::joins), its columns
  // there: its alias is a table's, which another may not take.
  bool of_joins = false;
  int find_column(std::string_view name) const;
};

struct BoundOrder {
  int output = 0;  // which output column
  bool descending = false;
  bool nulls_first = false;
};

struct BoundQuery {
  std::vector<BoundTableRef> tables;
  std::vector<DerivedTable> derived;  // what names see of each derived table
  // The FROM items names see, in order: a table (index into `tables`) or a
  // derived table (index into `derived`).
  struct Source {
    bool derived = false;
    int index = 0;
  };
  std::vector<Source> sources;
  int column_count = 0;  // of all tables, rowids included
  std::vector<std::string> column_names;  // "alias.column" for each column number
  std::vector<DataType> column_types;
  // JOIN ... USING (a) and NATURAL JOIN: each listed name is one column of
  // the join. A bare `a` reads `value` -- the left side's (INNER, LEFT),
  // the right side's (RIGHT), COALESCE of both (FULL) -- where it would
  // otherwise name the sides' columns ambiguously; SELECT * shows it at the
  // left side's column and leaves out the right side's.
  struct UsingColumn {
    std::string name;
    BoundExpr value;
    using Place = std::pair<int, int>;  // (index into sources, column of that source)
    std::vector<Place> covered;         // every column it stands for
    Place shown;                        // where SELECT * shows it
    std::vector<Place> hidden;          // what SELECT * leaves out
  };
  std::vector<UsingColumn> using_columns;
  // WHERE and every ON condition, split at top-level AND.
  std::vector<BoundExpr> conjuncts;
  bool aggregated = false;  // GROUP BY or aggregates present
  std::vector<BoundExpr> group_keys;
  // A 128-bit DECIMAL key groups as two 64-bit keys, its upper and lower
  // halves (group_keys[high], group_keys[low]), and reads back as one value.
  struct WideKey {
    BoundExpr value;
    std::size_t high = 0, low = 0;
  };
  std::vector<WideKey> wide_keys;
  std::vector<BoundAggregate> aggregates;
  std::optional<BoundExpr> having;
  // The select list, then hidden ORDER BY keys (outputs[visible...]).
  std::vector<BoundExpr> outputs;
  std::vector<std::string> names;
  std::size_t visible = 0;
  bool distinct = false;
  std::vector<BoundOrder> order_by;
  std::optional<int64_t> limit;
  int64_t offset = 0;
};

// Reads a table function in FROM (read_csv(...)) into a table (on the
// device too, when the database uses one).
using TableFunctionReader = std::function<std::shared_ptr<const Table>(const ast::TableRef& ref)>;

struct ResultData;

// A query FROM may name as if it were a table: a WITH's common table
// expression or a view. The names a query sees form a chain, innermost
// first (its WITH's, the WITH's of the queries around it, the database's
// views); each binds its own FROM in `defined_in`.
struct NamedQueries {
  std::string name;
  std::vector<std::string> column_aliases;
  std::shared_ptr<const ast::SelectStatement> query;
  std::shared_ptr<const Table> table;  // in place of `query`: rows already made (a set operation's)
  const NamedQueries* defined_in = nullptr;
  const NamedQueries* parent = nullptr;
  const NamedQueries* find(std::string_view name) const;  // this or a parent; null: none
};

// Runs a subquery that binding cannot fold into its query, once and never
// per row: the value of a scalar subquery, the set an IN (SELECT ...) tests,
// a derived table that groups. The database plans and executes it; either
// function may be empty (a subquery there is then "not supported yet").
// Each runs the statement with `names` as the named queries FROM sees.
struct SubqueryRunner {
  std::function<std::shared_ptr<ResultData>(const ast::SelectStatement&, const NamedQueries* names)> result;
  // The result as a table, on the database's device when it has one.
  std::function<std::shared_ptr<const Table>(const ast::SelectStatement&, const NamedQueries* names)> table;
  // Rows binding made (a set operation's) as a table, on the device too.
  std::function<std::shared_ptr<const Table>(std::string name, ResultData& rows)> table_of;
  // Settings::narrow_subquery_rows: the rows a correlated subquery's largest
  // table needs before it is narrowed to the outer keys.
  uint64_t narrow_from_rows = 0;
  // LIKE `pattern` over column `column` of `table`, a column of plain strings
  // that lives on the database's device alone, matched there: a byte a row,
  // 1 for a match, 0 for none or a NULL. Empty (a database without a
  // device): the binder matches a host copy of the strings.
  using DeviceLike = std::function<std::vector<uint8_t>(const Table& table, std::size_t column, std::string_view pattern)>;
  DeviceLike device_like;
};

// `sql` is the whole text the statement came from: output columns without an
// alias are named by their text as written, as SQLite does. Without a
// `reader`, the one set_table_function_reader registered is used. `names`:
// the views (and WITH's around it) FROM may name besides the catalog's tables.
BoundQuery bind_query(const ast::SelectStatement& statement, const Catalog& catalog, std::string_view sql,
                      const TableFunctionReader& reader = {}, const SubqueryRunner& runner = {},
                      const NamedQueries* names = nullptr);

void set_table_function_reader(TableFunctionReader reader);

}  // namespace gpusql
