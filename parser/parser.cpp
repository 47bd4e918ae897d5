// parse_sql: PEGTL builds a parse tree of the rules selected below, and a
// lowering pass turns it into ast:: nodes with their source ranges. Errors
// become gpusql::Error(Parser) at the byte offset of the token that does not
// fit, worded like PostgreSQL/DuckDB: `syntax error at or near "X"`.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <tao/pegtl/contrib/parse_tree.hpp>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpusql/gpusql.hpp"
#include "parser/ast.hpp"
#include "parser/grammar.hpp"
#include "parser/parser.hpp"

namespace gpusql {
namespace {

namespace g = grammar;
namespace pegtl = tao::pegtl;
namespace pt = tao::pegtl::parse_tree;

// '(' and prefix operators recurse in the matcher; bounding them bounds the
// stack whatever the input.
constexpr int kMaxNesting = 200;
// Long operator chains (a + b + ... ) build left-deep trees; later stages
// recurse over them, so their depth is bounded too.
constexpr int kMaxExpressionDepth = 1000;
// Longest token quoted back in a message.
constexpr std::size_t kMaxTokenQuote = 64;

// ------------------------------------------------------------ parse state

struct ParseState {
  const char* base = nullptr;
  std::size_t size = 0;
  std::size_t lexeme_start = 0;   // the last opening quote or "/*": where "unterminated" errors point
  std::size_t nesting_start = 0;  // the last '(' or prefix operator: where "too deeply" errors point
  int depth = 0;
  // End of each whitespace run -> its start, so a node's end can exclude the
  // whitespace and comments its last token swallowed.
  std::unordered_map<std::size_t, std::size_t> whitespace_start;

  std::size_t offset_of(const char* p) const { return static_cast<std::size_t>(p - base); }
  std::size_t trim_end(std::size_t end) const {
    auto it = whitespace_start.find(end);
    return it == whitespace_start.end() ? end : it->second;
  }
};

template <typename... States>
ParseState& find_parse_state(ParseState& state, States&&...) {
  return state;
}
template <typename First, typename... States>
ParseState& find_parse_state(First&&, States&&... rest) {
  return find_parse_state(rest...);
}

// --------------------------------------------------------- error messages

// What was expected where a must<Rule> failed; nullptr: no hint.
template <typename Rule>
inline constexpr const char* expected = nullptr;
template <> inline constexpr const char* expected<g::select_list> = "an expression";
template <> inline constexpr const char* expected<g::select_item> = "an expression";
template <> inline constexpr const char* expected<g::expression> = "an expression";
template <> inline constexpr const char* expected<g::and_expr> = "an expression";
template <> inline constexpr const char* expected<g::not_expr> = "an expression";
template <> inline constexpr const char* expected<g::additive> = "an expression";
template <> inline constexpr const char* expected<g::multiplicative> = "an expression";
template <> inline constexpr const char* expected<g::unary_expr> = "an expression";
template <> inline constexpr const char* expected<g::argument_list> = "an expression";
template <> inline constexpr const char* expected<g::rparen> = "\")\"";
template <> inline constexpr const char* expected<g::column_name> = "a column name";
template <> inline constexpr const char* expected<g::alias_name> = "an alias";
template <> inline constexpr const char* expected<g::kw_from> = "FROM";
template <> inline constexpr const char* expected<g::from_list> = "a table name";
template <> inline constexpr const char* expected<g::table_ref> = "a table name";

// Unclosed quotes and comments: reported at their opening character.
template <typename Rule>
inline constexpr const char* lexical_error = nullptr;
template <> inline constexpr const char* lexical_error<g::string_literal_rest> = "unterminated string literal";
template <> inline constexpr const char* lexical_error<g::quoted_identifier_rest> = "unterminated quoted identifier";
template <> inline constexpr const char* lexical_error<g::block_comment_rest> = "unterminated block comment";

// Rules entered once per level of syntactic nesting.
template <typename Rule>
inline constexpr bool is_nesting = false;
template <> inline constexpr bool is_nesting<g::paren_operand> = true;
template <> inline constexpr bool is_nesting<g::unary_operand> = true;
template <> inline constexpr bool is_nesting<g::not_operand> = true;
template <> inline constexpr bool is_nesting<g::function_arguments> = true;

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::size_t utf8_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) return 2;
  if ((lead & 0xF0) == 0xE0) return 3;
  if ((lead & 0xF8) == 0xF0) return 4;
  return 1;
}

