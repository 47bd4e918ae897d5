#include "bench/ssb/ssb_generator.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string_view>
#include <thread>

namespace gpusql::ssb {
namespace {

// ---------------------------------------------------------------------------
// Randomness: a counter-based generator, so that a row's values depend only on
// (seed, stream, row) and never on how rows are spread over threads.

constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ull;

uint64_t mix64(uint64_t x) {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// One independent sequence per table and, for the free-text columns, per
// column: building a column or not never shifts another column's values.
enum class Stream : uint64_t {
  OrderLines = 1,
  Order,
  Customer,
  CustomerText,
  Supplier,
  SupplierText,
  Part,
  PartName,
};

class Rng {
 public:
  Rng(uint64_t seed, Stream stream, uint64_t row)
      : state_(mix64(mix64(seed + static_cast<uint64_t>(stream) * kGolden) + row * kGolden)) {}
  uint64_t next() {
    state_ += kGolden;
    return mix64(state_);
  }
  // Uniform in [lo, hi].
  int32_t uniform(int32_t lo, int32_t hi) {
    uint64_t range = static_cast<uint64_t>(static_cast<int64_t>(hi) - lo + 1);
    return static_cast<int32_t>(lo + static_cast<int64_t>(((next() >> 32) * range) >> 32));
  }

 private:
  uint64_t state_;
};

unsigned thread_count(unsigned requested) {
  if (requested) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

// Runs body(begin, end) over [0, n) in contiguous chunks on up to `threads`
// threads.
template <class Body>
void parallel_for(std::size_t n, unsigned threads, Body body) {
  constexpr std::size_t kMinChunk = 1 << 14;
  std::size_t workers = std::min<std::size_t>(threads, std::max<std::size_t>(1, n / kMinChunk));
  if (workers <= 1) {
    body(std::size_t{0}, n);
    return;
  }
  std::vector<std::thread> pool;
  for (std::size_t w = 0; w < workers; ++w) pool.emplace_back([&, w] { body(n * w / workers, n * (w + 1) / workers); });
  for (auto& t : pool) t.join();
}

// ---------------------------------------------------------------------------
// The specification's value domains.

struct Nation {
  const char* name;
  int region;
};
// TPC-H's 25 nations, by nation key; five in each region.
constexpr std::array<Nation, 25> kNations = {{
    {"ALGERIA", 0},      {"ARGENTINA", 1},  {"BRAZIL", 1},  {"CANADA", 1},         {"EGYPT", 4},
    {"ETHIOPIA", 0},     {"FRANCE", 3},     {"GERMANY", 3}, {"INDIA", 2},          {"INDONESIA", 2},
    {"IRAN", 4},         {"IRAQ", 4},       {"JAPAN", 2},   {"JORDAN", 4},         {"KENYA", 0},
    {"MOROCCO", 0},      {"MOZAMBIQUE", 0}, {"PERU", 1},    {"CHINA", 2},          {"ROMANIA", 3},
    {"SAUDI ARABIA", 4}, {"VIETNAM", 2},    {"RUSSIA", 3},  {"UNITED KINGDOM", 3}, {"UNITED STATES", 1},
}};
constexpr std::array<const char*, 5> kRegions = {"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"};
constexpr std::array<const char*, 5> kSegments = {"AUTOMOBILE", "BUILDING", "FURNITURE", "HOUSEHOLD", "MACHINERY"};
constexpr std::array<const char*, 5> kPriorities = {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"};
constexpr std::array<const char*, 7> kShipModes = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
constexpr std::array<const char*, 92> kColors = {
    "almond",   "antique", "aquamarine", "azure",     "beige",      "bisque",    "black",     "blanched", "blue",
    "blush",    "brown",   "burlywood",  "burnished", "chartreuse", "chiffon",   "chocolate", "coral",    "cornflower",
    "cornsilk", "cream",   "cyan",       "dark",      "deep",       "dim",       "dodger",    "drab",     "firebrick",
    "floral",   "forest",  "frosted",    "gainsboro", "ghost",      "goldenrod", "green",     "grey",     "honeydew",
    "hot",      "indian",  "ivory",      "khaki",     "lace",       "lavender",  "lawn",      "lemon",    "light",
    "lime",     "linen",   "magenta",    "maroon",    "medium",     "metallic",  "midnight",  "mint",     "misty",
    "moccasin", "navajo",  "navy",       "olive",     "orange",     "orchid",    "pale",      "papaya",   "peach",
    "peru",     "pink",    "plum",       "powder",    "puff",       "purple",    "red",       "rose",     "rosy",
    "royal",    "saddle",  "salmon",     "sandy",     "seashell",   "sienna",    "sky",       "slate",    "smoke",
    "snow",     "spring",  "steel",      "tan",       "thistle",    "tomato",    "turquoise", "violet",   "wheat",
    "white",    "yellow"};
static_assert(kColors.back() != nullptr, "92 colors, as TPC-H");
constexpr std::array<const char*, 6> kTypeSize = {"STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"};
constexpr std::array<const char*, 5> kTypeFinish = {"ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"};
constexpr std::array<const char*, 5> kTypeMetal = {"TIN", "NICKEL", "BRASS", "STEEL", "COPPER"};
constexpr std::array<const char*, 5> kContainerSize = {"SM", "LG", "MED", "JUMBO", "WRAP"};
constexpr std::array<const char*, 8> kContainerKind = {"CASE", "BOX", "BAG", "JAR", "PKG", "PACK", "CAN", "DRUM"};
constexpr std::array<const char*, 12> kMonths = {"January", "February", "March",     "April",   "May",      "June",
                                                 "July",    "August",   "September", "October", "November", "December"};
constexpr std::array<const char*, 7> kWeekdays = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                                  "Thursday", "Friday", "Saturday"};

// The SSB city: the nation's first 9 characters, blank-padded, and a digit.
std::string city_name(int nation, int digit) {
  std::string city = kNations[nation].name;
  city.resize(9, ' ');
  return city + static_cast<char>('0' + digit);
}

// dbgen's retail price of a part, in cents: 900.00 .. 2098.99.
int32_t retail_price(int32_t partkey) { return 90000 + ((partkey / 10) % 20001) + 100 * (partkey % 1000); }

// ---------------------------------------------------------------------------
// Calendar (proleptic Gregorian; days since 1970-01-01).

int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

struct Civil {
  int year;
  unsigned month, day;
};
Civil civil_from_days(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {static_cast<int>(yoe + era * 400 + (m <= 2)), m, d};
}

const int64_t kFirstDay = days_from_civil(1992, 1, 1);
constexpr std::size_t kDateRows = 2556;
// Orders are placed up to 151 days before 1998-12-31 (dbgen), i.e. 1998-08-02.
const int32_t kLastOrderDay = static_cast<int32_t>(days_from_civil(1998, 8, 2) - kFirstDay);

int32_t datekey(int64_t days) {
  Civil c = civil_from_days(days);
  return c.year * 10000 + static_cast<int32_t>(c.month * 100 + c.day);
}

// ---------------------------------------------------------------------------
// Building columns.

// A fixed VARCHAR domain: its sorted dictionary and the code of each value
// in the order the domain was listed.
struct Domain {
  std::shared_ptr<const Dictionary> dictionary;
  std::vector<uint32_t> codes;

  explicit Domain(const std::vector<std::string>& values) {
    std::shared_ptr<Dictionary> dict = sorted_dictionary(values);
    for (const auto& v : values) codes.push_back(dict->lower_bound(v));
    dictionary = std::move(dict);
  }
  template <std::size_t N>
  explicit Domain(const std::array<const char*, N>& values)
      : Domain(std::vector<std::string>(values.begin(), values.end())) {}
};

class TableBuilder {
 public:
  TableBuilder(const std::string& name, std::size_t rows, const std::vector<std::string>& wanted)
      : table_(std::make_shared<Table>()), wanted_(wanted) {
    table_->name = name;
    table_->rows = rows;
  }

  bool wants(const std::string& column) const {
    return wanted_.empty() || std::find(wanted_.begin(), wanted_.end(), column) != wanted_.end();
  }

  // An INTEGER column when wanted: where its values go; else nullptr.
  int32_t* integer(const std::string& column) {
    if (!wants(column)) return nullptr;
    return add(column, DataType::integer(), nullptr).values<int32_t>().data();
  }
  // A VARCHAR column over a fixed domain: where its codes go; else nullptr.
  uint32_t* varchar(const std::string& column, const Domain& domain) {
    if (!wants(column)) return nullptr;
    return add(column, DataType::varchar(), domain.dictionary).values<uint32_t>().data();
  }
  // A VARCHAR column of free text, made by text(row) when wanted.
  template <class Text>
  void free_text(const std::string& column, unsigned threads, Text text) {
    if (!wants(column)) return;
    std::vector<std::string> strings(table_->rows);
    parallel_for(strings.size(), threads, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) strings[i] = text(i);
    });
    std::shared_ptr<const Dictionary> dict = sorted_dictionary(strings);
    uint32_t* codes = add(column, DataType::varchar(), dict).values<uint32_t>().data();
    parallel_for(strings.size(), threads, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) codes[i] = dict->lower_bound(strings[i]);
    });
  }

