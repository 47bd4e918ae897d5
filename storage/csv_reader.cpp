#include "storage/csv_reader.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <functional>
#include <mutex>
#include <numeric>
#include <optional>
#include <queue>
#include <thread>
#include <unordered_map>

#include "storage/column_ops.hpp"
#include "storage/column_statistics.hpp"
#include "storage/parallel_tasks.hpp"
#include "storage/string_sets.hpp"
#include "storage/value_text.hpp"

namespace gpusql {
namespace {

// ---------------------------------------------------------------------------
// The text, and where in it a fault is.

// '\n' bytes in [p, p + n), sixteen (or eight) at a time.
std::size_t count_newlines(const char* p, std::size_t n) {
  std::size_t count = 0, i = 0;
#if defined(__SSE2__)
  const __m128i lf = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
  while (i + 16 <= n) {
    // Up to 255 blocks counted per byte lane, then summed across lanes.
    __m128i lanes = zero;
    for (int block = 0; block < 255 && i + 16 <= n; ++block, i += 16)
      lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)), lf));
    __m128i sums = _mm_sad_epu8(lanes, zero);
    count += static_cast<std::size_t>(_mm_cvtsi128_si32(sums) + _mm_extract_epi16(sums, 4));
  }
#endif
  constexpr uint64_t ones = 0x0101010101010101ull, high = 0x7F7F7F7F7F7F7F7Full;
  for (; i + 8 <= n; i += 8) {
    uint64_t word;
    std::memcpy(&word, p + i, 8);
    uint64_t x = word ^ (ones * '\n');  // zero bytes where '\n' was
    uint64_t y = ~(((x & high) + high) | x | high);  // exactly the zero bytes' high bits
    count += static_cast<std::size_t>(((y >> 7) * ones) >> 56);
  }
  for (; i < n; ++i) count += p[i] == '\n';
  return count;
}

struct CsvText {
  std::string_view text;
  std::string source;
  std::size_t bom = 0;  // 3 when the text starts with a UTF-8 byte order mark

  CsvText(std::string_view t, std::string s) : text(t), source(std::move(s)) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") bom = 3;
  }

  // 1-based line and byte column of `offset` (columns on line 1 count from after the BOM).
  Error error(std::size_t offset, const std::string& what) const {
    offset = std::min(offset, text.size());
    std::size_t line = 1 + count_newlines(text.data(), offset);
    std::size_t line_start = text.substr(0, offset).rfind('\n');
    line_start = line_start == std::string_view::npos ? bom : line_start + 1;
    return Error(ErrorKind::Conversion, "CSV file \"" + source + "\", line " + std::to_string(line) + ", column " +
                                            std::to_string(offset - line_start + 1) + ": " + what);
  }
};

// A file's bytes: mapped when it is a regular file, read otherwise (a pipe).
class FileText {
 public:
  explicit FileText(const std::string& path) {
    std::error_code ec;
    auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
      throw Error(ErrorKind::IO, "cannot open CSV file \"" + path + "\": no such file");
    if (std::filesystem::is_directory(status))
      throw Error(ErrorKind::IO, "cannot read CSV file \"" + path + "\": it is a directory");
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      throw Error(ErrorKind::IO, "cannot open CSV file \"" + path + "\": " + std::strerror(errno));
    struct stat st{};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      void* map = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (map != MAP_FAILED) {
        map_ = map;
        size_ = static_cast<std::size_t>(st.st_size);
        ::madvise(map_, size_, MADV_WILLNEED);
        ::close(fd);
        return;
      }
    }
    char buffer[1 << 16];
    while (true) {
      ssize_t got = ::read(fd, buffer, sizeof buffer);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        int error = errno;
        ::close(fd);
        throw Error(ErrorKind::IO, "cannot read CSV file \"" + path + "\": " + std::strerror(error));
      }
      if (got == 0) break;
      owned_.append(buffer, static_cast<std::size_t>(got));
    }
    ::close(fd);
  }
  ~FileText() {
    if (map_) ::munmap(map_, size_);
  }
  FileText(const FileText&) = delete;
  FileText& operator=(const FileText&) = delete;

  std::string_view view() const { return map_ ? std::string_view(static_cast<const char*>(map_), size_) : owned_; }

 private:
  void* map_ = nullptr;
  std::size_t size_ = 0;
  std::string owned_;
};

// ---------------------------------------------------------------------------
// Tokenizing.

struct Dialect {
  char delimiter = ',';
  char quote = '"';
  bool quoting = true;
  bool header = false;
  std::string null_marker;
  std::array<bool, 256> special{};  // the bytes an unquoted field stops at

  void prepare() {
    special.fill(false);
    special['\n'] = special['\r'] = true;
    special[static_cast<unsigned char>(delimiter)] = true;
    if (quoting) special[static_cast<unsigned char>(quote)] = true;
  }
};

struct Field {
  std::string_view text;  // unescaped
  std::size_t offset = 0;  // where it starts: at its opening quote when quoted
  bool quoted = false;
  bool escaped = false;  // had doubled quotes: `text` lives in the scratch string
};

bool is_line_end(std::string_view s, std::size_t pos) {
  return s[pos] == '\n' || (s[pos] == '\r' && (pos + 1 == s.size() || s[pos + 1] == '\n'));
}

// Skips bytes that are not special (delimiter, quote, CR, LF) sixteen at a
// time; returns at the first special byte or within 16 bytes of the end.
inline std::size_t scan_to_special(std::string_view s, std::size_t pos, const Dialect& d) {
  const std::size_t n = s.size();
#if defined(__SSE2__)
  const __m128i delimiter = _mm_set1_epi8(d.delimiter), quote = _mm_set1_epi8(d.quoting ? d.quote : '\n');
  const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
  while (pos + 16 <= n) {
    __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + pos));
    __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, delimiter), _mm_cmpeq_epi8(bytes, quote)),
                               _mm_or_si128(_mm_cmpeq_epi8(bytes, lf), _mm_cmpeq_epi8(bytes, cr)));
    unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
    if (mask) return pos + static_cast<std::size_t>(std::countr_zero(mask));
    pos += 16;
  }
#else
  (void)d;
#endif
  return pos;
}

// Reads the quoted field whose opening quote is at `pos` (the slow path).
[[gnu::noinline]] void read_quoted_field(const CsvText& t, const Dialect& d, std::size_t& pos, Field& f,
                                         std::string& scratch) {
  const std::string_view s = t.text;
  const std::size_t n = s.size();
  f.quoted = true;
  f.escaped = false;
  const std::size_t begin = ++pos;
  while (true) {
    const void* found = pos < n ? std::memchr(s.data() + pos, d.quote, n - pos) : nullptr;
    if (!found) throw t.error(f.offset, "unterminated quoted field");
    const std::size_t at = static_cast<std::size_t>(static_cast<const char*>(found) - s.data());
    if (at + 1 < n && s[at + 1] == d.quote) {  // a doubled quote stands for one
      if (!f.escaped) scratch.assign(s.data() + begin, at - begin);
      else scratch.append(s.data() + pos, at - pos);
      scratch += d.quote;
      f.escaped = true;
      pos = at + 2;
      continue;
    }
    if (f.escaped) {
      scratch.append(s.data() + pos, at - pos);
      f.text = scratch;
    } else {
      f.text = s.substr(begin, at - begin);
    }
    pos = at + 1;
    break;
  }
  if (pos < n && s[pos] != d.delimiter && !is_line_end(s, pos))
    throw t.error(pos, "unexpected character after a closing quote: \"" + excerpt(s.substr(pos, 1)) + "\"");
}

[[noreturn, gnu::noinline]] void throw_stray_quote(const CsvText& t, std::size_t begin, std::size_t pos) {
  throw t.error(pos, "a quote inside an unquoted field: \"" + excerpt(t.text.substr(begin, pos - begin + 1)) + "\"");
}

// Reads the field at `pos`, leaving `pos` on what ends it: a delimiter, a line
// end, or the end of the text.
[[gnu::always_inline]] inline void read_field(const CsvText& t, const Dialect& d, std::size_t& pos, Field& f,
                                              std::string& scratch) {
  const std::string_view s = t.text;
  const std::size_t n = s.size();
  f.offset = pos;
  if (d.quoting && pos < n && s[pos] == d.quote) return read_quoted_field(t, d, pos, f, scratch);
  f.quoted = false;
  f.escaped = false;
  const std::size_t begin = pos;
  while (true) {
    pos = scan_to_special(s, pos, d);
    while (pos < n && !d.special[static_cast<unsigned char>(s[pos])]) ++pos;
    if (pos < n && s[pos] == '\r' && !is_line_end(s, pos)) {  // a lone CR is data
      ++pos;
      continue;
    }
    break;
  }
  if (pos < n && d.quoting && s[pos] == d.quote) throw_stray_quote(t, begin, pos);
  f.text = s.substr(begin, pos - begin);
}

