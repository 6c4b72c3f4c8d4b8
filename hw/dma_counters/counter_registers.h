// Register map of a DMA byte-counter bank (one window per bank: injection or reception).
// Shared by the counter models, the DMA engines and firmware.
//
// Counter c (c = group x counters_per_group + index) at c x kCounterStride:
//   VALUE      +0x00  rw 4  byte count; writing it does not set hit-zero
//   INCREMENT  +0x04  wo 4  adds the value (extends a transfer)
//   BASE       +0x08  rw 4  base address in 16-byte units
//   MAX        +0x0C  rw 4  last valid 16-byte unit (reception banks): packets outside
//                           [BASE, MAX] are bounds errors, not writes
//   DECREMENT  +0x10  wo 4  subtracts the value exactly as a DMA decrement would (no bounds
//                           check): a core accounting for bytes it received by memory FIFO
// Group g at kGroupBase + g x kGroupStride (bit i = counter i of the group):
//   ENABLED        +0x00 ro 8   ENABLE  +0x08 w1s 8   DISABLE  +0x10 w1c 8
//   HIT_ZERO       +0x18 ro 8   CLEAR_HIT_ZERO +0x20 w1c 8
//   STATUS         +0x28 ro 4   bit s: OR over subgroup s (8 counters) of hit-zero AND enabled
//   IRQ_ENABLE     +0x2C rw 4   bit 0: the group's interrupt line follows STATUS != 0
//   UNDERFLOW      +0x30 ro 8   sticky: a decrement larger than the value (value left at 0)
//   BOUNDS         +0x38 ro 8   sticky: a reception packet outside [BASE, MAX]
//   CLEAR_ERRORS   +0x40 w1c 8  clears UNDERFLOW and BOUNDS bits
#pragma once
#include <cstdint>

namespace hs::counters {

constexpr uint32_t kCounterStride = 0x20;
constexpr uint32_t kValue = 0x00, kIncrement = 0x04, kBase = 0x08, kMax = 0x0C, kDecrement = 0x10;
constexpr uint32_t kGroupBase = 0x3000;  // after 384 counters x 32 B
constexpr uint32_t kGroupStride = 0x80;
constexpr uint32_t kEnabled = 0x00, kEnable = 0x08, kDisable = 0x10, kHitZero = 0x18,
                   kClearHitZero = 0x20, kStatus = 0x28, kIrqEnable = 0x2C, kUnderflow = 0x30,
                   kBounds = 0x38, kClearErrors = 0x40;
constexpr uint32_t kBankSpan = 0x4000;
constexpr uint32_t kResetValue = 0xFFFFFFFFu;  // nonzero, so no false hit-zero after reset
constexpr uint32_t kSubgroup = 8;

inline constexpr uint32_t counter_reg(uint32_t counter, uint32_t reg) {
  return counter * kCounterStride + reg;
}
inline constexpr uint32_t group_reg(uint32_t group, uint32_t reg) {
  return kGroupBase + group * kGroupStride + reg;
}

}  // namespace hs::counters
