// Random queries within gpusql's dialect, built as typed trees and rendered
// three times: as gpusql runs them, and as SQLite and DuckDB must run them to
// mean the same. SQLite: rowid 0-based, fmod for % on doubles, integer-double
// comparisons through double (the list in checker.hpp). DuckDB: integer
// arithmetic in BIGINT, // for integer /, gpusql_mod for integer %, SUM of
// integers cast to BIGINT (the list in duckdb_oracle.hpp).
//
// Today's dialect is always on: SELECT * | expressions | aggregates FROM one
// table WHERE nested AND/OR/NOT over comparisons and arithmetic. The clauses
// other issues are adding are switched on by Features (detected by probing
// the engine, or forced by GPUSQL_DIFF_FEATURES).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tests/differential/data_generator.hpp"
#include "tests/differential/random.hpp"

namespace gpusql::test::diff {

struct Features {
  bool join = false;            // FROM a JOIN b ON ..., FROM a, b WHERE ..., CROSS JOIN
  bool group_by = false;        // GROUP BY keys
  bool having = false;          // HAVING over aggregates
  bool order_by = false;        // ORDER BY output columns, explicit NULLS FIRST/LAST
  bool limit = false;           // LIMIT n [OFFSET m] under a total ORDER BY
  bool distinct = false;        // SELECT DISTINCT
  bool between = false;         // x [NOT] BETWEEN a AND b
  bool in_list = false;         // x [NOT] IN (...)
  bool like = false;            // s [NOT] LIKE 'pattern'
  bool is_null = false;         // x IS [NOT] NULL
  bool case_when = false;       // CASE WHEN ... THEN ... ELSE ... END
  bool cast = false;            // CAST(integer AS DOUBLE)
  bool count_distinct = false;  // COUNT(DISTINCT x)
  bool sum_distinct = false;    // SUM(DISTINCT c), AVG(DISTINCT c): one column c a query
  // Comparing a VARCHAR with a NULL literal (once a Binder error:
  // tests/sql/nulls/null_literal_varchar.test).
  bool null_text_compare = false;
  // A CASE over INTEGER and BIGINT branches is BIGINT (once cut to 32 bits:
  // tests/sql/case/case_bigint_branch.test); off, every integer branch is
  // made BIGINT (v + 0).
  bool case_int_widths = false;
  // Issue #27's shapes, judged by DuckDB only (Query::duckdb_only): DECIMAL
  // and DATE columns, DECIMAL literals of any scale, DATE +- integer and
  // INTERVAL, DATE - DATE, EXTRACT, CAST between every pair of types, NULL
  // literals as operands, CASE branches, aggregate arguments and CAST(NULL).
  bool types = false;
  // An aliased table read through a derived table: (SELECT * FROM t) AS x,
  // flattened, or (SELECT * FROM t LIMIT 1000000000) AS x, run first and
  // read as a table.
  bool derived = false;
  // Subqueries over a table aliased s: a scalar aggregate compared, x [NOT]
  // IN (SELECT s.c ...), an uncorrelated [NOT] EXISTS, anywhere a condition
  // goes; and, as a condition of WHERE, a correlated EXISTS or a comparison
  // with a correlated MIN/MAX/SUM/AVG (s.k = outer.k).
  bool subquery = false;
  // a LEFT JOIN b ON a.x = b.y [AND a condition on b alone], a RIGHT JOIN
  // with a condition on a alone, a FULL JOIN with one on either; derived
  // tables also as WITH names (with `derived`).
  bool left_join = false;
  bool with = false;
  // q UNION [ALL] | INTERSECT | EXCEPT the same select list over another
  // WHERE, ORDER BY output positions.
  bool set_operation = false;
  // Functions of one text column and constants (planner/string_functions.cpp):
  // REPLACE, LEFT, RIGHT, LPAD, RPAD, REPEAT, TRIM, SUBSTRING, || of two
  // columns and CONCAT as text (also nested), STRPOS, POSITION(x IN s), LENGTH, STRLEN,
  // ASCII as integers, STARTS_WITH, ENDS_WITH, CONTAINS as conditions.
  // DuckDB's to judge.
  bool string_functions = false;
  // (a, b[, c]) op (d, e[, f]) and (a, b) [NOT] IN ((c, d), ...), a pair
  // of one type at a time: judged by SQLite only (Query::sqlite_only), as
  // DuckDB compares rows as STRUCTs (D28).
  bool row_values = false;
};

// The name of every feature, in the order of Features' fields.
inline std::vector<std::pair<std::string, bool Features::*>> feature_fields() {
  return {{"join", &Features::join},           {"group_by", &Features::group_by},
          {"having", &Features::having},       {"order_by", &Features::order_by},
          {"limit", &Features::limit},         {"distinct", &Features::distinct},
          {"between", &Features::between},     {"in", &Features::in_list},
          {"like", &Features::like},           {"is_null", &Features::is_null},
          {"case", &Features::case_when},      {"cast", &Features::cast},
          {"count_distinct", &Features::count_distinct}, {"sum_distinct", &Features::sum_distinct},
          {"null_text_compare", &Features::null_text_compare},
          {"case_int_widths", &Features::case_int_widths}, {"types", &Features::types},
          {"derived", &Features::derived}, {"subquery", &Features::subquery},
          {"left_join", &Features::left_join}, {"with", &Features::with},
          {"set_operation", &Features::set_operation}, {"string_functions", &Features::string_functions},
          {"row_values", &Features::row_values}};
}

// Double: any non-integer number -- DOUBLE, REAL or DECIMAL (decimal_scale tells).
enum class VType { Int, Double, Bool, Text, Date };
enum class Dialect { Gpusql, Sqlite, Duckdb };

struct Node {
  enum class Kind {
    Column, RowId, Literal, Neg, Not, Arith, Compare, And, Or, Agg, Between, In, Like, IsNull, Case, Cast,
    Interval,  // INTERVAL 'n' DAY|MONTH|YEAR (text), the right operand of a DATE + or -
    Extract,   // EXTRACT(text FROM args[0])
    // Subqueries over the table `text` aliased s; their parts are in
    // `inner`, out of reach of the walks over args (which see this query's
    // expressions only).
    Scalar,    // (SELECT inner[0] FROM text AS s [WHERE inner[1]])
    InSelect,  // args[0] [NOT] IN (SELECT inner[0] FROM text AS s [WHERE inner[1]])
    Exists,    // [NOT] EXISTS (SELECT * FROM text AS s [WHERE inner[0]])
    Quantified,  // args[0] quantifier (SELECT inner[0] FROM text AS s [WHERE inner[1]])
    Function,    // text(args...): a string function; COALESCE or NULLIF of a condition
    Row,         // (args...): a row value, an operand of Compare and In only
  };
  Kind kind = Kind::Literal;
  VType type = VType::Int;
  std::string text;       // Column: name; Literal: its SQL; Arith/Compare: operator; Agg: function;
                          // Cast: the target type ("" : DOUBLE, REAL in SQLite)
  std::string qualifier;  // Column, RowId: table alias ("" unqualified)
  bool negated = false;   // Between, In, Like, IsNull: the NOT form; Agg: DISTINCT; Compare: D12's <>
  bool star = false;      // Agg: COUNT(*)
  int scale = -1;         // Column, Cast, Scalar: the scale of a DECIMAL column, target type or value (-1: none)
  std::vector<Node> args;
  std::vector<Node> inner;  // Scalar, InSelect, Exists, Quantified: the subquery's item and WHERE
  std::string quantifier;   // Quantified: "> ALL", "= ANY", ...
  bool distinct_rows = false;  // Scalar: SELECT DISTINCT
  std::string tail;            // Scalar, Exists: what follows its WHERE (" ORDER BY s.rowid LIMIT 1")
  std::string item;            // Exists: its select list ("": *)
};

inline bool contains_aggregate(const Node& n) {
  if (n.kind == Node::Kind::Agg) return true;
  return std::any_of(n.args.begin(), n.args.end(), contains_aggregate);
}

// Without a column, rowid or aggregate in it, an expression is a constant,
// which ORDER BY and GROUP BY could read as a column position.
inline bool is_constant(const Node& n) {
  if (n.kind == Node::Kind::Column || n.kind == Node::Kind::RowId || n.kind == Node::Kind::Agg) return false;
  return std::all_of(n.args.begin(), n.args.end(), is_constant);
}

// Whether a literal is a DECIMAL in gpusql and DuckDB: digits with a point
// and no exponent ("0.5", "-7.0", "100.25"; "1e10" is a DOUBLE).
inline bool decimal_literal(const std::string& text) {
  if (text.find('.') == std::string::npos || text.find_first_of("eE") != std::string::npos) return false;
  return text.find_first_not_of("-0123456789.") == std::string::npos;
}

// A CASE's value branches (args: when1 then1 ... else).
inline std::vector<const Node*> case_values(const Node& n) {
  std::vector<const Node*> out;
  for (std::size_t i = 0; i < n.args.size(); ++i)
    if (i % 2 == 1 || i + 1 == n.args.size()) out.push_back(&n.args[i]);
  return out;
}

// The scale of an expression that is a DECIMAL in gpusql's typing (DuckDB's
// rules: + - % take the larger scale, * the sum, / gives a DOUBLE; an integer
// operand joins as scale 0; a DOUBLE operand makes a DOUBLE), or nullopt when
// it is no DECIMAL.
inline std::optional<int> decimal_scale(const Node& n) {
  using K = Node::Kind;
  if (n.type != VType::Double) return std::nullopt;
  switch (n.kind) {
    case K::Literal:
      if (!decimal_literal(n.text)) return std::nullopt;
      return static_cast<int>(n.text.size() - n.text.find('.') - 1);
    case K::Column:
    case K::Scalar:
    case K::Cast: return n.scale >= 0 ? std::optional<int>(n.scale) : std::nullopt;
    case K::Neg: return decimal_scale(n.args[0]);
    case K::Agg:
      if (n.text == "AVG") return std::nullopt;
      return decimal_scale(n.args[0]);
    case K::Arith: {
      if (n.text == "/") return std::nullopt;
      // An integer or a NULL literal (which takes the other side's type) joins at scale 0.
      auto neutral = [](const Node& c) { return c.type == VType::Int || (c.kind == K::Literal && c.text == "NULL"); };
      auto a = decimal_scale(n.args[0]), b = decimal_scale(n.args[1]);
      if ((!a && !neutral(n.args[0])) || (!b && !neutral(n.args[1]))) return std::nullopt;
      if (!a && !b) return std::nullopt;
      return n.text == "*" ? a.value_or(0) + b.value_or(0) : std::max(a.value_or(0), b.value_or(0));
    }
    case K::Case: {
      int scale = 0;
      for (const Node* v : case_values(n)) {
        auto s = decimal_scale(*v);
        if (!s && v->type != VType::Int && !(v->kind == K::Literal && v->text == "NULL")) return std::nullopt;
        scale = std::max(scale, s.value_or(0));
      }
      return scale;
    }
    default: return std::nullopt;
  }
}

inline std::string render(const Node& n, Dialect d) {
  using K = Node::Kind;
  auto r = [&](const Node& child) { return render(child, d); };
  auto as_real = [&](const Node& child) {
    return d == Dialect::Sqlite && child.type == VType::Int ? "CAST(" + r(child) + " AS REAL)" : r(child);
  };
  // DuckDB: integer arithmetic in 64 bits (D1 of duckdb_oracle.hpp). An
  // operand that is BIGINT already stays as it is; so does a literal beside
  // an operand that is cast (the two meet in BIGINT).
  auto bigint_already = [](const Node& c) {
    return c.kind == K::Arith || c.kind == K::Neg || c.kind == K::RowId ||
           (c.kind == K::Agg && (c.text == "SUM" || c.text == "COUNT"));
  };
  auto as_bigint = [&](const Node& child, const Node& other) {
    if (bigint_already(child) || (child.kind == K::Literal && other.kind != K::Literal)) return r(child);
    return "CAST(" + r(child) + " AS BIGINT)";
  };
  switch (n.kind) {
    case K::Column: return (n.qualifier.empty() ? "" : n.qualifier + ".") + n.text;
    case K::RowId: {
      std::string rowid = (n.qualifier.empty() ? "" : n.qualifier + ".") + "rowid";
      return d == Dialect::Sqlite ? "(" + rowid + " - 1)" : rowid;
    }
    case K::Literal: return n.text;
    case K::Neg:
      if (d == Dialect::Duckdb && n.type == VType::Int) return "(- " + as_bigint(n.args[0], n.args[0]) + ")";
      return "(- " + r(n.args[0]) + ")";
    case K::Not: return "(NOT " + r(n.args[0]) + ")";
    case K::Interval: return n.text;
    case K::Extract: return "EXTRACT(" + n.text + " FROM " + r(n.args[0]) + ")";
    case K::Arith:
      if (n.args[0].type == VType::Date) {
        std::string s = "(" + r(n.args[0]) + " " + n.text + " " + r(n.args[1]) + ")";
        // D11: DATE +- INTERVAL is a TIMESTAMP in DuckDB, a DATE in gpusql.
        if (d == Dialect::Duckdb && n.args[1].kind == K::Interval) return "CAST(" + s + " AS DATE)";
        return s;
      }
      if (d == Dialect::Sqlite && n.text == "%" && n.type == VType::Double)
        return "gpusql_fmod(" + r(n.args[0]) + ", " + r(n.args[1]) + ")";
      if (d == Dialect::Duckdb && n.type == VType::Int) {
        std::string a = as_bigint(n.args[0], n.args[1]), b = as_bigint(n.args[1], n.args[0]);
        if (n.text == "%") return "gpusql_mod(" + a + ", " + b + ")";     // D3
        return "(" + a + " " + (n.text == "/" ? "//" : n.text) + " " + b + ")";  // D2
      }
      if (d == Dialect::Gpusql && n.text == "/" && n.type == VType::Int) {
        // gpusql's / and // are one operation: half of the integer quotients
        // (by the text of their operands, so the choice is the same each time) spell it //.
        const std::string a = r(n.args[0]), b = r(n.args[1]);
        return "(" + a + (std::hash<std::string>{}(a + b) % 2 ? " // " : " / ") + b + ")";
      }
      return "(" + r(n.args[0]) + " " + n.text + " " + r(n.args[1]) + ")";
    case K::Compare: {
      // D12: a correlated <> (negated marks it) as DuckDB answers it right.
      if (n.negated && d == Dialect::Duckdb) return "((" + r(n.args[0]) + " <> " + r(n.args[1]) + ") IS TRUE)";
      bool mixed = (n.args[0].type == VType::Double) != (n.args[1].type == VType::Double) &&
                   n.args[0].type != VType::Bool && n.args[0].type != VType::Text;
      if (mixed) return "(" + as_real(n.args[0]) + " " + n.text + " " + as_real(n.args[1]) + ")";
      return "(" + r(n.args[0]) + " " + n.text + " " + r(n.args[1]) + ")";
    }
    case K::And: return "(" + r(n.args[0]) + " AND " + r(n.args[1]) + ")";
    case K::Or: return "(" + r(n.args[0]) + " OR " + r(n.args[1]) + ")";
    case K::Agg:
      if (n.star) return n.text + "(*)";
      // D5: gpusql's SUM of integers is BIGINT, an error past its range.
      if (d == Dialect::Duckdb && n.text == "SUM" && n.type == VType::Int)
        return "CAST(SUM(" + std::string(n.negated ? "DISTINCT " : "") + r(n.args[0]) + ") AS BIGINT)";
      if (n.args.size() == 2) return n.text + "(" + r(n.args[0]) + ", " + r(n.args[1]) + ")";
      return n.text + "(" + std::string(n.negated ? "DISTINCT " : "") + r(n.args[0]) + ")";
    case K::Between:
      return "(" + r(n.args[0]) + (n.negated ? " NOT" : "") + " BETWEEN " + r(n.args[1]) + " AND " + r(n.args[2]) + ")";
    case K::In: {
      if (n.text == "or") {
        std::string chain;
        for (std::size_t i = 1; i < n.args.size(); ++i)
          chain += (i > 1 ? " OR " : "") + r(n.args[0]) + " = " + r(n.args[i]);
        return std::string(n.negated ? "(NOT (" : "((") + chain + "))";
      }
      std::string list;
      for (std::size_t i = 1; i < n.args.size(); ++i) list += (i > 1 ? ", " : "") + r(n.args[i]);
      return "(" + r(n.args[0]) + (n.negated ? " NOT" : "") + " IN (" + list + "))";
    }
    case K::Like: return "(" + r(n.args[0]) + (n.negated ? " NOT" : "") + " LIKE " + r(n.args[1]) + ")";
    case K::IsNull: return "(" + r(n.args[0]) + (n.negated ? " IS NOT NULL)" : " IS NULL)");
    case K::Case: {
      // args: when1 then1 ... else. A DOUBLE result is REAL in every branch in
      // gpusql; SQLite keeps each branch's own type.
      auto value = [&](const Node& v) { return n.type == VType::Double ? as_real(v) : r(v); };
      std::string s = "CASE";
      for (std::size_t i = 0; i + 1 < n.args.size(); i += 2)
        s += " WHEN " + r(n.args[i]) + " THEN " + value(n.args[i + 1]);
      return s + " ELSE " + value(n.args.back()) + " END";
    }
    case K::Cast:
      if (!n.text.empty()) return "CAST(" + r(n.args[0]) + " AS " + n.text + ")";
      return "CAST(" + r(n.args[0]) + (d == Dialect::Sqlite ? " AS REAL)" : " AS DOUBLE)");
    case K::Scalar:
    case K::InSelect:
    case K::Quantified: {
      std::string select = "(SELECT " + std::string(n.distinct_rows ? "DISTINCT " : "") + r(n.inner[0]) + " FROM " +
                           n.text + " AS s" + (n.inner.size() > 1 ? " WHERE " + r(n.inner[1]) : "") + n.tail + ")";
      if (n.kind == K::Scalar) return select;
      if (n.kind == K::Quantified) return "(" + r(n.args[0]) + " " + n.quantifier + " " + select + ")";
      return "(" + r(n.args[0]) + (n.negated ? " NOT" : "") + " IN " + select + ")";
    }
    case K::Row: {
      std::string row = "(";
      for (std::size_t i = 0; i < n.args.size(); ++i) row += (i ? ", " : "") + r(n.args[i]);
      return row + ")";
    }
    case K::Function: {
      if (n.text == "position") return "position(" + r(n.args[1]) + " IN " + r(n.args[0]) + ")";
      if (n.text == "||") return "(" + r(n.args[0]) + " || " + r(n.args[1]) + ")";
      std::string call = n.text + "(";
      for (std::size_t i = 0; i < n.args.size(); ++i) call += (i ? ", " : "") + r(n.args[i]);
      return call + ")";
    }
    case K::Exists:
      return std::string("(") + (n.negated ? "NOT " : "") + "EXISTS (SELECT " + (n.item.empty() ? "*" : n.item) +
             " FROM " + n.text + " AS s" +
             (n.inner.empty() ? "" : " WHERE " + r(n.inner[0])) + n.tail + "))";
  }
  return "?";
}

// A column a query may name.
struct ColumnRef {
  std::string qualifier;  // table alias, "" when the query has one unaliased table
  std::string name;
  VType type;
  std::vector<std::string> samples;  // some of its values, for literals that hit
  int scale = -1;                    // a DECIMAL column's scale
};

struct TableRef {
  std::string table;
  std::string alias;  // "" for none
  // With: WITH alias AS (SELECT * FROM table) ... FROM alias
  enum class Derived { No, Flat, Materialized, With } derived = Derived::No;
};

struct OrderKey {
  std::size_t output = 0;  // index into Query::outputs
  bool descending = false;
  bool nulls_first = false;
};

// One output column: how to compare it.
struct Output {
  VType type = VType::Int;
  bool approximate = false;  // a floating SUM or AVG: summation order may differ
  Node expr;                 // its expression (for star: the column)
};

struct Query {
  bool distinct = false;
  bool star = false;                 // SELECT *
  std::vector<Node> items;           // when !star
  std::vector<Output> outputs;       // what comes back, star expanded
  std::vector<TableRef> from;        // one table, two joined, or three comma-joined
  // Three tables: Comma, or a JOIN b RIGHT JOIN c (RightOfJoin), or
  // a LEFT JOIN (b JOIN c) (LeftOfGroup): `inner_on` the inner join's ON.
  // Nested outer joins (DuckDB dialect): the inner join `inner_kind` (LEFT
  // JOIN, FULL JOIN), and `full` the outer one a FULL JOIN.
  enum class Join { None, Inner, Comma, Cross, Left, Right, Full, RightOfJoin, LeftOfGroup } join = Join::None;
  std::optional<Node> on;            // Inner, Left, Right, Full, RightOfJoin, LeftOfGroup
  std::optional<Node> inner_on;      // RightOfJoin, LeftOfGroup
  std::string inner_kind = "JOIN";   // RightOfJoin, LeftOfGroup
  bool full = false;                 // RightOfJoin, LeftOfGroup
  std::optional<Node> where;
  std::vector<Node> group_by;
  std::optional<Node> having;
  std::vector<OrderKey> order_by;
  std::optional<int64_t> limit, offset;
  bool aggregate = false;            // items hold aggregates (one group without GROUP BY)
  // this query's select list (FROM, GROUP BY and HAVING too) again over
  // `where`, combined by `op`; then ORDER BY names outputs by position.
  struct SetOperation {
    std::string op;  // "UNION ALL", "UNION", "INTERSECT", "EXCEPT", "INTERSECT ALL", "EXCEPT ALL"
    std::optional<Node> where;
  };
  std::optional<SetOperation> set_operation;
  // Uses shapes SQLite cannot judge (no DECIMAL, DATE or typed NULL there):
  // DuckDB judges it, the SQLite check skips it.
  bool duckdb_only = false;
  // Uses shapes DuckDB answers otherwise than the SQL standard (row values:
  // D28): SQLite judges it, the DuckDB check skips it.
  bool sqlite_only = false;

