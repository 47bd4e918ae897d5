// The filter and aggregate kernels (kernels/filter.cu, kernels/aggregate.cu)
// against host references bit for bit: filter_rows must return exactly the
// ids evaluate_predicate() selects, in ascending order; aggregate_rows must
// return the states of the canonical reduction (reduce_sequence_host) with
// the same bits. Sizes around the tile (4096) and chunk (2048) edges, 0 and
// 1 rows, the four benchmark selectivities, NULLs, NaN and -0.0, row-id
// indirection (late materialization) and a selection vector; fast shapes and
// the interpreter both. Then the same through SQL: the CUDA executor's
// answers equal the host executor's.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "planner/bound_expression.hpp"
#include "planner/expression_compiler.hpp"
#include "kernels/aggregate.hpp"
#include "kernels/column_reduce.hpp"
#include "kernels/fast_predicate.cuh"
#include "kernels/filter.hpp"
#include "planner/bound_expression_builders.hpp"
#include "tests/test_support.hpp"

using namespace gpusql;
using namespace gpusql::test;

namespace {

// ---- expressions as the binder makes them ----

using build::column;
using build::int_constant;
using build::null_constant;
using build::real_constant;

// A comparison, AND or OR: BOOLEAN.
BoundExpr binary(Op op, BoundExpr a, BoundExpr b) {
  return build::binary(op, DataType::boolean(), std::move(a), std::move(b));
}

// ---- columns: host copies and device copies ----

// The columns of the tests, by slot (the compiler assigns slots in order of
// first use, so every program names its columns through `slots`):
// 0 i INTEGER in [0, 1000) with NULLs, 1 b BIGINT spread wide, 2 d DOUBLE in
// [0, 1) with NaN, -0.0, 0.0 and NULLs, 3 r REAL in [0, 1), 4 f BOOLEAN with
// NULLs, 5 e DOUBLE in [-1, 1) without NULLs, 6 j INTEGER in [0, 1000)
// with NULLs (compared with i: two columns in one term).
struct Columns {
  std::size_t rows = 0;
  std::vector<int32_t> i, j;
  std::vector<int64_t> b;
  std::vector<double> d, e;
  std::vector<float> r;
  std::vector<uint8_t> f;
  std::vector<uint32_t> i_valid, d_valid, f_valid, j_valid;
  std::vector<uint32_t> indirection;  // optional position -> row for every column

  explicit Columns(std::size_t n, uint64_t seed) : rows(n) {
    const std::size_t words = (n + 31) / 32 + 1;
    i_valid.assign(words, 0);
    d_valid.assign(words, 0);
    f_valid.assign(words, 0);
    j_valid.assign(words, 0);
    for (std::size_t k = 0; k < n; ++k) {
      uint64_t x = next_random(seed);
      i.push_back(static_cast<int32_t>(x % 1000));
      b.push_back(static_cast<int64_t>(next_random(seed)) >> 3);
      double u = static_cast<double>(next_random(seed) >> 11) / 9007199254740992.0;
      if (k % 37 == 5) u = std::numeric_limits<double>::quiet_NaN();
      if (k % 41 == 7) u = -0.0;
      if (k % 43 == 9) u = 0.0;
      d.push_back(u);
      r.push_back(static_cast<float>(next_random(seed) >> 40) / 16777216.0f);
      f.push_back(static_cast<uint8_t>(next_random(seed) % 3 == 0));
      e.push_back(static_cast<double>(next_random(seed) >> 11) / 4503599627370496.0 - 1.0);
      j.push_back(static_cast<int32_t>(next_random(seed) % 1000));
      auto set = [&](std::vector<uint32_t>& bits, bool valid) {
        if (valid) bits[k / 32] |= 1u << (k % 32);
      };
      set(i_valid, k % 13 != 3);
      set(d_valid, k % 17 != 4);
      set(f_valid, k % 11 != 2);
      set(j_valid, k % 7 != 1);
    }
  }

  // Host or device pointers to the same layout.
  ColumnSet set(const void* const data[7], const uint32_t* const validity[4], const uint32_t* rows) const {
    const Type types[7] = {Type::Integer, Type::BigInt, Type::Double, Type::Real,
                           Type::Boolean, Type::Double, Type::Integer};
    ColumnSet s;
    for (int c = 0; c < 7; ++c) {
      ColumnPointer& p = s.columns[s.count++];
      p.data = data[c];
      p.type = types[c];
      p.rows = rows;
      p.validity = c == 0   ? validity[0]
                   : c == 2 ? validity[1]
                   : c == 4 ? validity[2]
                   : c == 6 ? validity[3]
                            : nullptr;
    }
    return s;
  }
  ColumnSet host(bool indirect) const {
    const void* data[7] = {i.data(), b.data(), d.data(), r.data(), f.data(), e.data(), j.data()};
    const uint32_t* validity[4] = {i_valid.data(), d_valid.data(), f_valid.data(), j_valid.data()};
    return set(data, validity, indirect ? indirection.data() : nullptr);
  }
};

struct DeviceColumns {
  std::vector<DeviceBuffer> buffers;
  ColumnSet set;

