// The x86 host: sockets x cores running firmware, host DRAM, the host bus (northbridge and
// root complex) and the MSI interrupt controller. Links to accelerators attach to the host
// bus: their outbound side as address windows, their inbound side as bus masters.
#pragma once
#include <memory>
#include <systemc>
#include <vector>

#include "hw/cpu/core.h"
#include "hw/cpu/interrupt_controller.h"
#include "hw/dma/dma_engine.h"
#include "tlm/bus/router.h"
#include "tlm/memory/memory.h"

namespace hs::host {

class Host : public sc_core::sc_module {
 public:
  // `dma_engine`: whether the host has a descriptor DMA engine (dma_interface.h).
  Host(sc_core::sc_module_name name, bool dma_engine);

  std::vector<Core*> cores() const;

  std::unique_ptr<Router> bus;
  std::unique_ptr<Memory> dram;
  std::vector<std::unique_ptr<Core>> core_list;
  std::unique_ptr<InterruptController> irq;
  std::unique_ptr<dma::DmaEngine> dma;  // null when the node places no engine here
};

}  // namespace hs::host
