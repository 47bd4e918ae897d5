#include "bench/tpch/tpch_generator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "bench/tpch/tpch_dictionary_encode.hpp"
#include "bench/tpch/tpch_random.hpp"
#include "bench/tpch/tpch_text_pool.hpp"
#include "storage/value_text.hpp"

namespace gpusql::tpch {
namespace {

using detail::parallel_for;
using detail::Rng;
using detail::Stream;
using detail::TextPool;

// ---------------------------------------------------------------------------
// The specification's value domains (clause 4.2.2.13 and 4.2.3).

struct Nation {
  const char* name;
  int region;
};
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
constexpr std::array<const char*, 4> kInstructions = {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"};
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
constexpr std::array<const char*, 6> kTypeSize = {"STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"};
constexpr std::array<const char*, 5> kTypeFinish = {"ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"};
constexpr std::array<const char*, 5> kTypeMetal = {"TIN", "NICKEL", "BRASS", "STEEL", "COPPER"};
constexpr std::array<const char*, 5> kContainerSize = {"SM", "LG", "MED", "JUMBO", "WRAP"};
constexpr std::array<const char*, 8> kContainerKind = {"CASE", "BOX", "BAG", "JAR", "PKG", "PACK", "CAN", "DRUM"};
constexpr int kPartNameWords = 5;

// Average lengths of dbgen's TEXT columns (each 0.4x..1.6x of it).
constexpr int kPartCommentLength = 14, kSupplierCommentLength = 63, kPartSuppCommentLength = 124,
              kCustomerCommentLength = 73, kOrderCommentLength = 49, kLineCommentLength = 27,
              kNationCommentLength = 72, kRegionCommentLength = 72;

// Dates: orders from 1992-01-01 up to 151 days (121 to ship, 30 to receive)
// before 1998-12-31; "now" for the return flag and line status.
constexpr int32_t kStartDate = static_cast<int32_t>(days_from_civil(1992, 1, 1));
constexpr int32_t kLastOrderDate = static_cast<int32_t>(days_from_civil(1998, 8, 2));
constexpr int32_t kCurrentDate = static_cast<int32_t>(days_from_civil(1995, 6, 17));

constexpr int64_t kMinAccountBalance = -99'999, kMaxAccountBalance = 999'999;  // cents

// dbgen's retail price of a part, in cents: 900.00 .. 2098.99.
int64_t retail_price(int64_t partkey) { return 90000 + (partkey / 10) % 20001 + 100 * (partkey % 1000); }

// The i-th (0..3) supplier of a part: dbgen's PART_SUPP_BRIDGE.
int64_t part_supplier(int64_t partkey, int64_t i, int64_t suppliers) {
  return (partkey + i * (suppliers / 4 + (partkey - 1) / suppliers)) % suppliers + 1;
}

// dbgen's sparse order keys: of every 32 keys the first 8 (index from 1).
int64_t sparse_order_key(int64_t index) { return ((index >> 3) << 5) | (index & 7); }

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

// One table's wanted columns, created up front in the specification's order.
class TableBuilder {
 public:
  TableBuilder(const std::string& name, std::size_t rows, const std::vector<std::string>& wanted)
      : table_(std::make_shared<Table>()) {
    table_->name = name;
    table_->rows = rows;
    for (const auto& column : columns(name)) {
      if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), column.name) == wanted.end()) continue;
      table_->columns.push_back({column.name, column.type, true});
      table_->host.emplace_back(column.type, rows);
    }
  }

  // Where column `name`'s values go (int32_t for INTEGER and DATE, int64_t
  // for DECIMAL), or nullptr when it is not built.
  template <class T>
  T* values(const std::string& name) {
    HostColumn* c = find(name);
    return c ? c->values<T>().data() : nullptr;
  }
  // A VARCHAR column over a fixed domain: where its codes go, or nullptr.
  uint32_t* codes(const std::string& name, const Domain& domain) {
    HostColumn* c = find(name);
    if (!c) return nullptr;
    c->dictionary = domain.dictionary;
    return c->values<uint32_t>().data();
  }
  // A VARCHAR column of free text, made by text(row) when it is built.
  template <class Text>
  void free_text(const std::string& name, unsigned threads, Text text) {
    HostColumn* c = find(name);
    if (!c) return;
    std::vector<std::string> strings(table_->rows);
    parallel_for(strings.size(), threads, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) strings[i] = text(i);
    });
    c->dictionary = detail::dictionary_encode(strings, c->values<uint32_t>().data(), threads);
  }

  bool wants(const std::string& name) const { return table_->find_column(name) >= 0; }
  std::shared_ptr<Table> finish() { return std::move(table_); }

 private:
  HostColumn* find(const std::string& name) {
    int c = table_->find_column(name);
    return c < 0 ? nullptr : &table_->host[static_cast<std::size_t>(c)];
  }
  std::shared_ptr<Table> table_;
};