// Steps over blank lines at `pos`.
inline void skip_blank_lines(std::string_view s, std::size_t& pos, std::size_t end) {
  while (pos < end && is_line_end(s, pos)) ++pos;
}

// Steps over the line end after a record's last field.
inline void end_record(std::string_view s, std::size_t& pos) {
  if (pos < s.size() && s[pos] == '\r') ++pos;
  if (pos < s.size() && s[pos] == '\n') ++pos;
}

struct SampleField {
  std::string_view text;  // into the file, or into the sample's arena when unescaped
  std::size_t offset = 0;
  bool quoted = false;
};
using SampleRecord = std::vector<SampleField>;

struct Sample {
  std::vector<SampleRecord> records;
  std::deque<std::string> arena;
};

// Reads up to `limit` records from `pos`. A fault ends the sample there; it
// is thrown only when not even one record could be read.
Sample read_sample(const CsvText& t, const Dialect& d, std::size_t& pos, std::size_t limit,
                   std::size_t* first_record_end = nullptr) {
  Sample sample;
  std::vector<SampleRecord>& records = sample.records;
  std::string scratch;
  const std::string_view s = t.text;
  try {
    while (records.size() < limit) {
      skip_blank_lines(s, pos, s.size());
      if (pos >= s.size()) break;
      SampleRecord record;
      Field f;
      while (true) {
        read_field(t, d, pos, f, scratch);
        record.push_back({f.escaped ? std::string_view(sample.arena.emplace_back(f.text)) : f.text, f.offset,
                          f.quoted});
        if (pos < s.size() && s[pos] == d.delimiter) {
          ++pos;
          continue;
        }
        break;
      }
      end_record(s, pos);
      records.push_back(std::move(record));
      if (records.size() == 1 && first_record_end) *first_record_end = pos;
    }
  } catch (const Error&) {
    if (records.empty()) throw;
  }
  return sample;
}

// ---------------------------------------------------------------------------
// Sniffing: delimiter, header, and (for a new table) the column types.

enum class Inferred : uint8_t { Null, Integer, BigInt, Double, Date, Varchar };

Inferred classify(std::string_view text) {
  std::string_view s = trim_blanks(text);
  if (s.empty()) return Inferred::Varchar;
  int64_t i;
  ParseResult r = parse_integer(s, i);
  if (r == ParseResult::Ok) return i >= INT32_MIN && i <= INT32_MAX ? Inferred::Integer : Inferred::BigInt;
  double d;
  if (parse_double(s, d) == ParseResult::Ok) return Inferred::Double;
  int32_t days;
  if (parse_date(s, days) == ParseResult::Ok) return Inferred::Date;
  return Inferred::Varchar;
}

Inferred combine(Inferred a, Inferred b) {
  if (a == Inferred::Null) return b;
  if (b == Inferred::Null || a == b) return a;
  bool numeric_a = a <= Inferred::Double, numeric_b = b <= Inferred::Double;
  if (numeric_a && numeric_b) return std::max(a, b);
  return Inferred::Varchar;
}

DataType to_data_type(Inferred type) {
  switch (type) {
    case Inferred::Integer: return DataType::integer();
    case Inferred::BigInt: return DataType::bigint();
    case Inferred::Double: return DataType::double_();
    case Inferred::Date: return DataType::date();
    case Inferred::Null:
    case Inferred::Varchar: break;
  }
  return DataType::varchar();
}

struct Sniffed {
  Dialect dialect;
  std::size_t data_start = 0;
  std::vector<ColumnDefinition> columns;
  bool inferred = false;
};

bool trailing_empty(const SampleRecord& r) { return r.size() > 1 && !r.back().quoted && r.back().text.empty(); }

char sniff_delimiter(const CsvText& t, Dialect d) {
  static constexpr char candidates[] = {',', '|', ';', '\t'};
  char best = ',';
  std::size_t best_consistent = 0, best_columns = 0;
  for (char candidate : candidates) {
    if (d.quoting && candidate == d.quote) continue;
    d.delimiter = candidate;
    d.prepare();
    std::size_t pos = t.bom;
    Sample sample;
    try {
      sample = read_sample(t, d, pos, 64);
    } catch (const Error&) {
      continue;
    }
    const std::vector<SampleRecord>& records = sample.records;
    if (records.empty()) continue;
    bool all_trailing = std::all_of(records.begin(), records.end(), trailing_empty);
    std::vector<std::size_t> counts;
    for (const auto& r : records) counts.push_back(r.size() - (all_trailing ? 1 : 0));
    std::sort(counts.begin(), counts.end());
    // The most common field count and how many records have it.
    std::size_t modal = 0, modal_count = 0;
    for (std::size_t i = 0; i < counts.size();) {
      std::size_t j = i;
      while (j < counts.size() && counts[j] == counts[i]) ++j;
      if (j - i > modal_count || (j - i == modal_count && counts[i] > modal)) {
        modal = counts[i];
        modal_count = j - i;
      }
      i = j;
    }
    if (modal < 2) continue;
    if (modal_count > best_consistent || (modal_count == best_consistent && modal > best_columns)) {
      best = candidate;
      best_consistent = modal_count;
      best_columns = modal;
    }
  }
  return best;
}

// A missing value to the sniffer: an unquoted field that is empty or the
// NULL marker. (A quoted "" or a blank field is a string: it makes the column
// VARCHAR, as SQLite would hold it.)
bool is_missing(const Dialect& d, const SampleField& f) {
  return !f.quoted && (f.text.empty() || f.text == d.null_marker);
}

Sniffed sniff(const CsvText& t, Dialect d, const CsvOptions& options, const Table* declared) {
  Sniffed out;
  d.delimiter = options.delimiter ? *options.delimiter : sniff_delimiter(t, d);
  d.prepare();
  std::size_t pos = t.bom, first_end = t.bom;
  // Declared types need only the first line (is it a header?); inference a sample.
  Sample sample = read_sample(t, d, pos, declared ? 1 : CSV_SAMPLE_ROWS + 1, &first_end);
  const std::vector<SampleRecord>& records = sample.records;
  if (records.empty()) throw Error(ErrorKind::IO, "CSV file \"" + t.source + "\" is empty");
  const SampleRecord& first = records[0];

  if (declared) {
    out.columns = declared->columns;
    if (options.header) {
      d.header = *options.header;
    } else {
      // A header is a first line of names -- no numbers or dates -- with a
      // name where the column holds numbers or dates. (A line with one bad
      // value among numbers is data, and its error is reported.)
      bool names = true, mismatch = false;
      for (std::size_t c = 0; c < first.size(); ++c) {
        const bool null = is_missing(d, first[c]);
        if (!null && classify(first[c].text) != Inferred::Varchar) names = false;
        if (!null && c < out.columns.size() && out.columns[c].type.id != Type::Varchar) mismatch = true;
      }
      d.header = names && mismatch;
    }
  } else {
    // A trailing delimiter on every line is not a column.
    bool trailing = trailing_empty(first);
    for (std::size_t r = 1; r < records.size() && trailing; ++r)
      trailing = trailing_empty(records[r]) || records[r].size() == first.size() - 1;
    const std::size_t width = first.size() - (trailing ? 1 : 0);
    auto fits_shape = [&](const SampleRecord& r) {
      return r.size() == width || (r.size() == width + 1 && trailing_empty(r));
    };
    std::vector<Inferred> types(width, Inferred::Null), first_types(width);
    for (std::size_t c = 0; c < width; ++c)
      first_types[c] = is_missing(d, first[c]) ? Inferred::Null
                                                                                 : classify(first[c].text);
    for (std::size_t r = 1; r < records.size(); ++r) {
      if (!fits_shape(records[r])) continue;
      for (std::size_t c = 0; c < width; ++c) {
        const SampleField& f = records[r][c];
        if (!is_missing(d, f)) types[c] = combine(types[c], classify(f.text));
      }
    }
    if (options.header) {
      d.header = *options.header;
    } else if (records.size() == 1) {
      d.header = std::all_of(first_types.begin(), first_types.end(), [](Inferred i) { return i == Inferred::Varchar; });
    } else {
      // A header is a first line of names -- no numbers or dates -- with a
      // name over a column of numbers or dates; in a file of text only, a
      // first line without empty fields.
      bool names = true, mismatch = false, all_text = true;
      for (std::size_t c = 0; c < width; ++c) {
        bool text_column = types[c] == Inferred::Varchar || types[c] == Inferred::Null;
        all_text = all_text && text_column;
        if (first_types[c] != Inferred::Varchar && first_types[c] != Inferred::Null) names = false;
        if (!text_column && first_types[c] == Inferred::Varchar) mismatch = true;
      }
      d.header = names && (mismatch || (all_text && std::none_of(first_types.begin(), first_types.end(),
                                                                 [](Inferred i) { return i == Inferred::Null; })));
    }
    if (!d.header)
      for (std::size_t c = 0; c < width; ++c) types[c] = combine(types[c], first_types[c]);
    for (std::size_t c = 0; c < width; ++c) {
      std::string name = d.header ? std::string(trim_blanks(first[c].text)) : std::string();
      if (name.empty()) name = "column" + std::to_string(c);
      std::string unique = name;
      for (int k = 1; std::any_of(out.columns.begin(), out.columns.end(),
                                  [&](const ColumnDefinition& col) { return iequals(col.name, unique); });
           ++k)
        unique = name + "_" + std::to_string(k);
      out.columns.push_back({unique, to_data_type(types[c])});
    }
    out.inferred = true;
  }
  out.dialect = d;
  out.data_start = d.header ? first_end : t.bom;
  return out;
}

