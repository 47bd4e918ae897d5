// A WHERE predicate of a common shape -- a conjunction of clauses, each a
// column <op> constant comparison (or, where the caller takes them, column
// <op> column) or an OR of them (IN lists), or one BOOLEAN column --
// evaluated for a thread's
// striped items without the interpreter: the column pointers are resolved on
// the host, the description travels as a kernel parameter, and each term
// loads all of a thread's items before it compares any (independent loads in
// flight). Shared by the filter and aggregate kernels.
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/expr_program.hpp"

namespace gpusql::kernels {

// One comparison. The outcome of comparing a value with the constant is
// 0 (less), 1 (equal), 2 (greater) or 3 (unordered: a NaN on either side);
// the term holds when bit `outcome` of `outcomes` is set. That encodes
// evaluate_shaped()'s rules: NaN satisfies only <>.
struct FastTerm {
  const void* data = nullptr;
  const uint32_t* validity = nullptr;  // null: no NULLs
  const uint32_t* rows = nullptr;      // null: the position is the row
  Type type = Type::Integer;
  uint8_t outcomes = 0;
  bool never = false;    // compared with a NULL constant: no row passes
  bool or_next = false;  // ORed with the next term: the two are in one clause
  union {
    int64_t i;
    double d;
  } value{0};
  // Integer columns: the comparison as an interval of the column's values
  // (set_interval): the term holds when low <= value <= high, unless negate
  // (<>). One subtraction and one unsigned compare per item, in 32 bits for
  // columns of 4 bytes or less.
  int64_t low = 0, high = 0;
  bool negate = false;
  // A comparison with a second column of the same storage type instead of
  // the constant (`outcomes` as above; never a floating type): its values,
  // bitmap and row ids as data, validity and rows are the first's.
  const void* other = nullptr;
  const uint32_t* other_validity = nullptr;
  const uint32_t* other_rows = nullptr;
};

// The values a column of type t can hold (its storage's range).
inline void storage_range(Type t, int64_t& low, int64_t& high) {
  switch (t) {
    case Type::Boolean: low = 0, high = 255; break;
    case Type::Integer:
    case Type::Date: low = INT32_MIN, high = INT32_MAX; break;
    case Type::Varchar: low = 0, high = UINT32_MAX; break;
    default: low = INT64_MIN, high = INT64_MAX; break;  // BIGINT, DECIMAL
  }
}

// Fills t.low, t.high and t.negate from t.outcomes and t.value.i (integer
// columns), clipped to the column's storage range: an interval empty there
// becomes the whole range negated (holds for no value).
inline void set_interval(FastTerm& t) {
  const int64_t c = t.value.i;
  int64_t low = INT64_MIN, high = INT64_MAX;
  bool empty = false;
  t.negate = false;
  switch (t.outcomes & 0b0111) {  // bit 3 (unordered) only concerns NaN
    case 0b0010: low = high = c; break;                                  // =
    case 0b0101: low = high = c, t.negate = true; break;                 // <>
    case 0b0001: empty = c == INT64_MIN, high = empty ? 0 : c - 1; break;  // <
    case 0b0011: high = c; break;                                        // <=
    case 0b0100: empty = c == INT64_MAX, low = empty ? 0 : c + 1; break;   // >
    case 0b0110: low = c; break;                                         // >=
    default: empty = (t.outcomes & 0b0111) == 0; break;                  // 0b0111: every value
  }
  int64_t min_value, max_value;
  storage_range(t.type, min_value, max_value);
  low = low < min_value ? min_value : low;
  high = high > max_value ? max_value : high;
  if (empty || low > high) {
    t.low = min_value, t.high = max_value;
    t.negate = !t.negate;  // = or a range: no value; <>: every value
    return;
  }
  t.low = low, t.high = high;
}

// Clauses ANDed, each a run of terms joined by or_next; none selects every
// row. A row is selected only when every clause has a TRUE term (a clause
// of FALSE and NULL terms is FALSE or NULL, both reject).
struct FastPredicate {
  FastTerm terms[kMaxTerms];
  int32_t count = 0;
  // Some term compares two columns: only fast_predicate_flags() and
  // fast_predicate_holds() evaluate those (the vector and unrolled paths
  // read a term as one column and an interval).
  bool has_pairs = false;
};

inline uint8_t outcomes_of(Op op) {
  switch (op) {
    case Op::Eq: return 0b0010;
    case Op::Ne: return 0b1101;
    case Op::Lt: return 0b0001;
    case Op::Le: return 0b0011;
    case Op::Gt: return 0b0100;
    default: return 0b0110;  // Ge
  }
}

// A plain column of the first input (no rowid pseudo-column, no join side).
inline bool plain_column(const ColumnPointer& c) { return !c.is_rowid && c.side == 0 && c.data != nullptr; }

inline bool is_double_type(Type t) { return t == Type::Double || t == Type::Real; }

// Whether two columns' values compare as they are stored: the same storage
// (signed 32 or 64 bits, or unsigned 32-bit codes), not floating.
inline bool same_integer_storage(Type a, Type b) {
  auto kind = [](Type t) {
    switch (t) {
      case Type::Boolean: return 1;
      case Type::Integer:
      case Type::Date: return 4;
      case Type::Varchar: return 5;
      case Type::BigInt:
      case Type::Decimal: return 8;
      default: return 0;  // floating
    }
  };
  return kind(a) != 0 && kind(a) == kind(b);
}

// Fills `out` when `p` has a fast shape over `columns`; false otherwise (the
// caller then runs the interpreter). Terms comparing two columns make it
// false unless `pairs` (the caller evaluates them: see has_pairs).
inline bool make_fast_predicate(const ExprProgram& p, const ColumnSet& columns, FastPredicate& out,
                                bool pairs = false) {
  out = FastPredicate{};
  if (p.shape == Shape::Empty) return true;
  if (p.shape == Shape::Column) {
    const ColumnPointer& c = columns.columns[p.terms[0].slot];
    if (!plain_column(c) || is_double_type(c.type)) return false;
    FastTerm& t = out.terms[out.count++];
    t.data = c.data;
    t.validity = c.validity;
    t.rows = c.rows;
    t.type = c.type;
    t.outcomes = outcomes_of(Op::Ne);  // selected when the value is not 0
    t.value.i = 0;
    set_interval(t);
    return true;
  }
  if (p.shape != Shape::Conjunction || p.term_count < 1 || p.term_count > kMaxTerms) return false;
  for (int i = 0; i < p.term_count; ++i) {
    const Term& term = p.terms[i];
    const ColumnPointer& c = columns.columns[term.slot];
    if (!plain_column(c) || is_double_type(c.type) != (term.cls == Cls::Double)) return false;
    FastTerm& t = out.terms[out.count++];
    t.data = c.data;
    t.validity = c.validity;
    t.rows = c.rows;
    t.type = c.type;
    t.outcomes = outcomes_of(term.op);
    t.never = term.null_constant;
    t.or_next = term.or_next;
    t.value.i = term.value.i;
    if (term.column_operand) {
      const ColumnPointer& o = columns.columns[term.other_slot];
      if (!pairs || !plain_column(o) || !same_integer_storage(c.type, o.type)) return false;
      t.other = o.data;
      t.other_validity = o.validity;
      t.other_rows = o.rows;
      out.has_pairs = true;
      continue;
    }
    if (!is_double_type(c.type)) set_interval(t);
  }
  return true;
}

// Whether a non-NULL `value` of t's column (T: its storage type) satisfies
// the comparison: floating-point values compare as DOUBLE, integers by the
// term's interval (the same answer as comparing as BIGINT).
template <class T>
GPUSQL_HD bool term_holds(const FastTerm& t, T value) {
  if constexpr (std::is_floating_point_v<T>) {
    double v = static_cast<double>(value), c = t.value.d;
    const int outcome = (v != v || c != c) ? 3 : v < c ? 0 : v == c ? 1 : 2;
    return (t.outcomes >> outcome) & 1u;
  } else if constexpr (sizeof(T) <= 4) {  // low and high lie in the storage's range
    const uint32_t offset = static_cast<uint32_t>(value) - static_cast<uint32_t>(t.low);
    return (offset <= static_cast<uint32_t>(t.high) - static_cast<uint32_t>(t.low)) != t.negate;
  } else {
    const uint64_t offset = static_cast<uint64_t>(value) - static_cast<uint64_t>(t.low);
    return (offset <= static_cast<uint64_t>(t.high) - static_cast<uint64_t>(t.low)) != t.negate;
  }
}

// Whether `value` <op> `other` holds for a term comparing two columns.
template <class T>
GPUSQL_HD bool pair_holds(const FastTerm& t, T value, T other) {
  const int outcome = value < other ? 0 : value == other ? 1 : 2;
  return (t.outcomes >> outcome) & 1u;
}

#if defined(__CUDACC__)

template <class T>
__device__ __forceinline__ T load_streaming(const T* p) {
  return __ldg(p);
}

// Clears the bits of `flags` (bit k: item k, position base + k*BLOCK +
// threadIdx.x) whose row fails `t`; T is the column's storage type.
template <class T, int BLOCK_THREADS, int ITEMS>
__device__ __forceinline__ uint32_t term_flags(const FastTerm& t, const uint32_t* __restrict__ selection,
                                               uint64_t base, uint32_t flags) {
  const T* __restrict__ data = static_cast<const T*>(t.data);
  T values[ITEMS];
  uint32_t valid = flags;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const bool live = (flags >> k) & 1u;
    uint64_t position = base + static_cast<uint64_t>(k) * BLOCK_THREADS + threadIdx.x;
    uint32_t row = static_cast<uint32_t>(position);
    if (selection && live) row = selection[position];
    if (t.rows && live) row = t.rows[row];
    values[k] = live ? load_streaming(data + row) : T{};
    if (t.validity && live && !row_is_valid(t.validity, row)) valid &= ~(1u << k);
  }
  if (t.other) {  // compared with a second column's value at the same position
    const T* __restrict__ other = static_cast<const T*>(t.other);
    T others[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const bool live = (flags >> k) & 1u;
      uint64_t position = base + static_cast<uint64_t>(k) * BLOCK_THREADS + threadIdx.x;
      uint32_t row = static_cast<uint32_t>(position);
      if (selection && live) row = selection[position];
      if (t.other_rows && live) row = t.other_rows[row];
      others[k] = live ? load_streaming(other + row) : T{};
      if (t.other_validity && live && !row_is_valid(t.other_validity, row)) valid &= ~(1u << k);
    }
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (!pair_holds(t, values[k], others[k])) valid &= ~(1u << k);
    return valid;
  }
#pragma unroll
  for (int k = 0; k < ITEMS; ++k)
    if (!term_holds(t, values[k])) valid &= ~(1u << k);
  flags = valid;
  return flags;
}

