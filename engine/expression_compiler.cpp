#include "engine/expression_compiler.hpp"

#include <algorithm>

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

int SlotMap::slot_of(int column) { return add({column, nullptr}); }
int SlotMap::slot_of_lookup(const std::vector<uint8_t>* table) { return add({-1, table}); }

Cls compute_class(DataType type) { return type.is_floating() ? Cls::Double : Cls::Int; }

namespace {

struct Emitter {
  ExprProgram& program;
  SlotMap& slots;
  int depth = 0;
  int max_depth = 0;

  void push(const Instr& instr, int stack_effect, std::size_t offset) {
    if (program.length >= kMaxInstrs)
      throw Error(ErrorKind::NotSupported,
                  "not supported yet: an expression of more than " + std::to_string(kMaxInstrs) + " operations",
                  offset);
    program.code[program.length++] = instr;
    depth += stack_effect;
    max_depth = std::max(max_depth, depth);
    if (max_depth > kMaxStack)
      throw Error(ErrorKind::NotSupported,
                  "not supported yet: an expression nested more than " + std::to_string(kMaxStack) + " levels deep",
                  offset);
  }

  void emit(const BoundExpr& e) {
    for (const auto& child : e.children) emit(child);
    Instr in;
    in.op = e.op;
    // Comparisons and arithmetic run in the class of their operands (a
    // select, in that of its results).
    in.cls = e.children.empty() ? compute_class(e.type)
             : e.op == Op::Select ? compute_class(e.children[1].type)
                                  : compute_class(e.children[0].type);
    int effect = 0;
    switch (e.op) {
      case Op::Column:
        in.slot = static_cast<uint8_t>(slots.slot_of(e.column));
        effect = 1;
        break;
      case Op::RowId: effect = 1; break;
      case Op::Lookup:
        in.slot = static_cast<uint8_t>(slots.slot_of_lookup(e.lookup.get()));
        effect = 0;
        break;
      case Op::Constant:
        in = e.constant;
        in.op = Op::Constant;
        effect = 1;
        break;
      default: effect = 1 - static_cast<int>(e.children.size()); break;
    }
    push(in, effect, e.offset);
  }
};

}  // namespace

ExprProgram compile_expression(const BoundExpr& expr, SlotMap& slots) {
  ExprProgram program;
  Emitter emitter{program, slots};
  emitter.emit(expr);
  program.result_cls = compute_class(expr.type);
  return program;
}

}  // namespace gpusql
