// The x86 host: sockets x cores running firmware, host DRAM, the host bus (northbridge and
// root complex) and the MSI interrupt controller. Links to accelerators attach to the host
// bus: their outbound side as address windows, their inbound side as bus masters.
#pragma once
#include <memory>
#include <systemc>
#include <vector>

#include "hw/cpu/core.h"
#include "hw/cpu/interrupt_controller.h"
#include "tlm/bus/router.h"
#include "tlm/memory/memory.h"

namespace hs::host {

class Host : public sc_core::sc_module {
 public:
  explicit Host(sc_core::sc_module_name name);

  std::vector<Core*> cores() const;

  std::unique_ptr<Router> bus;
  std::unique_ptr<Memory> dram;
  std::vector<std::unique_ptr<Core>> core_list;
  std::unique_ptr<InterruptController> irq;
};

}  // namespace hs::host
