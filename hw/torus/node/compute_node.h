// A Blue Gene/P-style compute node: four cores, DRAM behind the node bus, and the DMA engine
// that connects the node to its torus router (the network model holds the routers).
#pragma once
#include <memory>
#include <systemc>
#include <vector>

#include "hw/cpu/core.h"
#include "hw/torus/dma/torus_dma.h"
#include "hw/torus/network/torus_network.h"
#include "tlm/bus/router.h"
#include "tlm/memory/memory.h"

namespace hs::torus {

class ComputeNode : public sc_core::sc_module {
 public:
  // Cores, DRAM and bus declare their parameters under the node's name; the machine shares one
  // set among all nodes (ParamRegistry::share_begin).
  ComputeNode(sc_core::sc_module_name name, int node, TorusNetwork& network,
              const dma::DmaConfig& dma_cfg);
  // Parts go newest first (TorusMachine::~TorusMachine says why).
  ~ComputeNode() override;

  std::vector<Core*> cores() const;
  int id() const { return node_; }

  std::unique_ptr<Router> bus;
  std::unique_ptr<Memory> dram;
  std::vector<std::unique_ptr<Core>> core_list;
  std::unique_ptr<dma::TorusDma> dma;

 private:
  int node_;
};

}  // namespace hs::torus
