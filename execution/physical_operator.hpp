// A physical operator: one step of a query as the compute backend runs it,
// written once for every backend (execution/operator/: one file each).
//
// Operators take one of three roles, and the roles cut a plan into
// push-based pipelines (execution/pipeline.hpp):
//  - a Source produces chunks (a table scan; every sink once finalized);
//  - an Operator turns each chunk pushed into it into one (a filter, a
//    projection, a limit);
//  - a Sink takes every chunk of each of its children, then finalizes (an
//    aggregate, a sort); it is the source of the pipeline above it.
// A Join is an Operator on its probe side (child 0) and a Sink on its build
// side (child 1), which its pipeline waits for.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/query_control.hpp"
#include "execution/compute_backend.hpp"

namespace gpusql {

class PhysicalOperator;

// What EXPLAIN ANALYZE measures of an operator: the rows it produced and
// the time of its calls (device time on the GPU).
struct OperatorStats {
  std::size_t rows = 0;
  double milliseconds = 0;
};

struct ExecutionContext {
  ComputeBackend& backend;
  const QueryControl& control;
  std::size_t chunk_rows = 0;  // a scan's rows per chunk; 0: a whole table
  // EXPLAIN ANALYZE: each operator's measurements; null otherwise.
  std::map<const PhysicalOperator*, OperatorStats>* stats = nullptr;
};

class PhysicalOperator {
 public:
  enum class Role { Source, Operator, Sink, Join };

  PhysicalOperator(Role role, std::string name, const PlanNode* node) : role_(role), name_(std::move(name)), node_(node) {}
  virtual ~PhysicalOperator() = default;
  PhysicalOperator(const PhysicalOperator&) = delete;
  PhysicalOperator& operator=(const PhysicalOperator&) = delete;

  Role role() const { return role_; }
  // EXPLAIN's name of it (TABLE_SCAN, HASH_JOIN, ...).
  const std::string& name() const { return name_; }
  // The plan operator whose rows it produces (EXPLAIN ANALYZE's actual
  // rows and time go to it); null for one no plan operator stands for.
  const PlanNode* node() const { return node_; }

  // Source (and Sink, once finalized): the next chunk, or none when done.
  // A source produces at least one chunk (maybe of no rows), so every
  // pipeline pushes one and every sink has one to combine.
  virtual std::optional<Chunk> produce(ExecutionContext& context);
  // Operator and Join (its probe side): the chunk `input` becomes.
  virtual Chunk execute(ExecutionContext& context, Chunk input);
  // Sink (child `side`) and Join (side 1): takes one chunk.
  virtual void sink(ExecutionContext& context, Chunk input, int side);
  // Sink and Join: every chunk of every sunk side has arrived.
  virtual void finalize(ExecutionContext& context);
  // The children a Sink takes chunks from: its first sink_sides() children.
  virtual int sink_sides() const { return 1; }

  // How it ran, when not as its name says (EXPLAIN ANALYZE).
  const std::string& note() const { return note_; }

  std::vector<std::unique_ptr<PhysicalOperator>> children;

 protected:
  std::string note_;

 private:
  Role role_;
  std::string name_;
  const PlanNode* node_;
};

// ---- what operators share ----

// The chunks a sink took (at least one), as one: the chunk itself when
// there is one, else their columns concatenated.
Chunk combine(ComputeBackend& backend, std::vector<Chunk> chunks);

// A Sink of one child that needs its whole input before it computes
// anything (an aggregate, a sort, DISTINCT): it takes the chunks, combines
// them, and hands out what compute() makes of them as its one chunk.
class WholeInputSink : public PhysicalOperator {
 public:
  WholeInputSink(std::string name, const PlanNode* node) : PhysicalOperator(Role::Sink, std::move(name), node) {}

  void sink(ExecutionContext&, Chunk input, int) final { chunks_.push_back(std::move(input)); }
  void finalize(ExecutionContext& context) final {
    result_ = compute(context, combine(context.backend, std::move(chunks_)));
  }
  std::optional<Chunk> produce(ExecutionContext&) final { return std::exchange(result_, std::nullopt); }

 protected:
  virtual Chunk compute(ExecutionContext& context, const Chunk& input) = 0;

 private:
  std::vector<Chunk> chunks_;
  std::optional<Chunk> result_;
};

}  // namespace gpusql