// The token starting at `offset`, as it is quoted in "at or near" messages.
std::string token_at(std::string_view sql, std::size_t offset) {
  const std::size_t n = sql.size();
  std::size_t i = offset;
  const char c = sql[i];
  if (is_identifier_char(c) || (c == '.' && i + 1 < n && is_digit(sql[i + 1]))) {
    // A word or a number, malformed ones (1abc, 1e) included.
    while (i < n) {
      const char d = sql[i];
      const bool exponent_sign = (d == '+' || d == '-') && i > offset && (sql[i - 1] == 'e' || sql[i - 1] == 'E') &&
                                 is_digit(sql[offset]) && i + 1 < n && is_digit(sql[i + 1]);
      if (!is_identifier_char(d) && !(d == '.' && is_digit(sql[offset])) && !exponent_sign) break;
      ++i;
    }
  } else if (c == '\'' || c == '"') {
    for (++i; i < n; ++i) {
      if (sql[i] != c) continue;
      if (i + 1 < n && sql[i + 1] == c) {
        ++i;
        continue;
      }
      ++i;
      break;
    }
  } else {
    static constexpr std::string_view kTwoCharOperators[] = {"<=", ">=", "<>", "!=", "||", "::"};
    i += utf8_length(static_cast<unsigned char>(c));
    for (std::string_view op : kTwoCharOperators)
      if (sql.substr(offset, 2) == op) i = offset + 2;
  }
  i = std::min(i, n);

  std::string quoted;
  std::size_t j = offset;
  for (; j < i && quoted.size() < kMaxTokenQuote; ++j) {
    const auto byte = static_cast<unsigned char>(sql[j]);
    if (byte < 0x20 || byte == 0x7F) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      quoted += "\\x";
      quoted += kHex[byte >> 4];
      quoted += kHex[byte & 0xF];
    } else {
      quoted += sql[j];
    }
  }
  if (j < i) {
    while (j > offset && (static_cast<unsigned char>(sql[j]) & 0xC0) == 0x80) {  // do not split a character
      --j;
      quoted.pop_back();
    }
    quoted += "...";
  }
  return quoted;
}

Error syntax_error(const ParseState& state, std::size_t offset, const char* expected_what) {
  std::string message;
  if (offset >= state.size) {
    message = "syntax error at end of input";
    offset = state.trim_end(state.size);  // right after the last token, not after trailing comments
  } else {
    message = "syntax error at or near \"" + token_at(std::string_view(state.base, state.size), offset) + "\"";
  }
  if (expected_what != nullptr) message += std::string(": expected ") + expected_what;
  return Error(ErrorKind::Parser, std::move(message), offset);
}

Error nesting_error(std::size_t offset) {
  return Error(ErrorKind::Parser,
               "expression nested too deeply (more than " + std::to_string(kMaxNesting) + " levels)", offset);
}

// Offset of the first byte that is not part of well-formed UTF-8, or npos.
std::size_t invalid_utf8_offset(std::string_view s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
      ++i;
      continue;
    }
    std::size_t len = 0;
    char32_t cp = 0;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
      len = 2;
      cp = b0 & 0x1F;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      len = 3;
      cp = b0 & 0x0F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      len = 4;
      cp = b0 & 0x07;
    } else {
      return i;
    }
    if (i + len > n) return i;
    for (std::size_t k = 1; k < len; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (b & 0x3F);
    }
    const bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    if (overlong || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return i;
    i += len;
  }
  return std::string_view::npos;
}

// ------------------------------------------------------- actions, control

// Actions only record positions; the tree is built by the selector below.
template <typename Rule>
struct action : pegtl::nothing<Rule> {};

template <>
struct action<g::ws> {
  template <typename Input>
  static void apply(const Input& in, ParseState& state) {
    state.whitespace_start.try_emplace(state.offset_of(in.end()), state.offset_of(in.begin()));
  }
};

struct record_lexeme_start {
  template <typename Input>
  static void apply(const Input& in, ParseState& state) {
    state.lexeme_start = state.offset_of(in.begin());
  }
};
template <> struct action<g::single_quote> : record_lexeme_start {};
template <> struct action<g::double_quote> : record_lexeme_start {};
template <> struct action<g::block_comment_open> : record_lexeme_start {};

struct record_nesting_start {
  template <typename Input>
  static void apply(const Input& in, ParseState& state) {
    state.nesting_start = state.offset_of(in.begin());
  }
};
template <> struct action<g::lparen> : record_nesting_start {};
template <> struct action<g::op_sub> : record_nesting_start {};
template <> struct action<g::op_add> : record_nesting_start {};
template <> struct action<g::kw_not> : record_nesting_start {};