  // `named`: a With table by its name (sql() writes the WITH); else (the
  // checker's probes, which nest this FROM) as the derived table it means.
  std::string from_sql(Dialect d, bool named = false) const {
    auto ref = [&](const TableRef& t) {
      if (named && t.derived == TableRef::Derived::With) return t.alias;
      std::string source = t.table;
      if (t.derived == TableRef::Derived::Flat || t.derived == TableRef::Derived::With)
        source = "(SELECT * FROM " + t.table + ")";
      if (t.derived == TableRef::Derived::Materialized) source = "(SELECT * FROM " + t.table + " LIMIT 1000000000)";
      return source + (t.alias.empty() ? "" : " AS " + t.alias);
    };
    if (join == Join::RightOfJoin)
      return " FROM " + ref(from[0]) + " " + inner_kind + " " + ref(from[1]) + " ON " + render(*inner_on, d) +
             (full ? " FULL JOIN " : " RIGHT JOIN ") + ref(from[2]) + " ON " + render(*on, d);
    if (join == Join::LeftOfGroup)
      return " FROM " + ref(from[0]) + (full ? " FULL JOIN (" : " LEFT JOIN (") + ref(from[1]) + " " + inner_kind +
             " " + ref(from[2]) + " ON " + render(*inner_on, d) + ") ON " + render(*on, d);
    // ON a.x = b.x, one column name on both sides, in a query that names
    // each column with its table (no *): half of them (by the name's last
    // character) written USING (x), which means the same rows.
    auto condition = [&]() {
      const bool same_name = !star && on && on->kind == Node::Kind::Compare && on->text == "=" && on->args.size() == 2 &&
                             on->args[0].kind == Node::Kind::Column && on->args[1].kind == Node::Kind::Column &&
                             on->args[0].text == on->args[1].text && on->args[0].qualifier != on->args[1].qualifier &&
                             !on->args[0].qualifier.empty() && !on->args[1].qualifier.empty();
      if (same_name && on->args[0].text.back() % 2 == 0) return " USING (" + on->args[0].text + ")";
      return " ON " + render(*on, d);
    };
    std::string s = " FROM " + ref(from[0]);
    if (from.size() > 1) {
      switch (join) {
        case Join::Inner: s += " JOIN " + ref(from[1]) + condition(); break;
        case Join::Cross: s += " CROSS JOIN " + ref(from[1]); break;
        case Join::Left: s += " LEFT JOIN " + ref(from[1]) + condition(); break;
        case Join::Right: s += " RIGHT JOIN " + ref(from[1]) + condition(); break;
        case Join::Full: s += " FULL JOIN " + ref(from[1]) + condition(); break;
        default: s += ", " + ref(from[1]); break;
      }
    }
    if (from.size() > 2) s += ", " + ref(from[2]);  // three tables: always comma-joined
    return s;
  }
  std::string where_sql(Dialect d) const { return where ? " WHERE " + render(*where, d) : ""; }
  std::string group_sql(Dialect d) const {
    std::string s;
    for (std::size_t i = 0; i < group_by.size(); ++i) s += (i ? ", " : " GROUP BY ") + render(group_by[i], d);
    return s;
  }

