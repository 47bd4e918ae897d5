#include "planner/set_membership.hpp"

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

bool case_lookup_holds(const DataType& type) {
  switch (type.storage()) {
    case Type::Integer: case Type::Date: case Type::Varchar: case Type::BigInt: case Type::Decimal: case Type::Double:
      return true;
    default: return false;
  }
}

BoundExpr sorted_case_lookup(BoundExpr searched, std::vector<std::pair<int64_t, BoundExpr>> branches,
                             BoundExpr otherwise, const DataType& type, std::size_t at) {
  std::stable_sort(branches.begin(), branches.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  branches.erase(std::unique(branches.begin(), branches.end(),
                             [](const auto& a, const auto& b) { return a.first == b.first; }),
                 branches.end());
  std::vector<int64_t> keys;
  for (const auto& branch : branches) keys.push_back(branch.first);
  auto results = std::make_shared<LookupTable>();
  results->type = type.storage();
  results->entries = branches.size();
  results->bytes.resize(branches.size() * type.width());
  for (std::size_t k = 0; k < branches.size(); ++k) {
    const Instr& value = branches[k].second.constant;
    uint8_t* at_entry = results->bytes.data() + k * type.width();
    switch (type.storage()) {
      case Type::Integer: case Type::Date: {
        const int32_t v = static_cast<int32_t>(value.value.i);
        std::memcpy(at_entry, &v, sizeof v);
        break;
      }
      case Type::Varchar: {
        const uint32_t v = static_cast<uint32_t>(value.value.i);
        std::memcpy(at_entry, &v, sizeof v);
        break;
      }
      case Type::Double: std::memcpy(at_entry, &value.value.d, sizeof(double)); break;
      default: std::memcpy(at_entry, &value.value.i, sizeof(int64_t)); break;
    }
  }
  auto table = bigint_table(keys);
  BoundExpr rank = table_node(Op::Rank, table, searched, at);
  BoundExpr found = table_node(Op::Lookup, table, rank, at);
  BoundExpr size;
  size.op = Op::Constant;
  size.type = keys.size() <= INT32_MAX ? DataType::integer() : DataType::bigint();
  size.offset = at;
  size.constant.value.i = static_cast<int64_t>(keys.size());
  BoundExpr inside = boolean_node(Op::Lt, {rank, std::move(size)}, at);
  BoundExpr equal = boolean_node(Op::Eq, {std::move(found), std::move(searched)}, at);
  BoundExpr matched = boolean_node(Op::And, {std::move(inside), std::move(equal)}, at);
  BoundExpr result = table_node(Op::Lookup, std::move(results), std::move(rank), at);
  result.type = type;
  result.dictionary = otherwise.dictionary;
  BoundExpr select;
  select.op = Op::Select;
  select.type = type;
  select.offset = at;
  select.dictionary = otherwise.dictionary;
  select.children.push_back(std::move(matched));
  select.children.push_back(std::move(result));
  select.children.push_back(std::move(otherwise));
  return select;
}

}  // namespace gpusql
