// The torus machine: X x Y x Z compute nodes and the network that joins them, assembled from
// parameters under `torus.` (network: torus.network.*, every node: torus.node.*). Nodes are
// named by their coordinates, x<X>y<Y>z<Z> (node_name): torus.x1y0z2.dma.clock sets one node's
// parameter, and its signals sit under torus.x1y0z2 in the waveform.
#pragma once
#include <memory>
#include <systemc>
#include <vector>

#include "hw/torus/network/partition.h"
#include "hw/torus/network/torus_network.h"
#include "hw/torus/node/compute_node.h"
#include "tlm/stats/statistics.h"

namespace hs::torus {

class TorusMachine : public sc_core::sc_module {
 public:
  // Memory a node takes once built (network, DMA engine, cores, memory, statistics): the peak
  // resident size per node measured from 8x8x8 to 32x16x16 (61.8 KB), rounded up. Checked
  // against the host's memory before a node is built (tlm/common/memory_budget.h).
  static constexpr double kBytesPerNode = 64 * 1024;

  explicit TorusMachine(sc_core::sc_module_name name);

  std::vector<Core*> cores() const;
  const TorusShape& shape() const { return network->shape(); }
  ComputeNode& node(int id) { return *nodes[id]; }

  std::unique_ptr<TorusNetwork> network;
  // The routers this process drives (the whole machine unless the run is parallel).
  std::unique_ptr<Partition> partition;
  ~TorusMachine() override;

  std::vector<std::unique_ptr<ComputeNode>> nodes;

 private:
  // Hold places in SystemC's lists ahead of the nodes so that tearing down stays linear (see
  // the destructor): more than the modules the kernel and the runner add after the machine.
  static constexpr int kTeardownSlots = 4;
  std::vector<std::unique_ptr<sc_core::sc_module>> teardown_slots_;
  std::unique_ptr<StatGroup> stats_;
};

}  // namespace hs::torus
