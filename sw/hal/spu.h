// Firmware on an SPU: its channels (hw/cell/spe_interface.h), read and written as the SPU's
// channel instructions do. A read of a channel whose count is 0, or a write to one whose
// count is 0, stalls: the firmware waits on the channel's interrupt line until its count is
// non-zero. Channels that never stall take one access. On these the MFC helpers
// (sw/hal/mfc.h) and the SDK's SPU interface (sw/cell/spu_sdk.h) are built.
#pragma once
#include <cstdint>

#include "hw/cell/spe_interface.h"
#include "hw/hybrid/address_map.h"
#include "sw/hal/hal.h"

namespace hs::fw::spu {

namespace ch = cell::spe::ch;

// Firmware parameter: how long an SPU sleeps on a channel's line before it reads the count
// again (only when interrupts may be lost: sw/hal/irq_wait.h). A full command queue (16
// commands of 16 KiB) across the slowest PCIe link (Gen1 x1, 250 MB/s) drains in about 1 ms,
// 3.4M cycles of a 3.2 GHz SPU; five times that keeps fault-free runs free of polls.
constexpr uint64_t kIrqTimeoutCycles = 16'000'000;

constexpr uint64_t channel_address(unsigned channel) {
  return hybrid::amap::kSpeChannels + channel * cell::spe::kChannelStride;
}

uint32_t count(Hal& hal, unsigned channel);
// Stalls until the channel's count is non-zero.
void wait(Hal& hal, unsigned channel);
// A read or write that stalls while the count is 0.
uint32_t read(Hal& hal, unsigned channel);
void write(Hal& hal, unsigned channel, uint32_t value);
// Channels whose count is always 1 (masks, MFC parameters, acknowledgements, decrementer).
inline uint32_t read_now(Hal& hal, unsigned channel) {
  return static_cast<uint32_t>(hal.reg_read(channel_address(channel)));
}
inline void write_now(Hal& hal, unsigned channel, uint32_t value) {
  hal.reg_write(channel_address(channel), value);
}

}  // namespace hs::fw::spu
