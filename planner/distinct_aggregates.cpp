#include "planner/distinct_aggregates.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpusql/gpusql.hpp"
#include "planner/decorrelation.hpp"
#include "storage/table.hpp"

namespace gpusql {

namespace {

using ast::ExprKind;
using ast::ExprPtr;

const char* const kAggregates[] = {"count",  "sum",    "min",    "max",           "avg",          "arg_min",
                                   "arg_max", "min_by", "max_by", kAverageHighPart, kAverageLowPart};

bool is_aggregate(const ast::Expr& e) {
  return e.kind == ExprKind::Function &&
         std::find_if(std::begin(kAggregates), std::end(kAggregates), [&](const char* n) { return e.name == n; }) !=
             std::end(kAggregates);
}

// Whether an aggregate holds another in its arguments (the binder's error).
bool nested_aggregate(const ast::Expr& e, bool inside = false) {
  if (is_aggregate(e) && inside) return true;
  const bool in = inside || is_aggregate(e);
  return std::any_of(e.args.begin(), e.args.end(), [&](const ExprPtr& a) { return nested_aggregate(*a, in); });
}

// Whether a SUM or AVG (DISTINCT ...) is in `e` (subqueries are their own);
// with `any`, any DISTINCT aggregate.
bool has_distinct_sum(const ast::Expr& e, bool any) {
  if (is_aggregate(e) && e.distinct && (any || e.name == "sum" || e.name == "avg")) return true;
  return std::any_of(e.args.begin(), e.args.end(), [any](const ExprPtr& a) { return has_distinct_sum(*a, any); });
}

bool has_distinct_sum_anywhere(const ast::SelectStatement& s, bool any) {
  bool found = false;
  for (const auto& item : s.items) found = found || has_distinct_sum(*item.expr, any);
  if (s.having) found = found || has_distinct_sum(*s.having, any);
  for (const auto& o : s.order_by) found = found || has_distinct_sum(*o.expr, any);
  return found;
}

// Whether `e` holds an aggregate or a subquery (it is then no group key,
// and binding it to find out would run the subquery).
bool has_aggregate_or_subquery(const ast::Expr& e) {
  if (is_aggregate(e) || e.subquery) return true;
  return std::any_of(e.args.begin(), e.args.end(), [](const ExprPtr& a) { return has_aggregate_or_subquery(*a); });
}

// The group key `e` is, if any.
std::optional<std::size_t> key_index(const GroupKeys& keys, const ast::Expr& e) {
  if (e.kind == ExprKind::Literal || has_aggregate_or_subquery(e)) return std::nullopt;
  if (keys.index_of) return keys.index_of(e);
  const std::string text = ast::to_string(e);
  for (std::size_t k = 0; k < keys.exprs.size(); ++k)
    if (text == ast::to_string(*keys.exprs[k])) return k;
  return std::nullopt;
}

// What an output was named before the rewrite: a column by its name, else its text.
std::string name_of(const ast::Expr& e, std::string_view sql) {
  if (e.kind == ExprKind::Column) return e.name;
  if (e.end > e.offset && e.end <= sql.size()) return std::string(sql.substr(e.offset, e.end - e.offset));
  return ast::to_string(e);
}

// An expression with a name: an inner level's item (a partial aggregate)
// and the name the outer level reads it by, or an aggregate and its text.
struct NamedExpr {
  std::string name;
  ExprPtr expr;
};

// The name of group key k's column in a rewritten query's inner level.
std::string key_name(std::size_t k) { return std::string(kGroupKeyPrefix) + std::to_string(k); }

// The rows of `s` (its WITH, FROM and WHERE) grouped by the keys, key k
// the item named key_name(k); the caller adds the aggregates.
std::shared_ptr<ast::SelectStatement> grouped_by_keys(const ast::SelectStatement& s, const GroupKeys& keys) {
  auto grouped = std::make_shared<ast::SelectStatement>();
  grouped->with = s.with;
  for (const auto& ref : s.from) grouped->from.push_back(ast::clone(ref));
  if (s.where) grouped->where = ast::clone(*s.where);
  for (std::size_t k = 0; k < keys.exprs.size(); ++k) {
    grouped->items.push_back({ast::clone(*keys.exprs[k]), key_name(k)});
    grouped->group_by.push_back(ast::clone(*keys.exprs[k]));
  }
  return grouped;
}

// A subquery of the query being rewritten, its references to the outer
// query's group keys reading the rewritten query's key columns instead
// (`key_column(k)`): `t.k`, where t names no FROM item of the subquery (nor
// of one it is in), is the key's column (replace_outer_columns()).
std::shared_ptr<const ast::SelectStatement> outer_key_references(const std::shared_ptr<const ast::SelectStatement>& s,
                                                                 const GroupKeys& keys,
                                                                 const std::function<ExprPtr(std::size_t)>& key_column) {
  return replace_outer_columns(
      s, {},
      [&](const ast::Expr& column) -> ExprPtr {
        const std::optional<std::size_t> k = key_index(keys, column);
        if (!k) return nullptr;
        ExprPtr key = key_column(*k);
        key->offset = column.offset;
        return key;
      },
      true);
}

// MIN and MAX of the 128-bit value whose text is `argument`.
struct WideExtremes {
  std::string argument;
  int precision = 0, scale = 0;
};

class Rewriter {
 public:
  Rewriter(const ast::SelectStatement& s, std::string_view sql, const GroupKeys& keys,
           std::optional<WideExtremes> wide = std::nullopt)
      : s_(s), sql_(sql), keys_(keys), wide_(std::move(wide)) {}