// Where the data of a load's second and later file starts: the first file's
// dialect holds for them all (as in DuckDB's multi-file reads), so a header
// line is skipped in each file when the first has one.
std::size_t data_start_of(const CsvText& t, const Dialect& d) {
  std::size_t pos = t.bom, first_end = t.bom;
  if (read_sample(t, d, pos, 1, &first_end).records.empty())
    throw Error(ErrorKind::IO, "CSV file \"" + t.source + "\" is empty");
  return d.header ? first_end : t.bom;
}

// ---------------------------------------------------------------------------
// Cutting the text into chunks at record boundaries.

struct Chunk {
  std::size_t begin = 0, end = 0;  // bytes [begin, end): whole records
  std::size_t bound = 0;           // at most this many records
  std::size_t row_base = 0;        // where its rows start in the new columns (sum of earlier bounds)
  std::size_t file = 0;            // which of the load's texts it is cut from
};

// What a first pass finds in a byte range, for either quote state at its start.
struct RangeScan {
  std::size_t quotes = 0;
  std::size_t line_ends[2] = {0, 0};  // '\n' outside quotes if the range starts outside (0) or inside (1)
  std::size_t first[2] = {std::string_view::npos, std::string_view::npos};
};

RangeScan scan_range(std::string_view s, std::size_t begin, std::size_t end, const Dialect& d) {
  RangeScan r;
  const char* p = s.data();
  if (!d.quoting || !std::memchr(p + begin, d.quote, end - begin)) {
    r.line_ends[0] = count_newlines(p + begin, end - begin);
    const void* nl = std::memchr(p + begin, '\n', end - begin);
    if (nl) r.first[0] = static_cast<std::size_t>(static_cast<const char*>(nl) - p);
    return r;
  }
  unsigned parity = 0;  // quotes seen so far, mod 2
  for (std::size_t i = begin; i < end; ++i) {
    char c = p[i];
    if (c == d.quote) {
      parity ^= 1;
      ++r.quotes;
    } else if (c == '\n') {
      // Outside quotes when the start state plus the parity so far is even.
      unsigned outside_if = parity;  // start state that makes this newline outside: start == parity
      ++r.line_ends[outside_if];
      if (r.first[outside_if] == std::string_view::npos) r.first[outside_if] = i;
    }
  }
  return r;
}


void parallel_for(std::size_t count, std::size_t threads, const std::function<void(std::size_t)>& task,
                  const std::function<void()>& tick) {
  parallel_for_workers(count, threads, [&](std::size_t i, std::size_t) { task(i); }, tick);
}

std::vector<Chunk> plan_chunks(const CsvText& t, const Dialect& d, std::size_t start, std::size_t threads,
                               std::size_t chunk_bytes, bool single) {
  const std::string_view s = t.text;
  const std::size_t n = s.size();
  std::vector<Chunk> chunks;
  if (start >= n) return chunks;
  const std::size_t size = n - start;
  const bool ends_open = s[n - 1] != '\n';  // a last record without a line end
  constexpr std::size_t MIN_CHUNK = std::size_t(1) << 20, MAX_CHUNK = std::size_t(4) << 20;
  std::size_t chunk_size = std::clamp(size / std::max<std::size_t>(1, threads * 8), MIN_CHUNK, MAX_CHUNK);
  if (chunk_bytes) chunk_size = chunk_bytes;
  if (single || size <= (chunk_bytes ? chunk_bytes : 2 * MIN_CHUNK)) {
    chunks.push_back({start, n, count_newlines(s.data() + start, size) + (ends_open ? 1 : 0), 0});
    return chunks;
  }
  // Range k covers [b_k - 1, b_{k+1} - 1) (range 0 from `start`), so a record
  // that begins exactly at b_k is found by the line end just before it.
  const std::size_t k_count = (size + chunk_size - 1) / chunk_size;
  std::vector<std::size_t> nominal(k_count + 1);
  for (std::size_t k = 0; k <= k_count; ++k) nominal[k] = std::min(n, start + k * chunk_size);
  auto range_begin = [&](std::size_t k) { return k == 0 ? start : nominal[k] - 1; };
  auto range_end = [&](std::size_t k) { return k + 1 == k_count ? n : nominal[k + 1] - 1; };
  std::vector<RangeScan> scans(k_count);
  parallel_for(
      k_count, threads, [&](std::size_t k) { scans[k] = scan_range(s, range_begin(k), range_end(k), d); }, {});
  // Quote state at each range's start, the line ends before it, and the cuts.
  std::vector<std::size_t> cut(k_count + 1), ends_before(k_count + 1);
  std::size_t quotes = 0, line_ends = 0;
  std::vector<std::size_t> first_outside(k_count, std::string_view::npos), prefix(k_count);
  for (std::size_t k = 0; k < k_count; ++k) {
    unsigned state = quotes % 2;
    prefix[k] = line_ends;
    first_outside[k] = scans[k].first[state];
    line_ends += scans[k].line_ends[state];
    quotes += scans[k].quotes;
  }
  cut[k_count] = n;
  ends_before[k_count] = line_ends;
  cut[0] = start;
  ends_before[0] = 0;
  for (std::size_t k = k_count - 1; k >= 1; --k) {
    if (first_outside[k] != std::string_view::npos) {
      cut[k] = first_outside[k] + 1;
      ends_before[k] = prefix[k] + 1;
    } else {
      cut[k] = cut[k + 1];
      ends_before[k] = ends_before[k + 1];
    }
  }
  std::size_t row_base = 0;
  for (std::size_t k = 0; k < k_count; ++k) {
    if (cut[k] >= cut[k + 1]) continue;
    Chunk c{cut[k], cut[k + 1], ends_before[k + 1] - ends_before[k], row_base};
    if (c.end == n && ends_open) ++c.bound;
    row_base += c.bound;
    chunks.push_back(c);
  }
  return chunks;
}

// ---------------------------------------------------------------------------
// Parsing chunks into typed columns.

// Whether `s` is all ASCII (the common VARCHAR value: no UTF-8 to check),
// eight bytes a test; short values as two overlapping halves.
inline bool is_ascii(std::string_view s) {
  const char* p = s.data();
  const std::size_t n = s.size();
  uint64_t any = 0, w = 0;
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 < n; i += 8) {
      std::memcpy(&w, p + i, 8);
      any |= w;
    }
    std::memcpy(&w, p + n - 8, 8);
    any |= w;
  } else if (n >= 4) {
    uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + n - 4, 4);
    any = lo | hi;
  } else {
    for (std::size_t i = 0; i < n; ++i) any |= static_cast<unsigned char>(p[i]);
  }
  return (any & 0x8080808080808080ull) == 0;
}

// DOUBLE's common case, [-]digits[.digits] with a mantissa below 2^53: the
// mantissa and the power of ten are exact doubles, so one correctly rounded
// division gives the very value parse_double (std::from_chars) would. Anything
// else -- blanks, '+', exponents, long mantissas -- returns false for the
// general parser.
inline bool parse_double_fast(std::string_view text, double& out) {
  static constexpr double powers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,
                                      1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19};
  const detail::PlainNumber n = detail::scan_plain_number(text);
  if (!n.whole || n.int_digits == 0 || (n.point && n.fraction == 0) || n.int_digits + n.fraction > 19 ||
      n.digits >= (uint64_t(1) << 53))
    return false;
  const double value = static_cast<double>(n.digits) / powers[n.fraction];
  out = n.negative ? -value : value;
  return true;
}

struct TargetColumn {
  DataType type;
  bool not_null = false;
  std::string name;
  std::byte* data = nullptr;  // the whole new column's values; null for plain strings
  bool plain = false;         // VARCHAR kept as plain strings (ChunkResult::plain)
};