  // Uses a subquery, a set operation, a derived table or WITH name, or a
  // LEFT JOIN: the shapes issue #28 adds.
  bool outer() const {
    return join == Join::Left || join == Join::Right || join == Join::Full || join == Join::RightOfJoin ||
           join == Join::LeftOfGroup;
  }
  // From item i is on a nullable side of the outer join.
  bool nullable(std::size_t i) const {
    if ((join == Join::RightOfJoin || join == Join::LeftOfGroup) && full) return true;
    return (join == Join::Left && i == 1) || (join == Join::Right && i == 0) || (join == Join::Full && i < 2) ||
           (join == Join::RightOfJoin && i < 2) || (join == Join::LeftOfGroup && i > 0);
  }
  bool nested() const {
    if (set_operation || outer()) return true;
    for (const TableRef& t : from)
      if (t.derived != TableRef::Derived::No) return true;
    std::function<bool(const Node&)> has = [&](const Node& n) {
      if (n.kind == Node::Kind::Scalar || n.kind == Node::Kind::InSelect || n.kind == Node::Kind::Exists ||
          n.kind == Node::Kind::Quantified)
        return true;
      return std::any_of(n.args.begin(), n.args.end(), has);
    };
    for (const Node& i : items)
      if (has(i)) return true;
    for (const auto* n : {&where, &having, &on})
      if (*n && has(**n)) return true;
    return false;
  }

  std::string with_sql() const {
    std::string s;
    for (const TableRef& t : from)
      if (t.derived == TableRef::Derived::With)
        s += (s.empty() ? "WITH " : ", ") + t.alias + " AS (SELECT * FROM " + t.table + ")";
    return s.empty() ? s : s + " ";
  }

  // SELECT ... HAVING ...: one operand of a set operation, or the whole query.
  std::string core_sql(Dialect d, const std::optional<Node>& condition) const {
    std::string s = distinct ? "SELECT DISTINCT " : "SELECT ";
    if (star) s += "*";
    for (std::size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + render(items[i], d);
    s += from_sql(d, true) + (condition ? " WHERE " + render(*condition, d) : "") + group_sql(d);
    if (having) s += " HAVING " + render(*having, d);
    return s;
  }

  std::string sql(Dialect d) const {
    std::string s = with_sql() + core_sql(d, where);
    if (set_operation) s += " " + set_operation->op + " " + core_sql(d, set_operation->where);
    for (std::size_t i = 0; i < order_by.size(); ++i) {
      const OrderKey& k = order_by[i];
      s += (i ? ", " : " ORDER BY ") +
           (set_operation ? std::to_string(k.output + 1) : render(outputs[k.output].expr, d)) +
           (k.descending ? " DESC" : " ASC") + (k.nulls_first ? " NULLS FIRST" : " NULLS LAST");
    }
    if (limit) s += " LIMIT " + std::to_string(*limit);
    if (offset) s += " OFFSET " + std::to_string(*offset);
    return s;
  }
};

inline Node literal(VType type, std::string text) {
  Node n;
  n.kind = Node::Kind::Literal;
  n.type = type;
  n.text = std::move(text);
  return n;
}

inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}

class QueryGenerator {
 public:
  QueryGenerator(Rng& rng, Features features) : rng_(rng), features_(features) {}

  // A query over `tables` (as loaded: column types known); `columns[t]` are
  // the usable columns of tables[t]; SELECT * only where `complete[t]` (all
  // of its columns usable).
  Query query(const std::vector<std::string>& tables, const std::vector<std::vector<ColumnRef>>& columns,
              const std::vector<std::size_t>& row_counts, const std::vector<bool>& complete) {
    Query q;
    scope_.clear();
    distinct_pick_ = rng_.below(1000);
    tables_ = tables;
    columns_ = columns;
    rowid_ok_ = true;
    duckdb_only_ = false;
    sqlite_only_ = false;
    bool star_blocked = false;  // a DECIMAL or DATE column without the types feature
    auto usable = [&](const ColumnRef& c) {
      bool typed = c.type == VType::Date || c.scale >= 0;
      star_blocked = star_blocked || (typed && !features_.types);
      return !typed || features_.types;
    };
    // FROM: one table, or two or three joined when joins are on and the product is small.
    std::size_t first = rng_.below(tables.size());
    std::size_t second = rng_.below(tables.size());
    bool join = features_.join && rng_.chance(0.35) && row_counts[first] * row_counts[second] <= 50000;
    // Three tables, comma-joined with an equality a-b and one c-a or c-b
    // (a chain or a star): the join order's dynamic programming.
    std::size_t third = rng_.below(tables.size());
    const bool three =
        join && rng_.chance(0.25) && row_counts[first] * row_counts[second] * row_counts[third] <= 200000;
    if (three) {
      rowid_ok_ = false;
      star_blocked = true;
      const std::size_t picked[] = {first, second, third};
      const char* aliases[] = {"a", "b", "c"};
      std::size_t begin[4] = {0, 0, 0, 0};
      for (int side = 0; side < 3; ++side) {
        q.from.push_back({tables[picked[side]], aliases[side]});
        begin[side] = scope_.size();
        for (ColumnRef c : columns[picked[side]]) {
          c.qualifier = aliases[side];
          if (usable(c)) scope_.push_back(c);
        }
      }
      begin[3] = scope_.size();
      // An equality of a column of x and one of y; else (no comparable
      // pair) nothing, or with `any`, a condition on any of the three.
      auto equality = [&](int x, int y, bool any = true) -> std::optional<Node> {
        std::vector<std::pair<std::size_t, std::size_t>> pairs;
        for (std::size_t i = begin[x]; i < begin[x + 1]; ++i)
          for (std::size_t j = begin[y]; j < begin[y + 1]; ++j)
            if (comparable(scope_[i].type, scope_[j].type)) pairs.push_back({i, j});
        if (pairs.empty()) return any ? std::optional<Node>(boolean(1)) : std::nullopt;
        auto [i, j] = rng_.pick(pairs);
        return compare("=", column(scope_[i]), column(scope_[j]));
      };
      // Or outer joins of the three: a JOIN b ON a-b RIGHT JOIN c ON c-(a
      // or b), a LEFT JOIN (b JOIN c ON b-c) ON a-(b or c).
      // Their ONs read only the tables in scope there: equalities only.
      const std::size_t shape = rng_.weighted({6, features_.left_join ? 1.0 : 0, features_.left_join ? 1.0 : 0});
      if (shape == 1) {
        q.inner_on = equality(0, 1, false);
        q.on = equality(rng_.chance(0.5) ? 0 : 1, 2, false);
      } else if (shape == 2) {
        q.inner_on = equality(1, 2, false);
        q.on = equality(0, rng_.chance(0.5) ? 1 : 2, false);
      }
      if (shape != 0 && q.inner_on && q.on) {
        q.join = shape == 1 ? Query::Join::RightOfJoin : Query::Join::LeftOfGroup;
        // Outer joins nested in outer joins, or joins a FULL JOIN extends.
        if (new_shape(0.5)) {
          duckdb_only_ = true;
          q.full = rng_.chance(0.4);
          if (!q.full || rng_.chance(0.5)) q.inner_kind = rng_.chance(0.5) ? "LEFT JOIN" : "FULL JOIN";
        }
      } else {
        q.inner_on.reset();
        q.on.reset();
        Node ab = *equality(0, 1);
        Node condition = binary(Node::Kind::And, std::move(ab), *equality(rng_.chance(0.5) ? 0 : 1, 2));
        if (rng_.chance(0.3)) condition = binary(Node::Kind::And, std::move(condition), boolean(2));
        q.join = Query::Join::Comma;
        q.where = std::move(condition);
      }
    } else if (!join) {
      q.from.push_back({tables[first], rng_.chance(0.2) ? "x" : ""});
      for (ColumnRef c : columns[first]) {
        c.qualifier = q.from[0].alias.empty() ? (rng_.chance(0.2) ? tables[first] : "") : q.from[0].alias;
        if (usable(c)) scope_.push_back(c);
      }
      rowid_qualifier_ = q.from[0].alias;
    } else {
      rowid_ok_ = false;
      std::ptrdiff_t a_count_fix = 0;
      q.from.push_back({tables[first], "a"});
      q.from.push_back({tables[second], "b"});
      for (int side = 0; side < 2; ++side)
        for (ColumnRef c : columns[side == 0 ? first : second]) {
          c.qualifier = side == 0 ? "a" : "b";
          if (usable(c)) scope_.push_back(c);
          else if (side == 0) --a_count_fix;
        }
      std::size_t a_count = columns[first].size() + a_count_fix;
      std::vector<std::pair<std::size_t, std::size_t>> pairs;
      for (std::size_t i = 0; i < a_count; ++i)
        for (std::size_t j = a_count; j < scope_.size(); ++j)
          if (comparable(scope_[i].type, scope_[j].type)) pairs.push_back({i, j});
      std::optional<Node> equality;
      if (!pairs.empty()) {
        auto [i, j] = rng_.pick(pairs);
        // IS NOT DISTINCT FROM joins NULL with NULL, on hash-join keys as =.
        equality = compare(rng_.chance(0.08) ? "IS NOT DISTINCT FROM" : "=", column(scope_[i]), column(scope_[j]));
        // a.x + k 2^64 = b.y + l 2^64 (k, l of 0 and 1): an equality of
        // 128-bit values, which a join key cut to 64 bits once matched
        // when k != l. Small tables only: it joins as a condition.
        std::optional<Node> shift;
        if (scope_[i].type == VType::Int && scope_[j].type == VType::Int &&
            row_counts[first] * row_counts[second] <= 2000 && new_shape(0.3) && (shift = two_to_64(first))) {
          Node left = column(scope_[i]), right = column(scope_[j]);
          const bool both = rng_.chance(0.4);
          if (both || rng_.chance(0.5)) left = arith("+", std::move(left), *shift);
          if (both || left.kind != Node::Kind::Arith) right = arith("+", std::move(right), *shift);
          equality = compare("=", std::move(left), std::move(right));
        }
      }
      // Not an outer join by a 2^64 shift: its subquery in ON is "Cannot
      // perform non-inner join on subquery!" in DuckDB.
      const bool shifted =
          equality && (equality->args[0].kind == Node::Kind::Arith || equality->args[1].kind == Node::Kind::Arith);
      std::size_t style = rng_.weighted({6, 2.5, row_counts[first] * row_counts[second] <= 2000 ? 1.5 : 0,
                                         features_.left_join && equality && !shifted ? 2.5 : 0});
      if (!equality && style != 2) style = row_counts[first] * row_counts[second] <= 2000 ? 2 : 0;
      if (style == 2) {
        q.join = Query::Join::Cross;
      } else if (style == 3) {
        // The equality, and maybe a condition on one side alone: the
        // nullable side (which filters it first; b of a LEFT JOIN, a of a
        // RIGHT JOIN), or either of a FULL JOIN (which keeps its rows
        // unmatched where it fails).
        const Query::Join kinds[] = {Query::Join::Left, Query::Join::Right, Query::Join::Full};
        q.join = kinds[rng_.weighted({5, 3, 2})];
        q.on = std::move(*equality);
        if (rng_.chance(0.4)) {
          const bool on_b = q.join == Query::Join::Left || (q.join == Query::Join::Full && rng_.chance(0.5));
          std::vector<ColumnRef> b;
          for (const ColumnRef& c : scope_)
            if (c.qualifier == (on_b ? "b" : "a")) b.push_back(c);
          std::vector<ColumnRef> both = std::exchange(scope_, b);
          hidden_scope_ = both;  // still visible to SQL: a bare name must not match them
          const bool rowid = std::exchange(rowid_ok_, false);
          in_subquery_ = true;  // DuckDB: "Cannot perform non-inner join on subquery!"
          Node own = boolean(2);
          in_subquery_ = false;
          // But for one correlated with a LEFT JOIN's b alone (binder.cpp's on_subqueries_pushed()).
          if (q.join == Query::Join::Left && new_shape(0.3))
            if (std::optional<Node> correlated = correlated_condition(false)) {
              duckdb_only_ = true;
              own = binary(Node::Kind::And, std::move(own), std::move(*correlated));
            }
          scope_ = std::move(both);
          hidden_scope_.clear();
          rowid_ok_ = rowid;
          q.on = binary(Node::Kind::And, std::move(*q.on), std::move(own));
        }
        // A condition across the two sides beside the keys, or in their
        // place on small tables (LEFT, RIGHT).
        if (q.join != Query::Join::Full && rng_.chance(0.25)) {
          const bool rowid = std::exchange(rowid_ok_, false);
          in_subquery_ = true;
          Node across = boolean(2);
          in_subquery_ = false;
          rowid_ok_ = rowid;
          if (row_counts[first] * row_counts[second] <= 2000 && rng_.chance(0.3)) q.on = std::move(across);
          else q.on = binary(Node::Kind::And, std::move(*q.on), std::move(across));
        }
      } else {
        Node condition = equality ? *equality : boolean(1);
        if (rng_.chance(0.3)) condition = binary(Node::Kind::And, std::move(condition), boolean(2));
        if (style == 0) {
          q.join = Query::Join::Inner;
          q.on = std::move(condition);
        } else {
          q.join = Query::Join::Comma;
          q.where = std::move(condition);
        }
      }
    }
    outer_from_ = q.from[0];
    // Derived tables: only aliased ones (a derived table has no table name to
    // qualify with), and no rowid (a derived table has none).
    if (features_.derived && rng_.chance(0.3) && !q.from[0].alias.empty()) {
      for (TableRef& t : q.from)
        t.derived = static_cast<TableRef::Derived>(1 + rng_.weighted({1, 1, features_.with ? 0.7 : 0}));
      rowid_ok_ = false;
    }
    if (!q.where && rng_.chance(0.75)) q.where = boolean(0);
    else if (q.where && rng_.chance(0.3)) q.where = binary(Node::Kind::And, std::move(*q.where), boolean(1));
    if (features_.subquery && rng_.chance(0.25))
      if (std::optional<Node> c = correlated_condition(false))
        q.where = q.where ? binary(Node::Kind::And, std::move(*q.where), std::move(*c)) : std::move(*c);

    bool grouped = features_.group_by && rng_.chance(0.3);
    q.aggregate = grouped || rng_.chance(0.35);
    if (grouped) {
      std::size_t keys = 1 + rng_.below(2);
      for (std::size_t k = 0; k < keys; ++k) {
        // No subquery in a key: the select list repeats the key's text, and
        // gpusql binds a correlated one twice as two joins, not one key.
        in_subquery_ = true;
        Node key = !scope_.empty() && rng_.chance(0.8) ? column(rng_.pick(scope_)) : integer(2);
        in_subquery_ = false;
        if (is_constant(key)) {
          if (scope_.empty()) continue;
          key = column(rng_.pick(scope_));
        }
        q.group_by.push_back(key);
        if (rng_.chance(0.8)) q.items.push_back(key);
      }
      std::size_t aggregates = 1 + rng_.below(3);
      for (std::size_t i = 0; i < aggregates; ++i) q.items.push_back(aggregate_item());
      if (features_.having && !q.group_by.empty() && rng_.chance(0.4)) q.having = having();
      if (features_.subquery && new_shape(0.15)) {
        const bool in_having = q.having && rng_.chance(0.4);
        if (std::optional<Node> sub = correlated_over_groups(q.group_by, in_having)) {
          if (in_having) q.having = binary(Node::Kind::And, std::move(*q.having), std::move(*sub));
          else q.items.push_back(std::move(*sub));
        }
      }
    } else if (q.aggregate) {
      std::size_t n = 1 + rng_.below(4);
      for (std::size_t i = 0; i < n; ++i) q.items.push_back(aggregate_item());
    } else if (rng_.chance(0.15) && !star_blocked && complete[first] && (q.from.size() == 1 || complete[second])) {
      q.star = true;
      for (const auto& c : scope_) q.outputs.push_back({c.type, false, column(c)});
    } else {
      std::size_t n = 1 + rng_.below(4);
      for (std::size_t i = 0; i < n; ++i) q.items.push_back(any(0));
    }
    for (const auto& item : q.items) q.outputs.push_back({item.type, approximate(item), item});

    // DISTINCT over floating sums could merge rows on one side only.
    bool approximate_output = std::any_of(q.outputs.begin(), q.outputs.end(), [](const Output& o) { return o.approximate; });
    if (features_.distinct && !approximate_output && rng_.chance(0.15)) q.distinct = true;
    if (features_.set_operation && rng_.chance(0.2)) {
      // Floating sums could make rows equal on one side only: then UNION ALL.
      static const char* const kOperators[] = {"UNION ALL", "UNION", "INTERSECT", "EXCEPT", "INTERSECT ALL", "EXCEPT ALL"};
      Query::SetOperation op;
      op.op = kOperators[approximate_output ? 0 : rng_.below(6)];
      if (op.op.find(" ALL") != std::string::npos && op.op != "UNION ALL") duckdb_only_ = true;  // SQLite has neither
      if (rng_.chance(0.85)) op.where = boolean(0);
      q.set_operation = std::move(op);
    }
    if (features_.order_by && rng_.chance(0.4)) order(q);
    q.duckdb_only = duckdb_only_;
    q.sqlite_only = sqlite_only_;
    return q;
  }

