#include "sw/hal/irq_wait.h"

namespace hs::fw::irq {

DoorbellStatus doorbell_status(Hal& hal, uint64_t addr) {
  return {[&hal, addr] { return static_cast<uint32_t>(hal.reg_read(addr)); },
          [&hal, addr](uint32_t lines) { hal.reg_write(addr, lines); }};
}

uint32_t wait_doorbell(Hal& hal, uint32_t mask, const DoorbellStatus& status,
                       uint64_t timeout_cycles, const char* protocol) {
  for (;;) {
    if (const uint32_t taken = hal.wait_irq(mask, timeout_cycles)) return taken;
    if (const uint32_t latched = status.read() & mask) {
      status.clear(latched);
      hal.irq_recovered(protocol);
      return latched;
    }
  }
}

}  // namespace hs::fw::irq