  ast::SelectStatement rewrite() {
    ast::SelectStatement outer;
    outer.distinct = s_.distinct;
    for (const auto& item : s_.items) {
      outer.items.push_back({replace(*item.expr), item.alias.empty() ? name_of(*item.expr, sql_) : item.alias});
    }
    if (s_.having) outer.having = replace(*s_.having);
    for (const auto& o : s_.order_by) outer.order_by.push_back({replace(*o.expr), o.descending, o.nulls_first});
    if (s_.limit) outer.limit = ast::clone(*s_.limit);
    if (s_.offset) outer.offset = ast::clone(*s_.offset);
    for (std::size_t k = 0; k < keys_.exprs.size(); ++k) outer.group_by.push_back(column(key_name(k)));

    std::shared_ptr<ast::SelectStatement> inner = grouped_by_keys(s_, keys_);
    if (!distinct_argument_) throw Error(ErrorKind::Invalid, "internal: no DISTINCT aggregate to rewrite");
    auto key = [&] {
      return wide_ ? call(kWideHighPart, ast::clone(*distinct_argument_), distinct_argument_->offset)
                   : ast::clone(*distinct_argument_);
    };
    inner->items.push_back({key(), "distinct value"});
    // A constant argument (COUNT(DISTINCT 5)) groups by its item's position:
    // GROUP BY 5 would name the fifth item.
    if (distinct_argument_->kind == ExprKind::Literal) {
      inner->group_by.push_back(
          ast::make_integer_literal(static_cast<int64_t>(inner->items.size()), distinct_argument_->offset));
    } else {
      inner->group_by.push_back(key());
    }
    for (auto& [text, partial] : partials_) inner->items.push_back({std::move(partial.expr), partial.name});

    ast::TableRef from;
    from.subquery = std::move(inner);
    from.alias = "distinct_groups";
    from.offset = s_.from.empty() ? 0 : s_.from.front().offset;
    outer.from.push_back(std::move(from));
    return outer;
  }

 private:
  const ast::SelectStatement& s_;
  std::string_view sql_;
  const GroupKeys& keys_;
  std::optional<WideExtremes> wide_;
  std::vector<ExprPtr> made_;  // arguments the partials read, kept while the rewrite runs
  const ast::Expr* distinct_argument_ = nullptr;
  std::map<std::string, NamedExpr> partials_;  // by the inner aggregate's text

  static ExprPtr column(const std::string& name) { return ast::make_column("", name, 0); }

  // A partial aggregate of the inner query, named once per text.
  std::string partial(const std::string& function, const ast::Expr* argument, std::size_t offset) {
    std::vector<ExprPtr> args;
    if (argument) args.push_back(ast::clone(*argument));
    else args.push_back(ast::make_star("", offset));
    ExprPtr call = ast::make_function(function, std::move(args), false, offset);
    const std::string text = ast::to_string(*call);
    auto found = partials_.find(text);
    if (found != partials_.end()) return found->second.name;
    const std::string name = "partial " + std::to_string(partials_.size());
    partials_.emplace(text, NamedExpr{name, std::move(call)});
    return name;
  }

