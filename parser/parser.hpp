// Entry point of the SQL front end: text in, syntax trees out.
#pragma once

#include <string_view>
#include <vector>

#include "parser/ast.hpp"

namespace gpusql {

class QueryControl;

// Parses every statement in `sql` (separated by ';', comments allowed).
// Throws gpusql::Error(ErrorKind::Parser) with the byte offset of the fault;
// Error::with_source(sql) adds the line and caret. Never crashes or hangs on
// any input; nesting deeper than a fixed limit is a parser error.
// With `query_control`, its interrupt is checked before each statement, so a
// long script stops while it is parsed: throws Error(ErrorKind::Interrupt).
std::vector<ast::Statement> parse_sql(std::string_view sql, const QueryControl* query_control = nullptr);

}  // namespace gpusql
