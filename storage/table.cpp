#include "storage/table.hpp"

#include <algorithm>
#include <cctype>

#include "storage/column_ops.hpp"
#include "storage/column_statistics.hpp"
#include "storage/parallel_tasks.hpp"
#include "storage/string_sets.hpp"

namespace gpusql {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

int Table::find_column(std::string_view column) const {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (iequals(columns[i].name, column)) return static_cast<int>(i);
  return -1;
}

double Table::distinct_estimate(std::size_t column) const {
  std::lock_guard lock(statistics_->mutex);
  std::vector<double>& distinct = statistics_->distinct;
  if (distinct.size() != host.size()) distinct.assign(host.size(), -1.0);
  if (column >= distinct.size()) return static_cast<double>(rows);
  if (distinct[column] < 0)
    distinct[column] = has_host_copy(column) ? estimate_distinct(host[column]) : static_cast<double>(rows);
  return distinct[column];
}

void Table::estimate_distinct_now() const {
  if (rows > kDistinctSampleRows) take_statistics();
}

void Table::take_statistics() const {
  const std::size_t width = host.size();
  std::vector<double> estimates(width, -1.0);
  {
    std::lock_guard lock(statistics_->mutex);
    if (statistics_->distinct.size() == width) estimates = statistics_->distinct;
  }
  std::vector<ValueRange> ranges(width);
  std::vector<std::size_t> nulls(width, 0);
  parallel_for_workers(width, hardware_threads(), [&](std::size_t c, std::size_t) {
    if (!has_host_copy(c)) return;
    if (estimates[c] < 0) estimates[c] = estimate_distinct(host[c]);
    ranges[c] = gpusql::value_range(host[c]);
    nulls[c] = host[c].null_count();
  });
  std::lock_guard lock(statistics_->mutex);
  std::vector<double>& distinct = statistics_->distinct;
  if (distinct.size() != width) distinct.assign(width, -1.0);
  statistics_->ranges.resize(width);
  statistics_->null_counts.resize(width);
  for (std::size_t c = 0; c < width; ++c) {
    if (distinct[c] < 0) distinct[c] = estimates[c];
    if (!has_host_copy(c)) continue;
    if (!statistics_->ranges[c]) statistics_->ranges[c] = ranges[c];
    statistics_->null_counts[c] = nulls[c];
  }
}

ValueRange Table::value_range(std::size_t column) const {
  {
    std::lock_guard lock(statistics_->mutex);
    auto& ranges = statistics_->ranges;
    if (ranges.size() == host.size() && ranges[column]) return *ranges[column];
  }
  if (!has_host_copy(column)) return {};
  const ValueRange range = gpusql::value_range(host[column]);  // outside the lock: a scan of the column
  std::lock_guard lock(statistics_->mutex);
  statistics_->ranges.resize(host.size());
  statistics_->ranges[column] = range;
  return range;
}

bool Table::carry_distinct_estimates(const Table& earlier) const {
  if (earlier.host.size() != host.size() || earlier.rows == 0) return false;
  const double old_rows = static_cast<double>(earlier.rows), new_rows = static_cast<double>(rows);
  if (new_rows > old_rows * 1.1 || new_rows < old_rows * 0.9) return false;
  for (std::size_t c = 0; c < host.size(); ++c)
    if (earlier.host[c].type != host[c].type) return false;
  std::vector<double> estimates(host.size());
  for (std::size_t c = 0; c < host.size(); ++c) {
    const double d = earlier.distinct_estimate(c);
    estimates[c] = d >= 0.9 * old_rows ? std::min(new_rows, d * new_rows / old_rows) : std::min(new_rows, d);
  }
  set_distinct_estimates(std::move(estimates));
  return true;
}

void Table::set_distinct_estimates(std::vector<double> estimates) const {
  std::lock_guard lock(statistics_->mutex);
  estimates.resize(host.size(), -1.0);
  statistics_->distinct = std::move(estimates);
}

void Table::set_plan_estimates(std::vector<double> distinct) const {
  std::lock_guard lock(statistics_->mutex);
  distinct.resize(host.size(), -1.0);
  statistics_->distinct = std::move(distinct);
  statistics_->ranges.assign(host.size(), ValueRange{});
}

void Table::set_statistics(std::vector<double> distinct, std::vector<ValueRange> ranges,
                           std::vector<std::size_t> null_counts) const {
  std::lock_guard lock(statistics_->mutex);
  statistics_->distinct = std::move(distinct);
  statistics_->ranges.assign(ranges.begin(), ranges.end());
  statistics_->null_counts.assign(null_counts.begin(), null_counts.end());
}

void Table::encode_locked(std::size_t column) const {
  Statistics& s = *statistics_;
  if (s.encoded.size() != host.size()) s.encoded.resize(host.size());
  if (s.encoded_device.size() != host.size()) s.encoded_device.resize(host.size());
  if (s.dictionaries.size() != host.size()) s.dictionaries.resize(host.size());
  if (s.dictionaries[column]) return;
  if (!has_host_copy(column) && device) {  // the strings live on the device alone
    const DeviceColumn& plain = device->columns[column];
    DeviceContext& context = *plain.string_offsets.context();
    if (can_encode_on_device(rows, context)) {
      try {
        s.encoded_device[column] =
            std::make_unique<DeviceColumn>(encode_on_device(plain, rows, s.dictionaries[column], context));
        return;
      } catch (const Error& e) {
        if (e.kind() != ErrorKind::OutOfMemory) throw;
        // No room for the sort: encoded on the host, as without a kernel.
      }
    }
  }
  HostColumn fetched;
  s.encoded[column] = std::make_unique<HostColumn>(encode_strings(read_column(column, fetched), hardware_threads()));
  s.dictionaries[column] = s.encoded[column]->dictionary;
}

bool Table::encoded_made(std::size_t column) const {
  std::lock_guard lock(statistics_->mutex);
  const auto& dictionaries = statistics_->dictionaries;
  return column < dictionaries.size() && dictionaries[column];
}

const HostColumn& Table::encoded(std::size_t column) const {
  std::lock_guard lock(statistics_->mutex);
  encode_locked(column);
  auto& encoded = statistics_->encoded;
  if (!encoded[column]) {  // made on the device: its codes fetched for a host reader
    encoded[column] = std::make_unique<HostColumn>(download_column(*statistics_->encoded_device[column], rows));
    encoded[column]->dictionary = statistics_->dictionaries[column];
  }
  return *encoded[column];
}

std::shared_ptr<const Dictionary> Table::dictionary(std::size_t column) const {
  if (!is_plain(column)) return host[column].dictionary;
  std::lock_guard lock(statistics_->mutex);
  encode_locked(column);
  return statistics_->dictionaries[column];
}

const HostColumn* Table::scan_column(std::size_t column) const {
  if (!is_plain(column)) return &host[column];
  return encoded_made(column) ? &encoded(column) : nullptr;
}

const DeviceColumn* Table::device_column(std::size_t column, DeviceContext& context) const {
  if (!is_plain(column)) return &device->columns[column];
  if (!encoded_made(column)) return nullptr;
  std::lock_guard lock(statistics_->mutex);
  auto& uploaded = statistics_->encoded_device;
  if (!uploaded[column]) uploaded[column] = std::make_unique<DeviceColumn>(upload_column(*statistics_->encoded[column], context));
  return uploaded[column].get();
}

const HostColumn& Table::host_column(std::size_t column) const {
  if (column < host.size() && is_plain(column)) return encoded(column);
  if (has_host_copy(column) || !device) return host[column];
  std::lock_guard lock(statistics_->mutex);
  auto& fetched = statistics_->fetched;
  if (fetched.size() != host.size()) fetched.resize(host.size());
  if (!fetched[column]) {
    auto copy = std::make_unique<HostColumn>(download_column(device->columns[column], rows));
    copy->dictionary = host[column].dictionary;
    fetched[column] = std::move(copy);
  }
  return *fetched[column];
}

bool Table::reads_from_device(std::size_t column) const {
  return device && !has_host_copy(column) && !host[column].is_plain();
}

const HostColumn& Table::read_column(std::size_t column, HostColumn& fetched) const {
  if (!reads_from_device(column)) return host[column];
  fetched = download_column(device->columns[column], rows);
  fetched.dictionary = host[column].dictionary;
  return fetched;
}

std::size_t Table::null_count(std::size_t column) const {
  if (has_host_copy(column)) return host[column].null_count();
  {
    std::lock_guard lock(statistics_->mutex);
    if (column < statistics_->null_counts.size() && statistics_->null_counts[column])
      return *statistics_->null_counts[column];
  }
  return host_column(column).null_count();
}

void Table::release_host_copy(DeviceContext& context) {
  if (!device || rows == 0) return;
  take_statistics();
  for (std::size_t c = 0; c < host.size(); ++c) {
    if (!has_host_copy(c)) continue;
    if (host[c].is_plain()) {
      try {
        upload_plain_strings(*host[c].strings, device->columns[c], context);
      } catch (const Error& e) {
        if (e.kind() != ErrorKind::OutOfMemory) throw;
        continue;  // no room on the device: the host keeps them
      }
    }
    HostColumn kept(host[c].type, 0);
    kept.dictionary = std::move(host[c].dictionary);
    host[c] = std::move(kept);
  }
}

bool Table::has_host_copy(std::size_t column) const {
  if (column >= host.size() || host[column].size != rows) return false;
  return host[column].is_plain() || !device || column >= device->columns.size() ||
         !device->columns[column].plain_strings();
}

bool Table::is_plain(std::size_t column) const {
  return host[column].is_plain() || (device && column < device->columns.size() && device->columns[column].plain_strings());
}

std::size_t Table::host_bytes() const {
  std::size_t total = 0;
  for (const auto& c : host) total += gpusql::host_bytes(c);
  std::lock_guard lock(statistics_->mutex);
  for (std::size_t c = 0; c < statistics_->dictionaries.size(); ++c)
    if (c < statistics_->encoded.size() && statistics_->encoded[c])
      total += gpusql::host_bytes(*statistics_->encoded[c]);
    else if (statistics_->dictionaries[c])
      total += flat_dictionary_bytes(*statistics_->dictionaries[c]);
  return total;
}

std::size_t Table::device_bytes() const {
  std::size_t total = device ? device->bytes() : 0;
  std::lock_guard lock(statistics_->mutex);
  for (const auto& c : statistics_->encoded_device)
    if (c) total += c->bytes();
  return total;
}

}  // namespace gpusql
