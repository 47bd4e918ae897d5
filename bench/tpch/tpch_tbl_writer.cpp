#include "bench/tpch/tpch_tbl_writer.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "bench/tpch/tpch_random.hpp"
#include "storage/value_text.hpp"

namespace gpusql::tpch {
namespace {

void append_integer(std::string& text, int64_t v) {
  char number[24];
  auto [end, ec] = std::to_chars(number, number + sizeof number, v);
  text.append(number, end);
}

// An unscaled DECIMAL: "-12.05" for -1205 at scale 2.
void append_decimal(std::string& text, int64_t unscaled, int scale) {
  if (unscaled < 0) text += '-';
  const uint64_t magnitude = unscaled < 0 ? 0 - static_cast<uint64_t>(unscaled) : static_cast<uint64_t>(unscaled);
  const uint64_t unit = static_cast<uint64_t>(power_of_ten(scale));
  append_integer(text, static_cast<int64_t>(magnitude / unit));
  if (scale == 0) return;
  text += '.';
  char digits[20];
  uint64_t fraction = magnitude % unit;
  for (int i = scale - 1; i >= 0; --i, fraction /= 10) digits[i] = static_cast<char>('0' + fraction % 10);
  text.append(digits, static_cast<std::size_t>(scale));
}

void append_date(std::string& text, int32_t days) {
  int64_t year = 0;
  unsigned month = 0, day = 0;
  civil_from_days(days, year, month, day);
  char buffer[16] = {static_cast<char>('0' + year / 1000 % 10),
                     static_cast<char>('0' + year / 100 % 10),
                     static_cast<char>('0' + year / 10 % 10),
                     static_cast<char>('0' + year % 10),
                     '-',
                     static_cast<char>('0' + month / 10),
                     static_cast<char>('0' + month % 10),
                     '-',
                     static_cast<char>('0' + day / 10),
                     static_cast<char>('0' + day % 10)};
  text.append(buffer, 10);
}

// A string as it is, or in quotes (its quotes doubled) when it holds the
// delimiter, a quote or a line break.
void append_string(std::string& text, std::string_view value, char delimiter) {
  if (value.find_first_of(std::string{delimiter, '"', '\n', '\r'}) == std::string::npos) {
    text += value;
    return;
  }
  text += '"';
  for (char ch : value) {
    if (ch == '"') text += '"';
    text += ch;
  }
  text += '"';
}

void append_value(std::string& text, const HostColumn& column, std::size_t row, char delimiter) {
  switch (column.type.id) {
    case Type::Integer: append_integer(text, column.values<int32_t>()[row]); break;
    case Type::Decimal: append_decimal(text, column.values<int64_t>()[row], column.type.scale); break;
    case Type::Date: append_date(text, column.values<int32_t>()[row]); break;
    default: append_string(text, column.dictionary->values[column.values<uint32_t>()[row]], delimiter); break;
  }
}

}  // namespace

void write_text(const Table& table, const std::string& path, const TextFormat& format, unsigned threads) {
  threads = detail::thread_count(threads);
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    const HostColumn& column = table.host[c];
    const Type id = column.type.id;
    const bool supported = id == Type::Integer || id == Type::Date || id == Type::Varchar ||
                           (id == Type::Decimal && !column.type.is_wide_decimal());
    if (!supported || column.has_nulls())
      throw std::runtime_error("write_text: column " + table.columns[c].name + " is " + column.type.to_string() +
                               (column.has_nulls() ? " with NULLs" : "") + ", which dbgen's format does not hold");
  }
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + path);
  if (format.header) {
    std::string line;
    for (std::size_t c = 0; c < table.columns.size(); ++c)
      line += (c ? std::string(1, format.delimiter) : "") + table.columns[c].name;
    if (format.trailing_delimiter) line += format.delimiter;
    out << line << '\n';
  }
  auto format_rows = [&](std::size_t begin, std::size_t end, std::string& text) {
    for (std::size_t r = begin; r < end; ++r) {
      for (std::size_t c = 0; c < table.columns.size(); ++c) {
        if (c) text += format.delimiter;
        append_value(text, table.host[c], r, format.delimiter);
      }
      if (format.trailing_delimiter) text += format.delimiter;
      text += '\n';
    }
  };
  // Waves of one chunk per thread: formatted in parallel, written in order.
  constexpr std::size_t kChunk = 1 << 16;
  const std::size_t chunks = (table.rows + kChunk - 1) / kChunk;
  for (std::size_t wave = 0; wave < chunks; wave += threads) {
    const std::size_t count = std::min<std::size_t>(threads, chunks - wave);
    std::vector<std::string> texts(count);
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < count; ++t) {
      pool.emplace_back([&, t] {
        const std::size_t begin = (wave + t) * kChunk;
        format_rows(begin, std::min(table.rows, begin + kChunk), texts[t]);
      });
    }
    for (auto& th : pool) th.join();
    for (const auto& text : texts) out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

}  // namespace gpusql::tpch
