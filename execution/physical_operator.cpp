#include "execution/physical_operator.hpp"

namespace gpusql {

namespace {
[[noreturn]] void wrong_role(const std::string& name, const char* call) {
  throw Error(ErrorKind::Invalid, "internal: " + name + " has no " + call);
}
}  // namespace

std::optional<Chunk> PhysicalOperator::produce(ExecutionContext&) { wrong_role(name_, "produce()"); }
Chunk PhysicalOperator::execute(ExecutionContext&, Chunk) { wrong_role(name_, "execute()"); }
void PhysicalOperator::sink(ExecutionContext&, Chunk, int) { wrong_role(name_, "sink()"); }
void PhysicalOperator::finalize(ExecutionContext&) {}

Chunk combine(ComputeBackend& backend, std::vector<Chunk> chunks) {
  if (chunks.empty()) throw Error(ErrorKind::Invalid, "internal: a sink took no chunk");
  if (chunks.size() == 1) return std::move(chunks.front());
  return backend.concatenate(chunks);
}

std::optional<GroupedChunk> ComputeBackend::star_join_aggregate(const PlanNode&, const StarJoin&) {
  return std::nullopt;
}

}  // namespace gpusql
