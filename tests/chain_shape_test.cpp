// The Chain fast shape (core/expr_program.hpp) against the general
// interpreter it stands in for: every + - * chain it takes must give the
// interpreter's validity, value and error bits at every row, over NULLs,
// integer extremes (the overflow error), DECIMAL(18) results at and past
// 10^18 (CheckDecimal's error), and doubles with NaN and infinities; and
// evaluate_rows(), several positions at a time, evaluate()'s at each. Host
// code: the kernels call the same functions, and the [gpu] tests compare
// the executors.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "planner/bound_expression_builders.hpp"
#include "planner/expression_compiler.hpp"

using namespace gpusql;
using build::binary;
using build::column;
using build::int_constant;

namespace {

// Columns: 0 k BIGINT, 1 d DECIMAL(15,2) (unscaled), 2 e DECIMAL(15,2),
// 3 x DOUBLE; k and d with NULLs.
struct Rows {
  static constexpr int kRows = 12;
  std::vector<int64_t> k = {3, -7, 0, INT64_MAX, INT64_MIN + 1, 1000000000, -1, 12, 5, 99, 4096, 2};
  std::vector<int64_t> d = {2116823, 4, -100, 999999999999999, 7, 1, 0, -999999999999999, 250, 999999999999999, 3, 100};
  std::vector<int64_t> e = {4, 2, 7, 8, 0, 100, -3, 999999999999999, 1, -9000, 10, 999999999999};
  std::vector<double> x = {1.5, -0.0, std::nan(""), std::numeric_limits<double>::infinity(), 1e308, 0.1, 2.0,
                           -3.25, 5e-324, 7.0, 0.3, 1.0};
  uint32_t k_valid = 0b111111111101;  // row 1 NULL
  uint32_t d_valid = 0b111011111111;  // row 8 NULL

