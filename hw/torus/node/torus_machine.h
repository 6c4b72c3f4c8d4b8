// The torus machine: X x Y x Z compute nodes and the network that joins them, assembled from
// parameters under `torus.` (network: torus.network.*, every node: torus.node.*). Nodes are
// named by their coordinates, x<X>y<Y>z<Z> (node_name): torus.x1y0z2.dma.clock sets one node's
// parameter, and its signals sit under torus.x1y0z2 in the waveform.
//
// Partitioned (a parallel run, docs/parallel.md): a process builds only the nodes of its own
// partition (machine.partition->local(node)); another partition's node is a null entry in
// `nodes`, and what crosses to it goes through the network's cut messages. Every figure of
// the machine that sums over nodes sums this process's and is added up at the end.
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
  // against the host's memory, for the nodes this process builds, before a node is built
  // (tlm/common/memory_budget.h).
  static constexpr double kBytesPerNode = 64 * 1024;

  explicit TorusMachine(sc_core::sc_module_name name);

  // The cores of the nodes this process built.
  std::vector<Core*> cores() const;
  const TorusShape& shape() const { return network->shape(); }
  // A node this process built (ModelError naming it otherwise: another partition's).
  ComputeNode& node(int id);
  // The nodes this process built, by number.
  std::vector<ComputeNode*> built_nodes() const;
  // The DMA engines' configuration, the same in every node.
  const dma::DmaConfig& dma_config() const { return dma_config_; }

  // The routers this process drives (the whole machine unless the run is parallel); the
  // network keeps state for those only.
  std::unique_ptr<Partition> partition;
  std::unique_ptr<TorusNetwork> network;
  ~TorusMachine() override;

  // Every node by number; null for another partition's.
  std::vector<std::unique_ptr<ComputeNode>> nodes;

 private:
  // Hold places in SystemC's lists ahead of the nodes so that tearing down stays linear (see
  // the destructor): more than the modules the kernel and the runner add after the machine.
  static constexpr int kTeardownSlots = 4;
  std::vector<std::unique_ptr<sc_core::sc_module>> teardown_slots_;
  dma::DmaConfig dma_config_;
  std::unique_ptr<StatGroup> stats_;
};

}  // namespace hs::torus