// Stores v at row i when the column is built.
template <class T, class V>
inline void put(T* column, std::size_t i, V v) {
  if (column) column[i] = static_cast<T>(v);
}

std::vector<std::string> numbered(const char* prefix, std::size_t count) {
  std::vector<std::string> names;
  for (std::size_t k = 1; k <= count; ++k) names.push_back(prefix + std::to_string(k));
  return names;
}

std::string keyed_name(const char* prefix, std::size_t key) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%s#%09zu", prefix, key);
  return buffer;
}

// dbgen's V_STR: 10..40 characters of its alphabet.
std::string address(Rng& rng) {
  static constexpr std::string_view kAlphabet = "0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,";
  std::string s(static_cast<std::size_t>(rng.uniform(10, 40)), ' ');
  for (char& c : s) c = kAlphabet[static_cast<std::size_t>(rng.uniform(0, kAlphabet.size() - 1))];
  return s;
}

// The draws of one customer or supplier row, shared by its numeric columns
// and its phone.
struct Party {
  int nation;
  int64_t account_balance;
  int64_t segment;
  int phone[3];

  explicit Party(Rng rng) {
    nation = static_cast<int>(rng.uniform(0, 24));
    account_balance = rng.uniform(kMinAccountBalance, kMaxAccountBalance);
    segment = rng.uniform(0, static_cast<int64_t>(kSegments.size()) - 1);
    phone[0] = static_cast<int>(rng.uniform(100, 999));
    phone[1] = static_cast<int>(rng.uniform(100, 999));
    phone[2] = static_cast<int>(rng.uniform(1000, 9999));
  }
  std::string phone_text() const {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%02d-%03d-%03d-%04d", nation + 10, phone[0], phone[1], phone[2]);
    return buffer;
  }
};

struct Context {
  const GeneratorOptions& options;
  const Cardinalities& n;
  unsigned threads;
  const TextPool* pool;  // null when no comment column is built

  // A comment of `average_length` for row `row`, from its own stream.
  std::string comment(Stream stream, std::size_t row, int average_length) const {
    Rng rng(options.seed, stream, row);
    return pool->comment(rng, average_length);
  }
};

// ---------------------------------------------------------------------------
// The tables.

std::shared_ptr<Table> make_part(const Context& x) {
  const std::size_t rows = x.n.part;
  TableBuilder b("part", rows, x.options.columns);
  std::vector<std::string> types, containers;
  for (auto s : kTypeSize)
    for (auto f : kTypeFinish)
      for (auto m : kTypeMetal) types.push_back(std::string(s) + " " + f + " " + m);
  for (auto s : kContainerSize)
    for (auto k : kContainerKind) containers.push_back(std::string(s) + " " + k);
  std::vector<std::string> brands;
  for (int m = 1; m <= 5; ++m)
    for (int k = 1; k <= 5; ++k) brands.push_back("Brand#" + std::to_string(m * 10 + k));
  Domain mfgr_d(numbered("Manufacturer#", 5)), brand_d(brands), type_d(types), container_d(containers);

  int32_t* key = b.values<int32_t>("p_partkey");
  uint32_t* mfgr = b.codes("p_mfgr", mfgr_d);
  uint32_t* brand = b.codes("p_brand", brand_d);
  uint32_t* type = b.codes("p_type", type_d);
  int32_t* size = b.values<int32_t>("p_size");
  uint32_t* container = b.codes("p_container", container_d);
  int64_t* price = b.values<int64_t>("p_retailprice");
  parallel_for(rows, x.threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      Rng rng(x.options.seed, Stream::Part, i);
      const int64_t m = rng.uniform(0, 4), k = rng.uniform(0, 4);
      put(key, i, i + 1);
      put(mfgr, i, mfgr_d.codes[m]);
      put(brand, i, brand_d.codes[m * 5 + k]);
      put(type, i, type_d.codes[rng.uniform(0, 149)]);
      put(size, i, rng.uniform(1, 50));
      put(container, i, container_d.codes[rng.uniform(0, 39)]);
      put(price, i, retail_price(static_cast<int64_t>(i) + 1));
    }
  });
  b.free_text("p_name", x.threads, [&](std::size_t i) {
    // Five distinct colours: the first steps of a Fisher-Yates shuffle.
    Rng rng(x.options.seed, Stream::PartName, i);
    std::array<uint8_t, kColors.size()> order;
    for (std::size_t c = 0; c < order.size(); ++c) order[c] = static_cast<uint8_t>(c);
    std::string name;
    for (int w = 0; w < kPartNameWords; ++w) {
      std::swap(order[w], order[rng.uniform(w, kColors.size() - 1)]);
      name += (w ? " " : "") + std::string(kColors[order[w]]);
    }
    return name;
  });
  b.free_text("p_comment", x.threads,
              [&](std::size_t i) { return x.comment(Stream::PartComment, i, kPartCommentLength); });
  return b.finish();
}

