// The 13 standard SSB queries (flights Q1-Q4) as the benchmark runs them: the
// SQL text lives in tests/sql_queries/ssb/<name>.sql (the files the parser tests read too); this list adds what the
// report needs -- the columns each query must read, for its effective
// bandwidth.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "storage/table.hpp"

namespace gpusql::ssb {

struct Query {
  std::string name;                  // "q1_1": the file's name and the CSV's key
  std::string title;                 // "Q1.1"
  std::vector<std::string> columns;  // every column it reads (each table's full column, once)
};

// Q1.1 .. Q4.3 in order.
const std::vector<Query>& standard_queries();

// The query called `name` ("q2_3" or "Q2.3"); throws std::invalid_argument.
const Query& find_query(const std::string& name);

// The directory holding the .sql files (tests/sql_queries/ssb of the source tree).
std::string default_query_dir();
// The SQL text of `query` from `dir`; throws std::runtime_error when missing.
std::string query_sql(const Query& query, const std::string& dir = default_query_dir());

// The union of the columns `queries` read, in first-use order: what the
// generator must build for them.
std::vector<std::string> columns_read(const std::vector<Query>& queries);

// Bytes of the columns `query` reads in `tables` (rows x value width, summed);
// throws std::invalid_argument when a column is in none of them.
std::size_t bytes_read(const Query& query, const std::vector<std::shared_ptr<Table>>& tables);

}  // namespace gpusql::ssb
