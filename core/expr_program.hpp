// A bound expression flattened into a postfix program that one thread
// evaluates per row. The same code runs inside CUDA kernels and in the host
// executor (compiled by nvcc and by g++), so scalar semantics -- NULL
// propagation, three-valued logic, integer overflow, division by zero -- are
// identical on both by construction. The operators around it (filter
// compaction, reductions, gathers) are written separately for each executor.
//
// Kernels read programs and column sets through pointers into device memory
// (kernels/launch.hpp: DeviceObjects), not as kernel parameters: the general
// interpreter is out of line on the device, and a parameter passed to it by
// reference would be copied to every thread's stack. A WHERE clause and
// every aggregate argument of a query are evaluated in one fused pass that
// reads each column once.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "gpusql/gpusql.hpp"

#if defined(__CUDACC__)
#define GPUSQL_HD __host__ __device__ __forceinline__
#else
#define GPUSQL_HD inline
#endif
#if defined(__CUDA_ARCH__)
#define GPUSQL_UNROLL _Pragma("unroll")
#else
#define GPUSQL_UNROLL
#endif

namespace gpusql {

// The operations of a program. Values are one of three compute classes:
// 64-bit integers (BOOLEAN, INTEGER, BIGINT, DATE, VARCHAR codes, DECIMAL of
// at most 18 digits), doubles, and 128-bit integers (a wider DECIMAL).
enum class Op : uint8_t {
  Column,     // push column `slot` (a row id when the column is a rowid column)
  RowId,      // push the row's position in its table (single-table programs)
  Constant,   // push `value` (or NULL when `null_constant`)
  Negate, Add, Sub, Mul, Div, Mod,
  Eq, Ne, Lt, Le, Gt, Ge,
  And, Or, Not,
  IsNull, IsNotNull,
  ToDouble,   // integer -> double
  ToInt,      // double -> integer, rounding half to even (DuckDB's cast); out of range is an error
  ToIntHalfAway,  // double -> integer, rounding half away from zero (DuckDB's double -> DECIMAL)
  ToWideHalfAway,  // the same into 128 bits (double -> a DECIMAL of more than 18 digits)
  ToReal,     // double -> the nearest REAL (32-bit float), kept as a double; a finite value past REAL's range is an error
  RoundToReal,  // the same, past REAL's range +-inf: REAL arithmetic's result (DuckDB's float overflow)
  Floor, Ceil, Abs,
  Round,      // double -> the nearest whole double, half away from zero (C's round, DuckDB's ROUND)
  Select,     // c ? a : b   (pops a, c, b: the else value is pushed first, so a
              // CASE of n branches, nested in its else values, stays 3 values deep)
  Lookup,     // pops an integer v; pushes lookup column `slot`'s value at index v (FALSE/0 outside it)
  Rank,       // pops v; pushes its index in lookup column `slot`: sorted int64 values, doubles as order_bits()
  ExtractYear, ExtractMonth, ExtractDay,  // of a DATE (days since 1970-01-01)
  AddMonths,  // DATE + months (pops months, date); the day is clamped to the month's end
  // Integer division by a positive constant, rounded (DECIMAL rescaling, and
  // DECIMAL floor/ceil): half away from zero, toward -inf, toward +inf.
  DivRound, DivFloor, DivCeil,
  CheckDate,       // a DATE outside DuckDB's range is an error
  CheckInt32,      // a value outside INTEGER's range is a CAST error
  CheckInt64,      // a 128-bit value outside BIGINT's range is a CAST error
  CheckPrecision,  // pops bound, value: |value| >= bound (10^precision) is a CAST error
  CheckDecimal,    // the same bound on a DECIMAL(18) result of arithmetic: an overflow error
  CheckCast,       // pops failed, value: a failed conversion (failed != 0) of a non-NULL value is an error
  CheckOneRow,     // pops rows, value: a correlated scalar subquery's rows for this row; more than one is an error
  // value * a positive constant, saturating at the int64 range instead of
  // failing: a DECIMAL rescaled for a comparison, where every value it could
  // be compared with (at most 18 digits) lies strictly inside that range.
  ScaleSaturate,
  // pops 10^scale, a DECIMAL's unscaled value: its DOUBLE (REAL) value, as
  // DuckDB computes it -- one division while the value converts exactly,
  // else the whole part plus the fraction (not always correctly rounded).
  DecimalToDouble, DecimalToReal,
  ToWide,     // a 64-bit integer as a 128-bit one (sign-extended)
  // A 128-bit value as two 64-bit ones that order and compare as it does,
  // upper first: sorts and DISTINCT run on 64-bit keys.
  WideHigh,   // its upper 64 bits (signed)
  WideLow,    // its lower 64 bits, flipped so that their signed order is their unsigned one
  WideFromParts,  // pops low, high (WideHigh's and WideLow's): the 128-bit value again
  // pops k, a 128-bit value v: its base-10^18 digit k (0, 1 or 2), truncated
  // toward zero, so that every digit has v's sign and
  // v = digit 2 * 10^36 + digit 1 * 10^18 + digit 0 (each a 64-bit value)
  WideDigit,
  Swap,       // exchanges the two values on top: the compiler evaluates a - b's b first when b
              // holds more values at once, so that deep nesting stays shallow on the stack
  // pops flags, count, total: AVG's value from a total and a count that
  // were summed apart (AVG beside SUM(DISTINCT ...)), the quotient the
  // aggregate itself computes: total / count for a DOUBLE total, else (a
  // 128-bit total) exact_average() with the scale in flags' low byte and
  // `narrow` in bit 8. NULL when the count is 0.
  AvgQuotient,
};

GPUSQL_HD bool is_comparison(Op op) {
  return op == Op::Eq || op == Op::Ne || op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge;
}

// The comparison that holds with its operands swapped (a < b  <=>  b > a).
GPUSQL_HD Op mirrored(Op op) {
  switch (op) {
    case Op::Lt: return Op::Gt;
    case Op::Le: return Op::Ge;
    case Op::Gt: return Op::Lt;
    case Op::Ge: return Op::Le;
    default: return op;
  }
}

// DuckDB's DATE range in days since 1970-01-01: 5877642-06-25 (BC) to
// 5881580-07-10 (the int32 extremes are its infinities).
constexpr int64_t kMinDate = -2147483646;
constexpr int64_t kMaxDate = 2147483646;

// Errors a program can raise at run time; the executor turns them into
// gpusql::Error. Kept as bits so a kernel can OR them into one word.
enum EvalError : uint32_t {
  kEvalOk = 0,
  kEvalOverflow = 1u << 0,      // integer arithmetic left the int64 range
  kEvalSumOverflow = 1u << 1,   // an integer SUM left the int64 range
  kEvalCastRange = 1u << 2,     // a CAST to a numeric type out of its range
  kEvalDateRange = 1u << 3,     // DATE arithmetic left the DATE range
  kEvalDecimalOverflow = 1u << 4,  // DECIMAL arithmetic needed more digits than its type holds
  kEvalWideProgram = 1u << 5,      // internal: a 128-bit program in a kernel without that interpreter
  kEvalConversion = 1u << 6,       // a CAST of a string that does not convert to the type
  kEvalSubqueryRows = 1u << 7,     // a scalar subquery gave a row more than one row
};

enum class Cls : uint8_t { Int, Double, Wide };

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

constexpr int kMaxInstrs = 128;
constexpr int kMaxStack = 16;
constexpr int kMaxColumns = 32;

// Most programs in analytic queries have one of a few shapes; evaluate()
// runs those without the interpreter's stack (registers only), which keeps
// scans near memory bandwidth. The compiler sets the shape.
enum class Shape : uint8_t {
  General,      // the postfix interpreter
  Empty,        // no program: a predicate that selects every row
  Column,       // terms[0]: one column
  Conjunction,  // terms[0..n): column <op> constant (or <op> another integer column), in
                //   clauses ANDed (three-valued); a clause is a run of terms joined by
                //   or_next, ORed (IN lists, x = a OR y = b)
  Arithmetic,   // terms[0] <arith> terms[1]: each a column or a constant
  Chain,        // + - * folded left to right over operands, each a column or a constant,
                //   or two of them joined by one + - * (pair_next): price * (1 - disc) * (1 + tax);
                //   an operand's `check` bounds the total so far as CheckDecimal does
};

// A column-or-constant leaf of a fast-path shape.
struct Term {
  Op op = Op::Eq;              // Conjunction: the comparison; Arithmetic: on terms[0], the operation
  Cls cls = Cls::Int;
  uint8_t slot = 0;
  bool is_constant = false;    // Arithmetic leaves: a constant instead of a column
  bool null_constant = false;
  bool or_next = false;        // Conjunction: ORed with the next term (same clause)
  bool column_operand = false; // Conjunction: compared with column `other_slot`, not `value` (Cls::Int)
  uint8_t other_slot = 0;
  bool pair_next = false;      // Chain: this leaf and the next make one operand (op on the next)
  bool check = false;          // Chain: after this operand, |total| < kDecimalBound or an overflow error
  union {
    int64_t i;
    double d;
  } value{0};
};

constexpr int kMaxTerms = 8;

// CheckDecimal's bound on a DECIMAL(18) result of arithmetic: 10^18.
constexpr int64_t kDecimalBound = 1000000000000000000;

// A program's first kMaxInstrs instructions sit in the object itself; a
// longer one keeps the rest behind `overflow`, in memory that the host and
// the device read at one address (storage/device_memory.hpp: UnifiedBuffer),
// owned by the SlotMap it was compiled with. Copies of the object (into
// DeviceObjects, shared memory, parameter structs) then stay valid as they are.
struct ExprProgram {
  Instr code[kMaxInstrs];
  const Instr* overflow = nullptr;  // instructions kMaxInstrs.. when length > kMaxInstrs
  int32_t length = 0;
  Cls result_cls = Cls::Int;
  bool wide = false;  // some operation is 128-bit (Cls::Wide): the interpreter only, see evaluate_general()
  Shape shape = Shape::Empty;
  int32_t term_count = 0;
  Term terms[kMaxTerms];

