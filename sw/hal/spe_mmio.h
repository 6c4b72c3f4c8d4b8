// Firmware on the PPE (or any core that reaches a Cell's EIB) driving an SPE through its
// problem-state and privileged-2 registers (hw/cell/spe_interface.h): mailboxes, signal
// notification, proxy DMA commands and their tag-group query, run control. None of these
// registers stalls; where a call waits, it polls the status register (a load crossing the
// EIB each time) or sleeps on the SPE's PPE interrupt line, as the libspe2 calls built on it
// say.
#pragma once
#include <cstdint>

#include "hw/cell/spe_interface.h"
#include "hw/hybrid/address_map.h"
#include "sw/hal/hal.h"

namespace hs::fw::spe_mmio {

namespace ps = cell::spe::ps;

// Where SPE `spe`'s registers are, as `base` (the accelerator's local address space as this
// core sees it: 0 on the PPE, a link window on the host) + the offset.
struct Spe {
  uint64_t base = 0;
  int index = 0;
  uint64_t ps(uint64_t offset) const {
    return base + hybrid::amap::acc_spe(index) + hybrid::amap::kSpeProblemState + offset;
  }
  uint64_t priv2(uint64_t offset) const {
    return base + hybrid::amap::acc_spe(index) + hybrid::amap::kSpePriv2 + offset;
  }
  uint64_t local_store(uint32_t lsa) const {
    return base + hybrid::amap::acc_spe(index) + hybrid::amap::kSpeLocalStore + lsa;
  }
};

// Mailboxes. Status: entries waiting in the outbound (interrupt) mailbox, free inbound slots.
inline uint32_t mbox_stat(Hal& hal, const Spe& s) {
  return static_cast<uint32_t>(hal.reg_read(s.ps(ps::kSpuMboxStat)));
}
inline uint32_t out_mbox_count(uint32_t stat) {
  return stat & 0xFF;
}
inline uint32_t in_mbox_free(uint32_t stat) {
  return stat >> 8 & 0xFF;
}
inline uint32_t out_intr_mbox_count(uint32_t stat) {
  return stat >> 16 & 0xFF;
}
inline void write_in_mbox(Hal& hal, const Spe& s, uint32_t v) {
  hal.reg_write(s.ps(ps::kSpuInMbox), v);
}
inline uint32_t read_out_mbox(Hal& hal, const Spe& s) {
  return static_cast<uint32_t>(hal.reg_read(s.ps(ps::kSpuOutMbox)));
}
inline uint32_t read_out_intr_mbox(Hal& hal, const Spe& s) {
  return static_cast<uint32_t>(hal.reg_read(s.priv2(cell::spe::priv2::kSpuOutIntrMbox), 8));
}
// Polls the status until the outbound mailbox holds an entry, then reads it.
uint32_t wait_out_mbox(Hal& hal, const Spe& s);
// Sleeps on the SPE's PPE line until the outbound interrupt mailbox holds an entry, then
// reads it.
uint32_t wait_out_intr_mbox(Hal& hal, const Spe& s);

// Signal notification (register 1 or 2) and the registers' modes (SPU_Cfg bits 0 and 1: OR).
inline void write_signal(Hal& hal, const Spe& s, int reg, uint32_t v) {
  hal.reg_write(s.ps(reg == 1 ? ps::kSigNotify1 : ps::kSigNotify2), v);
}
inline void set_signal_or_mode(Hal& hal, const Spe& s, bool reg1_or, bool reg2_or) {
  hal.reg_write(s.priv2(cell::spe::priv2::kSpuCfg), (reg1_or ? 1u : 0u) | (reg2_or ? 2u : 0u), 8);
}

// Proxy DMA: one attempt (ps::kCmdEnqueued, kCmdQueueFull or kCmdInvalid), or a command that
// retries while the proxy queue is full.
uint32_t try_proxy_command(Hal& hal, const Spe& s, uint32_t opcode, uint32_t lsa, uint64_t ea,
                           uint32_t size, uint32_t tag);
void proxy_command(Hal& hal, const Spe& s, uint32_t opcode, uint32_t lsa, uint64_t ea,
                   uint32_t size, uint32_t tag);
// The proxy tag groups of `mask` with nothing outstanding: at once (type 0), or once any (1)
// or all (2) of them are, sleeping on the SPE's PPE line meanwhile.
uint32_t proxy_tag_status(Hal& hal, const Spe& s, uint32_t mask, uint32_t type);

}  // namespace hs::fw::spe_mmio
