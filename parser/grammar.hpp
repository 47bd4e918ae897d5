// The SQL grammar as PEGTL rules: one rule per line, no semantics. The parser
// (parser.cpp) turns a parse tree of the selected rules into ast:: nodes and
// attaches the error messages; this header only says what is well-formed.
//
// Conventions:
//  * Every token rule swallows the whitespace and comments after it, so the
//    next rule (and the position of any failure) starts on a real token.
//  * Keywords are case-insensitive and never the prefix of a longer word;
//    reserved ones cannot be used as bare identifiers.
//  * After a committing token, must<> turns a mismatch into an error at the
//    token that does not fit instead of silently backtracking.
#pragma once

#include <tao/pegtl.hpp>

namespace gpusql::grammar {

using tao::pegtl::eof;
using tao::pegtl::eolf;
using tao::pegtl::if_must;
using tao::pegtl::list_must;
using tao::pegtl::must;
using tao::pegtl::not_at;
using tao::pegtl::opt;
using tao::pegtl::plus;
using tao::pegtl::seq;
using tao::pegtl::sor;
using tao::pegtl::star;
using tao::pegtl::until;
using tao::pegtl::ascii::digit;
using tao::pegtl::ascii::identifier_first;
using tao::pegtl::ascii::identifier_other;
using tao::pegtl::ascii::istring;
using tao::pegtl::ascii::not_one;
using tao::pegtl::ascii::one;
using tao::pegtl::ascii::space;
using tao::pegtl::ascii::string;
using tao::pegtl::ascii::two;

// ---------------------------------------------------------------- whitespace

struct line_comment : seq<two<'-'>, until<eolf>> {};
struct block_comment_open : string<'/', '*'> {};
struct block_comment_rest : until<string<'*', '/'>> {};
struct block_comment : if_must<block_comment_open, block_comment_rest> {};
struct ws : star<sor<space, line_comment, block_comment>> {};

// ------------------------------------------------------------------ keywords

template <typename Word>
struct keyword : seq<Word, not_at<identifier_other>, ws> {};

struct kw_all : keyword<TAO_PEGTL_ISTRING("all")> {};
struct kw_and : keyword<TAO_PEGTL_ISTRING("and")> {};
struct kw_any : keyword<TAO_PEGTL_ISTRING("any")> {};
struct kw_as : keyword<TAO_PEGTL_ISTRING("as")> {};
struct kw_asc : keyword<TAO_PEGTL_ISTRING("asc")> {};
struct kw_between : keyword<TAO_PEGTL_ISTRING("between")> {};
struct kw_by : keyword<TAO_PEGTL_ISTRING("by")> {};
struct kw_case : keyword<TAO_PEGTL_ISTRING("case")> {};
struct kw_cast : keyword<TAO_PEGTL_ISTRING("cast")> {};
struct kw_cross : keyword<TAO_PEGTL_ISTRING("cross")> {};
struct kw_desc : keyword<TAO_PEGTL_ISTRING("desc")> {};
struct kw_distinct : keyword<TAO_PEGTL_ISTRING("distinct")> {};
struct kw_else : keyword<TAO_PEGTL_ISTRING("else")> {};
struct kw_end : keyword<TAO_PEGTL_ISTRING("end")> {};
struct kw_except : keyword<TAO_PEGTL_ISTRING("except")> {};
struct kw_exists : keyword<TAO_PEGTL_ISTRING("exists")> {};
struct kw_false : keyword<TAO_PEGTL_ISTRING("false")> {};
struct kw_from : keyword<TAO_PEGTL_ISTRING("from")> {};
struct kw_full : keyword<TAO_PEGTL_ISTRING("full")> {};
struct kw_group : keyword<TAO_PEGTL_ISTRING("group")> {};
struct kw_having : keyword<TAO_PEGTL_ISTRING("having")> {};
struct kw_ilike : keyword<TAO_PEGTL_ISTRING("ilike")> {};
struct kw_in : keyword<TAO_PEGTL_ISTRING("in")> {};
struct kw_inner : keyword<TAO_PEGTL_ISTRING("inner")> {};
struct kw_intersect : keyword<TAO_PEGTL_ISTRING("intersect")> {};
struct kw_is : keyword<TAO_PEGTL_ISTRING("is")> {};
struct kw_join : keyword<TAO_PEGTL_ISTRING("join")> {};
struct kw_left : keyword<TAO_PEGTL_ISTRING("left")> {};
struct kw_like : keyword<TAO_PEGTL_ISTRING("like")> {};
struct kw_limit : keyword<TAO_PEGTL_ISTRING("limit")> {};
struct kw_natural : keyword<TAO_PEGTL_ISTRING("natural")> {};
struct kw_not : keyword<TAO_PEGTL_ISTRING("not")> {};
struct kw_null : keyword<TAO_PEGTL_ISTRING("null")> {};
struct kw_offset : keyword<TAO_PEGTL_ISTRING("offset")> {};
struct kw_on : keyword<TAO_PEGTL_ISTRING("on")> {};
struct kw_or : keyword<TAO_PEGTL_ISTRING("or")> {};
struct kw_order : keyword<TAO_PEGTL_ISTRING("order")> {};
struct kw_outer : keyword<TAO_PEGTL_ISTRING("outer")> {};
struct kw_right : keyword<TAO_PEGTL_ISTRING("right")> {};
struct kw_select : keyword<TAO_PEGTL_ISTRING("select")> {};
struct kw_then : keyword<TAO_PEGTL_ISTRING("then")> {};
struct kw_true : keyword<TAO_PEGTL_ISTRING("true")> {};
struct kw_union : keyword<TAO_PEGTL_ISTRING("union")> {};
struct kw_using : keyword<TAO_PEGTL_ISTRING("using")> {};
struct kw_when : keyword<TAO_PEGTL_ISTRING("when")> {};
struct kw_where : keyword<TAO_PEGTL_ISTRING("where")> {};
struct kw_with : keyword<TAO_PEGTL_ISTRING("with")> {};

// Words that can never be a bare identifier (quote them to use them as one).
// Reserved ahead of the clauses that will use them, so that `FROM t JOIN u`
// is an error at JOIN today rather than a table aliased "JOIN".
struct reserved_keyword
    : sor<kw_all, kw_and, kw_any, kw_as, kw_asc, kw_between, kw_by, kw_case, kw_cast, kw_cross, kw_desc,
          kw_distinct, kw_else, kw_end, kw_except, kw_exists, kw_false, kw_from, kw_full, kw_group, kw_having,
          kw_ilike, kw_in, kw_inner, kw_intersect, kw_is, kw_join, kw_left, kw_like, kw_limit, kw_natural,
          kw_not, kw_null, kw_offset, kw_on, kw_or, kw_order, kw_outer, kw_right, kw_select, kw_then, kw_true,
          kw_union, kw_using, kw_when, kw_where, kw_with> {};

// ----------------------------------------------------------- other tokens

struct lparen : seq<one<'('>, ws> {};
struct rparen : seq<one<')'>, ws> {};
struct comma : seq<one<','>, ws> {};
struct dot : seq<one<'.'>, ws> {};
struct semicolon : seq<one<';'>, ws> {};
struct asterisk : seq<one<'*'>, ws> {};

struct op_add : seq<one<'+'>, ws> {};
struct op_sub : seq<one<'-'>, ws> {};
struct op_mul : seq<one<'*'>, ws> {};
struct op_div : seq<one<'/'>, ws> {};
struct op_mod : seq<one<'%'>, ws> {};
struct op_eq : seq<one<'='>, ws> {};
struct op_ne : seq<sor<string<'<', '>'>, string<'!', '='>>, ws> {};
struct op_le : seq<string<'<', '='>, ws> {};
struct op_lt : seq<one<'<'>, ws> {};
struct op_ge : seq<string<'>', '='>, ws> {};
struct op_gt : seq<one<'>'>, ws> {};

// identifier: bare [A-Za-z_][A-Za-z0-9_]* (not reserved) or "quoted" with "" escape.
struct bare_identifier : seq<not_at<reserved_keyword>, identifier_first, star<identifier_other>> {};
struct double_quote : one<'"'> {};
struct quoted_identifier_rest : seq<star<sor<two<'"'>, not_one<'"'>>>, one<'"'>> {};
struct quoted_identifier : if_must<double_quote, quoted_identifier_rest> {};
struct identifier : seq<sor<quoted_identifier, bare_identifier>, ws> {};

// Numbers: 12, 1.5, .5, 1., 1e-3, 2.5E+10. A letter glued to the digits (1abc,
// 1e) is not a number followed by an alias but a malformed token.
struct exponent : seq<one<'e', 'E'>, opt<one<'+', '-'>>, plus<digit>> {};
struct decimal_number
    : sor<seq<plus<digit>, one<'.'>, star<digit>, opt<exponent>>, seq<one<'.'>, plus<digit>, opt<exponent>>,
          seq<plus<digit>, exponent>> {};
struct integer_number : plus<digit> {};
struct numeric_literal : seq<sor<decimal_number, integer_number>, not_at<identifier_other>, ws> {};

struct single_quote : one<'\''> {};
struct string_literal_rest : seq<star<sor<two<'\''>, not_one<'\''>>>, one<'\''>> {};
struct string_literal : seq<if_must<single_quote, string_literal_rest>, ws> {};

struct true_literal : kw_true {};
struct false_literal : kw_false {};
struct null_literal : kw_null {};

// --------------------------------------------------------------- expressions
//
// Lowest precedence first: OR, AND, NOT, comparison, + -, * / %, unary - +,
// primary. The *_operand rules after a prefix operator or '(', and
// function_arguments, are where nesting deepens; the parser bounds how deep
// they may recurse. Any new recursive construct (CASE, CAST, subqueries) needs
// such a rule too.

struct expression;

struct paren_operand : must<expression, rparen> {};
struct paren_expr : seq<lparen, paren_operand> {};

struct argument_list : list_must<expression, comma> {};
struct star_argument : asterisk {};
struct distinct_arguments : if_must<kw_distinct, argument_list> {};
struct function_arguments : opt<sor<star_argument, distinct_arguments, argument_list>> {};
struct function_call : seq<identifier, lparen, function_arguments, must<rparen>> {};

struct column_name : seq<identifier> {};
struct column_ref : seq<identifier, opt<dot, must<column_name>>> {};

struct literal : sor<numeric_literal, string_literal, true_literal, false_literal, null_literal> {};
struct primary : sor<paren_expr, literal, function_call, column_ref> {};

struct unary_expr;
struct unary_operand : must<unary_expr> {};
struct negation : seq<op_sub, unary_operand> {};
struct unary_plus : seq<op_add, unary_operand> {};
struct unary_expr : sor<negation, unary_plus, primary> {};

struct multiplicative_op : sor<op_mul, op_div, op_mod> {};
struct multiplicative : seq<unary_expr, star<multiplicative_op, must<unary_expr>>> {};

struct additive_op : sor<op_add, op_sub> {};
struct additive : seq<multiplicative, star<additive_op, must<multiplicative>>> {};

// Non-associative: `a < b < c` stops after `a < b`. IS [NOT] NULL, [NOT]
// BETWEEN, [NOT] IN and [NOT] LIKE tails belong beside comparison_tail.
struct comparison_op : sor<op_eq, op_ne, op_le, op_lt, op_ge, op_gt> {};
struct comparison_tail : seq<comparison_op, must<additive>> {};
struct comparison : seq<additive, opt<comparison_tail>> {};

struct not_expr;
struct not_operand : must<not_expr> {};
struct logical_not : seq<kw_not, not_operand> {};
struct not_expr : sor<logical_not, comparison> {};

struct and_expr : seq<not_expr, star<kw_and, must<not_expr>>> {};
struct expression : seq<and_expr, star<kw_or, must<and_expr>>> {};  // the OR level

// ---------------------------------------------------------------- statements

struct alias_name : seq<identifier> {};
struct alias : sor<if_must<kw_as, alias_name>, identifier> {};

struct star_item : asterisk {};
struct qualified_star : seq<identifier, dot, asterisk> {};
struct select_item : sor<star_item, qualified_star, seq<expression, opt<alias>>> {};
struct select_list : list_must<select_item, comma> {};

struct table_name : seq<identifier> {};
struct table_ref : seq<table_name, opt<alias>> {};
struct from_list : list_must<table_ref, comma> {};

struct where_clause : if_must<kw_where, expression> {};

struct select_statement : seq<kw_select, must<select_list, kw_from, from_list>, opt<where_clause>> {};

struct statement : sor<select_statement> {};
struct end_of_input : eof {};
struct sql : seq<ws, opt<statement>, star<semicolon, opt<statement>>, must<end_of_input>> {};

}  // namespace gpusql::grammar
