// A hybrid compute node: the host, one to three Cell accelerators per host core, and for each
// accelerator its PCIe and Ethernet links, each link a window in both address spaces
// (address_map.h).
#pragma once
#include <memory>
#include <systemc>
#include <vector>

#include "hw/cell/cell_accelerator.h"
#include "hw/ethernet/ethernet_link.h"
#include "hw/host/host.h"
#include "hw/pcie/pcie_link.h"

namespace hs::hybrid {

class HybridNode : public sc_core::sc_module {
 public:
  explicit HybridNode(sc_core::sc_module_name name);

  std::vector<Core*> cores() const;
  pcie::PcieLink& pcie(int acc, int link) { return *pcie_[acc * pcie_per_acc + link]; }
  ethernet::EthernetLink& ethernet(int acc, int link) { return *eth_[acc * eth_per_acc + link]; }

  int pcie_per_acc = 1;
  int eth_per_acc = 1;
  std::unique_ptr<host::Host> host;
  std::vector<std::unique_ptr<cell::CellAccelerator>> accelerators;
  std::vector<std::unique_ptr<pcie::PcieLink>> pcie_;
  std::vector<std::unique_ptr<ethernet::EthernetLink>> eth_;
};

}  // namespace hs::hybrid
