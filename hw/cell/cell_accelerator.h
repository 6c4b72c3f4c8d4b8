// A Cell Broadband Engine accelerator: the PPE, up to 8 SPEs, the EIB joining them to the
// memory controller (its DRAM) and the I/O interfaces, and an interrupt controller. Each sits
// at its element of the EIB (eib.h): SPE n at SPEn, the DRAM at the MIC, the interrupt
// controller with the PPE, the DMA engine (on the I/O bridge) at IOIF0. Every SPE interrupts
// the PPE on its own line (spe::ppe_line), and the SPEs' atomic units keep their lock lines
// in one table every EIB access is snooped against (lock_line.h). Links to the host
// attach at an I/O interface (attach_host_link): their outbound side as a window, their
// inbound side as an EIB master. On a blade whose I/O bridge is a device of its own (Io::Bridge:
// the TriBlade's QS22), IOIF0 is the Cell's I/O interface with its own bandwidth
// (io_interface.h), and the bridge beyond it holds the DMA engine: the EIB sends the host
// window and the engine's registers out through it, and the bridge's accesses come in
// through it.
#pragma once
#include <memory>
#include <systemc>
#include <vector>

#include "hw/cell/eib.h"
#include "hw/cell/io_interface.h"
#include "hw/cell/lock_line.h"
#include "hw/cell/spe.h"
#include "hw/cpu/core.h"
#include "hw/cpu/interrupt_controller.h"
#include "hw/dma/dma_engine.h"
#include "tlm/memory/memory.h"

namespace hs::cell {

class CellAccelerator : public sc_core::sc_module {
 public:
  // What IOIF0 leads to: links straight onto the EIB, or the blade's I/O bridge.
  enum class Io { Links, Bridge };
  // `dma_engine`: whether this accelerator has a descriptor DMA engine (dma_interface.h) on
  // the EIB.
  CellAccelerator(sc_core::sc_module_name name, int first_core_index, bool dma_engine,
                  Io io = Io::Links);

  // The I/O interface a link to the host enters by: PCIe links IOIF0, Ethernet links IOIF1.
  enum class HostFabric { Pcie, Ethernet };
  template <class LinkOut>
  void attach_host_link(TargetSocket& link_in, LinkOut& link_out, uint64_t base, uint64_t size,
                        const std::string& window_name, HostFabric fabric) {
    const Element ioif = fabric == HostFabric::Pcie ? Element::IOIF0 : Element::IOIF1;
    eib->attach(link_in, base, size, window_name, ioif);
    eib->connect(link_out, ioif);
  }
  std::vector<Core*> cores();  // PPE first, then each SPU

  double clock_hz;
  double timebase_hz;  // the SPUs' decrementers count at this rate
  LockLineReservations reservations;
  std::unique_ptr<Eib> eib;
  std::unique_ptr<Memory> dram;
  std::unique_ptr<Core> ppe;
  std::vector<std::unique_ptr<Spe>> spes;
  std::unique_ptr<InterruptController> irq;
  std::unique_ptr<dma::DmaEngine> dma;  // null when the node places no engine here
  std::unique_ptr<IoInterface> ioif0;   // Io::Bridge only

 private:
  IrqOut ppe_irq_{"ppe_irq"};                            // the SPEs' interrupts to the PPE
  std::vector<std::unique_ptr<IrqRenumber>> ppe_lines_;  // SPE n's line 0 -> spe::ppe_line(n)
};

}  // namespace hs::cell