struct DepthGuard {
  explicit DepthGuard(int& depth) : depth(depth) { ++depth; }
  ~DepthGuard() { --depth; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;
  int& depth;
};

template <typename Rule>
struct control : pegtl::normal<Rule> {
  // noinline: inlined, the matchers of a whole precedence chain merge into
  // one huge frame per nesting level (16 MB for 200 levels under ASan at -O2);
  // kept apart, 200 levels fit in well under 2 MB in every build.
  template <pegtl::apply_mode A, pegtl::rewind_mode M, template <typename...> class Action,
            template <typename...> class Control, typename Input, typename... States>
  [[gnu::noinline]] static bool match(Input& in, States&&... st) {
    if constexpr (is_nesting<Rule>) {
      ParseState& state = find_parse_state(st...);
      DepthGuard guard(state.depth);
      if (state.depth > kMaxNesting) throw nesting_error(state.nesting_start);
      return pegtl::normal<Rule>::template match<A, M, Action, Control>(in, st...);
    } else if constexpr (expected<Rule> != nullptr) {
      // A failed must<Rule> is reported where Rule started, not wherever a
      // partial match of it stopped.
      return pegtl::normal<Rule>::template match<A, pegtl::rewind_mode::required, Action, Control>(in, st...);
    } else {
      return pegtl::normal<Rule>::template match<A, M, Action, Control>(in, st...);
    }
  }

  template <typename Input, typename... States>
  [[noreturn]] static void raise(const Input& in, States&&... st) {
    const ParseState& state = find_parse_state(st...);
    if constexpr (lexical_error<Rule> != nullptr) {
      throw Error(ErrorKind::Parser, lexical_error<Rule>, state.lexeme_start);
    } else {
      throw syntax_error(state, state.offset_of(in.current()), expected<Rule>);
    }
  }
};

// ------------------------------------------------------------- selection

// Keeps a chain node (a + b - c) only when it has an operator; a lone
// operand stands for itself. Unlike pt::fold_one, keeps the node's range.
struct fold_single : pt::apply<fold_single> {
  template <typename Node, typename... States>
  static void transform(std::unique_ptr<Node>& n, States&&...) {
    if (n->children.size() == 1) n = std::move(n->children.front());
  }
};

template <typename Rule>
using selector = pt::selector<
    Rule,
    pt::store_content::on<g::select_statement, g::select_item, g::star_item, g::qualified_star, g::alias,
                          g::table_ref, g::where_clause, g::identifier, g::numeric_literal, g::string_literal,
                          g::true_literal, g::false_literal, g::null_literal, g::function_call, g::star_argument,
                          g::distinct_arguments, g::column_ref, g::paren_expr, g::negation, g::unary_plus,
                          g::logical_not, g::op_add, g::op_sub, g::op_mul, g::op_div, g::op_mod, g::op_eq,
                          g::op_ne, g::op_lt, g::op_le, g::op_gt, g::op_ge>,
    fold_single::on<g::expression, g::and_expr, g::comparison, g::additive, g::multiplicative>>;

// --------------------------------------------------------------- lowering

using Node = pt::node;

// An expression with the source range it occupies in its parent, which
// includes redundant parentheses and a unary '+' that the node itself omits.
struct Lowered {
  ast::ExprPtr expr;
  std::size_t begin = 0;
  std::size_t end = 0;
  int depth = 1;
};

class Lowering {
 public:
  explicit Lowering(const ParseState& state) : state_(state) {}

  ast::Statement statement(const Node& n) {
    ast::Statement statement;
    statement.offset = begin(n);
    statement.end = end(n);
    ast::SelectStatement select;
    for (const auto& child : n.children) {
      if (child->is_type<g::select_item>()) {
        select.items.push_back(select_item(*child));
      } else if (child->is_type<g::table_ref>()) {
        select.from.push_back(table_ref(*child));
      } else if (child->is_type<g::where_clause>()) {
        select.where = expression(*child->children.at(0)).expr;
      }
    }
    statement.body = std::move(select);
    return statement;
  }

 private:
  const ParseState& state_;

  std::size_t begin(const Node& n) const { return state_.offset_of(n.m_begin.data); }
  std::size_t end(const Node& n) const { return state_.trim_end(state_.offset_of(n.m_end.data)); }
  std::string_view text(const Node& n) const {
    return std::string_view(state_.base + begin(n), end(n) - begin(n));
  }

