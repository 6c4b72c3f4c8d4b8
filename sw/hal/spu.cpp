#include "sw/hal/spu.h"

#include "sw/hal/irq_wait.h"

namespace hs::fw::spu {

uint32_t count(Hal& hal, unsigned channel) {
  return static_cast<uint32_t>(hal.reg_read(channel_address(channel) + cell::spe::kCountOffset));
}

void wait(Hal& hal, unsigned channel) {
  // The line is latched, so a count that turns non-zero between the read and the wait is not
  // missed; one lost on the way to the SPU is found by the read after the timeout.
  irq::wait_until(hal, 1u << channel, kIrqTimeoutCycles, cell::spe::channel_name(channel),
                  [&] { return count(hal, channel) != 0; });
}

uint32_t read(Hal& hal, unsigned channel) {
  wait(hal, channel);
  return read_now(hal, channel);
}

void write(Hal& hal, unsigned channel, uint32_t value) {
  wait(hal, channel);
  write_now(hal, channel, value);
}

}  // namespace hs::fw::spu