  GPUSQL_HD const Instr& instr(int pc) const { return pc < kMaxInstrs ? code[pc] : overflow[pc - kMaxInstrs]; }
};

// A column as an evaluator reads it: raw values of `type` plus an optional
// validity bitmap (bit set = valid). Host or device pointers alike.
// Rows are reached through `rows` when given (late materialization: the
// positions of a filtered or joined relation index a row-id vector), and a
// program over a join pair reads each column at the position of its `side`.
struct ColumnPointer {
  const void* data = nullptr;
  const uint32_t* validity = nullptr;
  const uint32_t* rows = nullptr;  // position -> row; null: the position is the row
  uint64_t size = 0;               // Lookup columns: number of entries
  Type type = Type::Integer;
  uint8_t side = 0;                // 0: left/only input, 1: right input of a join pair
  bool is_rowid = false;           // the value is the row id itself (rowid pseudo-column)
};

struct ColumnSet {
  ColumnPointer columns[kMaxColumns];
  int32_t count = 0;
};

// Where a program is evaluated: one position, or a (left, right) pair.
struct Position {
  int64_t side[2];
};
GPUSQL_HD Position at(int64_t position) { return Position{{position, position}}; }
GPUSQL_HD Position at(int64_t left, int64_t right) { return Position{{left, right}}; }

// One evaluated value: NULL when !valid. A 128-bit value (Cls::Wide) keeps
// its lower 64 bits in i; its upper ones travel beside it (the
// interpreter's stack of high words, evaluate_to()'s `high`), so that a Slot
// stays two registers in every kernel that never sees one.
struct Slot {
  union {
    int64_t i;
    double d;
  };
  bool valid;
};

using int128 = __int128;
using uint128 = unsigned __int128;

GPUSQL_HD int128 wide_of(int64_t low, int64_t high) {
  return static_cast<int128>((static_cast<uint128>(static_cast<uint64_t>(high)) << 64) | static_cast<uint64_t>(low));
}
GPUSQL_HD void split_wide(int128 v, int64_t& low, int64_t& high) {
  low = static_cast<int64_t>(static_cast<uint64_t>(v));
  high = static_cast<int64_t>(static_cast<uint64_t>(static_cast<uint128>(v) >> 64));
}

// 10^38: no DECIMAL(38) value reaches it.
constexpr int128 kWideDecimalBound =
    static_cast<int128>(static_cast<uint128>(10000000000000000000ull) * 10000000000000000000ull);

// A 128-bit DECIMAL result: past 38 digits it is an overflow (and 0).
GPUSQL_HD int128 checked_wide(int128 v, bool overflow, uint32_t& error) {
  if (overflow || v <= -kWideDecimalBound || v >= kWideDecimalBound) {
    error |= kEvalDecimalOverflow;
    return 0;
  }
  return v;
}
GPUSQL_HD int128 add_wide_checked(int128 a, int128 b, uint32_t& error) {
  const int128 r = static_cast<int128>(static_cast<uint128>(a) + static_cast<uint128>(b));
  return checked_wide(r, ((a ^ r) & (b ^ r)) < 0, error);
}
GPUSQL_HD int128 sub_wide_checked(int128 a, int128 b, uint32_t& error) {
  const int128 r = static_cast<int128>(static_cast<uint128>(a) - static_cast<uint128>(b));
  return checked_wide(r, ((a ^ b) & (a ^ r)) < 0, error);
}
GPUSQL_HD int128 mul_wide_checked(int128 a, int128 b, uint32_t& error) {
  const bool negative = (a < 0) != (b < 0);
  const uint128 x = a < 0 ? uint128{0} - static_cast<uint128>(a) : static_cast<uint128>(a);
  const uint128 y = b < 0 ? uint128{0} - static_cast<uint128>(b) : static_cast<uint128>(b);
  const uint64_t xh = static_cast<uint64_t>(x >> 64), xl = static_cast<uint64_t>(x);
  const uint64_t yh = static_cast<uint64_t>(y >> 64), yl = static_cast<uint64_t>(y);
  // |a| * |b| = xl*yl + (xh*yl + xl*yh) * 2^64 when xh*yh is 0; every bound
  // below keeps the magnitude under 2^127.
  bool overflow = xh != 0 && yh != 0;
  const uint128 cross = static_cast<uint128>(xh) * yl + static_cast<uint128>(xl) * yh;
  overflow = overflow || (cross >> 63) != 0;
  const uint128 low = static_cast<uint128>(xl) * yl;
  const uint128 m = low + (cross << 64);
  overflow = overflow || m < low || (m >> 127) != 0;
  const int128 r = negative ? -static_cast<int128>(m) : static_cast<int128>(m);
  return checked_wide(r, overflow, error);
}

// A 128-bit integer as DuckDB converts it to a double (Hugeint::TryCast):
// the lower word plus the upper word times 2^64, with its own case for an
// upper word of -1 (small negative numbers).
GPUSQL_HD double wide_to_double(int128 v) {
  const uint64_t lower = static_cast<uint64_t>(v);
  const int64_t upper = static_cast<int64_t>(static_cast<uint64_t>(static_cast<uint128>(v) >> 64));
  if (upper == -1) return -static_cast<double>(UINT64_MAX - lower) - 1.0;
  return static_cast<double>(lower) + static_cast<double>(upper) * 18446744073709551616.0;
}

// A positive integer as a 64-bit binary mantissa times 2^exponent, rounded
// to nearest, ties to even, when it has more than 64 bits: what converting
// it to an x87 `long double` gives.
struct ExtendedValue {
  uint64_t mantissa = 0;
  int exponent = 0;
};

GPUSQL_HD ExtendedValue to_extended(uint128 v) {
  ExtendedValue x;
  int shift = 0;
  while ((v >> shift) >> 64 != 0) ++shift;
  if (shift == 0) {
    x.mantissa = static_cast<uint64_t>(v);
    return x;
  }
  const uint128 kept = v >> shift, dropped = v - (kept << shift), half = uint128{1} << (shift - 1);
  uint128 m = kept;
  if (dropped > half || (dropped == half && (m & 1))) ++m;
  if (m >> 64 != 0) {
    m >>= 1;
    ++shift;
  }
  x.mantissa = static_cast<uint64_t>(m);
  x.exponent = shift;
  return x;
}

// numerator / denominator (> 0) as DuckDB's AVG over integers and DECIMALs
// of 5 or more digits computes it: both converted to `long double` (64-bit
// mantissas), divided in it, the quotient rounded to a double. Done here
// in integers, so that the GPU, which has no `long double`, gives the same
// bits as the host on any machine.
GPUSQL_HD double long_double_quotient(int128 numerator, uint128 denominator) {
  if (numerator == 0) return 0.0;
  const bool negative = numerator < 0;
  const ExtendedValue a = to_extended(negative ? static_cast<uint128>(-(numerator + 1)) + 1 : static_cast<uint128>(numerator));
  const ExtendedValue b = to_extended(denominator);
  // The quotient of the mantissas to 64 significant bits, by long division.
  const uint128 d = b.mantissa;
  uint128 q = a.mantissa / d, r = a.mantissa % d;
  int exponent = a.exponent - b.exponent;
  while (q < (uint128{1} << 63)) {
    r <<= 1;
    q <<= 1;
    if (r >= d) {
      r -= d;
      q |= 1;
    }
    --exponent;
  }
  if (2 * r > d || (2 * r == d && (q & 1))) ++q;  // the long double's rounding: nearest, ties to even
  if (q >> 64 != 0) {
    q >>= 1;
    ++exponent;
  }
  // The long double to a double: the 64-bit integer's conversion rounds
  // to nearest, ties to even, as the x87 store does.
  const double magnitude = ldexp(static_cast<double>(static_cast<uint64_t>(q)), exponent);
  return negative ? -magnitude : magnitude;
}

// multiple * 2^64 + low (multiple a whole number) as a double rounded once:
// the high part and low's upper 32 bits add exactly, then the lower 32 bits
// round. With multiple == 0 that is static_cast<double>(low). Host and
// device run the same operations (no product rounds, so a fused
// multiply-add gives the same bits).
GPUSQL_HD double total_to_double(double multiple, int64_t low) {
  const double high = multiple * 0x1p64 + static_cast<double>(low >> 32) * 0x1p32;
  return high + static_cast<double>(low & int64_t{0xffffffff});
}

// AVG's value from the exact total of its integer or DECIMAL argument and
// its count (> 0), as DuckDB divides: by count * 10^scale in `long double`,
// or for a DECIMAL of at most 4 digits (`narrow`) in double. The aggregate
// (final_value() in core/aggregate_state.hpp) and Op::AvgQuotient share it.
GPUSQL_HD double exact_average(int128 total, uint64_t count, int scale, bool narrow) {
  uint128 divisor = 1;
  for (int k = 0; k < scale; ++k) divisor *= 10;
  if (!narrow) return long_double_quotient(total, static_cast<uint128>(count) * divisor);
  const int64_t low = static_cast<int64_t>(static_cast<uint64_t>(static_cast<uint128>(total)));
  const double multiple = static_cast<double>((total - low) >> 64);
  return total_to_double(multiple, low) / (static_cast<double>(count) * static_cast<double>(static_cast<uint64_t>(divisor)));
}

// A double's bits as an int64 whose signed order is the doubles' total
// order: -0.0 below 0.0, NaNs by their bits at the ends. For Rank tables.
GPUSQL_HD int64_t order_bits(double d) {
  int64_t b;
  memcpy(&b, &d, sizeof b);
  return b < 0 ? b ^ INT64_MAX : b;
}

GPUSQL_HD bool row_is_valid(const uint32_t* validity, int64_t row) {
  return validity == nullptr || ((validity[row >> 5] >> (row & 31)) & 1u);
}

GPUSQL_HD Slot load_raw(const void* data, Type type, int64_t row) {
  Slot s;
  s.valid = true;
  switch (type) {
    case Type::Boolean: s.i = static_cast<const uint8_t*>(data)[row]; break;
    case Type::Integer:
    case Type::Date: s.i = static_cast<const int32_t*>(data)[row]; break;
    case Type::Varchar: s.i = static_cast<const uint32_t*>(data)[row]; break;
    case Type::BigInt:
    case Type::Decimal: s.i = static_cast<const int64_t*>(data)[row]; break;
    case Type::Double: s.d = static_cast<const double*>(data)[row]; break;
    case Type::Real: s.d = static_cast<const float*>(data)[row]; break;
    case Type::HugeInt: s.i = 0; break;  // load_wide(): kept out of this switch, which every scan inlines
  }
  return s;
}

GPUSQL_HD Slot load_wide(const void* data, int64_t row, int64_t& high) {
  Slot s;
  s.valid = true;
  s.i = static_cast<const int64_t*>(data)[2 * row];
  high = static_cast<const int64_t*>(data)[2 * row + 1];
  return s;
}

GPUSQL_HD Slot load_value(const ColumnPointer& c, const Position& where) {
  int64_t position = c.side ? where.side[1] : where.side[0];  // a select, not an indexed (local) array
  int64_t row = c.rows ? static_cast<int64_t>(c.rows[position]) : position;
  if (c.is_rowid) {
    Slot s;
    s.i = row;
    s.valid = true;
    return s;
  }
  Slot s = load_raw(c.data, c.type, row);
  s.valid = row_is_valid(c.validity, row);
  return s;
}

// load_value() of a column that may be 128-bit (its upper word to `high`):
// the interpreter's loads (the compiler gives a 128-bit value no fast shape).
GPUSQL_HD Slot load_any_value(const ColumnPointer& c, const Position& where, int64_t& high) {
  if (c.type != Type::HugeInt) return load_value(c, where);
  int64_t position = c.side ? where.side[1] : where.side[0];
  int64_t row = c.rows ? static_cast<int64_t>(c.rows[position]) : position;
  Slot s = load_wide(c.data, row, high);
  s.valid = row_is_valid(c.validity, row);
  return s;
}

// Civil calendar <-> days since 1970-01-01 (proleptic Gregorian), after
// Howard Hinnant's public-domain algorithms.
GPUSQL_HD int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}
GPUSQL_HD void civil_from_days(int64_t z, int64_t& y, int64_t& m, int64_t& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp + (mp < 10 ? 3 : -9);
  y = yoe + era * 400 + (m <= 2);
}
// Months beyond any DATE's reach: add_months() refuses them before its
// arithmetic could overflow (the DATE range spans about 141 million months).
constexpr int64_t kMaxMonthSpan = 200000000;

