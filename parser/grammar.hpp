// The SQL grammar as PEGTL rules: one rule per line, no semantics. The parser
// (parser.cpp) turns a parse tree of the selected rules into ast:: nodes and
// attaches the error messages; this header only says what is well-formed.
//
// Conventions:
//  * Every token rule swallows the whitespace and comments after it, so the
//    next rule (and the position of any failure) starts on a real token.
//  * Keywords are case-insensitive and never the prefix of a longer word;
//    reserved ones cannot be used as bare identifiers, unreserved ones mean
//    something only where the grammar expects them (a table named "date").
//  * After a committing token, must<> turns a mismatch into an error at the
//    token that does not fit instead of silently backtracking.
//  * The unsupported_* rules recognise valid SQL this version cannot run
//    (subqueries, outer joins, UNION, WITH); the parser says so by name
//    instead of reporting a syntax error.
#pragma once

#include <tao/pegtl.hpp>

namespace gpusql::grammar {

using tao::pegtl::at;
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
struct kw_some : keyword<TAO_PEGTL_ISTRING("some")> {};  // not reserved: read as one only before (SELECT
struct kw_as : keyword<TAO_PEGTL_ISTRING("as")> {};
struct kw_asc : keyword<TAO_PEGTL_ISTRING("asc")> {};
struct kw_between : keyword<TAO_PEGTL_ISTRING("between")> {};
struct kw_by : keyword<TAO_PEGTL_ISTRING("by")> {};
struct kw_case : keyword<TAO_PEGTL_ISTRING("case")> {};
struct kw_cast : keyword<TAO_PEGTL_ISTRING("cast")> {};
struct kw_create : keyword<TAO_PEGTL_ISTRING("create")> {};
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
struct kw_into : keyword<TAO_PEGTL_ISTRING("into")> {};
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
struct kw_table : keyword<TAO_PEGTL_ISTRING("table")> {};
struct kw_then : keyword<TAO_PEGTL_ISTRING("then")> {};
struct kw_true : keyword<TAO_PEGTL_ISTRING("true")> {};
struct kw_union : keyword<TAO_PEGTL_ISTRING("union")> {};
struct kw_using : keyword<TAO_PEGTL_ISTRING("using")> {};
struct kw_when : keyword<TAO_PEGTL_ISTRING("when")> {};
struct kw_where : keyword<TAO_PEGTL_ISTRING("where")> {};
struct kw_with : keyword<TAO_PEGTL_ISTRING("with")> {};
struct kw_view : keyword<TAO_PEGTL_ISTRING("view")> {};

// Unreserved: statement words (only ever first), words that only follow a
// keyword (CAST(x AS DOUBLE PRECISION), ORDER BY x NULLS FIRST), and words
// that start a construct only when the next token fits it (DATE '...',
// INTERVAL '3' DAY, EXTRACT(...)). Elsewhere they are ordinary names.
struct kw_analyze : keyword<TAO_PEGTL_ISTRING("analyze")> {};
struct kw_copy : keyword<TAO_PEGTL_ISTRING("copy")> {};
struct kw_date : keyword<TAO_PEGTL_ISTRING("date")> {};
struct kw_day : keyword<TAO_PEGTL_ISTRING("day")> {};
struct kw_days : keyword<TAO_PEGTL_ISTRING("days")> {};
struct kw_describe : keyword<TAO_PEGTL_ISTRING("describe")> {};
struct kw_summarize : keyword<TAO_PEGTL_ISTRING("summarize")> {};
struct kw_double : keyword<TAO_PEGTL_ISTRING("double")> {};
struct kw_drop : keyword<TAO_PEGTL_ISTRING("drop")> {};
struct kw_explain : keyword<TAO_PEGTL_ISTRING("explain")> {};
struct kw_extract : keyword<TAO_PEGTL_ISTRING("extract")> {};
struct kw_for : keyword<TAO_PEGTL_ISTRING("for")> {};
struct kw_first : keyword<TAO_PEGTL_ISTRING("first")> {};
struct kw_if : keyword<TAO_PEGTL_ISTRING("if")> {};
struct kw_insert : keyword<TAO_PEGTL_ISTRING("insert")> {};
struct kw_interval : keyword<TAO_PEGTL_ISTRING("interval")> {};
struct kw_last : keyword<TAO_PEGTL_ISTRING("last")> {};
struct kw_month : keyword<TAO_PEGTL_ISTRING("month")> {};
struct kw_months : keyword<TAO_PEGTL_ISTRING("months")> {};
struct kw_nulls : keyword<TAO_PEGTL_ISTRING("nulls")> {};
struct kw_substring : keyword<TAO_PEGTL_ISTRING("substring")> {};
struct kw_position : keyword<TAO_PEGTL_ISTRING("position")> {};
struct kw_precision : keyword<TAO_PEGTL_ISTRING("precision")> {};
struct kw_show : keyword<TAO_PEGTL_ISTRING("show")> {};
struct kw_tables : keyword<TAO_PEGTL_ISTRING("tables")> {};
struct kw_values : keyword<TAO_PEGTL_ISTRING("values")> {};
struct kw_year : keyword<TAO_PEGTL_ISTRING("year")> {};
struct kw_years : keyword<TAO_PEGTL_ISTRING("years")> {};
struct kw_primary : keyword<TAO_PEGTL_ISTRING("primary")> {};
struct kw_key : keyword<TAO_PEGTL_ISTRING("key")> {};
struct kw_unique : keyword<TAO_PEGTL_ISTRING("unique")> {};
struct kw_index : keyword<TAO_PEGTL_ISTRING("index")> {};
struct kw_update : keyword<TAO_PEGTL_ISTRING("update")> {};
struct kw_set : keyword<TAO_PEGTL_ISTRING("set")> {};
struct kw_delete : keyword<TAO_PEGTL_ISTRING("delete")> {};
struct kw_pragma : keyword<TAO_PEGTL_ISTRING("pragma")> {};
struct kw_reset : keyword<TAO_PEGTL_ISTRING("reset")> {};
struct kw_to : keyword<TAO_PEGTL_ISTRING("to")> {};

// Words that can never be a bare identifier (quote them to use them as one).
// Everything that may follow a table or a select item is here, so that
// `FROM t WHERE` never reads WHERE as an alias of t.
struct reserved_keyword
    : sor<kw_all, kw_and, kw_any, kw_as, kw_asc, kw_between, kw_by, kw_case, kw_cast, kw_create, kw_cross, kw_desc,
          kw_distinct, kw_else, kw_end, kw_except, kw_exists, kw_false, kw_from, kw_full, kw_group, kw_having,
          kw_ilike, kw_in, kw_inner, kw_intersect, kw_into, kw_is, kw_join, kw_left, kw_like, kw_limit, kw_natural,
          kw_not, kw_null, kw_offset, kw_on, kw_or, kw_order, kw_outer, kw_right, kw_select, kw_table, kw_then,
          kw_true, kw_union, kw_using, kw_when, kw_where, kw_with> {};

// ----------------------------------------------------------- other tokens

struct lparen : seq<one<'('>, ws> {};
struct rparen : seq<one<')'>, ws> {};
struct comma : seq<one<','>, ws> {};
struct dot : seq<one<'.'>, ws> {};
struct semicolon : seq<one<';'>, ws> {};
struct asterisk : seq<one<'*'>, ws> {};
struct named_argument_arrow : seq<sor<string<'=', '>'>, string<':', '='>>, ws> {};

struct op_add : seq<one<'+'>, ws> {};
struct op_sub : seq<one<'-'>, ws> {};
struct op_mul : seq<one<'*'>, ws> {};
struct op_div : seq<one<'/'>, ws> {};
// a // b: DuckDB's integer division, which is what / already is here (a
// whole quotient of two integers, truncated; a quotient of anything else).
struct op_integer_div : seq<two<'/'>, ws> {};
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

// DATE '1998-12-01' (checked by the binder); INTERVAL '3' MONTH, INTERVAL 3 DAYS.
struct date_literal : seq<kw_date, string_literal> {};
struct unit_day : sor<kw_day, kw_days> {};
struct unit_month : sor<kw_month, kw_months> {};
struct unit_year : sor<kw_year, kw_years> {};
struct interval_unit : sor<unit_day, unit_month, unit_year> {};
struct interval_literal : seq<kw_interval, sor<string_literal, numeric_literal>, must<interval_unit>> {};

// Types as written in CAST and CREATE TABLE: a name, DOUBLE PRECISION, and
// integer parameters: DECIMAL(15, 2), VARCHAR(25).
struct double_precision : seq<kw_double, kw_precision> {};
struct type_parameter : seq<integer_number, not_at<identifier_other>, ws> {};
struct type_parameter_list : list_must<type_parameter, comma> {};
struct type_parameters : seq<lparen, must<type_parameter_list, rparen>> {};
struct type_name : seq<sor<double_precision, identifier>, opt<type_parameters>> {};

// --------------------------------------------------------------- expressions
//
// Lowest precedence first: OR, AND, NOT, comparison (= <> < <= > >=, IS [NOT]
// NULL, [NOT] BETWEEN, [NOT] IN, [NOT] LIKE; non-associative), + -, * / %,
// unary - +, primary. The *_operand rules after a prefix operator or '(', and
// function_arguments and case_body, are where nesting deepens; the parser
// bounds how deep they may recurse. Any new recursive construct needs such a
// rule too.

struct expression;

// guarded<G, R>: R, tried only where G (a rule the parse tree does not keep)
// matches. The parse tree makes a node for every kept rule it tries and frees
// it when the rule fails; an operand tried each primary and operator in turn
// (about 25 nodes), which made allocation most of a parse. A guard must
// match wherever R's first token does, so R fails or succeeds as before and
// errors stay the same.
template <class Guard, class Rule>
struct guarded : seq<at<Guard>, Rule> {};

// (SELECT ...) where a value is expected: a scalar subquery.
struct select_statement;
struct subquery_body : must<select_statement, rparen> {};  // one nesting level, once SELECT follows '('
struct scalar_subquery : seq<lparen, at<sor<kw_select, kw_with>>, subquery_body> {};
struct exists_subquery : seq<kw_exists, must<lparen>, subquery_body> {};  // EXISTS (SELECT ...)

// (a, b, ...): a row value, which the parser reads to refuse by name.
struct paren_operand : must<expression, star<comma, must<expression>>, rparen> {};
struct paren_expr : seq<lparen, paren_operand> {};

struct argument_list : list_must<expression, comma> {};
struct star_argument : asterisk {};
struct distinct_arguments : if_must<kw_distinct, argument_list> {};
struct all_arguments : if_must<kw_all, argument_list> {};  // agg(ALL x): agg(x)
struct function_arguments : opt<sor<star_argument, distinct_arguments, all_arguments, argument_list>> {};
struct function_call : seq<identifier, lparen, function_arguments, must<rparen>> {};
// LEFT(s, n) and RIGHT(s, n): functions named by reserved words.
struct keyword_function : seq<sor<kw_left, kw_right>, lparen, function_arguments, must<rparen>> {};

// CASE [operand] WHEN w THEN t ... [ELSE e] END
struct when_clause : if_must<kw_when, expression, kw_then, expression> {};
struct else_clause : if_must<kw_else, expression> {};
struct case_body : seq<opt<expression>, must<when_clause>, star<when_clause>, opt<else_clause>, must<kw_end>> {};
struct case_expr : seq<kw_case, case_body> {};

// CAST(e AS type)
struct cast_operand : must<expression, kw_as, type_name, rparen> {};
struct cast_expr : seq<kw_cast, must<lparen>, cast_operand> {};

// EXTRACT(YEAR FROM e); the binder says which fields it supports.
struct extract_field : seq<identifier> {};
struct extract_operand : must<extract_field, kw_from, expression, rparen> {};
struct extract_expr : seq<kw_extract, lparen, extract_operand> {};

// SUBSTRING(s FROM start [FOR length]); SUBSTRING(s, start[, length]) is a
// function_call.
struct substring_call : seq<kw_substring, lparen, expression, kw_from, must<expression>,
                            opt<kw_for, must<expression>>, must<rparen>> {};

// POSITION(needle IN s), the standard's STRPOS(s, needle). The needle is a
// concatenation, as in DuckDB and PostgreSQL, so that the IN is POSITION's.
struct concatenation;
struct position_call : seq<kw_position, lparen, concatenation, kw_in, must<concatenation>, must<rparen>> {};

struct column_name : seq<identifier> {};
struct column_ref : seq<identifier, opt<dot, must<column_name>>> {};

struct literal : sor<guarded<sor<digit, one<'.'>>, numeric_literal>, guarded<one<'\''>, string_literal>,
                     guarded<kw_true, true_literal>, guarded<kw_false, false_literal>, guarded<kw_null, null_literal>> {};
struct primary : sor<scalar_subquery, guarded<kw_exists, exists_subquery>, guarded<one<'('>, paren_expr>, literal, guarded<kw_case, case_expr>,
                     guarded<kw_cast, cast_expr>, guarded<kw_extract, extract_expr>, guarded<kw_date, date_literal>,
                     guarded<kw_interval, interval_literal>, guarded<kw_substring, substring_call>,
                     guarded<kw_position, position_call>,
                     guarded<sor<one<'"'>, seq<bare_identifier, ws, one<'('>>>, function_call>,
                     guarded<seq<sor<kw_left, kw_right>, one<'('>>, keyword_function>, column_ref> {};

// x::type, PostgreSQL's and DuckDB's CAST, binding tighter than any operator.
struct postfix_cast : seq<string<':', ':'>, ws, must<type_name>> {};
struct postfix_expr : seq<primary, star<postfix_cast>> {};

struct unary_expr;
struct unary_operand : must<unary_expr> {};
struct negation : seq<op_sub, unary_operand> {};
struct unary_plus : seq<op_add, unary_operand> {};
struct unary_expr : sor<guarded<one<'-'>, negation>, guarded<one<'+'>, unary_plus>, postfix_expr> {};

struct multiplicative_op : guarded<one<'*', '/', '%'>, sor<op_mul, op_integer_div, op_div, op_mod>> {};
struct multiplicative : seq<unary_expr, star<multiplicative_op, must<unary_expr>>> {};

struct additive_op : guarded<one<'+', '-'>, sor<op_add, op_sub>> {};
struct additive : seq<multiplicative, star<additive_op, must<multiplicative>>> {};

// a || b: looser than + and -, tighter than comparisons (PostgreSQL's order).
struct op_concat : seq<string<'|', '|'>, ws> {};
struct concat_op : guarded<one<'|'>, op_concat> {};
struct concatenation : seq<additive, star<concat_op, must<additive>>> {};

// Non-associative: `a < b < c` and `a = b IS NULL` stop after the first
// comparison. BETWEEN's bounds are additive, so its AND is its own.
struct comparison_op : guarded<one<'=', '<', '>', '!'>, sor<op_eq, op_ne, op_le, op_lt, op_ge, op_gt>> {};
// x op ANY|SOME|ALL (SELECT ...)
struct quantifier_all : kw_all {};
struct quantified_subquery : seq<sor<kw_any, kw_some, quantifier_all>, lparen, at<kw_select>, subquery_body> {};
struct comparison_tail : seq<comparison_op, sor<quantified_subquery, must<concatenation>>> {};
struct is_not : kw_not {};
// x IS [NOT] DISTINCT FROM y: equality where NULL equals NULL, never NULL.
struct distinct_from : if_must<kw_distinct, kw_from, concatenation> {};
struct null_or_distinct_from : sor<kw_null, distinct_from> {};
struct is_null_predicate : if_must<kw_is, opt<is_not>, null_or_distinct_from> {};
struct between_predicate : if_must<kw_between, concatenation, kw_and, concatenation> {};
struct in_list : list_must<expression, comma> {};
struct in_subquery : seq<at<sor<kw_select, kw_with>>, select_statement> {};
struct in_items : sor<in_subquery, in_list> {};
struct in_operand : must<in_items, rparen> {};
struct in_predicate : if_must<kw_in, lparen, in_operand> {};
struct like_predicate : if_must<kw_like, concatenation> {};
struct negatable_predicate : sor<between_predicate, in_predicate, like_predicate> {};
struct not_predicate : if_must<kw_not, negatable_predicate> {};
struct predicate : sor<comparison_tail, guarded<kw_is, is_null_predicate>, guarded<kw_between, between_predicate>,
                       guarded<kw_in, in_predicate>, guarded<kw_like, like_predicate>, guarded<kw_not, not_predicate>> {};
struct comparison : seq<concatenation, opt<predicate>> {};

struct not_expr;
struct not_operand : must<not_expr> {};
struct logical_not : seq<kw_not, not_operand> {};
struct not_expr : sor<logical_not, comparison> {};

struct and_expr : seq<not_expr, star<kw_and, must<not_expr>>> {};
struct expression : seq<and_expr, star<kw_or, must<and_expr>>> {};  // the OR level

// -------------------------------------------------------------------- SELECT

struct alias_name : seq<identifier> {};
struct alias : sor<if_must<kw_as, alias_name>, identifier> {};

struct star_item : asterisk {};
struct qualified_star : seq<identifier, dot, asterisk> {};
struct select_item : sor<star_item, qualified_star, seq<expression, opt<alias>>> {};
struct select_list : list_must<select_item, comma> {};

// FROM t [AS] a, read_csv('path', delim => '|') [AS] a, (SELECT ...) [AS] a, ...
struct named_argument : seq<identifier, named_argument_arrow, must<expression>> {};
// ['a.csv', 'b.csv']: a list, read as DuckDB's list_value('a.csv', 'b.csv');
// only a table function's argument (read_csv of several files).
struct rbracket : seq<one<']'>, ws> {};
struct list_argument : seq<one<'['>, ws, opt<argument_list>, must<rbracket>> {};
struct table_function_argument : sor<named_argument, list_argument, expression> {};
struct table_function_arguments : opt<list_must<table_function_argument, comma>> {};
struct table_function : seq<identifier, lparen, table_function_arguments, must<rparen>> {};
struct table_name : seq<identifier> {};
// FROM 'file.csv': read_csv('file.csv'), as DuckDB's replacement scan.
struct table_file : seq<string_literal> {};
struct derived_table : seq<lparen, at<sor<kw_select, kw_with>>, subquery_body> {};
// (VALUES (1, 'a'), (2, 'b')) [AS] v [(x, y)]
struct values_list_row : seq<lparen, must<argument_list, rparen>> {};
struct values_list : seq<lparen, kw_values, must<list_must<values_list_row, comma>, rparen>> {};
struct column_alias : seq<identifier> {};
struct column_aliases : seq<lparen, must<column_alias>, star<comma, must<column_alias>>, must<rparen>> {};
// (a JOIN b ON ...): joins in parentheses, read as if they were not.
struct from_list;
struct joined_tables : seq<lparen, from_list, must<rparen>> {};
struct table_ref
    : seq<sor<table_function, values_list, derived_table, joined_tables, table_file, table_name>,
          opt<alias, opt<column_aliases>>> {};

struct comma_join : seq<comma, must<table_ref>> {};
// ON condition, or USING (a, b): the columns both sides have, equal.
struct using_column : seq<identifier> {};
struct using_columns : if_must<kw_using, lparen, using_column, star<comma, must<using_column>>, rparen> {};
struct join_condition : sor<seq<kw_on, must<expression>>, using_columns> {};
struct inner_join : seq<sor<if_must<kw_inner, kw_join>, kw_join>, must<table_ref, join_condition>> {};
struct cross_join : if_must<kw_cross, kw_join, table_ref> {};
struct left_join : if_must<kw_left, opt<kw_outer>, kw_join, table_ref, join_condition> {};
struct right_join : if_must<kw_right, opt<kw_outer>, kw_join, table_ref, join_condition> {};
struct full_join : if_must<kw_full, opt<kw_outer>, kw_join, table_ref, join_condition> {};
// NATURAL [INNER | LEFT | RIGHT | FULL [OUTER]] JOIN: USING every column
// name both sides have.
struct natural_left : seq<kw_left, opt<kw_outer>> {};
struct natural_right : seq<kw_right, opt<kw_outer>> {};
struct natural_full : seq<kw_full, opt<kw_outer>> {};
struct natural_join
    : if_must<kw_natural, opt<sor<kw_inner, natural_left, natural_right, natural_full>>, kw_join, table_ref> {};
struct from_list
    : seq<table_ref, star<sor<comma_join, inner_join, cross_join, left_join, right_join, full_join, natural_join>>> {};
struct from_clause : if_must<kw_from, from_list> {};

struct where_clause : if_must<kw_where, expression> {};
struct group_by_list : list_must<expression, comma> {};
struct group_by_clause : if_must<kw_group, kw_by, group_by_list> {};
struct having_clause : if_must<kw_having, expression> {};

struct order_ascending : kw_asc {};
struct order_descending : kw_desc {};
struct nulls_first : kw_first {};
struct nulls_last : kw_last {};
struct nulls_position : sor<nulls_first, nulls_last> {};
struct order_item
    : seq<expression, opt<sor<order_ascending, order_descending>>, opt<if_must<kw_nulls, nulls_position>>> {};
struct order_by_list : list_must<order_item, comma> {};
struct order_by_clause : if_must<kw_order, kw_by, order_by_list> {};

struct limit_clause : if_must<kw_limit, expression> {};
struct offset_clause : if_must<kw_offset, expression> {};
struct limit_offset : sor<seq<limit_clause, opt<offset_clause>>, seq<offset_clause, opt<limit_clause>>> {};

// After the select list: the clauses (FROM optional, as in DuckDB: SELECT
// 1 + 1 reads one row of no columns), then a set operation, ORDER BY, LIMIT
// or the end. ORDER BY and LIMIT belong to the whole statement (after the
// last operand of a set operation); they are select_statement's.
struct statement_end : at<sor<one<';'>, one<')'>, eof>> {};  // ')': the end of a subquery
struct select_clauses : seq<opt<from_clause>, opt<where_clause>, opt<group_by_clause>, opt<having_clause>> {};
struct clause_start : at<sor<kw_from, kw_where, kw_group, kw_having>> {};
struct after_select : at<sor<kw_union, kw_intersect, kw_except, kw_order, kw_limit, kw_offset>> {};
struct select_rest : sor<seq<clause_start, select_clauses>, after_select, statement_end> {};

struct select_distinct : kw_distinct {};
struct select_core : seq<kw_select, opt<sor<select_distinct, kw_all>>, must<select_list, select_rest>> {};

// a UNION [ALL] b, a INTERSECT b, a EXCEPT b: INTERSECT binds tighter, and
// an operand may be a whole statement in parentheses.
struct paren_select : must<select_statement, rparen> {};
struct set_operand : sor<select_core, seq<lparen, at<sor<kw_select, kw_with, one<'('>>>, paren_select>> {};
struct set_all : kw_all {};
struct set_quantifier : opt<sor<set_all, kw_distinct>> {};
struct union_operator : kw_union {};
struct except_operator : kw_except {};
struct intersect_operator : kw_intersect {};
struct intersect_terms : seq<set_operand, star<intersect_operator, set_quantifier, must<set_operand>>> {};
struct query_terms : seq<intersect_terms, star<sor<union_operator, except_operator>, set_quantifier, must<intersect_terms>>> {};

struct statement_tail : seq<opt<order_by_clause>, opt<limit_offset>> {};
// WITH name [(a, b, ...)] AS (SELECT ...), ... SELECT ...
struct cte_name : seq<identifier> {};
struct cte_body : seq<at<sor<kw_select, kw_with>>, subquery_body> {};
struct cte_query : seq<lparen, must<cte_body>> {};
struct common_table_expression : seq<cte_name, opt<column_aliases>, must<kw_as, cte_query>> {};
struct with_clause : if_must<kw_with, list_must<common_table_expression, comma>> {};
struct select_statement : sor<seq<query_terms, statement_tail>, seq<with_clause, must<query_terms>, statement_tail>> {};

// ---------------------------------------------------------------- statements

struct explain_analyze : kw_analyze {};
struct explain_statement : if_must<kw_explain, opt<explain_analyze>, select_statement> {};

struct if_not_exists : seq<kw_if, kw_not, must<kw_exists>> {};
struct if_exists : seq<kw_if, kw_exists> {};

struct not_null_constraint : seq<kw_not, must<kw_null>> {};
struct null_constraint : kw_null {};
struct primary_key_constraint : seq<kw_primary, must<kw_key>> {};
struct unique_constraint : kw_unique {};
struct column_definition
    : seq<identifier, must<type_name>,
          star<sor<not_null_constraint, null_constraint, primary_key_constraint, unique_constraint>>> {};
// PRIMARY KEY (a, b) | UNIQUE (a, b) after the columns
struct key_columns : seq<lparen, must<list_must<column_name, comma>, rparen>> {};
// An index's columns, each with an order (accepted, as DuckDB does: the
// index only enforces uniqueness).
struct index_column : seq<column_name, opt<sor<kw_asc, kw_desc>>> {};
struct index_columns : seq<lparen, must<list_must<index_column, comma>, rparen>> {};
struct table_key_constraint : seq<sor<primary_key_constraint, unique_constraint>, at<one<'('>>, must<key_columns>> {};
struct table_element : sor<table_key_constraint, column_definition> {};
struct column_definition_list : list_must<table_element, comma> {};
struct column_definitions : seq<lparen, must<column_definition_list, rparen>> {};
struct create_as : if_must<kw_as, select_statement> {};
struct table_definition : sor<column_definitions, create_as> {};
struct create_table_statement : if_must<kw_table, opt<if_not_exists>, table_name, table_definition> {};
// CREATE VIEW name [(a, b, ...)] AS SELECT ...
struct create_view_statement : if_must<kw_view, table_name, opt<column_aliases>, kw_as, select_statement> {};
// CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON t (a, b)
struct unique_index : kw_unique {};
struct create_index_statement
    : seq<opt<unique_index>, kw_index, must<opt<if_not_exists>, table_name, kw_on, table_name, index_columns>> {};
struct create_target : sor<create_table_statement, create_view_statement, create_index_statement> {};
struct create_statement : if_must<kw_create, create_target> {};

// COPY t FROM 'path' [[WITH] (DELIMITER '|', HEADER, NULL 'x', FORMAT csv)]
// COPY t TO 'path' [...] | COPY (SELECT ...) TO 'path' [...]
struct copy_path : seq<string_literal> {};
struct null_option_name : kw_null {};
struct copy_option_word : seq<identifier> {};
struct copy_option_value : sor<string_literal, numeric_literal, true_literal, false_literal, copy_option_word> {};
struct copy_option : seq<sor<null_option_name, identifier>, opt<copy_option_value>> {};
struct copy_option_items : list_must<copy_option, comma> {};
struct copy_option_list : seq<lparen, must<copy_option_items, rparen>> {};
struct copy_options : sor<if_must<kw_with, copy_option_list>, copy_option_list> {};
struct copy_to : kw_to {};
struct copy_direction : sor<kw_from, copy_to> {};
struct copy_query : seq<lparen, select_statement, must<rparen>> {};
struct copy_source : sor<copy_query, table_name> {};
struct copy_statement : if_must<kw_copy, copy_source, copy_direction, copy_path, opt<copy_options>> {};

// INSERT INTO t [(a, b)] VALUES (...), (...) | INSERT INTO t [(a, b)] SELECT ...
struct insert_column_list : list_must<column_name, comma> {};
struct insert_columns : seq<lparen, must<insert_column_list, rparen>> {};
struct values_row : seq<lparen, must<argument_list, rparen>> {};
struct values_rows : list_must<values_row, comma> {};
struct values_clause : if_must<kw_values, values_rows> {};
struct insert_source : sor<values_clause, select_statement> {};
struct insert_statement : if_must<kw_insert, kw_into, table_name, opt<insert_columns>, insert_source> {};

struct drop_table_statement : if_must<kw_table, opt<if_exists>, table_name> {};
struct drop_view_statement : if_must<kw_view, opt<if_exists>, table_name> {};
struct drop_index_statement : if_must<kw_index, opt<if_exists>, table_name> {};
struct drop_target : sor<drop_table_statement, drop_view_statement, drop_index_statement> {};
// UPDATE t SET a = e, ... [WHERE cond];  DELETE FROM t [WHERE cond]
struct assignment : seq<column_name, must<op_eq, expression>> {};
struct update_statement : if_must<kw_update, table_name, kw_set, list_must<assignment, comma>, opt<where_clause>> {};
struct delete_statement : if_must<kw_delete, kw_from, table_name, opt<where_clause>> {};
struct drop_statement : if_must<kw_drop, drop_target> {};
struct show_tables_statement : if_must<kw_show, kw_tables> {};
// SET name = value | SET name TO value | PRAGMA name = value | RESET name:
// a value is a literal, a negative number (memory_limit = -1) or a bare
// word (on, off, auto).
struct setting_name : seq<identifier> {};
struct setting_word : seq<identifier_first, star<identifier_other>, ws> {};
struct setting_negative : seq<one<'-'>, ws, numeric_literal> {};
struct setting_value : sor<literal, setting_negative, setting_word> {};
struct set_statement : if_must<kw_set, setting_name, sor<op_eq, kw_to>, setting_value> {};
struct pragma_statement : if_must<kw_pragma, setting_name, op_eq, setting_value> {};
struct reset_statement : if_must<kw_reset, setting_name> {};
struct describe_statement : if_must<kw_describe, table_name> {};
struct summarize_statement : if_must<kw_summarize, table_name> {};

struct statement : sor<select_statement, explain_statement, create_statement, copy_statement, insert_statement,
                       update_statement, delete_statement, drop_statement, show_tables_statement,
                       describe_statement, summarize_statement, set_statement, pragma_statement,
                       reset_statement> {};
struct end_of_input : eof {};
struct sql : seq<ws, opt<statement>, star<semicolon, opt<statement>>, must<end_of_input>> {};

}  // namespace gpusql::grammar