struct ChunkResult {
  std::size_t rows = 0;
  bool done = false;
  bool mismatch = false;  // the cut was not at a record boundary: the text is malformed before it
  std::optional<Error> error;
  std::vector<std::vector<uint32_t>> nulls;  // per column: chunk-local rows that are NULL
  // Per column (null for plain strings): where the chunk's first value goes,
  // in the whole new host column or, in a load to the device alone, in
  // `own`, which is freed once the chunk is on the device.
  std::vector<std::byte*> values;
  std::vector<std::byte> own;
  // A load to the device alone: each fixed-width column's range over the
  // chunk, and each plain-strings column's bytes and where each row's start
  // (made from `plain` as soon as the chunk is parsed, which frees it).
  std::vector<ValueRange> ranges;
  std::vector<StringPool::Bytes> plain_bytes;
  std::vector<std::vector<uint64_t>> plain_offsets;
  std::string_view plain_string(std::size_t c, std::size_t row) const {
    const uint64_t begin = plain_offsets[c][row];
    const uint64_t end = row + 1 < plain_offsets[c].size() ? plain_offsets[c][row + 1] : plain_bytes[c].size();
    return {plain_bytes[c].data() + begin, end - begin};
  }
  // Per plain-strings column: each row's value (empty for a NULL), in the
  // file or in `arena` (values with doubled quotes, unescaped).
  std::vector<std::vector<std::string_view>> plain;
  std::deque<std::string> arena;
  // The string sets (one per column) its VARCHAR codes index: shared with the
  // chunks its thread parsed before and after it, until they grow large.
  std::shared_ptr<std::vector<StringSet>> strings;
};

struct ParseContext {
  const std::vector<CsvText>& texts;  // indexed by Chunk::file
  const Dialect& dialect;
  std::vector<TargetColumn>& columns;
  std::string hint;           // appended to conversion messages ("" or the inference note)
};

// Parses one chunk; VARCHAR values go into `strings` (one set per column,
// shared by consecutive chunks of one thread, so the merge at the end sees a
// repeated string once per set, not once per chunk).
void parse_chunk(const ParseContext& ctx, const Chunk& chunk, ChunkResult& out, std::vector<StringSet>& strings) {
  const CsvText& t = ctx.texts[chunk.file];
  const Dialect& d = ctx.dialect;
  const std::string_view s = t.text;
  const std::size_t n = s.size(), width = ctx.columns.size();
  out.nulls.assign(width, {});
  out.plain.assign(width, {});
  Field f;
  std::string scratch;
  PendingStrings pending;
  std::size_t pos = chunk.begin, row = 0;
  const bool plain_null = d.null_marker.empty();
  while (pos < chunk.end) {
    if (is_line_end(s, pos)) {
      ++pos;
      continue;
    }
    if (row == chunk.bound) {
      pending.flush();
      out.mismatch = true;
      return;
    }
    const std::size_t record_start = pos;
    std::size_t column = 0;
    while (true) {
      read_field(t, d, pos, f, scratch);
      const bool last = !(pos < n && s[pos] == d.delimiter);
      if (column < width) {
        const TargetColumn& target = ctx.columns[column];
        const bool varchar = target.type.id == Type::Varchar;
        bool null = !f.quoted && (plain_null ? f.text.empty() : f.text == d.null_marker);
        // An empty or all-blank value of a non-VARCHAR column is NULL too.
        if (!null && !varchar && (f.text.empty() || f.text.front() == ' ' || f.text.front() == '\t'))
          null = trim_blanks(f.text).empty();
        if (null) {
          if (target.not_null)
            throw t.error(f.offset, "NULL in column \"" + target.name + "\", which is declared NOT NULL");
          out.nulls[column].push_back(static_cast<uint32_t>(row));
          if (target.plain) out.plain[column].emplace_back();
        } else if (varchar) {
          std::size_t bad = is_ascii(f.text) ? std::string_view::npos : invalid_utf8_offset(f.text);
          if (bad != std::string_view::npos)
            throw t.error(f.offset + bad + (f.quoted ? 1 : 0),
                          "invalid UTF-8 in a VARCHAR value \"" + excerpt(f.text) + "\"");
          if (target.plain) {
            out.plain[column].push_back(f.escaped ? std::string_view(out.arena.emplace_back(f.text)) : f.text);
          } else {
            uint32_t* code = reinterpret_cast<uint32_t*>(out.values[column]) + row;
            if (f.escaped) *code = strings[column].intern(f.text, false);
            else pending.add(strings[column], f.text, code);
          }
        } else {
          ParseResult r =
              target.type.id == Type::Double &&
                      parse_double_fast(f.text, reinterpret_cast<double*>(out.values[column])[row])
                  ? ParseResult::Ok
                  : parse_fixed(f.text, target.type, out.values[column], row);
          if (r != ParseResult::Ok)
            throw t.error(f.offset, conversion_message(f.text, target.type, r) + " in column \"" + target.name +
                                        "\"" + ctx.hint);
        }
      } else if (!(column == width && last && !f.quoted && f.text.empty())) {
        // Too many fields (one empty field more is a trailing delimiter): count them all for the message.
        const Field extra = f;
        const std::string extra_text(f.text);
        std::size_t found = column + 1;
        try {
          while (pos < n && s[pos] == d.delimiter) {
            ++pos;
            read_field(t, d, pos, f, scratch);
            ++found;
          }
        } catch (const Error&) {
        }
        throw t.error(extra.offset, "expected " + std::to_string(width) + " fields but found " +
                                        std::to_string(found) + " (extra field \"" + excerpt(extra_text) + "\")");
      }
      ++column;
      if (last) break;
      ++pos;
    }
    if (column < width)
      throw t.error(pos, "expected " + std::to_string(width) + " fields but found " + std::to_string(column) +
                             " (record \"" + excerpt(s.substr(record_start, pos - record_start)) + "\")");
    end_record(s, pos);
    ++row;
  }
  pending.flush();
  out.rows = row;
  if (pos != chunk.end) out.mismatch = true;
}

// ---------------------------------------------------------------------------
// The whole load.

// With CsvLoadSpec::timing (SET trace = true), each phase's wall time goes
// to stderr (where does a load spend its time on this machine?).
class PhaseTimer {
 public:
  explicit PhaseTimer(bool enabled) : enabled_(enabled), last_(std::chrono::steady_clock::now()) {}
  void mark(const char* phase) {
    if (!enabled_) return;
    auto now = std::chrono::steady_clock::now();
    std::fprintf(stderr, "csv %-10s %8.1f ms\n", phase, std::chrono::duration<double, std::milli>(now - last_).count());
    last_ = now;
  }

 private:
  bool enabled_;
  std::chrono::steady_clock::time_point last_;
};

// The spec's thread count, else one per core.
std::size_t parse_threads(const CsvLoadSpec& spec) { return spec.threads ? spec.threads : hardware_threads(); }

Dialect base_dialect(const CsvOptions& options) {
  Dialect d;
  d.quote = options.quote;
  d.quoting = options.quote != '\0';
  d.null_marker = options.null_marker;
  auto bad = [](char c) { return c == '\n' || c == '\r'; };
  if (options.delimiter && (bad(*options.delimiter) || *options.delimiter == '\0'))
    throw Error(ErrorKind::Invalid, "the CSV delimiter cannot be a line break or NUL");
  if (d.quoting && bad(d.quote)) throw Error(ErrorKind::Invalid, "the CSV quote cannot be a line break");
  if (d.quoting && options.delimiter && *options.delimiter == d.quote)
    throw Error(ErrorKind::Invalid, "the CSV delimiter and quote must differ");
  return d;
}

// Loads `texts` (one or more files) as one table, or as one append to
// spec.append_to: the files' chunks are parsed together, in file order.
// Column `column`'s plain strings: `before`'s (the table appended to), then
// each chunk's rows in order; offsets summed per chunk, bytes copied on all
// threads.
StringPool gather_plain_strings(const StringPool* before, const std::vector<ChunkResult>& results, std::size_t column,
                                std::size_t threads) {
  const std::size_t chunks = results.size();
  std::vector<uint64_t> chunk_bytes(chunks + 1, 0), chunk_rows(chunks + 1, 0);
  chunk_bytes[0] = before ? before->byte_size() : 0;
  chunk_rows[0] = before ? before->size() : 0;
  parallel_for(
      chunks, threads,
      [&](std::size_t k) {
        uint64_t total = 0;
        for (std::string_view s : results[k].plain[column]) total += s.size();
        chunk_bytes[k + 1] = total;
        chunk_rows[k + 1] = results[k].plain[column].size();
      },
      {});
  for (std::size_t k = 0; k < chunks; ++k) {
    chunk_bytes[k + 1] += chunk_bytes[k];
    chunk_rows[k + 1] += chunk_rows[k];
  }
  std::vector<uint64_t> offsets(chunk_rows[chunks] + 1);
  StringPool::Bytes bytes(chunk_bytes[chunks]);
  if (before) {
    std::copy(before->offsets(), before->offsets() + before->size(), offsets.begin());
    if (before->byte_size()) std::memcpy(bytes.data(), before->bytes(), before->byte_size());
  }
  parallel_for(
      chunks, threads,
      [&](std::size_t k) {
        uint64_t at = chunk_bytes[k];
        std::size_t row = chunk_rows[k];
        for (std::string_view s : results[k].plain[column]) {
          offsets[row++] = at;
          if (!s.empty()) std::memcpy(bytes.data() + at, s.data(), s.size());
          at += s.size();
        }
      },
      {});
  offsets.back() = chunk_bytes[chunks];
  return StringPool::adopt(std::move(offsets), std::move(bytes));
}

