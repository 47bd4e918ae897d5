// A bound expression flattened into a short postfix program that one thread
// evaluates per row. The same code runs inside CUDA kernels and in the host
// executor (compiled by nvcc and by g++), so scalar semantics -- NULL
// propagation, three-valued logic, integer overflow, division by zero -- are
// identical on both by construction. The operators around it (filter
// compaction, reductions, gathers) are written separately for each executor.
//
// A program is passed to kernels by value, so a WHERE clause and every
// aggregate argument of a query are evaluated in one fused pass that reads
// each column once.
#pragma once

#include <cmath>
#include <cstdint>

#include "gpusql/gpusql.hpp"

#if defined(__CUDACC__)
#define GPUSQL_HD __host__ __device__ __forceinline__
#else
#define GPUSQL_HD inline
#endif

namespace gpusql {

// The operations of a program. Values are one of two compute classes: 64-bit
// integers (BOOLEAN, INTEGER, BIGINT, DATE, VARCHAR codes) and doubles.
enum class Op : uint8_t {
  Column,     // push column `slot`
  RowId,      // push the row's position in its table
  Constant,   // push `value` (or NULL when `null_constant`)
  Negate, Add, Sub, Mul, Div, Mod,
  Eq, Ne, Lt, Le, Gt, Ge,
  And, Or, Not,
  IsNull, IsNotNull,
  ToDouble,   // integer -> double
};

// Errors a program can raise at run time; the executor turns them into
// gpusql::Error. Kept as bits so a kernel can OR them into one word.
enum EvalError : uint32_t {
  kEvalOk = 0,
  kEvalOverflow = 1u << 0,      // integer arithmetic left the int64 range
  kEvalSumOverflow = 1u << 1,   // an integer SUM left the int64 range
};

enum class Cls : uint8_t { Int, Double };

struct Instr {
  Op op = Op::Constant;
  Cls cls = Cls::Int;          // compute class of the operands (comparisons, arithmetic)
  uint8_t slot = 0;            // Column: index into the ColumnSet
  bool null_constant = false;  // Constant: the value is NULL
  union {
    int64_t i;
    double d;
  } value{0};
};

constexpr int kMaxInstrs = 48;
constexpr int kMaxStack = 12;
constexpr int kMaxColumns = 32;

struct ExprProgram {
  Instr code[kMaxInstrs];
  int32_t length = 0;
  Cls result_cls = Cls::Int;
};

// A column as an evaluator reads it: raw values of `type` plus an optional
// validity bitmap (bit set = valid). Host or device pointers alike.
struct ColumnPointer {
  const void* data = nullptr;
  const uint32_t* validity = nullptr;
  Type type = Type::Integer;
};

struct ColumnSet {
  ColumnPointer columns[kMaxColumns];
  int32_t count = 0;
};

// One evaluated value: NULL when !valid.
struct Slot {
  union {
    int64_t i;
    double d;
  };
  bool valid;
};

GPUSQL_HD bool row_is_valid(const uint32_t* validity, int64_t row) {
  return validity == nullptr || ((validity[row >> 5] >> (row & 31)) & 1u);
}

GPUSQL_HD Slot load_value(const ColumnPointer& c, int64_t row) {
  Slot s;
  s.valid = row_is_valid(c.validity, row);
  switch (c.type) {
    case Type::Boolean: s.i = static_cast<const uint8_t*>(c.data)[row]; break;
    case Type::Integer:
    case Type::Date: s.i = static_cast<const int32_t*>(c.data)[row]; break;
    case Type::Varchar: s.i = static_cast<const uint32_t*>(c.data)[row]; break;
    case Type::BigInt:
    case Type::Decimal: s.i = static_cast<const int64_t*>(c.data)[row]; break;
    case Type::Double: s.d = static_cast<const double*>(c.data)[row]; break;
    case Type::Real: s.d = static_cast<const float*>(c.data)[row]; break;
  }
  return s;
}

// Checked 64-bit arithmetic; `error` collects kEvalOverflow.
GPUSQL_HD int64_t checked_add(int64_t a, int64_t b, uint32_t& error) {
  int64_t r = static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  if (((a ^ r) & (b ^ r)) < 0) error |= kEvalOverflow;
  return r;
}
GPUSQL_HD int64_t checked_sub(int64_t a, int64_t b, uint32_t& error) {
  int64_t r = static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
  if (((a ^ b) & (a ^ r)) < 0) error |= kEvalOverflow;
  return r;
}
GPUSQL_HD int64_t checked_mul(int64_t a, int64_t b, uint32_t& error) {
#if defined(__CUDA_ARCH__)
  int64_t lo = static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  int64_t hi = __mul64hi(a, b);
  if (hi != (lo >> 63)) error |= kEvalOverflow;
  return lo;
#else
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) error |= kEvalOverflow;
  return r;
#endif
}

template <class T>
GPUSQL_HD int compare3(T a, T b) {
  return (a > b) - (a < b);
}