// Which suppliers' comments carry the Better Business Bureau's remarks: 0
// none, 1 "Customer ... Complaints", 2 "Customer ... Recommends".
std::vector<uint8_t> supplier_remarks(const Context& x) {
  const std::size_t suppliers = x.n.supplier;
  std::vector<uint8_t> remark(suppliers, 0);
  const std::size_t each =
      std::min<std::size_t>(suppliers / 2, std::max<long long>(1, std::llround(5 * x.options.scale_factor)));
  for (std::size_t k = 0; k < 2 * each; ++k) {
    std::size_t at = static_cast<std::size_t>(
        Rng(x.options.seed, Stream::SupplierRemarks, k).uniform(0, static_cast<int64_t>(suppliers) - 1));
    while (remark[at]) at = (at + 1) % suppliers;
    remark[at] = k < each ? 1 : 2;
  }
  return remark;
}

std::shared_ptr<Table> make_supplier(const Context& x) {
  const std::size_t rows = x.n.supplier;
  TableBuilder b("supplier", rows, x.options.columns);
  int32_t* key = b.values<int32_t>("s_suppkey");
  int32_t* nation = b.values<int32_t>("s_nationkey");
  int64_t* balance = b.values<int64_t>("s_acctbal");
  parallel_for(rows, x.threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      Party p(Rng(x.options.seed, Stream::Supplier, i));
      put(key, i, i + 1);
      put(nation, i, p.nation);
      put(balance, i, p.account_balance);
    }
  });
  b.free_text("s_name", x.threads, [](std::size_t i) { return keyed_name("Supplier", i + 1); });
  b.free_text("s_address", x.threads, [&](std::size_t i) {
    Rng rng(x.options.seed, Stream::SupplierAddress, i);
    return address(rng);
  });
  b.free_text("s_phone", x.threads,
              [&](std::size_t i) { return Party(Rng(x.options.seed, Stream::Supplier, i)).phone_text(); });
  if (b.wants("s_comment")) {
    const std::vector<uint8_t> remarks = supplier_remarks(x);
    b.free_text("s_comment", x.threads, [&](std::size_t i) {
      Rng rng(x.options.seed, Stream::SupplierComment, i);
      std::string comment = x.pool->comment(rng, kSupplierCommentLength);
      if (!remarks[i]) return comment;
      // As dbgen: "Customer " at a random offset, then `noise` characters of
      // the comment, then "Complaints" or "Recommends", over the comment's text.
      constexpr std::string_view kBase = "Customer ";
      const std::string_view kind = remarks[i] == 1 ? "Complaints" : "Recommends";
      const int64_t length = static_cast<int64_t>(comment.size()), needed = kBase.size() + kind.size();
      const int64_t noise = rng.uniform(0, length - needed);
      const int64_t offset = rng.uniform(0, length - needed - noise);
      comment.replace(static_cast<std::size_t>(offset), kBase.size(), kBase);
      comment.replace(static_cast<std::size_t>(offset) + kBase.size() + static_cast<std::size_t>(noise), kind.size(),
                      kind);
      return comment;
    });
  }
  return b.finish();
}

