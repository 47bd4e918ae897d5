// x op ANY (SELECT ...) and x op ALL (SELECT ...), rewritten into what
// the binder already binds. `= ANY` is IN and `<> ALL` is NOT IN (x may be
// a row value there, and only there); the
// others compare x with the subquery's MIN or MAX, with SQL's NULLs and
// empty sets handled by a CASE over its COUNT(*) and COUNT(value):
//   x > ANY (S): CASE WHEN count = 0 THEN FALSE WHEN x > min THEN TRUE
//                     WHEN count > count_values THEN NULL ELSE x > min END
//   x > ALL (S): CASE WHEN count = 0 THEN TRUE WHEN NOT (x > max) THEN FALSE
//                     WHEN count > count_values THEN NULL ELSE x > max END
//   x = ALL (S): FALSE when x <> min OR x <> max; x <> ANY (S): TRUE then.
// Each aggregate is a scalar subquery over S's own FROM and WHERE when S is
// a plain one-column SELECT (so a correlated S unnests as any correlated
// aggregate does), else over S as a derived table.
#pragma once

#include "parser/ast.hpp"

namespace gpusql {

// `e` is an ExprKind::Quantified; the result shares e's subquery parts.
ast::ExprPtr rewrite_quantified_comparison(const ast::Expr& e);

}  // namespace gpusql
