// TABLE_SCAN: a table's rows as chunks of ExecutionContext::chunk_rows rows
// (the whole table in one when 0), each column read where the backend keeps
// the table.
#include <algorithm>

#include "execution/operator/operators.hpp"

namespace gpusql {
namespace {

class TableScan final : public PhysicalOperator {
 public:
  explicit TableScan(const PlanNode& scan) : PhysicalOperator(Role::Source, "TABLE_SCAN", &scan) {}

  std::optional<Chunk> produce(ExecutionContext& context) override {
    if (done_) return std::nullopt;
    const PlanNode& scan = *node();
    const std::size_t rows = scan.table.table->rows;
    const std::size_t step = context.chunk_rows ? context.chunk_rows : std::max<std::size_t>(rows, 1);
    const std::size_t end = std::min(rows, next_ + step);
    Chunk chunk = context.backend.scan(*scan.table.table, scan.table.first_column, scan.column_count, next_, end);
    next_ = end;
    done_ = next_ >= rows;
    return chunk;
  }

 private:
  std::size_t next_ = 0;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<PhysicalOperator> make_table_scan(const PlanNode& scan) { return std::make_unique<TableScan>(scan); }

}  // namespace gpusql