inline __host__ __device__ int storage_bytes(Type t) {
  switch (t) {
    case Type::Boolean: return 1;
    case Type::BigInt:
    case Type::Decimal:
    case Type::Double: return 8;
    default: return 4;
  }
}

// Asks L2 for rows [begin, end) of a column, one 128-byte line per thread of
// the block: a hint (no registers, no wait), so a tile's loads can hit L2
// while the block still works on the tile before it.
__device__ __forceinline__ void prefetch_rows_l2(const void* data, Type type, uint64_t begin, uint64_t end) {
  const int size = storage_bytes(type);
  const char* first = static_cast<const char*>(data) + begin * size;
  const uint64_t lines = ((end - begin) * size + 127) / 128;
  for (uint64_t line = threadIdx.x; line < lines; line += blockDim.x)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(first + line * 128));
}

// prefetch_rows_l2() for each term's column; only where positions are rows.
__device__ __forceinline__ void prefetch_predicate_l2(const FastPredicate& p, const uint32_t* selection, uint64_t begin,
                                                      uint64_t end) {
  if (selection) return;
  for (int i = 0; i < p.count; ++i) {
    if (!p.terms[i].rows) prefetch_rows_l2(p.terms[i].data, p.terms[i].type, begin, end);
    if (p.terms[i].other && !p.terms[i].other_rows) prefetch_rows_l2(p.terms[i].other, p.terms[i].type, begin, end);
  }
}

