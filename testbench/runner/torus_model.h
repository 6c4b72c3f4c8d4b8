// The torus machine as a runnable model, with its checkers armed, and the workloads that run
// on it (each in its own file under workloads/).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hw/torus/node/torus_machine.h"
#include "testbench/checkers/torus_checkers.h"
#include "testbench/runner/model.h"

namespace hs::runner {

class TorusModel : public Model {
 public:
  TorusModel() : machine("torus"), checkers(machine) {}
  std::vector<Core*> cores() const override { return machine.cores(); }
  nlohmann::json workload_results() const override {
    return results ? results() : nlohmann::json::object();
  }

  torus::TorusMachine machine;
  checkers::TorusCheckers checkers;
  std::function<nlohmann::json()> results;  // set by the workload
  std::vector<std::shared_ptr<void>> keep;  // workload state that must outlive the run
};

// The node `hops` links from node 0: along +x as far as is minimal, then +y, then +z (-1:
// farther than the machine's diameter).
int node_at_distance(const torus::TorusShape& s, int hops);

// Refuses before the run (InputError naming the parameter) DMA engines with fewer injection
// or reception FIFOs than `who` programs, and, when it receives by memory FIFO, packets whose
// payload would not fit a reception FIFO slot.
void require_dma_fifos(TorusModel& m, int injection, int reception, const std::string& who);

void install_torus_pingpong(TorusModel& m, uint64_t seed);
void install_torus_ami(TorusModel& m, uint64_t seed);
void install_torus_traffic(TorusModel& m, uint64_t seed);

}  // namespace hs::runner
