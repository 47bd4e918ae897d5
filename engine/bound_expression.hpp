// Expressions after binding: every name resolved to a column position, every
// node typed, implicit casts made explicit. The planner arranges them into
// operators; expression_compiler turns each into an ExprProgram.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/aggregate_state.hpp"
#include "storage/data_type.hpp"
#include "storage/dictionary.hpp"

namespace gpusql {

struct BoundExpr {
  Op op = Op::Constant;
  DataType type;
  int column = -1;          // Column: position in the operator's input
  Instr constant;           // Constant: value (and null flag)
  std::string text;         // Constant VARCHAR: the string (only as a whole output)
  std::vector<BoundExpr> children;
  std::size_t offset = 0;   // where it came from in the SQL text
  // VARCHAR: the dictionary the codes index (column refs and MIN/MAX of them).
  std::shared_ptr<const Dictionary> dictionary;

  bool is_null_constant() const { return op == Op::Constant && constant.null_constant; }
};

struct BoundAggregate {
  AggKind kind = AggKind::CountStar;
  std::optional<BoundExpr> argument;  // empty for COUNT(*)
  DataType type;                       // of the result
  std::shared_ptr<const Dictionary> dictionary;  // MIN/MAX of VARCHAR
};

// SQL-ish rendering for EXPLAIN; `column_names` names the input positions.
std::string describe(const BoundExpr& e, const std::vector<std::string>& column_names);
std::string describe(const BoundAggregate& a, const std::vector<std::string>& column_names);

}  // namespace gpusql