  ExprPtr call(const std::string& function, ExprPtr argument, std::size_t offset) const {
    std::vector<ExprPtr> args;
    args.push_back(std::move(argument));
    return ast::make_function(function, std::move(args), false, offset);
  }

  // COALESCE(SUM(partial), 0): a count over no rows is 0, not NULL.
  ExprPtr count_of(const std::string& partial_name, std::size_t offset) const {
    std::vector<ExprPtr> args;
    args.push_back(call("sum", column(partial_name), offset));
    args.push_back(ast::make_integer_literal(0, offset));
    return ast::make_function("coalesce", std::move(args), false, offset);
  }

  std::string beside() const {
    return wide_ ? " beside MIN or MAX of a DECIMAL wider than 18 digits" : " beside SUM or AVG (DISTINCT ...)";
  }

  // MIN or MAX of the 128-bit value: its greatest (least) upper half, and the
  // lower half of the one inner group that has it (see the header).
  ExprPtr wide_extreme(const ast::Expr& e) {
    const std::size_t at = e.offset;
    distinct_argument_ = e.args[0].get();
    made_.push_back(call(kWideLowPart, ast::clone(*e.args[0]), at));
    std::vector<ExprPtr> best;
    best.push_back(column(partial(e.name, made_.back().get(), at)));
    best.push_back(column("distinct value"));
    std::vector<ExprPtr> args;
    args.push_back(call(e.name, column("distinct value"), at));
    args.push_back(ast::make_function(e.name == "max" ? "arg_max" : "arg_min", std::move(best), false, at));
    args.push_back(ast::make_integer_literal(wide_->precision, at));
    args.push_back(ast::make_integer_literal(wide_->scale, at));
    return ast::make_function(kWideFromParts, std::move(args), false, at);
  }

  ExprPtr aggregate(const ast::Expr& e) {
    const std::size_t at = e.offset;
    const bool star = e.args.size() == 1 && e.args[0]->kind == ExprKind::Star;
    if (wide_ && e.distinct)
      throw Error(ErrorKind::NotSupported,
                  "not supported yet: DISTINCT aggregates beside MIN or MAX of a DECIMAL wider than 18 digits", at);
    if (wide_ && (e.name == "min" || e.name == "max") && e.args.size() == 1 &&
        ast::to_string(*e.args[0]) == wide_->argument)
      return wide_extreme(e);
    if (e.distinct) {
      if (e.args.size() != 1 || star || (e.name != "sum" && e.name != "avg" && e.name != "count" && e.name != "min" &&
                                         e.name != "max"))
        throw Error(ErrorKind::NotSupported, "not supported yet: " + e.name + "(DISTINCT ...) here", at);
      if (!distinct_argument_) distinct_argument_ = e.args[0].get();
      if (ast::to_string(*e.args[0]) != ast::to_string(*distinct_argument_))
        throw Error(ErrorKind::NotSupported, "not supported yet: DISTINCT aggregates of different arguments", at);
      return call(e.name, column("distinct value"), at);
    }
    if (e.name == "count" && star) return count_of(partial("count", nullptr, at), at);
    if (e.args.size() != 1)
      throw Error(ErrorKind::NotSupported, "not supported yet: " + e.name + beside(), at);
    if (e.name == "count") return count_of(partial("count", e.args[0].get(), at), at);
    if (e.name == "sum") return call("sum", column(partial("sum", e.args[0].get(), at)), at);
    // A part of AVG's total from an earlier rewrite (MIN or MAX of a 128-bit
    // value beside AVG of another, rewritten once for each) is a sum too.
    if (e.name == kAverageHighPart || e.name == kAverageLowPart)
      return call("sum", column(partial(e.name, e.args[0].get(), at)), at);
    if (e.name == "min" || e.name == "max") return call(e.name, column(partial(e.name, e.args[0].get(), at)), at);
    if (e.name == "avg" && wide_ && ast::to_string(*e.args[0]) == wide_->argument) {
      // The total (the binder sums a 128-bit value exactly: no low part)
      // and the count; MIN(x) would be the 128-bit MIN this rewrite makes,
      // so x's type comes as "wide from parts" of NULLs.
      const std::string total = partial(kAverageHighPart, e.args[0].get(), at);
      std::vector<ExprPtr> args;
      args.push_back(call("sum", column(total), at));
      args.push_back(call("sum", column(total), at));
      args.push_back(count_of(partial("count", e.args[0].get(), at), at));
      std::vector<ExprPtr> type;
      for (int k = 0; k < 2; ++k) type.push_back(ast::make_null_literal(at));
      type.push_back(ast::make_integer_literal(wide_->precision, at));
      type.push_back(ast::make_integer_literal(wide_->scale, at));
      args.push_back(ast::make_function(kWideFromParts, std::move(type), false, at));
      return ast::make_function(kAverageOfPartials, std::move(args), false, at);
    }
    if (e.name == "avg") {
      std::vector<ExprPtr> args;
      args.push_back(call("sum", column(partial(kAverageHighPart, e.args[0].get(), at)), at));
      args.push_back(call("sum", column(partial(kAverageLowPart, e.args[0].get(), at)), at));
      args.push_back(count_of(partial("count", e.args[0].get(), at), at));
      args.push_back(call("min", column(partial("min", e.args[0].get(), at)), at));
      return ast::make_function(kAverageOfPartials, std::move(args), false, at);
    }
    throw Error(ErrorKind::NotSupported, "not supported yet: " + e.name + beside(), at);
  }

