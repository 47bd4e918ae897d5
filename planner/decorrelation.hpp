// Correlated subqueries of any correlation, unnested with the outer values
// as a table (magic sets; DuckDB's delim join; Neumann & Kemper,
// "Unnesting Arbitrary Queries"): the statements the binder runs for them.
//
// A subquery that reads columns of the query around it (its outer
// references, o1..ok) runs once over the distinct values those columns
// take there, a table D of k columns: the subquery's FROM gains D, each
// oi becomes D's column i, and the result carries D's columns, so the
// query around it joins the result on oi = D.i. A condition between the
// two queries (x.b < t1.b) is then a join condition inside the rewritten
// subquery, and the query around it joins on equalities only.
//
// Where an outer reference rejects NULLs (rejects_nulls_of), a row whose oi
// is NULL finds no row in the subquery, as the equality join finds no row
// in the result. Where it does not (OR t1.b IS NULL, coalesce(t1.b, 0), a
// column of the select list only), D's NULL is a value the subquery runs
// over like any other, and the query around it joins on oi IS NOT DISTINCT
// FROM D.i instead.
//
// A subquery nested in the subquery that reads the query around both (two
// or more levels out: nested_outer_columns()) makes that column one of D's
// too, and the rewritten subquery reads D's column there as well.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "parser/ast.hpp"

namespace gpusql {

// The conditions `e` joins by AND at its top level, in order.
void split_and(const ast::Expr& e, std::vector<const ast::Expr*>& parts);

// `local` followed by the names the FROM items of `s` go by.
std::vector<std::string> with_from_names(std::vector<std::string> local, const ast::SelectStatement& s);

// The name of D's column i, one no unquoted SQL can say.
std::string outer_value_name(std::size_t i);

// The columns the subquery reads in its own clauses -- the select list,
// the ON conditions of its FROM, WHERE, GROUP BY and HAVING -- outside
// subqueries nested in it. ORDER BY is left out: it orders nothing in a
// subquery without LIMIT, which is all the binder unnests this way.
// Without `items`, the select list too is left out (EXISTS reads none).
std::vector<const ast::Expr*> subquery_columns(const ast::SelectStatement& s, bool items = true);

// Whether a NULL value of the column written `column` (ast::to_string)
// makes `where` keep no row: some condition of its top-level AND reads the
// column through arithmetic, CAST, comparisons, BETWEEN and LIKE only.
bool rejects_nulls_of(const ast::Expr* where, const std::string& column);

// References to a query around subquery `s` from subqueries nested in s's
// own clauses (those subquery_columns() reads, `items` as there, ORDER BY
// within them too): `t.c` where t names no FROM item of the subquery it is
// in, nor of any between it and s, nor of s; in each side of a set
// operation too. A bare name is left out (whose column it is the catalog
// tells), and so are WITH bodies and derived tables.
std::vector<const ast::Expr*> nested_outer_columns(const ast::SelectStatement& s, bool items = true);

// Calls f(column, local) on every column reference of `e` and of the
// subqueries nested in it (their clauses, each side of a set operation),
// `local` naming the FROM items of the subquery levels around the column
// inside e (none for e's own columns). WITH bodies and derived tables are
// not entered.
using ColumnVisitor = std::function<void(const ast::Expr& column, const std::vector<std::string>& local)>;
void for_each_column(const ast::Expr& e, const ColumnVisitor& f);

// `s`, a set operation, with each side made anew by `rewrite`.
using SideRewrite =
    std::function<std::shared_ptr<const ast::SelectStatement>(const std::shared_ptr<const ast::SelectStatement>&)>;
std::shared_ptr<const ast::SelectStatement> with_sides_rewritten(const ast::SelectStatement& s, const SideRewrite& rewrite);

// What replace_outer_columns() puts for such a column; null leaves it.
using OuterColumnReplacement = std::function<ast::ExprPtr(const ast::Expr& column)>;

// Subquery `s` with each such column replaced, where `local` names the FROM
// items of the queries between s and the query the columns belong to; in
// each side of a set operation too. The subqueries of derived tables in its
// FROM too when `into_derived_tables` (they see the scopes around s only).
std::shared_ptr<const ast::SelectStatement> replace_outer_columns(const std::shared_ptr<const ast::SelectStatement>& s,
                                                                  const std::vector<std::string>& local,
                                                                  const OuterColumnReplacement& replace,
                                                                  bool into_derived_tables);

// `e`, an expression of a query whose FROM items are named `local`, with
// each column written as outer[i] read as `values`."outer i" -- in
// subqueries nested in it too, where a FROM item between does not hide it.
ast::ExprPtr over_outer_values(const ast::Expr& e, const std::vector<std::string>& outer, const std::string& values,
                               const std::vector<std::string>& local);

// SELECT [DISTINCT] values."outer 0", ..., items... FROM values, <s's FROM>
// WHERE <s's WHERE> [GROUP BY values."outer 0", ...], with s's outer
// references (written as `outer`) read from the table named `values`. The
// items are given as s's expressions; they are rewritten the same way.
ast::SelectStatement over_outer_values(const ast::SelectStatement& s, const std::vector<std::string>& outer,
                                       const std::string& values, const std::vector<ast::SelectItem>& items,
                                       bool group, bool distinct);

}  // namespace gpusql