GPUSQL_HD int64_t add_months(int64_t days, int64_t months) {
  int64_t y, m, d;
  civil_from_days(days, y, m, d);
  int64_t total = y * 12 + (m - 1) + months;
  int64_t ny = total >= 0 ? total / 12 : (total - 11) / 12;
  int64_t nm = total - ny * 12 + 1;
  const int64_t month_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int64_t last = month_days[nm - 1] + (nm == 2 && ((ny % 4 == 0 && ny % 100 != 0) || ny % 400 == 0));
  return days_from_civil(ny, nm, d < last ? d : last);
}

// Checked 64-bit arithmetic; `error` collects kEvalOverflow, and an
// overflowing result is 0, so that nothing computed from it fails again (a
// CAST of a wrapped value, say) and the first error is the one reported.
GPUSQL_HD int64_t checked_add(int64_t a, int64_t b, uint32_t& error) {
  int64_t r = static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  if (((a ^ r) & (b ^ r)) < 0) {
    error |= kEvalOverflow;
    r = 0;
  }
  return r;
}
GPUSQL_HD int64_t checked_sub(int64_t a, int64_t b, uint32_t& error) {
  int64_t r = static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
  if (((a ^ b) & (a ^ r)) < 0) {
    error |= kEvalOverflow;
    r = 0;
  }
  return r;
}
GPUSQL_HD int64_t checked_mul(int64_t a, int64_t b, uint32_t& error) {
#if defined(__CUDA_ARCH__)
  int64_t lo = static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  int64_t hi = __mul64hi(a, b);
  if (hi != (lo >> 63)) {
    error |= kEvalOverflow;
    lo = 0;
  }
  return lo;
#else
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) {
    error |= kEvalOverflow;
    r = 0;
  }
  return r;