  std::string identifier(const Node& n) const {
    std::string_view t = text(n);
    if (t.empty() || t.front() != '"') return std::string(t);
    std::string name;
    for (std::size_t i = 1; i + 1 < t.size(); ++i) {
      name += t[i];
      if (t[i] == '"') ++i;  // "" stands for one "
    }
    if (name.empty()) throw Error(ErrorKind::Parser, "zero-length quoted identifier", begin(n));
    return name;
  }

  std::string alias(const Node& n) const { return identifier(*n.children.at(0)); }

  ast::SelectItem select_item(const Node& n) {
    ast::SelectItem item;
    const Node& first = *n.children.at(0);
    if (first.is_type<g::star_item>()) {
      item.expr = finish(ast::make_star("", begin(first)), end(first));
    } else if (first.is_type<g::qualified_star>()) {
      item.expr = finish(ast::make_star(identifier(*first.children.at(0)), begin(first)), end(first));
    } else {
      item.expr = expression(first).expr;
      if (n.children.size() > 1) item.alias = alias(*n.children[1]);
    }
    return item;
  }

  ast::TableRef table_ref(const Node& n) const {
    ast::TableRef ref;
    ref.name = identifier(*n.children.at(0));
    ref.offset = begin(n);
    if (n.children.size() > 1) ref.alias = alias(*n.children[1]);
    return ref;
  }

  static ast::ExprPtr finish(ast::ExprPtr expr, std::size_t end) {
    expr->end = end;
    return expr;
  }

  Lowered leaf(ast::ExprPtr expr, const Node& n) const {
    expr->end = end(n);
    return {std::move(expr), begin(n), end(n), 1};
  }

  // A node built over `children`: the range spans them, the depth tops them.
  Lowered combine(ast::ExprPtr expr, std::size_t b, std::size_t e, int child_depth, std::size_t at) const {
    if (child_depth + 1 > kMaxExpressionDepth)
      throw Error(ErrorKind::Parser,
                  "expression too complex (more than " + std::to_string(kMaxExpressionDepth) + " levels of operators)",
                  at);
    expr->end = e;
    return {std::move(expr), b, e, child_depth + 1};
  }

  Lowered expression(const Node& n) {
    if (n.is_type<g::expression>()) return logical_chain(n, ast::BinaryOp::Or);
    if (n.is_type<g::and_expr>()) return logical_chain(n, ast::BinaryOp::And);
    if (n.is_type<g::comparison>() || n.is_type<g::additive>() || n.is_type<g::multiplicative>())
      return operator_chain(n);
    if (n.is_type<g::logical_not>() || n.is_type<g::negation>()) {
      Lowered operand = expression(*n.children.back());
      const auto op = n.is_type<g::logical_not>() ? ast::UnaryOp::Not : ast::UnaryOp::Negate;
      const std::size_t b = begin(n);
      const std::size_t e = operand.end;
      const int depth = operand.depth;
      return combine(ast::make_unary(op, std::move(operand.expr), b), b, e, depth, b);
    }
    if (n.is_type<g::unary_plus>()) {
      Lowered operand = expression(*n.children.back());
      operand.begin = begin(n);
      return operand;
    }
    if (n.is_type<g::paren_expr>()) {
      Lowered inner = expression(*n.children.at(0));
      inner.begin = begin(n);
      inner.end = end(n);
      return inner;
    }
    if (n.is_type<g::column_ref>()) {
      std::string table;
      std::string name = identifier(*n.children.at(0));
      if (n.children.size() > 1) {
        table = std::move(name);
        name = identifier(*n.children[1]);
      }
      return leaf(ast::make_column(std::move(table), std::move(name), begin(n)), n);
    }
    if (n.is_type<g::function_call>()) return function_call(n);
    return literal(n);
  }

  Lowered logical_chain(const Node& n, ast::BinaryOp op) {
    Lowered acc = expression(*n.children.at(0));
    for (std::size_t i = 1; i < n.children.size(); ++i) {
      Lowered right = expression(*n.children[i]);
      const std::size_t at = right.begin;
      acc = binary(op, std::move(acc), std::move(right), at);
    }
    return acc;
  }

  // Children alternate operand, operator, operand, ...
  Lowered operator_chain(const Node& n) {
    Lowered acc = expression(*n.children.at(0));
    for (std::size_t i = 1; i + 1 < n.children.size(); i += 2) {
      const Node& op = *n.children[i];
      Lowered right = expression(*n.children[i + 1]);
      acc = binary(binary_op(op), std::move(acc), std::move(right), begin(op));
    }
    return acc;
  }