  std::shared_ptr<Table> finish() { return std::move(table_); }

 private:
  HostColumn& add(const std::string& column, DataType type, std::shared_ptr<const Dictionary> dictionary) {
    table_->columns.push_back({column, type, true});
    table_->host.emplace_back(type, table_->rows);
    table_->host.back().dictionary = std::move(dictionary);
    return table_->host.back();
  }

  std::shared_ptr<Table> table_;
  const std::vector<std::string>& wanted_;
};

// Stores v at row i when the column is built.
template <class T, class V>
inline void put(T* column, std::size_t i, V v) {
  if (column) column[i] = static_cast<T>(v);
}

std::string random_text(Rng& rng, int min_length, int max_length) {
  static constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::string s(static_cast<std::size_t>(rng.uniform(min_length, max_length)), ' ');
  for (char& c : s) c = kAlphabet[static_cast<std::size_t>(rng.uniform(0, static_cast<int32_t>(kAlphabet.size()) - 1))];
  return s;
}

std::string phone(Rng& rng, int nation) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%02d-%03d-%03d-%04d", nation + 10, rng.uniform(100, 999), rng.uniform(100, 999),
                rng.uniform(1000, 9999));
  return buffer;
}

std::string keyed_name(const char* prefix, std::size_t key) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%s#%09zu", prefix, key);
  return buffer;
}