// `flags` less the items that fail some clause of `p`. term_bits(t, f)
// gives the bits of `f` whose row satisfies term t; a clause's later terms
// are asked only about the items its earlier terms did not satisfy.
template <class TermBits>
__device__ __forceinline__ uint32_t clause_flags(const FastPredicate& p, uint32_t flags, TermBits term_bits) {
  for (int i = 0; i < p.count && flags; ++i) {
    const FastTerm& t = p.terms[i];
    if (!t.or_next) {  // a clause of one term: as tight as a plain conjunction
      flags = t.never ? 0u : term_bits(t, flags);
      continue;
    }
    uint32_t clause = 0;
    for (;; ++i) {
      const FastTerm& u = p.terms[i];
      if (!u.never) clause |= term_bits(u, flags & ~clause);
      if (!u.or_next || i + 1 >= p.count) break;
    }
    flags &= clause;
  }
  return flags;
}

// The bits of the thread's items (within `count`) that `p` selects.
template <int BLOCK_THREADS, int ITEMS>
__device__ __forceinline__ uint32_t fast_predicate_flags(const FastPredicate& p, const uint32_t* __restrict__ selection,
                                                         uint64_t base, uint64_t count) {
  static_assert(ITEMS <= 32, "one flag bit per item");
  uint32_t flags = 0;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k)
    if (base + static_cast<uint64_t>(k) * BLOCK_THREADS + threadIdx.x < count) flags |= 1u << k;
  return clause_flags(p, flags, [&](const FastTerm& t, uint32_t f) {
    switch (t.type) {
      case Type::Boolean: return term_flags<uint8_t, BLOCK_THREADS, ITEMS>(t, selection, base, f);
      case Type::Integer:
      case Type::Date: return term_flags<int32_t, BLOCK_THREADS, ITEMS>(t, selection, base, f);
      case Type::Varchar: return term_flags<uint32_t, BLOCK_THREADS, ITEMS>(t, selection, base, f);
      case Type::BigInt:
      case Type::Decimal: return term_flags<int64_t, BLOCK_THREADS, ITEMS>(t, selection, base, f);
      case Type::Real: return term_flags<float, BLOCK_THREADS, ITEMS>(t, selection, base, f);
      default: return term_flags<double, BLOCK_THREADS, ITEMS>(t, selection, base, f);  // Double
    }
  });
}

