// The hybrid node as a runnable model. Its workloads are in workloads/, one file each
// (workload_registry.h); build_model() builds the machine a scenario names and installs one.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <vector>

#include "hw/hybrid/hybrid_node.h"
#include "sw/slmpm/mode_selection.h"
#include "testbench/checkers/mfc_checker.h"
#include "testbench/runner/model.h"

namespace hs::runner {

class HybridModel : public Model {
 public:
  // Builds node0 and arms the checkers that hold in every hybrid scenario.
  static constexpr const char* kMachine = "hybrid";
  HybridModel();
  std::vector<Core*> cores() const override { return node.cores(); }
  nlohmann::json workload_results() const override {
    return results ? results() : nlohmann::json::object();
  }

  hybrid::HybridNode node;
  checkers::MfcChecker mfc_checker;         // every SPE's MFC queues
  std::function<nlohmann::json()> results;  // set by the workload
};

// Refuses before the run (InputError naming the size parameter) memories too small for the
// SLMPM's shared-memory regions of accelerators [0, accelerators): a region per accelerator
// in host DRAM and one in each accelerator's DRAM (sw/slmpm/shared_memory.h).
void require_slmpm_regions(const HybridModel& m, int accelerators);

// The host SLMPM's mode-selection thresholds (node0.host.slmpm.*), for every workload that
// runs it.
fw::slmpm::Thresholds declare_slmpm_thresholds();

}  // namespace hs::runner