std::vector<std::string> nation_names() {
  std::vector<std::string> v;
  for (const auto& n : kNations) v.push_back(n.name);
  return v;
}
std::vector<std::string> city_names() {  // index nation * 10 + digit
  std::vector<std::string> v;
  for (int n = 0; n < 25; ++n)
    for (int d = 0; d < 10; ++d) v.push_back(city_name(n, d));
  return v;
}

// customer and supplier share their geography columns.
struct Geography {
  Domain cities{city_names()}, nations{nation_names()}, regions{kRegions};
};

std::shared_ptr<Table> make_customer(std::size_t rows, const GeneratorOptions& o, unsigned threads) {
  TableBuilder b("customer", rows, o.columns);
  Geography geo;
  Domain segments(kSegments);
  int32_t* key = b.integer("c_custkey");
  b.free_text("c_name", threads, [](std::size_t i) { return keyed_name("Customer", i + 1); });
  b.free_text("c_address", threads, [&](std::size_t i) {
    Rng rng(o.seed, Stream::CustomerText, i);
    return random_text(rng, 10, 25);
  });
  uint32_t* city = b.varchar("c_city", geo.cities);
  uint32_t* nation = b.varchar("c_nation", geo.nations);
  uint32_t* region = b.varchar("c_region", geo.regions);
  b.free_text("c_phone", threads, [&](std::size_t i) {
    Rng rng(o.seed, Stream::Customer, i);  // replays the row's draws below
    int n = rng.uniform(0, 24);
    rng.uniform(0, 9);
    rng.uniform(0, 4);
    return phone(rng, n);
  });
  uint32_t* segment = b.varchar("c_mktsegment", segments);
  parallel_for(rows, threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      Rng rng(o.seed, Stream::Customer, i);
      int n = rng.uniform(0, 24), digit = rng.uniform(0, 9), s = rng.uniform(0, 4);
      put(key, i, i + 1);
      put(city, i, geo.cities.codes[n * 10 + digit]);
      put(nation, i, geo.nations.codes[n]);
      put(region, i, geo.regions.codes[kNations[n].region]);
      put(segment, i, segments.codes[s]);
    }
  });
  return b.finish();
}

