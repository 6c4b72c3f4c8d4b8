// The Cell-side I/O bridge on the accelerator blade (the QS22's I/O bridge in its role on the
// TriBlade): the PCIe endpoint that ends the accelerator's link from the host, the descriptor
// DMA engine that the accelerator's firmware programs (the SLMPM's DMA transfers run on it, as
// on the hardware), and the way into the Cell through its I/O interface (IOIF0,
// hw/cell/io_interface.h), whose bandwidth limits what crosses it.
//
// Rules:
// - Inside, a switch (tlm/bus/crossbar.h) joins three masters (the PCIe endpoint's inbound
//   accesses from the host, the Cell's accesses out through IOIF0, the DMA engine) and three
//   targets (the PCIe endpoint towards the host at the host window `host_window`, the Cell
//   through IOIF0 at every other address, and the engine's registers at
//   amap::kAccDmaEngine): the engine reaches host memory over PCIe without crossing the Cell,
//   and the Cell's memory through IOIF0; the host reaches the engine's registers without
//   crossing the Cell either.
// - An access from the host addressed back to the host window is a peer-to-peer request the
//   endpoint refuses (the switch's rule).
// - Interrupts are messages: the engine's completion writes go to the doorbell its firmware
//   names, the host's (an MSI over PCIe) or the Cell's interrupt controller (through IOIF0).
#pragma once
#include <memory>
#include <systemc>

#include "hw/cell/io_interface.h"
#include "hw/dma/dma_engine.h"
#include "hw/pcie/pcie_link.h"
#include "tlm/bus/crossbar.h"

namespace hs::bridge {

class CellIoBridge : public sc_core::sc_module {
 public:
  // `link`'s side B must be built with a transaction port (Attach::Fabric); `dma_initiator`
  // identifies the engine's accesses.
  CellIoBridge(sc_core::sc_module_name name, pcie::PcieLink& link, cell::IoInterface& ioif,
               int dma_initiator, uint64_t host_window, uint64_t host_window_size);

  Crossbar& switch_fabric() { return *switch_; }
  dma::DmaEngine& dma() { return *dma_; }

 private:
  std::unique_ptr<Crossbar> switch_;
  std::unique_ptr<dma::DmaEngine> dma_;
};

}  // namespace hs::bridge
