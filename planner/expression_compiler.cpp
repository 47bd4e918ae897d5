#include "planner/expression_compiler.hpp"

#include <algorithm>
#include <unordered_map>

#include "storage/host_column.hpp"

namespace gpusql {

int SlotMap::add(Source source) {
  for (std::size_t i = 0; i < sources_.size(); ++i)
    if (sources_[i].column == source.column && sources_[i].lookup == source.lookup) return static_cast<int>(i);
  if (sources_.size() >= static_cast<std::size_t>(kMaxColumns))
    throw Error(ErrorKind::NotSupported,
                "not supported yet: one operator reading more than " + std::to_string(kMaxColumns) + " columns");
  sources_.push_back(source);
  return static_cast<int>(sources_.size() - 1);
}

Instr* SlotMap::overflow_space(std::size_t count) {
  overflow_.push_back(std::make_shared<UnifiedBuffer>(count * sizeof(Instr)));
  return static_cast<Instr*>(overflow_.back()->data());
}

int SlotMap::slot_of(int column) { return add({column, nullptr}); }
int SlotMap::slot_of_lookup(std::shared_ptr<const LookupTable> table) { return add({-1, std::move(table)}); }

ColumnSet host_column_set(const SlotMap& slots, const HostColumn& column) {
  ColumnSet set;
  for (const auto& source : slots.sources()) {
    ColumnPointer p;
    if (source.lookup) {
      p = host_pointer(*source.lookup);
    } else {
      p.data = column.bytes.data();
      p.validity = column.has_nulls() ? column.validity.data() : nullptr;
      p.type = column.type.storage();
    }
    set.columns[set.count++] = p;
  }
  return set;
}

ColumnPointer host_pointer(const LookupTable& table) {
  ColumnPointer p;
  p.data = table.bytes.data();
  p.size = table.entries;
  p.type = table.type;
  return p;
}

Cls compute_class(DataType type) {
  return type.is_floating() ? Cls::Double : type.is_wide_decimal() ? Cls::Wide : Cls::Int;
}

namespace {

// A binary operation whose right operand may be evaluated first: the
// commutative ones as they are, a comparison mirrored, - / % followed by a
// Swap. Both operands of one compute class (the instruction's class is the
// first operand's).
bool reorderable(const BoundExpr& e) {
  switch (e.op) {
    case Op::Add: case Op::Mul: case Op::Eq: case Op::Ne: case Op::And: case Op::Or:
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
    case Op::Sub: case Op::Div: case Op::Mod:
      return e.children.size() == 2 && compute_class(e.children[0].type) == compute_class(e.children[1].type);
    default: return false;
  }
}

struct Emitter {
  explicit Emitter(SlotMap& slot_map) : slots(slot_map) {}

  SlotMap& slots;
  std::vector<Instr> code;
  int depth = 0;
  int max_depth = 0;
  // With `reorder`, a binary operation evaluates its needier operand first
  // (Sethi and Ullman's order), so that a chain nested either way, a - (b -
  // (c - ...)) as much as ((a - b) - c) - ..., holds 2 values at once, and
  // any tree of n operations at most log2(n) + 1. Only an expression that
  // needs more than kMaxStack values in the written order is reordered:
  // every other program stays as it was written.
  bool reorder = false;
  std::unordered_map<const BoundExpr*, int> needs;  // values each subtree holds at once at its peak

  bool right_first(const BoundExpr& e) const {
    return reorder && reorderable(e) && needs.at(&e.children[1]) > needs.at(&e.children[0]);
  }

  int measure(const BoundExpr& e) {
    for (const auto& child : e.children) measure(child);
    int need = 1;
    if (e.op == Op::Select) {  // else, condition, then: see emit()
      need = std::max({needs.at(&e.children[2]), needs.at(&e.children[0]) + 1, needs.at(&e.children[1]) + 2});
    } else if (reorder && reorderable(e)) {
      const int l = needs.at(&e.children[0]), r = needs.at(&e.children[1]);
      need = r > l ? std::max(r, l + 1) : std::max(l, r + 1);
    } else {
      for (std::size_t i = 0; i < e.children.size(); ++i)
        need = std::max(need, static_cast<int>(i) + needs.at(&e.children[i]));
    }
    needs[&e] = need;
    return need;
  }