// Whether `t` holds for row `row` of its column (T: the storage type): the
// value is not NULL and satisfies the comparison.
template <class T>
__device__ __forceinline__ bool term_holds_at(const FastTerm& t, uint32_t row) {
  return row_is_valid(t.validity, row) && term_holds(t, load_streaming(static_cast<const T*>(t.data) + row));
}

// The same for a term comparing two columns, at the entry `id` both read.
template <class T>
__device__ __forceinline__ bool pair_holds_at(const FastTerm& t, uint32_t id) {
  const uint32_t row = t.rows ? t.rows[id] : id, other = t.other_rows ? t.other_rows[id] : id;
  return row_is_valid(t.validity, row) && row_is_valid(t.other_validity, other) &&
         pair_holds(t, load_streaming(static_cast<const T*>(t.data) + row),
                    load_streaming(static_cast<const T*>(t.other) + other));
}

// Whether `p` selects the row at `id` (a position, or an entry of a
// selection vector): the same rows as fast_predicate_flags(), one row at a
// time, each term read through its own row-id vector. Stops at the first
// clause that fails; a clause stops at its first term that holds.
__device__ __forceinline__ bool fast_predicate_holds(const FastPredicate& p, uint32_t id) {
  bool clause = false;
  for (int i = 0; i < p.count; ++i) {
    const FastTerm& t = p.terms[i];
    if (clause || t.never) {
      if (!t.or_next) {
        if (!clause) return false;
        clause = false;
      }
      continue;
    }
    const uint32_t row = t.rows ? t.rows[id] : id;
    bool holds;
    if (t.other) {
      switch (t.type) {
        case Type::Boolean: holds = pair_holds_at<uint8_t>(t, id); break;
        case Type::Integer:
        case Type::Date: holds = pair_holds_at<int32_t>(t, id); break;
        case Type::Varchar: holds = pair_holds_at<uint32_t>(t, id); break;
        default: holds = pair_holds_at<int64_t>(t, id); break;  // BIGINT, DECIMAL
      }
    } else switch (t.type) {
      case Type::Boolean: holds = term_holds_at<uint8_t>(t, row); break;
      case Type::Integer:
      case Type::Date: holds = term_holds_at<int32_t>(t, row); break;
      case Type::Varchar: holds = term_holds_at<uint32_t>(t, row); break;
      case Type::BigInt:
      case Type::Decimal: holds = term_holds_at<int64_t>(t, row); break;
      case Type::Real: holds = term_holds_at<float>(t, row); break;
      default: holds = term_holds_at<double>(t, row); break;  // Double
    }
    clause = holds;
    if (!t.or_next) {
      if (!clause) return false;
      clause = false;
    }
  }
  return true;
}

// The same bits through the interpreter (any predicate).
template <int BLOCK_THREADS, int ITEMS>
__device__ __forceinline__ uint32_t general_predicate_flags(const ExprProgram& p, const ColumnSet& columns,
                                                            const uint32_t* __restrict__ selection, uint64_t base,
                                                            uint64_t count, uint32_t& error) {
  uint32_t flags = 0;
#pragma unroll 1
  for (int k = 0; k < ITEMS; ++k) {
    uint64_t position = base + static_cast<uint64_t>(k) * BLOCK_THREADS + threadIdx.x;
    if (position >= count) break;
    int64_t row = selection ? selection[position] : static_cast<int64_t>(position);
    if (evaluate_predicate(p, columns, row, error)) flags |= 1u << k;
  }
  return flags;
}

#endif

}  // namespace gpusql::kernels
