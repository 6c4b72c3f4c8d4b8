#include "sw/hal/spe_mmio.h"

#include "sw/hal/irq_wait.h"
#include "sw/hal/spu.h"

namespace hs::fw::spe_mmio {

namespace {
uint32_t line_mask(const Spe& s) {
  return 1u << cell::spe::ppe_line(s.index);
}
}  // namespace

uint32_t wait_out_mbox(Hal& hal, const Spe& s) {
  while (out_mbox_count(mbox_stat(hal, s)) == 0) {
  }
  return read_out_mbox(hal, s);
}

uint32_t wait_out_intr_mbox(Hal& hal, const Spe& s) {
  irq::wait_until(hal, line_mask(s), spu::kIrqTimeoutCycles, "SPE outbound interrupt mailbox",
                  [&] { return out_intr_mbox_count(mbox_stat(hal, s)) != 0; });
  return read_out_intr_mbox(hal, s);
}

uint32_t try_proxy_command(Hal& hal, const Spe& s, uint32_t opcode, uint32_t lsa, uint64_t ea,
                           uint32_t size, uint32_t tag) {
  hal.reg_write(s.ps(ps::kMfcLsa), lsa);
  hal.reg_write(s.ps(ps::kMfcEa), ea, 8);
  hal.reg_write(s.ps(ps::kMfcSizeTag), size << 16 | (tag & 0xFFFF));
  hal.reg_write(s.ps(ps::kMfcClassCmd), opcode);
  return static_cast<uint32_t>(hal.reg_read(s.ps(ps::kMfcClassCmd)));
}

void proxy_command(Hal& hal, const Spe& s, uint32_t opcode, uint32_t lsa, uint64_t ea,
                   uint32_t size, uint32_t tag) {
  while (try_proxy_command(hal, s, opcode, lsa, ea, size, tag) == ps::kCmdQueueFull) {
    // The queue drains as commands complete: poll its free entries.
    while ((hal.reg_read(s.ps(ps::kMfcQStatus)) & 0xFFFF) == 0) {
    }
  }
}

uint32_t proxy_tag_status(Hal& hal, const Spe& s, uint32_t mask, uint32_t type) {
  hal.reg_write(s.ps(ps::kPrxyQueryMask), mask);
  auto status = [&] { return static_cast<uint32_t>(hal.reg_read(s.ps(ps::kPrxyTagStatus))); };
  if (type == 0) return status();
  hal.reg_write(s.ps(ps::kPrxyQueryType), type);
  irq::wait_until(hal, line_mask(s), spu::kIrqTimeoutCycles, "SPE proxy tag group", [&] {
    const uint32_t done = status();
    return type == 1 ? done != 0 : done == mask;
  });
  return status();
}

}  // namespace hs::fw::spe_mmio