  // Whether an output is a floating SUM or AVG, which may differ in its last bits.
  static bool approximate(const Node& n) {
    return n.kind == Node::Kind::Agg && ((n.text == "SUM" && n.type == VType::Double) || n.text == "AVG");
  }

 private:
  Rng& rng_;
  Features features_;
  std::size_t distinct_pick_ = 0;  // which integer column this query's SUM/AVG(DISTINCT) reads
  std::vector<ColumnRef> scope_;
  std::vector<std::string> tables_;             // every table, for subqueries
  std::vector<std::vector<ColumnRef>> columns_;  // their usable columns
  bool in_subquery_ = false;                     // building a subquery's parts (no subquery in them)
  bool nesting_ = false;                         // building a correlated subquery nested in another
  std::size_t enclosing_table_ = 0;              // while nesting_: the table of the subquery it is nested in
  TableRef outer_from_;                          // the query's first table, which correlation names
  bool rowid_ok_ = true;
  std::string rowid_qualifier_;
  bool duckdb_only_ = false;  // the query being built uses a shape SQLite cannot judge
  bool sqlite_only_ = false;  // ... one DuckDB answers otherwise than the standard
  // Columns SQL sees but the generator keeps out of scope_ for a while (the
  // other side of a join, in an ON condition on one side alone).
  std::vector<ColumnRef> hidden_scope_;
  static constexpr int kMaxDepth = 4;

  static bool comparable(VType a, VType b) {
    bool na = a == VType::Int || a == VType::Double, nb = b == VType::Int || b == VType::Double;
    return (na && nb) || (a == b && (a == VType::Text || a == VType::Date));
  }

  std::vector<const ColumnRef*> columns_of(VType type) const {
    std::vector<const ColumnRef*> out;
    for (const auto& c : scope_)
      if (c.type == type) out.push_back(&c);
    return out;
  }

  Node column(const ColumnRef& c) {
    Node n;
    n.kind = Node::Kind::Column;
    n.type = c.type;
    n.text = c.name;
    n.qualifier = c.qualifier;
    n.scale = c.scale;
    if (c.type == VType::Date || c.scale >= 0) duckdb_only_ = true;
    return n;
  }

  static Node unary(Node::Kind kind, Node operand) {
    Node n;
    n.kind = kind;
    n.type = kind == Node::Kind::Not ? VType::Bool : operand.type;
    n.args.push_back(std::move(operand));
    return n;
  }

  static Node binary(Node::Kind kind, Node left, Node right) {
    Node n;
    n.kind = kind;
    n.type = VType::Bool;
    n.args.push_back(std::move(left));
    n.args.push_back(std::move(right));
    return n;
  }

  static Node arith(const std::string& op, Node left, Node right) {
    Node n = binary(Node::Kind::Arith, std::move(left), std::move(right));
    n.text = op;
    n.type = n.args[0].type == VType::Double || n.args[1].type == VType::Double ? VType::Double : VType::Int;
    return n;
  }

  static Node compare(const std::string& op, Node left, Node right) {
    Node n = binary(Node::Kind::Compare, std::move(left), std::move(right));
    n.text = op;
    return n;
  }

  bool leaf(int depth) { return depth >= kMaxDepth || rng_.chance(0.3 + 0.15 * depth); }

  Node any(int depth) {
    switch (rng_.weighted({4, 3, 2, columns_of(VType::Text).empty() ? 0.3 : 2,
                           !features_.types ? 0 : columns_of(VType::Date).empty() ? 0.3 : 1.5})) {
      case 0: return integer(depth);
      case 1: return real(depth);
      case 2: return boolean(depth);
      case 3: return text(depth);
      default: return date(depth);
    }
  }

  // Whether to use one of issue #27's shapes here (never without the feature).
  bool new_shape(double p) { return features_.types && rng_.chance(p); }

  Node null_literal(VType type) {
    duckdb_only_ = true;
    return literal(type, "NULL");
  }

  // DECIMAL literals of several scales, not all binary fractions.
  Node decimal_literal_node() {
    static const std::vector<std::string> values = {"0.05",  "123.456",    "-7.0",     "0.001", "99.99",
                                                    "-0.5",  "1.10",       "12345.6789", "-1000.00", "0.0",
                                                    "0.333", "-42.4200", "12345678901234567890.5",
                                                    "-98765432109876543210987654321.25"};
    duckdb_only_ = true;
    return literal(VType::Double, rng_.pick(values));
  }

  Node date_literal() {
    static const std::vector<std::string> values = {"1998-12-01", "2000-02-29", "1970-01-01", "1999-12-31",
                                                    "2024-03-31", "0001-01-01", "9999-12-31", "1998-01-31"};
    std::vector<std::string> samples;
    for (const auto* c : columns_of(VType::Date)) samples.insert(samples.end(), c->samples.begin(), c->samples.end());
    duckdb_only_ = true;
    return literal(VType::Date, "DATE '" + (!samples.empty() && rng_.chance(0.5) ? rng_.pick(samples) : rng_.pick(values)) + "'");
  }

  Node date(int depth) {
    auto cols = columns_of(VType::Date);
    duckdb_only_ = true;
    if (leaf(depth)) {
      if (rng_.chance(0.05)) return null_literal(VType::Date);
      return !cols.empty() && rng_.chance(0.7) ? column(*rng_.pick(cols)) : date_literal();
    }
    switch (rng_.weighted({3, 3, features_.case_when ? 0.4 : 0, 0.5})) {
      case 0: {
        Node offset = rng_.chance(0.05) ? null_literal(VType::Int) : literal(VType::Int, std::to_string(rng_.range(-1000, 1000)));
        Node n = arith(rng_.chance(0.5) ? "+" : "-", typed_date(depth + 1), std::move(offset));
        n.type = VType::Date;
        return n;
      }
      case 1: {
        static const std::vector<std::string> units = {"DAY", "MONTH", "YEAR"};
        Node interval;
        interval.kind = Node::Kind::Interval;
        interval.type = VType::Int;
        interval.text = "INTERVAL '" + std::to_string(rng_.range(-40, 40)) + "' " + rng_.pick(units);
        Node n = arith(rng_.chance(0.5) ? "+" : "-", typed_date(depth + 1), std::move(interval));
        n.type = VType::Date;
        return n;
      }
      case 2: return case_when(VType::Date, depth);
      default: return cast_to(VType::Date, depth);
    }
  }

  // Whether `n` reads no column and has a NULL literal, a CASE, or a / or %
  // (by zero: NULL) in it: a constant that may fold to NULL, which takes its
  // type from beside it in gpusql and DuckDB (3 % 0.0 * 0.5 beside a BIGINT
  // CASE branch leaves the CASE a BIGINT) where SQLite's is REAL.
  static bool may_fold_to_null(const Node& n) {
    bool constant = true, null_source = false;
    std::function<void(const Node&)> visit = [&](const Node& x) {
      if (x.kind == Node::Kind::Column || x.kind == Node::Kind::RowId || x.kind == Node::Kind::Agg) constant = false;
      if (x.kind == Node::Kind::Case || (x.kind == Node::Kind::Literal && x.text == "NULL")) null_source = true;
      if (x.kind == Node::Kind::Arith && (x.text == "/" || x.text == "%")) null_source = true;
      for (const auto& a : x.args) visit(a);
    };
    visit(n);
    return constant && null_source;
  }

  // Whether `n` is an untyped NULL in both engines: a NULL literal, or a
  // CASE whose every result is one.
  static bool untyped_null(const Node& n) {
    if (n.kind == Node::Kind::Literal) return n.text == "NULL";
    if (n.kind != Node::Kind::Case) return false;
    for (std::size_t i = 1; i < n.args.size(); i += 2)
      if (!untyped_null(n.args[i])) return false;
    return untyped_null(n.args.back());
  }

  // A DATE that is no untyped NULL (EXTRACT, DATE - DATE and DATE +- days
  // need a type).
  Node typed_date(int depth) {
    Node d = date(depth);
    return untyped_null(d) ? date_literal() : d;
  }

