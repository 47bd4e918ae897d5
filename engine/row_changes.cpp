#include "engine/row_changes.hpp"

#include <string>
#include <utility>
#include <vector>

#include "engine/catalog_statements.hpp"
#include "storage/column_ops.hpp"

namespace gpusql {

namespace {

using ast::ExprKind;
using ast::ExprPtr;

ExprPtr node(ExprKind kind, std::size_t offset) {
  auto e = std::make_unique<ast::Expr>();
  e->kind = kind;
  e->offset = offset;
  return e;
}

ExprPtr boolean(bool value, std::size_t offset) {
  ast::Literal l;
  l.kind = ast::Literal::Kind::Boolean;
  l.boolean = value;
  return ast::make_literal(l, offset);
}

// CASE WHEN c THEN TRUE ELSE FALSE END: c IS TRUE.
ExprPtr is_true(const ast::Expr& c) {
  ExprPtr e = node(ExprKind::Case, c.offset);
  e->args.push_back(ast::clone(c));
  e->args.push_back(boolean(true, c.offset));
  e->args.push_back(boolean(false, c.offset));
  e->has_else = true;
  return e;
}

// The type as CAST writes it.
ast::TypeName type_name(DataType type, std::size_t offset) {
  ast::TypeName t;
  t.offset = offset;
  if (type.id == Type::Decimal) {
    t.name = "decimal";
    t.parameters = {type.precision, type.scale};
  } else {
    t.name = to_lower(type.to_string());
  }
  return t;
}

ast::TableRef from(const std::string& table, std::size_t offset) {
  ast::TableRef ref;
  ref.name = table;
  ref.offset = offset;
  return ref;
}

// The first `columns` of `result` as the new version of `old`: each
// converted to its column's type as INSERT converts, NOT NULL checked.
std::shared_ptr<Table> new_version(const Table& old, ResultData& result, std::size_t offset) {
  auto table = std::make_shared<Table>();
  table->name = old.name;
  table->columns = old.columns;
  table->keys = old.keys;
  table->rows = result.rows;
  for (std::size_t c = 0; c < old.columns.size(); ++c) {
    const ColumnDefinition& def = old.columns[c];
    HostColumn column = std::move(result.columns[c]);
    column.size = result.rows;
    normalize_validity(column);
    if (def.not_null && column.has_nulls())
      throw Error(ErrorKind::Constraint, "NOT NULL constraint failed: " + old.name + "." + def.name, offset);
    HostColumn cast;
    try {
      cast = cast_column(column, def.type, def.name);
    } catch (const Error& e) {
      if (e.offset()) throw;
      throw Error(e.kind(), e.message(), offset);
    }
    if (cast.type.id == Type::Varchar && !cast.dictionary) cast.dictionary = std::make_shared<Dictionary>();
    table->host.push_back(std::move(cast));
  }
  return table;
}

// The new version in the catalog, on the device first when one is in use.
void install(Database::Impl& database, std::shared_ptr<Table> next) {
  check_unique_keys(database.catalog, *next, 0);
  database.place(*next);
  database.catalog.replace(std::move(next));
}

}  // namespace

std::shared_ptr<ResultData> update_rows(const ast::UpdateStatement& s, Database::Impl& database, std::string_view sql) {
  std::shared_ptr<const Table> old = database.catalog.get(s.table, s.table_offset);
  std::vector<const ast::UpdateStatement::Assignment*> assigned(old->columns.size(), nullptr);
  for (const auto& a : s.assignments) {
    const int c = old->find_column(a.column);
    if (c < 0) {
      std::vector<std::string> names;
      for (const auto& def : old->columns) names.push_back(def.name);
      const std::string hint = closest_name(a.column, names);
      throw Error(ErrorKind::Binder,
                  "Referenced update column " + a.column + " not found in table!" +
                      (hint.empty() ? "" : "\nDid you mean: \"" + hint + "\""),
                  a.offset);
    }
    if (assigned[static_cast<std::size_t>(c)])
      throw Error(ErrorKind::Binder, "Multiple assignments to same column \"" + a.column + "\"", a.offset);
    assigned[static_cast<std::size_t>(c)] = &a;
  }
  ast::SelectStatement select;
  select.from.push_back(from(old->name, s.table_offset));
  for (std::size_t c = 0; c < old->columns.size(); ++c) {
    const ColumnDefinition& def = old->columns[c];
    ExprPtr column = ast::make_column("", def.name, s.table_offset);
    if (const auto* a = assigned[c]) {
      // NULL stays untyped: it takes the column's type from the CASE.
      const bool null = a->value->kind == ExprKind::Literal && a->value->literal.kind == ast::Literal::Kind::Null;
      ExprPtr value = ast::clone(*a->value);
      if (!null) {
        ExprPtr cast = node(ExprKind::Cast, a->value->offset);
        cast->args.push_back(std::move(value));
        cast->cast_type = type_name(def.type, a->value->offset);
        value = std::move(cast);
      }
      if (s.where) {
        ExprPtr choice = node(ExprKind::Case, a->value->offset);
        choice->args.push_back(ast::clone(*s.where));
        choice->args.push_back(std::move(value));
        choice->args.push_back(std::move(column));
        choice->has_else = true;
        value = std::move(choice);
      }
      column = std::move(value);
    }
    select.items.push_back({std::move(column), def.name});
  }
  // Which rows the WHERE picks, for the count.
  if (s.where) select.items.push_back({is_true(*s.where), "updated"});
  std::shared_ptr<ResultData> result = database.run_select(select, sql);
  std::size_t updated = result->rows;
  if (s.where) {
    const HostColumn& picked = result->columns.back();
    updated = 0;
    for (std::size_t r = 0; r < result->rows; ++r) updated += picked.values<uint8_t>()[r] != 0;
  }
  install(database, new_version(*old, *result, s.table_offset));
  return status_result("updated " + rows_text(updated) + " in " + old->name);
}

std::shared_ptr<ResultData> delete_rows(const ast::DeleteStatement& s, Database::Impl& database, std::string_view sql) {
  std::shared_ptr<const Table> old = database.catalog.get(s.table, s.table_offset);
  ast::SelectStatement select;
  select.from.push_back(from(old->name, s.table_offset));
  for (const auto& def : old->columns) select.items.push_back({ast::make_column("", def.name, s.table_offset), def.name});
  // The rows the WHERE does not pick (FALSE or NULL) stay.
  select.where = s.where ? ast::make_unary(ast::UnaryOp::Not, is_true(*s.where), s.where->offset) : boolean(false, s.table_offset);
  std::shared_ptr<ResultData> result = database.run_select(select, sql);
  const std::size_t deleted = old->rows - result->rows;
  install(database, new_version(*old, *result, s.table_offset));
  return status_result("deleted " + rows_text(deleted) + " from " + old->name);
}

}  // namespace gpusql
