// (a1, ..., an) [NOT] IN (SELECT c1, ..., cn ...), rewritten into what the
// binder already binds, with the SQL standard's NULLs (DuckDB's too, for
// this form):
//   CASE WHEN EXISTS (SELECT 1 FROM (S) AS r(v1, ..., vn)
//                     WHERE v1 = a1 AND ... AND vn = an) THEN TRUE
//        WHEN EXISTS (SELECT 1 FROM (S) AS r(v1, ..., vn)
//                     WHERE (v1 = a1 OR v1 IS NULL OR a1 IS NULL) AND ...) THEN NULL
//        ELSE FALSE END
// and NOT IN as its negation: TRUE where some row of S equals the row,
// else NULL where some row could equal it but for a NULL, else FALSE. S is
// a derived table whose columns no name of the row can mean, so each ai
// still reads what it read outside; a correlated EXISTS unnests as any
// does (never run once per row).
#pragma once

#include "parser/ast.hpp"

namespace gpusql {

// `e` is an ExprKind::InSubquery whose args[0] is an ExprKind::Row; the
// result shares e's subquery. Fails when S's select list does not have as
// many columns as the row (or is a *, whose width is not known here).
ast::ExprPtr rewrite_row_in_subquery(const ast::Expr& e);

// The first EXISTS above alone: TRUE exactly where the IN is TRUE, so the
// same condition in WHERE (joined by AND, not negated), where it becomes a
// semi join.
ast::ExprPtr row_in_exists(const ast::Expr& e);

}  // namespace gpusql