  // CAST(x AS t) with t of `target`'s kind and x of any type (NULL too).
  Node cast_to(VType target, int depth) {
    static const std::map<VType, std::vector<std::string>> targets = {
        {VType::Int, {"INTEGER", "BIGINT"}},
        {VType::Double, {"DOUBLE", "REAL", "DECIMAL(9,2)", "DECIMAL(18,4)", "DECIMAL(5,0)", "DECIMAL(4,3)", "DECIMAL(18,0)",
                            "DECIMAL(30,2)", "DECIMAL(38,6)"}},
        {VType::Bool, {"BOOLEAN"}},
        {VType::Text, {"VARCHAR"}},
        {VType::Date, {"DATE"}}};
    duckdb_only_ = true;
    Node n;
    n.kind = Node::Kind::Cast;
    n.type = target;
    n.text = rng_.pick(targets.at(target));
    if (n.text.rfind("DECIMAL(", 0) == 0) n.scale = std::atoi(n.text.c_str() + n.text.find(',') + 1);
    static const std::vector<std::string> strings = {"'12'", "'-3'", "'2.5'", "'true'", "'false'", "'1998-12-01'",
                                                     "'abc'", "' 7 '", "'1e3'", "'0.125'", "'2147483648'", "''"};
    // DATE casts only to and from DATE and text: DuckDB has no cast between
    // DATE and the numbers or BOOLEAN (and gpusql none either).
    const bool to_date = target == VType::Date, from_date = target == VType::Date || target == VType::Text;
    switch (rng_.weighted({to_date ? 0.0 : 3, to_date ? 0.0 : 3, to_date ? 0.0 : 1.5, 1.5, from_date ? 1.5 : 0.0, 0.5})) {
      case 0: n.args.push_back(integer(depth + 1)); break;
      case 1: n.args.push_back(real(depth + 1)); break;
      case 2: n.args.push_back(boolean(std::max(depth + 1, kMaxDepth - 1))); break;
      case 3: {
        auto texts = columns_of(VType::Text);
        n.args.push_back(!texts.empty() && rng_.chance(0.3) ? column(*rng_.pick(texts)) : literal(VType::Text, rng_.pick(strings)));
        break;
      }
      case 4: n.args.push_back(date(depth + 1)); break;
      default: n.args.push_back(null_literal(VType::Int)); break;
    }
    return n;
  }

  Node number(int depth) { return rng_.chance(0.55) ? integer(depth) : real(depth); }

  Node int_literal() {
    static const std::vector<std::string> extremes = {"2147483647", "2147483648", "-2147483648",
                                                      "9223372036854775807", "0", "-1"};
    std::vector<std::string> samples;
    for (const auto* c : columns_of(VType::Int))
      samples.insert(samples.end(), c->samples.begin(), c->samples.end());
    switch (rng_.weighted({4, samples.empty() ? 0.0 : 3.0, 1.5, 0.7})) {
      case 0: return literal(VType::Int, std::to_string(rng_.range(-5, 5)));
      case 1: {
        std::string s = rng_.pick(samples);
        // -9223372036854775808 would read as minus a DOUBLE literal.
        if (s == "-9223372036854775808") s = "(-9223372036854775807 - 1)";
        return literal(VType::Int, s);
      }
      case 2: return literal(VType::Int, rng_.pick(extremes));
      default: return literal(VType::Int, "NULL");
    }
  }

  Node double_literal() {
    static const std::vector<std::string> values = {"0.5", "-2.5", "0.125", "3.75", "1e10", "-1e-5", "0.0", "-0.0",
                                                    "100.25", "1e100", "2.0", "-7.0"};
    // Column values only where their text is short and exactly a binary
    // fraction, which every parser reads the same.
    std::vector<std::string> samples;
    for (const auto* c : columns_of(VType::Double))
      for (const auto& s : c->samples) {
        double v = std::strtod(s.c_str(), nullptr);
        double scaled = v * 1024;
        if (s.size() <= 12 && std::fabs(scaled) < 0x1p53 && scaled == std::floor(scaled)) samples.push_back(s);
      }
    // No NULL here: a NULL literal takes the other operand's type in gpusql,
    // so it would make an integer expression that the tree calls DOUBLE.
    if (!samples.empty() && rng_.chance(0.4)) return literal(VType::Double, rng_.pick(samples));
    return literal(VType::Double, rng_.pick(values));
  }

  Node text_literal() {
    std::vector<std::string> samples;
    for (const auto* c : columns_of(VType::Text)) samples.insert(samples.end(), c->samples.begin(), c->samples.end());
    if (!samples.empty() && rng_.chance(0.5)) return literal(VType::Text, quote(rng_.pick(samples)));
    return literal(VType::Text, quote(rng_.pick(text_pool())));
  }

  // An integer column or a small literal.
  Node leaf_integer() {
    auto cols = columns_of(VType::Int);
    if (!cols.empty() && rng_.chance(0.7)) return column(*rng_.pick(cols));
    return literal(VType::Int, std::to_string(rng_.range(-9, 9)));
  }

  Node integer(int depth) {
    auto cols = columns_of(VType::Int);
    if (leaf(depth)) {
      const bool strings = features_.string_functions && !columns_of(VType::Text).empty();
      switch (rng_.weighted({cols.empty() ? 0.0 : 8.0, rowid_ok_ ? 0.7 : 0, 2.5, strings ? 0.6 : 0})) {
        case 0: return column(*rng_.pick(cols));
        case 3: return string_function(VType::Int, depth);
        case 1: {
          Node n;
          n.kind = Node::Kind::RowId;
          n.type = VType::Int;
          n.qualifier = rowid_qualifier_;
          return n;
        }
        default: return int_literal();
      }
    }
    double typed = features_.types ? 0.35 : 0;
    switch (rng_.weighted({1, 6, features_.case_when ? 0.7 : 0, typed, typed, typed})) {
      case 0: return unary(Node::Kind::Neg, integer(depth + 1));
      case 1: {
        static const std::vector<std::string> ops = {"+", "-", "*", "/", "%"};
        // Sums and differences nested 17-40 deep on the right, x - (y - (z -
        // ...)): 17 values at once in the written order, which failed; the
        // compiler now evaluates the inner operations first.
        if (new_shape(0.02)) {
          Node chain = leaf_integer();
          for (std::size_t k = 17 + rng_.below(24); k > 0; --k)
            chain = arith(rng_.chance(0.5) ? "+" : "-", leaf_integer(), std::move(chain));
          return chain;
        }
        Node a = integer(depth + 1), b = new_shape(0.05) ? null_literal(VType::Int) : integer(depth + 1);
        return arith(rng_.pick(ops), std::move(a), std::move(b));
      }
      case 2: return case_when(VType::Int, depth);
      case 3: {
        static const std::vector<std::string> fields = {"YEAR", "MONTH", "DAY"};
        Node n;
        n.kind = Node::Kind::Extract;
        n.type = VType::Int;
        n.text = rng_.pick(fields);
        n.args.push_back(typed_date(depth + 1));
        return n;
      }
      case 4: return arith("-", typed_date(depth + 1), typed_date(depth + 1));  // DATE - DATE: BIGINT days
      default: return cast_to(VType::Int, depth);
    }
  }

  Node real(int depth) {
    auto cols = columns_of(VType::Double);
    if (leaf(depth)) {
      if (new_shape(0.2)) return decimal_literal_node();
      return !cols.empty() && rng_.chance(0.75) ? column(*rng_.pick(cols)) : double_literal();
    }
    switch (rng_.weighted({1, 6, features_.cast ? 0.7 : 0, features_.case_when ? 0.5 : 0, features_.types ? 0.5 : 0})) {
      case 0: return unary(Node::Kind::Neg, real(depth + 1));
      case 1: {
        static const std::vector<std::string> ops = {"+", "-", "*", "/", "%"};
        Node a = real(depth + 1), b = number(depth + 1);
        if (new_shape(0.05)) b = null_literal(VType::Double);  // takes a's type
        // gpusql (as DuckDB) binds DECIMAL arithmetic beside a constant that
        // is NULL as an untyped NULL, typed by its context; SQLite's text
        // would call it REAL.
        if (may_fold_to_null(a) || may_fold_to_null(b)) duckdb_only_ = true;
        if (rng_.chance(0.5)) std::swap(a, b);
        return arith(rng_.pick(ops), std::move(a), std::move(b));
      }
      case 4: return cast_to(VType::Double, depth);
      case 2: {
        Node n = unary(Node::Kind::Cast, integer(depth + 1));
        n.type = VType::Double;
        return n;
      }
      default: return case_when(VType::Double, depth);
    }
  }

  Node text(int depth) {
    auto cols = columns_of(VType::Text);
    if (features_.case_when && depth < kMaxDepth && rng_.chance(0.1)) return case_when(VType::Text, depth);
    if (depth < kMaxDepth && new_shape(0.1)) return cast_to(VType::Text, depth);
    if (features_.string_functions && !cols.empty() && rng_.chance(0.15)) return string_function(VType::Text, depth);
    return !cols.empty() && rng_.chance(0.8) ? column(*rng_.pick(cols)) : text_literal();
  }

  // A string function of a text column (or of another one of these, for
  // text) and constants, of type `type`: Text, Int or Bool.
  Node string_function(VType type, int depth) {
    duckdb_only_ = true;
    Node n;
    n.kind = Node::Kind::Function;
    n.type = type;
    auto texts = columns_of(VType::Text);
    n.args.push_back(depth < kMaxDepth && rng_.chance(0.2) ? string_function(VType::Text, depth + 1)
                                                            : column(*rng_.pick(texts)));
    static const std::vector<std::string> pieces = {"a", "b", "ab", "x", " ", "é", "", "zz", ","};
    auto piece = [&] { return literal(VType::Text, quote(rng_.pick(pieces))); };
    auto count = [&](int low, int high) { return literal(VType::Int, std::to_string(rng_.range(low, high))); };
    if (type == VType::Int) {
      n.text = rng_.pick(std::vector<std::string>{"strpos", "position", "length", "strlen", "ascii"});
      if (n.text == "strpos" || n.text == "position") n.args.push_back(piece());
    } else if (type == VType::Bool) {
      n.text = rng_.pick(std::vector<std::string>{"starts_with", "ends_with", "contains"});
      n.args.push_back(piece());
    } else {
      n.text = rng_.pick(std::vector<std::string>{"replace", "left", "right", "lpad", "rpad", "repeat", "trim",
                                                  "ltrim", "substring", "||", "concat"});
      if (n.text == "||") {  // two columns' strings, now and then a literal's
        n.args.push_back(rng_.chance(0.8) ? column(*rng_.pick(texts)) : piece());
        if (rng_.chance(0.5)) std::swap(n.args[0], n.args[1]);
      } else if (n.text == "concat") {  // NULLs read as ''
        for (std::size_t i = 0, more = 1 + rng_.below(2); i < more; ++i)
          n.args.push_back(rng_.chance(0.6) ? column(*rng_.pick(texts)) : piece());
      } else if (n.text == "replace") {
        n.args.push_back(piece());
        n.args.push_back(piece());
      } else if (n.text == "left" || n.text == "right") {
        n.args.push_back(count(-3, 6));
      } else if (n.text == "lpad" || n.text == "rpad") {
        n.args.push_back(count(-1, 8));
        n.args.push_back(literal(VType::Text, quote(rng_.pick(std::vector<std::string>{"x", "yz", "é"}))));
      } else if (n.text == "repeat") {
        n.args.push_back(count(-1, 3));
      } else if (n.text == "ltrim") {
        n.args.push_back(piece());
      } else if (n.text == "substring") {
        // D27: no negative start, and a negative length only near the start.
        const int start = rng_.range(0, 5);
        n.args.push_back(literal(VType::Int, std::to_string(start)));
        if (rng_.chance(0.7)) n.args.push_back(start <= 2 ? count(-2, 4) : count(0, 4));
      }
    }
    return n;
  }

  // (a, b[, c]) op (d, e[, f]), or (a, b) [NOT] IN a list of rows: each
  // position of one type, integers or text.
  Node row_condition(int depth) {
    sqlite_only_ = true;
    const bool texts = !columns_of(VType::Text).empty();
    std::vector<VType> types(2 + rng_.below(2));
    for (VType& t : types) t = texts && rng_.chance(0.3) ? VType::Text : VType::Int;
    auto row = [&] {
      Node r;
      r.kind = Node::Kind::Row;
      r.type = VType::Text;  // no operand of a Row is read as REAL (Compare's `mixed`)
      for (VType t : types) r.args.push_back(t == VType::Text ? text(depth + 1) : integer(depth + 1));
      return r;
    };
    if (features_.in_list && rng_.chance(0.3)) {
      Node n;
      n.kind = Node::Kind::In;
      n.type = VType::Bool;
      n.negated = rng_.chance(0.3);
      n.args.push_back(row());
      for (std::size_t i = 0, count = 1 + rng_.below(3); i < count; ++i) n.args.push_back(row());
      return n;
    }
    return compare(comparison_op(), row(), row());
  }

