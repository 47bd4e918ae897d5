// The nested-loop join's pair test with its stack in registers: a join
// predicate over columns without NULLs, of the operations that cannot make a
// NULL or an error (DOUBLE arithmetic but division, comparisons, AND, OR,
// NOT, IS [NOT] NULL, integer to DOUBLE), rewritten from the postfix program
// into a PairProgram and run by pair_program_holds().
//
// Why: the general interpreter (evaluate_general in core/expr_program.hpp)
// keeps a stack of (value, valid) slots in local memory and decodes each
// instruction's every field; ncu on an H100 counted about 720 instructions
// a pair test for (a.x - b.x) * (a.x - b.x) < c, 42 of them local-memory
// accesses, and the join ran at the speed of a 16-core CPU loop. Here the
// stack is six registers shifted on push and pop, every value is valid, and
// the result is the interpreter's bit for bit: the same loads (load_value),
// the same comparisons (compare3, NaN unequal to everything), the same
// double operations one at a time. GPUSQL_HD: the host tests run it against
// evaluate_predicate().
#pragma once

#include <cstdint>

#include "core/expr_program.hpp"

namespace gpusql::kernels {

enum class PairOpKind : uint8_t {
  // pushes
  Column, Constant,
  // on the top value
  NegateDouble, ToDouble, Not, IsNull, IsNotNull,
  // on the top two: pop b, then a = a op b
  AddDouble, SubDouble, MulDouble, CompareInt, CompareDouble, And, Or,
};

struct PairOp {
  PairOpKind kind = PairOpKind::Constant;
  Op compare = Op::Eq;  // CompareInt/CompareDouble: which comparison
  uint8_t slot = 0;     // Column: index into the ColumnSet
  int64_t value = 0;    // Constant: the value's bits
};

constexpr int kMaxPairOps = 32;
constexpr int kPairStack = 6;  // values a program may hold at once

struct PairProgram {
  PairOp ops[kMaxPairOps];
  int32_t length = 0;
};

// Whether `p` (over `columns`) runs as a PairProgram, which is then written
// to `out`: the general shape, every column read without a validity bitmap,
// every instruction one of the kinds above, at most kPairStack values deep.
// A conjunction with a term comparing two columns (a.k < b.k) runs as one
// too: its code is the general program's.
inline bool make_pair_program(const ExprProgram& p, const ColumnSet& columns, PairProgram& out) {
  bool pair_terms = false;
  for (int t = 0; p.shape == Shape::Conjunction && t < p.term_count; ++t) pair_terms |= p.terms[t].column_operand;
  if ((p.shape != Shape::General && !pair_terms) || p.length < 1 || p.length > kMaxPairOps) return false;
  int depth = 0;
  for (int pc = 0; pc < p.length; ++pc) {
    const Instr& in = p.code[pc];
    PairOp& op = out.ops[pc];
    op = PairOp{};
    int change = 0;  // on the stack's depth
    switch (in.op) {
      case Op::Column:
        if (in.slot >= columns.count || columns.columns[in.slot].validity) return false;
        op.kind = PairOpKind::Column;
        op.slot = in.slot;
        change = 1;
        break;
      case Op::Constant:
        if (in.null_constant) return false;
        op.kind = PairOpKind::Constant;
        op.value = in.value.i;
        change = 1;
        break;
      case Op::Negate:
        if (in.cls != Cls::Double) return false;  // integers: the overflow error
        op.kind = PairOpKind::NegateDouble;
        break;
      case Op::ToDouble: op.kind = PairOpKind::ToDouble; break;
      case Op::Not: op.kind = PairOpKind::Not; break;
      case Op::IsNull: op.kind = PairOpKind::IsNull; break;
      case Op::IsNotNull: op.kind = PairOpKind::IsNotNull; break;
      case Op::Add: case Op::Sub: case Op::Mul:
        if (in.cls != Cls::Double) return false;  // integers: the overflow error
        op.kind = in.op == Op::Add ? PairOpKind::AddDouble
                  : in.op == Op::Sub ? PairOpKind::SubDouble
                                     : PairOpKind::MulDouble;
        change = -1;
        break;
      case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
        op.kind = in.cls == Cls::Double ? PairOpKind::CompareDouble : PairOpKind::CompareInt;
        op.compare = in.op;
        change = -1;
        break;
      case Op::And: op.kind = PairOpKind::And; change = -1; break;
      case Op::Or: op.kind = PairOpKind::Or; change = -1; break;
      default: return false;  // division (NULL on zero), lookups, dates, CASE, ...
    }
    depth += change;
    if (depth < 1 || depth > kPairStack) return false;
  }
  if (depth != 1) return false;
  out.length = p.length;
  return true;
}

GPUSQL_HD double pair_double(int64_t bits) {
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}
GPUSQL_HD int64_t pair_bits(double d) {
  int64_t bits;
  memcpy(&bits, &d, sizeof bits);
  return bits;
}

// a op b for a binary kind, as evaluate_general() computes it for valid
// operands.
GPUSQL_HD int64_t pair_binary(const PairOp& op, int64_t a, int64_t b) {
  switch (op.kind) {
    case PairOpKind::AddDouble: return pair_bits(pair_double(a) + pair_double(b));
    case PairOpKind::SubDouble: return pair_bits(pair_double(a) - pair_double(b));
    case PairOpKind::MulDouble: return pair_bits(pair_double(a) * pair_double(b));
    case PairOpKind::And: return a != 0 && b != 0;
    case PairOpKind::Or: return a != 0 || b != 0;
    default: {
      const bool is_double = op.kind == PairOpKind::CompareDouble;
      const double x = pair_double(a), y = pair_double(b);
      // NaN compares unequal to everything.
      if (is_double && (x != x || y != y)) return op.compare == Op::Ne;
      return compare_op(op.compare, is_double ? compare3(x, y) : compare3(a, b));
    }
  }
}

// op on the top value, for a unary kind.
GPUSQL_HD int64_t pair_unary(const PairOp& op, int64_t a) {
  switch (op.kind) {
    case PairOpKind::NegateDouble: return pair_bits(-pair_double(a));
    case PairOpKind::ToDouble: return pair_bits(static_cast<double>(a));
    case PairOpKind::Not: return a == 0;
    case PairOpKind::IsNull: return 0;  // no value is NULL here
    default: return 1;                  // IsNotNull
  }
}

// Whether the predicate holds at `where`: evaluate_predicate()'s answer for
// a program make_pair_program() accepted.
GPUSQL_HD bool pair_program_holds(const PairProgram& p, const ColumnSet& columns, const Position& where) {
  int64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0;  // s0: the top
  for (int pc = 0; pc < p.length; ++pc) {
    const PairOp op = p.ops[pc];
    if (op.kind == PairOpKind::Column || op.kind == PairOpKind::Constant) {
      const int64_t v =
          op.kind == PairOpKind::Constant ? op.value : load_value(columns.columns[op.slot], where).i;
      s5 = s4;
      s4 = s3;
      s3 = s2;
      s2 = s1;
      s1 = s0;
      s0 = v;
    } else if (op.kind < PairOpKind::AddDouble) {
      s0 = pair_unary(op, s0);
    } else {
      s0 = pair_binary(op, s1, s0);
      s1 = s2;
      s2 = s3;
      s3 = s4;
      s4 = s5;
    }
  }
  return s0 != 0;
}

}  // namespace gpusql::kernels