  ColumnSet columns(const SlotMap& slots) const {
    ColumnSet set;
    for (const auto& source : slots.sources()) {
      ColumnPointer& p = set.columns[set.count++];
      switch (source.column) {
        case 0: p.data = k.data(); p.type = Type::BigInt; p.validity = &k_valid; break;
        case 1: p.data = d.data(); p.type = Type::Decimal; p.validity = &d_valid; break;
        case 2: p.data = e.data(); p.type = Type::Decimal; break;
        default: p.data = x.data(); p.type = Type::Double; break;
      }
    }
    return set;
  }
};

const DataType kBig = DataType::bigint();
const DataType kDec2{Type::Decimal, 15, 2};
const DataType kDec4{Type::Decimal, 18, 4};
const DataType kDec6{Type::Decimal, 18, 6};
const DataType kDouble = DataType::double_();

BoundExpr k() { return column(0, kBig); }
BoundExpr d() { return column(1, kDec2); }
BoundExpr e() { return column(2, kDec2); }
BoundExpr x() { return column(3, kDouble); }
BoundExpr decimal(int64_t unscaled, DataType type) {
  BoundExpr c = int_constant(unscaled);
  c.type = type;
  return c;
}
// The binder's cap on a product of DECIMALs wider than 18 digits.
BoundExpr checked(BoundExpr product) {
  const DataType type = product.type;
  return binary(Op::CheckDecimal, type, std::move(product), int_constant(kDecimalBound));
}

bool same_value(const ExprProgram& program, Slot a, Slot b) {
  if (a.valid != b.valid) return false;
  if (!a.valid) return true;
  if (program.result_cls != Cls::Double) return a.i == b.i;
  return (std::isnan(a.d) ? std::isnan(b.d) : a.d == b.d) && std::signbit(a.d) == std::signbit(b.d);
}

// evaluate_rows<4>() at rows (r, r + 5, r + 2, r + 9) mod kRows: evaluate()'s
// values at each, and the errors of all four.
bool same_as_rows(const ExprProgram& program, const ColumnSet& columns) {
  for (int r = 0; r < Rows::kRows; ++r) {
    const int64_t position[4] = {r, (r + 5) % Rows::kRows, (r + 2) % Rows::kRows, (r + 9) % Rows::kRows};
    Slot values[4];
    uint32_t rows_error = 0, each_error = 0;
    evaluate_rows<4>(program, columns, position, values, rows_error);
    for (int i = 0; i < 4; ++i) {
      const Slot expected = evaluate(program, columns, position[i], each_error);
      if (!same_value(program, values[i], expected)) return false;
    }
    if (rows_error != each_error) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("chain programs give the interpreter's answer at every row", "[chain-shape]") {
  const Rows rows;
  struct Case {
    const char* text;
    BoundExpr expr;
  };
  const BoundExpr one_minus_e = binary(Op::Sub, kDec2, decimal(100, kDec2), e());
  const BoundExpr one_plus_d = binary(Op::Add, kDec2, decimal(100, kDec2), d());
  const std::vector<Case> cases = {
      {"d * (1 - e) * (1 + d), TPC-H Q1's charge",
       checked(binary(Op::Mul, kDec6, checked(binary(Op::Mul, kDec4, d(), one_minus_e)), one_plus_d))},
      {"d * (1 - e)", checked(binary(Op::Mul, kDec4, d(), one_minus_e))},
      {"d * e * e", checked(binary(Op::Mul, kDec6, checked(binary(Op::Mul, kDec4, d(), e())), e()))},
      {"k + k * 3", binary(Op::Add, kBig, k(), binary(Op::Mul, kBig, k(), int_constant(3)))},
      {"k - 1 - k", binary(Op::Sub, kBig, binary(Op::Sub, kBig, k(), int_constant(1)), k())},
      {"k * k * k * 2", binary(Op::Mul, kBig, binary(Op::Mul, kBig, binary(Op::Mul, kBig, k(), k()), k()), int_constant(2))},
      {"d * (1 - e) - e * d, TPC-H Q9's amount",
       binary(Op::Sub, kDec4, checked(binary(Op::Mul, kDec4, d(), one_minus_e)), binary(Op::Mul, kDec4, e(), d()))},
      {"(k + 1) * NULL", binary(Op::Mul, kBig, binary(Op::Add, kBig, k(), int_constant(1)), build::null_constant(kBig))},
      {"x * (1 - x) + x", binary(Op::Add, kDouble,
                                 binary(Op::Mul, kDouble, x(), binary(Op::Sub, kDouble, build::real_constant(1), x())), x())},
      {"x - x * 0.5 - 2", binary(Op::Sub, kDouble,
                                 binary(Op::Sub, kDouble, x(), binary(Op::Mul, kDouble, x(), build::real_constant(0.5))),
                                 build::real_constant(2))},
  };
  int errors = 0, decimal_errors = 0, nulls = 0;
  for (const Case& c : cases) {
    INFO(c.text);
    SlotMap slots;
    const ExprProgram program = compile_expression(c.expr, slots);
    REQUIRE(program.shape == Shape::Chain);
    const ColumnSet columns = rows.columns(slots);
    for (int row = 0; row < Rows::kRows; ++row) {
      INFO("row " << row);
      uint32_t chain_error = 0, general_error = 0;
      const Slot chain = evaluate(program, columns, row, chain_error);
      const Slot general = evaluate_general(program, columns, at(row), general_error);
      REQUIRE(chain_error == general_error);
      REQUIRE(chain.valid == general.valid);
      errors += chain_error != 0;
      decimal_errors += chain_error == kEvalDecimalOverflow;
      nulls += !chain.valid;
      if (!chain.valid || chain_error) continue;
      REQUIRE(same_value(program, chain, general));
    }
    REQUIRE(same_as_rows(program, columns));
  }
  // The cases reach both errors and NULLs, so the comparisons above can fail.
  REQUIRE(errors >= 6);
  REQUIRE(decimal_errors >= 2);  // 10^18 <= |d * (1 - e)| < 2^63 at row 9
  REQUIRE(nulls >= 15);
}

TEST_CASE("expressions the chain does not take keep their shapes", "[chain-shape]") {
  SlotMap slots;
  // Two leaves: the Arithmetic shape the star join reads.
  REQUIRE(compile_expression(binary(Op::Mul, kBig, k(), int_constant(3)), slots).shape == Shape::Arithmetic);
  // A product of two sums: its right operand is not a leaf or a pair of leaves.
  const BoundExpr sum = binary(Op::Add, kBig, k(), int_constant(1));
  REQUIRE(compile_expression(binary(Op::Mul, kBig, sum, binary(Op::Mul, kBig, sum, k())), slots).shape ==
          Shape::General);
  // A division: not + - *.
  REQUIRE(compile_expression(binary(Op::Div, kBig, binary(Op::Add, kBig, k(), k()), k()), slots).shape == Shape::General);
  // evaluate_rows() of the other shapes: a column, two leaves, the interpreter's.
  const Rows rows;
  for (const BoundExpr& e : {d(), x(), binary(Op::Mul, kBig, k(), int_constant(3)),
                             binary(Op::Div, kBig, binary(Op::Add, kBig, k(), k()), k())}) {
    SlotMap one;
    const ExprProgram program = compile_expression(e, one);
    REQUIRE(same_as_rows(program, rows.columns(one)));
  }
  // A check of another bound (a CAST's precision).
  REQUIRE(compile_expression(binary(Op::CheckDecimal, kDec4, binary(Op::Mul, kDec4, d(), e()), int_constant(100000)),
                             slots)
              .shape == Shape::General);
}