std::shared_ptr<Table> make_partsupp(const Context& x) {
  const std::size_t rows = x.n.partsupp;
  TableBuilder b("partsupp", rows, x.options.columns);
  int32_t* partkey = b.values<int32_t>("ps_partkey");
  int32_t* suppkey = b.values<int32_t>("ps_suppkey");
  int32_t* available = b.values<int32_t>("ps_availqty");
  int64_t* cost = b.values<int64_t>("ps_supplycost");
  const auto suppliers = static_cast<int64_t>(x.n.supplier);
  parallel_for(rows, x.threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) {
      Rng rng(x.options.seed, Stream::PartSupp, r);
      const auto part = static_cast<int64_t>(r / 4) + 1;
      put(partkey, r, part);
      put(suppkey, r, part_supplier(part, static_cast<int64_t>(r % 4), suppliers));
      put(available, r, rng.uniform(1, 9999));
      put(cost, r, rng.uniform(100, 100000));
    }
  });
  b.free_text("ps_comment", x.threads,
              [&](std::size_t r) { return x.comment(Stream::PartSuppComment, r, kPartSuppCommentLength); });
  return b.finish();
}

std::shared_ptr<Table> make_customer(const Context& x) {
  const std::size_t rows = x.n.customer;
  TableBuilder b("customer", rows, x.options.columns);
  Domain segments(kSegments);
  int32_t* key = b.values<int32_t>("c_custkey");
  int32_t* nation = b.values<int32_t>("c_nationkey");
  int64_t* balance = b.values<int64_t>("c_acctbal");
  uint32_t* segment = b.codes("c_mktsegment", segments);
  parallel_for(rows, x.threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      Party p(Rng(x.options.seed, Stream::Customer, i));
      put(key, i, i + 1);
      put(nation, i, p.nation);
      put(balance, i, p.account_balance);
      put(segment, i, segments.codes[p.segment]);
    }
  });
  b.free_text("c_name", x.threads, [](std::size_t i) { return keyed_name("Customer", i + 1); });
  b.free_text("c_address", x.threads, [&](std::size_t i) {
    Rng rng(x.options.seed, Stream::CustomerAddress, i);
    return address(rng);
  });
  b.free_text("c_phone", x.threads,
              [&](std::size_t i) { return Party(Rng(x.options.seed, Stream::Customer, i)).phone_text(); });
  b.free_text("c_comment", x.threads,
              [&](std::size_t i) { return x.comment(Stream::CustomerComment, i, kCustomerCommentLength); });
  return b.finish();
}