  void push(const Instr& instr, int stack_effect, std::size_t offset) {
    code.push_back(instr);
    depth += stack_effect;
    max_depth = std::max(max_depth, depth);
    if (max_depth > kMaxStack)
      throw Error(ErrorKind::NotSupported,
                  "not supported yet: an expression nested more than " + std::to_string(kMaxStack) + " levels deep",
                  offset);
  }

  void emit(const BoundExpr& e) {
    const bool swapped = right_first(e);
    if (e.op == Op::Select) {
      // The else value first (see Op::Select): a CASE binds as selects nested
      // in their else values, which then run one after the other.
      emit(e.children[2]);
      emit(e.children[0]);
      emit(e.children[1]);
    } else if (swapped) {
      emit(e.children[1]);
      emit(e.children[0]);
      if (e.op == Op::Sub || e.op == Op::Div || e.op == Op::Mod) {
        Instr swap;
        swap.op = Op::Swap;
        push(swap, 0, e.offset);
      }
    } else {
      for (const auto& child : e.children) emit(child);
    }
    Instr in;
    in.op = swapped ? mirrored(e.op) : e.op;
    // Comparisons and arithmetic run in the class of their operands (a
    // select, in that of its results).
    // A step that makes a 128-bit value from 64-bit ones is 128-bit itself.
    in.cls = e.children.empty() || e.op == Op::ToWide || e.op == Op::WideFromParts || e.op == Op::ToWideHalfAway
                 ? compute_class(e.type)
             : e.op == Op::Select ? compute_class(e.children[1].type)
                                  : compute_class(e.children[0].type);
    // A 128-bit result from a 64-bit step would leave its upper word unset:
    // a binder bug, refused here rather than answered wrong.
    if (compute_class(e.type) == Cls::Wide && in.cls != Cls::Wide)
      throw Error(ErrorKind::Invalid, "internal: a 128-bit DECIMAL computed by a 64-bit step", e.offset);
    int effect = 0;
    switch (e.op) {
      case Op::Column:
        in.slot = static_cast<uint8_t>(slots.slot_of(e.column));
        effect = 1;
        break;
      case Op::RowId: effect = 1; break;
      case Op::Lookup:
      case Op::Rank:
        in.slot = static_cast<uint8_t>(slots.slot_of_lookup(e.lookup));
        effect = 0;
        break;
      case Op::Constant: {
        // A 128-bit constant makes the program 128-bit (its upper word is
        // the sign of the 64 bits it holds), also alone: CAST('-3' AS
        // DECIMAL(30,2)) printed its lower word as unsigned.
        const bool wide = in.cls == Cls::Wide;
        in = e.constant;
        in.op = Op::Constant;
        if (wide) in.cls = Cls::Wide;
        effect = 1;
        break;
      }
      default: effect = 1 - static_cast<int>(e.children.size()); break;
    }
    push(in, effect, e.offset);
  }
};

bool collect_comparison(const BoundExpr& e, SlotMap& slots, std::vector<Term>& terms);

// Adds the comparisons of a column with a constant that `e` ORs (an IN list
// binds to such ORs) to `terms` as one clause: every term but the last has
// or_next set. False when `e` is not of that shape.
bool collect_disjunction(const BoundExpr& e, SlotMap& slots, std::vector<Term>& terms) {
  if (e.op == Op::Or) {
    if (!collect_disjunction(e.children[0], slots, terms)) return false;
    terms.back().or_next = true;
    return collect_disjunction(e.children[1], slots, terms);
  }
  return collect_comparison(e, slots, terms);
}

// Adds `e`'s clauses -- comparisons of a column with a constant, or ORs of
// them -- ANDed, to `terms`; false when `e` is not of that shape.
bool collect_conjunction(const BoundExpr& e, SlotMap& slots, std::vector<Term>& terms) {
  if (e.op == Op::And) return collect_conjunction(e.children[0], slots, terms) && collect_conjunction(e.children[1], slots, terms);
  if (e.op == Op::Or) return collect_disjunction(e, slots, terms);
  return collect_comparison(e, slots, terms);
}

// Adds `e`, a comparison of a column with a constant or of two integer
// columns (DATE, INTEGER, BIGINT, DECIMAL of one scale, codes of one
// dictionary: the binder made them comparable as they are), to `terms`.
bool collect_comparison(const BoundExpr& e, SlotMap& slots, std::vector<Term>& terms) {
  if (!is_comparison(e.op)) return false;
  const BoundExpr *column = &e.children[0], *constant = &e.children[1];
  Op op = e.op;
  if (column->op == Op::Constant) {
    std::swap(column, constant);
    op = mirrored(op);
  }
  if (column->op == Op::Column && constant->op == Op::Column) {
    Term t;
    t.op = op;
    t.cls = compute_class(column->type);
    if (t.cls != Cls::Int || compute_class(constant->type) != Cls::Int) return false;
    t.slot = static_cast<uint8_t>(slots.slot_of(column->column));
    t.column_operand = true;
    t.other_slot = static_cast<uint8_t>(slots.slot_of(constant->column));
    terms.push_back(t);
    return terms.size() <= static_cast<std::size_t>(kMaxTerms);
  }
  if (column->op != Op::Column || constant->op != Op::Constant) return false;
  Term t;
  t.op = op;
  t.cls = compute_class(column->type);
  if (t.cls != compute_class(constant->type) || t.cls == Cls::Wide) return false;  // terms hold 64 bits
  t.slot = static_cast<uint8_t>(slots.slot_of(column->column));
  t.null_constant = constant->constant.null_constant;
  t.value.i = constant->constant.value.i;
  terms.push_back(t);
  return terms.size() <= static_cast<std::size_t>(kMaxTerms);
}

bool leaf_term(const BoundExpr& e, SlotMap& slots, Term& t) {
  t.cls = compute_class(e.type);
  if (e.op == Op::Column) {
    t.slot = static_cast<uint8_t>(slots.slot_of(e.column));
    return true;
  }
  if (e.op == Op::Constant) {
    t.is_constant = true;
    t.null_constant = e.constant.null_constant;
    t.value.i = e.constant.value.i;
    return true;
  }
  return false;
}

bool is_arithmetic(Op op) { return op == Op::Add || op == Op::Sub || op == Op::Mul; }

// Adds `e` to `terms` as a Chain (core/expr_program.hpp) of class `cls`:
// + - * nested to the left, each right operand a column, a constant, or one
// + - * of two of them; CheckDecimal (of the 18-digit bound) after any step.
// False when `e` is not of that shape or needs more than kMaxTerms terms.
bool collect_chain(const BoundExpr& e, Cls cls, SlotMap& slots, std::vector<Term>& terms) {
  if (e.op == Op::CheckDecimal) {
    const BoundExpr& bound = e.children[1];
    if (compute_class(e.type) != cls || bound.op != Op::Constant || bound.constant.null_constant ||
        bound.constant.value.i != kDecimalBound || !collect_chain(e.children[0], cls, slots, terms))
      return false;
    terms.back().check = true;
    return true;
  }
  Term leaf;
  if (leaf_term(e, slots, leaf)) {
    terms.push_back(leaf);
    return leaf.cls == cls && terms.size() <= static_cast<std::size_t>(kMaxTerms);
  }
  if (!is_arithmetic(e.op) || compute_class(e.type) != cls || !collect_chain(e.children[0], cls, slots, terms))
    return false;
  const BoundExpr& right = e.children[1];
  Term a, b;
  if (leaf_term(right, slots, a)) {
    a.op = e.op;
    terms.push_back(a);
    return a.cls == cls && terms.size() <= static_cast<std::size_t>(kMaxTerms);
  }
  if (!is_arithmetic(right.op) || compute_class(right.type) != cls || !leaf_term(right.children[0], slots, a) ||
      !leaf_term(right.children[1], slots, b) || a.cls != cls || b.cls != cls)
    return false;
  a.op = e.op;
  a.pair_next = true;
  b.op = right.op;
  terms.push_back(a);
  terms.push_back(b);
  return terms.size() <= static_cast<std::size_t>(kMaxTerms);
}

void classify(const BoundExpr& expr, SlotMap& slots, ExprProgram& program) {
  program.shape = Shape::General;
  if (compute_class(expr.type) == Cls::Wide) return;  // 128-bit values: the interpreter only
  if (expr.op == Op::Column) {
    program.shape = Shape::Column;
    program.term_count = 1;
    program.terms[0].slot = static_cast<uint8_t>(slots.slot_of(expr.column));
    return;
  }
  std::vector<Term> terms;
  if ((expr.op == Op::And || expr.op == Op::Or || is_comparison(expr.op)) && collect_conjunction(expr, slots, terms)) {
    program.shape = Shape::Conjunction;
    program.term_count = static_cast<int32_t>(terms.size());
    for (std::size_t i = 0; i < terms.size(); ++i) program.terms[i] = terms[i];
    return;
  }
  if (is_arithmetic(expr.op)) {
    Term a, b;
    if (leaf_term(expr.children[0], slots, a) && leaf_term(expr.children[1], slots, b) && a.cls == b.cls &&
        compute_class(expr.type) == a.cls && a.cls != Cls::Wide) {
      a.op = expr.op;
      program.shape = Shape::Arithmetic;
      program.term_count = 2;
      program.terms[0] = a;
      program.terms[1] = b;
      return;
    }
  }
  const Cls cls = compute_class(expr.type);
  terms.clear();
  if ((is_arithmetic(expr.op) || expr.op == Op::CheckDecimal) && collect_chain(expr, cls, slots, terms)) {
    program.shape = Shape::Chain;
    program.term_count = static_cast<int32_t>(terms.size());
    for (std::size_t i = 0; i < terms.size(); ++i) program.terms[i] = terms[i];
  }
}

}  // namespace

ExprProgram compile_expression(const BoundExpr& expr, SlotMap& slots) {
  Emitter emitter(slots);
  if (emitter.measure(expr) > kMaxStack) {
    emitter.reorder = true;
    emitter.measure(expr);
  }
  emitter.emit(expr);
  if (emitter.code.size() > static_cast<std::size_t>(INT32_MAX))
    throw Error(ErrorKind::NotSupported, "not supported: an expression of more than 2^31 operations", expr.offset);
  ExprProgram program;
  program.length = static_cast<int32_t>(emitter.code.size());
  const std::size_t inline_count = std::min<std::size_t>(emitter.code.size(), kMaxInstrs);
  std::copy_n(emitter.code.begin(), inline_count, program.code);
  if (emitter.code.size() > inline_count) {
    Instr* rest = slots.overflow_space(emitter.code.size() - inline_count);
    std::copy(emitter.code.begin() + inline_count, emitter.code.end(), rest);
    program.overflow = rest;
  }
  program.result_cls = compute_class(expr.type);
  for (const Instr& in : emitter.code) program.wide = program.wide || in.cls == Cls::Wide;
  classify(expr, slots, program);
  return program;
}


Error more_than_one_row(std::optional<std::size_t> offset) {
  return Error(ErrorKind::Invalid,
               "More than one row returned by a subquery used as an expression - scalar subqueries can only return "
               "a single row.",
               offset);
}

// The evaluator zeroes a value that overflowed or failed a check, so two
// bits in one word come from two places that failed on their own. An
// overflow in arithmetic is reported first, as DuckDB, which evaluates an
// expression operation by operation over a whole vector, reports the inner
// operation's error (CAST(a + b AS INTEGER) fails in the addition) and, its
// sums being 128 bits wide, an overflow of an argument before a SUM's.
void throw_if_eval_error(uint32_t error) {
  if (error & kEvalWideProgram)
    throw Error(ErrorKind::Invalid, "internal: a 128-bit DECIMAL expression reached a kernel without 128-bit support");
  if (error & kEvalOverflow)
    throw Error(ErrorKind::Execution, "Out of Range: integer overflow in arithmetic (a value leaves the BIGINT range)");
  if (error & kEvalDecimalOverflow)
    throw Error(ErrorKind::Execution,
                "Out of Range: overflow in DECIMAL arithmetic (a result needs more digits than its type holds: 18, or "
                "38 beside a SUM; add an explicit CAST to DOUBLE)");
  if (error & kEvalSumOverflow)
    throw Error(ErrorKind::Execution, "Out of Range: integer overflow in SUM (the total leaves the BIGINT range)");
  if (error & kEvalSubqueryRows) throw more_than_one_row();
  if (error & kEvalConversion)
    throw Error(ErrorKind::Conversion, "CAST: a VARCHAR value does not convert to the type it is cast to");
  if (error & kEvalCastRange)
    throw Error(ErrorKind::Conversion, "CAST: a value is out of range for the type it is cast to");
  if (error & kEvalDateRange)
    throw Error(ErrorKind::Execution,
                "Out of Range: date out of range (DATE spans 5877642-06-25 (BC) to 5881580-07-10)");
}

}  // namespace gpusql
