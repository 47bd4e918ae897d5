#include "bench/tpch/tpch_schema.hpp"

#include <map>
#include <stdexcept>

namespace gpusql::tpch {
namespace {

constexpr DataType kInteger = DataType::integer();
constexpr DataType kDate = DataType::date();
constexpr DataType kText = DataType::varchar();
constexpr DataType kMoney{Type::Decimal, 15, 2};

const std::map<std::string, std::vector<Column>>& schema() {
  static const std::map<std::string, std::vector<Column>> tables = {
      {"part",
       {{"p_partkey", kInteger},
        {"p_name", kText},
        {"p_mfgr", kText},
        {"p_brand", kText},
        {"p_type", kText},
        {"p_size", kInteger},
        {"p_container", kText},
        {"p_retailprice", kMoney},
        {"p_comment", kText}}},
      {"supplier",
       {{"s_suppkey", kInteger},
        {"s_name", kText},
        {"s_address", kText},
        {"s_nationkey", kInteger},
        {"s_phone", kText},
        {"s_acctbal", kMoney},
        {"s_comment", kText}}},
      {"partsupp",
       {{"ps_partkey", kInteger},
        {"ps_suppkey", kInteger},
        {"ps_availqty", kInteger},
        {"ps_supplycost", kMoney},
        {"ps_comment", kText}}},
      {"customer",
       {{"c_custkey", kInteger},
        {"c_name", kText},
        {"c_address", kText},
        {"c_nationkey", kInteger},
        {"c_phone", kText},
        {"c_acctbal", kMoney},
        {"c_mktsegment", kText},
        {"c_comment", kText}}},
      {"orders",
       {{"o_orderkey", kInteger},
        {"o_custkey", kInteger},
        {"o_orderstatus", kText},
        {"o_totalprice", kMoney},
        {"o_orderdate", kDate},
        {"o_orderpriority", kText},
        {"o_clerk", kText},
        {"o_shippriority", kInteger},
        {"o_comment", kText}}},
      {"lineitem",
       {{"l_orderkey", kInteger},
        {"l_partkey", kInteger},
        {"l_suppkey", kInteger},
        {"l_linenumber", kInteger},
        {"l_quantity", kMoney},
        {"l_extendedprice", kMoney},
        {"l_discount", kMoney},
        {"l_tax", kMoney},
        {"l_returnflag", kText},
        {"l_linestatus", kText},
        {"l_shipdate", kDate},
        {"l_commitdate", kDate},
        {"l_receiptdate", kDate},
        {"l_shipinstruct", kText},
        {"l_shipmode", kText},
        {"l_comment", kText}}},
      {"nation", {{"n_nationkey", kInteger}, {"n_name", kText}, {"n_regionkey", kInteger}, {"n_comment", kText}}},
      {"region", {{"r_regionkey", kInteger}, {"r_name", kText}, {"r_comment", kText}}},
  };
  return tables;
}

}  // namespace

const std::vector<std::string>& table_names() {
  static const std::vector<std::string> names = {"part",   "supplier", "partsupp", "customer",
                                                 "orders", "lineitem", "nation",   "region"};
  return names;
}

const std::vector<Column>& columns(const std::string& table) {
  auto it = schema().find(table);
  if (it == schema().end()) throw std::invalid_argument("not a TPC-H table: " + table);
  return it->second;
}

std::vector<std::string> column_names(const std::string& table) {
  std::vector<std::string> names;
  for (const auto& c : columns(table)) names.push_back(c.name);
  return names;
}

std::string table_of(const std::string& column) {
  for (const auto& [table, list] : schema())
    for (const auto& c : list)
      if (c.name == column) return table;
  return {};
}

std::string create_table_sql(const std::string& table) {
  std::string sql = "CREATE TABLE " + table + " (";
  const auto& list = columns(table);
  for (std::size_t c = 0; c < list.size(); ++c)
    sql += (c ? ", " : "") + list[c].name + " " + list[c].type.to_string() + " NOT NULL";
  return sql + ")";
}

}  // namespace gpusql::tpch
