// The hybrid node as a runnable model, and the workloads that install firmware on it. Each
// workload lives in its own file under workloads/; build_model() picks one by name.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <vector>

#include "hw/hybrid/hybrid_node.h"
#include "testbench/runner/model.h"

namespace hs::runner {

class HybridModel : public Model {
 public:
  // Builds node0 and arms the checkers that hold in every hybrid scenario.
  HybridModel();
  std::vector<Core*> cores() const override { return node.cores(); }
  nlohmann::json workload_results() const override {
    return results ? results() : nlohmann::json::object();
  }

  hybrid::HybridNode node;
  std::function<nlohmann::json()> results;  // set by the workload
};

// Refuses before the run (InputError naming the size parameter) memories too small for the
// SLMPM's shared-memory regions of accelerators [0, accelerators): a region per accelerator
// in host DRAM and one in each accelerator's DRAM (sw/slmpm/shared_memory.h).
void require_slmpm_regions(const HybridModel& m, int accelerators);

// Each declares its workload.* parameters, installs firmware on the node's cores, and sets
// `results` (with any post-run checks). Bad workload parameters, and memories too small for
// what the workload places in them, throw InputError.
void install_hybrid_demo(HybridModel& m, uint64_t seed);
void install_pcie_stream(HybridModel& m, uint64_t seed);
void install_cell_dma(HybridModel& m, uint64_t seed);
void install_mirrored_counters(HybridModel& m, uint64_t seed);
void install_pin_dma_unpin(HybridModel& m, uint64_t seed);
void install_dma_transfers(HybridModel& m, uint64_t seed);
void install_slmpm_messages(HybridModel& m, uint64_t seed);

}  // namespace hs::runner