  // A comparison operator; now and then IS [NOT] DISTINCT FROM (never NULL).
  std::string comparison_op() {
    static const std::vector<std::string> ops = {"=", "<>", "<", "<=", ">", ">=", "!="};
    if (rng_.chance(0.05)) return rng_.chance(0.5) ? "IS DISTINCT FROM" : "IS NOT DISTINCT FROM";
    return rng_.pick(ops);
  }

  Node comparison(int depth) {
    auto texts = columns_of(VType::Text);
    switch (rng_.weighted({8, texts.empty() ? 0.0 : 2.5, 0.5, !features_.types ? 0 : columns_of(VType::Date).empty() ? 0.3 : 2})) {
      case 0: {
        Node a = number(depth + 1);
        Node b = new_shape(0.05) ? null_literal(a.type) : number(depth + 1);
        return compare(comparison_op(), std::move(a), std::move(b));
      }
      case 3: {
        Node a = date(depth + 1);
        Node b = rng_.chance(0.5) ? date_literal() : date(depth + 1);
        if (rng_.chance(0.5)) std::swap(a, b);
        return compare(comparison_op(), std::move(a), std::move(b));
      }
      case 1: {
        Node col = column(*rng_.pick(texts));
        Node other;
        switch (rng_.weighted({8, 1, 0.3, features_.null_text_compare ? 0.3 : 0})) {
          case 0: other = text_literal(); break;
          case 1: other = col; break;
          case 2: other = column(*rng_.pick(texts)); break;
          default: other = literal(VType::Text, "NULL"); break;
        }
        if (rng_.chance(0.3)) std::swap(col, other);
        return compare(comparison_op(), std::move(col), std::move(other));
      }
      default: return compare(rng_.chance(0.5) ? "=" : "<>", boolean(depth + 1), boolean(depth + 1));
    }
  }

  Node boolean(int depth) {
    if (leaf(depth)) {
      if (rng_.chance(0.06)) return literal(VType::Bool, rng_.pick(std::vector<std::string>{"TRUE", "FALSE", "NULL"}));
      if (features_.string_functions && !columns_of(VType::Text).empty() && rng_.chance(0.06))
        return string_function(VType::Bool, depth);
      return comparison(kMaxDepth - 1);
    }
    auto texts = columns_of(VType::Text);
    switch (rng_.weighted({4, 1, 5, features_.between ? 0.6 : 0, features_.in_list ? 0.6 : 0,
                           features_.like && !texts.empty() ? 0.6 : 0, features_.is_null ? 0.6 : 0,
                           features_.types ? 0.3 : 0, features_.subquery && !in_subquery_ ? 0.6 : 0,
                           features_.row_values ? 0.5 : 0, features_.case_when ? 0.8 : 0})) {
      case 9: return row_condition(depth);
      case 10: {
        // COALESCE(c, TRUE|FALSE) or NULLIF(c, ...): the binder binds clones
        // of c (once, two subqueries in two of them were taken for one).
        Node n;
        n.kind = Node::Kind::Function;
        n.type = VType::Bool;
        n.text = rng_.chance(0.7) ? "coalesce" : "nullif";
        n.args.push_back(features_.subquery && !in_subquery_ && rng_.chance(0.5) ? subquery_condition(depth + 1)
                                                                                  : boolean(depth + 1));
        n.args.push_back(literal(VType::Bool, rng_.chance(0.5) ? "TRUE" : "FALSE"));
        return n;
      }
      case 0: return binary(rng_.chance(0.5) ? Node::Kind::And : Node::Kind::Or, boolean(depth + 1), boolean(depth + 1));
      case 8: return subquery_condition(depth);
      case 1: return unary(Node::Kind::Not, boolean(depth + 1));
      case 2: return comparison(depth);
      case 3: {
        Node n;
        n.kind = Node::Kind::Between;
        n.type = VType::Bool;
        n.negated = rng_.chance(0.3);
        if (!texts.empty() && rng_.chance(0.2)) {
          n.args = {column(*rng_.pick(texts)), text_literal(), text_literal()};
        } else {
          bool is_double = rng_.chance(0.4);
          for (int i = 0; i < 3; ++i) n.args.push_back(is_double ? real(depth + 1) : integer(depth + 1));
        }
        return n;
      }
      case 4: {
        Node n;
        n.kind = Node::Kind::In;
        n.type = VType::Bool;
        n.negated = rng_.chance(0.3);
        bool is_text = !texts.empty() && rng_.chance(0.3);
        bool is_double = !is_text && rng_.chance(0.3);
        n.args.push_back(is_text ? column(*rng_.pick(texts)) : is_double ? real(depth + 1) : integer(depth + 1));
        // Past 16 values the engine searches a sorted set, not an OR chain;
        // the same list written out as ORs of equalities too (n.text "or").
        const bool long_list = new_shape(0.15);
        std::size_t count = long_list ? 17 + rng_.below(12) : 1 + rng_.below(4);
        for (std::size_t i = 0; i < count; ++i)
          n.args.push_back(is_text ? text_literal() : is_double ? double_literal() : int_literal());
        if (long_list && rng_.chance(0.4)) n.text = "or";
        return n;
      }
      case 5: {
        Node n;
        n.kind = Node::Kind::Like;
        n.type = VType::Bool;
        n.negated = rng_.chance(0.3);
        static const std::vector<std::string> patterns = {"a%", "%b", "%a%", "_", "__", "a_c", "%", "", "A%", "ab",
                                                          "%x%", "_b%"};
        n.args = {column(*rng_.pick(texts)), literal(VType::Text, quote(rng_.pick(patterns)))};
        return n;
      }
      case 7: return cast_to(VType::Bool, depth);
      default: {
        Node n;
        n.kind = Node::Kind::IsNull;
        n.type = VType::Bool;
        n.negated = rng_.chance(0.5);
        n.args.push_back(any(depth + 1));
        return n;
      }
    }
  }

  // Table t's columns as a subquery sees them (qualified s).
  std::vector<ColumnRef> inner_scope(std::size_t t) const {
    std::vector<ColumnRef> out;
    for (ColumnRef c : columns_[t]) {
      c.qualifier = "s";
      if (features_.types || (c.type != VType::Date && c.scale < 0)) out.push_back(c);
    }
    return out;
  }

  // `build()` run with table t's columns in scope, as a subquery's parts
  // (no rowid, no subquery in them).
  template <class F>
  auto inside(std::size_t t, F&& build) {
    std::vector<ColumnRef> outer = std::move(scope_);
    scope_ = inner_scope(t);
    const bool rowid = rowid_ok_;
    rowid_ok_ = false;
    in_subquery_ = true;
    auto result = build();
    scope_ = std::move(outer);
    rowid_ok_ = rowid;
    in_subquery_ = false;
    return result;
  }

  // A subquery's WHERE of its own columns: one comparison without arithmetic.
  Node local_condition() { return comparison(kMaxDepth - 1); }

  // An aggregate of a subquery's column that every engine computes alike:
  // MIN/MAX, SUM and AVG of INTEGER columns (whose sums fit), SUM of a
  // DECIMAL, COUNT(*) (0, not NULL, where no row matches).
  std::optional<Node> scalar_aggregate() {
    std::vector<const ColumnRef*> numbers, integers, decimals;
    for (const ColumnRef& c : scope_) {
      if (c.type != VType::Int && c.type != VType::Double) continue;
      numbers.push_back(&c);
      if (c.type == VType::Int && c.name[0] == 'i') integers.push_back(&c);
      if (c.scale >= 0) decimals.push_back(&c);
    }
    switch (rng_.weighted({numbers.empty() ? 0.0 : 3, integers.empty() ? 0.0 : 2, integers.empty() ? 0.0 : 1.5, 1,
                           decimals.empty() ? 0.0 : 1})) {
      case 0: {
        Node c = column(*rng_.pick(numbers));
        VType type = c.type;
        return agg(rng_.chance(0.5) ? "MIN" : "MAX", std::move(c), type);
      }
      case 1: return agg("SUM", column(*rng_.pick(integers)), VType::Int);
      case 2: return agg("AVG", column(*rng_.pick(integers)), VType::Double);
      case 4: return agg("SUM", column(*rng_.pick(decimals)), VType::Double);
      default: return count_star();
    }
  }

  // A correlated scalar subquery's value without an aggregate: an INTEGER
  // or DECIMAL column (DuckDB's error where a row finds more than one row,
  // NULL where it finds none; SQLite would take the first row instead).
  std::optional<Node> scalar_row_value() {
    std::vector<const ColumnRef*> numbers;
    for (const ColumnRef& c : scope_)
      if (c.type == VType::Int || c.scale >= 0) numbers.push_back(&c);
    if (numbers.empty()) return std::nullopt;
    duckdb_only_ = true;
    return column(*rng_.pick(numbers));
  }

  // 2^64 as a 128-bit DECIMAL, ((SELECT SUM(s.d) FROM t AS s) * 0 +
  // 4294967296) * 4294967296 (NULL where the sum is); none when table t has
  // no DECIMAL column.
  std::optional<Node> two_to_64(std::size_t t) {
    std::optional<Node> sum = inside(t, [&]() -> std::optional<Node> {
      std::vector<const ColumnRef*> decimals;
      for (const ColumnRef& c : scope_)
        if (c.scale >= 0) decimals.push_back(&c);
      if (decimals.empty()) return std::nullopt;
      return agg("SUM", column(*rng_.pick(decimals)), VType::Double);
    });
    if (!sum) return std::nullopt;
    Node sub = subquery_node(Node::Kind::Scalar, t, {std::move(*sum)});
    sub.type = VType::Double;
    sub.scale = decimal_scale(sub.inner[0]).value_or(-1);
    Node zero = arith("*", std::move(sub), literal(VType::Int, "0"));
    return arith("*", arith("+", std::move(zero), literal(VType::Int, "4294967296")), literal(VType::Int, "4294967296"));
  }

  Node subquery_node(Node::Kind kind, std::size_t t, std::vector<Node> inner) {
    Node n;
    n.kind = kind;
    n.type = VType::Bool;
    n.text = tables_[t];
    n.inner = std::move(inner);
    return n;
  }

  // An uncorrelated subquery in a condition: x op (SELECT aggregate ...),
  // x [NOT] IN (SELECT s.c ...), [NOT] EXISTS (SELECT * ...).
  Node subquery_condition(int depth) {
    static const std::vector<std::string> ops = {"=", "<>", "<", "<=", ">", ">="};
    const std::size_t t = rng_.below(tables_.size());
    switch (rng_.below(4)) {
      case 3:
        if (std::optional<Node> c = correlated_condition(true)) return *c;
        return comparison(depth);
      case 0: {
        std::vector<Node> parts = inside(t, [&] {
          std::vector<Node> p = {*scalar_aggregate()};
          if (rng_.chance(0.5)) p.push_back(local_condition());
          return p;
        });
        Node sub = subquery_node(Node::Kind::Scalar, t, std::move(parts));
        sub.type = sub.inner[0].type;
        sub.scale = decimal_scale(sub.inner[0]).value_or(-1);
        Node x = sub.type == VType::Int && rng_.chance(0.6) ? integer(depth + 1) : number(depth + 1);
        if (rng_.chance(0.5)) return compare(rng_.pick(ops), std::move(x), std::move(sub));
        return compare(rng_.pick(ops), std::move(sub), std::move(x));
      }
      case 1: {
        // x and the subquery's column of one kind: integers, strings, DATEs.
        std::vector<VType> kinds = {VType::Int};
        if (!columns_of(VType::Text).empty()) kinds.push_back(VType::Text);
        if (features_.types) kinds.push_back(VType::Date);
        const VType kind = rng_.pick(kinds);
        std::vector<Node> parts = inside(t, [&] {
          std::vector<Node> p;
          std::vector<const ColumnRef*> candidates = columns_of(kind);
          if (candidates.empty()) return p;
          p.push_back(column(*rng_.pick(candidates)));
          if (rng_.chance(0.5)) p.push_back(local_condition());
          return p;
        });
        if (parts.empty()) return comparison(depth);
        Node n = subquery_node(Node::Kind::InSelect, t, std::move(parts));
        n.negated = rng_.chance(0.4);
        n.args.push_back(kind == VType::Int    ? integer(depth + 1)
                         : kind == VType::Date ? typed_date(depth + 1)
                                               : column(*rng_.pick(columns_of(VType::Text))));
        if (rng_.chance(0.4)) {  // x op ANY|ALL (SELECT ...): SQLite has none
          n.kind = Node::Kind::Quantified;
          n.quantifier = rng_.pick(ops) + (rng_.chance(0.5) ? " ALL" : rng_.chance(0.5) ? " ANY" : " SOME");
          duckdb_only_ = true;
        }
        return n;
      }
      default: {
        std::vector<Node> parts = inside(t, [&] {
          std::vector<Node> p;
          if (rng_.chance(0.8)) p.push_back(local_condition());
          return p;
        });
        Node n = subquery_node(Node::Kind::Exists, t, std::move(parts));
        n.negated = rng_.chance(0.4);
        return n;
      }
    }
  }