// orders and lineitem together: an order's status and total price come
// from its lines, its lines' dates from its date.
std::vector<std::shared_ptr<Table>> make_orders_and_lineitem(const Context& x) {
  const Cardinalities& n = x.n;
  const GeneratorOptions& o = x.options;
  // Pass 1: lines per order, and where each order's lines start.
  std::vector<uint32_t> start(n.orders + 1);
  parallel_for(n.orders, x.threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      start[i + 1] = static_cast<uint32_t>(Rng(o.seed, Stream::OrderLines, i).uniform(1, 7));
  });
  for (std::size_t i = 0; i < n.orders; ++i) start[i + 1] += start[i];
  const std::size_t lines = start[n.orders];

  const std::size_t clerks = std::max<std::size_t>(1000, static_cast<std::size_t>(std::llround(1000 * o.scale_factor)));
  std::vector<std::string> clerk_names;
  for (std::size_t k = 1; k <= clerks; ++k) clerk_names.push_back(keyed_name("Clerk", k));
  Domain statuses(std::vector<std::string>{"F", "O", "P"}), priorities(kPriorities), clerk_d(clerk_names);
  Domain flags(std::vector<std::string>{"R", "A", "N"}), line_statuses(std::vector<std::string>{"O", "F"}),
      instructions(kInstructions), modes(kShipModes);

  TableBuilder ob("orders", n.orders, o.columns);
  int32_t* orderkey = ob.values<int32_t>("o_orderkey");
  int32_t* custkey = ob.values<int32_t>("o_custkey");
  uint32_t* orderstatus = ob.codes("o_orderstatus", statuses);
  int64_t* totalprice = ob.values<int64_t>("o_totalprice");
  int32_t* orderdate = ob.values<int32_t>("o_orderdate");
  uint32_t* orderpriority = ob.codes("o_orderpriority", priorities);
  uint32_t* clerk = ob.codes("o_clerk", clerk_d);
  int32_t* shippriority = ob.values<int32_t>("o_shippriority");

  TableBuilder lb("lineitem", lines, o.columns);
  int32_t* l_orderkey = lb.values<int32_t>("l_orderkey");
  int32_t* l_partkey = lb.values<int32_t>("l_partkey");
  int32_t* l_suppkey = lb.values<int32_t>("l_suppkey");
  int32_t* l_linenumber = lb.values<int32_t>("l_linenumber");
  int64_t* l_quantity = lb.values<int64_t>("l_quantity");
  int64_t* l_extendedprice = lb.values<int64_t>("l_extendedprice");
  int64_t* l_discount = lb.values<int64_t>("l_discount");
  int64_t* l_tax = lb.values<int64_t>("l_tax");
  uint32_t* l_returnflag = lb.codes("l_returnflag", flags);
  uint32_t* l_linestatus = lb.codes("l_linestatus", line_statuses);
  int32_t* l_shipdate = lb.values<int32_t>("l_shipdate");
  int32_t* l_commitdate = lb.values<int32_t>("l_commitdate");
  int32_t* l_receiptdate = lb.values<int32_t>("l_receiptdate");
  uint32_t* l_shipinstruct = lb.codes("l_shipinstruct", instructions);
  uint32_t* l_shipmode = lb.codes("l_shipmode", modes);

  const auto customers = static_cast<int64_t>(n.customer), parts = static_cast<int64_t>(n.part),
             suppliers = static_cast<int64_t>(n.supplier);
  // Pass 2: every order with its lines, in parallel over orders.
  parallel_for(n.orders, x.threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      Rng rng(o.seed, Stream::Order, i);
      const int64_t key = sparse_order_key(static_cast<int64_t>(i) + 1);
      // dbgen moves a multiple of 3 to a neighbour, alternately up and down.
      int64_t customer = rng.uniform(1, customers);
      for (int64_t delta = 1; customer % 3 == 0; delta = -delta) customer = std::min(customer + delta, customers);
      const int32_t date = static_cast<int32_t>(rng.uniform(kStartDate, kLastOrderDate));
      const int64_t priority = rng.uniform(0, 4);
      const int64_t clerk_number = rng.uniform(1, static_cast<int64_t>(clerks));
      int64_t total = 0;
      int shipped = 0;  // lines with status 'F'
      const uint32_t first = start[i], count = start[i + 1] - first;
      for (uint32_t l = 0; l < count; ++l) {
        const std::size_t row = first + l;
        const int64_t part = rng.uniform(1, parts);
        const int64_t supplier = part_supplier(part, rng.uniform(0, 3), suppliers);
        const int64_t quantity = rng.uniform(1, 50), discount = rng.uniform(0, 10), tax = rng.uniform(0, 8);
        const int64_t instruction = rng.uniform(0, 3), mode = rng.uniform(0, 6);
        const int32_t ship = date + static_cast<int32_t>(rng.uniform(1, 121));
        const int32_t commit = date + static_cast<int32_t>(rng.uniform(30, 90));
        const int32_t receipt = ship + static_cast<int32_t>(rng.uniform(1, 30));
        const int64_t returned = rng.uniform(0, 1);  // 'R' or 'A', when received by now
        const int64_t price = quantity * retail_price(part);
        total += price * (100 - discount) / 100 * (100 + tax) / 100;
        const bool open = ship > kCurrentDate;
        shipped += !open;
        put(l_orderkey, row, key);
        put(l_partkey, row, part);
        put(l_suppkey, row, supplier);
        put(l_linenumber, row, l + 1);
        put(l_quantity, row, quantity * 100);
        put(l_extendedprice, row, price);
        put(l_discount, row, discount);
        put(l_tax, row, tax);
        put(l_returnflag, row, flags.codes[receipt <= kCurrentDate ? returned : 2]);
        put(l_linestatus, row, line_statuses.codes[open ? 0 : 1]);
        put(l_shipdate, row, ship);
        put(l_commitdate, row, commit);
        put(l_receiptdate, row, receipt);
        put(l_shipinstruct, row, instructions.codes[instruction]);
        put(l_shipmode, row, modes.codes[mode]);
      }
      put(orderkey, i, key);
      put(custkey, i, customer);
      put(orderstatus, i, statuses.codes[shipped == static_cast<int>(count) ? 0 : shipped == 0 ? 1 : 2]);
      put(totalprice, i, total);
      put(orderdate, i, date);
      put(orderpriority, i, priorities.codes[priority]);
      put(clerk, i, clerk_d.codes[clerk_number - 1]);
      put(shippriority, i, 0);
    }
  });
  ob.free_text("o_comment", x.threads,
               [&](std::size_t i) { return x.comment(Stream::OrderComment, i, kOrderCommentLength); });
  lb.free_text("l_comment", x.threads,
               [&](std::size_t r) { return x.comment(Stream::LineComment, r, kLineCommentLength); });
  return {ob.finish(), lb.finish()};
}

