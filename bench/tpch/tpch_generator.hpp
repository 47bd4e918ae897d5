// A deterministic generator for the TPC-H schema (specification 3.0, clause
// 4.2.3) at a scale factor, built straight into gpusql tables in memory:
//   part      200,000 x SF            partsupp  4 per part
//   supplier   10,000 x SF            customer  150,000 x SF
//   orders  1,500,000 x SF            lineitem  1..7 per order (~6,000,000 x SF)
//   nation 25, region 5
// with dbgen's value rules:
//   - keys dense from 1, except o_orderkey, sparse as dbgen's: of every 32
//     keys the first 8 are used (1..7, 32..39, 64..71, ...);
//   - ps_suppkey = (ps_partkey + i x (S/4 + (ps_partkey - 1)/S)) mod S + 1 for
//     the part's i-th supplier (S suppliers), and every lineitem's
//     (l_partkey, l_suppkey) is one of its part's four (i uniform in 0..3);
//   - p_retailprice = (90000 + (partkey/10) mod 20001 + 100 x (partkey mod
//     1000)) / 100; ps_supplycost 1.00..1000.00; ps_availqty 1..9999;
//     c_acctbal and s_acctbal -999.99..9999.99;
//   - l_quantity 1..50, l_discount 0.00..0.10, l_tax 0.00..0.08,
//     l_extendedprice = l_quantity x p_retailprice;
//   - o_orderdate uniform in 1992-01-01..1998-08-02; l_shipdate 1..121 days
//     after it, l_commitdate 30..90 days after it, l_receiptdate 1..30 days
//     after l_shipdate; l_returnflag 'R' or 'A' (even odds) when
//     l_receiptdate <= 1995-06-17, else 'N'; l_linestatus 'O' when
//     l_shipdate > 1995-06-17, else 'F'; o_orderstatus 'F' when every line
//     is 'F', 'O' when every line is 'O', else 'P'; o_totalprice = sum over
//     the lines of extendedprice x (1 - discount) x (1 + tax), truncated to
//     cents at each step as dbgen's integer arithmetic does;
//   - o_custkey uniform over the customers but never a multiple of 3 (one
//     third of the customers place no order), moved as dbgen moves it;
//   - the specification's word lists for p_name (5 distinct of 92 colours),
//     p_type, p_container, p_mfgr 'Manufacturer#M', p_brand 'Brand#MN',
//     c_mktsegment, o_orderpriority, l_shipinstruct, l_shipmode; o_clerk
//     'Clerk#%09d' of max(1000, 1000 x SF); c_name 'Customer#%09d', s_name
//     'Supplier#%09d'; phones 'CC-ddd-ddd-dddd' with CC = nation key + 10;
//     addresses 10..40 random characters of dbgen's alphabet;
//   - comments substrings of a pool of sentences from the specification's
//     grammar (tpch_text_pool.hpp), of dbgen's lengths.
//
// Known differences from dbgen:
//   - other random numbers: dbgen's own generator and seeds are not
//     reproduced, so no value equals dbgen's row for row; the distributions
//     are the same, and so are the queries' selectivities.
//   - the text pool is 8 MiB, not dbgen's 300 MB (comments repeat a little
//     more often at large scale factors).
//   - dbgen writes "Customer ... Complaints" (or "Customer ... Recommends")
//     into the s_comment of each supplier with probability 1 in 1,000, half
//     of each: about 5 x SF suppliers of each kind, and mostly none at all
//     at small scale factors (at SF 0.01, 100 suppliers). Here exactly
//     max(1, round(5 x SF)) suppliers get each (at most half of them), so
//     Q16's NOT IN subquery is never empty.
//   - at scale factors below 1 the row counts are rounded (dbgen truncates)
//     and at least one row is kept; with fewer than 4 suppliers (SF below
//     0.00035) a part may list one supplier twice in partsupp, as dbgen's
//     formula does there too.
//   - dbgen's word list misspells "without" ("whithout"); this one does not.
//
// Every value is a function of (seed, table, row) alone, so the output is the
// same for any number of threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench/tpch/tpch_schema.hpp"
#include "bench/tpch/tpch_tbl_writer.hpp"
#include "storage/table.hpp"

namespace gpusql::tpch {

struct Cardinalities {
  std::size_t part = 0;
  std::size_t supplier = 0;
  std::size_t partsupp = 0;  // 4 x part
  std::size_t customer = 0;
  std::size_t orders = 0;  // lineitem has 1..7 lines per order, ~4 x orders rows
  std::size_t nation = 25;
  std::size_t region = 5;
};

// The row counts at scale factor `sf` (> 0; fractions allowed, each table
// keeps at least one row). Throws std::invalid_argument for a scale factor
// <= 0 or one too large for 32-bit keys and row numbers (above ~200).
Cardinalities cardinalities(double sf);

struct GeneratorOptions {
  double scale_factor = 1.0;
  uint64_t seed = 19950617;
  // Columns to build (lower-case names, any table); empty: every column of
  // the specification. Unlisted columns are not generated at all: the
  // comment columns are most of the generator's time and memory, and only
  // Q13 and Q16 and the columns queries print read any of them.
  std::vector<std::string> columns;
  unsigned threads = 0;  // 0: all hardware threads
};

// The eight tables, built directly in memory (no text), in table_names()'s
// order; each table's columns are the wanted ones in the specification's
// order. VARCHAR columns get sorted dictionaries. Throws
// std::invalid_argument as cardinalities() does.
std::vector<std::shared_ptr<Table>> generate(const GeneratorOptions& options);

}  // namespace gpusql::tpch