#endif
}

template <class T>
GPUSQL_HD int compare3(T a, T b) {
  return (a > b) - (a < b);
}

// The postfix interpreter. Integer division and modulo truncate toward zero
// and give NULL for a zero divisor, as SQLite does. Kept out of line on the
// device so the fast shapes in evaluate() stay light on registers. WIDE:
// with the 128-bit class (a 128-bit result's upper word to *high_out);
// without it every 128-bit step folds away, and with it the stack of upper
// words.
template <bool WIDE>
#if defined(__CUDA_ARCH__)
__device__ __noinline__
#else
inline
#endif
Slot interpret(const ExprProgram& p, const ColumnSet& cols, const Position& where, uint32_t& error,
               int64_t* high_out) {
  Slot stack[kMaxStack];
  int64_t high[kMaxStack];  // the upper words of 128-bit values, beside their slots
  int top = -1;
  const Instr* code = p.code;
  int first = 0;  // the position of code[0] in the program
  for (int pc = 0; pc < p.length; ++pc) {
    if (pc == kMaxInstrs) {  // on into the rest of a long program
      code = p.overflow;
      first = kMaxInstrs;
    }
    const Instr& in = code[pc - first];
    switch (in.op) {
      case Op::Column:
        ++top;
        if (WIDE) {
          stack[top] = load_any_value(cols.columns[in.slot], where, high[top]);
        } else {
          // A 128-bit column in a program typed as 64-bit: a binder bug, not a value.
          if (cols.columns[in.slot].type == Type::HugeInt) error |= kEvalWideProgram;
          stack[top] = load_value(cols.columns[in.slot], where);
        }
        break;
      case Op::RowId:
        ++top;
        stack[top].i = where.side[0];
        stack[top].valid = true;
        break;
      case Op::Constant:
        ++top;
        stack[top].i = in.value.i;
        if (WIDE) high[top] = in.value.i >> 63;  // a 128-bit constant fits in 64 bits
        stack[top].valid = !in.null_constant;
        break;
      case Op::ToWide:
        if (WIDE) high[top] = stack[top].i >> 63;
        break;
      case Op::WideHigh:
        if (WIDE) stack[top].i = high[top];
        break;
      case Op::WideLow: stack[top].i ^= INT64_MIN; break;
      case Op::WideFromParts: {
        const Slot low = stack[top--];
        Slot& a = stack[top];
        if (WIDE) {
          high[top] = a.i;
          a.i = low.i ^ INT64_MIN;
        }
        a.valid = a.valid && low.valid;
        break;
      }
      case Op::WideDigit: {
        const Slot k = stack[top--];
        Slot& a = stack[top];
        if (WIDE) {
          constexpr int64_t kBase = 1000000000000000000;  // 10^18
          int128 v = wide_of(a.i, high[top]);
          for (int64_t d = 0; d < k.i; ++d) v /= kBase;
          a.i = static_cast<int64_t>(v % kBase);
        } else {
          error |= kEvalWideProgram;
        }
        break;
      }
      case Op::Swap: {
        const Slot b = stack[top];
        stack[top] = stack[top - 1];
        stack[top - 1] = b;
        if (WIDE) {
          const int64_t h = high[top];
          high[top] = high[top - 1];
          high[top - 1] = h;
        }
        break;
      }
      case Op::Negate: {
        Slot& a = stack[top];
        if (in.cls == Cls::Double) {
          a.d = -a.d;
        } else if (WIDE && in.cls == Cls::Wide) {
          split_wide(a.valid ? sub_wide_checked(0, wide_of(a.i, high[top]), error) : 0, a.i, high[top]);
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
        if (WIDE && in.cls == Cls::Wide) {  // + - * %: the binder makes a DECIMAL quotient a DOUBLE
          const int128 x = wide_of(a.i, high[top]), y = wide_of(b.i, high[top + 1]);
          int128 r = 0;
          if (valid) {
            if (in.op == Op::Add) r = add_wide_checked(x, y, error);
            else if (in.op == Op::Sub) r = sub_wide_checked(x, y, error);
            else if (in.op == Op::Mul) r = mul_wide_checked(x, y, error);
            else if (y == 0) valid = false;  // % by zero is NULL, as for 64 bits
            else r = x % y;                  // |x| < 10^38: no overflow
          }
          split_wide(r, a.i, high[top]);
        } else if (in.cls == Cls::Double) {
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
        int c = in.cls == Cls::Double ? compare3(a.d, b.d)
                : (WIDE && in.cls == Cls::Wide) ? compare3(wide_of(a.i, high[top]), wide_of(b.i, high[top + 1]))
                                      : compare3(a.i, b.i);
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
      case Op::ToInt:
      case Op::ToIntHalfAway: {
        Slot& a = stack[top];
        double r = in.op == Op::ToInt ? rint(a.d) : round(a.d);
        // Out of range even under a NULL (x / 0 keeps x): converting it would be undefined.
        if (!(r >= -9223372036854775808.0 && r < 9223372036854775808.0)) {
          if (a.valid) error |= kEvalCastRange;
          r = 0;
        }
        a.i = static_cast<int64_t>(r);
        break;
      }
      case Op::ToWideHalfAway: {
        Slot& a = stack[top];
        const double r = round(a.d);
        // |r| < 2^127, so that its upper part is an int64.
        if (!(r > -1.7014118346046923e38 && r < 1.7014118346046923e38)) {
          if (a.valid) error |= kEvalCastRange;
          a.i = 0;
          if (WIDE) high[top] = 0;
          break;
        }
        if (WIDE) {
          // The magnitude's two halves are exact doubles (below 2^64 the
          // magnitude is its own lower half; above, a multiple of 2^12),
          // the sign applied in 128 bits: 2^64 - m is no double for a small m.
          const double m = fabs(r);
          const double upper = floor(m / 18446744073709551616.0);  // 2^64
          const double lower = m - upper * 18446744073709551616.0;  // in [0, 2^64)
          const int128 w = static_cast<int128>(static_cast<uint128>(static_cast<uint64_t>(upper)) << 64 |
                                               static_cast<uint64_t>(lower));
          split_wide(r < 0 ? -w : w, a.i, high[top]);
        } else {
          error |= kEvalWideProgram;
        }
        break;
      }
      case Op::RoundToReal: stack[top].d = static_cast<double>(static_cast<float>(stack[top].d)); break;
      case Op::ToReal: {
        Slot& a = stack[top];
        double r = static_cast<double>(static_cast<float>(a.d));
        // x - x is 0 for a finite x, NaN for infinities and NaN.
        if (a.valid && a.d - a.d == 0.0 && !(r - r == 0.0)) {
          error |= kEvalCastRange;
          r = 0;
        }
        a.d = r;
        break;
      }
      case Op::DecimalToDouble: case Op::DecimalToReal: {
        Slot b = stack[top--];
        Slot& a = stack[top];
        const int64_t x = a.i, p = b.i;
        if (WIDE && in.cls == Cls::Wide) {  // DuckDB's formula over its 128-bit conversion
          const int128 w = wide_of(a.i, high[top]);
          const int128 limit = in.op == Op::DecimalToDouble ? int128{1} << 53 : int128{1} << 24;
          const bool exact = w <= limit && w >= -limit;
          const double r = exact || p == 1 ? wide_to_double(w) / static_cast<double>(p)
                                           : wide_to_double(w / p) + wide_to_double(w % p) / static_cast<double>(p);
          a.d = in.op == Op::DecimalToDouble ? r : static_cast<double>(static_cast<float>(r));
        } else if (in.op == Op::DecimalToDouble) {
          const bool exact = (x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x)) <= (uint64_t{1} << 53);
          a.d = exact || p == 1 ? static_cast<double>(x) / static_cast<double>(p)
                                : static_cast<double>(x / p) + static_cast<double>(x % p) / static_cast<double>(p);
        } else {
          const bool exact = (x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x)) <= (uint64_t{1} << 24);
          const float f = exact || p == 1 ? static_cast<float>(x) / static_cast<float>(p)
                                          : static_cast<float>(x / p) + static_cast<float>(x % p) / static_cast<float>(p);
          a.d = static_cast<double>(f);
        }
        a.valid = a.valid && b.valid;
        break;
      }
      case Op::DivRound: case Op::DivFloor: case Op::DivCeil: {
        Slot b = stack[top--];
        Slot& a = stack[top];
        if (WIDE && in.cls == Cls::Wide) {
          if (a.valid && b.valid && b.i > 0) {
            const int128 w = wide_of(a.i, high[top]);
            int128 q = w / b.i, r = w % b.i;  // truncated toward zero
            if (in.op == Op::DivRound) {
              const int128 magnitude = r < 0 ? -r : r;
              if (magnitude >= b.i - magnitude) q += r < 0 ? -1 : 1;
            } else if (in.op == Op::DivFloor) {
              q -= r < 0;
            } else {
              q += r > 0;
            }
            split_wide(q, a.i, high[top]);
          }
          a.valid = a.valid && b.valid;
          break;
        }
        if (a.valid && b.valid && b.i > 0) {
          int64_t q = a.i / b.i, r = a.i % b.i;  // truncated toward zero
          if (in.op == Op::DivRound) {
            const int64_t magnitude = r < 0 ? -r : r;  // 2|r| >= b, written so it cannot overflow
            if (magnitude >= b.i - magnitude) q += r < 0 ? -1 : 1;
          } else if (in.op == Op::DivFloor) {
            q -= r < 0;
          } else {
            q += r > 0;
          }
          a.i = q;
        }
        a.valid = a.valid && b.valid;
        break;
      }
      case Op::ScaleSaturate: {
        Slot b = stack[top--];
        Slot& a = stack[top];
        if (WIDE && in.cls == Cls::Wide) {  // saturates at +-10^38, past every DECIMAL(38)
          uint32_t overflow = 0;
          const int128 x = wide_of(a.i, high[top]), r = mul_wide_checked(x, b.i, overflow);
          split_wide(overflow ? (x < 0 ? -kWideDecimalBound : kWideDecimalBound) : r, a.i, high[top]);
          a.valid = a.valid && b.valid;
          break;
        }
        uint32_t overflow = 0;
        const int64_t r = checked_mul(a.i, b.i, overflow);
        a.i = overflow ? (a.i < 0 ? INT64_MIN : INT64_MAX) : r;
        a.valid = a.valid && b.valid;
        break;
      }
      // A failed check also zeroes the value, so that the steps after it
      // (say, an overflowing product of it) report nothing of their own.
      case Op::CheckDate: {
        Slot& a = stack[top];
        if (a.valid && (a.i < kMinDate || a.i > kMaxDate)) {
          error |= kEvalDateRange;
          a.i = 0;
        }
        break;
      }
      case Op::CheckInt32: {
        Slot& a = stack[top];
        if (a.valid && (a.i < INT32_MIN || a.i > INT32_MAX)) {
          error |= kEvalCastRange;
          a.i = 0;
        }
        break;
      }
      case Op::CheckInt64: {
        Slot& a = stack[top];
        if (WIDE && a.valid && high[top] != (a.i >> 63)) {
          error |= kEvalCastRange;
          a.i = 0;
        }
        break;
      }
      case Op::AvgQuotient: {
        const int64_t flags = stack[top--].i;
        const Slot count = stack[top--];
        Slot& a = stack[top];
        a.valid = a.valid && count.valid && count.i > 0;
        if (!a.valid) break;
        if (in.cls == Cls::Double) {
          a.d = a.d / static_cast<double>(count.i);
        } else if (WIDE) {  // the binder widens an exact total: the 64-bit interpreter has no 128-bit division
          a.d = exact_average(wide_of(a.i, high[top]), static_cast<uint64_t>(count.i), static_cast<int>(flags & 0xff),
                              (flags >> 8) & 1);
        } else {
          error |= kEvalWideProgram;
        }
        break;
      }
      case Op::CheckCast: {
        Slot b = stack[top--];
        Slot& a = stack[top];
        if (a.valid && b.i != 0) {
          error |= kEvalConversion;
          a.i = 0;
        }
        break;
      }
      case Op::CheckOneRow: {
        Slot rows = stack[top--];
        if (rows.valid && rows.i > 1) error |= kEvalSubqueryRows;
        break;
      }
      case Op::CheckPrecision: case Op::CheckDecimal: {
        Slot b = stack[top--];
        Slot& a = stack[top];
        if (WIDE && in.cls == Cls::Wide && in.op == Op::CheckDecimal) {  // the 38-digit bound
          split_wide(a.valid ? checked_wide(wide_of(a.i, high[top]), false, error) : 0, a.i, high[top]);
          break;
        }
        if (WIDE && in.cls == Cls::Wide) {  // a 128-bit value into a DECIMAL of the bound's digits
          const int128 w = wide_of(a.i, high[top]), bound = wide_of(b.i, high[top + 1]);
          if (a.valid && (w <= -bound || w >= bound)) {
            error |= kEvalCastRange;
            a.i = 0;
          }
          break;
        }
        // -bound < value < bound; INT64_MIN has no magnitude in range.
        if (a.valid && (a.i <= -b.i || a.i >= b.i)) {
          error |= in.op == Op::CheckPrecision ? kEvalCastRange : kEvalDecimalOverflow;
          a.i = 0;
        }
        break;
      }
      case Op::Floor: stack[top].d = floor(stack[top].d); break;
      case Op::Ceil: stack[top].d = ceil(stack[top].d); break;
      case Op::Round: stack[top].d = round(stack[top].d); break;
      case Op::Abs: {
        Slot& a = stack[top];
        if (in.cls == Cls::Double) {
          a.d = fabs(a.d);
        } else if (WIDE && in.cls == Cls::Wide) {
          const int128 w = wide_of(a.i, high[top]);
          split_wide(w < 0 ? -w : w, a.i, high[top]);  // |w| < 10^38: no overflow
        } else if (a.i < 0) {
          if (a.valid && a.i == INT64_MIN) error |= kEvalOverflow;
          a.i = static_cast<int64_t>(0ull - static_cast<uint64_t>(a.i));
        }
        break;
      }
      case Op::Select: {
        const Slot a = stack[top];
        const Slot c = stack[top - 1];
        top -= 2;
        if (c.valid && c.i != 0) {
          stack[top] = a;
          if (WIDE) high[top] = high[top + 2];
        }
        break;
      }
      case Op::Lookup: {
        Slot& a = stack[top];
        const ColumnPointer& table = cols.columns[in.slot];
        bool inside = a.i >= 0 && static_cast<uint64_t>(a.i) < table.size;
        Slot v = inside ? load_raw(table.data, table.type, a.i) : Slot{};
        if (!inside) v.i = 0;
        v.valid = a.valid;
        a = v;
        break;
      }
      case Op::Rank: {
        Slot& a = stack[top];
        const ColumnPointer& table = cols.columns[in.slot];
        const int64_t* values = static_cast<const int64_t*>(table.data);
        const int64_t key = in.cls == Cls::Double ? order_bits(a.d) : a.i;
        uint64_t lo = 0, hi = table.size;  // lower_bound
        while (lo < hi) {
          const uint64_t mid = lo + (hi - lo) / 2;
          if (values[mid] < key) lo = mid + 1;
          else hi = mid;
        }
        a.i = static_cast<int64_t>(lo);
        break;
      }
      case Op::ExtractYear: case Op::ExtractMonth: case Op::ExtractDay: {
        int64_t y, m, d;
        civil_from_days(stack[top].i, y, m, d);
        stack[top].i = in.op == Op::ExtractYear ? y : in.op == Op::ExtractMonth ? m : d;
        break;
      }
      case Op::AddMonths: {
        Slot b = stack[top--];
        Slot& a = stack[top];
        if (a.valid && b.valid) {
          if (b.i > kMaxMonthSpan || b.i < -kMaxMonthSpan || a.i < kMinDate || a.i > kMaxDate) error |= kEvalDateRange;
          else a.i = add_months(a.i, b.i);
        }
        a.valid = a.valid && b.valid;
        break;
      }
    }
  }
  if (WIDE && high_out) *high_out = high[0];
  return stack[0];
}

// Evaluates `p` on one row with the interpreter. On the device a program
// with a 128-bit step is refused (kEvalWideProgram): the executor evaluates
// those into columns with project_rows() (evaluate_to()), so the 128-bit
// interpreter stays out of every other kernel and its registers. The host
// runs them here.
GPUSQL_HD Slot evaluate_general(const ExprProgram& p, const ColumnSet& cols, const Position& where, uint32_t& error) {
#if defined(__CUDA_ARCH__)
  if (p.wide) {
    error |= kEvalWideProgram;
    Slot none;
    none.i = 0;
    none.valid = false;
    return none;
  }
  return interpret<false>(p, cols, where, error, nullptr);
#else
  return p.wide ? interpret<true>(p, cols, where, error, nullptr) : interpret<false>(p, cols, where, error, nullptr);
#endif
}

GPUSQL_HD bool compare_op(Op op, int c) {
  switch (op) {
    case Op::Eq: return c == 0;
    case Op::Ne: return c != 0;
    case Op::Lt: return c < 0;
    case Op::Le: return c <= 0;
    case Op::Gt: return c > 0;
    default: return c >= 0;
  }
}

GPUSQL_HD Slot term_value(const Term& t, const ColumnSet& cols, const Position& where) {
  if (t.is_constant) {
    Slot s;
    s.i = t.value.i;
    s.valid = !t.null_constant;
    return s;
  }
  return load_value(cols.columns[t.slot], where);
}

// a op b (+ - *) of two values of class `cls`, as the interpreter computes
// it (a NULL operand: a NULL, 0 for integers).
GPUSQL_HD Slot arithmetic_step(Op op, Cls cls, Slot a, Slot b, uint32_t& error) {
  Slot r;
  r.valid = a.valid && b.valid;
  if (cls == Cls::Double) {
    r.d = op == Op::Add ? a.d + b.d : op == Op::Sub ? a.d - b.d : a.d * b.d;
  } else if (r.valid) {
    r.i = op == Op::Add ? checked_add(a.i, b.i, error) : op == Op::Sub ? checked_sub(a.i, b.i, error)
                                                       : checked_mul(a.i, b.i, error);
  } else {
    r.i = 0;
  }
  return r;
}

// A Chain program's values at R positions: `load(term, values)` gives a
// term's R values, and each operation runs on all R before the next term.
template <int R, class Load>
GPUSQL_HD void chain_values(const ExprProgram& p, Load&& load, Slot (&total)[R], uint32_t& error) {
  Slot operand[R], next[R];
  for (int t = 0; t < p.term_count; ++t) {
    const bool first = t == 0;
    const Term& head = p.terms[t];
    load(head, operand);
    if (head.pair_next) {
      load(p.terms[++t], next);
      GPUSQL_UNROLL
      for (int r = 0; r < R; ++r) operand[r] = arithmetic_step(p.terms[t].op, head.cls, operand[r], next[r], error);
    }
    const bool check = p.terms[t].check;
    GPUSQL_UNROLL
    for (int r = 0; r < R; ++r) {
      total[r] = first ? operand[r] : arithmetic_step(head.op, head.cls, total[r], operand[r], error);
      if (check && total[r].valid && (total[r].i <= -kDecimalBound || total[r].i >= kDecimalBound)) {
        error |= kEvalDecimalOverflow;
        total[r].i = 0;
      }
    }
  }
}

// A Chain program's value (Shape::Chain) at one position or pair.
GPUSQL_HD Slot evaluate_chain(const ExprProgram& p, const ColumnSet& cols, const Position& where, uint32_t& error) {
  Slot total[1];
  chain_values<1>(p, [&](const Term& t, Slot(&v)[1]) { v[0] = term_value(t, cols, where); }, total, error);
  return total[0];
}

// Calls f(T*) with the C++ type a column of `type` stores; false for a
// 128-bit column (two words a value), which it does not call f for.
template <class F>
GPUSQL_HD bool with_storage_type(Type type, F&& f) {
  switch (type) {
    case Type::Boolean: f(static_cast<uint8_t*>(nullptr)); return true;
    case Type::Integer:
    case Type::Date: f(static_cast<int32_t*>(nullptr)); return true;
    case Type::Varchar: f(static_cast<uint32_t*>(nullptr)); return true;
    case Type::BigInt:
    case Type::Decimal: f(static_cast<int64_t*>(nullptr)); return true;
    case Type::Double: f(static_cast<double*>(nullptr)); return true;
    case Type::Real: f(static_cast<float*>(nullptr)); return true;
    case Type::HugeInt: break;
  }
  return false;
}

// Column c's values at R positions of one relation: the column decoded
// once, then R loads (load_value()'s values).
template <class T, int R>
GPUSQL_HD void load_typed(const void* data, const int64_t (&row)[R], Slot (&out)[R]) {
  GPUSQL_UNROLL
  for (int r = 0; r < R; ++r) {
    const T x = static_cast<const T*>(data)[row[r]];
    if constexpr (std::is_floating_point_v<T>) out[r].d = x;
    else out[r].i = static_cast<int64_t>(x);
  }
}

template <int R>
GPUSQL_HD void load_values(const ColumnPointer& c, const int64_t (&position)[R], Slot (&out)[R]) {
  int64_t row[R];
  GPUSQL_UNROLL
  for (int r = 0; r < R; ++r) row[r] = c.rows ? static_cast<int64_t>(c.rows[position[r]]) : position[r];
  const bool loaded = !c.is_rowid && with_storage_type(c.type, [&](auto* tag) {
    load_typed<std::remove_pointer_t<decltype(tag)>>(c.data, row, out);
  });
  if (!loaded) {  // a row id is its row; a 128-bit column, as load_raw() has it, the interpreter's
    GPUSQL_UNROLL
    for (int r = 0; r < R; ++r) out[r].i = c.is_rowid ? row[r] : 0;
  }
  GPUSQL_UNROLL
  for (int r = 0; r < R; ++r) out[r].valid = c.is_rowid || row_is_valid(c.validity, row[r]);
}

// The fast shapes other than a bare column, with the semantics of
// evaluate_general. Out of line on the device, like it: a kernel that
// evaluates several programs per row then stays small in registers.
#if defined(__CUDA_ARCH__)
__device__ __noinline__
#else
inline
#endif
Slot evaluate_shaped(const ExprProgram& p, const ColumnSet& cols, const Position& where, uint32_t& error) {
  switch (p.shape) {
    case Shape::Conjunction: {
      // A clause (terms joined by or_next) is TRUE if any term is TRUE, else
      // NULL if any is NULL, else FALSE. The conjunction of the clauses is
      // FALSE if any is FALSE, else NULL if any is NULL, else TRUE.
      bool any_false = false, any_null = false;
      bool clause_true = false, clause_null = false;
      for (int t = 0; t < p.term_count; ++t) {
        const Term& term = p.terms[t];
        Slot v = load_value(cols.columns[term.slot], where);
        bool r, valid = v.valid && !term.null_constant;
        if (term.column_operand) {
          const Slot w = load_value(cols.columns[term.other_slot], where);
          r = compare_op(term.op, compare3(v.i, w.i));
          valid = valid && w.valid;
        } else if (term.cls == Cls::Double) {
          r = compare_op(term.op, compare3(v.d, term.value.d));
          if (v.d != v.d || term.value.d != term.value.d) r = term.op == Op::Ne;
        } else {
          r = compare_op(term.op, compare3(v.i, term.value.i));
        }
        clause_null |= !valid;
        clause_true |= valid && r;
        if (term.or_next) continue;
        any_false |= !clause_true && !clause_null;
        any_null |= !clause_true && clause_null;
        clause_true = clause_null = false;
      }
      Slot s;
      s.i = !any_false;
      s.valid = any_false || !any_null;
      return s;
    }
    case Shape::Arithmetic:
      return arithmetic_step(p.terms[0].op, p.terms[0].cls, term_value(p.terms[0], cols, where),
                             term_value(p.terms[1], cols, where), error);
    case Shape::Chain: return evaluate_chain(p, cols, where, error);
    case Shape::Empty: {
      Slot s;
      s.i = 1;
      s.valid = true;
      return s;
    }
    default: return evaluate_general(p, cols, where, error);
  }
}

GPUSQL_HD Slot evaluate(const ExprProgram& p, const ColumnSet& cols, const Position& where, uint32_t& error) {
  if (p.shape == Shape::Column) return load_value(cols.columns[p.terms[0].slot], where);
  return evaluate_shaped(p, cols, where, error);
}

GPUSQL_HD Slot evaluate(const ExprProgram& p, const ColumnSet& cols, int64_t position, uint32_t& error) {
  return evaluate(p, cols, at(position), error);
}

// evaluate() at R positions of one relation (not pairs), R values at a
// time for a column, an Arithmetic or a Chain program: each leaf's column
// decoded once for all R, where evaluate() decodes it at every position.
// The other shapes position by position.
template <int R>
GPUSQL_HD void evaluate_rows(const ExprProgram& p, const ColumnSet& cols, const int64_t (&position)[R], Slot (&out)[R],
                             uint32_t& error) {
  auto load = [&](const Term& t, Slot(&v)[R]) {
    if (!t.is_constant) return load_values<R>(cols.columns[t.slot], position, v);
    GPUSQL_UNROLL
    for (int r = 0; r < R; ++r) {
      v[r].i = t.value.i;
      v[r].valid = !t.null_constant;
    }
  };
  switch (p.shape) {
    case Shape::Column: load_values<R>(cols.columns[p.terms[0].slot], position, out); return;
    case Shape::Chain: chain_values<R>(p, load, out, error); return;
    case Shape::Arithmetic: {
      Slot b[R];
      load(p.terms[0], out);
      load(p.terms[1], b);
      GPUSQL_UNROLL
      for (int r = 0; r < R; ++r) out[r] = arithmetic_step(p.terms[0].op, p.terms[0].cls, out[r], b[r], error);
      return;
    }
    default:
      GPUSQL_UNROLL
      for (int r = 0; r < R; ++r) out[r] = evaluate(p, cols, at(position[r]), error);
  }
}

// evaluate() of any program, 128-bit ones included: a 128-bit result's
// upper word goes to `high`. The one device caller is project_rows().
GPUSQL_HD Slot evaluate_to(const ExprProgram& p, const ColumnSet& cols, int64_t position, uint32_t& error,
                           int64_t& high) {
  if (!p.wide) return evaluate(p, cols, at(position), error);
  return interpret<true>(p, cols, at(position), error, &high);
}

// Writes a value into a column of `type` (0 for NULL: validity is separate);
// `high`: a 128-bit value's upper word.
GPUSQL_HD void store_value(void* data, Type type, int64_t row, const Slot& s, int64_t high = 0) {
  switch (type) {
    case Type::Boolean: static_cast<uint8_t*>(data)[row] = s.valid ? static_cast<uint8_t>(s.i != 0) : 0; break;
    case Type::Integer:
    case Type::Date: static_cast<int32_t*>(data)[row] = s.valid ? static_cast<int32_t>(s.i) : 0; break;
    case Type::Varchar: static_cast<uint32_t*>(data)[row] = s.valid ? static_cast<uint32_t>(s.i) : 0; break;
    case Type::BigInt:
    case Type::Decimal: static_cast<int64_t*>(data)[row] = s.valid ? s.i : 0; break;
    case Type::Double: static_cast<double*>(data)[row] = s.valid ? s.d : 0.0; break;
    case Type::Real: static_cast<float*>(data)[row] = s.valid ? static_cast<float>(s.d) : 0.0f; break;
    case Type::HugeInt:
      static_cast<int64_t*>(data)[2 * row] = s.valid ? s.i : 0;
      static_cast<int64_t*>(data)[2 * row + 1] = s.valid ? high : 0;
      break;
  }
}

// A predicate selects a row only when it evaluates to TRUE (not NULL).
GPUSQL_HD bool evaluate_predicate(const ExprProgram& p, const ColumnSet& cols, const Position& where,
                                  uint32_t& error) {
  if (p.shape == Shape::Empty) return true;
  Slot s = evaluate(p, cols, where, error);
  return s.valid && s.i != 0;
}
GPUSQL_HD bool evaluate_predicate(const ExprProgram& p, const ColumnSet& cols, int64_t position, uint32_t& error) {
  return evaluate_predicate(p, cols, at(position), error);
}

}  // namespace gpusql