// Which VARCHAR columns a load keeps as plain strings. An append keeps the
// table's form. A new load, or one into an empty table, keeps a column plain
// when the load has at least spec.plain_strings_rows rows (estimated from
// the first records' bytes) and at least half of those records' values
// occur once among them: a dictionary of mostly distinct strings costs a
// sort and a hash table of all of them, and a query may never read the
// column. With plain_strings_rows = 0, every VARCHAR column is plain.
std::vector<bool> plain_string_columns(const CsvText& first, const Dialect& d, std::size_t data_start,
                                       std::size_t bytes_total, const std::vector<ColumnDefinition>& columns,
                                       const Table* old, const CsvLoadSpec& spec) {
  std::vector<bool> plain(columns.size(), false);
  if (old && old->rows > 0) {
    for (std::size_t c = 0; c < columns.size(); ++c) plain[c] = old->is_plain(c);
    return plain;
  }
  if (spec.plain_strings_rows == 0) {
    for (std::size_t c = 0; c < columns.size(); ++c) plain[c] = columns[c].type.id == Type::Varchar;
    return plain;
  }
  constexpr std::size_t kSampleRecords = 16384;
  std::size_t pos = data_start;
  Sample sample;
  try {
    sample = read_sample(first, d, pos, kSampleRecords);
  } catch (const Error&) {
    return plain;  // the parse reports the fault
  }
  const std::size_t sampled = sample.records.size();
  if (sampled == 0 || pos <= data_start) return plain;
  const double rows = static_cast<double>(bytes_total) * static_cast<double>(sampled) / static_cast<double>(pos - data_start);
  if (rows < static_cast<double>(spec.plain_strings_rows)) return plain;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].type.id != Type::Varchar) continue;
    std::unordered_map<std::string_view, uint32_t> counts;
    std::size_t values = 0;
    for (const SampleRecord& record : sample.records) {
      if (c >= record.size() || is_missing(d, record[c])) continue;
      ++counts[record[c].text];
      ++values;
    }
    std::size_t once = 0;
    for (const auto& [text, n] : counts) once += n == 1;
    plain[c] = values > 0 && 2 * once >= values;
  }
  return plain;
}

// Frees a container's memory: assigning {} to a vector would keep its capacity.
template <class Container>
void release(Container& c) {
  Container().swap(c);
}

// A streamed chunk, once parsed: its dictionary ids one up (0 for a NULL,
// which the code map sends to code 0), each fixed-width column's range, and
// its plain strings' bytes and offsets.
void finish_streamed_chunk(ChunkResult& r, const std::vector<TargetColumn>& targets) {
  r.ranges.assign(targets.size(), {});
  r.plain_bytes.resize(targets.size());
  r.plain_offsets.resize(targets.size());
  for (std::size_t c = 0; c < targets.size(); ++c) {
    if (targets[c].plain) {
      const auto& views = r.plain[c];
      std::vector<uint64_t>& offsets = r.plain_offsets[c];
      offsets.resize(views.size());
      uint64_t total = 0;
      for (std::size_t i = 0; i < views.size(); ++i) {
        offsets[i] = total;
        total += views[i].size();
      }
      r.plain_bytes[c].resize(total);
      for (std::size_t i = 0; i < views.size(); ++i)
        if (!views[i].empty()) std::memcpy(r.plain_bytes[c].data() + offsets[i], views[i].data(), views[i].size());
      release(r.plain[c]);
      continue;
    }
    if (targets[c].type.id == Type::Varchar) {
      auto* ids = reinterpret_cast<uint32_t*>(r.values[c]);
      for (std::size_t row = 0; row < r.rows; ++row) ++ids[row];
      for (uint32_t row : r.nulls[c]) ids[row] = 0;
    } else {
      r.ranges[c] = value_range(targets[c].type, r.values[c], r.rows, r.nulls[c]);
    }
  }
  release(r.arena);  // the escaped strings, copied
}

// A streamed dictionary column's codes, made on the device: chunk k's ids
// (finish_streamed_chunk()'s) through [0] + its string set's codes, after
// an append's `old_rows` codes (`old`'s) through `old_map` (the dictionary
// union's; empty when it kept every code), a NULL's made 0 as on the host.
// Returns the maps' buffer, to be kept until the stream has run.
DeviceBuffer make_codes_on_device(const std::vector<std::vector<uint32_t>>& set_codes,
                                  const std::vector<std::size_t>& set_of, const std::vector<ChunkResult>& results,
                                  const std::vector<std::size_t>& first_row, const DeviceBuffer& ids,
                                  const DeviceColumn* old, std::size_t old_rows, const std::vector<uint32_t>& old_map,
                                  DeviceColumn& column, DeviceContext& device, StagedUpload& upload,
                                  StorageKernels::CodeMap map_codes) {
  std::vector<uint32_t> maps(old_map);
  std::vector<std::size_t> at(set_codes.size());
  for (std::size_t set = 0; set < set_codes.size(); ++set) {
    at[set] = maps.size();
    maps.push_back(0);
    maps.insert(maps.end(), set_codes[set].begin(), set_codes[set].end());
  }
  DeviceBuffer on_device(device, maps.size() * sizeof(uint32_t));
  upload.to_device(on_device.data(), maps.data(), maps.size() * sizeof(uint32_t));
  uint32_t* codes = column.data.as<uint32_t>();
  if (old && old_map.empty())
    upload.device_to_device(codes, old->data.data(), old_rows * sizeof(uint32_t));
  else if (old)
    map_codes(on_device.as<uint32_t>(), old->data.as<uint32_t>(), old->validity.size() ? old->validity.as<uint32_t>() : nullptr,
              old_rows, codes, device);
  for (std::size_t k = 0; k < results.size(); ++k)
    map_codes(on_device.as<uint32_t>() + at[set_of[k]], ids.as<uint32_t>() + first_row[k], nullptr, results[k].rows,
              codes + old_rows + first_row[k], device);
  return on_device;
}

// A streamed column of plain strings: an append's old bytes (`old`'s, when
// not null) and its chunks' pieces of bytes joined into one buffer (the
// offsets are in place but for the last, at row `rows`).
void join_string_pieces(const DeviceColumn* old, std::vector<DeviceBuffer>& pieces, uint64_t total, std::size_t rows,
                        DeviceColumn& column, DeviceContext& device, StagedUpload& upload) {
  column.string_bytes = DeviceBuffer(device, total);
  uint64_t at = 0;
  if (old) {
    upload.device_to_device(column.string_bytes.data(), old->string_bytes.data(), old->string_bytes.size());
    at = old->string_bytes.size();
  }
  for (const DeviceBuffer& piece : pieces) {
    upload.device_to_device(column.string_bytes.as<std::byte>() + at, piece.data(), piece.size());
    at += piece.size();
  }
  upload.to_device(column.string_offsets.as<uint64_t>() + rows, &total, sizeof total);
  pieces.clear();  // freed in stream order, after the copies
}

// A streamed table's statistics, from its chunks: NULL counts, ranges (a
// dictionary column's codes span those its string sets were given: every
// one is some row's), and distinct estimates from the sample, whose
// dictionary ids become codes here. An append's (`old`, whose codes
// `old_code_maps` renumbered) are merged with the old rows'.
void set_streamed_statistics(const Table& table, const Table* old,
                             const std::vector<std::vector<uint32_t>>& old_code_maps,
                             std::vector<std::vector<SampledValue>>& samples, const std::vector<ChunkResult>& results,
                             const std::vector<std::vector<std::vector<uint32_t>>>& codes,
                             const std::vector<std::size_t>& set_of) {
  const std::size_t width = table.columns.size(), old_rows = old ? old->rows : 0;
  std::vector<double> distinct(width);
  std::vector<ValueRange> ranges(width);
  std::vector<std::size_t> nulls(width, 0);
  for (std::size_t c = 0; c < width; ++c) {
    for (const ChunkResult& r : results) nulls[c] += r.nulls[c].size();
    const bool varchar = table.columns[c].type.id == Type::Varchar;
    if (table.is_plain(c)) {
    } else if (varchar) {
      for (SampledValue& v : samples[c]) v = {codes[c][set_of[v.second]][v.first - 1], 0};
      for (const auto& set : codes[c])
        for (uint32_t code : set) ranges[c] = merge(ranges[c], {true, double(code), double(code)});
    } else {
      for (const ChunkResult& r : results) ranges[c] = merge(ranges[c], r.ranges[c]);
    }
    distinct[c] = estimate_distinct(samples[c], table.rows - old_rows, nulls[c]);
    if (old_rows == 0) continue;
    ValueRange old_range = old->value_range(c);
    const std::vector<uint32_t>& map = old_code_maps[c];
    if (old_range.known && !map.empty() && old_range.max < double(map.size()))  // codes keep their order
      old_range = {true, double(map[std::size_t(old_range.min)]), double(map[std::size_t(old_range.max)])};
    const std::size_t old_nulls = old->null_count(c), new_valid = table.rows - old_rows - nulls[c];
    distinct[c] = appended_distinct(old->distinct_estimate(c), old_rows - old_nulls, varchar ? ValueRange{} : old_range,
                                    distinct[c], new_valid, varchar ? ValueRange{} : ranges[c]);
    ranges[c] = merge(old_range, ranges[c]);
    nulls[c] += old_nulls;
  }
  table.set_statistics(std::move(distinct), std::move(ranges), std::move(nulls));
}

