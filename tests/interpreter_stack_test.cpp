// The interpreter's two stacks (core/expr_program.hpp): RegisterStack, the
// registers that programs at most kRegisterDepth deep run with, against
// ArrayStack, which runs any program. The operations are the same code; only
// where the values wait differs, so every program -- meaningful or not --
// must give the same value, validity and error bits on both. Random postfix
// programs over columns with NULLs, integer extremes and special doubles.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "core/expr_program.hpp"
#include "engine/bound_expression_builders.hpp"
#include "engine/expression_compiler.hpp"

using namespace gpusql;

namespace {

struct Columns {
  static constexpr int kRows = 40;
  std::vector<int64_t> a, b;
  std::vector<double> x;
  std::vector<uint32_t> a_valid, x_valid;
  ColumnSet set;

  Columns() {
    const int64_t ints[] = {0, 1, -1, 2, 7, -7, 100, INT64_MAX, INT64_MIN, 1000000007, -3, 12, 86400, 18262};
    const double doubles[] = {0.0, -0.0, 1.5, -2.25, std::nan(""), std::numeric_limits<double>::infinity(),
                              1e300, 5e-324, 3.0, -1e18};
    a_valid.assign(2, 0);
    x_valid.assign(2, 0);
    for (int r = 0; r < kRows; ++r) {
      a.push_back(ints[r % 14]);
      b.push_back(ints[(r * 5 + 3) % 14]);
      x.push_back(doubles[(r * 3) % 10]);
      if (r % 6 != 1) a_valid[r / 32] |= 1u << (r % 32);
      if (r % 7 != 2) x_valid[r / 32] |= 1u << (r % 32);
    }
    auto add = [&](const void* data, const uint32_t* validity, Type type) {
      ColumnPointer& p = set.columns[set.count++];
      p.data = data;
      p.validity = validity;
      p.type = type;
    };
    add(a.data(), a_valid.data(), Type::BigInt);
    add(b.data(), nullptr, Type::BigInt);
    add(x.data(), x_valid.data(), Type::Double);
  }
};

struct Random {
  uint64_t state;
  uint64_t next() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  }
  int below(int n) { return static_cast<int>(next() % static_cast<uint64_t>(n)); }
};

// A random program that never holds more than `depth` values and ends with
// one, typed as the compiler types them: each operation runs in the class of
// its operands (a double's bits never read as an integer, whose NaN payloads
// the host compiler may pick either way). `result` gets the value's class.
ExprProgram random_program(Random& random, int depth, Cls& result) {
  ExprProgram p;
  Cls held[kMaxStack];
  int top = -1;  // held[top]: the class of the top value
  const int length = 1 + random.below(24);
  auto emit = [&](Op op, Cls cls) {
    Instr in;
    in.op = op;
    in.cls = cls;
    p.code[p.length++] = in;
    return &p.code[p.length - 1];
  };
  auto push_leaf = [&] {
    const int kind = random.below(4);
    if (kind == 0) {
      Instr* in = emit(Op::Column, Cls::Double);
      in->slot = 2;
      held[++top] = Cls::Double;
    } else if (kind == 1) {
      Instr* in = emit(Op::Column, Cls::Int);
      in->slot = static_cast<uint8_t>(random.below(2));
      held[++top] = Cls::Int;
    } else {
      const bool is_double = kind == 2 && random.below(2) == 0;
      Instr* in = emit(Op::Constant, is_double ? Cls::Double : Cls::Int);
      const int64_t ints[] = {0, 1, -1, 3, 100, 1000000000000000000, INT64_MAX};
      const double doubles[] = {0.0, -0.0, 2.5, -1e300, std::nan("")};
      if (is_double) in->value.d = doubles[random.below(5)];
      else in->value.i = ints[random.below(7)];
      in->null_constant = random.below(8) == 0;
      held[++top] = is_double ? Cls::Double : Cls::Int;
    }
  };
  while (p.length < kMaxInstrs - 2 * kRegisterDepth - 2) {
    if (top == 0 && p.length >= length) break;
    const int choice = random.below(10);
    const bool room = top + 1 < depth;
    const Cls a = top >= 0 ? held[top] : Cls::Int;
    if (top < 0 || (room && choice < 4)) {
      push_leaf();
    } else if (room && choice == 4 && a == Cls::Int) {  // an operation with a power of ten
      Instr* bound = emit(Op::Constant, Cls::Int);
      bound->value.i = random.below(2) == 0 ? 100 : 1000000000000000000;
      const Op scaled[] = {Op::DivRound, Op::DivFloor, Op::DivCeil, Op::CheckDecimal, Op::ScaleSaturate};
      emit(scaled[random.below(5)], Cls::Int);
    } else if (top >= 2 && choice == 5 && held[top - 1] == Cls::Int && held[top] == held[top - 2]) {
      emit(Op::Select, held[top]);
      top -= 2;
      held[top] = a;
    } else if (top >= 1 && choice >= 6 && held[top - 1] == a) {
      const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Mod, Op::Eq, Op::Ne, Op::Lt, Op::Le,
                        Op::Gt,  Op::Ge,  Op::And, Op::Or};
      const Op op = ops[random.below(a == Cls::Int ? 13 : 11)];
      emit(op, a);
      --top;
      held[top] = op >= Op::Eq ? Cls::Int : a;
    } else if (a == Cls::Int) {
      const Op ops[] = {Op::Negate, Op::Abs, Op::Not, Op::IsNull, Op::IsNotNull, Op::CheckInt32, Op::ToDouble};
      const Op op = ops[random.below(7)];
      emit(op, Cls::Int);
      held[top] = op == Op::ToDouble ? Cls::Double : Cls::Int;
    } else {
      const Op ops[] = {Op::Negate, Op::Abs, Op::Floor, Op::Ceil, Op::Round, Op::ToReal, Op::IsNull};
      const Op op = ops[random.below(7)];
      emit(op, Cls::Double);
      held[top] = op == Op::IsNull ? Cls::Int : Cls::Double;
    }
  }
  while (top > 0) {  // fold what is left into one value: comparisons of like values
    if (held[top] != held[top - 1]) {
      const bool to_double = held[top] == Cls::Int;
      emit(to_double ? Op::ToDouble : Op::IsNull, held[top]);
      held[top] = to_double ? Cls::Double : Cls::Int;
    }
    emit(Op::Lt, held[top]);
    --top;
    held[top] = Cls::Int;
  }
  result = held[0];
  p.depth = depth;
  p.shape = Shape::General;
  return p;
}

