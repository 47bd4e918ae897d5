// What both backends share: how values are keyed and how aggregate states
// become values.
#include "execution/compute_backend.hpp"

#include <map>

namespace gpusql {
namespace {

ColumnPointer pointer_of(const ColumnView& c, uint8_t side) {
  ColumnPointer p;
  p.data = c.data;
  p.validity = c.validity;
  p.rows = c.rows ? c.rows->data() : nullptr;
  p.type = c.value_type().storage();
  p.is_rowid = c.rowid;
  p.side = side;
  return p;
}

}  // namespace

std::vector<BoundExpr> order_parts(const BoundExpr& value) {
  if (!value.type.is_wide_decimal()) return {value};
  std::vector<BoundExpr> parts;
  for (Op op : {Op::WideHigh, Op::WideLow}) {
    BoundExpr part;
    part.op = op;
    part.type = DataType::bigint();
    part.offset = value.offset;
    part.children.push_back(value);
    parts.push_back(std::move(part));
  }
  return parts;
}

BoundExpr column_ref(const Chunk& input, std::size_t c) {
  BoundExpr ref;
  ref.op = Op::Column;
  ref.column = static_cast<int>(c);
  ref.type = input.columns[c].value_type();
  ref.dictionary = input.columns[c].dictionary;
  return ref;
}

// Any number: the GPU kernels that keep states in registers take at most
// kMaxAggregates a launch, and their callers split or refuse larger sets.
std::vector<AggSpec> compile_aggregates(const std::vector<BoundAggregate>& aggregates, SlotMap& slots) {
  std::vector<AggSpec> specs;
  for (const auto& a : aggregates) {
    AggSpec spec;
    spec.kind = a.kind;
    const BoundExpr* value = a.order ? &*a.order : a.argument ? &*a.argument : nullptr;
    if (value) {
      spec.arg = compile_expression(*value, slots);
      spec.cls = compute_class(value->type);
    }
    specs.push_back(spec);
  }
  return specs;
}

void store_aggregate_result(const BoundAggregate& a, const AggState& s, HostColumn& column, std::size_t row,
                            uint32_t& error) {
  const bool double_argument = a.argument && a.argument->type.is_floating();
  const int decimal_scale = a.argument && a.argument->type.id == Type::Decimal ? a.argument->type.scale : -1;
  const bool narrow_decimal = a.argument && a.argument->type.id == Type::Decimal && a.argument->type.precision <= 4;
  int64_t high = 0;
  const Slot value = final_value(a.kind, double_argument, decimal_scale, a.type.storage(), s, error, high, narrow_decimal);
  store_value(column.bytes.data(), a.type.storage(), static_cast<int64_t>(row), value, high);
  if (!value.valid) column.set_null(row);
}

ColumnSet column_set(const SlotMap& slots, const Chunk& input, const Chunk* right,
                     const std::function<ColumnPointer(const std::shared_ptr<const LookupTable>&)>& lookup) {
  ColumnSet set;
  for (const auto& source : slots.sources()) {
    ColumnPointer p;
    if (source.lookup) {
      p = lookup(source.lookup);
    } else if (right && source.column < static_cast<int>(right->columns.size()) &&
               right->columns[source.column].present) {
      p = pointer_of(right->columns[source.column], 1);
    } else {
      const ColumnView& c = input.columns.at(source.column);
      if (!c.present) throw Error(ErrorKind::Invalid, "internal: an operator reads a column its input lacks");
      p = pointer_of(c, 0);
    }
    set.columns[set.count++] = p;
  }
  return set;
}

Chunk scan_chunk(std::vector<ColumnView> columns, int first_column, int column_count, PositionsPtr rows,
                 std::size_t count, MemorySpace space) {
  Chunk c;
  c.space = space;
  c.count = count;
  c.columns.resize(column_count);
  ColumnView rowid;
  rowid.rowid = true;
  rowid.present = true;
  rowid.type = DataType::bigint();
  columns.push_back(std::move(rowid));
  for (std::size_t i = 0; i < columns.size(); ++i) {
    columns[i].rows = rows;
    c.columns[first_column + i] = std::move(columns[i]);
  }
  return c;
}

Chunk compose(ComputeBackend& backend, const Chunk& input, const PositionsPtr& positions) {
  Chunk out;
  out.count = positions->size();
  out.space = input.space;
  out.owned = input.owned;
  // Columns read through the same selection share the composed one.
  std::map<const Positions*, PositionsPtr> composed;
  for (const ColumnView& c : input.columns) {
    ColumnView n = c;
    if (c.present) {
      if (!c.rows) {
        n.rows = positions;
      } else {
        PositionsPtr& shared = composed[c.rows.get()];
        if (!shared) shared = backend.gather(*c.rows, *positions);
        n.rows = shared;
      }
    }
    out.columns.push_back(std::move(n));
  }
  return out;
}

}  // namespace gpusql