// Column `c`'s distinct estimate after an append to `old` (appended_distinct(),
// as a stream makes it), from the old table's and the new rows of `column`
// (every row of the new version).
double distinct_after_append(const HostColumn& column, const Table& old, std::size_t c) {
  const bool varchar = column.type.id == Type::Varchar;
  const std::size_t new_nulls = null_count(column, old.rows);
  return appended_distinct(old.distinct_estimate(c), old.rows - old.null_count(c),
                           varchar ? ValueRange{} : old.value_range(c), estimate_distinct(column, old.rows),
                           column.size - old.rows - new_nulls, varchar ? ValueRange{} : value_range(column, old.rows));
}

// The same from the columns on the device, fetched one at a time (an
// append's distinct estimates as distinct_after_append() makes them).
void take_statistics_from_device(const Table& table, const Table* old) {
  const std::size_t width = table.columns.size();
  std::vector<double> distinct(width);
  std::vector<ValueRange> ranges(width);
  std::vector<std::size_t> nulls(width, 0);
  for (std::size_t c = 0; c < width; ++c) {
    HostColumn values = download_column(table.device->columns[c], table.rows);
    values.dictionary = table.host[c].dictionary;
    distinct[c] = old ? distinct_after_append(values, *old, c) : estimate_distinct(values);
    ranges[c] = value_range(values);
    nulls[c] = values.null_count();
  }
  table.set_statistics(std::move(distinct), std::move(ranges), std::move(nulls));
}

// Whether `table` lives on the device alone (Table::release_host_copy()'s form).
bool on_device_alone(const Table& table) {
  if (!table.device || table.device->columns.size() != table.columns.size()) return false;
  for (std::size_t c = 0; c < table.columns.size(); ++c)
    if (table.has_host_copy(c)) return false;
  return true;
}

