#include "hw/torus/node/compute_node.h"

#include <fmt/format.h>

#include "hw/torus/node/node_address_map.h"
#include "tlm/params/param_registry.h"

namespace hs::torus {

ComputeNode::ComputeNode(sc_core::sc_module_name name, int node, TorusNetwork& network,
                         const dma::DmaConfig& dma_cfg)
    : sc_module(name), node_(node) {
  network.trace().name_node(node, this->name());
  ParamScope p(this->name());
  const auto cores =
      p.integer("cores", 4, "cores", "cores per node (PowerPC 450 class)", Range::between(1, 16));
  const double clock = p.real("core_clock", 850e6, "Hz", "core clock", Range::between(1e6, 1e11));
  bus = std::make_unique<Router>("bus", 6.0);
  // DDR2 behind the L3: 13.6 GB/s, about 100 core cycles to first data.
  dram = std::make_unique<Memory>(
      "dram", MemoryDefaults{uint64_t{2} << 30, 120.0, 13.6, amap::kDramMax - amap::kDram});
  bus->attach(dram->socket, amap::kDram, dram->size(), "dram");
  // Cores run firmware in fibers: the full machine has up to 294,912 of them, and nothing on
  // a node's bus blocks inside a transaction (memory, the DMA's registers and counters).
  for (int c = 0; c < cores; ++c) {
    core_list.push_back(
        std::make_unique<Core>(fmt::format("core{}", c).c_str(), clock, c, Core::Execution::Fiber));
    core_list.back()->bus.bind(bus->upstream);
  }
  // The node's interrupt controller presents the DMA's lines to every core: a rank on any core
  // waits on the lines of its own reception FIFO and counter groups, and the others' stay
  // latched unheeded on its core.
  dma = std::make_unique<dma::TorusDma>("dma", node, network, dma_cfg, static_cast<int>(cores));
  for (auto& c : core_list) dma->irq.bind(*c);
  dma->bus.bind(bus->upstream);
  bus->attach(dma->registers, amap::kDmaRegs, dma::kRegisterSpan, "dma");
}

ComputeNode::~ComputeNode() {
  dma.reset();
  while (!core_list.empty()) core_list.pop_back();
  dram.reset();
  bus.reset();
}

std::vector<Core*> ComputeNode::cores() const {
  std::vector<Core*> v;
  for (const auto& c : core_list) v.push_back(c.get());
  return v;
}

}  // namespace hs::torus
