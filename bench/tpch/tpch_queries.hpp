// The 22 TPC-H queries as the benchmark and the tests run them: the SQL text
// lives in tests/sql_queries/tpch/q<N>.sql (qgen's text with the default
// substitutions, which the parser tests read too); this list adds the
// columns each query reads, for its effective bandwidth and for generating
// only what the queries need. Every reading of those files goes through
// query_text().
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "storage/table.hpp"

namespace gpusql::tpch {

struct Query {
  std::string name;                  // "q1": the file's name and the CSV's key
  std::string title;                 // "Q1"
  std::vector<std::string> columns;  // every column it reads (each table's full column, once)
};

// Q1 .. Q22 in order.
const std::vector<Query>& standard_queries();

// The query called `name` ("q5", "Q5" or "5"); throws std::invalid_argument.
const Query& find_query(const std::string& name);

// A query file's statements. Q15 is three -- CREATE VIEW, the SELECT, DROP
// VIEW -- every other query one: `setup` and `teardown` run around `select`,
// the statement whose rows are the answer.
struct QueryText {
  std::vector<std::string> setup;
  std::string select;
  std::vector<std::string> teardown;
};

// The directory holding the .sql files (tests/sql_queries/tpch of the source tree).
std::string default_query_dir();
// `query`'s file from `dir`, split into statements (';' outside quotes and
// comments; comments dropped). Throws std::runtime_error when the file is
// missing or holds no SELECT.
QueryText query_text(const Query& query, const std::string& dir = default_query_dir());

// The union of the columns `queries` read, in first-use order: what the
// generator must build for them.
std::vector<std::string> columns_read(const std::vector<Query>& queries);

// Bytes of the columns `query` reads in `tables` (rows x value width, summed;
// a column read twice, as lineitem in Q21, counts once); throws
// std::invalid_argument when a column is in none of them.
std::size_t bytes_read(const Query& query, const std::vector<std::shared_ptr<Table>>& tables);

}  // namespace gpusql::tpch
