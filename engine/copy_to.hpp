// COPY t TO 'path' and COPY (SELECT ...) TO 'path': rows written as a CSV
// file the way DuckDB writes one, which COPY ... FROM reads back the same.
#pragma once

#include <memory>
#include <string_view>

#include "engine/database_impl.hpp"
#include "parser/ast.hpp"

namespace gpusql {

// Options: HEADER (true by default, as DuckDB), DELIMITER 'c' (one
// character, ',' by default), NULL 'text' (how NULL is written, '' by
// default), FORMAT csv. A field is quoted ("...", quotes doubled) when it
// holds the delimiter, a quote or a line break, reads as the NULL text, or
// is the empty string while NULL is written as nothing (so that it reads
// back as '' and not NULL). The
// file appears whole or not at all: rows go to a temporary file beside it,
// renamed over `path` once written. Returns the status "wrote N rows to
// 'path'".
std::shared_ptr<ResultData> copy_to(const ast::CopyStatement& s, Database::Impl& database, std::string_view sql);

}  // namespace gpusql
