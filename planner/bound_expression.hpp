// Expressions after binding: every name resolved to a column position, every
// node typed, implicit casts made explicit. The planner arranges them into
// operators; expression_compiler turns each into an ExprProgram.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/aggregate_state.hpp"
#include "storage/data_type.hpp"
#include "storage/dictionary.hpp"

namespace gpusql {

struct Table;

// The table a Lookup node indexes by its child's value, built once at bind
// time: which dictionary codes a LIKE pattern matches (BOOLEAN entries), or
// each code's code in another dictionary (VARCHAR entries) where values of
// two dictionaries meet.
struct LookupTable {
  Type type = Type::Boolean;
  std::vector<uint8_t> bytes;  // `entries` values of `type`'s width
  uint64_t entries = 0;
  // BOOLEAN: how many entries are TRUE (a LIKE's share of the dictionary,
  // the planner's estimate of the rows it keeps), counted as it is built.
  uint64_t true_entries = 0;
  bool operator==(const LookupTable&) const = default;
};

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
  // Lookup: the table indexed by the child's value; Rank: the sorted values searched.
  std::shared_ptr<const LookupTable> lookup;
  // Column refs to a table's column (and group keys that are one): the
  // table and column whose values it takes, which CAST to VARCHAR
  // enumerates (Table::host_column()).
  const Table* domain = nullptr;
  int domain_column = -1;

  bool is_null_constant() const { return op == Op::Constant && constant.null_constant; }
};

struct BoundAggregate {
  AggKind kind = AggKind::CountStar;
  std::optional<BoundExpr> argument;  // empty for COUNT(*); ARG_MIN/ARG_MAX: the value returned
  std::optional<BoundExpr> order;     // ARG_MIN/ARG_MAX: the value minimized/maximized
  bool distinct = false;              // COUNT(DISTINCT x)
  DataType type;                       // of the result
  std::shared_ptr<const Dictionary> dictionary;  // MIN/MAX/ARG_* of VARCHAR
};

// Structural equality (same operation on the same columns and constants),
// used to match select-list expressions to GROUP BY keys.
bool same_expression(const BoundExpr& a, const BoundExpr& b);
bool same_aggregate(const BoundAggregate& a, const BoundAggregate& b);

// Whether `e` has a 128-bit step anywhere (it reads a SUM's DECIMAL(38, s),
// say): the kernels that have no 128-bit interpreter must not be given it.
bool has_wide_step(const BoundExpr& e);

// SQL-ish rendering for EXPLAIN; `column_names` names the input positions.
std::string describe(const BoundExpr& e, const std::vector<std::string>& column_names);
std::string describe(const BoundAggregate& a, const std::vector<std::string>& column_names);

}  // namespace gpusql
