#include "bench/tpch/tpch_queries.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gpusql::tpch {
namespace {

// Splits SQL text into statements at ';' outside quotes and comments,
// dropping the comments (a space in their place) and blank statements.
std::vector<std::string> split_statements(const std::string& sql) {
  std::vector<std::string> statements;
  std::string current;
  auto flush = [&] {
    const auto first = current.find_first_not_of(" \t\r\n");
    if (first != std::string::npos) {
      const auto last = current.find_last_not_of(" \t\r\n");
      statements.push_back(current.substr(first, last - first + 1));
    }
    current.clear();
  };
  for (std::size_t i = 0; i < sql.size(); ++i) {
    const char c = sql[i];
    if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
      i = std::min(sql.find('\n', i), sql.size()) - 1;
      current += ' ';
    } else if (c == '/' && i + 1 < sql.size() && sql[i + 1] == '*') {
      const auto end = sql.find("*/", i + 2);
      i = end == std::string::npos ? sql.size() - 1 : end + 1;
      current += ' ';
    } else if (c == '\'' || c == '"') {
      // A quoted literal or identifier, its doubled quotes included.
      const auto end = sql.find(c, i + 1);
      const std::size_t stop = end == std::string::npos ? sql.size() - 1 : end;
      current.append(sql, i, stop - i + 1);
      i = stop;
    } else if (c == ';') {
      flush();
    } else {
      current += c;
    }
  }
  flush();
  return statements;
}

bool is_select(const std::string& statement) {
  std::string word;
  for (char c : statement) {
    if (!std::isalpha(static_cast<unsigned char>(c))) break;
    word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return word == "select" || word == "with";
}

}  // namespace