std::shared_ptr<Table> make_supplier(std::size_t rows, const GeneratorOptions& o, unsigned threads) {
  TableBuilder b("supplier", rows, o.columns);
  Geography geo;
  int32_t* key = b.integer("s_suppkey");
  b.free_text("s_name", threads, [](std::size_t i) { return keyed_name("Supplier", i + 1); });
  b.free_text("s_address", threads, [&](std::size_t i) {
    Rng rng(o.seed, Stream::SupplierText, i);
    return random_text(rng, 10, 25);
  });
  uint32_t* city = b.varchar("s_city", geo.cities);
  uint32_t* nation = b.varchar("s_nation", geo.nations);
  uint32_t* region = b.varchar("s_region", geo.regions);
  parallel_for(rows, threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      Rng rng(o.seed, Stream::Supplier, i);
      int n = rng.uniform(0, 24), digit = rng.uniform(0, 9);
      put(key, i, i + 1);
      put(city, i, geo.cities.codes[n * 10 + digit]);
      put(nation, i, geo.nations.codes[n]);
      put(region, i, geo.regions.codes[kNations[n].region]);
    }
  });
  b.free_text("s_phone", threads, [&](std::size_t i) {
    Rng rng(o.seed, Stream::Supplier, i);  // replays the row's draws above
    int n = rng.uniform(0, 24);
    rng.uniform(0, 9);
    return phone(rng, n);
  });
  return b.finish();
}

std::shared_ptr<Table> make_part(std::size_t rows, const GeneratorOptions& o, unsigned threads) {
  TableBuilder b("part", rows, o.columns);
  std::vector<std::string> mfgrs, categories, brands, types, containers;
  for (int m = 1; m <= 5; ++m) {
    mfgrs.push_back("MFGR#" + std::to_string(m));
    for (int c = 1; c <= 5; ++c) {
      categories.push_back("MFGR#" + std::to_string(m * 10 + c));
      for (int k = 1; k <= 40; ++k) brands.push_back("MFGR#" + std::to_string(m * 1000 + c * 100 + k));
    }
  }
  for (auto s : kTypeSize)
    for (auto f : kTypeFinish)
      for (auto m : kTypeMetal) types.push_back(std::string(s) + " " + f + " " + m);
  for (auto s : kContainerSize)
    for (auto k : kContainerKind) containers.push_back(std::string(s) + " " + k);
  Domain mfgr_d(mfgrs), category_d(categories), brand_d(brands), color_d(kColors), type_d(types),
      container_d(containers);

  int32_t* key = b.integer("p_partkey");
  b.free_text("p_name", threads, [&](std::size_t i) {
    Rng rng(o.seed, Stream::PartName, i);
    int first = rng.uniform(0, 91), second = rng.uniform(0, 90);
    if (second >= first) ++second;
    return std::string(kColors[first]) + " " + kColors[second];
  });
  uint32_t* mfgr = b.varchar("p_mfgr", mfgr_d);
  uint32_t* category = b.varchar("p_category", category_d);
  uint32_t* brand = b.varchar("p_brand1", brand_d);
  uint32_t* color = b.varchar("p_color", color_d);
  uint32_t* type = b.varchar("p_type", type_d);
  int32_t* size = b.integer("p_size");
  uint32_t* container = b.varchar("p_container", container_d);
  parallel_for(rows, threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      Rng rng(o.seed, Stream::Part, i);
      int m = rng.uniform(0, 4), c = rng.uniform(0, 4), k = rng.uniform(0, 39);
      put(key, i, i + 1);
      put(mfgr, i, mfgr_d.codes[m]);
      put(category, i, category_d.codes[m * 5 + c]);
      put(brand, i, brand_d.codes[(m * 5 + c) * 40 + k]);
      put(color, i, color_d.codes[rng.uniform(0, 91)]);
      put(type, i, type_d.codes[rng.uniform(0, 149)]);
      put(size, i, rng.uniform(1, 50));
      put(container, i, container_d.codes[rng.uniform(0, 39)]);
    }
  });
  return b.finish();
}