  // A condition with a correlated subquery (s.k = outer.k, k integers,
  // strings or DATEs, and maybe s.c <> outer.c; or s.c op outer.c, op a
  // range comparison of integers or DATEs, alone or beside the equality):
  // [NOT] EXISTS, x [NOT] IN (SELECT s.c ...), or x op (SELECT aggregate
  // ...). Nullopt when no column pair can correlate.
  std::optional<Node> correlated_condition(bool anywhere) {
    const TableRef& from = outer_from_;
    const std::size_t t = rng_.below(tables_.size());
    std::vector<ColumnRef> inner = inner_scope(t);
    std::vector<std::pair<ColumnRef, ColumnRef>> pairs;  // (inner, outer)
    for (const ColumnRef& o : scope_)
      for (const ColumnRef& i : inner)
        if (o.type == i.type && (o.type == VType::Int || o.type == VType::Text || o.type == VType::Date))
          pairs.push_back({i, o});
    if (pairs.empty()) return std::nullopt;
    auto [i, o] = rng_.pick(pairs);
    // An unqualified outer column would name the subquery's own. A nested
    // subquery's may stay bare where no other outer column and neither
    // subquery's table has its name (binder.cpp's outer_names_qualified()).
    const bool bare_outer = nesting_ && new_shape(0.3);
    auto outer_column = [&](ColumnRef c) {
      auto named = [&](const std::vector<ColumnRef>& columns) {
        return std::count_if(columns.begin(), columns.end(), [&](const ColumnRef& x) { return x.name == c.name; });
      };
      if (bare_outer && named(scope_) == 1 && named(hidden_scope_) <= 1 && !named(columns_[t]) &&
          !named(columns_[enclosing_table_])) {
        duckdb_only_ = true;
        c.qualifier.clear();
        return column(c);
      }
      if (c.qualifier.empty()) c.qualifier = from.alias.empty() ? from.table : from.alias;
      return column(c);
    };
    std::optional<Node> value;
    bool row_value = false;
    // A nested one is an EXISTS: the x of `x IN` or `x op (SELECT ...)`
    // would be this query's expression, and its bare names would read the
    // subquery it is nested in.
    if (nesting_) {
    } else if (rng_.chance(anywhere ? 0.4 : 0.6)) {
      value = inside(t, [&] { return scalar_aggregate(); });
    } else if (new_shape(0.25)) {
      value = inside(t, [&] { return scalar_row_value(); });  // SQLite takes the first row
      row_value = value.has_value();
    }
    Node where = compare("=", column(i), outer_column(o));
    std::vector<std::pair<ColumnRef, ColumnRef>> ordered;
    for (const auto& [a, b] : pairs)
      if (a.type != VType::Text) ordered.push_back({a, b});
    if (!ordered.empty() && rng_.chance(0.35)) {  // planner/decorrelation.hpp
      static const std::vector<std::string> ranges = {"<", "<=", ">", ">="};
      auto [a, b] = rng_.pick(ordered);
      Node range = compare(rng_.pick(ranges), column(a), outer_column(b));
      where = rng_.chance(0.5) ? std::move(range) : binary(Node::Kind::And, std::move(where), std::move(range));
    }
    if (!value && !nesting_ && rng_.chance(0.25)) {  // x [NOT] IN (SELECT s.c ... correlated)
      std::vector<ColumnRef> items;
      for (const ColumnRef& c : inner)
        if (c.type == VType::Int || c.type == VType::Date || (c.type == VType::Text && !columns_of(VType::Text).empty()))
          items.push_back(c);
      if (!items.empty()) {
        const ColumnRef c = rng_.pick(items);
        Node x = c.type == VType::Int ? integer(2) : c.type == VType::Date ? typed_date(2)
                                                                         : column(*rng_.pick(columns_of(VType::Text)));
        if (rng_.chance(0.4)) where = binary(Node::Kind::And, std::move(where), inside(t, [&] { return local_condition(); }));
        Node n = subquery_node(Node::Kind::InSelect, t, {column(c), std::move(where)});
        n.negated = rng_.chance(0.4);
        if (new_shape(0.15)) {  // binder.cpp's in_by_outer_values() over groups
          duckdb_only_ = true;
          n.tail = grouped_tail(inner, ordered, &c);
        } else if (new_shape(0.1)) {  // binder.cpp's in_first_row()
          duckdb_only_ = true;
          n.tail = first_row_tail(inner);
        }
        n.args.push_back(std::move(x));
        return n;
      }
    }
    if (!value && rng_.chance(0.3)) {  // EXISTS only
      std::vector<std::pair<ColumnRef, ColumnRef>> others;
      for (const auto& [a, b] : pairs)
        if (a.type != VType::Text) others.push_back({a, b});
      if (!others.empty()) {
        auto [a, b] = rng_.pick(others);
        Node unequal = compare("<>", column(a), outer_column(b));
        unequal.negated = true;  // D12 of duckdb_oracle.hpp
        where = binary(Node::Kind::And, std::move(where), std::move(unequal));
      }
    }
    if (rng_.chance(0.4)) where = binary(Node::Kind::And, std::move(where), inside(t, [&] { return local_condition(); }));
    if (!nesting_ && new_shape(0.15)) {
      // A correlated subquery nested in this one that reads the query two
      // levels out (its own alias s hides this one's).
      nesting_ = true;
      enclosing_table_ = t;
      std::optional<Node> nested = correlated_condition(false);
      nesting_ = false;
      if (nested) where = binary(Node::Kind::And, std::move(where), std::move(*nested));
    }
    if (rng_.chance(0.15)) {  // an outer column a NULL does not reject: D's NULL joins by IS NOT DISTINCT FROM
      Node is_null;
      is_null.kind = Node::Kind::IsNull;
      is_null.type = VType::Bool;
      is_null.args.push_back(outer_column(o));
      where = binary(Node::Kind::Or, std::move(where), std::move(is_null));
    }
    if (!value) {
      Node n = subquery_node(Node::Kind::Exists, t, {std::move(where)});
      n.negated = rng_.chance(0.4);
      if (new_shape(0.2)) {  // groups that HAVING keeps (binder.cpp's exists_by_outer_values())
        duckdb_only_ = true;
        n.item = "1";
        // GROUP BY the item's alias (binder.cpp's aliases_resolved()).
        n.tail = grouped_tail(inner, ordered, nullptr, new_shape(0.3) ? &n.item : nullptr);
      } else if (new_shape(0.1)) {  // binder.cpp's exists_past_rows()
        duckdb_only_ = true;
        static const std::vector<std::string> tails = {" LIMIT 0", " OFFSET 1", " LIMIT 2 OFFSET 1", " OFFSET 2"};
        n.tail = rng_.pick(tails);
        if (!inner.empty() && rng_.chance(0.4)) {  // DISTINCT rows past the offset
          const ColumnRef& c = rng_.pick(inner);
          n.item = "DISTINCT " + c.qualifier + "." + c.name;
        }
      } else if (new_shape(0.1)) {  // binder.cpp's union_operands(): EXISTS A OR EXISTS B
        duckdb_only_ = true;
        n.item = "1";
        auto [a, b] = rng_.pick(pairs);
        n.tail = std::string(rng_.chance(0.5) ? " UNION ALL" : " UNION") + " SELECT 1 FROM " + n.text + " AS s WHERE " +
                 render(compare("=", column(a), outer_column(b)), Dialect::Duckdb);
      } else if (rng_.chance(0.15)) {
        n.tail = " LIMIT 1";  // asks for a row all the same
      }
      return n;
    }
    Node sub = subquery_node(Node::Kind::Scalar, t, {*value, std::move(where)});
    if (!row_value && new_shape(0.1)) {  // binder.cpp's grouped_scalar_by_outer_values()
      duckdb_only_ = true;
      sub.tail = grouped_tail(inner, ordered);
    } else if (row_value && rng_.chance(0.25)) sub.distinct_rows = true;
    else if (row_value && rng_.chance(0.35)) sub.tail = first_row_tail(inner);
    sub.type = value->type;
    sub.scale = decimal_scale(*value).value_or(-1);
    static const std::vector<std::string> ops = {"=", "<>", "<", "<=", ">", ">="};
    return compare(rng_.pick(ops), number(2), std::move(sub));
  }

  // " ORDER BY [s.c,] s.rowid LIMIT 1", each key ASC or DESC, NULLS FIRST or
  // not: the row's own order last, so no ties, whose winner DuckDB leaves
  // open; a column's order first (binder.cpp's first_key_fixed()).
  std::string first_row_tail(const std::vector<ColumnRef>& inner) {
    std::string tail = " ORDER BY ";
    if (!inner.empty() && rng_.chance(0.4)) {
      const ColumnRef& c = rng_.pick(inner);
      tail += (c.qualifier.empty() ? "" : c.qualifier + ".") + c.name + (rng_.chance(0.5) ? " DESC" : "") +
              (rng_.chance(0.3) ? " NULLS FIRST" : "") + ", ";
    }
    return tail + "s.rowid" + (rng_.chance(0.5) ? " DESC" : "") + (rng_.chance(0.3) ? " NULLS FIRST" : "") + " LIMIT 1";
  }

  // " [GROUP BY s.c] HAVING h" for a correlated EXISTS: h counts the
  // group's rows, or compares an extreme of its column with the outer one
  // of a (subquery column, outer column) pair of `ordered`. Without GROUP BY
  // the one group may be empty (COUNT(*) = 0 keeps it).
  // `key`: GROUP BY that column (the item of x IN (SELECT s.c ...)).
  // `aliased_item`: an EXISTS's item, made "s.c AS gk" for GROUP BY gk.
  std::string grouped_tail(const std::vector<ColumnRef>& inner,
                           const std::vector<std::pair<ColumnRef, ColumnRef>>& ordered,
                           const ColumnRef* key = nullptr, std::string* aliased_item = nullptr) {
    auto text = [](const ColumnRef& c) { return (c.qualifier.empty() ? "" : c.qualifier + ".") + c.name; };
    std::string tail;
    if (key) {
      tail = " GROUP BY " + text(*key);
    } else if (!inner.empty() && rng_.chance(0.7)) {
      const ColumnRef& c = rng_.pick(inner);
      tail = " GROUP BY " + (aliased_item ? "gk" : text(c));
      if (aliased_item) *aliased_item = text(c) + " AS gk";
    }
    static const std::vector<std::string> counts = {"COUNT(*) > 1", "COUNT(*) >= 2", "COUNT(*) = 1", "COUNT(*) = 0"};
    if (ordered.empty() || rng_.chance(0.5)) return tail + " HAVING " + rng_.pick(counts);
    auto [a, b] = rng_.pick(ordered);
    if (b.qualifier.empty()) b.qualifier = outer_from_.alias.empty() ? outer_from_.table : outer_from_.alias;
    static const std::vector<std::string> ops = {"<", "<=", ">", ">=", "="};
    return tail + " HAVING " + (rng_.chance(0.5) ? "MAX(" : "MIN(") + text(a) + ") " + rng_.pick(ops) + " " + text(b);
  }

