// parse_sql: PEGTL builds a parse tree of the rules selected below, and a
// lowering pass turns it into ast:: nodes with their source ranges. Errors
// become gpusql::Error(Parser) at the byte offset of the token that does not
// fit, worded like PostgreSQL/DuckDB: `syntax error at or near "X"`.
#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tao/pegtl/contrib/parse_tree.hpp>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/query_control.hpp"
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
// Each set operation runs its sides as queries inside it, so their nesting
// is bounded too (a balanced run of one operator stays shallow).
constexpr int kMaxSetOperationDepth = 256;
// Longest token quoted back in a message.
constexpr std::size_t kMaxTokenQuote = 64;

// ------------------------------------------------------------ parse state

struct ParseState {
  const char* base = nullptr;
  std::size_t size = 0;
  std::size_t lexeme_start = 0;   // the last opening quote or "/*": where "unterminated" errors point
  std::size_t nesting_start = 0;  // the last '(' or prefix operator: where "too deeply" errors point
  int depth = 0;
  const QueryControl* query_control = nullptr;  // whose interrupt stops the parse
  // End of each whitespace run -> its start, so a node's end can exclude the
  // whitespace and comments its last token swallowed.
  std::unordered_map<std::size_t, std::size_t> whitespace_start;

  std::size_t offset_of(const char* p) const { return static_cast<std::size_t>(p - base); }
  void check_interrupt() const {
    if (query_control) query_control->check_interrupt();
  }
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
template <> inline constexpr const char* expected<g::concatenation> = "an expression";
template <> inline constexpr const char* expected<g::multiplicative> = "an expression";
template <> inline constexpr const char* expected<g::unary_expr> = "an expression";
template <> inline constexpr const char* expected<g::argument_list> = "an expression";
template <> inline constexpr const char* expected<g::in_items> = "an expression";
template <> inline constexpr const char* expected<g::in_list> = "an expression";
template <> inline constexpr const char* expected<g::group_by_list> = "an expression";
template <> inline constexpr const char* expected<g::order_by_list> = "an expression";
template <> inline constexpr const char* expected<g::order_item> = "an expression";
template <> inline constexpr const char* expected<g::table_function_argument> = "an expression";
template <> inline constexpr const char* expected<g::lparen> = "\"(\"";
template <> inline constexpr const char* expected<g::rparen> = "\")\"";
template <> inline constexpr const char* expected<g::rbracket> = "\"]\"";
template <> inline constexpr const char* expected<g::column_name> = "a column name";
template <> inline constexpr const char* expected<g::alias_name> = "an alias";
template <> inline constexpr const char* expected<g::select_rest> = "FROM";
template <> inline constexpr const char* expected<g::kw_from> = "FROM";
template <> inline constexpr const char* expected<g::from_list> = "a table name";
template <> inline constexpr const char* expected<g::table_ref> = "a table name";
template <> inline constexpr const char* expected<g::table_name> = "a table name";
template <> inline constexpr const char* expected<g::kw_join> = "JOIN";
template <> inline constexpr const char* expected<g::kw_on> = "ON";
template <> inline constexpr const char* expected<g::join_condition> = "ON or USING";
template <> inline constexpr const char* expected<g::using_column> = "a column name";
template <> inline constexpr const char* expected<g::kw_key> = "KEY";
template <> inline constexpr const char* expected<g::kw_set> = "SET";
template <> inline constexpr const char* expected<g::kw_index> = "INDEX";
template <> inline constexpr const char* expected<g::kw_by> = "BY";
template <> inline constexpr const char* expected<g::nulls_position> = "FIRST or LAST";
template <> inline constexpr const char* expected<g::kw_and> = "AND";
template <> inline constexpr const char* expected<g::kw_null> = "NULL";
template <> inline constexpr const char* expected<g::null_or_distinct_from> = "NULL or DISTINCT FROM";
template <> inline constexpr const char* expected<g::negatable_predicate> = "BETWEEN, IN or LIKE";
template <> inline constexpr const char* expected<g::when_clause> = "WHEN";
template <> inline constexpr const char* expected<g::kw_then> = "THEN";
template <> inline constexpr const char* expected<g::kw_end> = "END";
template <> inline constexpr const char* expected<g::kw_as> = "AS";
template <> inline constexpr const char* expected<g::type_name> = "a type";
template <> inline constexpr const char* expected<g::type_parameter_list> = "an integer";
template <> inline constexpr const char* expected<g::type_parameter> = "an integer";
template <> inline constexpr const char* expected<g::extract_field> = "YEAR, MONTH or DAY";
template <> inline constexpr const char* expected<g::interval_unit> = "DAY, MONTH or YEAR";
template <> inline constexpr const char* expected<g::select_statement> = "SELECT";
template <> inline constexpr const char* expected<g::kw_table> = "TABLE";
template <> inline constexpr const char* expected<g::create_target> = "TABLE, VIEW or INDEX";
template <> inline constexpr const char* expected<g::drop_target> = "TABLE, VIEW or INDEX";
template <> inline constexpr const char* expected<g::select_core> = "SELECT";
template <> inline constexpr const char* expected<g::set_operand> = "SELECT";
template <> inline constexpr const char* expected<g::intersect_terms> = "SELECT";
template <> inline constexpr const char* expected<g::cte_body> = "SELECT";
template <> inline constexpr const char* expected<g::cte_query> = "\"(\"";
template <> inline constexpr const char* expected<g::common_table_expression> = "a name";
template <> inline constexpr const char* expected<g::kw_tables> = "TABLES";
template <> inline constexpr const char* expected<g::kw_into> = "INTO";
template <> inline constexpr const char* expected<g::kw_exists> = "EXISTS";
template <> inline constexpr const char* expected<g::table_definition> = "\"(\" or AS";
template <> inline constexpr const char* expected<g::column_definition_list> = "a column name";
template <> inline constexpr const char* expected<g::column_definition> = "a column name";
template <> inline constexpr const char* expected<g::table_element> = "a column name";
template <> inline constexpr const char* expected<g::copy_path> = "a quoted file path";
template <> inline constexpr const char* expected<g::copy_direction> = "FROM or TO";
template <> inline constexpr const char* expected<g::copy_source> = "a table name or a (SELECT ...)";
template <> inline constexpr const char* expected<g::copy_option_list> = "\"(\"";
template <> inline constexpr const char* expected<g::copy_option_items> = "an option name";
template <> inline constexpr const char* expected<g::copy_option> = "an option name";
template <> inline constexpr const char* expected<g::insert_column_list> = "a column name";
template <> inline constexpr const char* expected<g::insert_source> = "VALUES or SELECT";
template <> inline constexpr const char* expected<g::values_rows> = "\"(\"";
template <> inline constexpr const char* expected<g::values_row> = "\"(\"";

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
template <> inline constexpr bool is_nesting<g::paren_select> = true;
template <> inline constexpr bool is_nesting<g::unary_operand> = true;
template <> inline constexpr bool is_nesting<g::not_operand> = true;
template <> inline constexpr bool is_nesting<g::function_arguments> = true;
template <> inline constexpr bool is_nesting<g::case_body> = true;
template <> inline constexpr bool is_nesting<g::cast_operand> = true;
template <> inline constexpr bool is_nesting<g::extract_operand> = true;
template <> inline constexpr bool is_nesting<g::in_operand> = true;
template <> inline constexpr bool is_nesting<g::subquery_body> = true;

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
    static constexpr std::string_view kTwoCharOperators[] = {"<=", ">=", "<>", "!=", "||", "::", "=>", ":="};
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
template <> struct action<g::kw_case> : record_nesting_start {};

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
    } else if constexpr (std::is_same_v<Rule, g::statement> || std::is_same_v<Rule, g::expression>) {
      // Before each statement and each expression: a script of thousands of
      // statements, or one statement of megabytes (an IN list of a million
      // values), stops while it is parsed.
      find_parse_state(st...).check_interrupt();
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
    pt::store_content::on<
        // statements
        g::select_statement, g::explain_statement, g::create_table_statement, g::copy_statement,
        g::values_list, g::values_list_row, g::joined_tables,
        g::insert_statement, g::drop_table_statement, g::drop_view_statement, g::create_view_statement,
        g::create_index_statement, g::unique_index, g::key_columns, g::index_columns, g::table_key_constraint,
        g::primary_key_constraint, g::unique_constraint, g::drop_index_statement, g::update_statement,
        g::assignment, g::delete_statement,
        g::with_clause, g::common_table_expression, g::select_core, g::query_terms, g::intersect_terms,
        g::union_operator, g::except_operator, g::intersect_operator, g::set_all, g::cte_name, g::show_tables_statement, g::describe_statement, g::summarize_statement,
        g::set_statement, g::pragma_statement, g::reset_statement, g::setting_name, g::setting_word, g::setting_negative,
        g::explain_analyze, g::if_not_exists, g::if_exists, g::column_definition, g::not_null_constraint,
        g::null_constraint, g::copy_option, g::null_option_name, g::copy_option_word, g::copy_to, g::insert_columns,
        g::values_row,
        // SELECT clauses
        g::select_distinct, g::select_item, g::star_item, g::qualified_star, g::alias, g::table_ref,
        g::table_function, g::table_file, g::named_argument, g::list_argument, g::column_aliases, g::column_alias, g::comma_join, g::inner_join, g::cross_join, g::left_join, g::right_join, g::full_join,
        g::using_columns, g::using_column, g::natural_join, g::natural_left, g::natural_right, g::natural_full, g::where_clause,
        g::group_by_clause, g::having_clause, g::order_by_clause, g::order_item, g::order_descending,
        g::nulls_first, g::nulls_last, g::limit_clause, g::offset_clause,
        // expressions
        g::identifier, g::numeric_literal, g::string_literal, g::true_literal, g::false_literal, g::null_literal,
        g::date_literal, g::interval_literal, g::unit_day, g::unit_month, g::unit_year, g::function_call, g::keyword_function,
        g::star_argument, g::distinct_arguments, g::column_ref, g::quantified_subquery, g::quantifier_all, g::paren_expr, g::scalar_subquery, g::exists_subquery,
        g::in_subquery,
        g::negation, g::unary_plus,
        g::logical_not, g::case_expr, g::when_clause, g::else_clause, g::cast_expr, g::postfix_cast, g::type_name,
        g::double_precision, g::type_parameter, g::extract_expr, g::substring_call, g::position_call, g::is_null_predicate, g::is_not, g::distinct_from,
        g::between_predicate, g::in_predicate, g::like_predicate, g::not_predicate, g::op_add, g::op_sub,
        g::op_mul, g::op_div, g::op_integer_div, g::op_mod, g::op_concat, g::op_eq, g::op_ne, g::op_lt, g::op_le, g::op_gt, g::op_ge>,
    fold_single::on<g::expression, g::and_expr, g::comparison, g::concatenation, g::additive, g::multiplicative,
                    g::postfix_expr>>;

// --------------------------------------------------------------- lowering

// Parse-tree nodes come from a per-thread free list: PEGTL makes a node for
// every selected rule it tries and frees it when the rule fails, and malloc
// and free were about 60% of a parse (perf, an SSB query of 400 characters:
// 73 us).
struct Node : pt::basic_node<Node> {
  static void* operator new(std::size_t bytes) { return node_pool().take(bytes); }
  static void operator delete(void* p) noexcept { node_pool().give(p); }

 private:
  struct Pool {
    std::vector<void*> free;
    void* take(std::size_t bytes) {
      if (bytes != sizeof(Node) || free.empty()) return ::operator new(bytes);
      void* p = free.back();
      free.pop_back();
      return p;
    }
    void give(void* p) noexcept {
      if (free.size() < kKept) {
        try {
          free.push_back(p);
          return;
        } catch (...) {  // no memory for the list: free the node itself
        }
      }
      ::operator delete(p);
    }
    ~Pool() {
      for (void* p : free) ::operator delete(p);
    }
  };
  static constexpr std::size_t kKept = 4096;
  static Pool& node_pool() {
    static thread_local Pool pool;
    return pool;
  }
};

// An expression with the source range it occupies in its parent, which
// includes redundant parentheses and a unary '+' that the node itself omits.
struct Lowered {
  ast::ExprPtr expr;
  std::size_t begin = 0;
  std::size_t end = 0;
  int depth = 1;
};

std::string lower(std::string text) {
  for (char& c : text)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return text;
}

ast::ExprPtr make_node(ast::ExprKind kind, std::size_t offset) {
  auto expr = std::make_unique<ast::Expr>();
  expr->kind = kind;
  expr->offset = offset;
  expr->end = offset;
  return expr;
}

class Lowering {
 public:
  explicit Lowering(const ParseState& state) : state_(state) {}

  ast::Statement statement(const Node& n) {
    ast::Statement statement;
    statement.offset = begin(n);
    statement.end = end(n);
    if (n.is_type<g::select_statement>()) {
      statement.body = select(n);
    } else if (n.is_type<g::explain_statement>()) {
      statement.body = explain(n);
    } else if (n.is_type<g::create_table_statement>()) {
      statement.body = create_table(n);
    } else if (n.is_type<g::copy_statement>()) {
      statement.body = copy(n);
    } else if (n.is_type<g::insert_statement>()) {
      statement.body = insert(n);
    } else if (n.is_type<g::drop_table_statement>() || n.is_type<g::drop_view_statement>() ||
               n.is_type<g::drop_index_statement>()) {
      ast::DropTableStatement drop;
      drop.view = n.is_type<g::drop_view_statement>();
      drop.index = n.is_type<g::drop_index_statement>();
      for (const auto& child : n.children) {
        if (child->is_type<g::if_exists>()) {
          drop.if_exists = true;
        } else {
          drop.name = identifier(*child);
          drop.name_offset = begin(*child);
        }
      }
      statement.body = std::move(drop);
    } else if (n.is_type<g::create_view_statement>()) {
      ast::CreateViewStatement view;
      view.name = identifier(*n.children.at(0));
      view.name_offset = begin(*n.children.at(0));
      for (std::size_t i = 1; i < n.children.size(); ++i) {
        const Node& child = *n.children[i];
        if (child.is_type<g::column_aliases>())
          for (const auto& c : child.children) view.column_aliases.push_back(identifier(*c));
        else
          view.query = std::make_shared<const ast::SelectStatement>(select(child));
      }
      statement.body = std::move(view);
    } else if (n.is_type<g::create_index_statement>()) {
      statement.body = create_index(n);
    } else if (n.is_type<g::update_statement>()) {
      statement.body = update(n);
    } else if (n.is_type<g::delete_statement>()) {
      ast::DeleteStatement del;
      del.table = identifier(*n.children.at(0));
      del.table_offset = begin(*n.children.at(0));
      if (n.children.size() > 1) del.where = expression(*n.children[1]->children.at(0)).expr;
      statement.body = std::move(del);
    } else if (n.is_type<g::set_statement>() || n.is_type<g::pragma_statement>() || n.is_type<g::reset_statement>()) {
      ast::SetStatement set;
      set.name = lower(identifier(*n.children.at(0)));
      set.name_offset = begin(*n.children.at(0));
      if (n.children.size() > 1) {
        const Node& value = *n.children.back();  // after the = (an operator node) or TO
        set.value_offset = begin(value);
        if (value.is_type<g::setting_word>()) {
          set.value = ast::Literal{};
          set.value->kind = ast::Literal::Kind::String;
          std::string word(text(value));
          while (!word.empty() && std::isspace(static_cast<unsigned char>(word.back()))) word.pop_back();
          set.value->text = std::move(word);
        } else if (value.is_type<g::setting_negative>()) {
          set.value = literal_value(*value.children.at(0));
          if (set.value->kind == ast::Literal::Kind::Integer) set.value->integer = -set.value->integer;
          else set.value->text = "-" + set.value->text;
        } else {
          set.value = literal_value(value);
        }
      }
      statement.body = std::move(set);
    } else if (n.is_type<g::describe_statement>() || n.is_type<g::summarize_statement>()) {
      ast::DescribeStatement describe;
      describe.name = identifier(*n.children.at(0));
      describe.name_offset = begin(*n.children.at(0));
      describe.summarize = n.is_type<g::summarize_statement>();
      statement.body = std::move(describe);
    } else {
      statement.body = ast::ShowTablesStatement{};
    }
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

  // The value of a 'string literal'.
  std::string unquote(const Node& n) const {
    const std::string_view quoted = text(n);
    std::string value;
    for (std::size_t i = 1; i + 1 < quoted.size(); ++i) {
      value += quoted[i];
      if (quoted[i] == '\'') ++i;  // '' stands for one '
    }
    return value;
  }

  std::string alias(const Node& n) const { return identifier(*n.children.at(0)); }

  // ------------------------------------------------------------ statements

  // [WITH ...] query [ORDER BY ...] [LIMIT ...]: the WITH, ORDER BY and
  // LIMIT go on the query, unless it is a parenthesised one with its own:
  // it is then a derived table the statement reads.
  ast::SelectStatement select(const Node& n) {
    ast::SelectStatement tail;
    ast::SelectStatement query;
    for (const auto& child_ptr : n.children) {
      const Node& child = *child_ptr;
      if (child.is_type<g::with_clause>()) {
        for (const auto& cte_node : child.children) tail.with.push_back(common_table_expression(*cte_node));
      } else if (child.is_type<g::query_terms>()) {
        query = query_terms(child);
      } else if (child.is_type<g::order_by_clause>()) {
        for (const auto& item : child.children) tail.order_by.push_back(order_item(*item));
      } else if (child.is_type<g::limit_clause>()) {
        tail.limit = expression(*child.children.at(0)).expr;
      } else if (child.is_type<g::offset_clause>()) {
        tail.offset = expression(*child.children.at(0)).expr;
      }
    }
    const bool has_tail = !tail.order_by.empty() || tail.limit || tail.offset;
    if ((!tail.with.empty() && !query.with.empty()) ||
        (has_tail && (!query.order_by.empty() || query.limit || query.offset))) {
      ast::TableRef ref;
      ref.offset = begin(n);
      ref.subquery = std::make_shared<const ast::SelectStatement>(std::move(query));
      query = ast::SelectStatement{};
      query.items.push_back({finish(ast::make_star("", begin(n)), begin(n)), ""});
      query.from.push_back(std::move(ref));
    }
    if (!tail.with.empty()) query.with = std::move(tail.with);
    if (has_tail) {
      query.order_by = std::move(tail.order_by);
      query.limit = std::move(tail.limit);
      query.offset = std::move(tail.offset);
    }
    return query;
  }

  ast::CommonTableExpression common_table_expression(const Node& n) {
    ast::CommonTableExpression cte;
    for (const auto& part : n.children) {
      if (part->is_type<g::cte_name>()) {
        cte.name = identifier(*part);
        cte.offset = begin(*part);
      } else if (part->is_type<g::column_aliases>()) {
        for (const auto& c : part->children) cte.column_aliases.push_back(identifier(*c));
      } else {
        cte.query = std::make_shared<const ast::SelectStatement>(select(*part));
      }
    }
    return cte;
  }

  // a UNION b EXCEPT c ...: left to right, over intersect_terms.
  ast::SelectStatement query_terms(const Node& n) {
    std::vector<Link> links;
    for (std::size_t i = 1; i < n.children.size();) {
      const Node& op = *n.children[i++];
      const bool all = n.children.at(i)->is_type<g::set_all>();
      if (all) ++i;
      const auto kind = op.is_type<g::union_operator>() ? ast::SetOperation::Kind::Union : ast::SetOperation::Kind::Except;
      links.push_back({kind, all, begin(op), intersect_terms(*n.children.at(i++))});
    }
    return chain(intersect_terms(*n.children.at(0)), std::move(links));
  }

  ast::SelectStatement intersect_terms(const Node& n) {
    std::vector<Link> links;
    for (std::size_t i = 1; i < n.children.size();) {
      const Node& op = *n.children[i++];
      const bool all = n.children.at(i)->is_type<g::set_all>();
      if (all) ++i;
      links.push_back({ast::SetOperation::Kind::Intersect, all, begin(op), set_operand(*n.children.at(i++))});
    }
    return chain(set_operand(*n.children.at(0)), std::move(links));
  }

  // One `op operand` of a chain of set operations.
  struct Link {
    ast::SetOperation::Kind kind;
    bool all;
    std::size_t offset;
    ast::SelectStatement operand;
  };

  // `first` op1 x1 op2 x2 ... read left to right. A run of one associative
  // operator (all but EXCEPT [ALL]) nests as a balanced tree: each level of
  // the tree is a query the binder runs inside the one above, and a
  // thousand-term UNION ALL must not be a thousand levels deep. What stays
  // deeper than kMaxSetOperationDepth (a long run of EXCEPT) is an error.
  ast::SelectStatement chain(ast::SelectStatement first, std::vector<Link> links) {
    ast::SelectStatement result = std::move(first);
    for (std::size_t i = 0; i < links.size();) {
      std::size_t j = i + 1;
      const bool associative = links[i].kind != ast::SetOperation::Kind::Except;
      while (associative && j < links.size() && links[j].kind == links[i].kind && links[j].all == links[i].all) ++j;
      std::vector<ast::SelectStatement> operands;
      operands.push_back(std::move(result));
      for (std::size_t k = i; k < j; ++k) operands.push_back(std::move(links[k].operand));
      result = balanced(operands, 0, operands.size(), links[i].kind, links[i].all, links[i].offset);
      if (set_depth(result) > kMaxSetOperationDepth)
        throw Error(ErrorKind::Parser,
                    "query too complex (more than " + std::to_string(kMaxSetOperationDepth) +
                        " set operations nested)",
                    links[i].offset);
      i = j;
    }
    return result;
  }

  // operands[first, last) joined by one set operation, halves first.
  static ast::SelectStatement balanced(std::vector<ast::SelectStatement>& operands, std::size_t first, std::size_t last,
                                       ast::SetOperation::Kind kind, bool all, std::size_t offset) {
    if (last - first == 1) return std::move(operands[first]);
    const std::size_t middle = first + (last - first) / 2;
    ast::SelectStatement left = balanced(operands, first, middle, kind, all, offset);
    return set_operation(std::move(left), kind, all, balanced(operands, middle, last, kind, all, offset), offset);
  }

  static int set_depth(const ast::SelectStatement& s) {
    if (!s.set_operation) return 0;
    return 1 + std::max(set_depth(*s.set_operation->left), set_depth(*s.set_operation->right));
  }

  ast::SelectStatement set_operand(const Node& n) {
    return n.is_type<g::select_core>() ? select_core(n) : select(n);
  }

  // One item of FROM: a table (`n` a table_ref) or a join of one, appended
  // to `from`; joins in parentheses are appended as if they were not (the
  // same tables and conditions), their first item marking the group's size:
  // the binder needs it under an outer join, whose nullable side it is.
  void from_item(const Node& n, std::vector<ast::TableRef>& from) {
    ast::JoinKind kind = ast::JoinKind::Comma;
    ast::ExprPtr on;
    ast::UsingColumns using_columns;
    if (n.is_type<g::inner_join>() || n.is_type<g::left_join>() || n.is_type<g::right_join>() ||
        n.is_type<g::full_join>()) {
      kind = n.is_type<g::left_join>()    ? ast::JoinKind::Left
             : n.is_type<g::right_join>() ? ast::JoinKind::Right
             : n.is_type<g::full_join>()  ? ast::JoinKind::Full
                                          : ast::JoinKind::Inner;
      const Node& condition = *n.children.at(1);
      if (condition.is_type<g::using_columns>()) {
        using_columns.offset = begin(condition);
        for (const auto& c : condition.children) using_columns.names.push_back({identifier(*c), begin(*c)});
      } else {
        on = expression(condition).expr;
      }
    } else if (n.is_type<g::natural_join>()) {
      const Node& side = *n.children.at(0);
      kind = side.is_type<g::natural_left>()    ? ast::JoinKind::Left
             : side.is_type<g::natural_right>() ? ast::JoinKind::Right
             : side.is_type<g::natural_full>()  ? ast::JoinKind::Full
                                                : ast::JoinKind::Inner;
      using_columns.natural = true;
      using_columns.offset = begin(n);
    } else if (n.is_type<g::cross_join>()) {
      kind = ast::JoinKind::Cross;
    }
    const Node& ref_node = n.is_type<g::table_ref>() ? n : *n.children.at(n.children.size() > 1 && n.is_type<g::natural_join>() ? 1 : 0);
    // The rows a FULL JOIN extends with NULLs on its left are the ones
    // before it back to the last comma (a comma binds loosest), and a RIGHT
    // JOIN's likewise: joins there (outer joins, for a RIGHT JOIN) run first,
    // as one item.
    if (kind == ast::JoinKind::Full && !from.empty() && from.size() - left_side_start(from) > 1)
      wrap_joins(from, left_side_start(from));
    if (kind == ast::JoinKind::Right && !from.empty() && has_outer_join(from, left_side_start(from) + 1))
      wrap_joins(from, left_side_start(from));
    const Node& first = *ref_node.children.at(0);
    if (first.is_type<g::joined_tables>()) {
      if (ref_node.children.size() > 1)
        throw Error(ErrorKind::NotSupported, "not supported yet: an alias of joins in parentheses", begin(*ref_node.children[1]));
      const std::size_t start = from.size();
      for (const auto& item : first.children) from_item(*item, from);
      // Joins a FULL JOIN extends with NULLs, and outer joins a LEFT or
      // RIGHT JOIN nests, run first, as one item.
      if ((kind == ast::JoinKind::Full && from.size() - start > 1) ||
          ((kind == ast::JoinKind::Left || kind == ast::JoinKind::Right) && has_outer_join(from, start + 1)))
        wrap_joins(from, start);
      // The group joins as its first table would (an inner join's ON binds
      // after every table, so it may read any of the group's); the group's
      // own joins keep their kinds.
      ast::TableRef& head = from[start];
      if (head.join != ast::JoinKind::Comma || head.on)
        throw Error(ErrorKind::Invalid, "internal: a parenthesised join group starts with a join", begin(first));
      head.join = kind;
      head.on = std::move(on);
      head.using_columns = std::move(using_columns);
      head.group_size = from.size() - start;
      return;
    }
    ast::TableRef ref = table_ref(ref_node);
    ref.join = kind;
    ref.on = std::move(on);
    ref.using_columns = std::move(using_columns);
    from.push_back(std::move(ref));
  }

  // Where the left side of a JOIN about to join `from` starts: back to the
  // last comma at this level (a comma binds looser than JOIN; joins in
  // parentheses, and a group still being read, count as one item).
  static std::size_t left_side_start(const std::vector<ast::TableRef>& from) {
    std::size_t start = 0;
    for (std::size_t i = 0; i < from.size(); i += from[i].group_size)
      if (from[i].join == ast::JoinKind::Comma) start = i;
    return start;
  }

  static bool has_outer_join(const std::vector<ast::TableRef>& from, std::size_t begin) {
    return std::any_of(from.begin() + static_cast<std::ptrdiff_t>(begin), from.end(), [](const ast::TableRef& r) {
      return r.join == ast::JoinKind::Left || r.join == ast::JoinKind::Right || r.join == ast::JoinKind::Full;
    });
  }

  // from[start...] as one item (ast::TableRef::joins), joined as from[start] was.
  static void wrap_joins(std::vector<ast::TableRef>& from, std::size_t start) {
    ast::TableRef joins;
    ast::TableRef& head = from[start];
    joins.offset = head.offset;
    joins.join = head.join;
    joins.on = std::move(head.on);
    joins.using_columns = std::move(head.using_columns);
    head.join = ast::JoinKind::Comma;
    head.using_columns = {};
    if (head.group_size == from.size() - start) head.group_size = 1;  // its parentheses are the item's
    auto inner = std::make_shared<ast::SelectStatement>();
    inner->items.push_back({ast::make_star("", joins.offset), ""});
    std::move(from.begin() + static_cast<std::ptrdiff_t>(start), from.end(), std::back_inserter(inner->from));
    from.erase(from.begin() + static_cast<std::ptrdiff_t>(start), from.end());
    joins.subquery = std::move(inner);
    joins.joins = true;
    from.push_back(std::move(joins));
  }

  static ast::SelectStatement set_operation(ast::SelectStatement left, ast::SetOperation::Kind kind, bool all,
                                            ast::SelectStatement right, std::size_t offset) {
    auto op = std::make_shared<ast::SetOperation>();
    op->kind = kind;
    op->all = all;
    op->left = std::make_shared<const ast::SelectStatement>(std::move(left));
    op->right = std::make_shared<const ast::SelectStatement>(std::move(right));
    op->offset = offset;
    ast::SelectStatement s;
    s.set_operation = std::move(op);
    return s;
  }

  // SELECT [DISTINCT] items [FROM ...] [WHERE ...] [GROUP BY ...] [HAVING ...]
  ast::SelectStatement select_core(const Node& n) {
    ast::SelectStatement select;
    for (const auto& child_ptr : n.children) {
      const Node& child = *child_ptr;
      if (child.is_type<g::select_distinct>()) {
        select.distinct = true;
      } else if (child.is_type<g::select_item>()) {
        select.items.push_back(select_item(child));
      } else if (child.is_type<g::table_ref>() || child.is_type<g::comma_join>() || child.is_type<g::inner_join>() ||
                 child.is_type<g::cross_join>() || child.is_type<g::left_join>() ||
                 child.is_type<g::right_join>() || child.is_type<g::full_join>() || child.is_type<g::natural_join>()) {
        from_item(child, select.from);
      } else if (child.is_type<g::where_clause>()) {
        select.where = expression(*child.children.at(0)).expr;
      } else if (child.is_type<g::group_by_clause>()) {
        for (const auto& item : child.children) select.group_by.push_back(expression(*item).expr);
      } else if (child.is_type<g::having_clause>()) {
        select.having = expression(*child.children.at(0)).expr;
      }
    }
    return select;
  }

  ast::ExplainStatement explain(const Node& n) {
    ast::ExplainStatement explain;
    for (const auto& child : n.children) {
      if (child->is_type<g::explain_analyze>())
        explain.analyze = true;
      else
        explain.select = select(*child);
    }
    return explain;
  }

  ast::CreateTableStatement create_table(const Node& n) {
    ast::CreateTableStatement create;
    for (const auto& child_ptr : n.children) {
      const Node& child = *child_ptr;
      if (child.is_type<g::if_not_exists>()) {
        create.if_not_exists = true;
      } else if (child.is_type<g::identifier>()) {
        create.name = identifier(child);
        create.name_offset = begin(child);
      } else if (child.is_type<g::column_definition>()) {
        create.columns.push_back(column_definition(child));
      } else if (child.is_type<g::table_key_constraint>()) {
        create.keys.push_back(key_constraint(child));
      } else {
        create.as_select = select(child);
      }
    }
    return create;
  }

  ast::CreateIndexStatement create_index(const Node& n) const {
    ast::CreateIndexStatement index;
    std::size_t names = 0;
    for (const auto& child_ptr : n.children) {
      const Node& child = *child_ptr;
      if (child.is_type<g::unique_index>()) {
        index.unique = true;
      } else if (child.is_type<g::if_not_exists>()) {
        index.if_not_exists = true;
      } else if (child.is_type<g::index_columns>()) {
        for (const auto& c : child.children) index.columns.push_back(identifier(*c));
      } else if (names++ == 0) {
        index.name = identifier(child);
        index.name_offset = begin(child);
      } else {
        index.table = identifier(child);
        index.table_offset = begin(child);
      }
    }
    return index;
  }

  ast::UpdateStatement update(const Node& n) {
    ast::UpdateStatement update;
    update.table = identifier(*n.children.at(0));
    update.table_offset = begin(*n.children.at(0));
    for (std::size_t i = 1; i < n.children.size(); ++i) {
      const Node& child = *n.children[i];
      if (child.is_type<g::where_clause>()) {
        update.where = expression(*child.children.at(0)).expr;
        continue;
      }
      ast::UpdateStatement::Assignment a;
      a.column = identifier(*child.children.at(0));
      a.offset = begin(*child.children.at(0));
      a.value = expression(*child.children.back()).expr;
      update.assignments.push_back(std::move(a));
    }
    return update;
  }

  ast::KeyConstraintAst key_constraint(const Node& n) const {
    ast::KeyConstraintAst key;
    key.offset = begin(n);
    key.primary_key = n.children.at(0)->is_type<g::primary_key_constraint>();
    for (const auto& c : n.children.back()->children) key.columns.push_back(identifier(*c));
    return key;
  }

  ast::ColumnDefinitionAst column_definition(const Node& n) const {
    ast::ColumnDefinitionAst column;
    column.name = identifier(*n.children.at(0));
    column.offset = begin(n);
    column.type = type_name(*n.children.at(1));
    bool said_null = false;
    for (std::size_t i = 2; i < n.children.size(); ++i) {
      const Node& constraint = *n.children[i];
      if (constraint.is_type<g::primary_key_constraint>() || constraint.is_type<g::unique_constraint>()) {
        (constraint.is_type<g::unique_constraint>() ? column.unique : column.primary_key) = true;
        continue;
      }
      const bool not_null = constraint.is_type<g::not_null_constraint>();
      if ((not_null && said_null) || (!not_null && column.not_null))
        throw Error(ErrorKind::Parser, "conflicting NULL/NOT NULL declarations for column \"" + column.name + "\"",
                    begin(constraint));
      column.not_null = column.not_null || not_null;
      said_null = said_null || !not_null;
    }
    return column;
  }

  ast::CopyStatement copy(const Node& n) {
    ast::CopyStatement copy;
    const Node& source = *n.children.at(0);
    copy.table_offset = begin(source);
    if (source.is_type<g::select_statement>()) copy.query = select(source);
    else copy.table = identifier(source);
    std::size_t next = 1;
    if (n.children.at(next)->is_type<g::copy_to>()) {
      copy.to = true;
      ++next;
    }
    if (copy.query && !copy.to)
      throw Error(ErrorKind::Parser, "COPY (SELECT ...) writes TO a file; it cannot read FROM one", copy.table_offset);
    copy.path = unquote(*n.children.at(next++));
    for (std::size_t i = next; i < n.children.size(); ++i) {
      const Node& option = *n.children[i];
      const Node& name = *option.children.at(0);
      ast::Literal value;
      if (option.children.size() > 1 && option.children[1]->is_type<g::copy_option_word>()) {
        value.kind = ast::Literal::Kind::String;  // FORMAT csv reads as FORMAT 'csv'
        value.text = identifier(*option.children[1]->children.at(0));
      } else if (option.children.size() > 1) {
        value = literal_value(*option.children[1]);
      } else {  // a bare option name: HEADER means HEADER true
        value.kind = ast::Literal::Kind::Boolean;
        value.boolean = true;
      }
      copy.options.emplace_back(name.is_type<g::null_option_name>() ? "null" : lower(identifier(name)),
                                std::move(value));
    }
    return copy;
  }

  ast::InsertStatement insert(const Node& n) {
    ast::InsertStatement insert;
    for (const auto& child_ptr : n.children) {
      const Node& child = *child_ptr;
      if (child.is_type<g::identifier>()) {
        insert.table = identifier(child);
        insert.table_offset = begin(child);
      } else if (child.is_type<g::insert_columns>()) {
        for (const auto& column : child.children) insert.columns.push_back(identifier(*column));
      } else if (child.is_type<g::values_row>()) {
        std::vector<ast::ExprPtr> row;
        for (const auto& value : child.children) row.push_back(expression(*value).expr);
        insert.values.push_back(std::move(row));
      } else {
        insert.select = select(child);
      }
    }
    return insert;
  }

  // --------------------------------------------------------------- SELECT

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

  ast::TableRef table_ref(const Node& n) {
    ast::TableRef ref;
    ref.offset = begin(n);
    const Node& first = *n.children.at(0);
    if (first.is_type<g::select_statement>()) {
      ref.subquery = std::make_shared<const ast::SelectStatement>(select(first));
    } else if (first.is_type<g::values_list>()) {
      ref.subquery = std::make_shared<const ast::SelectStatement>(values_list(first));
      ref.alias = "valueslist";  // DuckDB's name for it
    } else if (first.is_type<g::table_function>()) {
      ref.is_function = true;
      ref.name = lower(identifier(*first.children.at(0)));
      for (std::size_t i = 1; i < first.children.size(); ++i) {
        const Node& arg = *first.children[i];
        if (arg.is_type<g::named_argument>())
          ref.function_named_args.emplace_back(lower(identifier(*arg.children.at(0))),
                                               expression(*arg.children.at(1)).expr);
        else if (arg.is_type<g::list_argument>())
          ref.function_args.push_back(list_value(arg));
        else
          ref.function_args.push_back(expression(arg).expr);
      }
    } else if (first.is_type<g::table_file>()) {
      // A file's name reads it with read_csv(), named by its stem (FROM
      // 'data/people.csv' is table people), as in DuckDB.
      ast::ExprPtr path = expression(*first.children.at(0)).expr;
      const std::string& text = path->literal.text;
      const std::string extension = lower(std::filesystem::path(text).extension().string());
      if (extension == ".parquet" || extension == ".json" || extension == ".ndjson" || extension == ".jsonl")
        throw Error(ErrorKind::NotSupported, "not supported yet: reading '" + text + "' (CSV files only)", ref.offset);
      ref.is_function = true;
      ref.name = "read_csv";
      ref.alias = std::filesystem::path(text).stem().string();
      ref.function_args.push_back(std::move(path));
    } else {
      ref.name = identifier(first);
    }
    if (n.children.size() > 1) ref.alias = alias(*n.children[1]);
    if (n.children.size() > 2)
      for (const auto& c : n.children[2]->children) ref.column_aliases.push_back(identifier(*c));
    return ref;
  }

  // VALUES (a, b), (c, d): SELECT a AS col0, b AS col1 UNION ALL SELECT c, d
  // (DuckDB's names; each column the type its values meet in), the rows
  // split in halves so the set operations nest about log2(rows) deep.
  // [a, b, ...] as DuckDB writes it out: list_value(a, b, ...).
  ast::ExprPtr list_value(const Node& n) {
    ast::ExprPtr call = ast::make_function("list_value", {}, false, begin(n));
    for (const auto& element : n.children) call->args.push_back(expression(*element).expr);
    return call;
  }

  ast::SelectStatement values_list(const Node& n) {
    std::vector<ast::SelectStatement> rows;
    for (const auto& row : n.children) {
      ast::SelectStatement select;
      for (const auto& value : row->children) {
        ast::SelectItem item;
        item.expr = expression(*value).expr;
        item.alias = "col" + std::to_string(select.items.size());
        select.items.push_back(std::move(item));
      }
      if (!rows.empty() && select.items.size() != rows.front().items.size())
        throw Error(ErrorKind::Parser, "VALUES lists must all be the same length", begin(*row));
      rows.push_back(std::move(select));
    }
    return balanced(rows, 0, rows.size(), ast::SetOperation::Kind::Union, true, begin(n));
  }

  ast::OrderItem order_item(const Node& n) {
    ast::OrderItem item;
    item.expr = expression(*n.children.at(0)).expr;
    for (std::size_t i = 1; i < n.children.size(); ++i) {
      const Node& modifier = *n.children[i];
      if (modifier.is_type<g::order_descending>())
        item.descending = true;
      else
        item.nulls_first = modifier.is_type<g::nulls_first>();
    }
    return item;
  }

  ast::TypeName type_name(const Node& n) const {
    ast::TypeName type;
    type.offset = begin(n);
    const Node& word = *n.children.at(0);
    type.name = word.is_type<g::double_precision>() ? "double precision" : lower(identifier(word));
    for (std::size_t i = 1; i < n.children.size(); ++i) {
      const std::string_view digits = text(*n.children[i]);
      int64_t value = 0;
      const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      if (ec != std::errc() || ptr != digits.data() + digits.size())
        throw Error(ErrorKind::Parser, "type parameter out of range", begin(*n.children[i]));
      type.parameters.push_back(value);
    }
    return type;
  }

  // ---------------------------------------------------------- expressions

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

  // Lowers `n` as the next argument of `expr`, keeping the deepest depth.
  void add_argument(ast::Expr& expr, int& depth, const Node& n) {
    Lowered lowered = expression(n);
    depth = std::max(depth, lowered.depth);
    expr.args.push_back(std::move(lowered.expr));
  }

  Lowered expression(const Node& n) {
    state_.check_interrupt();  // as the parse does, at each expression
    if (n.is_type<g::expression>()) return logical_chain(n, ast::BinaryOp::Or);
    if (n.is_type<g::and_expr>()) return logical_chain(n, ast::BinaryOp::And);
    if (n.is_type<g::comparison>() && n.children.size() == 2) return predicate(n);
    if (n.is_type<g::comparison>() || n.is_type<g::concatenation>() || n.is_type<g::additive>() ||
        n.is_type<g::multiplicative>())
      return operator_chain(n);
    if (n.is_type<g::negation>()) {
      if (std::optional<Lowered> folded = negated_two_to_the_63(n)) return std::move(*folded);
    }
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
    if (n.is_type<g::exists_subquery>()) {
      ast::ExprPtr exists = make_node(ast::ExprKind::Exists, begin(n));
      exists->subquery = std::make_shared<const ast::SelectStatement>(select(*n.children.at(0)));
      return combine(std::move(exists), begin(n), end(n), 0, begin(n));
    }
    if (n.is_type<g::scalar_subquery>()) {
      ast::ExprPtr subquery = make_node(ast::ExprKind::Subquery, begin(n));
      subquery->subquery = std::make_shared<const ast::SelectStatement>(select(*n.children.at(0)));
      return combine(std::move(subquery), begin(n), end(n), 0, begin(n));
    }
    if (n.is_type<g::paren_expr>()) {
      if (n.children.size() > 1) {  // a row value: the binder says where it may stand
        ast::ExprPtr row = make_node(ast::ExprKind::Row, begin(n));
        int depth = 0;
        for (const auto& child : n.children) add_argument(*row, depth, *child);
        return combine(std::move(row), begin(n), end(n), depth, begin(n));
      }
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
    if (n.is_type<g::function_call>()) return function_call(n, lower(identifier(*n.children.at(0))), 1);
    if (n.is_type<g::keyword_function>())  // LEFT or RIGHT
      return function_call(n, (text(n)[0] | 0x20) == 'l' ? "left" : "right", 0);
    if (n.is_type<g::substring_call>()) {
      ast::ExprPtr call = ast::make_function("substring", {}, false, begin(n));
      int depth = 0;
      for (const auto& child : n.children) add_argument(*call, depth, *child);
      return combine(std::move(call), begin(n), end(n), depth, begin(n));
    }
    if (n.is_type<g::position_call>()) {  // POSITION(needle IN s): position(s, needle)
      ast::ExprPtr call = ast::make_function("position", {}, false, begin(n));
      int depth = 0;
      add_argument(*call, depth, *n.children.at(1));
      add_argument(*call, depth, *n.children.at(0));
      return combine(std::move(call), begin(n), end(n), depth, begin(n));
    }
    if (n.is_type<g::case_expr>()) return case_expression(n);
    if (n.is_type<g::postfix_expr>()) {  // x::a::b is CAST(CAST(x AS a) AS b)
      Lowered acc = expression(*n.children.at(0));
      for (std::size_t i = 1; i < n.children.size(); ++i) {
        ast::ExprPtr cast = make_node(ast::ExprKind::Cast, acc.begin);
        const int depth = acc.depth;
        const std::size_t b = acc.begin;
        cast->args.push_back(std::move(acc.expr));
        cast->cast_type = type_name(*n.children[i]->children.at(0));
        acc = combine(std::move(cast), b, end(*n.children[i]), depth, b);
      }
      return acc;
    }
    if (n.is_type<g::cast_expr>()) {
      ast::ExprPtr cast = make_node(ast::ExprKind::Cast, begin(n));
      int depth = 0;
      add_argument(*cast, depth, *n.children.at(0));
      cast->cast_type = type_name(*n.children.at(1));
      return combine(std::move(cast), begin(n), end(n), depth, begin(n));
    }
    if (n.is_type<g::extract_expr>()) {
      ast::ExprPtr extract = make_node(ast::ExprKind::Extract, begin(n));
      extract->name = lower(identifier(*n.children.at(0)));
      int depth = 0;
      add_argument(*extract, depth, *n.children.at(1));
      return combine(std::move(extract), begin(n), end(n), depth, begin(n));
    }
    return leaf(ast::make_literal(literal_value(n), begin(n)), n);
  }

  // 9223372036854775808 is too large for BIGINT (a Number), but with a minus
  // before it it is BIGINT's minimum. As in PostgreSQL and DuckDB, a minus
  // folds into the number it stands before, with parentheses or spaces
  // between them or not: -9223372036854775808, - 9223372036854775808 and
  // -(9223372036854775808) are the same INTEGER literal; an even count of
  // minus signs leaves the Number. Every other integer literal fits int64,
  // and the binder negates its constant. A unary '+' stops the folding, as
  // in DuckDB, where it is an operator.
  std::optional<Lowered> negated_two_to_the_63(const Node& negation) const {
    const Node* operand = &negation;
    bool negative = false;
    while (operand->is_type<g::negation>() || operand->is_type<g::paren_expr>()) {
      negative ^= operand->is_type<g::negation>();
      operand = operand->children.back().get();
    }
    if (!operand->is_type<g::numeric_literal>()) return std::nullopt;
    std::string_view digits = text(*operand);
    const std::size_t first = digits.find_first_not_of('0');
    if (first == std::string_view::npos || digits.substr(first) != "9223372036854775808") return std::nullopt;
    ast::Literal literal;
    if (negative) {
      literal.kind = ast::Literal::Kind::Integer;
      literal.integer = std::numeric_limits<int64_t>::min();
    } else {
      literal.kind = ast::Literal::Kind::Number;
      literal.text = std::string(digits);
    }
    return leaf(ast::make_literal(std::move(literal), begin(negation)), negation);
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
      if (n.children[i + 1]->is_type<g::quantified_subquery>()) {
        acc = quantified(binary_op(op), std::move(acc), *n.children[i + 1]);
        continue;
      }
      Lowered right = expression(*n.children[i + 1]);
      acc = binary(binary_op(op), std::move(acc), std::move(right), begin(op));
    }
    return acc;
  }

  // left op ANY|ALL (SELECT ...): `q` is the quantified_subquery.
  Lowered quantified(ast::BinaryOp op, Lowered left, const Node& q) {
    ast::ExprPtr e = make_node(ast::ExprKind::Quantified, left.begin);
    e->binary_op = op;
    e->all = q.children.at(0)->is_type<g::quantifier_all>();
    e->subquery = std::make_shared<const ast::SelectStatement>(select(*q.children.back()));
    const std::size_t b = left.begin;
    const int depth = left.depth;
    e->args.push_back(std::move(left.expr));
    return combine(std::move(e), b, end(q), depth, b);
  }

  Lowered binary(ast::BinaryOp op, Lowered left, Lowered right, std::size_t at) const {
    const std::size_t b = left.begin;
    const std::size_t e = right.end;
    const int depth = std::max(left.depth, right.depth);
    if (is_comparison(op) && ast::rows_comparable(*left.expr, *right.expr)) {
      // (a, b) < (c, d): a < c OR (a = c AND b < d), two levels more per value.
      const int levels = 2 * static_cast<int>(left.expr->args.size());
      return combine(ast::make_row_comparison(op, *left.expr, *right.expr, b), b, e, depth + levels, at);
    }
    return combine(ast::make_binary(op, std::move(left.expr), std::move(right.expr), b), b, e, depth, at);
  }

  static bool is_comparison(ast::BinaryOp op) {
    using B = ast::BinaryOp;
    return op == B::Eq || op == B::Ne || op == B::Lt || op == B::Le || op == B::Gt || op == B::Ge;
  }

  static ast::BinaryOp binary_op(const Node& op) {
    if (op.is_type<g::op_add>()) return ast::BinaryOp::Add;
    if (op.is_type<g::op_concat>()) return ast::BinaryOp::Concat;
    if (op.is_type<g::op_sub>()) return ast::BinaryOp::Sub;
    if (op.is_type<g::op_mul>()) return ast::BinaryOp::Mul;
    if (op.is_type<g::op_div>() || op.is_type<g::op_integer_div>()) return ast::BinaryOp::Div;
    if (op.is_type<g::op_mod>()) return ast::BinaryOp::Mod;
    if (op.is_type<g::op_eq>()) return ast::BinaryOp::Eq;
    if (op.is_type<g::op_ne>()) return ast::BinaryOp::Ne;
    if (op.is_type<g::op_lt>()) return ast::BinaryOp::Lt;
    if (op.is_type<g::op_le>()) return ast::BinaryOp::Le;
    if (op.is_type<g::op_gt>()) return ast::BinaryOp::Gt;
    return ast::BinaryOp::Ge;
  }

  // operand IS [NOT] NULL, [NOT] BETWEEN, [NOT] IN, [NOT] LIKE: children are
  // the operand and the predicate, whose own children are the other operands.
  Lowered predicate(const Node& n) {
    Lowered operand = expression(*n.children.at(0));
    const std::size_t b = operand.begin;
    const Node* tail = n.children.at(1).get();
    const std::size_t at = begin(*tail);
    bool negated = false;
    if (tail->is_type<g::not_predicate>()) {
      negated = true;
      tail = tail->children.at(0).get();
    }
    ast::ExprKind kind = ast::ExprKind::Like;
    if (tail->is_type<g::is_null_predicate>()) {
      kind = ast::ExprKind::IsNull;
      negated = !tail->children.empty() && tail->children.front()->is_type<g::is_not>();  // IS NOT ...
      if (!tail->children.empty() && tail->children.back()->is_type<g::distinct_from>()) {
        Lowered other = expression(*tail->children.back()->children.at(0));
        const int depth = std::max(operand.depth, other.depth) + 2;
        if (ast::rows_comparable(*operand.expr, *other.expr))
          return combine(ast::make_row_distinct_from(*operand.expr, *other.expr, !negated, b), b, end(n),
                         depth + static_cast<int>(operand.expr->args.size()), at);
        return combine(ast::make_distinct_from(std::move(operand.expr), std::move(other.expr), !negated, b), b, end(n),
                       depth, at);
      }
    } else if (tail->is_type<g::between_predicate>()) {
      kind = ast::ExprKind::Between;
    } else if (tail->is_type<g::in_predicate>()) {
      kind = tail->children.at(0)->is_type<g::in_subquery>() ? ast::ExprKind::InSubquery : ast::ExprKind::InList;
    }
    ast::ExprPtr expr = make_node(kind, b);
    expr->negated = negated;
    int depth = operand.depth;
    expr->args.push_back(std::move(operand.expr));
    if (kind == ast::ExprKind::InSubquery)
      expr->subquery = std::make_shared<const ast::SelectStatement>(select(*tail->children.at(0)->children.at(0)));
    else if (kind != ast::ExprKind::IsNull)
      for (const auto& child : tail->children) add_argument(*expr, depth, *child);
    if (kind == ast::ExprKind::InList && std::all_of(expr->args.begin() + 1, expr->args.end(), [&](const auto& item) {
          return ast::rows_comparable(*expr->args[0], *item);
        })) {
      // (a, b) IN ((1, 2), (3, 4)): an OR of row equalities.
      std::vector<ast::ExprPtr> items(std::make_move_iterator(expr->args.begin() + 1),
                                      std::make_move_iterator(expr->args.end()));
      const int levels = 2 * static_cast<int>(expr->args[0]->args.size()) + std::bit_width(items.size()) + 1;
      return combine(ast::make_row_in_list(*expr->args[0], items, negated, b), b, end(n), depth + levels, at);
    }
    return combine(std::move(expr), b, end(n), depth, at);
  }

  // CASE [operand] WHEN w THEN t ... [ELSE e] END, laid out as ast.hpp says.
  Lowered case_expression(const Node& n) {
    ast::ExprPtr expr = make_node(ast::ExprKind::Case, begin(n));
    int depth = 0;
    for (const auto& child : n.children) {
      if (child->is_type<g::when_clause>()) {
        add_argument(*expr, depth, *child->children.at(0));
        add_argument(*expr, depth, *child->children.at(1));
      } else if (child->is_type<g::else_clause>()) {
        expr->has_else = true;
        add_argument(*expr, depth, *child->children.at(0));
      } else {
        expr->has_operand = true;
        add_argument(*expr, depth, *child);
      }
    }
    return combine(std::move(expr), begin(n), end(n), depth, begin(n));
  }

  // A call of `name` whose arguments are n's children from `first` on.
  Lowered function_call(const Node& n, std::string name, std::size_t first) {
    ast::ExprPtr call = ast::make_function(std::move(name), {}, false, begin(n));
    int depth = 0;
    for (std::size_t i = first; i < n.children.size(); ++i) {
      const Node& child = *n.children[i];
      if (child.is_type<g::star_argument>()) {
        call->args.push_back(finish(ast::make_star("", begin(child)), end(child)));
        depth = std::max(depth, 1);
      } else if (child.is_type<g::distinct_arguments>()) {
        call->distinct = true;
        for (const auto& arg : child.children) add_argument(*call, depth, *arg);
      } else {
        add_argument(*call, depth, child);
      }
    }
    return combine(std::move(call), begin(n), end(n), depth, begin(n));
  }

  ast::Literal literal_value(const Node& n) const {
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
      lit.kind = ast::Literal::Kind::String;
      lit.text = unquote(n);
    } else if (n.is_type<g::true_literal>() || n.is_type<g::false_literal>()) {
      lit.kind = ast::Literal::Kind::Boolean;
      lit.boolean = n.is_type<g::true_literal>();
    } else if (n.is_type<g::date_literal>()) {
      lit.kind = ast::Literal::Kind::Date;
      lit.text = unquote(*n.children.at(0));
    } else if (n.is_type<g::interval_literal>()) {
      const Node& value = *n.children.at(0);
      const Node& unit = *n.children.at(1);
      lit.kind = ast::Literal::Kind::Interval;
      lit.text = value.is_type<g::string_literal>() ? unquote(value) : std::string(text(value));
      lit.unit = unit.is_type<g::unit_day>() ? "day" : unit.is_type<g::unit_month>() ? "month" : "year";
    } else {
      lit.kind = ast::Literal::Kind::Null;
    }
    return lit;
  }
};

}  // namespace

std::vector<ast::Statement> parse_sql(std::string_view sql, const QueryControl* query_control) {
  static constexpr char kEmpty[] = "";
  if (sql.data() == nullptr) sql = std::string_view(kEmpty, 0);
  if (const std::size_t bad = invalid_utf8_offset(sql); bad != std::string_view::npos)
    throw Error(ErrorKind::Parser, "invalid UTF-8 in SQL text", bad);

  ParseState state;
  state.base = sql.data();
  state.size = sql.size();
  state.query_control = query_control;
  state.whitespace_start.reserve(sql.size() / 4 + 16);
  pegtl::memory_input<pegtl::tracking_mode::lazy> input(sql.data(), sql.size(), "sql");
  std::unique_ptr<Node> root = pt::parse<g::sql, Node, selector, action, control>(input, state);
  if (!root) throw syntax_error(state, 0, nullptr);  // unreachable: the grammar ends in must<eof>

  std::vector<ast::Statement> statements;
  Lowering lowering(state);
  for (const auto& child : root->children) {
    state.check_interrupt();
    statements.push_back(lowering.statement(*child));
  }
  return statements;
}

}  // namespace gpusql