std::shared_ptr<Table> make_date(const GeneratorOptions& o, unsigned threads) {
  const std::size_t rows = kDateRows;
  TableBuilder b("date", rows, o.columns);
  struct Day {
    int64_t days;
    Civil civil;
    int weekday;  // 0 = Sunday
    int day_in_year;
    bool last_in_month;
  };
  std::vector<Day> days(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    Day& d = days[i];
    d.days = kFirstDay + static_cast<int64_t>(i);
    d.civil = civil_from_days(d.days);
    d.weekday = static_cast<int>(((d.days + 4) % 7 + 7) % 7);  // 1970-01-01 was a Thursday
    d.day_in_year = static_cast<int>(d.days - days_from_civil(d.civil.year, 1, 1)) + 1;
    d.last_in_month = civil_from_days(d.days + 1).month != d.civil.month;
  }
  auto season = [](const Civil& c) {
    if (c.month == 12) return "Christmas";
    if (c.month <= 2) return "Winter";
    if (c.month <= 5) return "Spring";
    if (c.month <= 8) return "Summer";
    return "Fall";
  };
  auto holiday = [](const Civil& c) {  // fixed-date holidays only
    return (c.month == 1 && c.day == 1) || (c.month == 7 && c.day == 4) ||
           (c.month == 12 && (c.day == 24 || c.day == 25 || c.day == 31));
  };

  int32_t* key = b.integer("d_datekey");
  b.free_text("d_date", threads, [&](std::size_t i) {
    const Civil& c = days[i].civil;
    return std::string(kMonths[c.month - 1]) + " " + std::to_string(c.day) + ", " + std::to_string(c.year);
  });
  b.free_text("d_dayofweek", threads, [&](std::size_t i) { return std::string(kWeekdays[days[i].weekday]); });
  b.free_text("d_month", threads, [&](std::size_t i) { return std::string(kMonths[days[i].civil.month - 1]); });
  int32_t* year = b.integer("d_year");
  int32_t* yearmonthnum = b.integer("d_yearmonthnum");
  b.free_text("d_yearmonth", threads, [&](std::size_t i) {
    const Civil& c = days[i].civil;
    return std::string(kMonths[c.month - 1]).substr(0, 3) + std::to_string(c.year);
  });
  int32_t* daynuminweek = b.integer("d_daynuminweek");
  int32_t* daynuminmonth = b.integer("d_daynuminmonth");
  int32_t* daynuminyear = b.integer("d_daynuminyear");
  int32_t* monthnuminyear = b.integer("d_monthnuminyear");
  int32_t* weeknuminyear = b.integer("d_weeknuminyear");
  b.free_text("d_sellingseason", threads, [&](std::size_t i) { return std::string(season(days[i].civil)); });
  int32_t* lastdayinweekfl = b.integer("d_lastdayinweekfl");
  int32_t* lastdayinmonthfl = b.integer("d_lastdayinmonthfl");
  int32_t* holidayfl = b.integer("d_holidayfl");
  int32_t* weekdayfl = b.integer("d_weekdayfl");
  for (std::size_t i = 0; i < rows; ++i) {
    const Day& d = days[i];
    put(key, i, datekey(d.days));
    put(year, i, d.civil.year);
    put(yearmonthnum, i, d.civil.year * 100 + static_cast<int>(d.civil.month));
    put(daynuminweek, i, d.weekday + 1);
    put(daynuminmonth, i, d.civil.day);
    put(daynuminyear, i, d.day_in_year);
    put(monthnuminyear, i, d.civil.month);
    // dbgen's week number: days 1-6 are week 1, then every 7 days (so Q1.3's
    // week 6 of 1994 is 1994-02-04 .. 1994-02-10).
    put(weeknuminyear, i, d.day_in_year / 7 + 1);
    put(lastdayinweekfl, i, d.weekday == 6);
    put(lastdayinmonthfl, i, d.last_in_month);
    put(holidayfl, i, holiday(d.civil));
    put(weekdayfl, i, d.weekday >= 1 && d.weekday <= 5);
  }
  return b.finish();
}

