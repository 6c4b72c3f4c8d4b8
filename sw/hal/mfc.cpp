#include "sw/hal/mfc.h"

#include <algorithm>

namespace hs::fw::mfc {

namespace ch = spu::ch;

void command(Hal& hal, uint32_t opcode, uint32_t lsa, uint64_t ea, uint32_t size, uint32_t tag) {
  spu::write_now(hal, ch::kMfcLsa, lsa);
  spu::write_now(hal, ch::kMfcEah, static_cast<uint32_t>(ea >> 32));
  spu::write_now(hal, ch::kMfcEal, static_cast<uint32_t>(ea));
  spu::write_now(hal, ch::kMfcSize, size);
  spu::write_now(hal, ch::kMfcTagId, tag);
  spu::write(hal, ch::kMfcCmd, opcode);
}

namespace {
void large(Hal& hal, uint32_t opcode, uint32_t lsa, uint64_t ea, uint64_t size, uint32_t tag) {
  for (uint64_t off = 0; off < size; off += cell::spe::kMaxTransfer) {
    const auto n = static_cast<uint32_t>(std::min<uint64_t>(cell::spe::kMaxTransfer, size - off));
    command(hal, opcode, lsa + static_cast<uint32_t>(off), ea + off, n, tag);
  }
}

uint32_t atomic(Hal& hal, uint32_t opcode, uint32_t lsa, uint64_t ea) {
  command(hal, opcode, lsa, ea, cell::spe::kLockLine, 0);
  return spu::read(hal, ch::kRdAtomicStat);
}
}  // namespace

void get_large(Hal& hal, uint32_t lsa, uint64_t ea, uint64_t size, uint32_t tag) {
  large(hal, op::kGet, lsa, ea, size, tag);
}

void put_large(Hal& hal, uint32_t lsa, uint64_t ea, uint64_t size, uint32_t tag) {
  large(hal, op::kPut, lsa, ea, size, tag);
}

uint32_t tag_status(Hal& hal, uint32_t mask, uint32_t mode) {
  spu::write_now(hal, ch::kWrTagMask, mask);
  spu::write_now(hal, ch::kWrTagUpdate, mode);
  return spu::read(hal, ch::kRdTagStat);
}

void getllar(Hal& hal, uint32_t lsa, uint64_t ea) {
  atomic(hal, op::kGetllar, lsa, ea);
}

bool putllc(Hal& hal, uint32_t lsa, uint64_t ea) {
  return (atomic(hal, op::kPutllc, lsa, ea) & cell::spe::kAtomicPutllcFailed) == 0;
}

void putlluc(Hal& hal, uint32_t lsa, uint64_t ea) {
  atomic(hal, op::kPutlluc, lsa, ea);
}

}  // namespace hs::fw::mfc
