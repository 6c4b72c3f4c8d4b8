// A machine built from parameters with a workload's firmware installed on its cores.
#pragma once
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "hw/cpu/core.h"
#include "testbench/runner/result_catalogue.h"

namespace hs::runner {

class PartitionedModel;  // parallel_run.h

class Model {
 public:
  virtual ~Model() = default;
  virtual std::vector<Core*> cores() const = 0;
  // Figures the workload's firmware measured, and its verdicts, after the run.
  virtual nlohmann::json workload_results() const = 0;
  // Utilisation of every network link over the workload's measurement window, as CSV; nullopt
  // for machines without a network of links.
  virtual bool has_links() const { return false; }
  // What the workload can say of a core whose firmware never finished (a user program's rank
  // and the call it is stuck in), or "".
  virtual std::string core_note(const Core*) const { return ""; }
  virtual std::optional<std::string> link_csv() const { return std::nullopt; }
  // The model's side of a parallel run (parallel_run.h), or null where it cannot run
  // partitioned.
  virtual PartitionedModel* partitioned() { return nullptr; }

  // What workload_results() reports, each result with its unit and description: declared by
  // the workload when it is installed, and by the machine for what it adds.
  ResultCatalogue results_declared;

  // What this run does, in one line, from its actual parameters (set by the workload; the
  // report's header shows it above the scenario's own description).
  std::string summary;

  // The simulated time the workload plans to run to, when it knows (a traffic window's end);
  // 0 when it does not. Only progress lines use it.
  double planned_end_ns = 0;
};

// Builds `machine` with `workload` installed. Throws InputError for unknown names.
std::unique_ptr<Model> build_model(const std::string& machine, const std::string& workload,
                                   uint64_t seed);

// "machine: workload, workload, ..." lines for help texts.
std::vector<std::string> known_workloads();

}  // namespace hs::runner
