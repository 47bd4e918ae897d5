// The SQL parser: what it accepts (rendered back fully parenthesised), the
// source ranges it records, and the exact errors it gives for what it rejects.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "gpusql/gpusql.hpp"
#include "parser/ast.hpp"
#include "parser/parser.hpp"

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
  // The binder folds the sign: the parser keeps what was written.
  const ast::Expr& negative = *select.items[6].expr;
  REQUIRE(negative.kind == ast::ExprKind::Unary);
  CHECK(negative.unary_op == ast::UnaryOp::Negate);
  REQUIRE(negative.args.size() == 1);
  CHECK(negative.args[0]->kind == ast::ExprKind::Literal);
  CHECK(negative.args[0]->literal.kind == ast::Literal::Kind::Number);
  CHECK(negative.args[0]->literal.text == "9223372036854775808");
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
      {"SELECT 1",
       "Parser Error: syntax error at end of input: expected FROM (line 1, column 9)\n"
       "LINE 1: SELECT 1\n"
       "                ^"},
      {"SELECT a + * b FROM t",
       "Parser Error: syntax error at or near \"*\": expected an expression (line 1, column 12)\n"
       "LINE 1: SELECT a + * b FROM t\n"
       "                   ^"},
      {"SELECT a FROM t WHERE a >= <= b",
       "Parser Error: syntax error at or near \"<=\": expected an expression (line 1, column 28)\n"
       "LINE 1: SELECT a FROM t WHERE a >= <= b\n"
       "                                   ^"},
      {"SELECT a FROM t GROUP BY a",
       "Parser Error: syntax error at or near \"GROUP\" (line 1, column 17)\n"
       "LINE 1: SELECT a FROM t GROUP BY a\n"
       "                        ^"},
      {"SELECT a FROM t JOIN u ON a = b",
       "Parser Error: syntax error at or near \"JOIN\" (line 1, column 17)\n"
       "LINE 1: SELECT a FROM t JOIN u ON a = b\n"
       "                        ^"},
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
    CHECK(error_of(std::string(1 << 20, '(')) == Failure{"syntax error at or near \"(\"", 0});
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
  const char* pieces[] = {"SELECT ", "FROM ", "WHERE ", "AND ", "OR ", "NOT ", "a", "t", ".", "*", ",", "(",
                          ")",       "+",     "-",      "/",    "%",   "=",    "<>", "<", ">=", "1", "1.5", ".5",
                          "1e3",     "'s'",   "'",      "\"",   "\"q\"", "--c\n", "/*", "*/", ";", " ", "count",
                          "DISTINCT ", "AS ", "TRUE", "NULL", "\xC3\xA9", "\xFF"};
  std::mt19937 rng(12345);
  int parsed = 0;
  int rejected = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string sql;
    const int n = static_cast<int>(rng() % 30);
    for (int k = 0; k < n; ++k) {
      if (i % 3 == 0)
        sql += static_cast<char>(rng() & 0xFF);
      else
        sql += pieces[rng() % std::size(pieces)];
    }
    try {
      for (const auto& statement : parse_sql(sql))
        for (const auto& item : select_of(statement).items) CHECK_FALSE(ast::to_string(*item.expr).empty());
      ++parsed;
    } catch (const gpusql::Error& e) {
      INFO(sql);
      REQUIRE(e.kind() == gpusql::ErrorKind::Parser);
      REQUIRE(e.offset().has_value());
      REQUIRE(*e.offset() <= sql.size());
      ++rejected;
    }
  }
  CHECK(parsed > 0);
  CHECK(rejected > 0);
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
