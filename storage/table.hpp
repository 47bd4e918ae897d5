// A columnar table: its schema, the host columns the host executor reads,
// and -- when a GPU is in use -- the device columns the CUDA executor reads.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/column_statistics.hpp"
#include "storage/data_type.hpp"
#include "storage/derived_cache.hpp"
#include "storage/device_table.hpp"
#include "storage/host_column.hpp"

namespace gpusql {

struct ColumnDefinition {
  std::string name;
  DataType type;
  bool not_null = false;  // declared NOT NULL: loads and inserts refuse a NULL
};

// PRIMARY KEY or UNIQUE: no two rows share the values of `columns` (rows
// with a NULL in them excepted; a primary key's columns are NOT NULL).
struct UniqueKey {
  std::vector<int> columns;
  bool primary_key = false;
};

struct Table {
  std::string name;
  std::vector<ColumnDefinition> columns;
  std::vector<UniqueKey> keys;  // CREATE TABLE's; every new version keeps them
  // One per column, all of `rows` values -- or, for a table that lives on
  // the device alone (a subquery's result on the GPU executor), none: the
  // column's type and dictionary only (size 0; see host_column()).
  std::vector<HostColumn> host;
  std::size_t rows = 0;
  std::unique_ptr<DeviceTable> device;  // null when the database runs on the host

  // estimate_distinct() of column `column`, computed on first use and kept
  // (a table's rows never change: an append makes a new Table). Safe to call
  // from several threads at once.
  double distinct_estimate(std::size_t column) const;
  // Sets the distinct counts distinct_estimate() returns (one per column):
  // what made the table knows them better than a sample would, or the
  // table has no host copy to sample.
  void set_distinct_estimates(std::vector<double> estimates) const;
  // A query result's statistics, from the plan that made it: its distinct
  // counts, and no value ranges, on either executor (a result on the device
  // has no host copy to scan; one on the host must plan the query around it
  // the same, so its rows come in the same order).
  void set_plan_estimates(std::vector<double> distinct) const;
  // Makes every column's estimate and value range now, on all cores, when
  // the table is large enough for them to be sampled (a fixed cost per
  // column): the catalog does it as a table arrives, so a query's first plan
  // does not wait on reads over gigabytes. Smaller tables stay lazy.
  void estimate_distinct_now() const;
  // Takes `earlier`'s estimates when this table is a version of it (the
  // same columns) within a tenth of its rows -- an INSERT, a small DELETE
  // or an UPDATE -- a key's scaled by the rows; returns whether it did.
  // Sampling again would cost each small change of a large table as much
  // as its first load.
  bool carry_distinct_estimates(const Table& earlier) const;
  // Every column's distinct estimate, value range and NULL count, as what
  // made the table measured them while the values went by (a CSV load to
  // the device alone, which never holds a column whole).
  void set_statistics(std::vector<double> distinct, std::vector<ValueRange> ranges,
                      std::vector<std::size_t> null_counts) const;

  // value_range() of column `column` (storage/column_statistics.hpp),
  // computed on first use and kept; unknown for a column without a host
  // copy. Safe to call from several threads at once.
  ValueRange value_range(std::size_t column) const;

  // Whether column `column`'s values are held on the host.
  // (Not a column of plain strings on the device alone, even of no rows:
  // its host column then holds no pool.)
  bool has_host_copy(std::size_t column) const;
  // Column `column`'s values on the host: host[column], for a table on
  // the device alone a copy fetched on first use and kept, and for a column
  // of plain strings its encoded form (as dictionary()). Safe to call from
  // several threads at once.
  const HostColumn& host_column(std::size_t column) const;

  // VARCHAR column `column`'s dictionary: host[column]'s, or for a column of
  // plain strings (HostColumn::strings) its encoded form's, made now when no
  // query has read the column before -- on the device when the strings live
  // there alone, so only the distinct ones cross. Safe to call from several
  // threads at once.
  std::shared_ptr<const Dictionary> dictionary(std::size_t column) const;
  // Column `column` as a scan reads it on the host: host[column], or for a
  // column of plain strings its encoded form once dictionary() or
  // host_column() has made it (codes made on the device fetched now); null
  // before that (no bound expression reads the column, and a scan leaves it
  // out of its chunks).
  const HostColumn* scan_column(std::size_t column) const;
  // The same on the device: device->columns[column], or for a column of
  // plain strings whose encoded form exists, that form (made there, or
  // uploaded on first use: Error(OutOfMemory) when it does not fit, the
  // table unchanged); null where scan_column() is.
  const DeviceColumn* device_column(std::size_t column, DeviceContext& context) const;

