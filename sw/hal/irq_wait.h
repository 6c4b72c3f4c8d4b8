// Interrupt waits that survive a lost or late interrupt: each sleep on an interrupt is bounded
// by a timeout (a firmware parameter of the protocol, in cycles of the waiting core), after
// which the firmware polls the device's status registers through the HAL and carries on.
//
// Rules they keep:
// - Fault-free, with a timeout longer than the awaited work, they issue exactly the bus
//   accesses of an untimed wait, so timing is unchanged.
// - A completion found by the poll that follows a timeout is a recovery: counted on the core
//   (irq_recovered_by_polling) and marked on its timeline under `protocol` (a literal).
// - The timeout must exceed the work's expected completion time, or a fault-free run pays
//   polls it did not need (still correct, only slower).
#pragma once
#include <cstdint>
#include <functional>

#include "sw/hal/hal.h"

namespace hs::fw::irq {

// Sleeps on interrupts in `mask` until `ready()` (a poll of device status through the HAL)
// holds; `ready` is evaluated first, as an untimed loop would.
template <class Ready>
void wait_until(Hal& hal, uint32_t mask, uint64_t timeout_cycles, const char* protocol,
                Ready&& ready) {
  bool timed_out = false;
  while (!ready()) timed_out = hal.wait_irq(mask, timeout_cycles) == 0;
  if (timed_out) hal.irq_recovered(protocol);
}

// A core's doorbell status at its interrupt controller (hw/cpu/interrupt_controller.h): read
// returns the latched lines, clear(lines) writes 1s to clear them. Bus accesses through the
// HAL, however the core reaches the register.
struct DoorbellStatus {
  std::function<uint32_t()> read;
  std::function<void(uint32_t lines)> clear;
};
// The status register at `addr` as a device register of the calling core.
DoorbellStatus doorbell_status(Hal& hal, uint64_t addr);

// Waits for doorbell lines in `mask`; returns the lines taken. A doorbell has no status but
// the controller's latch, so after each timeout the firmware reads it and, if a line of
// `mask` was raised, clears it and returns it (a recovery).
uint32_t wait_doorbell(Hal& hal, uint32_t mask, const DoorbellStatus& status,
                       uint64_t timeout_cycles, const char* protocol);

}  // namespace hs::fw::irq
