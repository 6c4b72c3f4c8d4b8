#include "sw/hal/mfc.h"

#include <algorithm>

#include "sw/hal/irq_wait.h"

namespace hs::fw::mfc {

namespace amap = hybrid::amap;

void command(Hal& hal, uint32_t opcode, uint32_t lsa, uint64_t ea, uint32_t size, uint32_t tag,
             uint64_t timeout_cycles) {
  constexpr uint64_t base = amap::kSpeMfcRegs;
  irq::wait_until(hal, 1u << regs::kIrqQueueSpace, timeout_cycles, "MFC queue space",
                  [&] { return hal.reg_read(base + regs::kQueueSpace) != 0; });
  hal.reg_write(base + regs::kLsa, lsa);
  hal.reg_write(base + regs::kEa, ea, 8);
  hal.reg_write(base + regs::kSize, size);
  hal.reg_write(base + regs::kTag, tag);
  hal.reg_write(base + regs::kCmd, opcode);
}

namespace {
void large(Hal& hal, uint32_t opcode, uint32_t lsa, uint64_t ea, uint64_t size, uint32_t tag) {
  for (uint64_t off = 0; off < size; off += regs::kMaxTransfer) {
    const auto n = static_cast<uint32_t>(std::min<uint64_t>(regs::kMaxTransfer, size - off));
    command(hal, opcode, lsa + static_cast<uint32_t>(off), ea + off, n, tag);
  }
}
}  // namespace

void get_large(Hal& hal, uint32_t lsa, uint64_t ea, uint64_t size, uint32_t tag) {
  large(hal, regs::kCmdGet, lsa, ea, size, tag);
}

void put_large(Hal& hal, uint32_t lsa, uint64_t ea, uint64_t size, uint32_t tag) {
  large(hal, regs::kCmdPut, lsa, ea, size, tag);
}

void wait_tags(Hal& hal, uint32_t mask, uint64_t timeout_cycles) {
  constexpr uint64_t base = amap::kSpeMfcRegs;
  hal.reg_write(base + regs::kTagMask, mask);
  // The tag-group interrupt is latched, so a completion between the read and the wait is
  // not lost; one lost on the way to the SPU is found by the poll after the timeout.
  irq::wait_until(hal, 1u << regs::kIrqTagGroup, timeout_cycles, "MFC tag group",
                  [&] { return (hal.reg_read(base + regs::kTagStatus) & mask) == mask; });
}

}  // namespace hs::fw::mfc
