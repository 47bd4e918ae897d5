// The binder: resolves the names of a parsed statement against the catalog,
// types every expression and checks the SQL rules (aggregates, booleans).
// Errors carry the byte offset of the offending name for the caret.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/bound_expression.hpp"
#include "parser/ast.hpp"
#include "storage/catalog.hpp"

namespace gpusql {

struct BoundSelect {
  std::shared_ptr<const Table> table;
  std::optional<BoundExpr> where;               // over the table's columns
  std::vector<BoundAggregate> aggregates;       // non-empty: an aggregate query
  // The select list: over the table's columns, or, in an aggregate query,
  // over the aggregates' results (column i = aggregates[i]).
  std::vector<BoundExpr> outputs;
  std::vector<std::string> names;
};

// `sql` is the whole text the statement came from: output columns without an
// alias are named by their text as written, as SQLite does.
BoundSelect bind_select(const ast::SelectStatement& statement, const Catalog& catalog, std::string_view sql);

}  // namespace gpusql