  // What `build` makes of the table -- a LIKE's matches over a column of
  // plain strings -- made on first use and kept under `key`, which names
  // the column and the function: the same query run again reads the
  // strings once. (A table's rows never change; the most recently used
  // DerivedCache::kCapacity stay.) Safe from several threads.
  template <class T>
  std::shared_ptr<const T> derived(const std::string& key, const std::function<T()>& build) const {
    return statistics_->derived.get<T>(key, build);
  }

  // Column `column` for a caller that reads it once (an append copies the
  // old rows; COPY TO writes them; a LIKE over plain strings): host[column]
  // when the host holds it, else a copy (plain strings as they are) fetched
  // from the device into
  // `fetched`, which the caller owns -- not kept with the table, as
  // host_column() keeps its fetch.
  const HostColumn& read_column(std::size_t column, HostColumn& fetched) const;
  // Whether read_column() fetches `column` from the device.
  bool reads_from_device(std::size_t column) const;

  // NULLs in column `column`: counted from host[column], or for a column
  // whose values the host no longer holds, as counted before they left.
  std::size_t null_count(std::size_t column) const;

  // Makes the table live on the device alone (Table::device must hold all
  // of it): each column's statistics are computed first (distinct estimate,
  // value range, NULL count, which need the values), columns of plain
  // strings go to the device in their own form (DeviceColumn::string_bytes;
  // the host keeps those there is no room for), then the host keeps only
  // types and dictionaries. The database does it to each table it makes on
  // the GPU executor unless SET host_mirror is on. Not safe while another
  // thread reads the table: call it before the table is shared.
  void release_host_copy(DeviceContext& context);

  // Whether VARCHAR column `column` is held as plain strings (on the host,
  // HostColumn::strings, or on the device alone), with no dictionary until
  // a query reads it (dictionary()).
  bool is_plain(std::size_t column) const;

  // Index of the column called `name` (case-insensitive), or -1.
  int find_column(std::string_view column) const;
  // Bytes its columns (and dictionaries) take in host memory, and on the device.
  std::size_t host_bytes() const;
  std::size_t device_bytes() const;

 private:
  struct Statistics {
    std::mutex mutex;
    std::vector<double> distinct;  // per column; negative: not computed yet
    std::vector<std::optional<ValueRange>> ranges;  // per column; empty: not computed yet
    std::vector<std::optional<std::size_t>> null_counts;  // per column; empty: not counted yet
    std::vector<std::unique_ptr<HostColumn>> fetched;  // host_column()'s copies, per column
    // Columns of plain strings, encoded (per column; null: not yet): the
    // dictionary, set when either form is made; the codes on the host
    // (made there, or fetched for a host reader); the encoded form on the
    // device (made there, or uploaded for a device reader).
    std::vector<std::shared_ptr<const Dictionary>> dictionaries;
    std::vector<std::unique_ptr<HostColumn>> encoded;
    std::vector<std::unique_ptr<DeviceColumn>> encoded_device;
    DerivedCache derived;  // derived()'s (a lock of its own)
  };
  // Each column's distinct estimate (where none is known yet), value range
  // and NULL count, from its host values, on all cores.
  void take_statistics() const;
  // Makes plain column `column`'s encoded form unless made: on the device
  // when its strings live there alone and the context has the kernel (the
  // host then gets only the dictionary), else on the host. Holds the mutex.
  void encode_locked(std::size_t column) const;
  bool encoded_made(std::size_t column) const;
  const HostColumn& encoded(std::size_t column) const;
  std::unique_ptr<Statistics> statistics_ = std::make_unique<Statistics>();
};

// ASCII case-insensitive equality, the rule for SQL identifiers here.
bool iequals(std::string_view a, std::string_view b);
std::string to_lower(std::string_view s);

}  // namespace gpusql