std::shared_ptr<Table> load(const std::vector<CsvText>& texts, const CsvLoadSpec& spec, bool single_chunk) {
  PhaseTimer timer(spec.timing);
  const Table* old = spec.append_to.get();
  Sniffed sniffed = sniff(texts[0], base_dialect(spec.options), spec.options, old);
  const Dialect& d = sniffed.dialect;
  std::vector<std::size_t> data_start(texts.size(), sniffed.data_start);
  for (std::size_t f = 1; f < texts.size(); ++f) data_start[f] = data_start_of(texts[f], d);
  timer.mark("sniff");
  const std::size_t threads = parse_threads(spec);
  std::vector<Chunk> chunks;
  std::size_t bytes_total = 0;
  for (std::size_t f = 0; f < texts.size(); ++f) {
    const std::size_t base = chunks.empty() ? 0 : chunks.back().row_base + chunks.back().bound;
    for (Chunk c : plan_chunks(texts[f], d, data_start[f], threads, spec.chunk_bytes, single_chunk)) {
      c.row_base += base;
      c.file = f;
      chunks.push_back(c);
    }
    bytes_total += texts[f].text.size() - std::min(texts[f].text.size(), data_start[f]);
  }
  timer.mark("cut");
  std::size_t bound = 0;
  for (const auto& c : chunks) bound += c.bound;
  const std::size_t old_rows = old ? old->rows : 0, width = sniffed.columns.size();

  const std::vector<bool> plain =
      plain_string_columns(texts[0], d, data_start[0], bytes_total, sniffed.columns, old, spec);
  // A table that is to live on the device alone is never whole on the host:
  // each chunk's values go over once it and every chunk before it are
  // parsed, and are freed then; dictionary codes are made final on the
  // device, and the statistics come from the chunks. An append to a table
  // on the device alone copies its rows there, device to device.
  const bool streaming = spec.device && spec.device_only && spec.device->kernels().map_codes && (old_rows == 0 || on_device_alone(*old));
  const DeviceTable* old_device = streaming && old_rows ? old->device.get() : nullptr;
  // The old rows on the host (an append that does not stream): fetched from
  // the device for a table that lives there alone, for this load only.
  std::vector<HostColumn> old_fetched(old ? width : 0);
  std::vector<const HostColumn*> old_host(width, nullptr);
  if (old && !streaming)
    for (std::size_t c = 0; c < width; ++c) old_host[c] = &old->read_column(c, old_fetched[c]);
  // A stream's old rows on the host: their validity and dictionaries alone.
  for (std::size_t c = 0; c < width && streaming && old; ++c) {
    old_fetched[c].type = old->host[c].type;
    old_fetched[c].size = old_rows;
    if (old_device) old_fetched[c].validity = download_validity(old_device->columns[c], old_rows);
    old_fetched[c].dictionary = old->host[c].dictionary;
    old_host[c] = &old_fetched[c];
  }
  auto table = std::make_shared<Table>();
  table->name = old ? old->name : spec.table_name;
  table->columns = sniffed.columns;
  if (old) table->keys = old->keys;
  std::vector<TargetColumn> targets(width);
  // Columns are allocated (and so zeroed and faulted in) on all threads at once.
  table->host.resize(width);
  parallel_for(
      width, threads,
      [&](std::size_t c) {
        const DataType type = sniffed.columns[c].type;
        if (plain[c] || streaming) {  // strings are gathered after the parse; a stream keeps no column
          table->host[c].type = type;
          return;
        }
        HostColumn column(type, old_rows + bound);
        if (old && !old_host[c]->bytes.empty())
          std::memcpy(column.bytes.data(), old_host[c]->bytes.data(), old_host[c]->bytes.size());
        table->host[c] = std::move(column);
      },
      {});
  for (std::size_t c = 0; c < width; ++c)
    targets[c] = {sniffed.columns[c].type, sniffed.columns[c].not_null, sniffed.columns[c].name,
                  plain[c] || streaming ? nullptr : table->host[c].bytes.data(), plain[c]};

  // The device copy: values of every column but VARCHAR go over while parsing.
  DeviceContext* device = spec.device;
  std::unique_ptr<DeviceTable> on_device;
  std::optional<StagedUpload> upload;
  // A stream's dictionary columns: each chunk's ids into its string set
  // (plus one; 0 for a NULL), made codes at the end. Its plain strings:
  // each chunk's bytes, and the bytes so far.
  std::vector<DeviceBuffer> local_ids(width);
  std::vector<std::vector<DeviceBuffer>> string_pieces(width);
  std::vector<uint64_t> string_bytes(width, 0);
  if (device) {
    on_device = std::make_unique<DeviceTable>();
    upload.emplace(*device);
    std::size_t needed = 0;
    for (std::size_t c = 0; c < width; ++c) {
      const bool varchar = sniffed.columns[c].type.id == Type::Varchar;
      if (!plain[c]) needed += (old_rows + bound) * sniffed.columns[c].type.width() * (streaming && varchar ? 2 : 1);
      if (plain[c] && streaming) needed += (old_rows + bound + 1) * sizeof(uint64_t);
    }
    try {
      for (std::size_t c = 0; c < width; ++c) {
        DeviceColumn column;
        column.type = sniffed.columns[c].type;
        column.data = DeviceBuffer(*device, plain[c] ? 0 : (old_rows + bound) * column.type.width());
        if (streaming && plain[c])
          column.string_offsets = DeviceBuffer(*device, (old_rows + bound + 1) * sizeof(uint64_t));
        if (streaming && !plain[c] && column.type.id == Type::Varchar)
          local_ids[c] = DeviceBuffer(*device, bound * sizeof(uint32_t));
        on_device->columns.push_back(std::move(column));
      }
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::OutOfMemory) throw;
      on_device.reset();
      throw_table_does_not_fit(table->name, needed, *device);
    }
    if (old && old->device)
      for (std::size_t c = 0; c < width; ++c)
        if (sniffed.columns[c].type.id != Type::Varchar)
          upload->device_to_device(on_device->columns[c].data.data(), old->device->columns[c].data.data(),
                                   old_rows * sniffed.columns[c].type.width());
    // A stream's old plain strings: their offsets now, their bytes when the pieces are joined.
    for (std::size_t c = 0; c < width && old_device; ++c)
      if (plain[c]) {
        upload->device_to_device(on_device->columns[c].string_offsets.data(),
                                 old_device->columns[c].string_offsets.data(), old_rows * sizeof(uint64_t));
        string_bytes[c] = old_device->columns[c].string_bytes.size();
      }
  }

  timer.mark("allocate");
  ParseContext ctx{texts, d, targets, ""};
  if (sniffed.inferred) ctx.hint = " (its type was inferred from the first " + std::to_string(CSV_SAMPLE_ROWS) + " rows)";
  std::vector<ChunkResult> results(chunks.size());
  std::atomic<std::size_t> bytes_done{0};

  // Finished chunks go to the device in order, as soon as all before them are done.
  std::mutex frontier_mutex;
  std::size_t frontier = 0, frontier_rows = 0;
  bool frontier_stopped = false;
  std::exception_ptr upload_failure;
  // A stream's sample for the distinct estimates (estimate_distinct()'s
  // rows, over `bound` rows): per column, the non-NULL sampled values -- a
  // dictionary column's as (id, chunk), made codes at the end.
  const std::size_t sample_size = distinct_sample_size(bound);
  std::size_t next_sample = 0;
  std::vector<std::vector<SampledValue>> samples(streaming ? width : 0);
  auto sample_chunk = [&](const ChunkResult& r, std::size_t k) {
    for (; next_sample < sample_size; ++next_sample) {
      const std::size_t row = distinct_sample_row(next_sample, bound);
      if (row >= frontier_rows + r.rows) break;
      const auto local = static_cast<uint32_t>(row - frontier_rows);
      for (std::size_t c = 0; c < width; ++c) {
        if (std::binary_search(r.nulls[c].begin(), r.nulls[c].end(), local)) continue;
        const std::size_t w = targets[c].type.width();
        uint64_t words[2] = {0, 0};
        if (plain[c]) {
          words[0] = hash_bytes(r.plain_string(c, local));
        } else if (targets[c].type.id == Type::Varchar) {
          words[0] = reinterpret_cast<const uint32_t*>(r.values[c])[local];
          words[1] = k;
        } else {
          std::memcpy(words, r.values[c] + local * w, std::min(w, sizeof words));
        }
        samples[c].emplace_back(words[0], words[1]);
      }
    }
  };
  // A stream's plain strings of chunk `r`, column `c`: offsets (rows
  // `old_rows + frontier_rows` on, moved past the bytes before them) and a
  // piece of bytes, joined at the end.
  auto send_plain_strings = [&](ChunkResult& r, std::size_t c) {
    std::vector<uint64_t>& offsets = r.plain_offsets[c];
    for (uint64_t& offset : offsets) offset += string_bytes[c];
    upload->to_device(on_device->columns[c].string_offsets.as<uint64_t>() + old_rows + frontier_rows, offsets.data(),
                      offsets.size() * sizeof(uint64_t));
    const std::size_t total = r.plain_bytes[c].size();
    DeviceBuffer piece(*device, total);
    upload->to_device(piece.data(), r.plain_bytes[c].data(), total);
    string_pieces[c].push_back(std::move(piece));
    string_bytes[c] += total;
  };
  // One thread at a time sends chunks over, outside the lock: a thread that
  // finishes a chunk while another sends only marks it done, and the sender
  // takes it before it stops (it looks again under the lock).
  bool sending = false;
  auto advance_frontier = [&](std::size_t k) {
    {
      std::lock_guard lock(frontier_mutex);
      results[k].done = true;
      if (!device || sending) return;
      sending = true;
    }
    while (true) {
      {
        std::lock_guard lock(frontier_mutex);
        if (frontier_stopped || frontier == chunks.size() || !results[frontier].done) {
          sending = false;
          return;
        }
      }
      ChunkResult& r = results[frontier];
      if (r.error || r.mismatch) {
        frontier_stopped = true;
        break;
      }
      try {
        if (streaming) sample_chunk(r, frontier);
        for (std::size_t c = 0; c < width; ++c) {
          const std::size_t w = targets[c].type.width();
          if (streaming && plain[c]) send_plain_strings(r, c);
          else if (streaming && targets[c].type.id == Type::Varchar)
            upload->to_device(local_ids[c].as<uint32_t>() + frontier_rows, r.values[c], r.rows * w);
          else if (targets[c].type.id != Type::Varchar)
            upload->to_device(on_device->columns[c].data.as<std::byte>() + (old_rows + frontier_rows) * w,
                              r.values[c], r.rows * w);
        }
        if (streaming) {
          release(r.own);
          release(r.plain_bytes);
          release(r.plain_offsets);
        }
      } catch (...) {
        upload_failure = std::current_exception();
        frontier_stopped = true;
        break;
      }
      frontier_rows += r.rows;
      ++frontier;
    }
  };
  // Chunks after a fault need not be parsed; those before it must be, since
  // the first fault in file order is the one reported.
  std::atomic<std::size_t> first_fault{SIZE_MAX};
  auto note_fault = [&](std::size_t k) {
    for (std::size_t seen = first_fault; k < seen && !first_fault.compare_exchange_weak(seen, k);) {
    }
  };
  // Each thread's current string sets. One set per thread per column keeps
  // the merge small (a string repeated across a thread's chunks is merged
  // once); a new one starts only when a set is so large that its hash table
  // would take more memory than the merge saves. A retired set frees its table.
  constexpr std::size_t SET_LIMIT = std::size_t(1) << 18;
  std::vector<std::shared_ptr<std::vector<StringSet>>> current(threads);
  auto task = [&](std::size_t k, std::size_t worker) {
    if (k > first_fault) return;
    // Outside the try below: an interrupt or the memory limit ends the load.
    if (spec.control) spec.control->reserve_host_memory(chunks[k].end - chunks[k].begin, "a CSV chunk's columns");
    auto& sets = current[worker];
    if (sets && std::any_of(sets->begin(), sets->end(),
                            [&](const StringSet& set) { return set.entries().size() > SET_LIMIT; })) {
      for (StringSet& set : *sets) set.seal();
      sets.reset();
    }
    if (!sets) sets = std::make_shared<std::vector<StringSet>>(width);
    ChunkResult& result = results[k];
    result.strings = sets;
    result.values.assign(width, nullptr);
    std::size_t own = 0;
    for (std::size_t c = 0; c < width; ++c) {
      if (plain[c]) continue;
      const std::size_t w = targets[c].type.width();
      result.values[c] = streaming ? nullptr : targets[c].data + (old_rows + chunks[k].row_base) * w;
      own += streaming ? chunks[k].bound * w : 0;
    }
    if (streaming) {
      result.own.assign(own, std::byte{0});
      own = 0;
      for (std::size_t c = 0; c < width; ++c) {
        if (plain[c]) continue;
        result.values[c] = result.own.data() + own;
        own += chunks[k].bound * targets[c].type.width();
      }
    }
    try {
      parse_chunk(ctx, chunks[k], result, *sets);
      if (result.mismatch) note_fault(k);
      if (streaming && !result.mismatch) finish_streamed_chunk(result, targets);
    } catch (const Error& e) {
      results[k].error = e;
      note_fault(k);
    }
    bytes_done += chunks[k].end - chunks[k].begin;
    advance_frontier(k);
  };
  auto tick = [&] {
    if (spec.options.progress) spec.options.progress(bytes_done.load(), bytes_total);
  };
  parallel_for_workers(chunks.size(), threads, task, spec.options.progress ? std::function<void()>(tick) : nullptr);
  for (auto& sets : current)
    if (sets)
      for (StringSet& set : *sets) set.seal();
  timer.mark("parse");

  // The first fault in file order is the one to report, when every chunk
  // before it was cut right; a bad cut means the text is malformed before
  // it, and a sequential read finds where.
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    if (results[k].mismatch) {
      if (single_chunk) throw Error(ErrorKind::Invalid, "internal error: a single-chunk CSV read was cut short");
      // Free this attempt's columns and device buffers before the next one.
      local_ids.clear();
      string_pieces.clear();
      upload.reset();
      on_device.reset();
      table.reset();
      results.clear();
      old_fetched.clear();
      return load(texts, spec, true);
    }
    if (results[k].error) throw *results[k].error;
    if (!results[k].done) throw Error(ErrorKind::Invalid, "internal error: a CSV chunk was not parsed");
  }
  if (upload_failure) std::rethrow_exception(upload_failure);
  if (spec.options.progress) spec.options.progress(bytes_total, bytes_total);

  // Close the gaps blank lines left, in order (each move is to a lower address).
  std::size_t rows = 0;
  std::vector<std::size_t> first_row(chunks.size());
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    first_row[k] = rows;
    rows += results[k].rows;
  }
  for (std::size_t c = 0; c < width && !streaming; ++c) {
    if (plain[c]) continue;
    const std::size_t w = targets[c].type.width();
    for (std::size_t k = 0; k < chunks.size(); ++k)
      if (first_row[k] != chunks[k].row_base)
        std::memmove(targets[c].data + (old_rows + first_row[k]) * w,
                     targets[c].data + (old_rows + chunks[k].row_base) * w, results[k].rows * w);
  }
  const std::size_t total_rows = old_rows + rows;
  table->rows = total_rows;
  // NULLs into validity bits (in parallel over columns): a stream's into
  // columns of bits alone, for the device.
  std::vector<HostColumn> bitmaps(streaming ? width : 0);
  std::vector<HostColumn>& with_validity = streaming ? bitmaps : table->host;
  parallel_for(
      width, threads,
      [&](std::size_t c) {
        HostColumn& column = with_validity[c];
        column.type = targets[c].type;
        column.size = total_rows;
        if (!plain[c] && !streaming) column.bytes.resize(total_rows * column.type.width());
        bool any_null = old && old_host[c]->has_nulls();
        for (const auto& r : results) any_null = any_null || !r.nulls[c].empty();
        if (!any_null) return;
        column.validity.assign(validity_words(total_rows), ~0u);
        if (old && old_host[c]->has_nulls()) {  // whole words, then the bits of the last
          const std::vector<uint32_t>& from = old_host[c]->validity;
          std::copy(from.begin(), from.begin() + old_rows / 32, column.validity.begin());
          for (std::size_t row = old_rows / 32 * 32; row < old_rows; ++row)
            if (!old_host[c]->is_valid(row)) column.set_null(row);
        }
        for (std::size_t k = 0; k < chunks.size(); ++k)
          for (uint32_t row : results[k].nulls[c]) column.set_null(old_rows + first_row[k] + row);
        normalize_validity(column);
      },
      {});
  timer.mark("nulls");
  // Strings: one sorted dictionary per column over the old rows and every
  // string set, and the map from each set's string ids to final codes.
  std::vector<const std::vector<StringSet>*> set_owners;  // distinct, in chunk order
  std::vector<std::size_t> set_of(chunks.size());         // chunk -> index in set_owners
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    auto at = std::find(set_owners.begin(), set_owners.end(), results[k].strings.get());
    set_of[k] = static_cast<std::size_t>(at - set_owners.begin());
    if (at == set_owners.end()) set_owners.push_back(results[k].strings.get());
  }
  std::vector<std::vector<std::vector<uint32_t>>> codes(width);  // column -> set -> id -> code
  std::vector<std::vector<uint32_t>> old_code_maps(width);      // a stream's old codes -> new; empty: unchanged
  for (std::size_t c = 0; c < width; ++c) {
    HostColumn& column = table->host[c];
    if (column.type.id != Type::Varchar || plain[c]) continue;
    std::vector<const StringSet*> sets;
    for (const auto* owner : set_owners) sets.push_back(&(*owner)[c]);
    std::shared_ptr<Dictionary> fresh = make_dictionary(merge_strings(sets, codes[c], threads), threads);
    std::shared_ptr<const Dictionary> dictionary = fresh;
    // The first load into a table (an empty dictionary) takes the new one as
    // it is: a union would copy every string of it.
    if (old && old_host[c]->dictionary && !old_host[c]->dictionary->values.empty()) {
      DictionaryUnion u = unite_dictionaries(old_host[c]->dictionary, *fresh);
      if (streaming && !u.left_unchanged) {
        old_code_maps[c] = u.left_codes;
      } else if (!u.left_unchanged) {
        auto values = column.values<uint32_t>();
        for (std::size_t row = 0; row < old_rows; ++row)
          values[row] = old_host[c]->is_valid(row) ? u.left_codes[values[row]] : 0;
      }
      for (auto& map : codes[c])
        for (auto& code : map) code = u.right_codes[code];
      dictionary = u.dictionary;
    }
    column.dictionary = std::move(dictionary);
  }
  timer.mark("merge");
  // Every chunk's codes to final ones (in parallel over chunks).
  std::vector<std::size_t> varchar_columns;
  for (std::size_t c = 0; c < width; ++c)
    if (targets[c].type.id == Type::Varchar && !plain[c]) varchar_columns.push_back(c);
  if (!varchar_columns.empty() && !streaming)
    parallel_for(
        chunks.size(), threads,
        [&](std::size_t k) {
          for (std::size_t c : varchar_columns) {
            const auto& map = codes[c][set_of[k]];
            uint32_t* chunk_codes = table->host[c].values<uint32_t>().data() + old_rows + first_row[k];
            if (map.empty()) {
              std::fill(chunk_codes, chunk_codes + results[k].rows, 0u);
              continue;
            }
            for (std::size_t row = 0; row < results[k].rows; ++row) chunk_codes[row] = map[chunk_codes[row]];
            for (uint32_t row : results[k].nulls[c]) chunk_codes[row] = 0;
          }
        },
        {});

  timer.mark("recode");
  // Plain strings: the old rows' (an append), then each chunk's, into one pool.
  for (std::size_t c = 0; c < width && !streaming; ++c)
    if (plain[c])
      table->host[c].strings = std::make_shared<const StringPool>(
          gather_plain_strings(old ? old_host[c]->strings.get() : nullptr, results, c, threads));
  timer.mark("strings");
  if (device) {
    // What could not go over while parsing: VARCHAR codes, validity, dictionaries.
    try {
      std::vector<DeviceBuffer> code_maps;
      for (std::size_t c = 0; c < width; ++c) {
        const HostColumn& h = table->host[c];
        DeviceColumn& dc = on_device->columns[c];
        dc.size = total_rows;
        if (h.type.id == Type::Varchar && !plain[c]) {
          if (streaming)
            code_maps.push_back(make_codes_on_device(codes[c], set_of, results, first_row, local_ids[c],
                                                     old_device ? &old_device->columns[c] : nullptr, old_rows,
                                                     old_code_maps[c], dc,
                                                     *device, *upload, device->kernels().map_codes));
          else
            upload->to_device(dc.data.data(), h.bytes.data(), h.bytes.size());
          upload_dictionary(*h.dictionary, dc, *device, *upload);
        }
        if (streaming && plain[c])
          join_string_pieces(old_device ? &old_device->columns[c] : nullptr, string_pieces[c], string_bytes[c],
                             total_rows, dc, *device, *upload);
        upload_validity(with_validity[c], dc, *device, *upload);
      }
      upload->finish();
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::OutOfMemory) throw;
      std::size_t needed = 0;
      for (const auto& h : table->host) needed += device_bytes_needed(h);
      on_device.reset();
      throw_table_does_not_fit(table->name, needed, *device);
    }
    table->device = std::move(on_device);
  }
  timer.mark("finish");
  if (streaming) {
    if (total_rows - old_rows == bound)
      set_streamed_statistics(*table, old_device ? old : nullptr, old_code_maps, samples, results, codes, set_of);
    else  // blank lines moved the rows the sample meant: the columns come back one at a time
      take_statistics_from_device(*table, old_device ? old : nullptr);
  } else if (old_rows) {
    std::vector<double> distinct(width);
    for (std::size_t c = 0; c < width; ++c) distinct[c] = distinct_after_append(table->host[c], *old, c);
    table->set_distinct_estimates(std::move(distinct));
  }
  return table;
}

}  // namespace