  // `e` over the inner query's columns: its aggregates and group keys read them.
  ExprPtr replace(const ast::Expr& e) {
    if (is_aggregate(e)) return aggregate(e);
    if (std::optional<std::size_t> k = key_index(keys_, e)) return column(key_name(*k));
    ExprPtr copy = ast::clone(e);
    for (std::size_t i = 0; i < copy->args.size(); ++i) copy->args[i] = replace(*e.args[i]);
    if (e.subquery)
      copy->subquery = outer_key_references(e.subquery, keys_, [](std::size_t k) { return column(key_name(k)); });
    return copy;
  }
};

// Without GROUP BY, each DISTINCT aggregate of an argument other than the
// first one's is the one value of a query of its own over the same rows:
//   SELECT SUM(DISTINCT x), COUNT(DISTINCT y) FROM t WHERE c
// reads
//   SELECT SUM(DISTINCT x), (SELECT COUNT(DISTINCT y) FROM t WHERE c) FROM t WHERE c
// which leaves one DISTINCT argument for the two-level form (a subquery,
// run once, is a constant of the query around it).
class OtherDistinctArguments {
 public:
  explicit OtherDistinctArguments(const ast::SelectStatement& s) : s_(s) {}

  // `s` so, or nullopt when its DISTINCT aggregates share one argument.
  std::optional<ast::SelectStatement> rewrite() {
    std::optional<std::string> first;
    std::size_t others = 0;
    auto count = [&](const auto& self, const ast::Expr& e) -> void {
      if (is_aggregate(e) && e.distinct && e.args.size() == 1) {
        const std::string text = ast::to_string(*e.args[0]);
        if (!first) first = text;
        else others += text != *first;
      }
      for (const auto& a : e.args) self(self, *a);
    };
    for (const auto& item : s_.items) count(count, *item.expr);
    if (s_.having) count(count, *s_.having);
    for (const auto& o : s_.order_by) count(count, *o.expr);
    if (others == 0) return std::nullopt;
    first_ = *first;
    ast::SelectStatement out;
    out.with = s_.with;
    out.distinct = s_.distinct;
    for (const auto& item : s_.items) out.items.push_back({replace(*item.expr), item.alias});
    for (const auto& ref : s_.from) out.from.push_back(ast::clone(ref));
    if (s_.where) out.where = ast::clone(*s_.where);
    if (s_.having) out.having = replace(*s_.having);
    for (const auto& o : s_.order_by) out.order_by.push_back({replace(*o.expr), o.descending, o.nulls_first});
    if (s_.limit) out.limit = ast::clone(*s_.limit);
    if (s_.offset) out.offset = ast::clone(*s_.offset);
    return out;
  }

 private:
  const ast::SelectStatement& s_;
  std::string first_;

