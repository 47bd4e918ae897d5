// The query cases every executor runs on the sample data: each against
// SQLite on the host (engine_test.cpp) and, on a GPU machine, the CUDA
// executor against the host executor bit for bit (gpu_test.cpp).
#pragma once

#include <string>
#include <vector>

namespace gpusql::test {

struct QueryCase {
  std::string sql;
  std::string sqlite_sql;                 // "" : the same text
  std::vector<std::size_t> approximate;   // columns where SQLite's float sums may differ in the last bits
  bool unordered = false;                 // SQLite's row order may differ: compare as multisets
};

inline const std::vector<std::string>& sample_tables() {
  static const std::vector<std::string> tables = {"records", "arecords", "brecords", "points", "vals", "scores", "pairs"};
  return tables;
}

inline const std::vector<QueryCase>& query_cases() {
  static const std::vector<QueryCase> cases = {
      // The foundation's acceptance query.
      {"SELECT COUNT(*), SUM(weight), MIN(weight), MAX(height) FROM records WHERE weight < 0.1 OR height > 0.9", "", {1}},
      // The seeds' filter, every column.
      {"SELECT * FROM records WHERE weight < 0.1", "", {}},
      {"SELECT height FROM records WHERE weight >= 0.5 AND height <= 0.25", "", {}},
      {"SELECT height, weight * 2 + 1 FROM records WHERE NOT (height < 0.5 AND weight > 0.2)", "", {}},
      {"SELECT weight - height, height / weight FROM records WHERE (weight > 0.9 OR weight < 0.05) AND height > 0.3", "", {}},
      // 0 % and 100 % selectivity, and aggregates over nothing.
      {"SELECT * FROM records WHERE weight > 2", "", {}},
      {"SELECT COUNT(*), SUM(weight), MIN(height), MAX(height), AVG(weight) FROM records WHERE weight > 2", "", {}},
      {"SELECT COUNT(*) FROM records WHERE weight >= 0", "", {}},
      {"SELECT COUNT(*), SUM(height), AVG(height), MIN(weight), MAX(weight) FROM records", "", {1, 2}},
      // Integers: exact sums, integer division and modulo as SQLite does them.
      {"SELECT COUNT(*), SUM(id), MIN(id), MAX(id) FROM arecords WHERE id = 3 OR id > 8", "", {}},
      {"SELECT SUM(x), SUM(y), MIN(y), MAX(x), COUNT(y) FROM pairs WHERE x % 3 = 1", "", {}},
      {"SELECT x, y, x * y - 7 / 2, x / y, x % y FROM pairs WHERE y <> 0 AND x / y > 1", "", {}},
      {"SELECT x / 0, x % 0 FROM pairs WHERE x = 9", "", {}},
      {"SELECT -x, x + -y, 3 - -x FROM pairs WHERE y < -4", "", {}},
      // Mixed integer and double arithmetic.
      {"SELECT id * weight, id + 0.5 FROM arecords WHERE id * weight > 4.5", "", {}},
      {"SELECT SUM(id * weight), AVG(id) FROM arecords", "", {0, 1}},
      // rowid is 0-based, as in DuckDB; SQLite's is 1-based.
      {"SELECT rowid, v FROM vals WHERE v < -3", "SELECT rowid - 1, v FROM vals WHERE v < -3", {}},
      {"SELECT MIN(v), MAX(v), COUNT(*), SUM(v), AVG(v) FROM vals", "", {3, 4}},
      {"SELECT COUNT(*) FROM vals WHERE rowid % 7 = 0 AND v > 10", "SELECT COUNT(*) FROM vals WHERE (rowid - 1) % 7 = 0 AND v > 10", {}},
      {"SELECT COUNT(*), SUM(score) FROM scores WHERE score >= 0 AND score <= 100", "", {1}},
      {"SELECT x, y FROM points WHERE (x - 10) * (x - 10) + (y - 10) * (y - 10) < 4", "", {}},
      // Aliases and constants in the select list.
      {"SELECT COUNT(*) AS n, MAX(x) - MIN(x) AS spread, 42 AS answer FROM pairs", "", {}},
      {"SELECT 1 + 2, 2.5 * 2, 'label' FROM pairs WHERE x = 0 AND y = 0", "", {}},
      // Booleans and three-valued logic with NULL literals.
      {"SELECT COUNT(*) FROM pairs WHERE NULL OR x = 1", "", {}},
      {"SELECT COUNT(*) FROM pairs WHERE NOT (NULL AND x = 1)", "", {}},
      {"SELECT x = y, x < y FROM pairs WHERE x = 3", "", {}},
      // COUNT(DISTINCT) and the seeds' argmin: the lowest tied row wins.
      {"SELECT COUNT(DISTINCT x), COUNT(DISTINCT y), COUNT(DISTINCT x + y) FROM pairs", "", {}},
      {"SELECT COUNT(DISTINCT id) FROM arecords WHERE weight < 0.5", "", {}},
      {"SELECT MIN(v), ARG_MIN(rowid, v), ARG_MAX(rowid, v), MIN_BY(rowid, -v) FROM vals",
       "SELECT (SELECT MIN(v) FROM vals), (SELECT rowid - 1 FROM vals ORDER BY v, rowid LIMIT 1), "
       "(SELECT rowid - 1 FROM vals ORDER BY v DESC, rowid LIMIT 1), (SELECT rowid - 1 FROM vals ORDER BY -v, rowid LIMIT 1)",
       {}},
      {"SELECT ARG_MAX(x, y), ARG_MIN(y, x) FROM pairs WHERE x > 2",
       "SELECT (SELECT x FROM pairs WHERE x > 2 ORDER BY y DESC, rowid LIMIT 1), "
       "(SELECT y FROM pairs WHERE x > 2 ORDER BY x, rowid LIMIT 1)",
       {}},
      // Joins through WHERE: an equi-join (hash join) and the seeds' neighbour
      // list (nested-loop join).
      {"SELECT a.id, a.weight, b.height FROM arecords a, brecords b WHERE a.id = b.id AND a.weight < 0.1", "", {}, true},
      {"SELECT COUNT(*), SUM(a.weight * b.height) FROM arecords a, brecords b WHERE a.id = b.id", "", {1}},
      {"SELECT a.rowid, b.rowid FROM points a, points b "
       "WHERE (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) < 1.9 * 1.9 AND a.rowid <> b.rowid",
       "SELECT a.rowid - 1, b.rowid - 1 FROM points a, points b "
       "WHERE (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) < 1.9 * 1.9 AND a.rowid <> b.rowid",
       {}, true},
      {"SELECT COUNT(*) FROM arecords a, brecords b WHERE a.id < b.id AND b.height > 0.9", "", {}},
      {"SELECT COUNT(*) FROM arecords a, brecords b, pairs p WHERE a.id = b.id AND p.x = a.id AND p.y > 3", "", {}},
  };
  return cases;
}

}  // namespace gpusql::test
