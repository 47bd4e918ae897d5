#include "planner/varchar_cast.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "planner/expression_compiler.hpp"
#include "storage/host_column.hpp"
#include "storage/table.hpp"
#include "storage/value_text.hpp"

namespace gpusql {
namespace {

// The one column `e` reads (its Column nodes all name it and carry its
// domain), or null.
const BoundExpr* single_column(const BoundExpr& e, const BoundExpr* found, bool& ok) {
  if (e.op == Op::RowId) ok = false;
  if (e.op == Op::Column) {
    if (!e.domain || (found && found->column != e.column)) ok = false;
    return found ? found : &e;
  }
  for (const auto& c : e.children) found = single_column(c, found, ok);
  return found;
}

// The column's value at `row` as a Rank key: the integer, or a double's order_bits().
// Rank keys back to doubles: order_bits() is its own inverse on the bits.
double double_of_key(int64_t key) {
  const int64_t b = key < 0 ? key ^ INT64_MAX : key;
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

int64_t rank_key(const HostColumn& c, std::size_t row) {
  const Slot s = load_raw(c.bytes.data(), c.type.storage(), static_cast<int64_t>(row));
  return compute_class(c.type) == Cls::Double ? order_bits(s.d) : s.i;
}

std::shared_ptr<LookupTable> table_of(Type type, const void* data, std::size_t entries, std::size_t width) {
  auto table = std::make_shared<LookupTable>();
  table->type = type;
  table->entries = entries;
  table->bytes.resize(entries * width);
  if (entries) std::memcpy(table->bytes.data(), data, table->bytes.size());
  return table;
}

}  // namespace

std::optional<BoundExpr> cast_to_varchar(const BoundExpr& arg) {
  bool ok = true;
  const BoundExpr* column = single_column(arg, nullptr, ok);
  if (!ok || !column) return std::nullopt;
  const HostColumn& source = column->domain->host_column(static_cast<std::size_t>(column->domain_column));
  const DataType column_type = source.type;
  // Rank keys hold 64 bits: a 128-bit DECIMAL is not cast this way.
  if (column_type.is_wide_decimal()) return std::nullopt;
  const bool doubles = compute_class(column_type) == Cls::Double;

  // The column's distinct non-NULL values, as sorted Rank keys.
  std::vector<int64_t> keys;
  keys.reserve(source.size);
  for (std::size_t row = 0; row < source.size; ++row)
    if (source.is_valid(row)) keys.push_back(rank_key(source, row));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());

  // Those values as a column of the column's own type (order_bits() is its
  // own inverse on the bits), and one more row, NULL, to see what a NULL becomes.
  const std::size_t n = keys.size();
  HostColumn values(column_type, n + 1);
  for (std::size_t i = 0; i < n; ++i) {
    Slot s{};
    s.valid = true;
    if (doubles) s.d = double_of_key(keys[i]);
    else s.i = keys[i];
    store_value(values.bytes.data(), column_type.storage(), static_cast<int64_t>(i), s);
  }
  values.set_null(n);

  // The argument at each of them.
  SlotMap slots;
  const ExprProgram program = compile_expression(arg, slots);
  if (program.wide) return std::nullopt;  // a 128-bit step: see above
  const ColumnSet set = host_column_set(slots, values);
  uint32_t error = 0;
  if (evaluate(program, set, static_cast<int64_t>(n), error).valid)
    return std::nullopt;  // a NULL would become a string: not a rank's code
  std::vector<std::string> text(n);
  std::vector<uint8_t> null_result(n);
  std::vector<std::byte> one(16);
  for (std::size_t i = 0; i < n; ++i) {
    const Slot v = evaluate(program, set, static_cast<int64_t>(i), error);
    null_result[i] = !v.valid;
    if (!v.valid) continue;
    store_value(one.data(), arg.type.storage(), 0, v);
    text[i] = format_cast_text(arg.type, one.data(), 0);
  }
  throw_if_eval_error(error);
  if (std::find(null_result.begin(), null_result.end(), 1) != null_result.end())
    return std::nullopt;  // some values become NULL: a rank's code cannot say so

  std::shared_ptr<Dictionary> dictionary = sorted_dictionary(text);
  std::vector<uint32_t> codes(n);
  for (std::size_t i = 0; i < n; ++i) codes[i] = dictionary->lower_bound(text[i]);

  BoundExpr rank;
  rank.op = Op::Rank;
  rank.type = DataType::bigint();
  rank.offset = arg.offset;
  rank.lookup = table_of(Type::BigInt, keys.data(), n, sizeof(int64_t));
  rank.children.push_back(*column);
  BoundExpr lookup;
  lookup.op = Op::Lookup;
  lookup.type = DataType::varchar();
  lookup.offset = arg.offset;
  lookup.dictionary = std::move(dictionary);
  lookup.lookup = table_of(Type::Varchar, codes.data(), n, sizeof(uint32_t));
  lookup.children.push_back(std::move(rank));
  return lookup;
}

}  // namespace gpusql
