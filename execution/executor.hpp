// The one executor: a plan's physical operators (physical_plan.hpp), run as
// pipelines (pipeline.hpp) over a compute backend -- the CUDA one when a
// GPU is usable, else the host one. Results come back as host columns.
#pragma once

#include <memory>
#include <string>

#include "common/query_control.hpp"
#include "execution/compute_backend.hpp"
#include "storage/result_data.hpp"

namespace gpusql {

struct Table;

class Executor {
 public:
  Executor(std::unique_ptr<ComputeBackend> backend, const QueryControl& control);

  // Runs `plan`; with `profile`, records each operator's rows and time and
  // the physical plan with them (EXPLAIN ANALYZE).
  std::shared_ptr<ResultData> execute(const Plan& plan, Profile* profile = nullptr);
  // Runs `plan` and keeps its result as a table named `name` (a subquery's
  // rows, which the query around it joins), where the backend reads tables:
  // on the GPU it never crosses to the host and back.
  std::shared_ptr<Table> execute_to_table(const Plan& plan, std::string name);
  // The physical plan EXPLAIN prints, without running it.
  std::string explain(const Plan& plan);

  // Takes the database's settings: a scan's rows per chunk
  // (Settings::chunk_rows), the backend's (the host's threads).
  void configure(const Settings& settings);
  ComputeBackend& backend() { return *backend_; }

 private:
  std::unique_ptr<ComputeBackend> backend_;
  const QueryControl& control_;
  std::size_t chunk_rows_ = 0;
};

// The operator below the plan's Distinct/Sort/Limit that names the result.
const PlanNode& projection_of(const PlanNode& root);

}  // namespace gpusql
