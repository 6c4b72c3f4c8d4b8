#include "hw/cpu/interrupt_controller.h"

#include <fmt/format.h>

#include "tlm/check/checker.h"

namespace hs {

InterruptController::InterruptController(sc_core::sc_module_name name,
                                         const std::vector<Core*>& cores)
    : sc_module(name),
      regs_("regs", sc_core::sc_time(2, sc_core::SC_NS)),
      stats_(this->name()),
      raised_(stats_.counter("interrupts_raised", "interrupts", "doorbell writes")) {
  for (size_t c = 0; c < cores.size(); ++c) {
    Core* core = cores[c];
    regs_.define(
        c * kDoorbellStride, 4, fmt::format("doorbell{}", c), nullptr, [this, core](uint64_t line) {
          if (line >= 32) {
            CheckRegistry::instance().fail("MSI: doorbells name an interrupt line 0..31",
                                           this->name(),
                                           fmt::format("doorbell for {} written with line {} "
                                                       "(lines are 0..31)",
                                                       core->name(), line));
            return;
          }
          ++raised_;
          core->raise_irq(static_cast<unsigned>(line));
        });
  }
}

}  // namespace hs
