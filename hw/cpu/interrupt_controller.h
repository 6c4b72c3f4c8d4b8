// Message-signalled interrupts: one doorbell register per core. Writing line number L to
// doorbell C raises line L on the controller's pin to core C. Reachable by any bus master, so
// a device across PCIe interrupts a core with a single posted write (an MSI).
//
// Beside each doorbell (at +kStatusOffset) a status register latches the lines raised at that
// core until the core takes them: firmware that timed out waiting (the interrupt was lost on
// the way to the core) reads it to find what was raised, and writes 1s to clear lines, which
// also withdraws them from the core.
#pragma once
#include <memory>
#include <systemc>
#include <vector>

#include "hw/cpu/core.h"
#include "tlm/bus/register_file.h"

namespace hs {

class InterruptController : public sc_core::sc_module {
 public:
  static constexpr uint64_t kDoorbellStride = 8;
  static constexpr uint64_t kStatusOffset = 4;

  InterruptController(sc_core::sc_module_name name, const std::vector<Core*>& cores);
  tlm::tlm_target_socket<>& socket() { return regs_.socket; }

 private:
  RegisterFile regs_;
  std::vector<std::unique_ptr<IrqOut>> pins_;  // to each core
  StatGroup stats_;
  Counter& raised_;
  std::vector<uint32_t> latched_;  // per core: lines raised, not yet taken or cleared
};

}  // namespace hs