std::shared_ptr<Table> make_nation(const Context& x) {
  TableBuilder b("nation", kNations.size(), x.options.columns);
  std::vector<std::string> names;
  for (const auto& nation : kNations) names.push_back(nation.name);
  Domain name_d(names);
  int32_t* key = b.values<int32_t>("n_nationkey");
  uint32_t* name = b.codes("n_name", name_d);
  int32_t* region = b.values<int32_t>("n_regionkey");
  for (std::size_t i = 0; i < kNations.size(); ++i) {
    put(key, i, i);
    put(name, i, name_d.codes[i]);
    put(region, i, kNations[i].region);
  }
  b.free_text("n_comment", 1, [&](std::size_t i) { return x.comment(Stream::NationComment, i, kNationCommentLength); });
  return b.finish();
}

std::shared_ptr<Table> make_region(const Context& x) {
  TableBuilder b("region", kRegions.size(), x.options.columns);
  Domain name_d(kRegions);
  int32_t* key = b.values<int32_t>("r_regionkey");
  uint32_t* name = b.codes("r_name", name_d);
  for (std::size_t i = 0; i < kRegions.size(); ++i) {
    put(key, i, i);
    put(name, i, name_d.codes[i]);
  }
  b.free_text("r_comment", 1, [&](std::size_t i) { return x.comment(Stream::RegionComment, i, kRegionCommentLength); });
  return b.finish();
}

}  // namespace

Cardinalities cardinalities(double sf) {
  if (!(sf > 0)) throw std::invalid_argument("TPC-H scale factor must be > 0");
  auto scaled = [sf](double base) { return static_cast<std::size_t>(std::max<long long>(1, std::llround(base * sf))); };
  Cardinalities c;
  c.part = scaled(200'000);
  c.supplier = scaled(10'000);
  c.partsupp = 4 * c.part;
  c.customer = scaled(150'000);
  c.orders = scaled(1'500'000);
  // Keys are INTEGER and row positions 32-bit: lineitem has at most 7 lines an order.
  if (!std::isfinite(sf) || sf > 1e6 || c.orders * 7 > static_cast<std::size_t>(INT32_MAX))
    throw std::invalid_argument("TPC-H scale factor too large for 32-bit keys (at most ~200)");
  return c;
}

std::vector<std::shared_ptr<Table>> generate(const GeneratorOptions& options) {
  const Cardinalities n = cardinalities(options.scale_factor);
  const unsigned threads = detail::thread_count(options.threads);
  // The comment pool only when some comment column is built.
  const bool comments =
      options.columns.empty() || std::any_of(options.columns.begin(), options.columns.end(), [](const std::string& c) {
        return c.size() > 8 && c.compare(c.size() - 8, 8, "_comment") == 0;
      });
  std::optional<TextPool> pool;
  if (comments) pool.emplace(options.seed, threads);
  const Context x{options, n, threads, pool ? &*pool : nullptr};
  auto orders_and_lineitem = make_orders_and_lineitem(x);
  return {make_part(x),
          make_supplier(x),
          make_partsupp(x),
          make_customer(x),
          std::move(orders_and_lineitem[0]),
          std::move(orders_and_lineitem[1]),
          make_nation(x),
          make_region(x)};
}

}  // namespace gpusql::tpch
