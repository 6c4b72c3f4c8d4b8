// A Cell Broadband Engine accelerator: the PPE, up to 8 SPEs, the EIB joining them to the
// memory controller (its DRAM) and the I/O interface, and an interrupt controller. Links to
// the host attach to the EIB: their outbound side as a window (attach_host_window), their
// inbound side as an EIB master (eib.upstream).
#pragma once
#include <memory>
#include <systemc>
#include <vector>

#include "hw/cell/eib.h"
#include "hw/cell/spe.h"
#include "hw/cpu/core.h"
#include "hw/cpu/interrupt_controller.h"
#include "hw/dma/dma_engine.h"
#include "tlm/memory/memory.h"

namespace hs::cell {

class CellAccelerator : public sc_core::sc_module {
 public:
  // `dma_engine`: whether this accelerator has a descriptor DMA engine (dma_interface.h).
  CellAccelerator(sc_core::sc_module_name name, int first_core_index, bool dma_engine);

  void attach_host_window(TargetSocket& link_in, uint64_t base, uint64_t size,
                          const std::string& window_name);
  std::vector<Core*> cores();  // PPE first, then each SPU

  double clock_hz;
  std::unique_ptr<Eib> eib;
  std::unique_ptr<Memory> dram;
  std::unique_ptr<Core> ppe;
  std::vector<std::unique_ptr<Spe>> spes;
  std::unique_ptr<InterruptController> irq;
  std::unique_ptr<dma::DmaEngine> dma;  // null when the node places no engine here
};

}  // namespace hs::cell
