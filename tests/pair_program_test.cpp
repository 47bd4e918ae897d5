// The nested-loop join's register pair test (kernels/pair_program.hpp)
// against the general interpreter it stands in for: every join predicate
// it accepts must give evaluate_predicate()'s answer at every pair, over
// values that test the edges (NaN, -0.0 and 0.0, infinities, subnormals,
// integer extremes, REAL widened to DOUBLE, row ids). Host code: the GPU
// kernels run the same function ([gpu][nlj] checks them against the host
// executor).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "planner/bound_expression_builders.hpp"
#include "planner/expression_compiler.hpp"
#include "kernels/pair_program.hpp"

using namespace gpusql;
using build::binary;
using build::column;

namespace {

BoundExpr unary(Op op, DataType type, BoundExpr a) {
  BoundExpr e;
  e.op = op;
  e.type = type;
  e.children.push_back(std::move(a));
  return e;
}

const DataType kBool = DataType::boolean();
const DataType kDouble = DataType::double_();

// Input columns: 0..4 the left side (x DOUBLE, r REAL, k INTEGER, b BIGINT,
// rowid), 5..9 the right side in the same order.
struct Sides {
  static constexpr int kRows = 26;
  std::vector<double> x[2];
  std::vector<float> r[2];
  std::vector<int32_t> k[2];
  std::vector<int64_t> b[2];

  Sides() {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    const double xs[] = {0.0, -0.0, 1.5, -1.5, 2.25, nan, inf, -inf, 1e308, 5e-324, 3.0, 9.5, 10.5,
                         0.1, 0.2, 0.30000000000000004, -9.75, 12.0, 0.125, 1.625, -0.0, 4.0, 5.0, 13.5, 2.0, 1.0};
    const float rs[] = {0.5f, -0.0f, std::nanf(""), 1.25f, -3.5f, 1e-45f, 3.4e38f, 0.1f, 2.25f};
    const int32_t ks[] = {-3, -2, -1, 0, 1, 2, 3, 4, 5, INT32_MIN, INT32_MAX};
    const int64_t bs[] = {INT64_MIN + 1, -7, 0, 7, 9, INT64_MAX, 3};
    for (int s = 0; s < 2; ++s)
      for (int i = 0; i < kRows; ++i) {
        const int j = (i * (s ? 7 : 1) + s * 3) % kRows;  // the right side in another order
        x[s].push_back(xs[j % 26]);
        r[s].push_back(rs[j % 9]);
        k[s].push_back(ks[j % 11]);
        b[s].push_back(bs[j % 7]);
      }
  }

  // The ColumnSet for the slots `slots` gave the input columns.
  ColumnSet columns(const SlotMap& slots) const {
    ColumnSet set;
    for (const auto& source : slots.sources()) {
      ColumnPointer& p = set.columns[set.count++];
      const int side = source.column >= 5 ? 1 : 0;
      p.side = static_cast<uint8_t>(side);
      switch (source.column % 5) {
        case 0: p.data = x[side].data(); p.type = Type::Double; break;
        case 1: p.data = r[side].data(); p.type = Type::Real; break;
        case 2: p.data = k[side].data(); p.type = Type::Integer; break;
        case 3: p.data = b[side].data(); p.type = Type::BigInt; break;
        default: p.is_rowid = true; p.type = Type::BigInt; break;
      }
    }
    return set;
  }
};

BoundExpr x(int side) { return column(side * 5 + 0, DataType::double_()); }
BoundExpr r(int side) { return column(side * 5 + 1, DataType::real()); }
BoundExpr k(int side) { return column(side * 5 + 2, DataType::integer()); }
BoundExpr b(int side) { return column(side * 5 + 3, DataType::bigint()); }
BoundExpr rowid(int side) { return column(side * 5 + 4, DataType::bigint()); }

}  // namespace

