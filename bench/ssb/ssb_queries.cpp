#include "bench/ssb/ssb_queries.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gpusql::ssb {

const std::vector<Query>& standard_queries() {
  // The lineorder columns come first, then each dimension's key and the
  // columns its predicates, groups and sums name.
  static const std::vector<Query> queries = {
      {"q1_1", "Q1.1", {"lo_orderdate", "lo_discount", "lo_quantity", "lo_extendedprice", "d_datekey", "d_year"}},
      {"q1_2",
       "Q1.2",
       {"lo_orderdate", "lo_discount", "lo_quantity", "lo_extendedprice", "d_datekey", "d_yearmonthnum"}},
      {"q1_3",
       "Q1.3",
       {"lo_orderdate", "lo_discount", "lo_quantity", "lo_extendedprice", "d_datekey", "d_weeknuminyear", "d_year"}},
      {"q2_1",
       "Q2.1",
       {"lo_orderdate", "lo_partkey", "lo_suppkey", "lo_revenue", "d_datekey", "d_year", "p_partkey", "p_category",
        "p_brand1", "s_suppkey", "s_region"}},
      {"q2_2",
       "Q2.2",
       {"lo_orderdate", "lo_partkey", "lo_suppkey", "lo_revenue", "d_datekey", "d_year", "p_partkey", "p_brand1",
        "s_suppkey", "s_region"}},
      {"q2_3",
       "Q2.3",
       {"lo_orderdate", "lo_partkey", "lo_suppkey", "lo_revenue", "d_datekey", "d_year", "p_partkey", "p_brand1",
        "s_suppkey", "s_region"}},
      {"q3_1",
       "Q3.1",
       {"lo_custkey", "lo_suppkey", "lo_orderdate", "lo_revenue", "c_custkey", "c_region", "c_nation", "s_suppkey",
        "s_region", "s_nation", "d_datekey", "d_year"}},
      {"q3_2",
       "Q3.2",
       {"lo_custkey", "lo_suppkey", "lo_orderdate", "lo_revenue", "c_custkey", "c_nation", "c_city", "s_suppkey",
        "s_nation", "s_city", "d_datekey", "d_year"}},
      {"q3_3",
       "Q3.3",
       {"lo_custkey", "lo_suppkey", "lo_orderdate", "lo_revenue", "c_custkey", "c_city", "s_suppkey", "s_city",
        "d_datekey", "d_year"}},
      {"q3_4",
       "Q3.4",
       {"lo_custkey", "lo_suppkey", "lo_orderdate", "lo_revenue", "c_custkey", "c_city", "s_suppkey", "s_city",
        "d_datekey", "d_yearmonth", "d_year"}},
      {"q4_1",
       "Q4.1",
       {"lo_custkey", "lo_suppkey", "lo_partkey", "lo_orderdate", "lo_revenue", "lo_supplycost", "c_custkey",
        "c_region", "c_nation", "s_suppkey", "s_region", "p_partkey", "p_mfgr", "d_datekey", "d_year"}},
      {"q4_2",
       "Q4.2",
       {"lo_custkey", "lo_suppkey", "lo_partkey", "lo_orderdate", "lo_revenue", "lo_supplycost", "c_custkey",
        "c_region", "s_suppkey", "s_region", "s_nation", "p_partkey", "p_mfgr", "p_category", "d_datekey", "d_year"}},
      {"q4_3",
       "Q4.3",
       {"lo_custkey", "lo_suppkey", "lo_partkey", "lo_orderdate", "lo_revenue", "lo_supplycost", "c_custkey",
        "c_region", "s_suppkey", "s_nation", "s_city", "p_partkey", "p_category", "p_brand1", "d_datekey", "d_year"}},
  };
  return queries;
}

const Query& find_query(const std::string& name) {
  for (const auto& q : standard_queries())
    if (q.name == name || q.title == name) return q;
  throw std::invalid_argument("no SSB query \"" + name + "\" (q1_1 .. q4_3)");
}

std::string default_query_dir() { return GPUSQL_SSB_QUERY_DIR; }

std::string query_sql(const Query& query, const std::string& dir) {
  const std::string path = dir + "/" + query.name + ".sql";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> columns_read(const std::vector<Query>& queries) {
  std::vector<std::string> columns;
  for (const auto& q : queries)
    for (const auto& c : q.columns)
      if (std::find(columns.begin(), columns.end(), c) == columns.end()) columns.push_back(c);
  return columns;
}

std::size_t bytes_read(const Query& query, const std::vector<std::shared_ptr<Table>>& tables) {
  std::size_t bytes = 0;
  for (const auto& name : query.columns) {
    bool found = false;
    for (const auto& table : tables) {
      int c = table->find_column(name);
      if (c < 0) continue;
      bytes += table->rows * table->columns[static_cast<std::size_t>(c)].type.width();
      found = true;
      break;
    }
    if (!found) throw std::invalid_argument("SSB column " + name + " is in no table");
  }
  return bytes;
}

}  // namespace gpusql::ssb