  ExprPtr replace(const ast::Expr& e) {
    if (is_aggregate(e) && e.distinct && e.args.size() == 1 && ast::to_string(*e.args[0]) != first_) {
      auto own = std::make_shared<ast::SelectStatement>();
      own->with = s_.with;
      own->items.push_back({ast::clone(e), ""});
      for (const auto& ref : s_.from) own->from.push_back(ast::clone(ref));
      if (s_.where) own->where = ast::clone(*s_.where);
      ExprPtr value = ast::clone(e);  // keeps the text's range: the output's name
      value->kind = ExprKind::Subquery;
      value->name.clear();
      value->args.clear();
      value->distinct = false;
      value->subquery = std::move(own);
      return value;
    }
    ExprPtr copy = ast::clone(e);
    for (std::size_t i = 0; i < copy->args.size(); ++i) copy->args[i] = replace(*e.args[i]);
    return copy;
  }
};

// One part per DISTINCT argument joined on the keys (the header's
// example), with GROUP BY and several arguments, or beside an ARG_MIN or
// ARG_MAX, whose part is the aggregates without DISTINCT (without GROUP BY
// the parts are a row each, cross joined); nullopt otherwise.
class DistinctArgumentParts {
 public:
  // `one_part`: every aggregate in one part, DISTINCT or not
  // (aggregates_first_rewritten()).
  DistinctArgumentParts(const ast::SelectStatement& s, std::string_view sql, const GroupKeys& keys,
                        bool one_part = false)
      : s_(s), sql_(sql), keys_(keys), one_part_(one_part) {}

  std::optional<ast::SelectStatement> rewrite() {
    if (one_part_) {
      parts_.resize(1);
      return joined_parts();
    }
    auto list = [&](const auto& self, const ast::Expr& e) -> void {
      if (is_aggregate(e) && e.distinct && e.args.size() == 1) {
        const std::string text = ast::to_string(*e.args[0]);
        if (std::find(arguments_.begin(), arguments_.end(), text) == arguments_.end()) arguments_.push_back(text);
      }
      extreme_ = extreme_ || (is_aggregate(e) && !e.distinct && is_arg_extreme(e));
      if (!is_aggregate(e))
        for (const auto& a : e.args) self(self, *a);
    };
    for (const auto& item : s_.items) list(list, *item.expr);
    if (s_.having) list(list, *s_.having);
    for (const auto& o : s_.order_by) list(list, *o.expr);
    const bool several = arguments_.size() >= 2 && !s_.group_by.empty();
    if (!several && !(extreme_ && !arguments_.empty())) return std::nullopt;
    // ARG_MIN/ARG_MAX have no partials the two-level form could fold: the
    // aggregates without DISTINCT are a part of their own then.
    plain_ = extreme_ ? arguments_.size() : 0;
    parts_.resize(arguments_.size() + (extreme_ ? 1 : 0));
    return joined_parts();
  }

 private:
  const ast::SelectStatement& s_;
  std::string_view sql_;
  const GroupKeys& keys_;
  const bool one_part_;
  std::vector<std::string> arguments_;        // the DISTINCT arguments' text, in order of appearance
  std::vector<std::vector<NamedExpr>> parts_;  // each part's aggregates, named by their text
  bool extreme_ = false;                       // an ARG_MIN/ARG_MAX without DISTINCT
  std::size_t plain_ = 0;                      // the part of the aggregates without DISTINCT

  ast::SelectStatement joined_parts() {
    ast::SelectStatement out;
    out.distinct = s_.distinct;
    for (const auto& item : s_.items)
      out.items.push_back({replace(*item.expr), item.alias.empty() ? name_of(*item.expr, sql_) : item.alias});
    if (s_.having) out.where = replace(*s_.having);
    for (const auto& o : s_.order_by) out.order_by.push_back({replace(*o.expr), o.descending, o.nulls_first});
    if (s_.limit) out.limit = ast::clone(*s_.limit);
    if (s_.offset) out.offset = ast::clone(*s_.offset);
    const std::size_t at = s_.from.empty() ? 0 : s_.from.front().offset;
    for (std::size_t p = 0; p < parts_.size(); ++p) {
      std::shared_ptr<ast::SelectStatement> part = grouped_by_keys(s_, keys_);
      for (std::size_t j = 0; j < parts_[p].size(); ++j)
        part->items.push_back({std::move(parts_[p][j].expr), aggregate_name(j)});
      ast::TableRef ref;
      ref.subquery = std::move(part);
      ref.alias = part_name(p);
      ref.offset = at;
      if (p > 0 && keys_.exprs.empty()) {
        ref.join = ast::JoinKind::Cross;  // one row each
      } else if (p > 0) {
        ref.join = ast::JoinKind::Inner;
        for (std::size_t k = 0; k < keys_.exprs.size(); ++k) {
          ExprPtr same = ast::make_distinct_from(column(0, key_name(k)), column(p, key_name(k)), false, at);
          ref.on = ref.on ? ast::make_binary(ast::BinaryOp::And, std::move(ref.on), std::move(same), at)
                          : std::move(same);
        }
      }
      out.from.push_back(std::move(ref));
    }
    return out;
  }