// The same value: NaNs of any payload are one.
bool same_slot(const Slot& x, const Slot& y, Cls cls) {
  if (x.valid != y.valid) return false;
  if (cls == Cls::Double && std::isnan(x.d) && std::isnan(y.d)) return true;
  return x.i == y.i;
}

}  // namespace

TEST_CASE("The register stack gives the array stack's values and errors", "[interpreter]") {
  Columns columns;
  Random random{0x9e3779b97f4a7c15ull};
  int programs = 0, checked = 0;
  for (int depth = 1; depth <= kRegisterDepth; ++depth) {
    for (int n = 0; n < 3000; ++n, ++programs) {
      Cls cls = Cls::Int;
      const ExprProgram p = random_program(random, depth, cls);
      for (int row = 0; row < Columns::kRows; ++row) {
        uint32_t array_error = 0, register_error = 0;
        const Slot expected = interpret<false, ArrayStack<false>>(p, columns.set, at(row), array_error, nullptr);
        const Slot actual = interpret<false, RegisterStack>(p, columns.set, at(row), register_error, nullptr);
        if (!same_slot(expected, actual, cls) || array_error != register_error) {
          INFO("program " << programs << " of " << p.length << " operations, row " << row);
          CHECK(same_slot(expected, actual, cls));
          CHECK(array_error == register_error);
          return;
        }
        ++checked;
      }
    }
  }
  CHECK(checked == 4 * 3000 * Columns::kRows);
}

// The compiler counts a program's depth, which picks the stack; a CASE of
// many branches stays 3 deep (the else value first, see Op::Select).
TEST_CASE("The compiler's depth: CASE chains stay shallow", "[interpreter]") {
  using build::binary;
  using build::column;
  using build::int_constant;
  SlotMap slots;
  BoundExpr sum = column(0, DataType::bigint());
  for (int k = 1; k < 6; ++k) sum = binary(Op::Add, DataType::bigint(), column(k, DataType::bigint()), std::move(sum));
  CHECK(compile_expression(sum, slots).depth == 6);  // c5 + (c4 + (... + c0)): right-deep
  BoundExpr chain = int_constant(-1);
  for (int k = 0; k < 20; ++k) {
    BoundExpr select;
    select.op = Op::Select;
    select.type = DataType::bigint();
    select.children.push_back(binary(Op::Lt, DataType::boolean(), column(0, DataType::bigint()), int_constant(k)));
    select.children.push_back(int_constant(k));
    select.children.push_back(std::move(chain));
    chain = std::move(select);
  }
  const ExprProgram program = compile_expression(chain, slots);
  CHECK(program.depth == 3);
  CHECK(program.length == 20 * 5 + 1);
}
