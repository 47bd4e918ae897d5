// CAST(x AS VARCHAR) of a column's values (planner/varchar_cast.hpp): the
// dictionary built from the column's distinct values, and each row's code
// through Rank (a binary search over order_bits() keys) and Lookup, by hand.
#include <catch2/catch.hpp>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "planner/bound_expression_builders.hpp"
#include "planner/expression_compiler.hpp"
#include "planner/varchar_cast.hpp"
#include "storage/table.hpp"
#include "storage/host_column.hpp"

using namespace gpusql;

namespace {

template <class T>
HostColumn column_of(DataType type, const std::vector<std::optional<T>>& values) {
  HostColumn c(type, values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i]) c.values<T>()[i] = *values[i];
    else c.set_null(i);
  }
  return c;
}

// Tables holding the columns tests reference, alive for the whole run.
std::vector<std::shared_ptr<Table>>& tables() {
  static std::vector<std::shared_ptr<Table>> kept;
  return kept;
}

BoundExpr reference(const HostColumn& c, int index = 0) {
  auto table = std::make_shared<Table>();
  table->columns.push_back({"c", c.type});
  table->host.push_back(c);
  table->rows = c.size;
  tables().push_back(table);
  BoundExpr e;
  e.op = Op::Column;
  e.type = c.type;
  e.column = index;
  e.domain = table.get();
  e.domain_column = 0;
  return e;
}

// The strings the cast gives each row of `c` (input column `index` of the
// expression), "NULL" for NULL, by evaluating the bound cast as the
// executors do.
std::vector<std::string> cast_rows(const BoundExpr& cast, const HostColumn& c) {
  REQUIRE(cast.type.id == Type::Varchar);
  REQUIRE(cast.dictionary);
  SlotMap slots;
  const ExprProgram program = compile_expression(cast, slots);
  const ColumnSet set = host_column_set(slots, c);
  std::vector<std::string> out;
  uint32_t error = 0;
  for (std::size_t row = 0; row < c.size; ++row) {
    const Slot v = evaluate(program, set, static_cast<int64_t>(row), error);
    out.push_back(v.valid ? std::string(cast.dictionary->values.at(static_cast<std::size_t>(v.i))) : "NULL");
  }
  CHECK(error == 0);
  return out;
}

}  // namespace

TEST_CASE("CAST to VARCHAR: DOUBLE values, -0.0 apart from 0.0, NULL kept", "[varchar_cast]") {
  const HostColumn c = column_of<double>(DataType::double_(), {2.5, -0.0, 0.0, -1.5, 2.5, std::nullopt, 1e300});
  const std::optional<BoundExpr> cast = cast_to_varchar(reference(c));
  REQUIRE(cast);
  // DuckDB's text (format_cast_text), sorted byte-wise as every dictionary:
  // "-0.0" < "-1.5" < "0.0" < "1e+300" < "2.5".
  CHECK(cast->dictionary->values.to_strings() == std::vector<std::string>{"-0.0", "-1.5", "0.0", "1e+300", "2.5"});
  CHECK(cast_rows(*cast, c) == std::vector<std::string>{"2.5", "-0.0", "0.0", "-1.5", "2.5", "NULL", "1e+300"});
  // Lookup(Rank(column)): the rank table holds the 5 distinct values.
  REQUIRE(cast->op == Op::Lookup);
  REQUIRE(cast->children.size() == 1);
  CHECK(cast->children[0].op == Op::Rank);
  CHECK(cast->children[0].lookup->entries == 5);
}

TEST_CASE("CAST to VARCHAR: an expression of one INTEGER column, string order", "[varchar_cast]") {
  const HostColumn c = column_of<int32_t>(DataType::integer(), {5, -3, 50, 5, std::nullopt, 0});
  const std::optional<BoundExpr> cast =
      cast_to_varchar(build::binary(Op::Mul, DataType::bigint(), reference(c), build::int_constant(2)));
  REQUIRE(cast);
  CHECK(cast->dictionary->values.to_strings() == std::vector<std::string>{"-6", "0", "10", "100"});
  CHECK(cast_rows(*cast, c) == std::vector<std::string>{"10", "-6", "100", "10", "NULL", "0"});
}

TEST_CASE("CAST to VARCHAR: what a rank's code cannot express is refused", "[varchar_cast]") {
  const HostColumn a = column_of<int32_t>(DataType::integer(), {1, 2});
  const HostColumn b = column_of<int32_t>(DataType::integer(), {3, 4});
  // Two columns.
  CHECK_FALSE(cast_to_varchar(build::binary(Op::Add, DataType::bigint(), reference(a, 0), reference(b, 1))));
  // A column with no base-table values behind it (an aggregate's result).
  BoundExpr computed = reference(a);
  computed.domain = nullptr;
  CHECK_FALSE(cast_to_varchar(computed));
  // NULL for a value that is not NULL: x = 1 ? NULL : x.
  BoundExpr select;
  select.op = Op::Select;
  select.type = DataType::integer();
  select.children = {build::binary(Op::Eq, DataType::boolean(), reference(a), build::int_constant(1)),
                     build::null_constant(DataType::integer()), reference(a)};
  CHECK_FALSE(cast_to_varchar(select));
}
