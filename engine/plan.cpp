#include "engine/plan.hpp"

#include "engine/result_data.hpp"

namespace gpusql {

std::vector<std::string> PlanNode::output_names() const {
  switch (kind) {
    case PlanKind::Scan: {
      std::vector<std::string> out;
      for (const auto& c : table->columns) out.push_back(c.name);
      return out;
    }
    case PlanKind::Filter: return child->output_names();
    case PlanKind::Aggregate: {
      std::vector<std::string> out;
      auto input = child->output_names();
      for (const auto& a : aggregates) out.push_back(describe(a, input));
      return out;
    }
    case PlanKind::Project: return names;
  }
  return {};
}

std::string PlanNode::to_string(int indent) const {
  std::string pad(static_cast<std::size_t>(indent) * 2, ' ');
  std::string line;
  std::vector<std::string> input = child ? child->output_names() : std::vector<std::string>{};
  switch (kind) {
    case PlanKind::Scan: line = "SCAN " + table->name + " (" + std::to_string(table->rows) + " rows)"; break;
    case PlanKind::Filter: line = "FILTER " + describe(predicate, input); break;
    case PlanKind::Aggregate: {
      line = "AGGREGATE";
      for (std::size_t i = 0; i < aggregates.size(); ++i) line += (i ? ", " : " ") + describe(aggregates[i], input);
      break;
    }
    case PlanKind::Project: {
      line = "PROJECT";
      for (std::size_t i = 0; i < expressions.size(); ++i) line += (i ? ", " : " ") + describe(expressions[i], input);
      break;
    }
  }
  std::string out = pad + line + "\n";
  if (child) out += child->to_string(indent + 1);
  return out;
}

std::unique_ptr<PlanNode> plan_select(BoundSelect select) {
  auto scan = std::make_unique<PlanNode>();
  scan->kind = PlanKind::Scan;
  scan->table = select.table;
  std::unique_ptr<PlanNode> top = std::move(scan);
  if (select.where) {
    auto filter = std::make_unique<PlanNode>();
    filter->kind = PlanKind::Filter;
    filter->predicate = std::move(*select.where);
    filter->child = std::move(top);
    top = std::move(filter);
  }
  if (!select.aggregates.empty()) {
    auto aggregate = std::make_unique<PlanNode>();
    aggregate->kind = PlanKind::Aggregate;
    aggregate->aggregates = std::move(select.aggregates);
    aggregate->child = std::move(top);
    top = std::move(aggregate);
  }
  auto project = std::make_unique<PlanNode>();
  project->kind = PlanKind::Project;
  project->expressions = std::move(select.outputs);
  project->names = std::move(select.names);
  project->child = std::move(top);
  return project;
}

static const char* op_text(Op op) {
  switch (op) {
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Mul: return "*";
    case Op::Div: return "/";
    case Op::Mod: return "%";
    case Op::Eq: return "=";
    case Op::Ne: return "<>";
    case Op::Lt: return "<";
    case Op::Le: return "<=";
    case Op::Gt: return ">";
    case Op::Ge: return ">=";
    case Op::And: return "AND";
    case Op::Or: return "OR";
    default: return "?";
  }
}

std::string describe(const BoundExpr& e, const std::vector<std::string>& names) {
  switch (e.op) {
    case Op::Column:
      return e.column >= 0 && static_cast<std::size_t>(e.column) < names.size() ? names[e.column]
                                                                               : "#" + std::to_string(e.column);
    case Op::RowId: return "rowid";
    case Op::Constant:
      if (e.constant.null_constant) return "NULL";
      if (e.type.id == Type::Varchar) return e.text.empty() ? "code " + std::to_string(e.constant.value.i) : "'" + e.text + "'";
      if (e.type.id == Type::Boolean) return e.constant.value.i ? "true" : "false";
      if (e.type.is_floating()) return format_double(e.constant.value.d);
      return std::to_string(e.constant.value.i);
    case Op::Negate: return "(-" + describe(e.children[0], names) + ")";
    case Op::Not: return "(NOT " + describe(e.children[0], names) + ")";
    case Op::IsNull: return "(" + describe(e.children[0], names) + " IS NULL)";
    case Op::IsNotNull: return "(" + describe(e.children[0], names) + " IS NOT NULL)";
    case Op::ToDouble: return "CAST(" + describe(e.children[0], names) + " AS DOUBLE)";
    default:
      return "(" + describe(e.children[0], names) + " " + op_text(e.op) + " " + describe(e.children[1], names) + ")";
  }
}

std::string describe(const BoundAggregate& a, const std::vector<std::string>& names) {
  const char* name = "count_star";
  switch (a.kind) {
    case AggKind::CountStar: return "count_star()";
    case AggKind::Count: name = "count"; break;
    case AggKind::Sum: name = "sum"; break;
    case AggKind::Min: name = "min"; break;
    case AggKind::Max: name = "max"; break;
    case AggKind::Avg: name = "avg"; break;
  }
  return std::string(name) + "(" + describe(*a.argument, names) + ")";
}

}  // namespace gpusql
