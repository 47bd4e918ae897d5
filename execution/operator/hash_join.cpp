// HASH_JOIN: pairs of equal keys, in (left, right) order, the hash table on
// the side the plan builds. When the right side builds (and the join is
// not FULL), its table is built once and the left streams through it chunk
// by chunk; otherwise both sides
// are taken whole first, since the output's order needs every probe row:
// a left build is ordered by the left (probe-order) positions it finds, a
// FULL JOIN appends the right rows no left row matched.
#include "execution/operator/join_output.hpp"
#include "execution/operator/operators.hpp"

namespace gpusql {
namespace {

bool streams(const PlanNode& join) { return join.build_right && !join.full_outer; }

class HashJoin final : public PhysicalOperator {
 public:
  explicit HashJoin(const PlanNode& join)
      : PhysicalOperator(streams(join) ? Role::Join : Role::Sink, "HASH_JOIN", &join) {}

  int sink_sides() const override { return 2; }

  void sink(ExecutionContext&, Chunk input, int side) override { sides_[side].push_back(std::move(input)); }

  void finalize(ExecutionContext& context) override {
    right_ = combine(context.backend, std::move(sides_[1]));
    if (role() == Role::Join) return;
    const PlanNode& join = *node();
    const Chunk left = combine(context.backend, std::move(sides_[0]));
    HashJoinSpec spec{&join.keys, join.build_right, join.left_outer, join.full_outer};
    JoinPositions pairs = context.backend.hash_join(left, right_, spec);
    result_ = output(context, left, pairs);
  }

  // The table is built at the first probe, after the operators under the
  // probe side have run: built just before it is read, it is still in the
  // GPU's L2 cache (a table of a few million keys fits in it), where a
  // build at finalize() would see the probe side's scans evict it
  // (bench/RESULTS.md).
  Chunk execute(ExecutionContext& context, Chunk probe) override {
    if (!table_) table_ = context.backend.build_join(right_, node()->keys);
    JoinPositions pairs = context.backend.probe_join(*table_, probe, node()->keys, node()->left_outer);
    return output(context, probe, pairs);
  }

  std::optional<Chunk> produce(ExecutionContext&) override { return std::exchange(result_, std::nullopt); }

 private:
  Chunk output(ExecutionContext& context, const Chunk& left, JoinPositions& pairs) {
    if (node()->left_outer) return outer_join_output(context.backend, left, right_, pairs, node()->full_outer);
    return join_output(context.backend, left, right_, pairs);
  }

  std::vector<Chunk> sides_[2];
  Chunk right_;                        // the right side, whole
  std::unique_ptr<JoinBuild> table_;   // streaming: its hash table
  std::optional<Chunk> result_;  // a Sink's: the whole join
};

}  // namespace

std::unique_ptr<PhysicalOperator> make_hash_join(const PlanNode& join) { return std::make_unique<HashJoin>(join); }

}  // namespace gpusql
