#include "engine/set_membership.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include "core/expr_program.hpp"  // order_bits

namespace gpusql {

namespace {

BoundExpr boolean_node(Op op, std::vector<BoundExpr> children, std::size_t at) {
  BoundExpr e;
  e.op = op;
  e.type = DataType::boolean();
  e.offset = at;
  e.children = std::move(children);
  return e;
}

BoundExpr boolean_constant(bool value, std::size_t at) {
  BoundExpr e;
  e.op = Op::Constant;
  e.type = DataType::boolean();
  e.offset = at;
  e.constant.value.i = value;
  return e;
}

BoundExpr boolean_null(std::size_t at) {
  BoundExpr e = boolean_constant(false, at);
  e.constant.null_constant = true;
  return e;
}

}  // namespace

std::shared_ptr<LookupTable> bigint_table(const std::vector<int64_t>& values) {
  auto table = std::make_shared<LookupTable>();
  table->type = Type::BigInt;
  table->entries = values.size();
  table->bytes.resize(values.size() * sizeof(int64_t));
  if (!values.empty()) std::memcpy(table->bytes.data(), values.data(), table->bytes.size());
  return table;
}

BoundExpr table_node(Op op, std::shared_ptr<LookupTable> table, BoundExpr child, std::size_t at) {
  BoundExpr e;
  e.op = op;
  e.type = DataType::bigint();
  e.offset = at;
  e.lookup = std::move(table);
  e.children.push_back(std::move(child));
  return e;
}

namespace {

// x IN (the set), its values found by `rank` (x's position among them) and
// `found` (the value at that position), `count` of them.
BoundExpr membership(BoundExpr x, BoundExpr rank, BoundExpr found, std::size_t count, bool has_null, std::size_t at) {
  // With no value x could equal, x's NULL still makes IN NULL.
  BoundExpr member = boolean_node(
      Op::Select, {boolean_node(Op::IsNull, {x}, at), boolean_null(at), boolean_constant(false, at)}, at);
  if (count > 0) {
    BoundExpr size;
    size.op = Op::Constant;
    size.type = count <= INT32_MAX ? DataType::integer() : DataType::bigint();
    size.offset = at;
    size.constant.value.i = static_cast<int64_t>(count);
    BoundExpr inside = boolean_node(Op::Lt, {std::move(rank), std::move(size)}, at);
    BoundExpr equal = boolean_node(Op::Eq, {std::move(found), std::move(x)}, at);
    member = boolean_node(Op::And, {std::move(inside), std::move(equal)}, at);
  }
  if (!has_null) return member;
  return boolean_node(Op::Select, {std::move(member), boolean_constant(true, at), boolean_null(at)}, at);
}

}  // namespace

BoundExpr sorted_set_membership(BoundExpr x, std::vector<int64_t> keys, bool has_null, std::size_t at) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  auto table = bigint_table(keys);
  BoundExpr rank = table_node(Op::Rank, table, x, at);
  BoundExpr found = table_node(Op::Lookup, table, rank, at);
  return membership(std::move(x), std::move(rank), std::move(found), keys.size(), has_null, at);
}

BoundExpr sorted_double_set_membership(BoundExpr x, std::vector<double> keys, bool has_null, std::size_t at) {
  // 0.0 and -0.0 are equal but apart in the total order: both go in.
  const std::size_t given = keys.size();
  for (std::size_t k = 0; k < given; ++k)
    if (keys[k] == 0.0) keys.push_back(-keys[k]);
  std::sort(keys.begin(), keys.end(), [](double a, double b) { return order_bits(a) < order_bits(b); });
  keys.erase(std::unique(keys.begin(), keys.end(), [](double a, double b) { return order_bits(a) == order_bits(b); }),
             keys.end());
  std::vector<int64_t> order(keys.size());
  for (std::size_t k = 0; k < keys.size(); ++k) order[k] = order_bits(keys[k]);
  auto values = std::make_shared<LookupTable>();
  values->type = Type::Double;
  values->entries = keys.size();
  values->bytes.resize(keys.size() * sizeof(double));
  if (!keys.empty()) std::memcpy(values->bytes.data(), keys.data(), values->bytes.size());
  BoundExpr rank = table_node(Op::Rank, bigint_table(order), x, at);
  BoundExpr found = table_node(Op::Lookup, std::move(values), rank, at);
  found.type = DataType::double_();
  return membership(std::move(x), std::move(rank), std::move(found), keys.size(), has_null, at);
}

}  // namespace gpusql