std::shared_ptr<Table> load_csv_text(std::string_view text, const std::string& source_name, const CsvLoadSpec& spec) {
  return load_csv_texts({{text, source_name}}, spec);
}

std::shared_ptr<Table> load_csv_texts(const std::vector<CsvSource>& sources, const CsvLoadSpec& spec) {
  if (sources.empty()) throw Error(ErrorKind::IO, "no CSV files to read");
  std::vector<CsvText> texts;
  for (const CsvSource& source : sources) texts.emplace_back(source.text, source.name);
  return load(texts, spec, false);
}

std::shared_ptr<Table> load_csv_file(const std::string& path, const CsvLoadSpec& spec) {
  return load_csv_files({path}, spec);
}

std::shared_ptr<Table> load_csv_files(const std::vector<std::string>& paths, const CsvLoadSpec& spec) {
  std::vector<std::unique_ptr<FileText>> files;
  std::vector<CsvSource> sources;
  for (const std::string& path : paths) {
    files.push_back(std::make_unique<FileText>(path));
    sources.push_back({files.back()->view(), path});
  }
  return load_csv_texts(sources, spec);
}

std::shared_ptr<Table> read_csv(const std::string& path, const std::string& table_name, const CsvOptions& options) {
  CsvLoadSpec spec;
  spec.table_name = table_name;
  spec.options = options;
  return load_csv_file(path, spec);
}

std::shared_ptr<Table> read_csv_text(std::string_view text, const std::string& source_name,
                                     const std::string& table_name, const CsvOptions& options) {
  CsvLoadSpec spec;
  spec.table_name = table_name;
  spec.options = options;
  return load_csv_text(text, source_name, spec);
}

}  // namespace gpusql
