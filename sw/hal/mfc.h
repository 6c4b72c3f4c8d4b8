// Firmware helpers for an SPU to drive its MFC through its channels (sw/hal/spu.h), as the
// SDK's mfc_* calls do. Sizes, alignment and ordering follow the MFC's rules
// (hw/cell/mfc_command.h); a command that breaks one fails the run naming the rule.
#pragma once
#include <cstdint>

#include "hw/cell/spe_interface.h"
#include "sw/hal/hal.h"
#include "sw/hal/spu.h"

namespace hs::fw::mfc {

namespace op = cell::spe::op;

// Queues a command: writes its parameters, then its opcode once the SPU's queue has a free
// entry (the channel write stalls until then). For a list command `ea` is the elements' high
// word above the list's local-store address, and `size` the list's bytes.
void command(Hal& hal, uint32_t opcode, uint32_t lsa, uint64_t ea, uint32_t size, uint32_t tag);
inline void get(Hal& hal, uint32_t lsa, uint64_t ea, uint32_t size, uint32_t tag) {
  command(hal, op::kGet, lsa, ea, size, tag);
}
inline void put(Hal& hal, uint32_t lsa, uint64_t ea, uint32_t size, uint32_t tag) {
  command(hal, op::kPut, lsa, ea, size, tag);
}
// A list command (op::kGet or op::kPut, with kFenceBit or kBarrierBit if wanted).
inline void list(Hal& hal, uint32_t opcode, uint32_t lsa, uint32_t ea_high, uint32_t list_lsa,
                 uint32_t list_bytes, uint32_t tag) {
  command(hal, opcode | op::kListBit, lsa, uint64_t{ea_high} << 32 | list_lsa, list_bytes, tag);
}
// Moves any size by splitting into commands of at most 16 KiB, all in one tag group.
void get_large(Hal& hal, uint32_t lsa, uint64_t ea, uint64_t size, uint32_t tag);
void put_large(Hal& hal, uint32_t lsa, uint64_t ea, uint64_t size, uint32_t tag);

// Tag-group status: the tag groups of `mask` with nothing outstanding, once `mode`
// (cell::spe::kTagUpdateImmediate, Any or All) is satisfied.
uint32_t tag_status(Hal& hal, uint32_t mask, uint32_t mode);
// Blocks until every tag group in `mask` has no command outstanding.
inline void wait_tags(Hal& hal, uint32_t mask) {
  tag_status(hal, mask, cell::spe::kTagUpdateAll);
}

// List stall-and-notify: the tags whose lists stalled (waits for one), and the resume.
inline uint32_t list_stall_status(Hal& hal) {
  return spu::read(hal, spu::ch::kRdListStallStat);
}
inline void ack_list_stall(Hal& hal, uint32_t tag) {
  spu::write_now(hal, spu::ch::kWrListStallAck, tag);
}

// Atomic commands on the 128-byte line at `ea`, through the local-store line at `lsa`; each
// waits for its atomic status. putllc returns whether it stored (its reservation held).
void getllar(Hal& hal, uint32_t lsa, uint64_t ea);
bool putllc(Hal& hal, uint32_t lsa, uint64_t ea);
void putlluc(Hal& hal, uint32_t lsa, uint64_t ea);

}  // namespace hs::fw::mfc
