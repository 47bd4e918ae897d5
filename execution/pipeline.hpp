// Push-based pipelines: a physical plan cut at its sinks and joins' build
// sides into chains of a source, operators and a sink, run so that each
// pipeline's inputs (the sinks it reads, the build sides it probes) finish
// before it starts. Each chunk a source produces is pushed through the
// chain's operators into its sink.
#pragma once

#include <string>
#include <vector>

#include "execution/physical_operator.hpp"

namespace gpusql {

struct Pipeline {
  PhysicalOperator* source = nullptr;
  std::vector<PhysicalOperator*> operators;  // in the order a chunk passes them
  PhysicalOperator* sink = nullptr;
  int side = 0;  // which of the sink's inputs it feeds
};

// The pipelines of the plan under `root`, which feed `collector` (a Sink
// that takes the root's chunks), in an order that runs every pipeline after
// those it reads.
std::vector<Pipeline> build_pipelines(PhysicalOperator& root, PhysicalOperator& collector);

// Runs the plan under `root` and returns its rows as one chunk.
Chunk run_to_chunk(PhysicalOperator& root, ExecutionContext& context);

// The pipelines as EXPLAIN lists them, one a line, source to sink.
std::string describe_pipelines(const std::vector<Pipeline>& pipelines);

}  // namespace gpusql