  Lowered binary(ast::BinaryOp op, Lowered left, Lowered right, std::size_t at) const {
    const std::size_t b = left.begin;
    const std::size_t e = right.end;
    const int depth = std::max(left.depth, right.depth);
    return combine(ast::make_binary(op, std::move(left.expr), std::move(right.expr), b), b, e, depth, at);
  }

  static ast::BinaryOp binary_op(const Node& op) {
    if (op.is_type<g::op_add>()) return ast::BinaryOp::Add;
    if (op.is_type<g::op_sub>()) return ast::BinaryOp::Sub;
    if (op.is_type<g::op_mul>()) return ast::BinaryOp::Mul;
    if (op.is_type<g::op_div>()) return ast::BinaryOp::Div;
    if (op.is_type<g::op_mod>()) return ast::BinaryOp::Mod;
    if (op.is_type<g::op_eq>()) return ast::BinaryOp::Eq;
    if (op.is_type<g::op_ne>()) return ast::BinaryOp::Ne;
    if (op.is_type<g::op_lt>()) return ast::BinaryOp::Lt;
    if (op.is_type<g::op_le>()) return ast::BinaryOp::Le;
    if (op.is_type<g::op_gt>()) return ast::BinaryOp::Gt;
    return ast::BinaryOp::Ge;
  }

  Lowered function_call(const Node& n) {
    std::string name = identifier(*n.children.at(0));
    for (char& c : name)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    std::vector<ast::ExprPtr> args;
    bool distinct = false;
    int depth = 0;
    auto add_argument = [&](const Node& arg) {
      Lowered lowered = expression(arg);
      depth = std::max(depth, lowered.depth);
      args.push_back(std::move(lowered.expr));
    };
    for (std::size_t i = 1; i < n.children.size(); ++i) {
      const Node& child = *n.children[i];
      if (child.is_type<g::star_argument>()) {
        args.push_back(finish(ast::make_star("", begin(child)), end(child)));
        depth = std::max(depth, 1);
      } else if (child.is_type<g::distinct_arguments>()) {
        distinct = true;
        for (const auto& arg : child.children) add_argument(*arg);
      } else {
        add_argument(child);
      }
    }
    const std::size_t b = begin(n);
    return combine(ast::make_function(std::move(name), std::move(args), distinct, b), b, end(n), depth, b);
  }

  Lowered literal(const Node& n) const {
    ast::Literal lit;
    if (n.is_type<g::numeric_literal>()) {
      const std::string_view digits = text(n);
      int64_t value = 0;
      const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      if (ec == std::errc() && ptr == digits.data() + digits.size()) {
        lit.kind = ast::Literal::Kind::Integer;
        lit.integer = value;
      } else {  // a '.', an exponent, or too large for BIGINT
        lit.kind = ast::Literal::Kind::Number;
        lit.text = std::string(digits);
      }
    } else if (n.is_type<g::string_literal>()) {
      const std::string_view quoted = text(n);
      lit.kind = ast::Literal::Kind::String;
      for (std::size_t i = 1; i + 1 < quoted.size(); ++i) {
        lit.text += quoted[i];
        if (quoted[i] == '\'') ++i;  // '' stands for one '
      }
    } else if (n.is_type<g::true_literal>() || n.is_type<g::false_literal>()) {
      lit.kind = ast::Literal::Kind::Boolean;
      lit.boolean = n.is_type<g::true_literal>();
    } else {
      lit.kind = ast::Literal::Kind::Null;
    }
    return leaf(ast::make_literal(std::move(lit), begin(n)), n);
  }
};

}  // namespace

std::vector<ast::Statement> parse_sql(std::string_view sql) {
  static constexpr char kEmpty[] = "";
  if (sql.data() == nullptr) sql = std::string_view(kEmpty, 0);
  if (const std::size_t bad = invalid_utf8_offset(sql); bad != std::string_view::npos)
    throw Error(ErrorKind::Parser, "invalid UTF-8 in SQL text", bad);

  ParseState state;
  state.base = sql.data();
  state.size = sql.size();
  pegtl::memory_input<pegtl::tracking_mode::lazy> input(sql.data(), sql.size(), "sql");
  std::unique_ptr<Node> root = pt::parse<g::sql, Node, selector, action, control>(input, state);
  if (!root) throw syntax_error(state, 0, nullptr);  // unreachable: the grammar ends in must<eof>

  std::vector<ast::Statement> statements;
  Lowering lowering(state);
  for (const auto& child : root->children) statements.push_back(lowering.statement(*child));
  return statements;
}

}  // namespace gpusql
