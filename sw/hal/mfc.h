// Firmware helpers for an SPU to drive its MFC through the HAL's register accesses.
#pragma once
#include <cstdint>

#include "hw/hybrid/address_map.h"
#include "sw/hal/hal.h"

namespace hs::fw::mfc {

namespace regs = hybrid::amap::mfc;

// Firmware parameter: how long an SPU sleeps on an MFC interrupt before it polls the MFC's
// status registers instead (sw/hal/irq_wait.h). A full command queue (16 commands of 16 KiB)
// across the slowest PCIe link (Gen1 x1, 250 MB/s) drains in about 1 ms, 3.4M cycles of a
// 3.2 GHz SPU; five times that keeps fault-free runs free of polls.
constexpr uint64_t kIrqTimeoutCycles = 16'000'000;

// Enqueues a GET (effective address -> local store) or PUT; waits for queue space first, as
// the SPU's channel write would stall. Sizes and alignment follow the MFC's rules; a
// violation is reported by the hardware and fails the run.
void command(Hal& hal, uint32_t opcode, uint32_t lsa, uint64_t ea, uint32_t size, uint32_t tag,
             uint64_t timeout_cycles = kIrqTimeoutCycles);
inline void get(Hal& hal, uint32_t lsa, uint64_t ea, uint32_t size, uint32_t tag) {
  command(hal, regs::kCmdGet, lsa, ea, size, tag);
}
inline void put(Hal& hal, uint32_t lsa, uint64_t ea, uint32_t size, uint32_t tag) {
  command(hal, regs::kCmdPut, lsa, ea, size, tag);
}
// Moves any size by splitting into commands of at most 16 KiB, all in one tag group.
void get_large(Hal& hal, uint32_t lsa, uint64_t ea, uint64_t size, uint32_t tag);
void put_large(Hal& hal, uint32_t lsa, uint64_t ea, uint64_t size, uint32_t tag);
// Blocks until every tag group in `mask` has no command outstanding.
void wait_tags(Hal& hal, uint32_t mask, uint64_t timeout_cycles = kIrqTimeoutCycles);

}  // namespace hs::fw::mfc