  static bool is_arg_extreme(const ast::Expr& e) {
    return e.name == "arg_min" || e.name == "arg_max" || e.name == "min_by" || e.name == "max_by";
  }

  static std::string aggregate_name(std::size_t j) { return "aggregate " + std::to_string(j); }
  static std::string part_name(std::size_t p) { return "distinct part " + std::to_string(p); }
  static ExprPtr column(std::size_t part, const std::string& name) { return ast::make_column(part_name(part), name, 0); }

  // `e` over the parts' columns: an aggregate is its part's column (the
  // first part holds those without DISTINCT), a key the first part's.
  ExprPtr replace(const ast::Expr& e) {
    if (is_aggregate(e)) {
      std::size_t p = plain_;
      if (e.distinct && e.args.size() == 1 && !one_part_)
        p = std::find(arguments_.begin(), arguments_.end(), ast::to_string(*e.args[0])) - arguments_.begin();
      const std::string text = ast::to_string(e);
      std::vector<NamedExpr>& aggregates = parts_[p];
      auto found = std::find_if(aggregates.begin(), aggregates.end(), [&](const NamedExpr& a) { return a.name == text; });
      if (found == aggregates.end()) {
        aggregates.push_back({text, ast::clone(e)});
        found = aggregates.end() - 1;
      }
      ExprPtr out = column(p, aggregate_name(found - aggregates.begin()));
      out->offset = e.offset;
      out->end = e.end;
      return out;
    }
    if (std::optional<std::size_t> k = key_index(keys_, e)) return column(0, key_name(*k));
    ExprPtr copy = ast::clone(e);
    for (std::size_t i = 0; i < copy->args.size(); ++i) copy->args[i] = replace(*e.args[i]);
    if (e.subquery)
      copy->subquery = outer_key_references(e.subquery, keys_, [](std::size_t k) { return column(0, key_name(k)); });
    return copy;
  }
};

// Whether a two-level form can stand for `s`: nested aggregates and *
// beside aggregates are errors the binder words over `s` itself (a * over
// the rewritten levels would read their internal columns).
bool two_levels_can_stand_for(const ast::SelectStatement& s) {
  for (const auto& item : s.items)
    if (item.expr->kind == ExprKind::Star || nested_aggregate(*item.expr)) return false;
  if (s.having && nested_aggregate(*s.having)) return false;
  for (const auto& o : s.order_by)
    if (nested_aggregate(*o.expr)) return false;
  return true;
}

}  // namespace

bool has_distinct_aggregate_to_rewrite(const ast::SelectStatement& s, bool every_distinct) {
  return !s.set_operation && has_distinct_sum_anywhere(s, every_distinct);
}

std::optional<ast::SelectStatement> distinct_aggregates_rewritten(const ast::SelectStatement& s, std::string_view sql,
                                                                  const GroupKeys& keys, bool every_distinct) {
  if (!has_distinct_aggregate_to_rewrite(s, every_distinct) || !two_levels_can_stand_for(s)) return std::nullopt;
  if (std::optional<ast::SelectStatement> parts = DistinctArgumentParts(s, sql, keys).rewrite()) return parts;
  if (s.group_by.empty())
    if (std::optional<ast::SelectStatement> one_argument = OtherDistinctArguments(s).rewrite()) {
      if (!has_distinct_sum_anywhere(*one_argument, every_distinct)) return one_argument;
      return Rewriter(*one_argument, sql, keys).rewrite();
    }
  return Rewriter(s, sql, keys).rewrite();
}

std::optional<ast::SelectStatement> aggregates_first_rewritten(const ast::SelectStatement& s, std::string_view sql,
                                                               const GroupKeys& keys) {
  if (!two_levels_can_stand_for(s)) return std::nullopt;
  return DistinctArgumentParts(s, sql, keys, /*one_part=*/true).rewrite();
}

ast::SelectStatement wide_extremes_rewritten(const ast::SelectStatement& s, std::string_view sql, const GroupKeys& keys,
                                             const std::string& argument, int precision, int scale) {
  return Rewriter(s, sql, keys, WideExtremes{argument, precision, scale}).rewrite();
}

}  // namespace gpusql