  template <class T>
  const void* upload(DeviceContext& context, const std::vector<T>& host) {
    buffers.emplace_back(context, std::max<std::size_t>(1, host.size() * sizeof(T)));
    if (!host.empty())
      GPUSQL_CUDA_TRY(cudaMemcpy(buffers.back().data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    return buffers.back().data();
  }

  DeviceColumns(DeviceContext& context, const Columns& c, bool indirect) {
    buffers.reserve(16);
    const void* data[7] = {upload(context, c.i), upload(context, c.b), upload(context, c.d), upload(context, c.r),
                           upload(context, c.f), upload(context, c.e), upload(context, c.j)};
    const uint32_t* validity[4] = {static_cast<const uint32_t*>(upload(context, c.i_valid)),
                                   static_cast<const uint32_t*>(upload(context, c.d_valid)),
                                   static_cast<const uint32_t*>(upload(context, c.f_valid)),
                                   static_cast<const uint32_t*>(upload(context, c.j_valid))};
    const uint32_t* rows = indirect ? static_cast<const uint32_t*>(upload(context, c.indirection)) : nullptr;
    set = c.set(data, validity, rows);
  }
};

// A program whose slots are the columns' indexes above: slot_of() is asked
// for 0..6 first, so slot c is column c.
ExprProgram compile(const BoundExpr& e) {
  SlotMap slots;
  for (int c = 0; c < 7; ++c) slots.slot_of(c);
  return compile_expression(e, slots);
}

// The predicates of the tests, with the shape each must compile to.
struct Case {
  std::string name;
  BoundExpr predicate;
  bool fast;  // a shape make_fast_predicate() takes
  bool pairs = false;  // ... only where it takes terms comparing two columns (the filter does)
};

std::vector<Case> predicates() {
  std::vector<Case> cases;
  for (double s : {0.01, 0.10, 0.50, 0.90}) {
    cases.push_back({"d < " + std::to_string(s), binary(Op::Lt, column(2, DataType::double_()), real_constant(s)), true});
    cases.push_back({"r < " + std::to_string(s), binary(Op::Lt, column(3, DataType::real()), real_constant(s)), true});
    cases.push_back({"i < " + std::to_string(s * 1000),
                     binary(Op::Lt, column(0, DataType::integer()), int_constant(static_cast<int64_t>(s * 1000))), true});
  }
  cases.push_back({"d <> 0.5 (NaN passes)", binary(Op::Ne, column(2, DataType::double_()), real_constant(0.5)), true});
  cases.push_back({"d = 0.0 (and -0.0)", binary(Op::Eq, column(2, DataType::double_()), real_constant(0.0)), true});
  cases.push_back({"d >= -0.0", binary(Op::Ge, column(2, DataType::double_()), real_constant(-0.0)), true});
  cases.push_back({"d < NaN", binary(Op::Lt, column(2, DataType::double_()), real_constant(std::nan(""))), true});
  cases.push_back({"d <> NaN", binary(Op::Ne, column(2, DataType::double_()), real_constant(std::nan(""))), true});
  cases.push_back({"0.3 > e (mirrored)", binary(Op::Gt, real_constant(0.3), column(5, DataType::double_())), true});
  cases.push_back({"f (BOOLEAN column)", column(4, DataType::boolean()), true});
  cases.push_back({"i <= 500 AND e > -0.5 AND b >= 0",
                   binary(Op::And,
                          binary(Op::And, binary(Op::Le, column(0, DataType::integer()), int_constant(500)),
                                 binary(Op::Gt, column(5, DataType::double_()), real_constant(-0.5))),
                          binary(Op::Ge, column(1, DataType::bigint()), int_constant(0))),
                   true});
  cases.push_back({"i = 7 AND r < 0.9", binary(Op::And, binary(Op::Eq, column(0, DataType::integer()), int_constant(7)),
                                              binary(Op::Lt, column(3, DataType::real()), real_constant(0.9))),
                   true});
  cases.push_back({"i < NULL", binary(Op::Lt, column(0, DataType::integer()), null_constant(DataType::bigint())), true});
  cases.push_back({"b >= 0 (BIGINT)", binary(Op::Ge, column(1, DataType::bigint()), int_constant(0)), true});
  cases.push_back({"i < 800 AND d >= 0.2 (two columns with NULLs)",
                   binary(Op::And, binary(Op::Lt, column(0, DataType::integer()), int_constant(800)),
                          binary(Op::Ge, column(2, DataType::double_()), real_constant(0.2))),
                   true});
  cases.push_back({"f = 1 AND i < 500 AND r >= 0.25 (1-, 4- and 4-byte REAL columns)",
                   binary(Op::And,
                          binary(Op::And, binary(Op::Eq, column(4, DataType::boolean()), int_constant(1)),
                                 binary(Op::Lt, column(0, DataType::integer()), int_constant(500))),
                          binary(Op::Ge, column(3, DataType::real()), real_constant(0.25))),
                   true});
  cases.push_back({"r < 0.9 AND i < NULL",
                   binary(Op::And, binary(Op::Lt, column(3, DataType::real()), real_constant(0.9)),
                          binary(Op::Lt, column(0, DataType::integer()), null_constant(DataType::bigint()))),
                   true});
  {
    // kMaxTerms (8) terms, every column but f.
    const BoundExpr terms[] = {binary(Op::Ge, column(0, DataType::integer()), int_constant(10)),
                               binary(Op::Lt, column(0, DataType::integer()), int_constant(990)),
                               binary(Op::Gt, column(1, DataType::bigint()), int_constant(-(int64_t{1} << 59))),
                               binary(Op::Ge, column(2, DataType::double_()), real_constant(0.01)),
                               binary(Op::Lt, column(2, DataType::double_()), real_constant(0.99)),
                               binary(Op::Gt, column(3, DataType::real()), real_constant(0.05)),
                               binary(Op::Lt, column(5, DataType::double_()), real_constant(0.9)),
                               binary(Op::Gt, column(5, DataType::double_()), real_constant(-0.9))};
    BoundExpr all = terms[0];
    for (int t = 1; t < 8; ++t) all = binary(Op::And, all, terms[t]);
    cases.push_back({"8 terms on 5 columns", all, true});
  }
  // Columns of one width: the bitmask filter's shapes where no column has NULLs.
  cases.push_back({"b >= 0 AND d < 0.5 (BIGINT and DOUBLE, 8 bytes each)",
                   binary(Op::And, binary(Op::Ge, column(1, DataType::bigint()), int_constant(0)),
                          binary(Op::Lt, column(2, DataType::double_()), real_constant(0.5))),
                   true});
  cases.push_back({"(d < 0.1 OR e > 0.9) AND b < 0 (an OR clause of 8-byte columns)",
                   binary(Op::And,
                          binary(Op::Or, binary(Op::Lt, column(2, DataType::double_()), real_constant(0.1)),
                                 binary(Op::Gt, column(5, DataType::double_()), real_constant(0.9))),
                          binary(Op::Lt, column(1, DataType::bigint()), int_constant(0))),
                   true});
  cases.push_back({"r < 0.5 AND i > 100 AND i < 900 (REAL and INTEGER, 4 bytes each)",
                   binary(Op::And,
                          binary(Op::And, binary(Op::Lt, column(3, DataType::real()), real_constant(0.5)),
                                 binary(Op::Gt, column(0, DataType::integer()), int_constant(100))),
                          binary(Op::Lt, column(0, DataType::integer()), int_constant(900))),
                   true});
  // ANDed comparisons on one column merge into one interval (merge_intervals).
  cases.push_back({"i < 100 AND i > 500 AND r < 0.5 (an empty interval)",
                   binary(Op::And,
                          binary(Op::And, binary(Op::Lt, column(0, DataType::integer()), int_constant(100)),
                                 binary(Op::Gt, column(0, DataType::integer()), int_constant(500))),
                          binary(Op::Lt, column(3, DataType::real()), real_constant(0.5))),
                   true});
  cases.push_back({"r < 0.7 AND i >= 10 AND i <= 10 AND i <> 11 (one value, then <> stays apart)",
                   binary(Op::And,
                          binary(Op::And,
                                 binary(Op::And, binary(Op::Lt, column(3, DataType::real()), real_constant(0.7)),
                                        binary(Op::Ge, column(0, DataType::integer()), int_constant(10))),
                                 binary(Op::Le, column(0, DataType::integer()), int_constant(10))),
                          binary(Op::Ne, column(0, DataType::integer()), int_constant(11))),
                   true});
  cases.push_back({"i = 3 OR i < NULL OR r > 0.99 (a NULL constant inside a clause of 4-byte columns)",
                   binary(Op::Or,
                          binary(Op::Or, binary(Op::Eq, column(0, DataType::integer()), int_constant(3)),
                                 binary(Op::Lt, column(0, DataType::integer()), null_constant(DataType::bigint()))),
                          binary(Op::Gt, column(3, DataType::real()), real_constant(0.99))),
                   true});
  cases.push_back({"f <> 0 AND f <= 1 (BOOLEAN, 1 byte)",
                   binary(Op::And, binary(Op::Ne, column(4, DataType::boolean()), int_constant(0)),
                          binary(Op::Le, column(4, DataType::boolean()), int_constant(1))),
                   true});
  // ORs of comparisons: clauses of the fast predicate (or_next).
  cases.push_back({"i = 3 OR i = 700 OR i = 999 (an IN list)",
                   binary(Op::Or,
                          binary(Op::Or, binary(Op::Eq, column(0, DataType::integer()), int_constant(3)),
                                 binary(Op::Eq, column(0, DataType::integer()), int_constant(700))),
                          binary(Op::Eq, column(0, DataType::integer()), int_constant(999))),
                   true});
  cases.push_back({"(i < 100 OR r > 0.9) AND d < 0.5 AND (f = 1 OR b < 0) (two clauses, NULLs)",
                   binary(Op::And,
                          binary(Op::And,
                                 binary(Op::Or, binary(Op::Lt, column(0, DataType::integer()), int_constant(100)),
                                        binary(Op::Gt, column(3, DataType::real()), real_constant(0.9))),
                                 binary(Op::Lt, column(2, DataType::double_()), real_constant(0.5))),
                          binary(Op::Or, binary(Op::Eq, column(4, DataType::boolean()), int_constant(1)),
                                 binary(Op::Lt, column(1, DataType::bigint()), int_constant(0)))),
                   true});
  cases.push_back({"i < NULL OR d > 0.8 (a NULL constant in a clause)",
                   binary(Op::Or, binary(Op::Lt, column(0, DataType::integer()), null_constant(DataType::bigint())),
                          binary(Op::Gt, column(2, DataType::double_()), real_constant(0.8))),
                   true});
  cases.push_back({"i < NULL OR b = NULL (a clause of NULL constants: no row)",
                   binary(Op::Or, binary(Op::Lt, column(0, DataType::integer()), null_constant(DataType::bigint())),
                          binary(Op::Eq, column(1, DataType::bigint()), null_constant(DataType::bigint()))),
                   true});
  cases.push_back({"i < 100 OR d > 0.9",
                   binary(Op::Or, binary(Op::Lt, column(0, DataType::integer()), int_constant(100)),
                          binary(Op::Gt, column(2, DataType::double_()), real_constant(0.9))),
                   true});
  // Two columns in one term: the ordered filter kernel's fast path, the
  // Conjunction shape elsewhere; NULL on either side fails.
  BoundExpr i = column(0, DataType::integer()), j = column(6, DataType::integer());
  cases.push_back({"i < j (two INTEGER columns with NULLs)", binary(Op::Lt, i, j), false, true});
  cases.push_back({"j >= i AND i <> j AND i < 900", binary(Op::And, binary(Op::And, binary(Op::Ge, j, i), binary(Op::Ne, i, j)),
                                                       binary(Op::Lt, i, int_constant(900))),
                   false, true});
  cases.push_back({"(i = j OR f = 1) AND b >= 0 (a pair in an OR clause)",
                   binary(Op::And, binary(Op::Or, binary(Op::Eq, i, j), binary(Op::Eq, column(4, DataType::boolean()), int_constant(1))),
                          binary(Op::Ge, column(1, DataType::bigint()), int_constant(0))),
                   false, true});
  cases.push_back({"i <= i (one column on both sides)", binary(Op::Le, i, i), false, true});
  cases.push_back({"b > i (BIGINT and INTEGER: interpreter)", binary(Op::Gt, column(1, DataType::bigint()), i), false});
  cases.push_back({"e * e < 0.25 (interpreter)",
                   binary(Op::Lt,
                          build::binary(Op::Mul, DataType::double_(), column(5, DataType::double_()),
                                        column(5, DataType::double_())),
                          real_constant(0.25)),
                   false});
  return cases;
}

// The same columns, every value valid.
ColumnSet without_nulls(ColumnSet s) {
  for (int c = 0; c < s.count; ++c) s.columns[c].validity = nullptr;
  return s;
}

std::vector<uint32_t> host_filter(const ExprProgram& p, const ColumnSet& columns, const std::vector<uint32_t>* selection,
                                  std::size_t count) {
  std::vector<uint32_t> ids;
  uint32_t error = 0;
  for (std::size_t k = 0; k < count; ++k) {
    int64_t row = selection ? (*selection)[k] : static_cast<int64_t>(k);
    if (evaluate_predicate(p, columns, row, error)) ids.push_back(static_cast<uint32_t>(row));
  }
  return ids;
}

std::vector<uint32_t> device_filter(DeviceContext& context, const ExprProgram& p, const ColumnSet& columns,
                                    const std::vector<uint32_t>* selection, std::size_t count) {
  DeviceBuffer out(context, std::max<std::size_t>(1, count) * sizeof(uint32_t));
  DeviceBuffer error(context, sizeof(uint32_t));
  DeviceBuffer sel(context, std::max<std::size_t>(1, count) * sizeof(uint32_t));
  GPUSQL_CUDA_TRY(cudaMemset(error.data(), 0, sizeof(uint32_t)));
  if (selection && count)
    GPUSQL_CUDA_TRY(cudaMemcpy(sel.data(), selection->data(), count * sizeof(uint32_t), cudaMemcpyHostToDevice));
  std::size_t n = kernels::filter_rows(p, columns, selection ? sel.as<uint32_t>() : nullptr, count, out.as<uint32_t>(),
                                       error.as<uint32_t>(), context);
  std::vector<uint32_t> ids(n);
  if (n) GPUSQL_CUDA_TRY(cudaMemcpy(ids.data(), out.data(), n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  return ids;
}

// The canonical reduction on the host, as the host executor runs it.
AggState host_aggregate(const ExprProgram& predicate, const AggSpec& spec, const ColumnSet& columns,
                        const std::vector<uint32_t>* selection, std::size_t count, uint32_t& error) {
  return reduce_sequence_host(
      spec.kind, spec.cls, count,
      [&](AggState& s, std::size_t k) {
        int64_t row = selection ? (*selection)[k] : static_cast<int64_t>(k);
        if (!evaluate_predicate(predicate, columns, row, error)) return;
        Slot v{};
        if (spec.kind != AggKind::CountStar) v = evaluate(spec.arg, columns, row, error);
        agg_fold_value(spec.kind, spec.cls, s, v, error, row);
      },
      error);
}

bool same_state(const AggState& a, const AggState& b) {
  return a.i == b.i && std::memcmp(&a.d, &b.d, sizeof(double)) == 0 && a.count == b.count && a.position == b.position;
}

std::string describe_state(const AggState& s) {
  char buffer[160];
  uint64_t bits;
  std::memcpy(&bits, &s.d, sizeof bits);
  std::snprintf(buffer, sizeof buffer, "{i=%lld d=%.17g (0x%016llx) count=%llu position=%lld}",
                static_cast<long long>(s.i), s.d, static_cast<unsigned long long>(bits),
                static_cast<unsigned long long>(s.count), static_cast<long long>(s.position));
  return buffer;
}

AggSpec spec(AggKind kind, int c, DataType type) {
  AggSpec s;
  s.kind = kind;
  s.cls = compute_class(type);
  if (kind != AggKind::CountStar) s.arg = compile(column(c, type));
  return s;
}

// Aggregates that take the lean path, and one (SUM(e * e)) that does not.
std::vector<std::vector<AggSpec>> aggregate_sets() {
  std::vector<std::vector<AggSpec>> sets;
  sets.push_back({spec(AggKind::Sum, 2, DataType::double_())});
  sets.push_back({spec(AggKind::CountStar, 0, DataType::integer()), spec(AggKind::Count, 2, DataType::double_()),
                  spec(AggKind::Sum, 2, DataType::double_()), spec(AggKind::Min, 2, DataType::double_()),
                  spec(AggKind::Max, 2, DataType::double_()), spec(AggKind::Avg, 5, DataType::double_()),
                  spec(AggKind::Sum, 0, DataType::integer()), spec(AggKind::Min, 1, DataType::bigint())});
  sets.push_back({spec(AggKind::Max, 1, DataType::bigint()), spec(AggKind::Sum, 3, DataType::real()),
                  spec(AggKind::Min, 3, DataType::real()), spec(AggKind::Max, 0, DataType::integer()),
                  spec(AggKind::Count, 4, DataType::boolean()), spec(AggKind::Sum, 4, DataType::boolean())});
  AggSpec square;
  square.kind = AggKind::Sum;
  square.cls = Cls::Double;
  square.arg = compile(
      build::binary(Op::Mul, DataType::double_(), column(5, DataType::double_()), column(5, DataType::double_())));
  sets.push_back({spec(AggKind::Sum, 5, DataType::double_()), square});
  return sets;
}

const std::size_t kSizes[] = {0, 1, 2, 31, 2047, 2048, 2049, 4095, 4096, 4097, 3 * 4096 + 5, 100003, 1048583};

}  // namespace

TEST_CASE("fast predicate shapes are recognized", "[filter]") {
  Columns c(10, 1);
  c.indirection = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  for (const auto& p : predicates()) {
    INFO(p.name);
    kernels::FastPredicate fast;
    CHECK(kernels::make_fast_predicate(compile(p.predicate), c.host(false), fast) == p.fast);
    CHECK(kernels::make_fast_predicate(compile(p.predicate), c.host(true), fast) == p.fast);
    CHECK(kernels::make_fast_predicate(compile(p.predicate), c.host(false), fast, true) == (p.fast || p.pairs));
    if (p.fast || p.pairs) CHECK(fast.has_pairs == p.pairs);
  }
  kernels::FastPredicate fast;
  CHECK(kernels::make_fast_predicate(ExprProgram{}, c.host(false), fast));
  CHECK(fast.count == 0);
}

// term_holds() tests an integer column's value against the term's interval
// (set_interval); it must answer as comparing the value with the constant as
// BIGINT does, for every storage width and every constant, those outside
// the column's range included.
template <class T>
void check_intervals(Type type, const std::vector<int64_t>& values) {
  const int64_t constants[] = {INT64_MIN,     INT64_MIN + 1, int64_t{INT32_MIN} - 1, INT32_MIN, INT32_MIN + 1, -256,
                               -1,            0,             1,                      2,         254,           255,
                               256,           INT32_MAX - 1, INT32_MAX,              int64_t{INT32_MAX} + 1,
                               UINT32_MAX - 1, UINT32_MAX,   int64_t{UINT32_MAX} + 1, INT64_MAX - 1, INT64_MAX};
  for (Op op : {Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge})
    for (int64_t c : constants) {
      kernels::FastTerm t;
      t.type = type;
      t.outcomes = kernels::outcomes_of(op);
      t.value.i = c;
      kernels::set_interval(t);
      for (int64_t v : values) {
        const bool expected = op == Op::Eq ? v == c : op == Op::Ne ? v != c : op == Op::Lt ? v < c
                              : op == Op::Le ? v <= c : op == Op::Gt ? v > c : v >= c;
        INFO("type " << static_cast<int>(type) << ", op " << static_cast<int>(op) << ", constant " << c
                     << ", value " << v);
        CHECK(kernels::term_holds(t, static_cast<T>(v)) == expected);
      }
    }
}

TEST_CASE("fast predicate terms on integer columns compare as BIGINT", "[filter]") {
  check_intervals<uint8_t>(Type::Boolean, {0, 1, 2, 254, 255});
  check_intervals<int32_t>(Type::Integer, {INT32_MIN, INT32_MIN + 1, -257, -256, -1, 0, 1, 2, 255, 256, INT32_MAX - 1,
                                           INT32_MAX});
  check_intervals<int32_t>(Type::Date, {INT32_MIN, -1, 0, 19930101, INT32_MAX});
  check_intervals<uint32_t>(Type::Varchar, {0, 1, 2, 255, 256, INT32_MAX, int64_t{INT32_MAX} + 1, UINT32_MAX - 1,
                                            UINT32_MAX});
  check_intervals<int64_t>(Type::BigInt, {INT64_MIN, INT64_MIN + 1, int64_t{INT32_MIN} - 1, -1, 0, 1, UINT32_MAX,
                                          INT64_MAX - 1, INT64_MAX});
  check_intervals<int64_t>(Type::Decimal, {INT64_MIN, -100, 0, 100, INT64_MAX});
}

TEST_CASE("filter_rows selects the host's rows in ascending order", "[gpu][filter]") {
  DeviceContext context;
  for (std::size_t n : kSizes) {
    Columns c(n, 1000 + n);
    // Every third row, backwards: a non-identity row-id vector.
    for (std::size_t k = n; k-- > 0;)
      if (k % 3 != 1) c.indirection.push_back(static_cast<uint32_t>(k));
    // A selection vector over the positions of the direct columns.
    std::vector<uint32_t> selection;
    for (std::size_t k = 0; k < n; k += 1 + k % 4) selection.push_back(static_cast<uint32_t>(k));
    DeviceColumns direct(context, c, false), indirect(context, c, true);
    for (const auto& p : predicates()) {
      ExprProgram program = compile(p.predicate);
      INFO("rows " << n << ", predicate " << p.name);
      {
        INFO("identity rows");
        std::vector<uint32_t> expected = host_filter(program, c.host(false), nullptr, n);
        std::vector<uint32_t> actual = device_filter(context, program, direct.set, nullptr, n);
        REQUIRE(actual.size() == expected.size());
        CHECK(actual == expected);
      }
      {
        // One comparison on a column without NULLs runs through cub::DeviceSelect.
        INFO("identity rows, no NULLs");
        std::vector<uint32_t> expected = host_filter(program, without_nulls(c.host(false)), nullptr, n);
        std::vector<uint32_t> actual = device_filter(context, program, without_nulls(direct.set), nullptr, n);
        REQUIRE(actual.size() == expected.size());
        CHECK(actual == expected);
      }
      {
        INFO("row-id vector (late materialization)");
        std::vector<uint32_t> expected = host_filter(program, c.host(true), nullptr, c.indirection.size());
        std::vector<uint32_t> actual = device_filter(context, program, indirect.set, nullptr, c.indirection.size());
        REQUIRE(actual.size() == expected.size());
        CHECK(actual == expected);
      }
      {
        INFO("selection vector");
        std::vector<uint32_t> expected = host_filter(program, c.host(false), &selection, selection.size());
        std::vector<uint32_t> actual = device_filter(context, program, direct.set, &selection, selection.size());
        REQUIRE(actual.size() == expected.size());
        CHECK(actual == expected);
      }
    }
  }
}

// Fast predicates run through the one-pass bitmask filter by default where
// it applies (positions are rows, no NULLs, one width) and through
// cub::DeviceSelect otherwise (FlaggedIf for one plain comparison, If with
// the unrolled TermsHold otherwise), through cub::DeviceSelect only under
// 'cub', and through the ordered kernel under 'ordered': all must
// select the host's rows -- conjunctions, OR clauses, NULL constants, NULLs,
// row-id vectors, selection vectors -- also with no WHERE (every row) and
// with a selection vector over columns read through a row-id vector.
TEST_CASE("filter_rows selects the host's rows with either fast kernel", "[gpu][filter]") {
  struct Kernel {
    const char* name;
    gpusql::FilterKernel setting;
  };
  DeviceContext context;
  std::vector<Case> filters = {{"no WHERE", BoundExpr{}, true}};
  for (auto& p : predicates())
    if (p.fast) filters.push_back(std::move(p));
  using gpusql::FilterKernel;
  for (const Kernel kernel :
       {Kernel{"auto (one-pass bitmask filter, cub::DeviceSelect, TermsHold)", FilterKernel::Auto},
        Kernel{"filter_kernel 'cub' (cub::DeviceSelect, TermsHold)", FilterKernel::Cub},
        Kernel{"filter_kernel 'ordered' (ordered kernel)", FilterKernel::Ordered}}) {
    Settings settings;
    settings.filter_kernel = kernel.setting;
    context.set_settings(settings);
    for (std::size_t n : kSizes) {
      if (n > 200000) continue;  // the first test case covers many tiles
      Columns c(n, 3000 + n);
      for (std::size_t k = n; k-- > 0;)
        if (k % 3 != 0) c.indirection.push_back(static_cast<uint32_t>(k));
      std::vector<uint32_t> selection, indirect_selection;
      for (std::size_t k = 0; k < n; k += 1 + k % 3) selection.push_back(static_cast<uint32_t>(k));
      for (std::size_t k = 0; k < c.indirection.size(); k += 1 + k % 2)
        indirect_selection.push_back(static_cast<uint32_t>(k));
      DeviceColumns direct(context, c, false), indirect(context, c, true);
      for (const auto& f : filters) {
        ExprProgram program = f.name == "no WHERE" ? ExprProgram{} : compile(f.predicate);
        struct Input {
          const char* name;
          ColumnSet host, device;
          const std::vector<uint32_t>* selection;
          std::size_t count;
        };
        const Input inputs[] = {
            {"identity rows", c.host(false), direct.set, nullptr, n},
            {"identity rows, no NULLs", without_nulls(c.host(false)), without_nulls(direct.set), nullptr, n},
            {"row-id vector", c.host(true), indirect.set, nullptr, c.indirection.size()},
            {"selection vector", c.host(false), direct.set, &selection, selection.size()},
            {"selection vector, no NULLs", without_nulls(c.host(false)), without_nulls(direct.set), &selection,
             selection.size()},
            {"selection vector over a row-id vector", c.host(true), indirect.set, &indirect_selection,
             indirect_selection.size()}};
        for (const Input& in : inputs) {
          INFO(kernel.name << ", rows " << n << ", WHERE " << f.name << ", " << in.name);
          std::vector<uint32_t> expected = host_filter(program, in.host, in.selection, in.count);
          std::vector<uint32_t> actual = device_filter(context, program, in.device, in.selection, in.count);
          REQUIRE(actual.size() == expected.size());
          CHECK(actual == expected);
        }
      }
    }
  }
}

// The one-pass filter keeps its status words across calls (stamped with
// each call's epoch) and its ticket counter past all of them: a call after
// one with more tiles, or fewer, finds no word of its own epoch and a zero
// counter.
TEST_CASE("the one-pass filter's status words serve calls of any size in turn", "[gpu][filter]") {
  DeviceContext context;
  const std::vector<Case> cases = predicates();
  const std::size_t sizes[] = {1048583, 5000, 300007, 1, 8193, 8192, 1048583, 70001};
  for (std::size_t n : sizes) {
    Columns c(n, 500 + n);
    DeviceColumns direct(context, c, false);
    for (std::size_t i : {std::size_t{0}, std::size_t{10}}) {  // d < 0.01 (8-byte values), r < 0.9 (4-byte)
      INFO("rows " << n << ", predicate " << cases[i].name);
      ExprProgram program = compile(cases[i].predicate);
      std::vector<uint32_t> expected = host_filter(program, without_nulls(c.host(false)), nullptr, n);
      std::vector<uint32_t> actual = device_filter(context, program, without_nulls(direct.set), nullptr, n);
      REQUIRE(actual.size() == expected.size());
      CHECK(actual == expected);
    }
  }
}

TEST_CASE("aggregate_rows gives the canonical reduction's bits", "[gpu][aggregate]") {
  DeviceContext context;
  DeviceBuffer error(context, sizeof(uint32_t));
  std::vector<Case> filters = {{"no WHERE", BoundExpr{}, true}};
  for (auto& p : predicates()) filters.push_back(std::move(p));
  for (std::size_t n : kSizes) {
    Columns c(n, 2000 + n);
    for (std::size_t k = n; k-- > 0;)
      if (k % 5 != 2) c.indirection.push_back(static_cast<uint32_t>(k));
    std::vector<uint32_t> selection;
    for (std::size_t k = 0; k < n; k += 1 + k % 3) selection.push_back(static_cast<uint32_t>(k));
    DeviceColumns direct(context, c, false), indirect(context, c, true);
    DeviceBuffer sel(context, std::max<std::size_t>(1, selection.size()) * sizeof(uint32_t));
    if (!selection.empty())
      GPUSQL_CUDA_TRY(cudaMemcpy(sel.data(), selection.data(), selection.size() * sizeof(uint32_t),
                                 cudaMemcpyHostToDevice));
    for (std::size_t fi = 0; fi < filters.size(); ++fi) {
      // Large inputs: a third of the predicates (the host reference is slow).
      if (n > 5000 && fi % 3 != 0 && fi + 1 != filters.size()) continue;
      const Case& f = filters[fi];
      ExprProgram predicate = f.name == "no WHERE" ? ExprProgram{} : compile(f.predicate);
      for (const auto& specs : aggregate_sets()) {
        struct Input {
          const char* name;
          ColumnSet host, device;
          const std::vector<uint32_t>* selection;
          std::size_t count;
        };
        // Without the NULL bitmaps every column reaches the dense kernel's
        // all-live fold (full chunks, no WHERE), INTEGER and BOOLEAN too.
        const Input inputs[] = {{"identity rows", c.host(false), direct.set, nullptr, n},
                                {"identity rows, bitmaps dropped", without_nulls(c.host(false)),
                                 without_nulls(direct.set), nullptr, n},
                                {"row-id vector", c.host(true), indirect.set, nullptr, c.indirection.size()},
                                {"selection vector", c.host(false), direct.set, &selection, selection.size()}};
        for (const Input& in : inputs) {
          INFO("rows " << n << ", WHERE " << f.name << ", " << in.name << ", " << specs.size() << " aggregates");
          GPUSQL_CUDA_TRY(cudaMemset(error.data(), 0, sizeof(uint32_t)));
          std::vector<AggState> actual =
              kernels::aggregate_rows(predicate, specs, in.device, in.selection ? sel.as<uint32_t>() : nullptr,
                                      in.count, error.as<uint32_t>(), context);
          uint32_t device_error = 0;
          GPUSQL_CUDA_TRY(cudaMemcpy(&device_error, error.data(), sizeof device_error, cudaMemcpyDeviceToHost));
          uint32_t host_error = 0;
          REQUIRE(actual.size() == specs.size());
          for (std::size_t a = 0; a < specs.size(); ++a) {
            AggState expected = host_aggregate(predicate, specs[a], in.host, in.selection, in.count, host_error);
            INFO("aggregate " << a << ": host " << describe_state(expected) << ", gpu " << describe_state(actual[a]));
            CHECK(same_state(expected, actual[a]));
          }
          CHECK(device_error == host_error);
        }
      }
    }
  }
}

TEST_CASE("filter_rows and aggregate_rows past one block's tile and one pass of chunk states",
          "[gpu][filter][aggregate][large]") {
  // 2048 * 2048 + 12345 rows: more than 2048 chunk states (three reduction
  // passes) and more tiles than resident blocks (blocks take several tiles).
  DeviceContext context;
  const std::size_t n = std::size_t{2048} * 2048 + 12345;
  Columns c(n, 77);
  DeviceColumns direct(context, c, false);
  DeviceBuffer error(context, sizeof(uint32_t));
  std::vector<Case> cases = predicates();
  // d < 0.01, i < 100, r < 0.9, d = 0.0, a three-term conjunction, an OR.
  const std::size_t picked[] = {0, 5, 10, 13, 19, cases.size() - 2};
  for (std::size_t i : picked) {
    ExprProgram program = compile(cases[i].predicate);
    INFO("predicate " << cases[i].name);
    std::vector<uint32_t> expected = host_filter(program, c.host(false), nullptr, n);
    std::vector<uint32_t> actual = device_filter(context, program, direct.set, nullptr, n);
    REQUIRE(actual.size() == expected.size());
    CHECK(actual == expected);
    for (const auto& specs : {aggregate_sets()[1], aggregate_sets()[3]}) {
      GPUSQL_CUDA_TRY(cudaMemset(error.data(), 0, sizeof(uint32_t)));
      std::vector<AggState> states =
          kernels::aggregate_rows(program, specs, direct.set, nullptr, n, error.as<uint32_t>(), context);
      uint32_t host_error = 0;
      for (std::size_t a = 0; a < specs.size(); ++a) {
        AggState want = host_aggregate(program, specs[a], c.host(false), nullptr, n, host_error);
        INFO("aggregate " << a << ": host " << describe_state(want) << ", gpu " << describe_state(states[a]));
        CHECK(same_state(want, states[a]));
      }
    }
  }
}

TEST_CASE("one aggregate over a whole column: the canonical bits at chunk and group edges", "[gpu][aggregate]") {
  // kernels/column_reduce.cu: a chunk is 2048 rows, a group 2048 chunk
  // states; the sizes put the last chunk and the last group part full or
  // exactly full, and reach two groups (a final tree over group states).
  // One context throughout: the arrival counters it keeps must be left zero
  // by every call, whatever its size, or a later call's groups never close.
  DeviceContext context;
  DeviceBuffer error(context, sizeof(uint32_t));
  const std::size_t group = std::size_t{2048} * 2048;
  const std::size_t sizes[] = {group + 1, 1, 2, 2047, 2048, 2049, 3 * 4096 + 5, group - 1, 100003, group, 255};
  struct Taken {
    AggSpec spec;
    bool whole_column;  // whether reduce_column() takes it
  };
  std::vector<Taken> specs;
  for (AggKind kind : {AggKind::Sum, AggKind::Min, AggKind::Max}) {
    specs.push_back({spec(kind, 0, DataType::integer()), true});
    // A BIGINT SUM that overflows part way gives way to aggregate_rows()'
    // exact sums (below); these stay inside the range.
    specs.push_back({spec(kind, 1, DataType::bigint()), true});
    specs.push_back({spec(kind, 2, DataType::double_()), true});  // NaN, -0.0 and 0.0 among the values
    specs.push_back({spec(kind, 3, DataType::real()), true});
  }
  specs.push_back({spec(AggKind::Avg, 5, DataType::double_()), true});
  specs.push_back({spec(AggKind::Avg, 3, DataType::real()), true});
  specs.push_back({spec(AggKind::Avg, 0, DataType::integer()), false});  // wide sums: aggregate_rows()' own path
  specs.push_back({spec(AggKind::Count, 2, DataType::double_()), false});
  for (std::size_t n : sizes) {
    Columns c(n, 4000 + n);
    for (auto& b : c.b) b >>= 24;  // BIGINT sums that stay inside the int64 range
    DeviceColumns direct(context, c, false);
    const ColumnSet host = without_nulls(c.host(false)), device = without_nulls(direct.set);
    for (std::size_t a = 0; a < specs.size(); ++a) {
      // Past a group, every fourth aggregate (the host reference is slow).
      if (n > group / 2 && a % 4 != 1) continue;
      const AggSpec& s = specs[a].spec;
      uint32_t host_error = 0;
      const AggState expected = host_aggregate(ExprProgram{}, s, host, nullptr, n, host_error);
      const ColumnPointer& column = device.columns[s.arg.terms[0].slot];
      GPUSQL_CUDA_TRY(cudaMemset(error.data(), 0, sizeof(uint32_t)));
      AggState direct_state;
      const bool taken = kernels::reduce_column(s, column, n, error.as<uint32_t>(), context, direct_state);
      const std::vector<AggState> through =
          kernels::aggregate_rows(ExprProgram{}, {s}, device, nullptr, n, error.as<uint32_t>(), context);
      uint32_t device_error = 0;
      GPUSQL_CUDA_TRY(cudaMemcpy(&device_error, error.data(), sizeof device_error, cudaMemcpyDeviceToHost));
      INFO("rows " << n << ", aggregate " << a << ": host " << describe_state(expected) << ", reduce_column "
                   << describe_state(direct_state) << ", aggregate_rows " << describe_state(through[0]));
      CHECK(taken == specs[a].whole_column);
      if (taken) CHECK(same_state(expected, direct_state));
      CHECK(same_state(expected, through[0]));
      CHECK(device_error == host_error);
      CHECK(host_error == 0);
    }
    // A column with a NULL bitmap is not the whole-column path's.
    AggState unused;
    CHECK_FALSE(kernels::reduce_column(specs[2].spec, direct.set.columns[2], n, error.as<uint32_t>(), context, unused));
  }
}

TEST_CASE("integer SUM past the int64 range is exact: the final tree over group states", "[gpu][aggregate][large]") {
  // Two groups of chunk states (2048 * 2048 rows each) and a third of two
  // chunks: INT64_MAX in the first group and 1 in the third meet only in the
  // tree over the group states; the total is exact, with no error. The
  // whole-column path's 64-bit sum overflows there and gives way to the
  // exact one; without the 1 it does not and gives the total itself.
  DeviceContext context;
  const std::size_t n = std::size_t{2} * 2048 * 2048 + 3000;
  for (int64_t second : {int64_t{1}, int64_t{0}}) {
    std::vector<int64_t> values(n, 0);
    values[5] = std::numeric_limits<int64_t>::max();
    values[n - 10] = second;
    DeviceBuffer data(context, n * sizeof(int64_t)), error(context, sizeof(uint32_t));
    GPUSQL_CUDA_TRY(cudaMemcpy(data.data(), values.data(), n * sizeof(int64_t), cudaMemcpyHostToDevice));
    GPUSQL_CUDA_TRY(cudaMemset(error.data(), 0, sizeof(uint32_t)));
    ColumnSet set;
    set.columns[0].data = data.data();
    set.columns[0].type = Type::BigInt;
    set.count = 1;
    const AggSpec sum = spec(AggKind::Sum, 0, DataType::bigint());
    INFO("second addend " << second);
    AggState direct;
    const bool taken = kernels::reduce_column(sum, set.columns[0], n, error.as<uint32_t>(), context, direct);
    CHECK(taken == (second == 0));
    if (taken) CHECK(direct.i == std::numeric_limits<int64_t>::max());
    const AggState state =
        kernels::aggregate_rows(ExprProgram{}, {sum}, set, nullptr, n, error.as<uint32_t>(), context)[0];
    uint32_t bits = 0;
    GPUSQL_CUDA_TRY(cudaMemcpy(&bits, error.data(), sizeof bits, cudaMemcpyDeviceToHost));
    CHECK(bits == 0);
    CHECK(wide_sum(state) == static_cast<__int128>(std::numeric_limits<int64_t>::max()) + second);
    CHECK(state.count == n);
  }
}

TEST_CASE("integer SUM past the int64 range is exact in aggregate_rows", "[gpu][aggregate]") {
  DeviceContext context;
  // The two addends in different chunks (the sum passes the range in the
  // combine of chunk states), in one thread's items, and in one canonical
  // warp's tree (both in the dense kernel's all-live fold).
  const std::size_t apart[][2] = {{17, 4999}, {3, 3 + 256}, {64, 65}};
  for (const auto& at : apart) {
    INFO("addends at rows " << at[0] << " and " << at[1]);
    std::vector<int64_t> values(5000, 0);
    values[at[1]] = std::numeric_limits<int64_t>::max();
    values[at[0]] = 1;
    DeviceBuffer data(context, values.size() * sizeof(int64_t)), error(context, sizeof(uint32_t));
    GPUSQL_CUDA_TRY(cudaMemcpy(data.data(), values.data(), values.size() * sizeof(int64_t), cudaMemcpyHostToDevice));
    GPUSQL_CUDA_TRY(cudaMemset(error.data(), 0, sizeof(uint32_t)));
    ColumnSet set;
    set.columns[0].data = data.data();
    set.columns[0].type = Type::BigInt;
    set.count = 1;
    AggSpec sum = spec(AggKind::Sum, 0, DataType::bigint());
    AggState unused;
    CHECK_FALSE(kernels::reduce_column(sum, set.columns[0], values.size(), error.as<uint32_t>(), context, unused));
    // With no WHERE, and with one that keeps every row (the lean path's
    // checked sums, then the general path's exact ones).
    for (bool where : {false, true}) {
      INFO((where ? "WHERE v >= 0" : "no WHERE"));
      const ExprProgram predicate =
          where ? compile(binary(Op::Ge, column(0, DataType::bigint()), int_constant(0))) : ExprProgram{};
      const AggState state =
          kernels::aggregate_rows(predicate, {sum}, set, nullptr, values.size(), error.as<uint32_t>(), context)[0];
      uint32_t bits = 0;
      GPUSQL_CUDA_TRY(cudaMemcpy(&bits, error.data(), sizeof bits, cudaMemcpyDeviceToHost));
      CHECK(bits == 0);
      CHECK(wide_sum(state) == static_cast<__int128>(std::numeric_limits<int64_t>::max()) + 1);
      CHECK(state.count == values.size());
    }
  }
}

TEST_CASE("integer AVG past the int64 range: the host's state, no error", "[gpu][aggregate]") {
  // AVG over BIGINT leaves the lean path (its state has no room for the
  // carry), AVG over INTEGER keeps it; both end in the host's exact state.
  DeviceContext context;
  DeviceBuffer error(context, sizeof(uint32_t));
  AggSpec plus_zero = spec(AggKind::Avg, 1, DataType::bigint());
  plus_zero.arg = compile(build::binary(Op::Add, DataType::bigint(), column(1, DataType::bigint()), int_constant(0)));
  const std::vector<AggSpec> specs = {spec(AggKind::Avg, 1, DataType::bigint()),
                                      spec(AggKind::Avg, 0, DataType::integer()), plus_zero,
                                      spec(AggKind::Count, 1, DataType::bigint())};
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{2049}, std::size_t{100003}}) {
    Columns c(n, 31 + n);
    // Near the top, with a minimum every 7th row: the total climbs past
    // 2^63 and, at the minima, back.
    for (std::size_t k = 0; k < n; ++k)
      c.b[k] = k % 7 == 6 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max() - int64_t(k % 5);
    DeviceColumns device(context, c, false);
    for (const char* where : {"no WHERE", "i < 500"}) {
      const ExprProgram predicate =
          where[0] == 'n' ? ExprProgram{}
                          : compile(binary(Op::Lt, column(0, DataType::integer()), int_constant(500)));
      INFO("rows " << n << ", " << where);
      GPUSQL_CUDA_TRY(cudaMemset(error.data(), 0, sizeof(uint32_t)));
      std::vector<AggState> actual =
          kernels::aggregate_rows(predicate, specs, device.set, nullptr, n, error.as<uint32_t>(), context);
      uint32_t device_error = 0;
      GPUSQL_CUDA_TRY(cudaMemcpy(&device_error, error.data(), sizeof device_error, cudaMemcpyDeviceToHost));
      uint32_t host_error = 0;
      for (std::size_t a = 0; a < specs.size(); ++a) {
        AggState expected = host_aggregate(predicate, specs[a], c.host(false), nullptr, n, host_error);
        INFO("aggregate " << a << ": host " << describe_state(expected) << ", gpu " << describe_state(actual[a]));
        CHECK(same_state(expected, actual[a]));
      }
      CHECK(host_error == 0);
      CHECK(device_error == 0);
    }
  }
}

namespace {

bool identical(const Result& a, const Result& b) {
  if (a.row_count() != b.row_count() || a.column_count() != b.column_count()) return false;
  for (std::size_t c = 0; c < a.column_count(); ++c)
    for (std::size_t r = 0; r < a.row_count(); ++r) {
      Value x = a.value(r, c), y = b.value(r, c);
      if (auto* dx = std::get_if<double>(&x)) {
        auto* dy = std::get_if<double>(&y);
        if (!dy || std::memcmp(dx, dy, sizeof(double)) != 0) return false;
      } else if (x != y) {
        return false;
      }
    }
  return true;
}

}  // namespace

TEST_CASE("SQL filters and aggregates: the CUDA executor equals the host executor", "[gpu][filter][aggregate]") {
  Database gpu(Options{ExecutorKind::Gpu});
  Database host(Options{ExecutorKind::Host});
  TempDir dir;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{4097}, std::size_t{200003}}) {
    std::string csv = "id,k,v,w,flag\n";
    uint64_t state = 99 + n;
    for (std::size_t i = 0; i < std::max<std::size_t>(n, 1); ++i) {
      double v = static_cast<double>(next_random(state) >> 11) / 9007199254740992.0;
      char line[128];
      std::snprintf(line, sizeof line, "%zu,%s,%s,%d,%s\n", i,
                    i % 19 == 3 ? "" : std::to_string(next_random(state) % 1000).c_str(),
                    i % 23 == 5 ? "" : i % 29 == 1 ? "-0.0" : (std::to_string(v).c_str()),
                    static_cast<int>(next_random(state) % 201) - 100, i % 7 == 0 ? "" : (i % 3 ? "true" : "false"));
      csv += line;
    }
    const std::string name = "t" + std::to_string(n);
    std::string path = dir.write(name + ".csv", csv);
    // The CSV's flag column is text; the table gets a BOOLEAN with NULLs.
    for (Database* db : {&gpu, &host}) {
      db->load_csv(name + "_raw", path);
      db->query("CREATE TABLE " + name + " AS SELECT id, k, v, w, flag = 'true' AS flag FROM " + name + "_raw");
    }
    // The 0-row table: its one typed row is filtered away by `id < n`.
    const std::string limit = n == 0 ? "id < 0" : "id >= 0";
    for (const std::string& q : {
             "SELECT id, v FROM T WHERE v < 0.01 AND " + limit,
             "SELECT id, k FROM T WHERE k < 100 AND " + limit,
             "SELECT id FROM T WHERE v < 0.5 AND " + limit,
             "SELECT id, w FROM T WHERE v < 0.9 AND w <> 0 AND " + limit,
             "SELECT id FROM T WHERE flag AND " + limit,
             "SELECT id FROM T WHERE (k < 10 OR v > 0.99) AND " + limit,
             "SELECT id, v FROM T WHERE v = 0.0 AND " + limit,
             "SELECT COUNT(*), SUM(v), MIN(v), MAX(v), AVG(v), COUNT(k), SUM(k), SUM(w), MIN(w), MAX(k) FROM T "
             "WHERE " + limit,
             "SELECT COUNT(*), SUM(v), AVG(w) FROM T WHERE v < 0.1 AND " + limit,
             "SELECT COUNT(*), SUM(v), SUM(k) FROM T WHERE (k < 10 OR v > 0.9) AND " + limit,
             "SELECT SUM(v * 2), COUNT(flag) FROM T WHERE " + limit,
             "SELECT a.id, b.v FROM T a JOIN T b ON a.id = b.k WHERE b.v < 0.5 AND a.w > 0 AND a." + limit,
         }) {
      std::string sql = q;
      for (std::size_t at; (at = sql.find(" T ")) != std::string::npos;) sql.replace(at + 1, 1, name);
      INFO(sql);
      Result expected = host.query(sql);
      Result actual = gpu.query(sql);
      INFO("host:\n" << to_string(to_rows(expected)) .substr(0, 2000) << "gpu:\n" << to_string(to_rows(actual)).substr(0, 2000));
      CHECK(identical(expected, actual));
    }
  }
}