TEST_CASE("pair programs give the interpreter's answer at every pair", "[pair-program]") {
  const Sides sides;
  const BoundExpr diff = binary(Op::Sub, kDouble, x(0), x(1));
  struct Case {
    const char* text;
    BoundExpr expr;
  };
  const std::vector<Case> cases = {
      {"(a.x - b.x) * (a.x - b.x) < 0.05",
       binary(Op::Lt, kBool, binary(Op::Mul, kDouble, diff, diff), build::real_constant(0.05))},
      {"a.k < b.k", binary(Op::Lt, kBool, k(0), k(1))},
      {"a.x > b.x + 9", binary(Op::Gt, kBool, x(0), binary(Op::Add, kDouble, x(1), build::real_constant(9.0)))},
      {"a.k <> b.k OR NOT (a.x < b.x)",
       binary(Op::Or, kBool, binary(Op::Ne, kBool, k(0), k(1)), unary(Op::Not, kBool, binary(Op::Lt, kBool, x(0), x(1))))},
      {"a.x IS NULL OR a.b = b.b",
       binary(Op::Or, kBool, unary(Op::IsNull, kBool, x(0)), binary(Op::Eq, kBool, b(0), b(1)))},
      {"-a.x <= b.r", binary(Op::Le, kBool, unary(Op::Negate, kDouble, x(0)), r(1))},
      {"CAST(a.k AS DOUBLE) >= b.x AND a.rowid <> b.rowid",
       binary(Op::And, kBool, binary(Op::Ge, kBool, unary(Op::ToDouble, kDouble, k(0)), x(1)),
              binary(Op::Ne, kBool, rowid(0), rowid(1)))},
      {"a.x = b.x", binary(Op::Eq, kBool, x(0), x(1))},
      {"a.x <> b.r", binary(Op::Ne, kBool, x(0), r(1))},
      {"NOT (a.r IS NOT NULL) OR a.b >= b.b",
       binary(Op::Or, kBool, unary(Op::Not, kBool, unary(Op::IsNotNull, kBool, r(0))), binary(Op::Ge, kBool, b(0), b(1)))},
      {"(a.x - b.x) * (a.x - b.x) + (a.r - b.r) * (a.r - b.r) < 3.61 AND a.rowid <> b.rowid",
       binary(Op::And, kBool,
              binary(Op::Lt, kBool,
                     binary(Op::Add, kDouble, binary(Op::Mul, kDouble, diff, diff),
                            binary(Op::Mul, kDouble, binary(Op::Sub, kDouble, r(0), r(1)),
                                   binary(Op::Sub, kDouble, r(0), r(1)))),
                     build::real_constant(3.61)),
              binary(Op::Ne, kBool, rowid(0), rowid(1)))},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    SlotMap slots;
    const ExprProgram program = compile_expression(c.expr, slots);
    const ColumnSet columns = sides.columns(slots);
    REQUIRE((program.shape == Shape::General || program.shape == Shape::Conjunction));
    kernels::PairProgram pair;
    REQUIRE(kernels::make_pair_program(program, columns, pair));
    int held = 0;
    for (int i = 0; i < Sides::kRows; ++i)
      for (int j = 0; j < Sides::kRows; ++j) {
        uint32_t error = 0;
        const bool expected = evaluate_predicate(program, columns, at(i, j), error);
        const bool actual = kernels::pair_program_holds(pair, columns, at(i, j));
        INFO("pair (" << i << ", " << j << ")");
        REQUIRE(error == 0);
        REQUIRE(actual == expected);
        held += actual;
      }
    // Neither always nor never: the pairs test both answers.
    CHECK(held > 0);
    CHECK(held < Sides::kRows * Sides::kRows);
  }
}

TEST_CASE("pair programs: what stays with the interpreter", "[pair-program]") {
  const Sides sides;
  kernels::PairProgram pair;
  auto accepted = [&](const BoundExpr& e, bool nullable_x = false) {
    SlotMap slots;
    const ExprProgram program = compile_expression(e, slots);
    ColumnSet columns = sides.columns(slots);
    static const uint32_t validity[1] = {0xffffffffu};
    if (nullable_x)
      for (int c = 0; c < columns.count; ++c)
        if (columns.columns[c].type == Type::Double && !columns.columns[c].is_rowid) columns.columns[c].validity = validity;
    return kernels::make_pair_program(program, columns, pair);
  };
  // The control: the same shape is accepted.
  CHECK(accepted(binary(Op::Lt, kBool, x(0), x(1))));
  // A column with a validity bitmap (it may hold NULLs).
  CHECK_FALSE(accepted(binary(Op::Lt, kBool, x(0), x(1)), true));
  // Integer arithmetic (its overflow error), division (NULL on zero), a NULL constant.
  CHECK_FALSE(accepted(binary(Op::Lt, kBool, binary(Op::Add, DataType::bigint(), k(0), k(1)), build::int_constant(3))));
  CHECK_FALSE(accepted(binary(Op::Lt, kBool, unary(Op::Negate, DataType::bigint(), b(0)), b(1))));
  CHECK_FALSE(accepted(binary(Op::Lt, kBool, binary(Op::Div, kDouble, x(0), x(1)), build::real_constant(1.0))));
  CHECK_FALSE(accepted(binary(Op::Lt, kBool, x(0), build::null_constant(kDouble))));
  // Column against a constant: the interpreter's own fast shape (Conjunction).
  CHECK_FALSE(accepted(binary(Op::Lt, kBool, x(0), build::real_constant(1.0))));
}