std::shared_ptr<Table> make_lineorder(const Cardinalities& n, const GeneratorOptions& o, unsigned threads) {
  // Pass 1: lines per order, and where each order's lines start.
  std::vector<uint32_t> start(n.orders + 1);
  parallel_for(n.orders, threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      start[i + 1] = static_cast<uint32_t>(Rng(o.seed, Stream::OrderLines, i).uniform(1, 7));
  });
  for (std::size_t i = 0; i < n.orders; ++i) start[i + 1] += start[i];
  const std::size_t rows = start[n.orders];

  TableBuilder b("lineorder", rows, o.columns);
  Domain priorities(kPriorities), ship_priorities(std::vector<std::string>{"0"}), ship_modes(kShipModes);
  int32_t* orderkey = b.integer("lo_orderkey");
  int32_t* linenumber = b.integer("lo_linenumber");
  int32_t* custkey = b.integer("lo_custkey");
  int32_t* partkey = b.integer("lo_partkey");
  int32_t* suppkey = b.integer("lo_suppkey");
  int32_t* orderdate = b.integer("lo_orderdate");
  uint32_t* orderpriority = b.varchar("lo_orderpriority", priorities);
  uint32_t* shippriority = b.varchar("lo_shippriority", ship_priorities);
  int32_t* quantity = b.integer("lo_quantity");
  int32_t* extendedprice = b.integer("lo_extendedprice");
  int32_t* ordtotalprice = b.integer("lo_ordtotalprice");
  int32_t* discount = b.integer("lo_discount");
  int32_t* revenue = b.integer("lo_revenue");
  int32_t* supplycost = b.integer("lo_supplycost");
  int32_t* tax = b.integer("lo_tax");
  int32_t* commitdate = b.integer("lo_commitdate");
  uint32_t* shipmode = b.varchar("lo_shipmode", ship_modes);

  std::vector<int32_t> datekeys(kDateRows);
  for (std::size_t d = 0; d < kDateRows; ++d) datekeys[d] = datekey(kFirstDay + static_cast<int64_t>(d));

  struct Line {
    int32_t partkey, suppkey, quantity, discount, tax, extendedprice, revenue, supplycost, commit_day, shipmode;
  };
  // Pass 2: every order's lines, in parallel over orders.
  parallel_for(n.orders, threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t order = begin; order < end; ++order) {
      Rng rng(o.seed, Stream::Order, order);
      const int32_t customer = rng.uniform(1, static_cast<int32_t>(n.customer));
      const int32_t order_day = rng.uniform(0, kLastOrderDay);
      const int32_t priority = rng.uniform(0, 4);
      const uint32_t first = start[order], count = start[order + 1] - first;
      std::array<Line, 7> lines;
      int64_t total = 0;
      for (uint32_t l = 0; l < count; ++l) {
        Line& x = lines[l];
        x.partkey = rng.uniform(1, static_cast<int32_t>(n.part));
        x.suppkey = rng.uniform(1, static_cast<int32_t>(n.supplier));
        x.quantity = rng.uniform(1, 50);
        x.discount = rng.uniform(0, 10);
        x.tax = rng.uniform(0, 8);
        x.commit_day = order_day + rng.uniform(30, 90);
        x.shipmode = rng.uniform(0, 6);
        const int32_t price = retail_price(x.partkey);
        x.extendedprice = x.quantity * price;
        x.revenue = static_cast<int32_t>(static_cast<int64_t>(x.extendedprice) * (100 - x.discount) / 100);
        x.supplycost = 6 * price / 10;
        total += static_cast<int64_t>(x.revenue) * (100 + x.tax) / 100;
      }
      for (uint32_t l = 0; l < count; ++l) {
        const Line& x = lines[l];
        const std::size_t i = first + l;
        put(orderkey, i, order + 1);
        put(linenumber, i, l + 1);
        put(custkey, i, customer);
        put(partkey, i, x.partkey);
        put(suppkey, i, x.suppkey);
        put(orderdate, i, datekeys[order_day]);
        put(orderpriority, i, priorities.codes[priority]);
        put(shippriority, i, ship_priorities.codes[0]);
        put(quantity, i, x.quantity);
        put(extendedprice, i, x.extendedprice);
        put(ordtotalprice, i, total);
        put(discount, i, x.discount);
        put(revenue, i, x.revenue);
        put(supplycost, i, x.supplycost);
        put(tax, i, x.tax);
        put(commitdate, i, datekeys[x.commit_day]);
        put(shipmode, i, ship_modes.codes[x.shipmode]);
      }
    }
  });
  return b.finish();
}

}  // namespace

