#include "planner/constant_folding.hpp"

#include "planner/expression_compiler.hpp"

namespace gpusql {

BoundExpr fold_constants(BoundExpr e) {
  if (e.op == Op::Column || e.op == Op::Constant || e.op == Op::RowId || e.op == Op::Lookup ||
      e.op == Op::Rank)
    return e;
  if (e.type.id == Type::Varchar) return e;  // the dictionary travels with the expression
  for (const auto& c : e.children)
    if (c.op != Op::Constant || (c.type.id == Type::Varchar && !c.constant.null_constant)) return e;
  SlotMap slots;
  ExprProgram program = compile_expression(e, slots);
  ColumnSet none;
  uint32_t error = 0;
  int64_t high = 0;
  Slot value = evaluate_to(program, none, 0, error, high);
  if (error) return e;
  // A constant holds 64 bits: a 128-bit value past them stays an expression.
  if (program.result_cls == Cls::Wide && value.valid && high != (value.i >> 63)) return e;
  BoundExpr folded;
  folded.op = Op::Constant;
  folded.type = e.type;
  folded.offset = e.offset;
  folded.constant.null_constant = !value.valid;
  folded.constant.value.i = value.i;
  return folded;
}

}  // namespace gpusql