  // A subquery correlated with an aggregate query's GROUP BY column key
  // (s.k = key): x [NOT] IN (SELECT s.c ...) with x that key or an aggregate
  // (MIN, MAX, COUNT(*)) of its type, [NOT] EXISTS (SELECT * ...), or
  // (SELECT aggregate ...) -- compared with COUNT(*) where a condition
  // (`condition`: HAVING) goes. Nullopt when no key is a column of a type a
  // subquery's column shares.
  std::optional<Node> correlated_over_groups(const std::vector<Node>& keys, bool condition) {
    std::vector<const Node*> candidates;
    for (const Node& k : keys)
      if (k.kind == Node::Kind::Column && k.scale < 0 &&
          (k.type == VType::Int || k.type == VType::Text || k.type == VType::Date))
        candidates.push_back(&k);
    if (candidates.empty()) return std::nullopt;
    const Node& key = *rng_.pick(candidates);
    const std::size_t t = rng_.below(tables_.size());
    std::vector<ColumnRef> same;
    for (const ColumnRef& c : inner_scope(t))
      if (c.type == key.type && c.scale < 0) same.push_back(c);
    if (same.empty()) return std::nullopt;
    Node outer_key = key;  // an unqualified one would name the subquery's own column
    if (outer_key.qualifier.empty()) outer_key.qualifier = outer_from_.alias.empty() ? outer_from_.table : outer_from_.alias;
    Node where = compare("=", column(rng_.pick(same)), std::move(outer_key));
    switch (rng_.below(3)) {
      case 1: {
        Node n = subquery_node(Node::Kind::Exists, t, {std::move(where)});
        n.negated = rng_.chance(0.4);
        return n;
      }
      case 2: {
        std::optional<Node> value = inside(t, [&] { return scalar_aggregate(); });
        if (!value) break;
        Node sub = subquery_node(Node::Kind::Scalar, t, {*value, std::move(where)});
        sub.type = value->type;
        sub.scale = decimal_scale(*value).value_or(-1);
        if (!condition) return sub;
        static const std::vector<std::string> ops = {"=", "<>", "<", "<=", ">", ">="};
        return compare(rng_.pick(ops), count_star(), std::move(sub));
      }
      default: break;
    }
    Node x = key;
    std::vector<ColumnRef> outer_same;
    for (const ColumnRef& c : scope_)
      if (c.type == key.type && c.scale < 0) outer_same.push_back(c);
    if (key.type == VType::Int && rng_.chance(0.25)) x = count_star();
    else if (!outer_same.empty() && rng_.chance(0.4))
      x = agg(rng_.chance(0.5) ? "MIN" : "MAX", column(rng_.pick(outer_same)), key.type);
    Node n = subquery_node(Node::Kind::InSelect, t, {column(rng_.pick(same)), std::move(where)});
    n.negated = rng_.chance(0.4);
    n.args.push_back(std::move(x));
    return n;
  }

  Node case_when(VType type, int depth) {
    Node n;
    n.kind = Node::Kind::Case;
    n.type = type;
    // Past 16 branches `x = constant` with constant results the engine
    // searches the sorted keys (a CASE map), not a chain of choices.
    if (type != VType::Date && type != VType::Bool && new_shape(0.08)) {
      Node x = integer(depth + 1);
      const std::size_t branches = 17 + rng_.below(8);
      for (std::size_t i = 0; i < branches; ++i) {
        n.args.push_back(compare("=", x, int_literal()));
        n.args.push_back(type == VType::Int ? int_literal() : type == VType::Double ? double_literal() : text_literal());
      }
      n.args.push_back(type == VType::Int ? int_literal() : type == VType::Double ? double_literal() : text_literal());
      return n;
    }
    auto value = [&]() {
      if (type == VType::Int && !features_.case_int_widths) return arith("+", integer(depth + 1), literal(VType::Int, "0"));
      if (type == VType::Int) return integer(depth + 1);
      if (type == VType::Double) return number(depth + 1);
      if (type == VType::Date) return date(depth + 1);
      return text(kMaxDepth);
    };
    // A chain of 8-15 range branches on one x, most results constants: it
    // held two values more per branch and failed past 7; now 3 deep. One in
    // three has 30-49 branches, past the 128 operations a program holds in
    // itself (the rest from managed memory).
    if (type != VType::Bool && new_shape(0.06)) {
      Node x = integer(depth + 1);
      static const std::vector<std::string> ops = {"<", ">=", "="};
      const std::size_t branches = rng_.chance(0.33) ? 30 + rng_.below(20) : 8 + rng_.below(8);
      for (std::size_t i = 0; i < branches; ++i) {
        n.args.push_back(compare(rng_.pick(ops), x, int_literal()));
        const bool constant = type != VType::Date && rng_.chance(0.7);
        n.args.push_back(!constant ? value()
                         : type == VType::Int    ? int_literal()
                         : type == VType::Double ? double_literal()
                                                 : text_literal());
      }
      n.args.push_back(type == VType::Double ? real(depth + 1) : value());
      return n;
    }
    std::size_t whens = 1 + rng_.below(2);
    for (std::size_t i = 0; i < whens; ++i) {
      n.args.push_back(boolean(depth + 1));
      n.args.push_back(new_shape(0.08) ? null_literal(type) : value());
    }
    // A DOUBLE CASE needs one DOUBLE branch; integer ones alone make an integer.
    n.args.push_back(type == VType::Double ? real(depth + 1) : value());
    return n;
  }

  Node agg(const std::string& function, Node argument, VType type) {
    Node n;
    n.kind = Node::Kind::Agg;
    n.text = function;
    n.type = type;
    n.args.push_back(std::move(argument));
    return n;
  }

  Node count_star() {
    Node n;
    n.kind = Node::Kind::Agg;
    n.text = "COUNT";
    n.star = true;
    n.type = VType::Int;
    return n;
  }

  // An aggregate whose value both engines compute exactly (integers, MIN, MAX).
  Node exact_int_aggregate() {
    switch (rng_.below(4)) {
      case 0: return count_star();
      case 1: return agg("COUNT", any(2), VType::Int);
      case 2: return agg("SUM", integer(2), VType::Int);
      default: return agg(rng_.chance(0.5) ? "MIN" : "MAX", integer(2), VType::Int);
    }
  }

  // A DECIMAL for SUM to add: a DECIMAL column, or an integer times a
  // DECIMAL literal.
  Node decimal_argument() {
    std::vector<const ColumnRef*> decimals;
    for (const auto* c : columns_of(VType::Double))
      if (c->scale >= 0) decimals.push_back(c);
    if (!decimals.empty() && rng_.chance(0.7)) return column(*rng_.pick(decimals));
    return arith("*", integer(2), decimal_literal_node());
  }

  // An expression over a DECIMAL SUM, a 128-bit DECIMAL(38, s) in both
  // engines: 128-bit arithmetic, comparisons, and CASTs that narrow it.
  Node wide_item() {
    duckdb_only_ = true;
    Node sum = agg("SUM", decimal_argument(), VType::Double);
    switch (rng_.below(5)) {
      case 0: {
        static const std::vector<std::string> ops = {"+", "-", "*"};
        Node right = rng_.chance(0.5) ? agg("SUM", decimal_argument(), VType::Double) : decimal_literal_node();
        return arith(rng_.pick(ops), std::move(sum), std::move(right));
      }
      case 1: {
        static const std::vector<std::string> cmp = {"=", "<>", "<", ">="};
        return compare(rng_.pick(cmp), std::move(sum), rng_.chance(0.5) ? decimal_literal_node() : int_literal());
      }
      case 2:
      case 3: {
        static const std::vector<std::string> targets = {"DECIMAL(18,2)", "DECIMAL(9,2)", "DECIMAL(18,0)", "DECIMAL(5,0)",
                                                         "DOUBLE", "BIGINT"};
        Node n;
        n.kind = Node::Kind::Cast;
        n.text = rng_.pick(targets);
        n.type = n.text == "BIGINT" ? VType::Int : VType::Double;
        if (n.text.rfind("DECIMAL(", 0) == 0) n.scale = std::atoi(n.text.c_str() + n.text.find(',') + 1);
        n.args.push_back(std::move(sum));
        return n;
      }
      default: return sum;
    }
  }

  Node aggregate_item() {
    switch (rng_.weighted({1.5, 1.5, 2, 1, 2.5, 1.5, 0.5, features_.count_distinct ? 0.7 : 0, features_.types ? 1.5 : 0,
                           rowid_ok_ ? 0.6 : 0})) {
      case 0: return count_star();
      case 1: return agg("COUNT", any(1), VType::Int);
      case 2: {
        Node argument = number(1);
        VType type = argument.type;
        return agg("SUM", std::move(argument), type);
      }
      case 3: return agg("AVG", number(1), VType::Double);
      case 4: {
        Node argument;
        auto texts = columns_of(VType::Text);
        switch (rng_.weighted({7, texts.empty() ? 0.0 : 2.0, 1, features_.types ? 1.5 : 0, features_.types ? 0.2 : 0})) {
          case 0: argument = number(1); break;
          case 1: argument = column(*rng_.pick(texts)); break;
          case 2: argument = boolean(2); break;
          case 3: argument = typed_date(1); break;
          default: argument = null_literal(VType::Int); break;
        }
        VType type = argument.type;
        return agg(rng_.chance(0.5) ? "MIN" : "MAX", std::move(argument), type);
      }
      case 5: {
        static const std::vector<std::string> ops = {"+", "-", "*", "/", "%"};
        Node right = rng_.chance(0.6) ? exact_int_aggregate() : int_literal();
        if (rng_.chance(0.3)) {
          static const std::vector<std::string> cmp = {"=", "<>", "<", ">="};
          return compare(rng_.pick(cmp), exact_int_aggregate(), std::move(right));
        }
        return arith(rng_.pick(ops), exact_int_aggregate(), std::move(right));
      }
      case 6: return rng_.chance(0.5) ? int_literal() : text_literal();
      case 7: {
        // Mostly one argument for every DISTINCT aggregate of a query (the
        // two-level form), now and then another (one part per argument).
        const auto integers = columns_of(VType::Int);
        if (features_.sum_distinct && !integers.empty() && rng_.chance(0.6)) {
          const ColumnRef& c = rng_.chance(0.5) ? *rng_.pick(integers) : *integers[distinct_pick_ % integers.size()];
          const std::size_t which = rng_.below(3);
          Node n = which == 0 ? agg("COUNT", column(c), VType::Int)
                   : which == 1 ? agg("SUM", column(c), VType::Int)
                                : agg("AVG", column(c), VType::Double);
          n.negated = true;
          return n;
        }
        Node n = agg("COUNT", any(1), VType::Int);
        n.negated = true;
        return n;
      }
      case 8: return wide_item();
      default: {
        // ARG_MIN/ARG_MAX of any value (NULLs too: DuckDB skips their rows)
        // ordered by the row: no ties, whose winner DuckDB leaves open.
        // SQLite has neither.
        duckdb_only_ = true;
        Node order;
        order.kind = Node::Kind::RowId;
        order.type = VType::Int;
        order.qualifier = rowid_qualifier_;
        if (rng_.chance(0.5)) order = unary(Node::Kind::Neg, std::move(order));
        Node value = any(1);
        const VType type = value.type;
        Node n = agg(rng_.chance(0.5) ? "ARG_MIN" : "ARG_MAX", std::move(value), type);
        n.args.push_back(std::move(order));
        return n;
      }
    }
  }

  Node having() {
    static const std::vector<std::string> cmp = {"=", "<>", "<", "<=", ">", ">="};
    Node h = compare(rng_.pick(cmp), exact_int_aggregate(), int_literal());
    if (rng_.chance(0.3))
      h = binary(rng_.chance(0.5) ? Node::Kind::And : Node::Kind::Or, std::move(h),
                 compare(rng_.pick(cmp), exact_int_aggregate(), int_literal()));
    return h;
  }

  void order(Query& q) {
    std::vector<std::size_t> exact;
    bool all_exact = true;
    for (std::size_t i = 0; i < q.outputs.size(); ++i) {
      // A constant in ORDER BY could be read as a column position.
      if (is_constant(q.outputs[i].expr)) {
        all_exact = false;
        continue;
      }
      if (q.outputs[i].approximate) {
        all_exact = false;
        continue;
      }
      exact.push_back(i);
    }
    if (exact.empty()) return;
    // LIMIT only under an order over every output, so ties are equal rows.
    bool with_limit = features_.limit && all_exact && exact.size() == q.outputs.size() && rng_.chance(0.4);
    std::vector<std::size_t> keys = exact;
    if (!with_limit) {
      for (std::size_t i = keys.size(); i > 1; --i) std::swap(keys[i - 1], keys[rng_.below(i)]);
      keys.resize(1 + rng_.below(std::min<std::size_t>(keys.size(), 2)));
    }
    for (std::size_t k : keys) q.order_by.push_back({k, rng_.chance(0.5), rng_.chance(0.5)});
    if (with_limit) {
      q.limit = static_cast<int64_t>(rng_.below(12));
      if (rng_.chance(0.4)) q.offset = static_cast<int64_t>(rng_.below(6));
    }
  }
};

}  // namespace gpusql::test::diff