// Evaluates `p` on one row. Integer division and modulo truncate toward zero
// and give NULL for a zero divisor, as SQLite does.
GPUSQL_HD Slot evaluate(const ExprProgram& p, const ColumnSet& cols, int64_t row, uint32_t& error) {
  Slot stack[kMaxStack];
  int top = -1;
  for (int pc = 0; pc < p.length; ++pc) {
    const Instr& in = p.code[pc];
    switch (in.op) {
      case Op::Column: stack[++top] = load_value(cols.columns[in.slot], row); break;
      case Op::RowId:
        ++top;
        stack[top].i = row;
        stack[top].valid = true;
        break;
      case Op::Constant:
        ++top;
        stack[top].i = in.value.i;
        stack[top].valid = !in.null_constant;
        break;
      case Op::Negate: {
        Slot& a = stack[top];
        if (in.cls == Cls::Double) {
          a.d = -a.d;
        } else {
          if (a.valid && a.i == INT64_MIN) error |= kEvalOverflow;
          a.i = static_cast<int64_t>(0ull - static_cast<uint64_t>(a.i));
        }
        break;
      }
      case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Mod: {
        Slot b = stack[top--];
        Slot& a = stack[top];
        bool valid = a.valid && b.valid;
        if (in.cls == Cls::Double) {
          switch (in.op) {
            case Op::Add: a.d = a.d + b.d; break;
            case Op::Sub: a.d = a.d - b.d; break;
            case Op::Mul: a.d = a.d * b.d; break;
            case Op::Div:
              if (b.d == 0.0) valid = false;
              else a.d = a.d / b.d;
              break;
            default:
              if (b.d == 0.0) valid = false;
              else a.d = fmod(a.d, b.d);
              break;
          }
        } else if (valid) {
          switch (in.op) {
            case Op::Add: a.i = checked_add(a.i, b.i, error); break;
            case Op::Sub: a.i = checked_sub(a.i, b.i, error); break;
            case Op::Mul: a.i = checked_mul(a.i, b.i, error); break;
            case Op::Div:
              if (b.i == 0) valid = false;
              else if (a.i == INT64_MIN && b.i == -1) error |= kEvalOverflow;
              else a.i = a.i / b.i;
              break;
            default:
              if (b.i == 0) valid = false;
              else if (b.i == -1) a.i = 0;
              else a.i = a.i % b.i;
              break;
          }
        }
        a.valid = valid;
        break;
      }
      case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: {
        Slot b = stack[top--];
        Slot& a = stack[top];
        int c = in.cls == Cls::Double ? compare3(a.d, b.d) : compare3(a.i, b.i);
        bool r = false;
        switch (in.op) {
          case Op::Eq: r = c == 0; break;
          case Op::Ne: r = c != 0; break;
          case Op::Lt: r = c < 0; break;
          case Op::Le: r = c <= 0; break;
          case Op::Gt: r = c > 0; break;
          default: r = c >= 0; break;
        }
        // NaN compares unequal to everything, as IEEE and SQLite say.
        if (in.cls == Cls::Double && (a.d != a.d || b.d != b.d)) r = in.op == Op::Ne;
        a.valid = a.valid && b.valid;
        a.i = r;
        break;
      }
      case Op::And: {  // three-valued: FALSE wins over NULL
        Slot b = stack[top--];
        Slot& a = stack[top];
        bool a_false = a.valid && a.i == 0, b_false = b.valid && b.i == 0;
        if (a_false || b_false) {
          a.valid = true;
          a.i = 0;
        } else {
          a.valid = a.valid && b.valid;
          a.i = 1;
        }
        break;
      }
      case Op::Or: {  // three-valued: TRUE wins over NULL
        Slot b = stack[top--];
        Slot& a = stack[top];
        bool a_true = a.valid && a.i != 0, b_true = b.valid && b.i != 0;
        if (a_true || b_true) {
          a.valid = true;
          a.i = 1;
        } else {
          a.valid = a.valid && b.valid;
          a.i = 0;
        }
        break;
      }
      case Op::Not: stack[top].i = stack[top].i == 0; break;
      case Op::IsNull:
        stack[top].i = !stack[top].valid;
        stack[top].valid = true;
        break;
      case Op::IsNotNull:
        stack[top].i = stack[top].valid;
        stack[top].valid = true;
        break;
      case Op::ToDouble: stack[top].d = static_cast<double>(stack[top].i); break;
    }
  }
  return stack[0];
}

// Writes a value into a column of `type` (0 for NULL: validity is separate).
GPUSQL_HD void store_value(void* data, Type type, int64_t row, const Slot& s) {
  switch (type) {
    case Type::Boolean: static_cast<uint8_t*>(data)[row] = s.valid ? static_cast<uint8_t>(s.i != 0) : 0; break;
    case Type::Integer:
    case Type::Date: static_cast<int32_t*>(data)[row] = s.valid ? static_cast<int32_t>(s.i) : 0; break;
    case Type::Varchar: static_cast<uint32_t*>(data)[row] = s.valid ? static_cast<uint32_t>(s.i) : 0; break;
    case Type::BigInt:
    case Type::Decimal: static_cast<int64_t*>(data)[row] = s.valid ? s.i : 0; break;
    case Type::Double: static_cast<double*>(data)[row] = s.valid ? s.d : 0.0; break;
    case Type::Real: static_cast<float*>(data)[row] = s.valid ? static_cast<float>(s.d) : 0.0f; break;
  }
}

// A predicate selects a row only when it evaluates to TRUE (not NULL).
GPUSQL_HD bool evaluate_predicate(const ExprProgram& p, const ColumnSet& cols, int64_t row, uint32_t& error) {
  if (p.length == 0) return true;
  Slot s = evaluate(p, cols, row, error);
  return s.valid && s.i != 0;
}

}  // namespace gpusql