const std::vector<Query>& standard_queries() {
  // Each list names every column the query's text does, grouped by table.
  static const std::vector<Query> queries = {
      {"q1",
       "Q1",
       {"l_returnflag", "l_linestatus", "l_quantity", "l_extendedprice", "l_discount", "l_tax", "l_shipdate"}},
      {"q2",
       "Q2",
       {"p_partkey", "p_mfgr", "p_size", "p_type", "s_suppkey", "s_name", "s_address", "s_nationkey", "s_phone",
        "s_acctbal", "s_comment", "ps_partkey", "ps_suppkey", "ps_supplycost", "n_nationkey", "n_name", "n_regionkey",
        "r_regionkey", "r_name"}},
      {"q3",
       "Q3",
       {"c_mktsegment", "c_custkey", "o_custkey", "o_orderkey", "o_orderdate", "o_shippriority", "l_orderkey",
        "l_extendedprice", "l_discount", "l_shipdate"}},
      {"q4", "Q4", {"o_orderpriority", "o_orderdate", "o_orderkey", "l_orderkey", "l_commitdate", "l_receiptdate"}},
      {"q5",
       "Q5",
       {"c_custkey", "c_nationkey", "o_custkey", "o_orderkey", "o_orderdate", "l_orderkey", "l_suppkey",
        "l_extendedprice", "l_discount", "s_suppkey", "s_nationkey", "n_nationkey", "n_name", "n_regionkey",
        "r_regionkey", "r_name"}},
      {"q6", "Q6", {"l_extendedprice", "l_discount", "l_shipdate", "l_quantity"}},
      {"q7",
       "Q7",
       {"s_suppkey", "s_nationkey", "l_suppkey", "l_orderkey", "l_shipdate", "l_extendedprice", "l_discount",
        "o_orderkey", "o_custkey", "c_custkey", "c_nationkey", "n_nationkey", "n_name"}},
      {"q8",
       "Q8",
       {"p_partkey", "p_type", "s_suppkey", "s_nationkey", "l_partkey", "l_suppkey", "l_orderkey", "l_extendedprice",
        "l_discount", "o_orderkey", "o_custkey", "o_orderdate", "c_custkey", "c_nationkey", "n_nationkey",
        "n_regionkey", "n_name", "r_regionkey", "r_name"}},
      {"q9",
       "Q9",
       {"p_partkey", "p_name", "s_suppkey", "s_nationkey", "l_suppkey", "l_partkey", "l_orderkey", "l_extendedprice",
        "l_discount", "l_quantity", "ps_suppkey", "ps_partkey", "ps_supplycost", "o_orderkey", "o_orderdate",
        "n_nationkey", "n_name"}},
      {"q10",
       "Q10",
       {"c_custkey", "c_name", "c_acctbal", "c_address", "c_phone", "c_comment", "c_nationkey", "o_custkey",
        "o_orderkey", "o_orderdate", "l_orderkey", "l_extendedprice", "l_discount", "l_returnflag", "n_nationkey",
        "n_name"}},
      {"q11",
       "Q11",
       {"ps_partkey", "ps_suppkey", "ps_supplycost", "ps_availqty", "s_suppkey", "s_nationkey", "n_nationkey",
        "n_name"}},
      {"q12",
       "Q12",
       {"o_orderkey", "o_orderpriority", "l_orderkey", "l_shipmode", "l_commitdate", "l_receiptdate", "l_shipdate"}},
      {"q13", "Q13", {"c_custkey", "o_orderkey", "o_custkey", "o_comment"}},
      {"q14", "Q14", {"l_partkey", "l_extendedprice", "l_discount", "l_shipdate", "p_partkey", "p_type"}},
      {"q15",
       "Q15",
       {"l_suppkey", "l_extendedprice", "l_discount", "l_shipdate", "s_suppkey", "s_name", "s_address", "s_phone"}},
      {"q16",
       "Q16",
       {"p_partkey", "p_brand", "p_type", "p_size", "ps_partkey", "ps_suppkey", "s_suppkey", "s_comment"}},
      {"q17", "Q17", {"l_partkey", "l_quantity", "l_extendedprice", "p_partkey", "p_brand", "p_container"}},
      {"q18",
       "Q18",
       {"c_name", "c_custkey", "o_orderkey", "o_custkey", "o_orderdate", "o_totalprice", "l_orderkey", "l_quantity"}},
      {"q19",
       "Q19",
       {"l_partkey", "l_quantity", "l_extendedprice", "l_discount", "l_shipmode", "l_shipinstruct", "p_partkey",
        "p_brand", "p_container", "p_size"}},
      {"q20",
       "Q20",
       {"s_suppkey", "s_name", "s_address", "s_nationkey", "ps_partkey", "ps_suppkey", "ps_availqty", "p_partkey",
        "p_name", "l_partkey", "l_suppkey", "l_quantity", "l_shipdate", "n_nationkey", "n_name"}},
      {"q21",
       "Q21",
       {"s_suppkey", "s_name", "s_nationkey", "l_orderkey", "l_suppkey", "l_receiptdate", "l_commitdate", "o_orderkey",
        "o_orderstatus", "n_nationkey", "n_name"}},
      {"q22", "Q22", {"c_custkey", "c_phone", "c_acctbal", "o_custkey"}},
  };
  return queries;
}

const Query& find_query(const std::string& name) {
  for (const auto& q : standard_queries())
    if (q.name == name || q.title == name || q.name == "q" + name) return q;
  throw std::invalid_argument("no TPC-H query \"" + name + "\" (q1 .. q22)");
}

std::string default_query_dir() { return GPUSQL_TPCH_QUERY_DIR; }

QueryText query_text(const Query& query, const std::string& dir) {
  const std::string path = dir + "/" + query.name + ".sql";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  const std::vector<std::string> statements = split_statements(text.str());
  const auto select = std::find_if(statements.rbegin(), statements.rend(), is_select);
  if (select == statements.rend()) throw std::runtime_error(path + " holds no SELECT");
  const auto at = static_cast<std::size_t>(statements.rend() - select - 1);
  QueryText q;
  q.setup.assign(statements.begin(), statements.begin() + static_cast<std::ptrdiff_t>(at));
  q.select = statements[at];
  q.teardown.assign(statements.begin() + static_cast<std::ptrdiff_t>(at) + 1, statements.end());
  return q;
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
    if (!found) throw std::invalid_argument("TPC-H column " + name + " is in no table");
  }
  return bytes;
}

}  // namespace gpusql::tpch