Cardinalities cardinalities(double sf) {
  if (!(sf > 0)) throw std::invalid_argument("SSB scale factor must be > 0");
  auto scaled = [sf](double base) { return static_cast<std::size_t>(std::max<long long>(1, std::llround(base * sf))); };
  Cardinalities c;
  c.orders = scaled(1'500'000);
  c.customer = scaled(30'000);
  c.supplier = scaled(2'000);
  c.part = sf >= 1 ? 200'000 * (1 + static_cast<std::size_t>(std::floor(std::log2(sf)))) : scaled(200'000);
  c.date = kDateRows;
  // Keys are INTEGER and row positions 32-bit: lineorder has at most 7 lines an order.
  if (c.orders * 7 > static_cast<std::size_t>(INT32_MAX))
    throw std::invalid_argument("SSB scale factor too large for 32-bit keys (at most ~200)");
  return c;
}

std::vector<std::shared_ptr<Table>> generate(const GeneratorOptions& options) {
  const Cardinalities n = cardinalities(options.scale_factor);
  const unsigned threads = thread_count(options.threads);
  return {make_lineorder(n, options, threads), make_customer(n.customer, options, threads),
          make_supplier(n.supplier, options, threads), make_part(n.part, options, threads),
          make_date(options, threads)};
}

const std::vector<std::string>& column_names(const std::string& table) {
  static const std::vector<std::string> lineorder = {
      "lo_orderkey",      "lo_linenumber",   "lo_custkey",  "lo_partkey",       "lo_suppkey",       "lo_orderdate",
      "lo_orderpriority", "lo_shippriority", "lo_quantity", "lo_extendedprice", "lo_ordtotalprice", "lo_discount",
      "lo_revenue",       "lo_supplycost",   "lo_tax",      "lo_commitdate",    "lo_shipmode"};
  static const std::vector<std::string> customer = {"c_custkey", "c_name",   "c_address", "c_city",
                                                    "c_nation",  "c_region", "c_phone",   "c_mktsegment"};
  static const std::vector<std::string> supplier = {"s_suppkey", "s_name",   "s_address", "s_city",
                                                    "s_nation",  "s_region", "s_phone"};
  static const std::vector<std::string> part = {"p_partkey", "p_name", "p_mfgr", "p_category", "p_brand1",
                                                "p_color",   "p_type", "p_size", "p_container"};
  static const std::vector<std::string> date = {
      "d_datekey",        "d_date",          "d_dayofweek",     "d_month",           "d_year",
      "d_yearmonthnum",   "d_yearmonth",     "d_daynuminweek",  "d_daynuminmonth",   "d_daynuminyear",
      "d_monthnuminyear", "d_weeknuminyear", "d_sellingseason", "d_lastdayinweekfl", "d_lastdayinmonthfl",
      "d_holidayfl",      "d_weekdayfl"};
  if (table == "lineorder") return lineorder;
  if (table == "customer") return customer;
  if (table == "supplier") return supplier;
  if (table == "part") return part;
  if (table == "date") return date;
  throw std::invalid_argument("not an SSB table: " + table);
}

void write_text(const Table& table, const std::string& path, const TextFormat& format, unsigned threads) {
  threads = thread_count(threads);
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + path);
  for (const auto& column : table.columns)
    if (column.type.id != Type::Integer && column.type.id != Type::Varchar)
      throw std::runtime_error("write_text: column " + column.name + " is neither INTEGER nor VARCHAR");
  if (format.header) {
    std::string line;
    for (std::size_t c = 0; c < table.columns.size(); ++c)
      line += (c ? std::string(1, format.delimiter) : "") + table.columns[c].name;
    if (format.trailing_delimiter) line += format.delimiter;
    out << line << '\n';
  }
  auto format_rows = [&](std::size_t begin, std::size_t end, std::string& text) {
    char number[16];
    for (std::size_t r = begin; r < end; ++r) {
      for (std::size_t c = 0; c < table.columns.size(); ++c) {
        const HostColumn& column = table.host[c];
        if (c) text += format.delimiter;
        if (column.type.id == Type::Integer) {
          auto [end_ptr, ec] = std::to_chars(number, number + sizeof number, column.values<int32_t>()[r]);
          text.append(number, end_ptr);
        } else {
          text += column.dictionary->values[column.values<uint32_t>()[r]];
        }
      }
      if (format.trailing_delimiter) text += format.delimiter;
      text += '\n';
    }
  };
  constexpr std::size_t kChunk = 1 << 18;
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

}  // namespace gpusql::ssb
