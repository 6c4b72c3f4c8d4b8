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
  latched_.assign(cores.size(), 0);
  for (size_t c = 0; c < cores.size(); ++c) {
    Core* core = cores[c];
    pins_.push_back(std::make_unique<IrqOut>(fmt::format("{}.irq{}", this->name(), c)));
    IrqOut& pin = *pins_.back();
    pin.bind(*core);
    pin.on_taken([this, c](uint32_t lines) { latched_[c] &= ~lines; });
    regs_.define(
        c * kDoorbellStride + kStatusOffset, 4, fmt::format("status{}", c),
        [this, c] { return latched_[c]; },
        [this, c, &pin](uint64_t clear) {
          const auto lines = static_cast<uint32_t>(clear) & latched_[c];
          latched_[c] &= ~lines;
          pin.withdraw(lines);
        });
    regs_.define(c * kDoorbellStride, 4, fmt::format("doorbell{}", c), nullptr,
                 [this, c, core, &pin](uint64_t line) {
                   if (line >= 32) {
                     CheckRegistry::instance().fail(
                         "MSI: doorbells name an interrupt line 0..31", this->name(),
                         fmt::format("doorbell for {} written with line {} "
                                     "(lines are 0..31)",
                                     core->name(), line));
                     return;
                   }
                   ++raised_;
                   latched_[c] |= 1u << line;
                   pin.raise(static_cast<unsigned>(line));
                 });
  }
}

}  // namespace hs
