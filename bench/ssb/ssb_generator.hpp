// A deterministic generator for the Star Schema Benchmark (SSB) schema:
// lineorder, customer, supplier, part and date, at a scale factor.
//
// It follows the SSB specification (O'Neil et al., rev. 3) and its reference
// dbgen closely enough that the 13 standard queries select what the
// specification says they select:
//   lineorder  ~6,000,000 x SF rows: 1,500,000 x SF orders of 1..7 lines
//   customer   30,000 x SF           supplier  2,000 x SF
//   part       200,000 x (1 + floor(log2 SF)) for SF >= 1; 200,000 x SF below
//   date       2,556 days from 1992-01-01 (as dbgen: the last is 1998-12-30)
// Values are uniform as in dbgen: lo_quantity 1..50, lo_discount 0..10,
// lo_tax 0..8, lo_orderdate 1992-01-01..1998-08-02 (a valid d_datekey),
// lo_commitdate 30..90 days later; nations uniform over the 25 TPC-H nations
// (5 per region), cities the nation's first 9 characters (blank-padded) and a
// digit ('UNITED KI1'); p_mfgr 'MFGR#1'..'MFGR#5', p_category 'MFGR#11'..
// 'MFGR#55', p_brand1 'MFGR#1101'..'MFGR#5540' (40 per category). Prices are
// dbgen's integer cents: lo_extendedprice = lo_quantity x retail price,
// lo_revenue = lo_extendedprice x (100 - lo_discount) / 100, lo_supplycost =
// 6 x retail price / 10. Dates are integers yyyymmdd, as in dbgen.
//
// Known differences from dbgen, none of which changes a query's selectivity:
// dense order keys (dbgen's are sparse), every customer may order (dbgen skips
// every third), and the free-text columns (names, addresses, phones, p_name)
// are random in dbgen's shapes, not its exact text.
//
// Every value is a function of (seed, table, row) alone, so the output is the
// same for any number of threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "storage/table.hpp"

namespace gpusql::ssb {

struct Cardinalities {
  std::size_t orders = 0;  // lineorder has 1..7 lines per order, ~4 x orders rows
  std::size_t customer = 0;
  std::size_t supplier = 0;
  std::size_t part = 0;
  std::size_t date = 0;
};

// The row counts at scale factor `sf` (> 0; fractions allowed, each table
// keeps at least one row).
Cardinalities cardinalities(double sf);

struct GeneratorOptions {
  double scale_factor = 1.0;
  uint64_t seed = 19920101;
  // Columns to build (lower-case names, any table); empty: every column of
  // the specification. Unlisted columns are not generated at all, which is
  // what keeps lineorder at SF 20 small enough to build in seconds.
  std::vector<std::string> columns;
  unsigned threads = 0;  // 0: all hardware threads
};

// The five tables, built directly in memory (no CSV), in this order:
// lineorder, customer, supplier, part, date. VARCHAR columns get sorted
// dictionaries. Throws std::invalid_argument for a scale factor <= 0 or
// one too large for 32-bit keys.
std::vector<std::shared_ptr<Table>> generate(const GeneratorOptions& options);

// The specification's columns of `table` in order, all of them.
const std::vector<std::string>& column_names(const std::string& table);

struct TextFormat {
  char delimiter = '|';
  bool header = false;             // a first line of column names
  bool trailing_delimiter = true;  // dbgen ends every line with the delimiter
};

// Writes `table` as text: one line per row, integers in decimal, strings as
// they are (SSB strings hold no delimiter, quote or line break). The default
// format is dbgen's. Formats in parallel, writes in order. Throws
// std::runtime_error when the file cannot be written.
void write_text(const Table& table, const std::string& path, const TextFormat& format = {}, unsigned threads = 0);

}  // namespace gpusql::ssb
