// The SQL parser: what it accepts (rendered back fully parenthesised), the
// source ranges it records, and the exact errors it gives for what it rejects.
#include <catch2/catch.hpp>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "gpusql/gpusql.hpp"
#include "parser/ast.hpp"
#include "parser/parser.hpp"

#ifndef GPUSQL_SOURCE_DIR
#define GPUSQL_SOURCE_DIR "."
#endif

namespace {

using gpusql::parse_sql;
namespace ast = gpusql::ast;

const ast::SelectStatement& select_of(const ast::Statement& statement) {
  return std::get<ast::SelectStatement>(statement.body);
}

// The one statement of `sql`, kept alive in `holder`.
const ast::SelectStatement& parse_one(const std::string& sql, std::vector<ast::Statement>& holder) {
  holder = parse_sql(sql);
  REQUIRE(holder.size() == 1);
  return select_of(holder[0]);
}

std::string render_items(const ast::SelectStatement& select) {
  std::string out;
  for (const auto& item : select.items) {
    if (!out.empty()) out += ", ";
    out += ast::to_string(*item.expr);
    if (!item.alias.empty()) out += " AS " + item.alias;
  }
  return out;
}

// The full text a user sees for the error `sql` raises.
std::string error_text(const std::string& sql) {
  try {
    parse_sql(sql);
  } catch (const gpusql::Error& e) {
    if (e.kind() != gpusql::ErrorKind::Parser) return "wrong kind: " + std::string(e.what());
    return e.with_source(sql).what();
  }
  return "no error";
}

// Message and offset of the error `sql` raises.
std::pair<std::string, std::size_t> error_of(const std::string& sql) {
  try {
    parse_sql(sql);
  } catch (const gpusql::Error& e) {
    if (e.kind() != gpusql::ErrorKind::Parser) return {"wrong kind: " + e.message(), 0};
    return {e.message(), e.offset().value_or(9999999)};
  }
  return {"no error", 0};
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// A name as SQL text, quoted where it must be (to_string of a column says how).
std::string name_sql(const std::string& name) { return ast::to_string(*ast::make_column("", name, 0)); }

std::string literal_sql(const ast::Literal& literal) { return ast::to_string(*ast::make_literal(literal, 0)); }

std::string type_sql(const ast::TypeName& type) {
  std::string out = type.name == "double precision" ? type.name : name_sql(type.name);
  for (std::size_t i = 0; i < type.parameters.size(); ++i)
    out += (i == 0 ? "(" : ",") + std::to_string(type.parameters[i]);
  if (!type.parameters.empty()) out += ')';
  return out;
}

std::string list_sql(const std::vector<ast::ExprPtr>& exprs) {
  std::string out;
  for (const auto& e : exprs) out += (out.empty() ? "" : ", ") + ast::to_string(*e);
  return out;
}

// Any statement as SQL text that reads back to the same tree: SELECTs
// through ast::to_string, the others spelled out here.
std::string statement_sql(const ast::Statement& statement) {
  return std::visit(
      [](const auto& s) -> std::string {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, ast::SelectStatement>) {
          return ast::to_string(s);
        } else if constexpr (std::is_same_v<T, ast::ExplainStatement>) {
          return std::string(s.analyze ? "EXPLAIN ANALYZE " : "EXPLAIN ") + ast::to_string(s.select);
        } else if constexpr (std::is_same_v<T, ast::CreateTableStatement>) {
          std::string out = std::string("CREATE TABLE ") + (s.if_not_exists ? "IF NOT EXISTS " : "") + name_sql(s.name);
          if (s.as_select) return out + " AS " + ast::to_string(*s.as_select);
          for (std::size_t i = 0; i < s.columns.size(); ++i) {
            out += (i == 0 ? " (" : ", ") + name_sql(s.columns[i].name) + " " + type_sql(s.columns[i].type);
            if (s.columns[i].not_null) out += " NOT NULL";
            if (s.columns[i].primary_key) out += " PRIMARY KEY";
            if (s.columns[i].unique) out += " UNIQUE";
          }
          for (const auto& key : s.keys) {
            out += key.primary_key ? ", PRIMARY KEY (" : ", UNIQUE (";
            for (std::size_t i = 0; i < key.columns.size(); ++i) out += (i ? ", " : "") + name_sql(key.columns[i]);
            out += ")";
          }
          return out + ")";
        } else if constexpr (std::is_same_v<T, ast::CopyStatement>) {
          ast::Literal path;
          path.kind = ast::Literal::Kind::String;
          path.text = s.path;
          std::string out = "COPY " + name_sql(s.table) + " FROM " + literal_sql(path);
          for (std::size_t i = 0; i < s.options.size(); ++i)
            out += (i == 0 ? " (" : ", ") + (s.options[i].first == "null" ? "NULL" : name_sql(s.options[i].first)) +
                   " " + literal_sql(s.options[i].second);
          return out + (s.options.empty() ? "" : ")");
        } else if constexpr (std::is_same_v<T, ast::InsertStatement>) {
          std::string out = "INSERT INTO " + name_sql(s.table);
          for (std::size_t i = 0; i < s.columns.size(); ++i) out += (i == 0 ? " (" : ", ") + name_sql(s.columns[i]);
          if (!s.columns.empty()) out += ")";
          if (s.select) return out + " " + ast::to_string(*s.select);
          for (std::size_t i = 0; i < s.values.size(); ++i)
            out += (i == 0 ? " VALUES (" : ", (") + list_sql(s.values[i]) + ")";
          return out;
        } else if constexpr (std::is_same_v<T, ast::DropTableStatement>) {
          return std::string(s.view ? "DROP VIEW " : s.index ? "DROP INDEX " : "DROP TABLE ") +
                 (s.if_exists ? "IF EXISTS " : "") + name_sql(s.name);
        } else if constexpr (std::is_same_v<T, ast::CreateIndexStatement>) {
          std::string out = std::string(s.unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ") +
                            (s.if_not_exists ? "IF NOT EXISTS " : "") + name_sql(s.name) + " ON " + name_sql(s.table);
          for (std::size_t i = 0; i < s.columns.size(); ++i) out += (i == 0 ? " (" : ", ") + name_sql(s.columns[i]);
          return out + ")";
        } else if constexpr (std::is_same_v<T, ast::UpdateStatement>) {
          std::string out = "UPDATE " + name_sql(s.table) + " SET ";
          for (std::size_t i = 0; i < s.assignments.size(); ++i)
            out += (i ? ", " : "") + name_sql(s.assignments[i].column) + " = " + ast::to_string(*s.assignments[i].value);
          return out + (s.where ? " WHERE " + ast::to_string(*s.where) : "");
        } else if constexpr (std::is_same_v<T, ast::DeleteStatement>) {
          return "DELETE FROM " + name_sql(s.table) + (s.where ? " WHERE " + ast::to_string(*s.where) : "");
        } else if constexpr (std::is_same_v<T, ast::CreateViewStatement>) {
          std::string out = "CREATE VIEW " + name_sql(s.name);
          for (std::size_t i = 0; i < s.column_aliases.size(); ++i)
            out += (i == 0 ? " (" : ", ") + name_sql(s.column_aliases[i]) + (i + 1 == s.column_aliases.size() ? ")" : "");
          return out + " AS " + ast::to_string(*s.query);
        } else if constexpr (std::is_same_v<T, ast::ShowTablesStatement>) {
          return "SHOW TABLES";
        } else if constexpr (std::is_same_v<T, ast::SetStatement>) {
          return s.value ? "SET " + name_sql(s.name) + " = " + literal_sql(*s.value) : "RESET " + name_sql(s.name);
        } else {
          static_assert(std::is_same_v<T, ast::DescribeStatement>);
          return (s.summarize ? "SUMMARIZE " : "DESCRIBE ") + name_sql(s.name);
        }
      },
      statement.body);
}

// The text of every statement in `sql`, joined by "; ".
std::string statements_sql(const std::vector<ast::Statement>& statements) {
  std::string out;
  for (const auto& statement : statements) out += (out.empty() ? "" : "; ") + statement_sql(statement);
  return out;
}

// Print, parse the print, print again: the same text means the same tree.
void check_reparses(const std::vector<ast::Statement>& statements) {
  const std::string printed = statements_sql(statements);
  INFO("printed: " << printed);
  std::vector<ast::Statement> again;
  REQUIRE_NOTHROW(again = parse_sql(printed));
  CHECK(statements_sql(again) == printed);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("parser: precedence and rendering of select items", "[parser]") {
  struct Case {
    const char* sql;
    const char* items;
  };
  const Case cases[] = {
      {"SELECT a + b * c FROM t", "(a + (b * c))"},
      {"SELECT (a + b) * c FROM t", "((a + b) * c)"},
      {"SELECT a - b - c FROM t", "((a - b) - c)"},
      {"SELECT a / b % c * d FROM t", "(((a / b) % c) * d)"},
      {"SELECT a * b + c / d - e FROM t", "(((a * b) + (c / d)) - e)"},
      {"SELECT -2 * 3 FROM t", "((-2) * 3)"},
      {"SELECT a * -b FROM t", "(a * (-b))"},
      {"SELECT - - a FROM t", "(-(-a))"},
      {"SELECT +a, + + 1 FROM t", "a, 1"},
      {"SELECT -(a + 1) FROM t", "(-(a + 1))"},
      {"SELECT ((((a)))) FROM t", "a"},
      {"SELECT a = 1, NOT a FROM t", "(a = 1), (NOT a)"},
      {"SELECT *, t.*, t.x, x AS y, x y, \"Mixed Case\" FROM t", "*, t.*, t.x, x AS y, x AS y, \"Mixed Case\""},
      {"SELECT * , t . * , t . x FROM t", "*, t.*, t.x"},
      {"SELECT COUNT(*), Sum(x), count(DISTINCT x), f(), g(a, b + 1), MAX(t.x) FROM t",
       "count(*), sum(x), count(DISTINCT x), f(), g(a, (b + 1)), max(t.x)"},
      {"SELECT count( * ), f(DISTINCT a, b) FROM t", "count(*), f(DISTINCT a, b)"},
      {"SELECT 1, 1.5, .5, 1., 1e3, 2.5E+10, 1e-3, 007 FROM t", "1, 1.5, .5, 1., 1e3, 2.5E+10, 1e-3, 7"},
      {"SELECT 'it''s', '', TRUE, false, Null FROM t", "'it''s', '', TRUE, FALSE, NULL"},
      {"SELECT 1 AS one, 'x' two FROM t", "1 AS one, 'x' AS two"},
      {"SELECT selection, fromage, notes, order_id, \"select\", \"a\"\"b\" FROM t",
       "selection, fromage, notes, order_id, \"select\", \"a\"\"b\""},
      {"SELECT _x1, A_B FROM t", "_x1, A_B"},
  };
  for (const Case& c : cases) {
    INFO(c.sql);
    std::vector<ast::Statement> holder;
    CHECK(render_items(parse_one(c.sql, holder)) == c.items);
  }
}

TEST_CASE("parser: precedence and rendering of WHERE", "[parser]") {
  struct Case {
    const char* where;
    const char* rendered;
  };
  const Case cases[] = {
      {"NOT a = 1 AND b", "((NOT (a = 1)) AND b)"},
      {"a OR b AND c", "(a OR (b AND c))"},
      {"a AND b OR c AND d", "((a AND b) OR (c AND d))"},
      {"a OR b OR c", "((a OR b) OR c)"},
      {"NOT NOT a", "(NOT (NOT a))"},
      {"NOT (a OR b)", "(NOT (a OR b))"},
      {"a = 1 OR b <> 2 AND c != 3", "((a = 1) OR ((b <> 2) AND (c <> 3)))"},
      {"a < 1 AND b <= 2 AND c > 3 AND d >= 4", "((((a < 1) AND (b <= 2)) AND (c > 3)) AND (d >= 4))"},
      {"a + 1 < b * 2", "((a + 1) < (b * 2))"},
      {"-a = -1", "((-a) = (-1))"},
      {"x = 'a -- not a comment /* nor this */'", "(x = 'a -- not a comment /* nor this */')"},
      {"t.a=u.b", "(t.a = u.b)"},
      {"a<>b", "(a <> b)"},
      {"a<=-1", "(a <= (-1))"},
  };
  for (const Case& c : cases) {
    const std::string sql = std::string("SELECT a FROM t WHERE ") + c.where;
    INFO(sql);
    std::vector<ast::Statement> holder;
    const auto& select = parse_one(sql, holder);
    REQUIRE(select.where != nullptr);
    CHECK(ast::to_string(*select.where) == c.rendered);
  }
}

TEST_CASE("parser: operators map to BinaryOp and UnaryOp", "[parser]") {
  std::vector<ast::Statement> holder;
  const auto& select = parse_one("SELECT a <> b, a != b, a = b, a < b, a <= b, a > b, a >= b, "
                                 "a + b, a - b, a * b, a / b, a % b, -a, NOT a FROM t WHERE a AND b OR c",
                                 holder);
  const ast::BinaryOp expected[] = {ast::BinaryOp::Ne,  ast::BinaryOp::Ne,  ast::BinaryOp::Eq,  ast::BinaryOp::Lt,
                                    ast::BinaryOp::Le,  ast::BinaryOp::Gt,  ast::BinaryOp::Ge,  ast::BinaryOp::Add,
                                    ast::BinaryOp::Sub, ast::BinaryOp::Mul, ast::BinaryOp::Div, ast::BinaryOp::Mod};
  REQUIRE(select.items.size() == 14);
  for (std::size_t i = 0; i < std::size(expected); ++i) {
    INFO(i);
    CHECK(select.items[i].expr->kind == ast::ExprKind::Binary);
    CHECK(select.items[i].expr->binary_op == expected[i]);
    CHECK(select.items[i].expr->args.size() == 2);
  }
  CHECK(select.items[12].expr->kind == ast::ExprKind::Unary);
  CHECK(select.items[12].expr->unary_op == ast::UnaryOp::Negate);
  CHECK(select.items[13].expr->kind == ast::ExprKind::Unary);
  CHECK(select.items[13].expr->unary_op == ast::UnaryOp::Not);
  CHECK(select.where->binary_op == ast::BinaryOp::Or);
  CHECK(select.where->args[0]->binary_op == ast::BinaryOp::And);
}

TEST_CASE("parser: literals", "[parser]") {
  std::vector<ast::Statement> holder;
  const auto& select = parse_one(
      "SELECT 1e3, 12, 'it''s', 99999999999999999999, 9223372036854775807, 9223372036854775808, "
      "-9223372036854775808, TRUE, FALSE, NULL, 1.50, 0 FROM t",
      holder);
  REQUIRE(select.items.size() == 12);
  auto literal = [&](std::size_t i) -> const ast::Literal& {
    REQUIRE(select.items[i].expr->kind == ast::ExprKind::Literal);
    return select.items[i].expr->literal;
  };
  CHECK(literal(0).kind == ast::Literal::Kind::Number);
  CHECK(literal(0).text == "1e3");
  CHECK(literal(1).kind == ast::Literal::Kind::Integer);
  CHECK(literal(1).integer == 12);
  CHECK(literal(2).kind == ast::Literal::Kind::String);
  CHECK(literal(2).text == "it's");
  CHECK(literal(3).kind == ast::Literal::Kind::Number);
  CHECK(literal(3).text == "99999999999999999999");
  CHECK(literal(4).kind == ast::Literal::Kind::Integer);
  CHECK(literal(4).integer == INT64_MAX);
  CHECK(literal(5).kind == ast::Literal::Kind::Number);
  CHECK(literal(5).text == "9223372036854775808");
  // The one sign the parser folds (the binder folds the others).
  CHECK(literal(6).kind == ast::Literal::Kind::Integer);
  CHECK(literal(6).integer == INT64_MIN);
  CHECK(literal(7).kind == ast::Literal::Kind::Boolean);
  CHECK(literal(7).boolean == true);
  CHECK(literal(8).kind == ast::Literal::Kind::Boolean);
  CHECK(literal(8).boolean == false);
  CHECK(literal(9).kind == ast::Literal::Kind::Null);
  CHECK(literal(10).kind == ast::Literal::Kind::Number);
  CHECK(literal(10).text == "1.50");
  CHECK(literal(11).kind == ast::Literal::Kind::Integer);
  CHECK(literal(11).integer == 0);
}

TEST_CASE("parser: a minus before 9223372036854775808 makes BIGINT's minimum", "[parser]") {
  std::vector<ast::Statement> holder;
  auto item = [&](const std::string& text) -> const ast::Expr& {
    INFO(text);
    const auto& select = parse_one("SELECT " + text + " FROM t", holder);
    REQUIRE(select.items.size() == 1);
    return *select.items[0].expr;
  };
  auto range = [](const ast::Expr& e) { return std::to_string(e.offset) + "-" + std::to_string(e.end); };

  SECTION("an odd count of minus signs, through spaces and parentheses, as in DuckDB") {
    // The literal spans the signs and parentheses: SELECT's item starts at 7.
    for (const char* text : {"-9223372036854775808", "- 9223372036854775808", "-(9223372036854775808)",
                             "-( 9223372036854775808 )", "-009223372036854775808", "-(-(-9223372036854775808))"}) {
      const ast::Expr& e = item(text);
      INFO(text);
      REQUIRE(e.kind == ast::ExprKind::Literal);
      CHECK(e.literal.kind == ast::Literal::Kind::Integer);
      CHECK(e.literal.integer == INT64_MIN);
      CHECK(range(e) == "7-" + std::to_string(7 + std::string(text).size()));
      CHECK(ast::to_string(e) == "-9223372036854775808");
    }
  }
  SECTION("an even count leaves the Number 9223372036854775808") {
    for (const char* text : {"- -9223372036854775808", "-(-9223372036854775808)", "-(-(009223372036854775808))"}) {
      const ast::Expr& e = item(text);
      INFO(text);
      REQUIRE(e.kind == ast::ExprKind::Literal);
      CHECK(e.literal.kind == ast::Literal::Kind::Number);
      CHECK(e.literal.text.find("9223372036854775808") != std::string::npos);
    }
  }
  SECTION("a unary '+' stops the folding, as DuckDB's operator does") {
    const ast::Expr& e = item("-+9223372036854775808");
    REQUIRE(e.kind == ast::ExprKind::Unary);
    REQUIRE(e.args[0]->kind == ast::ExprKind::Literal);
    CHECK(e.args[0]->literal.kind == ast::Literal::Kind::Number);
    const ast::Expr& twice = item("-+-9223372036854775808");
    REQUIRE(twice.kind == ast::ExprKind::Unary);
    REQUIRE(twice.args[0]->kind == ast::ExprKind::Literal);
    CHECK(twice.args[0]->literal.integer == INT64_MIN);
    // Rendered with the '+': "(--" would start a comment, "(- -" fold.
    CHECK(ast::to_string(twice) == "(-+-9223372036854775808)");
    std::vector<ast::Statement> again;
    const ast::Expr& reparsed = *parse_one("SELECT " + ast::to_string(twice) + " FROM t", again).items[0].expr;
    REQUIRE(reparsed.kind == ast::ExprKind::Unary);
    CHECK(reparsed.args[0]->literal.integer == INT64_MIN);
  }
  SECTION("other numbers keep the sign as an operator") {
    for (const char* text : {"-9223372036854775807", "-9223372036854775809", "-9223372036854775808.0",
                             "-92233720368547758080", "-(9223372036854775808 + 0)"}) {
      INFO(text);
      CHECK(item(text).kind == ast::ExprKind::Unary);
    }
  }
  SECTION("as an operand") {
    const ast::Expr& e = item("a - -9223372036854775808");
    REQUIRE(e.kind == ast::ExprKind::Binary);
    CHECK(e.args[1]->literal.integer == INT64_MIN);
    CHECK(ast::to_string(e) == "(a - -9223372036854775808)");
  }
}

TEST_CASE("parser: strings keep their bytes", "[parser]") {
  std::vector<ast::Statement> holder;
  const auto& select = parse_one("SELECT 'a\nb', '''', 'caf\xC3\xA9', ' -- ' FROM t", holder);
  REQUIRE(select.items.size() == 4);
  CHECK(select.items[0].expr->literal.text == "a\nb");
  CHECK(select.items[1].expr->literal.text == "'");
  CHECK(select.items[2].expr->literal.text == "caf\xC3\xA9");
  CHECK(select.items[3].expr->literal.text == " -- ");
}

TEST_CASE("parser: names, qualifiers, stars and functions", "[parser]") {
  std::vector<ast::Statement> holder;
  const auto& select =
      parse_one("SELECT t.x, \"T\".\"a \"\"q\"\"\", y, rowid, u.*, *, COUNT(*), Avg(DISTINCT z) FROM t", holder);
  REQUIRE(select.items.size() == 8);
  const ast::Expr& tx = *select.items[0].expr;
  CHECK(tx.kind == ast::ExprKind::Column);
  CHECK(tx.table == "t");
  CHECK(tx.name == "x");
  const ast::Expr& quoted = *select.items[1].expr;
  CHECK(quoted.table == "T");
  CHECK(quoted.name == "a \"q\"");
  CHECK(ast::to_string(quoted) == "T.\"a \"\"q\"\"\"");  // quoted only where needed
  CHECK(select.items[2].expr->table.empty());
  CHECK(select.items[2].expr->name == "y");
  CHECK(select.items[3].expr->name == "rowid");
  CHECK(select.items[4].expr->kind == ast::ExprKind::Star);
  CHECK(select.items[4].expr->table == "u");
  CHECK(select.items[5].expr->kind == ast::ExprKind::Star);
  CHECK(select.items[5].expr->table.empty());
  const ast::Expr& count = *select.items[6].expr;
  CHECK(count.kind == ast::ExprKind::Function);
  CHECK(count.name == "count");
  CHECK_FALSE(count.distinct);
  REQUIRE(count.args.size() == 1);
  CHECK(count.args[0]->kind == ast::ExprKind::Star);
  const ast::Expr& avg = *select.items[7].expr;
  CHECK(avg.name == "avg");
  CHECK(avg.distinct);
  REQUIRE(avg.args.size() == 1);
  CHECK(avg.args[0]->name == "z");
}

TEST_CASE("parser: FROM list and aliases", "[parser]") {
  std::vector<ast::Statement> holder;
  const auto& select = parse_one("SELECT a AS \"Total\", b c FROM t, u AS v, w x, \"From\"", holder);
  REQUIRE(select.items.size() == 2);
  CHECK(select.items[0].alias == "Total");
  CHECK(select.items[1].alias == "c");
  REQUIRE(select.from.size() == 4);
  CHECK(select.from[0].name == "t");
  CHECK(select.from[0].alias.empty());
  CHECK(select.from[0].offset == 30);
  CHECK(select.from[1].name == "u");
  CHECK(select.from[1].alias == "v");
  CHECK(select.from[1].offset == 33);
  CHECK(select.from[2].name == "w");
  CHECK(select.from[2].alias == "x");
  CHECK(select.from[2].offset == 41);
  CHECK(select.from[3].name == "From");
  CHECK(select.from[3].offset == 46);
  CHECK(select.where == nullptr);
}

TEST_CASE("parser: JOIN ... USING and NATURAL JOIN", "[parser]") {
  std::vector<ast::Statement> holder;
  //                                        0         1         2         3         4
  //                                        012345678901234567890123456789012345678901234567
  const auto& select = parse_one("SELECT * FROM t JOIN u USING (a, \"B\") NATURAL LEFT JOIN v", holder);
  REQUIRE(select.from.size() == 3);
  CHECK(select.from[1].join == ast::JoinKind::Inner);
  CHECK(select.from[1].on == nullptr);
  REQUIRE(select.from[1].using_columns.names.size() == 2);
  CHECK(select.from[1].using_columns.names[0] == std::make_pair(std::string("a"), std::size_t{30}));
  CHECK(select.from[1].using_columns.names[1] == std::make_pair(std::string("B"), std::size_t{33}));
  CHECK_FALSE(select.from[1].using_columns.natural);
  CHECK(select.from[2].join == ast::JoinKind::Left);
  CHECK(select.from[2].using_columns.natural);
  CHECK(select.from[2].using_columns.offset == 38);
  CHECK(ast::to_string(select) == "SELECT * FROM t JOIN u USING (a, B) NATURAL LEFT JOIN v");
  // A group in parentheses: its own USING on its first item, its members' on theirs.
  const auto& grouped = parse_one("SELECT * FROM t LEFT OUTER JOIN (u JOIN v USING (x)) USING (y)", holder);
  REQUIRE(grouped.from.size() == 3);
  CHECK(grouped.from[1].group_size == 2);
  CHECK(grouped.from[1].using_columns.names.at(0).first == "y");
  CHECK(grouped.from[2].using_columns.names.at(0).first == "x");
  CHECK(ast::to_string(grouped) == "SELECT * FROM t LEFT JOIN (u JOIN v USING (x)) USING (y)");
}

TEST_CASE("parser: source ranges of nodes", "[parser]") {
  std::vector<ast::Statement> holder;
  auto range = [](const ast::Expr& e) { return std::to_string(e.offset) + "-" + std::to_string(e.end); };

  SECTION("a column") {
    const auto& select = parse_one("SELECT x FROM t", holder);
    CHECK(select.items[0].expr->offset == 7);
    CHECK(select.items[0].expr->end == 8);
  }
  SECTION("a binary node spans its operands, parentheses included") {
    //                              0         1
    //                              012345678901234567890
    const auto& select = parse_one("SELECT (a + b) * c FROM t", holder);
    const ast::Expr& mul = *select.items[0].expr;
    CHECK(range(mul) == "7-18");
    CHECK(range(*mul.args[0]) == "8-13");
    CHECK(range(*mul.args[0]->args[0]) == "8-9");
    CHECK(range(*mul.args[0]->args[1]) == "12-13");
    CHECK(range(*mul.args[1]) == "17-18");
  }
  SECTION("unary, functions, qualified names, strings, stars") {
    const auto& select = parse_one("SELECT -1, count( * ), t.x, 'it''s', t.*, +a, NOT b FROM t", holder);
    REQUIRE(select.items.size() == 7);
    CHECK(range(*select.items[0].expr) == "7-9");
    CHECK(range(*select.items[0].expr->args[0]) == "8-9");
    CHECK(range(*select.items[1].expr) == "11-21");
    CHECK(range(*select.items[1].expr->args[0]) == "18-19");
    CHECK(range(*select.items[2].expr) == "23-26");
    CHECK(range(*select.items[3].expr) == "28-35");
    CHECK(range(*select.items[4].expr) == "37-40");
    CHECK(range(*select.items[5].expr) == "43-44");
    CHECK(range(*select.items[6].expr) == "46-51");
    CHECK(range(*select.items[6].expr->args[0]) == "50-51");
  }
  SECTION("ends exclude trailing comments; offsets count from the start of the whole text") {
    const std::string sql = "SELECT 1 FROM a;\nSELECT b FROM t\nWHERE b >= 10 -- note\n  /* more */ AND c";
    auto statements = parse_sql(sql);
    REQUIRE(statements.size() == 2);
    const auto& select = select_of(statements[1]);
    CHECK(range(*select.items[0].expr) == "24-25");
    const ast::Expr& where = *select.where;
    CHECK(range(where) == "39-73");
    CHECK(range(*where.args[0]) == "39-46");
    CHECK(sql.substr(where.args[0]->offset, where.args[0]->end - where.args[0]->offset) == "b >= 10");
    CHECK(range(*where.args[1]) == "72-73");
  }
}

TEST_CASE("parser: statements, separators and comments", "[parser]") {
  SECTION("nothing to run") {
    CHECK(parse_sql("").empty());
    CHECK(parse_sql("   \n\t ").empty());
    CHECK(parse_sql(";").empty());
    CHECK(parse_sql(" ; ;; ").empty());
    CHECK(parse_sql("-- just a comment").empty());
    CHECK(parse_sql("/* block */ -- line\n;").empty());
    CHECK(parse_sql(std::string_view()).empty());
  }
  SECTION("several statements with their ranges") {
    //                 0         1         2         3
    //                 0123456789012345678901234567890123456789
    const auto list = parse_sql("  SELECT x FROM t ; ;SELECT y FROM u -- end");
    REQUIRE(list.size() == 2);
    CHECK(list[0].offset == 2);
    CHECK(list[0].end == 17);
    CHECK(list[1].offset == 21);
    CHECK(list[1].end == 36);
    CHECK(select_of(list[0]).items[0].expr->name == "x");
    CHECK(select_of(list[1]).from[0].name == "u");
  }
  SECTION("a trailing semicolon") {
    const auto list = parse_sql("SELECT a FROM t;");
    REQUIRE(list.size() == 1);
    CHECK(list[0].end == 15);
  }
  SECTION("comments wherever whitespace is allowed; keywords in any case") {
    const auto list = parse_sql(
        "/*lead*/sElEcT/**/a--x\n,b/* c */fRoM t--y\nWhErE/*z*/a=1;-- tail\nselect c from u where not c");
    REQUIRE(list.size() == 2);
    CHECK(render_items(select_of(list[0])) == "a, b");
    CHECK(select_of(list[0]).from[0].name == "t");
    CHECK(ast::to_string(*select_of(list[0]).where) == "(a = 1)");
    CHECK(list[0].offset == 8);
    CHECK(ast::to_string(*select_of(list[1]).where) == "(NOT c)");
  }
  SECTION("a star comment is not a multiplication, a dash comment not a minus") {
    const auto list = parse_sql("SELECT a /* * b */ - -- - c\n d FROM t");
    REQUIRE(list.size() == 1);
    CHECK(render_items(select_of(list[0])) == "(a - d)");
  }
}

TEST_CASE("parser: rejected statements and their messages", "[parser]") {
  struct Case {
    std::string sql;
    std::string text;
  };
  const Case cases[] = {
      {"SELEC 1",
       "Parser Error: syntax error at or near \"SELEC\" (line 1, column 1)\n"
       "LINE 1: SELEC 1\n"
       "        ^"},
      {"SELECT FROM t",
       "Parser Error: syntax error at or near \"FROM\": expected an expression (line 1, column 8)\n"
       "LINE 1: SELECT FROM t\n"
       "               ^"},
      {"SELECT a FROM",
       "Parser Error: syntax error at end of input: expected a table name (line 1, column 14)\n"
       "LINE 1: SELECT a FROM\n"
       "                     ^"},
      {"SELECT a FROM t WHERE",
       "Parser Error: syntax error at end of input: expected an expression (line 1, column 22)\n"
       "LINE 1: SELECT a FROM t WHERE\n"
       "                             ^"},
      {"SELECT (a FROM t",
       "Parser Error: syntax error at or near \"FROM\": expected \")\" (line 1, column 11)\n"
       "LINE 1: SELECT (a FROM t\n"
       "                  ^"},
      {"SELECT 'abc FROM t",
       "Parser Error: unterminated string literal (line 1, column 8)\n"
       "LINE 1: SELECT 'abc FROM t\n"
       "               ^"},
      {"SELECT a FROM t x y",
       "Parser Error: syntax error at or near \"y\" (line 1, column 19)\n"
       "LINE 1: SELECT a FROM t x y\n"
       "                          ^"},
      {"SELECT a,\n       b\nFROM t WHERE a = = 1",
       "Parser Error: syntax error at or near \"=\": expected an expression (line 3, column 18)\n"
       "LINE 3: FROM t WHERE a = = 1\n"
       "                         ^"},
      {"SELECT a FROM -- no table\n",
       "Parser Error: syntax error at end of input: expected a table name (line 1, column 14)\n"
       "LINE 1: SELECT a FROM -- no table\n"
       "                     ^"},
      {"SELECT a FROM t WHERE (a = 1",
       "Parser Error: syntax error at end of input: expected \")\" (line 1, column 29)\n"
       "LINE 1: SELECT a FROM t WHERE (a = 1\n"
       "                                    ^"},
      {"SELECT a FROM t /* never closed\n*",
       "Parser Error: unterminated block comment (line 1, column 17)\n"
       "LINE 1: SELECT a FROM t /* never closed\n"
       "                        ^"},
      {"SELECT \"abc FROM t",
       "Parser Error: unterminated quoted identifier (line 1, column 8)\n"
       "LINE 1: SELECT \"abc FROM t\n"
       "               ^"},
      {"SELECT 'it''s FROM t",
       "Parser Error: unterminated string literal (line 1, column 8)\n"
       "LINE 1: SELECT 'it''s FROM t\n"
       "               ^"},
      {"SELECT \"\" FROM t",
       "Parser Error: zero-length quoted identifier (line 1, column 8)\n"
       "LINE 1: SELECT \"\" FROM t\n"
       "               ^"},
      {"SELECT 1abc FROM t",
       "Parser Error: syntax error at or near \"1abc\": expected an expression (line 1, column 8)\n"
       "LINE 1: SELECT 1abc FROM t\n"
       "               ^"},
      {"SELECT 1e FROM t",
       "Parser Error: syntax error at or near \"1e\": expected an expression (line 1, column 8)\n"
       "LINE 1: SELECT 1e FROM t\n"
       "               ^"},
      {"SELECT a < b < c FROM t",
       "Parser Error: syntax error at or near \"<\": expected FROM (line 1, column 14)\n"
       "LINE 1: SELECT a < b < c FROM t\n"
       "                     ^"},
      {"SELECT a, FROM t",
       "Parser Error: syntax error at or near \"FROM\": expected an expression (line 1, column 11)\n"
       "LINE 1: SELECT a, FROM t\n"
       "                  ^"},
      {"SELECT t. FROM t",
       "Parser Error: syntax error at or near \"FROM\": expected a column name (line 1, column 11)\n"
       "LINE 1: SELECT t. FROM t\n"
       "                  ^"},
      {"SELECT f(a, FROM t",
       "Parser Error: syntax error at or near \"FROM\": expected an expression (line 1, column 13)\n"
       "LINE 1: SELECT f(a, FROM t\n"
       "                    ^"},
      {"SELECT f(a b) FROM t",
       "Parser Error: syntax error at or near \"b\": expected \")\" (line 1, column 12)\n"
       "LINE 1: SELECT f(a b) FROM t\n"
       "                   ^"},
      {"SELECT count(DISTINCT) FROM t",
       "Parser Error: syntax error at or near \")\": expected an expression (line 1, column 22)\n"
       "LINE 1: SELECT count(DISTINCT) FROM t\n"
       "                             ^"},
      {"SELECT a AS FROM t",
       "Parser Error: syntax error at or near \"FROM\": expected an alias (line 1, column 13)\n"
       "LINE 1: SELECT a AS FROM t\n"
       "                    ^"},
      {"SELECT a FROM t, WHERE a",
       "Parser Error: syntax error at or near \"WHERE\": expected a table name (line 1, column 18)\n"
       "LINE 1: SELECT a FROM t, WHERE a\n"
       "                         ^"},
      {"SELECT a + * b FROM t",
       "Parser Error: syntax error at or near \"*\": expected an expression (line 1, column 12)\n"
       "LINE 1: SELECT a + * b FROM t\n"
       "                   ^"},
      {"SELECT a FROM t WHERE a >= <= b",
       "Parser Error: syntax error at or near \"<=\": expected an expression (line 1, column 28)\n"
       "LINE 1: SELECT a FROM t WHERE a >= <= b\n"
       "                                   ^"},
      {"SELECT a FROM t;\nSELEC b FROM t",
       "Parser Error: syntax error at or near \"SELEC\" (line 2, column 1)\n"
       "LINE 2: SELEC b FROM t\n"
       "        ^"},
      {"SELECT 'caf\xC3\xA9' + FROM t",
       "Parser Error: syntax error at or near \"FROM\": expected an expression (line 1, column 17)\n"
       "LINE 1: SELECT 'caf\xC3\xA9' + FROM t\n"
       "                        ^"},
      {"SELECT a FROM t WHERE a = 1 b",
       "Parser Error: syntax error at or near \"b\" (line 1, column 29)\n"
       "LINE 1: SELECT a FROM t WHERE a = 1 b\n"
       "                                    ^"},
      {"SELECT a FROM t WHERE \"x\"\"y\" \"z\"",
       "Parser Error: syntax error at or near \"\"z\"\" (line 1, column 30)\n"
       "LINE 1: SELECT a FROM t WHERE \"x\"\"y\" \"z\"\n"
       "                                     ^"},
      {"SELECT a FROM t WHERE a = 1 AND",
       "Parser Error: syntax error at end of input: expected an expression (line 1, column 32)\n"
       "LINE 1: SELECT a FROM t WHERE a = 1 AND\n"
       "                                       ^"},
      {"SELECT NOT FROM t",
       "Parser Error: syntax error at or near \"FROM\": expected an expression (line 1, column 12)\n"
       "LINE 1: SELECT NOT FROM t\n"
       "                   ^"},
      {"SELECT a FROM t WHERE a = #",
       "Parser Error: syntax error at or near \"#\": expected an expression (line 1, column 27)\n"
       "LINE 1: SELECT a FROM t WHERE a = #\n"
       "                                  ^"},
  };
  for (const Case& c : cases) {
    INFO(c.sql);
    CHECK(error_text(c.sql) == c.text);
  }
}

TEST_CASE("parser: bytes that are not SQL", "[parser]") {
  CHECK(error_of(std::string("SELECT \0 FROM t", 15)) ==
        std::pair<std::string, std::size_t>{"syntax error at or near \"\\x00\": expected an expression", 7});
  CHECK(error_of("SELECT '\xFF' FROM t") ==
        std::pair<std::string, std::size_t>{"invalid UTF-8 in SQL text", 8});
  CHECK(error_of("SELECT a FROM t -- \xC3") ==
        std::pair<std::string, std::size_t>{"invalid UTF-8 in SQL text", 19});
  CHECK(error_of("SELECT a FROM t WHERE \xE2\x82\xAC") ==
        std::pair<std::string, std::size_t>{"syntax error at or near \"\xE2\x82\xAC\": expected an expression", 22});
  // A long token is quoted only in part.
  CHECK(error_of("SELECT a FROM t WHERE a " + std::string(100, 'x')).first ==
        "syntax error at or near \"" + std::string(64, 'x') + "...\"");
}

TEST_CASE("parser: nesting depth is bounded", "[parser]") {
  const std::string message = "expression nested too deeply (more than 200 levels)";
  using Failure = std::pair<std::string, std::size_t>;
  std::vector<ast::Statement> holder;

  SECTION("200 levels parse") {
    const auto& parens = parse_one("SELECT " + repeat("(", 200) + "x" + repeat(")", 200) + " FROM t", holder);
    CHECK(parens.items[0].expr->name == "x");
    CHECK(parens.items[0].expr->offset == 207);
    const auto& minus = parse_one("SELECT " + repeat("- ", 200) + "1 FROM t", holder);
    CHECK(minus.items[0].expr->kind == ast::ExprKind::Unary);
    const auto& nots = parse_one("SELECT a FROM t WHERE " + repeat("NOT ", 200) + "a", holder);
    CHECK(nots.where->kind == ast::ExprKind::Unary);
    const auto& calls = parse_one("SELECT " + repeat("f(", 200) + repeat(")", 200) + " FROM t", holder);
    CHECK(calls.items[0].expr->kind == ast::ExprKind::Function);
  }
  SECTION("level 201 is an error where it starts") {
    CHECK(error_of("SELECT " + repeat("(", 201) + "x" + repeat(")", 201) + " FROM t") == Failure{message, 207});
    CHECK(error_of("SELECT " + repeat("- ", 201) + "1 FROM t") == Failure{message, 407});
    CHECK(error_of("SELECT " + repeat("+ ", 250) + "1 FROM t") == Failure{message, 407});
    CHECK(error_of("SELECT a FROM t WHERE " + repeat("NOT ", 201) + "a") == Failure{message, 822});
    CHECK(error_of("SELECT " + repeat("f(", 201) + repeat(")", 201) + " FROM t") == Failure{message, 408});
    CHECK(error_of("SELECT " + repeat("-(", 101) + "1" + repeat(")", 101) + " FROM t") == Failure{message, 207});
  }
  SECTION("a megabyte of parentheses is an error, not a crash") {
    // A statement may start with '(' (a parenthesised query, a set operation's operand).
    CHECK(error_of(std::string(1 << 20, '(')) == Failure{message, 200});
    CHECK(error_of("SELECT " + std::string(1 << 20, '(')) == Failure{message, 207});
  }
  SECTION("operator chains are bounded by the depth of the tree they build") {
    const auto& chain = parse_one("SELECT 1" + repeat(" + 1", 999) + " FROM t", holder);
    CHECK(chain.items[0].expr->kind == ast::ExprKind::Binary);
    CHECK(error_of("SELECT 1" + repeat(" + 1", 1000) + " FROM t") ==
          Failure{"expression too complex (more than 1000 levels of operators)", 4005});
    CHECK(error_of("SELECT a FROM t WHERE a" + repeat(" OR a", 100000)).first ==
          "expression too complex (more than 1000 levels of operators)");
  }
}

TEST_CASE("parser: random input never crashes and fails only with parser errors", "[parser]") {
  const char* pieces[] = {
      "SELECT ", "FROM ",   "WHERE ",   "AND ",     "OR ",      "NOT ",      "a",        "t",          ".",
      "*",       ",",       "(",        ")",        "+",        "-",         "/",        "%",          "=",
      "<>",      "<",       ">=",       "1",        "1.5",      ".5",        "1e3",      "'s'",        "'",
      "\"",      "\"q\"",   "--c\n",    "/*",       "*/",       ";",         " ",        "count",      "DISTINCT ",
      "AS ",     "TRUE",    "NULL",     "\xC3\xA9", "\xFF",     "BETWEEN ",  "IN ",      "LIKE ",      "IS ",
      "CASE ",   "WHEN ",   "THEN ",    "ELSE ",    "END ",     "CAST(",     "DATE ",    "INTERVAL ",  "DAY ",
      "EXTRACT(", "YEAR ",  "JOIN ",    "ON ",      "CROSS ",   "GROUP BY ", "HAVING ",  "ORDER BY ",  "DESC ",
      "NULLS ",  "FIRST ",  "LIMIT ",   "OFFSET ",  "=> ",      "read_csv(", "EXPLAIN ", "CREATE TABLE ",
      "COPY ",   "INSERT INTO ", "VALUES ", "DROP TABLE ", "SHOW TABLES ", "DESCRIBE ", "SUMMARIZE ", "IF ", "EXISTS ",
      "decimal(15,2) ", "LEFT ", "UNION "};
  const char* seeds[] = {
      "SELECT DISTINCT a, t.*, count(*) AS n FROM t x JOIN u ON x.a = u.b CROSS JOIN v, w WHERE a BETWEEN 1 AND 2 "
      "GROUP BY a HAVING sum(b) > 1 ORDER BY a DESC NULLS FIRST LIMIT 3 OFFSET 1",
      "SELECT CASE WHEN a IS NOT NULL THEN CAST(a AS DECIMAL(15,2)) ELSE 0 END, EXTRACT(year FROM d) FROM t "
      "WHERE d < DATE '1998-12-01' - INTERVAL '3' MONTH AND b NOT IN (1, 2) AND c LIKE 'x%'",
      "CREATE TABLE IF NOT EXISTS t (a INTEGER NOT NULL, b VARCHAR(25), c DOUBLE PRECISION)",
      "COPY t FROM 'x.csv' WITH (DELIMITER '|', HEADER, NULL '')",
      "INSERT INTO t (a, b) VALUES (1, 'x'), (2 + 3, NULL); DROP TABLE IF EXISTS t; SHOW TABLES; DESCRIBE t",
      "EXPLAIN ANALYZE SELECT * FROM read_csv('p', delim => '|', header := true) r",
  };
  std::mt19937 rng(12345);
  int parsed = 0;
  int rejected = 0;
  for (int i = 0; i < 6000; ++i) {
    std::string sql;
    if (i % 3 == 0) {
      const int n = static_cast<int>(rng() % 30);
      for (int k = 0; k < n; ++k) sql += static_cast<char>(rng() & 0xFF);
    } else if (i % 3 == 1) {
      const int n = static_cast<int>(rng() % 30);
      for (int k = 0; k < n; ++k) sql += pieces[rng() % std::size(pieces)];
    } else {  // a valid statement with a piece cut out or spliced in
      sql = seeds[rng() % std::size(seeds)];
      const std::size_t at = rng() % (sql.size() + 1);
      if (rng() % 2)
        sql.erase(at, rng() % 12);
      else
        sql.insert(at, pieces[rng() % std::size(pieces)]);
    }
    INFO(sql);
    try {
      const auto statements = parse_sql(sql);
      check_reparses(statements);
      ++parsed;
    } catch (const gpusql::Error& e) {
      REQUIRE((e.kind() == gpusql::ErrorKind::Parser || e.kind() == gpusql::ErrorKind::NotSupported));
      REQUIRE(e.offset().has_value());
      REQUIRE(*e.offset() <= sql.size());
      ++rejected;
    }
  }
  CHECK(parsed > 100);
  CHECK(rejected > 100);
}

TEST_CASE("parser: builders and to_string", "[parser]") {
  ast::Literal text;
  text.kind = ast::Literal::Kind::String;
  text.text = "o'clock";
  ast::Literal number;
  number.kind = ast::Literal::Kind::Integer;
  number.integer = -5;
  std::vector<ast::ExprPtr> args;
  args.push_back(ast::make_column("t", "x", 4));
  args.push_back(ast::make_literal(text, 9));
  auto call = ast::make_function("concat", std::move(args), true, 0);
  CHECK(ast::to_string(*call) == "concat(DISTINCT t.x, 'o''clock')");
  CHECK(call->offset == 0);

  auto sum = ast::make_binary(ast::BinaryOp::Add, ast::make_literal(number, 0), ast::make_star("", 3), 0);
  CHECK(ast::to_string(*sum) == "(-5 + *)");
  auto negated = ast::make_unary(ast::UnaryOp::Not, std::move(sum), 0);
  CHECK(ast::to_string(*negated) == "(NOT (-5 + *))");

  // Names that would not read back bare are quoted.
  CHECK(ast::to_string(*ast::make_column("", "from", 0)) == "\"from\"");
  CHECK(ast::to_string(*ast::make_column("my table", "a\"b", 0)) == "\"my table\".\"a\"\"b\"");
  CHECK(ast::to_string(*ast::make_column("", "1x", 0)) == "\"1x\"");
  CHECK(ast::to_string(*ast::make_column("", "Fromage", 0)) == "Fromage");
  CHECK(ast::to_string(*ast::make_star("u", 0)) == "u.*");

  CHECK(ast::to_string(ast::BinaryOp::Add) == "+");
  CHECK(ast::to_string(ast::BinaryOp::Sub) == "-");
  CHECK(ast::to_string(ast::BinaryOp::Mul) == "*");
  CHECK(ast::to_string(ast::BinaryOp::Div) == "/");
  CHECK(ast::to_string(ast::BinaryOp::Mod) == "%");
  CHECK(ast::to_string(ast::BinaryOp::Eq) == "=");
  CHECK(ast::to_string(ast::BinaryOp::Ne) == "<>");
  CHECK(ast::to_string(ast::BinaryOp::Lt) == "<");
  CHECK(ast::to_string(ast::BinaryOp::Le) == "<=");
  CHECK(ast::to_string(ast::BinaryOp::Gt) == ">");
  CHECK(ast::to_string(ast::BinaryOp::Ge) == ">=");
  CHECK(ast::to_string(ast::BinaryOp::And) == "AND");
  CHECK(ast::to_string(ast::BinaryOp::Or) == "OR");
}

TEST_CASE("parser: to_string reads back to the same tree", "[parser]") {
  const char* queries[] = {
      "SELECT a + b * c - -d / (e % 2), count(DISTINCT \"x y\"), t.\"select\" FROM t WHERE NOT a < 1 OR b AND c",
      "SELECT 'it''s', 1.5e3, NULL, TRUE FROM t WHERE f(g(h()), 2) = 2",
  };
  for (const char* sql : queries) {
    INFO(sql);
    std::vector<ast::Statement> first;
    const auto& select = parse_one(sql, first);
    std::string again = "SELECT ";
    for (std::size_t i = 0; i < select.items.size(); ++i)
      again += (i ? ", " : "") + ast::to_string(*select.items[i].expr);
    again += " FROM t WHERE " + ast::to_string(*select.where);
    std::vector<ast::Statement> second;
    const auto& reparsed = parse_one(again, second);
    CHECK(render_items(reparsed) == render_items(select));
    CHECK(ast::to_string(*reparsed.where) == ast::to_string(*select.where));
  }
}

TEST_CASE("parser: to_string of the other expression kinds", "[parser]") {
  auto column = [](const char* name) { return ast::make_column("", name, 0); };
  auto integer = [](int64_t value) {
    ast::Literal literal;
    literal.kind = ast::Literal::Kind::Integer;
    literal.integer = value;
    return ast::make_literal(literal, 0);
  };
  auto node = [](ast::ExprKind kind, bool negated, std::vector<ast::ExprPtr> args) {
    auto expr = std::make_unique<ast::Expr>();
    expr->kind = kind;
    expr->negated = negated;
    expr->args = std::move(args);
    return expr;
  };
  auto list = [](auto... exprs) {
    std::vector<ast::ExprPtr> out;
    (out.push_back(std::move(exprs)), ...);
    return out;
  };

  CHECK(ast::to_string(*node(ast::ExprKind::Between, false, list(column("a"), integer(1), integer(2)))) ==
        "(a BETWEEN 1 AND 2)");
  CHECK(ast::to_string(*node(ast::ExprKind::Between, true, list(column("a"), integer(1), integer(2)))) ==
        "(a NOT BETWEEN 1 AND 2)");
  CHECK(ast::to_string(*node(ast::ExprKind::InList, false, list(column("a"), integer(1), integer(2)))) ==
        "(a IN (1, 2))");
  CHECK(ast::to_string(*node(ast::ExprKind::InList, true, list(column("a"), integer(3)))) == "(a NOT IN (3))");
  CHECK(ast::to_string(*node(ast::ExprKind::Like, true, list(column("a"), column("b")))) == "(a NOT LIKE b)");
  CHECK(ast::to_string(*node(ast::ExprKind::Like, false, list(column("a"), column("b")))) == "(a LIKE b)");
  CHECK(ast::to_string(*node(ast::ExprKind::IsNull, false, list(column("a")))) == "(a IS NULL)");
  CHECK(ast::to_string(*node(ast::ExprKind::IsNull, true, list(column("a")))) == "(a IS NOT NULL)");

  auto cast = node(ast::ExprKind::Cast, false, list(column("a")));
  cast->cast_type.name = "decimal";
  cast->cast_type.parameters = {15, 2};
  CHECK(ast::to_string(*cast) == "CAST(a AS decimal(15,2))");
  cast->cast_type.parameters.clear();
  cast->cast_type.name = "integer";
  CHECK(ast::to_string(*cast) == "CAST(a AS integer)");

  auto searched = node(ast::ExprKind::Case, false, list(column("p"), integer(1), column("q"), integer(2), integer(0)));
  searched->has_else = true;
  CHECK(ast::to_string(*searched) == "CASE WHEN p THEN 1 WHEN q THEN 2 ELSE 0 END");
  auto simple = node(ast::ExprKind::Case, false, list(column("x"), integer(1), column("one")));
  simple->has_operand = true;
  CHECK(ast::to_string(*simple) == "CASE x WHEN 1 THEN one END");

  auto extract = node(ast::ExprKind::Extract, false, list(column("d")));
  extract->name = "year";
  CHECK(ast::to_string(*extract) == "EXTRACT(year FROM d)");

  ast::Literal date;
  date.kind = ast::Literal::Kind::Date;
  date.text = "1998-12-01";
  CHECK(ast::to_string(*ast::make_literal(date, 0)) == "DATE '1998-12-01'");
  ast::Literal interval;
  interval.kind = ast::Literal::Kind::Interval;
  interval.text = "3";
  interval.unit = "month";
  CHECK(ast::to_string(*ast::make_literal(interval, 0)) == "INTERVAL '3' MONTH");
}

// ------------------------------------------------------------- the dialect

TEST_CASE("parser: accepted statements and their renderings", "[parser]") {
  struct Case {
    const char* sql;
    const char* rendered;
  };
  const Case cases[] = {
      // SELECT clauses
      {"SELECT 1", "SELECT 1"},
      {"select distinct a, b from t", "SELECT DISTINCT a, b FROM t"},
      {"SELECT a FROM t GROUP BY a, b + 1 HAVING count(*) > 1",
       "SELECT a FROM t GROUP BY a, (b + 1) HAVING (count(*) > 1)"},
      {"SELECT a FROM t ORDER BY a, b ASC, c DESC, d NULLS FIRST, e DESC NULLS LAST",
       "SELECT a FROM t ORDER BY a, b, c DESC, d NULLS FIRST, e DESC NULLS LAST"},
      {"SELECT a FROM t LIMIT 10", "SELECT a FROM t LIMIT 10"},
      {"SELECT a FROM t LIMIT 10 OFFSET 5", "SELECT a FROM t LIMIT 10 OFFSET 5"},
      {"SELECT a FROM t OFFSET 5 LIMIT 10", "SELECT a FROM t LIMIT 10 OFFSET 5"},
      {"SELECT a FROM t OFFSET 5", "SELECT a FROM t OFFSET 5"},
      {"SELECT a FROM t LIMIT x", "SELECT a FROM t LIMIT x"},
      {"SELECT a FROM t WHERE a > 1 GROUP BY a HAVING a < 9 ORDER BY a LIMIT 1 + 1 OFFSET 2 * 3",
       "SELECT a FROM t WHERE (a > 1) GROUP BY a HAVING (a < 9) ORDER BY a LIMIT (1 + 1) OFFSET (2 * 3)"},
      // FROM: aliases, joins, table functions
      {"SELECT * FROM t AS x, u y", "SELECT * FROM t AS x, u AS y"},
      {"SELECT * FROM t JOIN u ON t.a = u.a INNER JOIN v AS w ON w.b = t.b",
       "SELECT * FROM t JOIN u ON (t.a = u.a) JOIN v AS w ON (w.b = t.b)"},
      {"SELECT * FROM t CROSS JOIN u x, v", "SELECT * FROM t CROSS JOIN u AS x, v"},
      {"SELECT * FROM t LEFT JOIN u ON t.a = u.a left outer join v ON v.b = t.b",
       "SELECT * FROM t LEFT JOIN u ON (t.a = u.a) LEFT JOIN v ON (v.b = t.b)"},
      {"SELECT * FROM (SELECT 1) AS d (a), t x(b, c)", "SELECT * FROM (SELECT 1) AS d(a), t AS x(b, c)"},
      {"WITH a AS (SELECT 1), b (x, y) AS (SELECT * FROM a) SELECT * FROM b",
       "WITH a AS (SELECT 1), b(x, y) AS (SELECT * FROM a) SELECT * FROM b"},
      {"SELECT ALL a, count(ALL b), sum(all b + 1) FROM t", "SELECT a, count(b), sum((b + 1)) FROM t"},
      {"SELECT substring(a FROM 2 FOR 3), SUBSTRING(a from 2), substring(a, 1)",
       "SELECT substring(a, 2, 3), substring(a, 2), substring(a, 1)"},
      {"SELECT * FROM read_csv('a.csv')", "SELECT * FROM read_csv('a.csv')"},
      {"SELECT * FROM READ_CSV('a.csv', delim => '|', Header := true) AS r",
       "SELECT * FROM read_csv('a.csv', delim => '|', header => TRUE) AS r"},
      {"SELECT * FROM read_csv() r JOIN t ON r.a = t.a", "SELECT * FROM read_csv() AS r JOIN t ON (r.a = t.a)"},
      {"SELECT d_year FROM lineorder, date", "SELECT d_year FROM lineorder, date"},
      // predicates
      {"SELECT a FROM t WHERE a BETWEEN 1 AND 2 AND b", "SELECT a FROM t WHERE ((a BETWEEN 1 AND 2) AND b)"},
      {"SELECT a FROM t WHERE a NOT BETWEEN b - 1 AND b + 1",
       "SELECT a FROM t WHERE (a NOT BETWEEN (b - 1) AND (b + 1))"},
      {"SELECT a FROM t WHERE a IN (1, 2, 3) OR a NOT IN ('x')",
       "SELECT a FROM t WHERE ((a IN (1, 2, 3)) OR (a NOT IN ('x')))"},
      {"SELECT a FROM t WHERE a LIKE 'x%' AND b NOT LIKE '_y'",
       "SELECT a FROM t WHERE ((a LIKE 'x%') AND (b NOT LIKE '_y'))"},
      {"SELECT a IS NULL, a IS NOT NULL FROM t", "SELECT (a IS NULL), (a IS NOT NULL) FROM t"},
      {"SELECT a FROM t WHERE NOT a IS NULL", "SELECT a FROM t WHERE (NOT (a IS NULL))"},
      {"SELECT a FROM t WHERE NOT a BETWEEN 1 AND 2", "SELECT a FROM t WHERE (NOT (a BETWEEN 1 AND 2))"},
      {"SELECT a + 1 IN (b * 2) FROM t", "SELECT ((a + 1) IN ((b * 2))) FROM t"},
      {"SELECT (a = b) IS NULL FROM t", "SELECT ((a = b) IS NULL) FROM t"},
      // CAST, CASE, EXTRACT, dates and intervals
      {"SELECT CAST(a AS INTEGER), cast(b as Decimal(15, 2)), CAST(c AS varchar(25)), CAST(d AS double precision) "
       "FROM t",
       "SELECT CAST(a AS integer), CAST(b AS decimal(15,2)), CAST(c AS varchar(25)), CAST(d AS double precision) "
       "FROM t"},
      {"SELECT CAST(a + 1 AS \"My Type\") FROM t", "SELECT CAST((a + 1) AS \"my type\") FROM t"},
      {"SELECT CASE WHEN a = 1 THEN 'one' WHEN a = 2 THEN 'two' ELSE 'many' END FROM t",
       "SELECT CASE WHEN (a = 1) THEN 'one' WHEN (a = 2) THEN 'two' ELSE 'many' END FROM t"},
      {"SELECT CASE a WHEN 1 THEN 'one' END AS c FROM t", "SELECT CASE a WHEN 1 THEN 'one' END AS c FROM t"},
      {"SELECT CASE WHEN a THEN CASE WHEN b THEN 1 END END + 1 FROM t",
       "SELECT (CASE WHEN a THEN CASE WHEN b THEN 1 END END + 1) FROM t"},
      {"SELECT EXTRACT(YEAR FROM d), extract(Month from d), EXTRACT(day FROM d + 1) FROM t",
       "SELECT EXTRACT(year FROM d), EXTRACT(month FROM d), EXTRACT(day FROM (d + 1)) FROM t"},
      {"SELECT a FROM t WHERE d <= DATE '1998-12-01' - INTERVAL '90' DAY",
       "SELECT a FROM t WHERE (d <= (DATE '1998-12-01' - INTERVAL '90' DAY))"},
      {"SELECT INTERVAL '3' MONTHS, INTERVAL 3 days, interval '1' Year, INTERVAL '2' YEARS, INTERVAL 5 MONTH FROM t",
       "SELECT INTERVAL '3' MONTH, INTERVAL '3' DAY, INTERVAL '1' YEAR, INTERVAL '2' YEAR, INTERVAL '5' MONTH FROM t"},
      {"SELECT date 'not a date', DATE'2020-01-01' FROM t", "SELECT DATE 'not a date', DATE '2020-01-01' FROM t"},
      // aggregates are function calls; stars
      {"SELECT count(*), count(DISTINCT a), sum(a), min(a), max(a), avg(a), arg_min(a, b), ARG_MAX(a, b), "
       "min_by(a, b), max_by(a, b) FROM t",
       "SELECT count(*), count(DISTINCT a), sum(a), min(a), max(a), avg(a), arg_min(a, b), arg_max(a, b), "
       "min_by(a, b), max_by(a, b) FROM t"},
      {"SELECT t.*, *, rowid FROM t", "SELECT t.*, *, rowid FROM t"},
      // unreserved words stay names where they cannot start their construct
      {"SELECT date, interval, extract, year, month, day, nulls, first, last, double, values, tables FROM date "
       "ORDER BY nulls NULLS LAST",
       "SELECT date, interval, extract, year, month, day, nulls, first, last, double, values, tables FROM date "
       "ORDER BY nulls NULLS LAST"},
      {"SELECT date(x), interval(3), \"extract\"(y) FROM t", "SELECT date(x), interval(3), \"extract\"(y) FROM t"},
      {"SELECT \"select\" AS \"from\" FROM \"table\" AS \"join\"",
       "SELECT \"select\" AS \"from\" FROM \"table\" AS \"join\""},
      // other statements
      {"EXPLAIN SELECT a FROM t", "EXPLAIN SELECT a FROM t"},
      {"explain analyze select a from t where a > 1", "EXPLAIN ANALYZE SELECT a FROM t WHERE (a > 1)"},
      {"CREATE TABLE t (a INTEGER NOT NULL, \"b c\" VARCHAR(25) NULL, c DOUBLE PRECISION, d decimal(15, 2), e DATE)",
       "CREATE TABLE t (a integer NOT NULL, \"b c\" varchar(25), c double precision, d decimal(15,2), e date)"},
      {"create table if not exists t (a int)", "CREATE TABLE IF NOT EXISTS t (a int)"},
      {"CREATE TABLE t AS SELECT * FROM read_csv('x.csv')", "CREATE TABLE t AS SELECT * FROM read_csv('x.csv')"},
      {"COPY t FROM 'data/x.tbl'", "COPY t FROM 'data/x.tbl'"},
      {"COPY t FROM 'x.csv' (DELIMITER '|', HEADER false)", "COPY t FROM 'x.csv' (delimiter '|', header FALSE)"},
      {"copy t from 'it''s.csv' with (header, null 'NA', quote '\"', skip 1, Sample_Size 1.5)",
       "COPY t FROM 'it''s.csv' (header TRUE, NULL 'NA', quote '\"', skip 1, sample_size 1.5)"},
      {"COPY t FROM 'x.csv' (FORMAT csv, Header)", "COPY t FROM 'x.csv' (format 'csv', header TRUE)"},
      {"INSERT INTO t VALUES (1, 'a'), (-2, NULL)", "INSERT INTO t VALUES (1, 'a'), ((-2), NULL)"},
      {"INSERT INTO t (b, a) VALUES (1 + 2, CAST('x' AS VARCHAR))",
       "INSERT INTO t (b, a) VALUES ((1 + 2), CAST('x' AS varchar))"},
      {"INSERT INTO t SELECT * FROM u WHERE a > 1", "INSERT INTO t SELECT * FROM u WHERE (a > 1)"},
      {"INSERT INTO t (a) SELECT b FROM u", "INSERT INTO t (a) SELECT b FROM u"},
      {"DROP TABLE t; drop table if exists \"T 2\"", "DROP TABLE t; DROP TABLE IF EXISTS \"T 2\""},
      {"DROP TABLE if", "DROP TABLE if"},
      {"create view v (a, b) as select 1, 2; DROP VIEW IF EXISTS v; drop view w",
       "CREATE VIEW v (a, b) AS SELECT 1, 2; DROP VIEW IF EXISTS v; DROP VIEW w"},
      {"SHOW TABLES; describe t", "SHOW TABLES; DESCRIBE t"},
      {"create table t (k int primary key, u varchar unique not null, key int, unique (key, u), primary key (k))",
       "CREATE TABLE t (k int PRIMARY KEY, u varchar NOT NULL UNIQUE, key int, UNIQUE (key, u), "
       "PRIMARY KEY (k))"},
      {"create unique index if not exists i on t (a, b); CREATE INDEX j ON t(a); drop index i; DROP INDEX IF EXISTS j",
       "CREATE UNIQUE INDEX IF NOT EXISTS i ON t (a, b); CREATE INDEX j ON t (a); DROP INDEX i; DROP INDEX IF EXISTS j"},
      {"update t set a = a + 1, b = 'x' where c; UPDATE t SET a = NULL",
       "UPDATE t SET a = (a + 1), b = 'x' WHERE c; UPDATE t SET a = NULL"},
      {"delete from t where a > 1; DELETE FROM t", "DELETE FROM t WHERE (a > 1); DELETE FROM t"},
      {"SELECT -a::int || 'x' || b::decimal(5,2) = 'y', 1 + 2 || 3 FROM t",
       "SELECT ((((-CAST(a AS int)) || 'x') || CAST(b AS decimal(5,2))) = 'y'), ((1 + 2) || 3) FROM t"},
      {"SELECT * FROM a JOIN (b JOIN c ON b.y = c.x) ON a.y = b.x, ((d CROSS JOIN e))",
       "SELECT * FROM a JOIN (b JOIN c ON (b.y = c.x)) ON (a.y = b.x), (d CROSS JOIN e)"},
      {"SELECT * FROM a LEFT JOIN ((b JOIN c ON b.y = c.x) CROSS JOIN d) ON a.y = b.x RIGHT JOIN e ON e.x = a.x",
       "SELECT * FROM (a LEFT JOIN (b JOIN c ON (b.y = c.x) CROSS JOIN d) ON (a.y = b.x)) RIGHT JOIN e ON (e.x = a.x)"},
      {"SELECT a FROM t UNION ALL SELECT b FROM u ORDER BY 1 LIMIT 3",
       "(SELECT a FROM t) UNION ALL (SELECT b FROM u) ORDER BY 1 LIMIT 3"},
  };
  for (const Case& c : cases) {
    INFO(c.sql);
    std::vector<ast::Statement> statements;
    REQUIRE_NOTHROW(statements = parse_sql(c.sql));
    CHECK(statements_sql(statements) == c.rendered);
    check_reparses(statements);
  }
}

TEST_CASE("parser: predicates, CAST, CASE, EXTRACT, DATE and INTERVAL nodes", "[parser]") {
  std::vector<ast::Statement> holder;
  auto range = [](const ast::Expr& e) { return std::to_string(e.offset) + "-" + std::to_string(e.end); };

  SECTION("BETWEEN, IN, LIKE, IS NULL: kind, negation, operands, ranges") {
    //                              0         1         2         3         4         5         6         7
    //                              0123456789012345678901234567890123456789012345678901234567890123456789012345
    const auto& select = parse_one("SELECT (a) NOT BETWEEN 1 AND b + 2, a IN (1, 2), a LIKE 'x', a IS NOT NULL "
                                   "FROM t",
                                   holder);
    REQUIRE(select.items.size() == 4);
    const ast::Expr& between = *select.items[0].expr;
    CHECK(between.kind == ast::ExprKind::Between);
    CHECK(between.negated);
    REQUIRE(between.args.size() == 3);
    CHECK(range(between) == "7-34");
    CHECK(range(*between.args[0]) == "8-9");
    CHECK(range(*between.args[1]) == "23-24");
    CHECK(range(*between.args[2]) == "29-34");
    CHECK(between.args[2]->kind == ast::ExprKind::Binary);

    const ast::Expr& in = *select.items[1].expr;
    CHECK(in.kind == ast::ExprKind::InList);
    CHECK_FALSE(in.negated);
    REQUIRE(in.args.size() == 3);
    CHECK(range(in) == "36-47");
    CHECK(range(*in.args[2]) == "45-46");

    const ast::Expr& like = *select.items[2].expr;
    CHECK(like.kind == ast::ExprKind::Like);
    CHECK_FALSE(like.negated);
    REQUIRE(like.args.size() == 2);
    CHECK(like.args[1]->literal.text == "x");
    CHECK(range(like) == "49-59");

    const ast::Expr& is_null = *select.items[3].expr;
    CHECK(is_null.kind == ast::ExprKind::IsNull);
    CHECK(is_null.negated);
    REQUIRE(is_null.args.size() == 1);
    CHECK(range(is_null) == "61-74");

    const auto& plain = parse_one("SELECT a NOT IN (1), a NOT LIKE b, a IS NULL, a BETWEEN 1 AND 2 FROM t", holder);
    CHECK(plain.items[0].expr->negated);
    CHECK(plain.items[1].expr->negated);
    CHECK_FALSE(plain.items[2].expr->negated);
    CHECK_FALSE(plain.items[3].expr->negated);
  }
  SECTION("CAST and its type") {
    //                              0         1         2         3         4         5
    //                              012345678901234567890123456789012345678901234567890123
    const auto& select = parse_one("SELECT CAST(a AS DECIMAL(15,2)), CAST(b AS Double  Precision) FROM t", holder);
    const ast::Expr& cast = *select.items[0].expr;
    CHECK(cast.kind == ast::ExprKind::Cast);
    CHECK(range(cast) == "7-31");
    REQUIRE(cast.args.size() == 1);
    CHECK(cast.args[0]->name == "a");
    CHECK(cast.cast_type.name == "decimal");
    CHECK(cast.cast_type.parameters == std::vector<int64_t>{15, 2});
    CHECK(cast.cast_type.offset == 17);
    const ast::Expr& cast2 = *select.items[1].expr;
    CHECK(cast2.cast_type.name == "double precision");
    CHECK(cast2.cast_type.parameters.empty());
    CHECK(cast2.cast_type.offset == 43);
  }
  SECTION("CASE: operand, WHEN/THEN pairs and ELSE laid out in args") {
    //                              0         1         2         3         4         5         6
    //                              0123456789012345678901234567890123456789012345678901234567890123
    const auto& select = parse_one("SELECT CASE x WHEN 1 THEN 'a' WHEN 2 THEN 'b' ELSE 'c' END, "
                                   "CASE WHEN p THEN 1 END FROM t",
                                   holder);
    const ast::Expr& simple = *select.items[0].expr;
    CHECK(simple.kind == ast::ExprKind::Case);
    CHECK(simple.has_operand);
    CHECK(simple.has_else);
    REQUIRE(simple.args.size() == 6);
    CHECK(simple.args[0]->name == "x");
    CHECK(simple.args[1]->literal.integer == 1);
    CHECK(simple.args[2]->literal.text == "a");
    CHECK(simple.args[3]->literal.integer == 2);
    CHECK(simple.args[4]->literal.text == "b");
    CHECK(simple.args[5]->literal.text == "c");
    CHECK(range(simple) == "7-58");
    const ast::Expr& searched = *select.items[1].expr;
    CHECK_FALSE(searched.has_operand);
    CHECK_FALSE(searched.has_else);
    REQUIRE(searched.args.size() == 2);
    CHECK(searched.args[0]->name == "p");
    CHECK(range(searched) == "60-82");
  }
  SECTION("EXTRACT, DATE and INTERVAL") {
    //                              0         1         2         3         4         5         6
    //                              01234567890123456789012345678901234567890123456789012345678901234
    const auto& select = parse_one("SELECT EXTRACT(Year FROM d), DATE '1998-12-01' - INTERVAL '3' MONTHS, "
                                   "INTERVAL 7 day FROM t",
                                   holder);
    const ast::Expr& extract = *select.items[0].expr;
    CHECK(extract.kind == ast::ExprKind::Extract);
    CHECK(extract.name == "year");
    REQUIRE(extract.args.size() == 1);
    CHECK(extract.args[0]->name == "d");
    CHECK(range(extract) == "7-27");
    const ast::Expr& minus = *select.items[1].expr;
    REQUIRE(minus.kind == ast::ExprKind::Binary);
    const ast::Expr& date = *minus.args[0];
    CHECK(date.kind == ast::ExprKind::Literal);
    CHECK(date.literal.kind == ast::Literal::Kind::Date);
    CHECK(date.literal.text == "1998-12-01");
    CHECK(range(date) == "29-46");
    const ast::Expr& interval = *minus.args[1];
    CHECK(interval.literal.kind == ast::Literal::Kind::Interval);
    CHECK(interval.literal.text == "3");
    CHECK(interval.literal.unit == "month");
    CHECK(range(interval) == "49-68");
    const ast::Expr& bare = *select.items[2].expr;
    CHECK(bare.literal.kind == ast::Literal::Kind::Interval);
    CHECK(bare.literal.text == "7");
    CHECK(bare.literal.unit == "day");
    CHECK(range(bare) == "70-84");
  }
  SECTION("precedence: comparison-level predicates under NOT, over AND, BETWEEN's AND its own") {
    const auto& select = parse_one("SELECT a FROM t WHERE NOT a BETWEEN 1 AND 2 AND b IS NULL OR c IN (1)", holder);
    CHECK(ast::to_string(*select.where) == "(((NOT (a BETWEEN 1 AND 2)) AND (b IS NULL)) OR (c IN (1)))");
  }
}

TEST_CASE("parser: SELECT clauses fill the tree", "[parser]") {
  std::vector<ast::Statement> holder;
  //                               0         1         2         3         4         5         6         7
  //                               01234567890123456789012345678901234567890123456789012345678901234567890123
  const auto& select = parse_one("SELECT DISTINCT a FROM t x JOIN u ON x.a = u.a CROSS JOIN v, read_csv('f') AS r "
                                 "WHERE a GROUP BY a, 2 HAVING b ORDER BY a DESC NULLS LAST, b, c NULLS FIRST "
                                 "LIMIT 5 OFFSET 6",
                                 holder);
  CHECK(select.distinct);
  REQUIRE(select.from.size() == 4);
  CHECK(select.from[0].name == "t");
  CHECK(select.from[0].alias == "x");
  CHECK(select.from[0].join == ast::JoinKind::Comma);
  CHECK(select.from[0].offset == 23);
  CHECK(select.from[0].on == nullptr);
  CHECK(select.from[1].name == "u");
  CHECK(select.from[1].join == ast::JoinKind::Inner);
  CHECK(select.from[1].offset == 32);
  REQUIRE(select.from[1].on != nullptr);
  CHECK(ast::to_string(*select.from[1].on) == "(x.a = u.a)");
  CHECK(select.from[1].on->offset == 37);
  CHECK(select.from[2].name == "v");
  CHECK(select.from[2].join == ast::JoinKind::Cross);
  CHECK(select.from[2].offset == 58);
  CHECK(select.from[3].name == "read_csv");
  CHECK(select.from[3].is_function);
  CHECK(select.from[3].alias == "r");
  CHECK(select.from[3].join == ast::JoinKind::Comma);
  CHECK(select.from[3].offset == 61);
  REQUIRE(select.from[3].function_args.size() == 1);
  CHECK(select.from[3].function_args[0]->literal.text == "f");
  CHECK(select.from[3].function_args[0]->offset == 70);
  REQUIRE(select.where != nullptr);
  REQUIRE(select.group_by.size() == 2);
  CHECK(select.group_by[1]->literal.integer == 2);
  REQUIRE(select.having != nullptr);
  CHECK(select.having->name == "b");
  REQUIRE(select.order_by.size() == 3);
  CHECK(select.order_by[0].descending);
  CHECK(select.order_by[0].nulls_first == std::optional<bool>(false));
  CHECK_FALSE(select.order_by[1].descending);
  CHECK_FALSE(select.order_by[1].nulls_first.has_value());
  CHECK(select.order_by[2].nulls_first == std::optional<bool>(true));
  REQUIRE(select.limit != nullptr);
  CHECK(select.limit->literal.integer == 5);
  REQUIRE(select.offset != nullptr);
  CHECK(select.offset->literal.integer == 6);

  const auto& bare = parse_one("SELECT a FROM t", holder);
  CHECK_FALSE(bare.distinct);
  CHECK(bare.group_by.empty());
  CHECK(bare.having == nullptr);
  CHECK(bare.order_by.empty());
  CHECK(bare.limit == nullptr);
  CHECK(bare.offset == nullptr);

  const auto& no_from = parse_one("SELECT 1 + 1", holder);
  CHECK(no_from.from.empty());
  REQUIRE(no_from.items.size() == 1);
}

TEST_CASE("parser: table functions", "[parser]") {
  std::vector<ast::Statement> holder;
  const auto& select =
      parse_one("SELECT * FROM Read_CSV('data/x.csv', 2, DELIM => '|', header := true, Sample => 1 + 1)", holder);
  REQUIRE(select.from.size() == 1);
  const ast::TableRef& ref = select.from[0];
  CHECK(ref.is_function);
  CHECK(ref.name == "read_csv");
  CHECK(ref.alias.empty());
  REQUIRE(ref.function_args.size() == 2);
  CHECK(ref.function_args[0]->literal.text == "data/x.csv");
  CHECK(ref.function_args[1]->literal.integer == 2);
  REQUIRE(ref.function_named_args.size() == 3);
  CHECK(ref.function_named_args[0].first == "delim");
  CHECK(ref.function_named_args[0].second->literal.text == "|");
  CHECK(ref.function_named_args[1].first == "header");
  CHECK(ref.function_named_args[1].second->literal.kind == ast::Literal::Kind::Boolean);
  CHECK(ref.function_named_args[2].first == "sample");
  CHECK(ast::to_string(*ref.function_named_args[2].second) == "(1 + 1)");

  const auto& plain = parse_one("SELECT * FROM read_csv", holder);
  CHECK_FALSE(plain.from[0].is_function);
  CHECK(plain.from[0].name == "read_csv");
}

TEST_CASE("parser: statements other than SELECT", "[parser]") {
  SECTION("EXPLAIN [ANALYZE]") {
    //                               0         1         2
    //                               0123456789012345678901234567
    const auto list = parse_sql("EXPLAIN ANALYZE SELECT a FROM t; explain select b from u");
    REQUIRE(list.size() == 2);
    const auto& analyze = std::get<ast::ExplainStatement>(list[0].body);
    CHECK(analyze.analyze);
    CHECK(analyze.select.items[0].expr->name == "a");
    CHECK(analyze.select.items[0].expr->offset == 23);
    CHECK(list[0].offset == 0);
    CHECK(list[0].end == 31);
    const auto& plain = std::get<ast::ExplainStatement>(list[1].body);
    CHECK_FALSE(plain.analyze);
    CHECK(plain.select.from[0].name == "u");
  }
  SECTION("CREATE TABLE") {
    //                               0         1         2         3         4         5         6
    //                               0123456789012345678901234567890123456789012345678901234567890123
    const auto list = parse_sql("CREATE TABLE IF NOT EXISTS \"My T\" (id INTEGER NOT NULL, price DECIMAL(15,2) NULL, "
                                "name VARCHAR)");
    REQUIRE(list.size() == 1);
    const auto& create = std::get<ast::CreateTableStatement>(list[0].body);
    CHECK(create.name == "My T");
    CHECK(create.name_offset == 27);
    CHECK(create.if_not_exists);
    CHECK_FALSE(create.as_select.has_value());
    REQUIRE(create.columns.size() == 3);
    CHECK(create.columns[0].name == "id");
    CHECK(create.columns[0].offset == 35);
    CHECK(create.columns[0].type.name == "integer");
    CHECK(create.columns[0].type.offset == 38);
    CHECK(create.columns[0].not_null);
    CHECK(create.columns[1].name == "price");
    CHECK(create.columns[1].offset == 56);
    CHECK(create.columns[1].type.name == "decimal");
    CHECK(create.columns[1].type.parameters == std::vector<int64_t>{15, 2});
    CHECK_FALSE(create.columns[1].not_null);
    CHECK(create.columns[2].type.name == "varchar");
    CHECK_FALSE(create.columns[2].not_null);

    const auto as = parse_sql("create table t as select a from u");
    const auto& create_as = std::get<ast::CreateTableStatement>(as[0].body);
    CHECK(create_as.name == "t");
    CHECK(create_as.name_offset == 13);
    CHECK_FALSE(create_as.if_not_exists);
    CHECK(create_as.columns.empty());
    REQUIRE(create_as.as_select.has_value());
    CHECK(create_as.as_select->from[0].name == "u");
  }
  SECTION("COPY") {
    //                               0         1         2         3         4         5         6
    //                               0123456789012345678901234567890123456789012345678901234567890123
    const auto list = parse_sql("COPY lineitem FROM 'x.tbl' WITH (Delimiter '|', HEADER, NULL '', skip 2)");
    const auto& copy = std::get<ast::CopyStatement>(list[0].body);
    CHECK(copy.table == "lineitem");
    CHECK(copy.table_offset == 5);
    CHECK(copy.path == "x.tbl");
    REQUIRE(copy.options.size() == 4);
    CHECK(copy.options[0].first == "delimiter");
    CHECK(copy.options[0].second.kind == ast::Literal::Kind::String);
    CHECK(copy.options[0].second.text == "|");
    CHECK(copy.options[1].first == "header");
    CHECK(copy.options[1].second.kind == ast::Literal::Kind::Boolean);
    CHECK(copy.options[1].second.boolean);
    CHECK(copy.options[2].first == "null");
    CHECK(copy.options[2].second.text.empty());
    CHECK(copy.options[3].first == "skip");
    CHECK(copy.options[3].second.kind == ast::Literal::Kind::Integer);
    CHECK(copy.options[3].second.integer == 2);
    const auto bare = parse_sql("COPY t FROM 'x.csv'");
    CHECK(std::get<ast::CopyStatement>(bare[0].body).options.empty());
    const auto word = parse_sql("COPY t FROM 'x.csv' (FORMAT Csv)");
    const auto& format = std::get<ast::CopyStatement>(word[0].body).options.at(0);
    CHECK(format.first == "format");
    CHECK(format.second.kind == ast::Literal::Kind::String);
    CHECK(format.second.text == "Csv");
    const auto no_with = parse_sql("COPY t FROM 'x.csv' (HEADER false)");
    const auto& header = std::get<ast::CopyStatement>(no_with[0].body).options.at(0);
    CHECK(header.first == "header");
    CHECK_FALSE(header.second.boolean);
  }
  SECTION("INSERT") {
    //                               0         1         2         3
    //                               0123456789012345678901234567890123456789
    const auto list = parse_sql("INSERT INTO t (b, \"A\") VALUES (1, 'x'), (2 * 3, NULL)");
    const auto& insert = std::get<ast::InsertStatement>(list[0].body);
    CHECK(insert.table == "t");
    CHECK(insert.table_offset == 12);
    CHECK(insert.columns == std::vector<std::string>{"b", "A"});
    CHECK_FALSE(insert.select.has_value());
    REQUIRE(insert.values.size() == 2);
    REQUIRE(insert.values[0].size() == 2);
    CHECK(insert.values[0][0]->offset == 31);
    CHECK(ast::to_string(*insert.values[1][0]) == "(2 * 3)");
    CHECK(insert.values[1][1]->literal.kind == ast::Literal::Kind::Null);

    const auto select = parse_sql("INSERT INTO t SELECT * FROM u");
    const auto& insert_select = std::get<ast::InsertStatement>(select[0].body);
    CHECK(insert_select.columns.empty());
    CHECK(insert_select.values.empty());
    REQUIRE(insert_select.select.has_value());
    CHECK(insert_select.select->from[0].name == "u");
  }
  SECTION("DROP TABLE, SHOW TABLES, DESCRIBE") {
    //                               0         1         2         3         4         5
    //                               012345678901234567890123456789012345678901234567890
    const auto list = parse_sql("DROP TABLE IF EXISTS t; DROP TABLE u; SHOW TABLES; DESCRIBE \"v w\"");
    REQUIRE(list.size() == 4);
    const auto& drop = std::get<ast::DropTableStatement>(list[0].body);
    CHECK(drop.name == "t");
    CHECK(drop.name_offset == 21);
    CHECK(drop.if_exists);
    const auto& drop2 = std::get<ast::DropTableStatement>(list[1].body);
    CHECK(drop2.name == "u");
    CHECK(drop2.name_offset == 35);
    CHECK_FALSE(drop2.if_exists);
    CHECK(std::holds_alternative<ast::ShowTablesStatement>(list[2].body));
    CHECK(list[2].offset == 38);
    CHECK(list[2].end == 49);
    const auto& describe = std::get<ast::DescribeStatement>(list[3].body);
    CHECK(describe.name == "v w");
    CHECK(describe.name_offset == 60);
    CHECK(list[3].end == 65);
  }
}

TEST_CASE("parser: the Star Schema Benchmark and TPC-H queries parse", "[parser]") {
  const std::string dir = std::string(GPUSQL_SOURCE_DIR) + "/tests/sql_queries/";
  struct Query {
    const char* file;
    std::size_t tables;
    std::size_t group_by;
    std::size_t order_by;
  };
  const Query queries[] = {
      {"ssb/q1_1.sql", 2, 0, 0}, {"ssb/q1_2.sql", 2, 0, 0}, {"ssb/q1_3.sql", 2, 0, 0}, {"ssb/q2_1.sql", 4, 2, 2},
      {"ssb/q2_2.sql", 4, 2, 2}, {"ssb/q2_3.sql", 4, 2, 2}, {"ssb/q3_1.sql", 4, 3, 2}, {"ssb/q3_2.sql", 4, 3, 2},
      {"ssb/q3_3.sql", 4, 3, 2}, {"ssb/q3_4.sql", 4, 3, 2}, {"ssb/q4_1.sql", 5, 2, 2}, {"ssb/q4_2.sql", 5, 3, 3},
      {"ssb/q4_3.sql", 5, 3, 3}, {"tpch/q1.sql", 1, 2, 2},  {"tpch/q3.sql", 3, 3, 2},  {"tpch/q5.sql", 6, 1, 1},
      {"tpch/q6.sql", 1, 0, 0},  {"tpch/q10.sql", 4, 7, 1},
  };
  for (const Query& q : queries) {
    INFO(q.file);
    const std::string sql = read_file(dir + q.file);
    std::vector<ast::Statement> statements;
    REQUIRE_NOTHROW(statements = parse_sql(sql));
    REQUIRE(statements.size() == 1);
    const auto& select = select_of(statements[0]);
    CHECK(select.from.size() == q.tables);
    CHECK(select.group_by.size() == q.group_by);
    CHECK(select.order_by.size() == q.order_by);
    CHECK(select.where != nullptr);
    check_reparses(statements);
  }
}

TEST_CASE("parser: rejected statements of the full dialect", "[parser]") {
  struct Case {
    std::string sql;
    std::string text;
  };
  const Case cases[] = {
      {"SELECT a FROM t ORDER a",
       "Parser Error: syntax error at or near \"a\": expected BY (line 1, column 23)\n"
       "LINE 1: SELECT a FROM t ORDER a\n"
       "                              ^"},
      {"SELECT a FROM t GROUP BY",
       "Parser Error: syntax error at end of input: expected an expression (line 1, column 25)\n"
       "LINE 1: SELECT a FROM t GROUP BY\n"
       "                                ^"},
      {"SELECT a FROM t HAVING",
       "Parser Error: syntax error at end of input: expected an expression (line 1, column 23)\n"
       "LINE 1: SELECT a FROM t HAVING\n"
       "                              ^"},
      {"SELECT a FROM t ORDER BY a NULLS LATER",
       "Parser Error: syntax error at or near \"LATER\": expected FIRST or LAST (line 1, column 34)\n"
       "LINE 1: SELECT a FROM t ORDER BY a NULLS LATER\n"
       "                                         ^"},
      {"SELECT a FROM t ORDER BY a, ",
       "Parser Error: syntax error at end of input: expected an expression (line 1, column 28)\n"
       "LINE 1: SELECT a FROM t ORDER BY a, \n"
       "                                   ^"},
      {"SELECT a FROM t LIMIT",
       "Parser Error: syntax error at end of input: expected an expression (line 1, column 22)\n"
       "LINE 1: SELECT a FROM t LIMIT\n"
       "                             ^"},
      {"SELECT a FROM t LIMIT 1 LIMIT 2",
       "Parser Error: syntax error at or near \"LIMIT\" (line 1, column 25)\n"
       "LINE 1: SELECT a FROM t LIMIT 1 LIMIT 2\n"
       "                                ^"},
      {"SELECT a FROM t JOIN u",
       "Parser Error: syntax error at end of input: expected ON or USING (line 1, column 23)\n"
       "LINE 1: SELECT a FROM t JOIN u\n"
       "                              ^"},
      {"SELECT a FROM t JOIN u USING a",
       "Parser Error: syntax error at or near \"a\": expected \"(\" (line 1, column 30)\n"
       "LINE 1: SELECT a FROM t JOIN u USING a\n"
       "                                     ^"},
      {"SELECT a FROM t JOIN u USING (a,)",
       "Parser Error: syntax error at or near \")\": expected a column name (line 1, column 33)\n"
       "LINE 1: SELECT a FROM t JOIN u USING (a,)\n"
       "                                        ^"},
      {"SELECT a FROM t JOIN ON a = b",
       "Parser Error: syntax error at or near \"ON\": expected a table name (line 1, column 22)\n"
       "LINE 1: SELECT a FROM t JOIN ON a = b\n"
       "                             ^"},
      {"SELECT a FROM t INNER u ON a = b",
       "Parser Error: syntax error at or near \"u\": expected JOIN (line 1, column 23)\n"
       "LINE 1: SELECT a FROM t INNER u ON a = b\n"
       "                              ^"},
      {"SELECT a FROM t CROSS u",
       "Parser Error: syntax error at or near \"u\": expected JOIN (line 1, column 23)\n"
       "LINE 1: SELECT a FROM t CROSS u\n"
       "                              ^"},
      {"SELECT a FROM read_csv('x' 'y')",
       "Parser Error: syntax error at or near \"'y'\": expected \")\" (line 1, column 28)\n"
       "LINE 1: SELECT a FROM read_csv('x' 'y')\n"
       "                                   ^"},
      {"SELECT a FROM read_csv('x', delim =>)",
       "Parser Error: syntax error at or near \")\": expected an expression (line 1, column 37)\n"
       "LINE 1: SELECT a FROM read_csv('x', delim =>)\n"
       "                                            ^"},
      {"SELECT * FROM read_csv(=> 1)",
       "Parser Error: syntax error at or near \"=>\": expected \")\" (line 1, column 24)\n"
       "LINE 1: SELECT * FROM read_csv(=> 1)\n"
       "                               ^"},
      {"SELECT DISTINCT FROM t",
       "Parser Error: syntax error at or near \"FROM\": expected an expression (line 1, column 17)\n"
       "LINE 1: SELECT DISTINCT FROM t\n"
       "                        ^"},
      {"SELECT a BETWEEN 1 FROM t",
       "Parser Error: syntax error at or near \"FROM\": expected AND (line 1, column 20)\n"
       "LINE 1: SELECT a BETWEEN 1 FROM t\n"
       "                           ^"},
      {"SELECT a FROM t WHERE a NOT b",
       "Parser Error: syntax error at or near \"b\": expected BETWEEN, IN or LIKE (line 1, column 29)\n"
       "LINE 1: SELECT a FROM t WHERE a NOT b\n"
       "                                    ^"},
      {"SELECT a FROM t WHERE a IN 1",
       "Parser Error: syntax error at or near \"1\": expected \"(\" (line 1, column 28)\n"
       "LINE 1: SELECT a FROM t WHERE a IN 1\n"
       "                                   ^"},
      {"SELECT a FROM t WHERE a IN ()",
       "Parser Error: syntax error at or near \")\": expected an expression (line 1, column 29)\n"
       "LINE 1: SELECT a FROM t WHERE a IN ()\n"
       "                                    ^"},
      {"SELECT a FROM t WHERE a IN (1, 2",
       "Parser Error: syntax error at end of input: expected \")\" (line 1, column 33)\n"
       "LINE 1: SELECT a FROM t WHERE a IN (1, 2\n"
       "                                        ^"},
      {"SELECT a FROM t WHERE a IS TRUE",
       "Parser Error: syntax error at or near \"TRUE\": expected NULL or DISTINCT FROM (line 1, column 28)\n"
       "LINE 1: SELECT a FROM t WHERE a IS TRUE\n"
       "                                   ^"},
      {"SELECT a = b IS NULL FROM t",
       "Parser Error: syntax error at or near \"IS\": expected FROM (line 1, column 14)\n"
       "LINE 1: SELECT a = b IS NULL FROM t\n"
       "                     ^"},
      {"SELECT a FROM t WHERE a BETWEEN 1 AND 2 BETWEEN 3 AND 4",
       "Parser Error: syntax error at or near \"BETWEEN\" (line 1, column 41)\n"
       "LINE 1: SELECT a FROM t WHERE a BETWEEN 1 AND 2 BETWEEN 3 AND 4\n"
       "                                                ^"},
      {"SELECT 1 foo bar",
       "Parser Error: syntax error at or near \"bar\": expected FROM (line 1, column 14)\n"
       "LINE 1: SELECT 1 foo bar\n"
       "                     ^"},
      {"SELECT CAST(a) FROM t",
       "Parser Error: syntax error at or near \")\": expected AS (line 1, column 14)\n"
       "LINE 1: SELECT CAST(a) FROM t\n"
       "                     ^"},
      {"SELECT CAST a FROM t",
       "Parser Error: syntax error at or near \"a\": expected \"(\" (line 1, column 13)\n"
       "LINE 1: SELECT CAST a FROM t\n"
       "                    ^"},
      {"SELECT CAST(a AS) FROM t",
       "Parser Error: syntax error at or near \")\": expected a type (line 1, column 17)\n"
       "LINE 1: SELECT CAST(a AS) FROM t\n"
       "                        ^"},
      {"SELECT CAST(a AS DECIMAL(15,) FROM t",
       "Parser Error: syntax error at or near \")\": expected an integer (line 1, column 29)\n"
       "LINE 1: SELECT CAST(a AS DECIMAL(15,) FROM t\n"
       "                                    ^"},
      {"SELECT CAST(a AS DECIMAL(99999999999999999999)) FROM t",
       "Parser Error: type parameter out of range (line 1, column 26)\n"
       "LINE 1: SELECT CAST(a AS DECIMAL(99999999999999999999)) FROM t\n"
       "                                 ^"},
      {"SELECT CASE WHEN a THEN b FROM t",
       "Parser Error: syntax error at or near \"FROM\": expected END (line 1, column 27)\n"
       "LINE 1: SELECT CASE WHEN a THEN b FROM t\n"
       "                                  ^"},
      {"SELECT CASE END FROM t",
       "Parser Error: syntax error at or near \"END\": expected WHEN (line 1, column 13)\n"
       "LINE 1: SELECT CASE END FROM t\n"
       "                    ^"},
      {"SELECT CASE WHEN a b END FROM t",
       "Parser Error: syntax error at or near \"b\": expected THEN (line 1, column 20)\n"
       "LINE 1: SELECT CASE WHEN a b END FROM t\n"
       "                           ^"},
      {"SELECT CASE WHEN a THEN b ELSE c FROM t",
       "Parser Error: syntax error at or near \"FROM\": expected END (line 1, column 34)\n"
       "LINE 1: SELECT CASE WHEN a THEN b ELSE c FROM t\n"
       "                                         ^"},
      {"SELECT EXTRACT(FROM d) FROM t",
       "Parser Error: syntax error at or near \"FROM\": expected YEAR, MONTH or DAY (line 1, column 16)\n"
       "LINE 1: SELECT EXTRACT(FROM d) FROM t\n"
       "                       ^"},
      {"SELECT EXTRACT(year d) FROM t",
       "Parser Error: syntax error at or near \"d\": expected FROM (line 1, column 21)\n"
       "LINE 1: SELECT EXTRACT(year d) FROM t\n"
       "                            ^"},
      {"SELECT INTERVAL '3' HOUR FROM t",
       "Parser Error: syntax error at or near \"HOUR\": expected DAY, MONTH or YEAR (line 1, column 21)\n"
       "LINE 1: SELECT INTERVAL '3' HOUR FROM t\n"
       "                            ^"},
      {"SELECT DATE '2020-01-01 FROM t",
       "Parser Error: unterminated string literal (line 1, column 13)\n"
       "LINE 1: SELECT DATE '2020-01-01 FROM t\n"
       "                    ^"},
      {"EXPLAIN DROP TABLE t",
       "Parser Error: syntax error at or near \"DROP\": expected SELECT (line 1, column 9)\n"
       "LINE 1: EXPLAIN DROP TABLE t\n"
       "                ^"},
      {"EXPLAIN ANALYZE",
       "Parser Error: syntax error at end of input: expected SELECT (line 1, column 16)\n"
       "LINE 1: EXPLAIN ANALYZE\n"
       "                       ^"},
      {"CREATE TABLE t (a)",
       "Parser Error: syntax error at or near \")\": expected a type (line 1, column 18)\n"
       "LINE 1: CREATE TABLE t (a)\n"
       "                         ^"},
      {"CREATE TABLE t",
       "Parser Error: syntax error at end of input: expected \"(\" or AS (line 1, column 15)\n"
       "LINE 1: CREATE TABLE t\n"
       "                      ^"},
      {"CREATE t (a INT)",
       "Parser Error: syntax error at or near \"t\": expected TABLE, VIEW or INDEX (line 1, column 8)\n"
       "LINE 1: CREATE t (a INT)\n"
       "               ^"},
      {"CREATE TABLE t (a INT,)",
       "Parser Error: syntax error at or near \")\": expected a column name (line 1, column 23)\n"
       "LINE 1: CREATE TABLE t (a INT,)\n"
       "                              ^"},
      {"CREATE TABLE t (a INT NOT)",
       "Parser Error: syntax error at or near \")\": expected NULL (line 1, column 26)\n"
       "LINE 1: CREATE TABLE t (a INT NOT)\n"
       "                                 ^"},
      {"CREATE TABLE t (a INT PRIMARY)",
       "Parser Error: syntax error at or near \")\": expected KEY (line 1, column 30)\n"
       "LINE 1: CREATE TABLE t (a INT PRIMARY)\n"
       "                                     ^"},
      {"CREATE TABLE t (a INT NOT NULL NULL)",
       "Parser Error: conflicting NULL/NOT NULL declarations for column \"a\" (line 1, column 32)\n"
       "LINE 1: CREATE TABLE t (a INT NOT NULL NULL)\n"
       "                                       ^"},
      {"CREATE TABLE IF NOT t (a INT)",
       "Parser Error: syntax error at or near \"t\": expected EXISTS (line 1, column 21)\n"
       "LINE 1: CREATE TABLE IF NOT t (a INT)\n"
       "                            ^"},
      {"CREATE TABLE select (a INT)",
       "Parser Error: syntax error at or near \"select\": expected a table name (line 1, column 14)\n"
       "LINE 1: CREATE TABLE select (a INT)\n"
       "                     ^"},
      {"CREATE TABLE t AS VALUES (1)",
       "Parser Error: syntax error at or near \"VALUES\": expected SELECT (line 1, column 19)\n"
       "LINE 1: CREATE TABLE t AS VALUES (1)\n"
       "                          ^"},
      {"COPY t FROM",
       "Parser Error: syntax error at end of input: expected a quoted file path (line 1, column 12)\n"
       "LINE 1: COPY t FROM\n"
       "                   ^"},
      {"COPY t INTO 'x.csv'",
       "Parser Error: syntax error at or near \"INTO\": expected FROM or TO (line 1, column 8)\n"
       "LINE 1: COPY t INTO 'x.csv'\n"
       "               ^"},
      {"COPY (SELECT 1) 'x.csv'",
       "Parser Error: syntax error at or near \"'x.csv'\": expected FROM or TO (line 1, column 17)\n"
       "LINE 1: COPY (SELECT 1) 'x.csv'\n"
       "                        ^"},
      {"COPY t FROM 'x' WITH DELIMITER '|'",
       "Parser Error: syntax error at or near \"DELIMITER\": expected \"(\" (line 1, column 22)\n"
       "LINE 1: COPY t FROM 'x' WITH DELIMITER '|'\n"
       "                             ^"},
      {"COPY t FROM 'x' ()",
       "Parser Error: syntax error at or near \")\": expected an option name (line 1, column 18)\n"
       "LINE 1: COPY t FROM 'x' ()\n"
       "                         ^"},
      {"COPY t FROM 'x' (DELIMITER '|' HEADER)",
       "Parser Error: syntax error at or near \"HEADER\": expected \")\" (line 1, column 32)\n"
       "LINE 1: COPY t FROM 'x' (DELIMITER '|' HEADER)\n"
       "                                       ^"},
      {"INSERT INTO t VALUES (1,",
       "Parser Error: syntax error at end of input: expected an expression (line 1, column 25)\n"
       "LINE 1: INSERT INTO t VALUES (1,\n"
       "                                ^"},
      {"INSERT INTO t VALUES (1), ",
       "Parser Error: syntax error at end of input: expected \"(\" (line 1, column 26)\n"
       "LINE 1: INSERT INTO t VALUES (1), \n"
       "                                 ^"},
      {"INSERT INTO t",
       "Parser Error: syntax error at end of input: expected VALUES or SELECT (line 1, column 14)\n"
       "LINE 1: INSERT INTO t\n"
       "                     ^"},
      {"INSERT t VALUES (1)",
       "Parser Error: syntax error at or near \"t\": expected INTO (line 1, column 8)\n"
       "LINE 1: INSERT t VALUES (1)\n"
       "               ^"},
      {"INSERT INTO t () VALUES (1)",
       "Parser Error: syntax error at or near \")\": expected a column name (line 1, column 16)\n"
       "LINE 1: INSERT INTO t () VALUES (1)\n"
       "                       ^"},
      {"DROP TABLE",
       "Parser Error: syntax error at end of input: expected a table name (line 1, column 11)\n"
       "LINE 1: DROP TABLE\n"
       "                  ^"},
      {"DROP t",
       "Parser Error: syntax error at or near \"t\": expected TABLE, VIEW or INDEX (line 1, column 6)\n"
       "LINE 1: DROP t\n"
       "             ^"},
      {"DROP TABLE IF EXISTS",
       "Parser Error: syntax error at end of input: expected a table name (line 1, column 21)\n"
       "LINE 1: DROP TABLE IF EXISTS\n"
       "                            ^"},
      {"SHOW TABLE",
       "Parser Error: syntax error at or near \"TABLE\": expected TABLES (line 1, column 6)\n"
       "LINE 1: SHOW TABLE\n"
       "             ^"},
      {"DESCRIBE",
       "Parser Error: syntax error at end of input: expected a table name (line 1, column 9)\n"
       "LINE 1: DESCRIBE\n"
       "                ^"},
      {"SELECT a FROM t;\nDROP TABLE t u",
       "Parser Error: syntax error at or near \"u\" (line 2, column 14)\n"
       "LINE 2: DROP TABLE t u\n"
       "                     ^"},
  };
  for (const Case& c : cases) {
    INFO(c.sql);
    CHECK(error_text(c.sql) == c.text);
  }
}

TEST_CASE("parser: valid SQL this version cannot run says so", "[parser]") {
  auto not_supported = [](const std::string& sql) -> std::string {
    try {
      parse_sql(sql);
    } catch (const gpusql::Error& e) {
      if (e.kind() != gpusql::ErrorKind::NotSupported) return "wrong kind: " + std::string(e.what());
      return e.with_source(sql).what();
    }
    return "no error";
  };
  CHECK(not_supported("SELECT a FROM t JOIN (v JOIN u ON v.a = u.a) AS j ON t.a = j.a") ==
        "Not implemented Error: not supported yet: an alias of joins in parentheses (line 1, column 46)\n"
        "LINE 1: SELECT a FROM t JOIN (v JOIN u ON v.a = u.a) AS j ON t.a = j.a\n"
        "                                                     ^");
}

// Row values compared with rows of as many values become the comparisons of
// their pairs (ast::make_row_comparison()); other uses stay rows, for the
// binder to bind or refuse.
TEST_CASE("parser: row value comparisons become comparisons of pairs", "[parser]") {
  std::vector<ast::Statement> holder;
  struct Case {
    std::string sql;
    std::string items;
  };
  const std::vector<Case> cases = {
      {"SELECT (a, b) = (1, 2)", "((a = 1) AND (b = 2))"},
      {"SELECT (a, b, c) <> (1, 2, 3)", "(((a <> 1) OR (b <> 2)) OR (c <> 3))"},
      {"SELECT (a, b) < (1, 2)", "((a < 1) OR ((a = 1) AND (b < 2)))"},
      {"SELECT (a, b, c) >= (1, 2, 3)", "((a > 1) OR ((a = 1) AND ((b > 2) OR ((b = 2) AND (c >= 3)))))"},
      {"SELECT (a, b) IN ((1, 2), (3, 4), (5, 6))",
       "((((a = 1) AND (b = 2)) OR ((a = 3) AND (b = 4))) OR ((a = 5) AND (b = 6)))"},
      {"SELECT (a, b) NOT IN ((1, 2))", "(NOT ((a = 1) AND (b = 2)))"},
      {"SELECT (a, b) = (1, 2, 3)", "((a, b) = (1, 2, 3))"},
      {"SELECT (a, b) IN (SELECT x, y FROM t)", "((a, b) IN (SELECT x, y FROM t))"},
      {"SELECT (a + 1, 'x' || b) > (2, c)", "(((a + 1) > 2) OR (((a + 1) = 2) AND (('x' || b) > c)))"},
  };
  for (const Case& c : cases) {
    INFO(c.sql);
    CHECK(render_items(parse_one(c.sql, holder)) == c.items);
  }
  // IS [NOT] DISTINCT FROM, a pair at a time.
  const ast::SelectStatement& distinct = parse_one("SELECT (a, b) IS DISTINCT FROM (1, NULL) FROM t", holder);
  const ast::Expr& any = *distinct.items[0].expr;
  CHECK(any.kind == ast::ExprKind::Binary);
  CHECK(any.binary_op == ast::BinaryOp::Or);
  CHECK(any.args.at(0)->distinct_from);
  CHECK(any.args.at(1)->distinct_from);
}

// Joins a FULL JOIN extends with NULLs, and outer joins inside another
// outer join's nullable side, become one FROM item (ast::TableRef::joins)
// that the binder runs first; joins the binder nests itself stay flat.
TEST_CASE("parser: outer joins nested in outer joins become one FROM item", "[parser]") {
  std::vector<ast::Statement> holder;
  struct Case {
    std::string sql;
    std::size_t items;     // FROM items after the parser
    std::size_t joins_at;  // the one that holds joins, or items for none
    std::size_t inside;    // its own FROM items
    ast::JoinKind join;    // how it joins
    std::string text;      // ast::to_string: the parentheses it stands for
  };
  const std::vector<Case> cases = {
      {"SELECT a FROM t FULL JOIN u ON t.a = u.a FULL JOIN v ON v.a = u.a", 2, 0, 2, ast::JoinKind::Comma,
       "SELECT a FROM (t FULL JOIN u ON (t.a = u.a)) FULL JOIN v ON (v.a = u.a)"},
      {"SELECT a FROM t full outer join (v JOIN u ON v.a = u.a) ON t.a = u.a", 2, 1, 2, ast::JoinKind::Full,
       "SELECT a FROM t FULL JOIN (v JOIN u ON (v.a = u.a)) ON (t.a = u.a)"},
      {"SELECT a FROM t LEFT JOIN (v LEFT JOIN u ON v.a = u.a) ON t.a = u.a", 2, 1, 2, ast::JoinKind::Left,
       "SELECT a FROM t LEFT JOIN (v LEFT JOIN u ON (v.a = u.a)) ON (t.a = u.a)"},
      {"SELECT a FROM x, t LEFT JOIN u ON t.a = u.a RIGHT JOIN v ON v.a = u.a", 3, 1, 2, ast::JoinKind::Comma,
       "SELECT a FROM x, (t LEFT JOIN u ON (t.a = u.a)) RIGHT JOIN v ON (v.a = u.a)"},
      // Inner joins inside a nullable side, and outer joins in a row on the
      // side that keeps its rows, are the binder's.
      {"SELECT a FROM t LEFT JOIN (v JOIN u ON v.a = u.a) ON t.a = u.a", 3, 3, 0, ast::JoinKind::Comma, ""},
      {"SELECT a FROM t LEFT JOIN u ON t.a = u.a LEFT JOIN v ON v.a = u.a", 3, 3, 0, ast::JoinKind::Comma, ""},
      {"SELECT a FROM t JOIN u ON t.a = u.a RIGHT JOIN v ON v.a = u.a", 3, 3, 0, ast::JoinKind::Comma, ""},
  };
  for (const Case& c : cases) {
    INFO(c.sql);
    const ast::SelectStatement& s = parse_one(c.sql, holder);
    REQUIRE(s.from.size() == c.items);
    for (std::size_t i = 0; i < s.from.size(); ++i) CHECK(s.from[i].joins == (i == c.joins_at));
    if (c.joins_at == c.items) continue;
    const ast::TableRef& joins = s.from[c.joins_at];
    REQUIRE(joins.subquery);
    CHECK(joins.subquery->from.size() == c.inside);
    CHECK(joins.join == c.join);
    CHECK(ast::to_string(s) == c.text);
  }
}

TEST_CASE("parser: set operations: INTERSECT first, then left to right; ORDER BY and LIMIT of the whole",
          "[parser]") {
  std::vector<ast::Statement> holder;
  using Kind = ast::SetOperation::Kind;
  const auto& s = parse_one("SELECT a FROM t UNION ALL SELECT b FROM u INTERSECT SELECT c FROM v EXCEPT SELECT 1 "
                            "ORDER BY a LIMIT 2",
                            holder);
  REQUIRE(s.set_operation);
  CHECK(s.set_operation->kind == Kind::Except);
  CHECK(s.set_operation->offset == 68);
  CHECK(s.order_by.size() == 1);
  CHECK(s.limit);
  const ast::SelectStatement& left = *s.set_operation->left;
  REQUIRE(left.set_operation);
  CHECK(left.set_operation->kind == Kind::Union);
  CHECK(left.set_operation->all);
  CHECK(left.set_operation->left->from.at(0).name == "t");
  const ast::SelectStatement& intersect = *left.set_operation->right;
  REQUIRE(intersect.set_operation);
  CHECK(intersect.set_operation->kind == Kind::Intersect);
  CHECK(!intersect.set_operation->all);
  CHECK(intersect.set_operation->right->from.at(0).name == "v");
  CHECK(ast::to_string(s) ==
        "((SELECT a FROM t) UNION ALL ((SELECT b FROM u) INTERSECT (SELECT c FROM v))) EXCEPT (SELECT 1) "
        "ORDER BY a LIMIT 2");
  // A parenthesised operand keeps its own ORDER BY and LIMIT; the statement's
  // go on the set operation.
  const auto& p = parse_one("(SELECT a FROM t ORDER BY a LIMIT 1) UNION (SELECT b FROM u) ORDER BY 1", holder);
  REQUIRE(p.set_operation);
  CHECK(p.set_operation->left->limit);
  CHECK(p.set_operation->left->order_by.size() == 1);
  CHECK(p.order_by.size() == 1);
  // A run of one associative operator nests as a balanced tree (each level is
  // a query run inside the one above); a deeper chain of EXCEPT is an error.
  std::string many = "SELECT 0";
  for (int i = 1; i < 3000; ++i) many += " UNION ALL SELECT " + std::to_string(i);
  const auto& wide = parse_one(many, holder);
  std::function<int(const ast::SelectStatement&)> depth = [&](const ast::SelectStatement& q) {
    return q.set_operation ? 1 + std::max(depth(*q.set_operation->left), depth(*q.set_operation->right)) : 0;
  };
  CHECK(depth(wide) == 12);
  std::function<const ast::SelectStatement&(const ast::SelectStatement&)> leftmost =
      [&](const ast::SelectStatement& q) -> const ast::SelectStatement& {
    return q.set_operation ? leftmost(*q.set_operation->left) : q;
  };
  CHECK(ast::to_string(*leftmost(wide).items.at(0).expr) == "0");  // order kept: the first SELECT leftmost
  std::string excepts = "SELECT 0";
  for (int i = 1; i < 300; ++i) excepts += " EXCEPT SELECT " + std::to_string(i);
  CHECK_THROWS_WITH(parse_sql(excepts), Catch::Contains("query too complex (more than 256 set operations nested)"));
  // ORDER BY before a set operation is a syntax error, as in DuckDB.
  CHECK_THROWS_WITH(parse_sql("SELECT a FROM t ORDER BY a UNION SELECT b FROM u"),
                    Catch::Contains("syntax error at or near \"UNION\""));
}

TEST_CASE("parser: subqueries as values, IN sets and tables", "[parser]") {
  std::vector<ast::Statement> holder;
  const auto& scalar = parse_one("SELECT (SELECT MAX(b) FROM u) + 1 FROM t", holder);
  const ast::Expr& plus = *scalar.items[0].expr;
  REQUIRE(plus.args.size() == 2);
  CHECK(plus.args[0]->kind == ast::ExprKind::Subquery);
  CHECK(plus.args[0]->offset == 7);
  CHECK(plus.args[0]->subquery->from.at(0).name == "u");
  const auto& in = parse_one("SELECT a FROM t WHERE a NOT IN (SELECT b FROM u WHERE b > 0)", holder);
  CHECK(in.where->kind == ast::ExprKind::InSubquery);
  CHECK(in.where->negated);
  CHECK(in.where->args.size() == 1);
  CHECK(in.where->subquery->where != nullptr);
  const auto& all = parse_one("SELECT a FROM t WHERE a + 1 >= ALL (SELECT b FROM u) OR a < SOME (SELECT 1)", holder);
  REQUIRE(all.where->kind == ast::ExprKind::Binary);
  const ast::Expr& ge = *all.where->args[0];
  CHECK(ge.kind == ast::ExprKind::Quantified);
  CHECK(ge.binary_op == ast::BinaryOp::Ge);
  CHECK(ge.all);
  CHECK(ge.offset == 22);
  CHECK(ge.subquery->from.at(0).name == "u");
  CHECK(!all.where->args[1]->all);
  CHECK(ast::to_string(ge) == "((a + 1) >= ALL (SELECT b FROM u))");
  // SOME is not reserved: a column may be called some.
  CHECK(parse_one("SELECT some FROM t WHERE a > some", holder).items.size() == 1);
  const auto& derived = parse_one("SELECT d.x FROM (SELECT a AS x FROM t) AS d JOIN u ON d.x = u.b", holder);
  REQUIRE(derived.from.size() == 2);
  CHECK(derived.from[0].subquery->items.at(0).alias == "x");
  CHECK(derived.from[0].alias == "d");
  CHECK(derived.from[0].name.empty());
  CHECK(parse_one("SELECT * FROM (SELECT 1)", holder).from[0].subquery->from.empty());
  check_reparses(holder);
  // Unbalanced: the subquery's ')' is expected.
  CHECK_THROWS_WITH(parse_sql("SELECT (SELECT 1 FROM t"), Catch::Contains("expected \")\""));
}

TEST_CASE("parser: nesting through CASE, CAST, IN and EXTRACT is bounded", "[parser]") {
  const std::string message = "expression nested too deeply (more than 200 levels)";
  using Failure = std::pair<std::string, std::size_t>;
  std::vector<ast::Statement> holder;
  // Each construct nested n levels deep around `x`.
  auto cases = [](int n) { return "SELECT " + repeat("CASE WHEN ", n) + "x" + repeat(" THEN 1 END", n) + " FROM t"; };
  auto casts = [](int n) { return "SELECT " + repeat("CAST(", n) + "x" + repeat(" AS int)", n) + " FROM t"; };
  auto ins = [](int n) { return "SELECT " + repeat("x IN (", n) + "x" + repeat(")", n) + " FROM t"; };
  auto extracts = [](int n) { return "SELECT " + repeat("EXTRACT(day FROM ", n) + "x" + repeat(")", n) + " FROM t"; };
  auto subqueries = [](int n) { return "SELECT " + repeat("(SELECT ", n) + "x" + repeat(")", n) + " FROM t"; };
  auto derived = [](int n) { return "SELECT * FROM " + repeat("(SELECT * FROM ", n) + "t" + repeat(") d", n); };

  SECTION("200 levels parse") {
    CHECK(parse_one(cases(200), holder).items[0].expr->kind == ast::ExprKind::Case);
    CHECK(parse_one(casts(200), holder).items[0].expr->kind == ast::ExprKind::Cast);
    CHECK(parse_one(ins(200), holder).items[0].expr->kind == ast::ExprKind::InList);
    CHECK(parse_one(extracts(200), holder).items[0].expr->kind == ast::ExprKind::Extract);
    CHECK(parse_one(subqueries(200), holder).items[0].expr->kind == ast::ExprKind::Subquery);
    CHECK(parse_one(derived(200), holder).from[0].subquery != nullptr);
    check_reparses(holder);
  }
  SECTION("level 201 is an error where it starts") {
    CHECK(error_of(cases(201)) == Failure{message, 7 + 200 * 10});
    CHECK(error_of(casts(201)) == Failure{message, 7 + 200 * 5 + 4});
    CHECK(error_of(ins(201)) == Failure{message, 7 + 200 * 6 + 5});
    CHECK(error_of(extracts(201)) == Failure{message, 7 + 200 * 17 + 7});
    CHECK(error_of(subqueries(201)).first == message);
    CHECK(error_of(derived(201)).first == message);
    CHECK(error_of(subqueries(5000)).first == message);  // no stack overflow before the limit
    CHECK(error_of("SELECT " + repeat("CASE WHEN (", 101) + "x" + repeat(") THEN 1 END", 101) + " FROM t") ==
          Failure{message, 7 + 100 * 11});
  }
  SECTION("long flat lists are not nesting") {
    const auto& in = parse_one("SELECT x IN (" + repeat("1, ", 5000) + "2) FROM t", holder);
    CHECK(in.items[0].expr->args.size() == 5002);
    const auto& when = parse_one("SELECT CASE" + repeat(" WHEN a THEN b", 5000) + " END FROM t", holder);
    CHECK(when.items[0].expr->args.size() == 10000);
    const auto values = parse_sql("INSERT INTO t VALUES " + repeat("(1, 'x'), ", 5000) + "(2, 'y')");
    CHECK(std::get<ast::InsertStatement>(values[0].body).values.size() == 5001);
  }
}
