// A hybrid compute node: the host, its Cell accelerators, and the path between them, chosen by
// `topology`:
//
// - direct: one to three accelerators per host core; each accelerator's PCIe and Ethernet links
//   go from the host's root complex (its one northbridge) straight into the Cell's EIB, at
//   IOIF0 and IOIF1. Each link is a window in both address spaces (address_map.h).
// - roadrunner: the TriBlade. Two dual-core Opterons (an LS21 blade), each socket with its own
//   northbridge and memory; socket s's HyperTransport link (`ht<s>`) goes to its
//   HT-to-PCIe bridge (`bridge<s>`, on the expansion blade), which is the root port of a PCIe
//   gen1 x8 link to each of the two PowerXCell 8i of one QS22 blade: accelerators 2s and 2s+1
//   (`pcie<2s>`, `pcie<2s+1>`), paired with host cores 2s and 2s+1. Each PCIe link ends at the
//   accelerator's Cell-side I/O bridge (`iobridge<a>`), with the DMA engine the accelerator's
//   firmware uses, which enters the Cell at IOIF0 through its I/O interface (`acc<a>.ioif0`).
//   The Ethernet links attach at socket 0's northbridge (the blade's network interface) and at
//   each Cell's IOIF1. The counts are the TriBlade's: two sockets of two cores, one
//   accelerator per core, one PCIe link each.
//
// The address map is the same in both, so firmware runs unchanged on either.
#pragma once
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "hw/bridge/cell_io_bridge.h"
#include "hw/bridge/ht_pcie_bridge.h"
#include "hw/cell/cell_accelerator.h"
#include "hw/ethernet/ethernet_link.h"
#include "hw/host/host.h"
#include "hw/ht/ht_link.h"
#include "hw/pcie/pcie_link.h"

namespace hs::hybrid {

class HybridNode : public sc_core::sc_module {
 public:
  enum class Topology { Direct, Roadrunner };

  explicit HybridNode(sc_core::sc_module_name name);
  ~HybridNode() override;

  std::vector<Core*> cores() const;
  Topology topology() const { return topology_; }
  pcie::PcieLink& pcie(int acc, int link) { return *pcie_[acc * pcie_per_acc + link]; }
  ethernet::EthernetLink& ethernet(int acc, int link) { return *eth_[acc * eth_per_acc + link]; }
  // The descriptor DMA engine accelerator `acc`'s firmware programs (in its Cell on the direct
  // topology, in its Cell-side I/O bridge on the TriBlade); null if the node places none there.
  dma::DmaEngine* accelerator_dma(int acc);

  int pcie_per_acc = 1;
  int eth_per_acc = 1;
  std::unique_ptr<host::Host> host;
  std::vector<std::unique_ptr<cell::CellAccelerator>> accelerators;
  std::vector<std::unique_ptr<pcie::PcieLink>> pcie_;
  std::vector<std::unique_ptr<ethernet::EthernetLink>> eth_;
  // The TriBlade's path (roadrunner only): per socket, its HyperTransport link and bridge; per
  // accelerator, its Cell-side I/O bridge.
  std::vector<std::unique_ptr<ht::HtLink>> ht_;
  std::vector<std::unique_ptr<bridge::HtPcieBridge>> bridges_;
  std::vector<std::unique_ptr<bridge::CellIoBridge>> io_bridges_;

 private:
  void build_direct(int per_core, bool host_dma);
  void build_roadrunner(bool host_dma);
  void add_ethernet(int acc, int socket);

  Topology topology_ = Topology::Direct;
  bool acc_dma_ = true;  // the accelerators' firmware has a DMA engine
};

}  // namespace hs::hybrid
