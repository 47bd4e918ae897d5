// UNION, INTERSECT and EXCEPT, bound as one plain SELECT over the rows of
// both sides. Each side runs first; their rows, brought to one type per
// column, form one table, which the SELECT reads: as it is (UNION ALL),
// without duplicates (UNION), or grouped, keeping the rows both sides have
// (INTERSECT) or only the left one has (EXCEPT). Rows compare as GROUP BY
// compares them, NULLs equal, as the standard's set operations do.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "storage/result_data.hpp"
#include "parser/ast.hpp"
#include "storage/table.hpp"

namespace gpusql {

// The type a column of both sides takes, as DuckDB's: the type both have;
// numbers meet in their common type; anything beside a VARCHAR is VARCHAR.
// Other pairs are an error at `offset`.
DataType set_operation_type(DataType left, DataType right, std::size_t offset);

// Left's rows, then right's, in one result with left's names; both must have
// as many columns. `tagged`: one more column, BIGINT, 0 on left's rows and 1
// on right's (INTERSECT and EXCEPT tell the sides apart by it).
ResultData set_operation_rows(ResultData left, ResultData right, bool tagged, std::size_t offset);

// INTERSECT ALL and EXCEPT ALL keep duplicates: each distinct row as many
// times as min(left, right) or max(left - right, 0) of its copies. The
// SELECT that counts them from `rows` (tagged): every column but the tag,
// then each row's count of copies on the left and on the right.
ast::SelectStatement set_operation_counts_select(const Table& rows);
// `counts` (that SELECT's answer) with each row repeated as many times as
// the operation keeps it, the two counts dropped.
ResultData repeated_rows(ResultData counts, ast::SetOperation::Kind kind);

// The SELECT that gives set operation `s`'s answer from `rows`, a table
// made of set_operation_rows() (the named query `rows.name`): one output
// per column but the tag, named `names`, then s's ORDER BY, LIMIT, OFFSET.
// With `as_is`, the rows are the answer already (repeated_rows()): no
// DISTINCT, no grouping, and no tag.
ast::SelectStatement set_operation_select(const ast::SelectStatement& s, const Table& rows,
                                          const std::vector<std::string>& names, bool as_is = false);

}  // namespace gpusql
