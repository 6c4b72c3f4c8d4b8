#include "sw/cell/spu_sdk.h"

#include "hw/cell/spe_interface.h"
#include "sw/hal/mfc.h"
#include "sw/hal/spu.h"

namespace hs::fw::cell_sdk {

namespace ch = cell::spe::ch;
namespace op = cell::spe::op;

uint32_t firmware_lsa(const volatile void* p) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p));
}

void Spu::dma(uint32_t cmd, const volatile void* ls, uint64_t ea, uint32_t size, uint32_t tag) {
  mfc::command(hal_, cmd, lsa_(ls), ea, size, tag);
}

// A list command: the effective address's high word, and the list's local-store address as
// the low word.
void Spu::list(uint32_t cmd, const volatile void* ls, uint64_t ea, const volatile void* list,
               uint32_t list_size, uint32_t tag) {
  mfc::command(hal_, cmd | op::kListBit, lsa_(ls), (ea & 0xFFFF'FFFF'0000'0000ull) | lsa_(list),
               list_size, tag);
}

// ---- Channels ----
unsigned int Spu::spu_readch(unsigned int channel) {
  return spu::read(hal_, channel);
}
void Spu::spu_writech(unsigned int channel, unsigned int value) {
  spu::write(hal_, channel, value);
}
unsigned int Spu::spu_readchcnt(unsigned int channel) {
  return spu::count(hal_, channel);
}

// ---- DMA ----
void Spu::spu_mfcdma64(volatile void* ls, unsigned int eahi, unsigned int ealow, unsigned int size,
                       unsigned int tagid, unsigned int cmd) {
  mfc::command(hal_, cmd, lsa_(ls), uint64_t{eahi} << 32 | ealow, size, tagid);
}
void Spu::spu_mfcdma32(volatile void* ls, unsigned int ea, unsigned int size, unsigned int tagid,
                       unsigned int cmd) {
  mfc::command(hal_, cmd, lsa_(ls), ea, size, tagid);
}
void Spu::mfc_put(volatile void* ls, unsigned long long ea, unsigned int size, unsigned int tag,
                  unsigned int, unsigned int) {
  dma(op::kPut, ls, ea, size, tag);
}
void Spu::mfc_putb(volatile void* ls, unsigned long long ea, unsigned int size, unsigned int tag,
                   unsigned int, unsigned int) {
  dma(op::kPut | op::kBarrierBit, ls, ea, size, tag);
}
void Spu::mfc_putf(volatile void* ls, unsigned long long ea, unsigned int size, unsigned int tag,
                   unsigned int, unsigned int) {
  dma(op::kPut | op::kFenceBit, ls, ea, size, tag);
}
void Spu::mfc_get(volatile void* ls, unsigned long long ea, unsigned int size, unsigned int tag,
                  unsigned int, unsigned int) {
  dma(op::kGet, ls, ea, size, tag);
}
void Spu::mfc_getb(volatile void* ls, unsigned long long ea, unsigned int size, unsigned int tag,
                   unsigned int, unsigned int) {
  dma(op::kGet | op::kBarrierBit, ls, ea, size, tag);
}
void Spu::mfc_getf(volatile void* ls, unsigned long long ea, unsigned int size, unsigned int tag,
                   unsigned int, unsigned int) {
  dma(op::kGet | op::kFenceBit, ls, ea, size, tag);
}

// ---- Lists ----
void Spu::mfc_putl(volatile void* ls, unsigned long long ea, volatile void* l,
                   unsigned int list_size, unsigned int tag, unsigned int, unsigned int) {
  list(op::kPut, ls, ea, l, list_size, tag);
}
void Spu::mfc_putlb(volatile void* ls, unsigned long long ea, volatile void* l,
                    unsigned int list_size, unsigned int tag, unsigned int, unsigned int) {
  list(op::kPut | op::kBarrierBit, ls, ea, l, list_size, tag);
}
void Spu::mfc_putlf(volatile void* ls, unsigned long long ea, volatile void* l,
                    unsigned int list_size, unsigned int tag, unsigned int, unsigned int) {
  list(op::kPut | op::kFenceBit, ls, ea, l, list_size, tag);
}
void Spu::mfc_getl(volatile void* ls, unsigned long long ea, volatile void* l,
                   unsigned int list_size, unsigned int tag, unsigned int, unsigned int) {
  list(op::kGet, ls, ea, l, list_size, tag);
}
void Spu::mfc_getlb(volatile void* ls, unsigned long long ea, volatile void* l,
                    unsigned int list_size, unsigned int tag, unsigned int, unsigned int) {
  list(op::kGet | op::kBarrierBit, ls, ea, l, list_size, tag);
}
void Spu::mfc_getlf(volatile void* ls, unsigned long long ea, volatile void* l,
                    unsigned int list_size, unsigned int tag, unsigned int, unsigned int) {
  list(op::kGet | op::kFenceBit, ls, ea, l, list_size, tag);
}

// ---- Signals, ordering, atomics ----
void Spu::mfc_sndsig(volatile void* ls, unsigned long long ea, unsigned int tag, unsigned int,
                     unsigned int) {
  dma(op::kSndsig, ls, ea, 4, tag);
}
void Spu::mfc_sndsigb(volatile void* ls, unsigned long long ea, unsigned int tag, unsigned int,
                      unsigned int) {
  dma(op::kSndsig | op::kBarrierBit, ls, ea, 4, tag);
}
void Spu::mfc_sndsigf(volatile void* ls, unsigned long long ea, unsigned int tag, unsigned int,
                      unsigned int) {
  dma(op::kSndsig | op::kFenceBit, ls, ea, 4, tag);
}
void Spu::mfc_barrier(unsigned int tag) {
  mfc::command(hal_, op::kBarrier, 0, 0, 0, tag);
}
void Spu::mfc_eieio(unsigned int tag, unsigned int, unsigned int) {
  mfc::command(hal_, op::kEieio, 0, 0, 0, tag);
}
void Spu::mfc_sync(unsigned int tag) {
  mfc::command(hal_, op::kSync, 0, 0, 0, tag);
}
void Spu::mfc_getllar(volatile void* ls, unsigned long long ea, unsigned int, unsigned int) {
  dma(op::kGetllar, ls, ea, cell::spe::kLockLine, 0);
}
void Spu::mfc_putllc(volatile void* ls, unsigned long long ea, unsigned int, unsigned int) {
  dma(op::kPutllc, ls, ea, cell::spe::kLockLine, 0);
}
void Spu::mfc_putlluc(volatile void* ls, unsigned long long ea, unsigned int, unsigned int) {
  dma(op::kPutlluc, ls, ea, cell::spe::kLockLine, 0);
}
void Spu::mfc_putqlluc(volatile void* ls, unsigned long long ea, unsigned int tag, unsigned int,
                       unsigned int) {
  dma(op::kPutqlluc, ls, ea, cell::spe::kLockLine, tag);
}
unsigned int Spu::mfc_read_atomic_status() {
  return spu::read(hal_, ch::kRdAtomicStat);
}

// ---- Tag groups and the command queue ----
void Spu::mfc_write_tag_mask(unsigned int mask) {
  spu::write_now(hal_, ch::kWrTagMask, mask);
}
unsigned int Spu::mfc_read_tag_mask() {
  return spu::read_now(hal_, ch::kRdTagMask);
}
void Spu::mfc_write_tag_update(unsigned int ts) {
  spu::write(hal_, ch::kWrTagUpdate, ts);
}
void Spu::mfc_write_tag_update_immediate() {
  mfc_write_tag_update(cell::spe::kTagUpdateImmediate);
}
void Spu::mfc_write_tag_update_any() {
  mfc_write_tag_update(cell::spe::kTagUpdateAny);
}
void Spu::mfc_write_tag_update_all() {
  mfc_write_tag_update(cell::spe::kTagUpdateAll);
}
unsigned int Spu::mfc_stat_tag_update() {
  return spu::count(hal_, ch::kWrTagUpdate);
}
unsigned int Spu::mfc_read_tag_status() {
  return spu::read(hal_, ch::kRdTagStat);
}
uint32_t Spu::tag_status(uint32_t mode) {
  mfc_write_tag_update(mode);
  return mfc_read_tag_status();
}
unsigned int Spu::mfc_read_tag_status_immediate() {
  return tag_status(cell::spe::kTagUpdateImmediate);
}
unsigned int Spu::mfc_read_tag_status_any() {
  return tag_status(cell::spe::kTagUpdateAny);
}
unsigned int Spu::mfc_read_tag_status_all() {
  return tag_status(cell::spe::kTagUpdateAll);
}
unsigned int Spu::mfc_stat_tag_status() {
  return spu::count(hal_, ch::kRdTagStat);
}
unsigned int Spu::mfc_read_list_stall_status() {
  return spu::read(hal_, ch::kRdListStallStat);
}
unsigned int Spu::mfc_stat_list_stall_status() {
  return spu::count(hal_, ch::kRdListStallStat);
}
void Spu::mfc_write_list_stall_ack(unsigned int tag) {
  spu::write_now(hal_, ch::kWrListStallAck, tag);
}
unsigned int Spu::mfc_stat_cmd_queue() {
  return spu::count(hal_, ch::kMfcCmd);
}

// ---- Mailboxes, signals, decrementer, events ----
unsigned int Spu::spu_read_in_mbox() {
  return spu::read(hal_, ch::kRdInMbox);
}
unsigned int Spu::spu_stat_in_mbox() {
  return spu::count(hal_, ch::kRdInMbox);
}
void Spu::spu_write_out_mbox(unsigned int data) {
  spu::write(hal_, ch::kWrOutMbox, data);
}
unsigned int Spu::spu_stat_out_mbox() {
  return spu::count(hal_, ch::kWrOutMbox);
}
void Spu::spu_write_out_intr_mbox(unsigned int data) {
  spu::write(hal_, ch::kWrOutIntrMbox, data);
}
unsigned int Spu::spu_stat_out_intr_mbox() {
  return spu::count(hal_, ch::kWrOutIntrMbox);
}
unsigned int Spu::spu_read_signal1() {
  return spu::read(hal_, ch::kRdSigNotify1);
}
unsigned int Spu::spu_stat_signal1() {
  return spu::count(hal_, ch::kRdSigNotify1);
}
unsigned int Spu::spu_read_signal2() {
  return spu::read(hal_, ch::kRdSigNotify2);
}
unsigned int Spu::spu_stat_signal2() {
  return spu::count(hal_, ch::kRdSigNotify2);
}
unsigned int Spu::spu_read_decrementer() {
  return spu::read_now(hal_, ch::kRdDec);
}
void Spu::spu_write_decrementer(unsigned int count) {
  spu::write_now(hal_, ch::kWrDec, count);
}
unsigned int Spu::spu_read_event_status() {
  return spu::read(hal_, ch::kRdEventStat);
}
unsigned int Spu::spu_stat_event_status() {
  return spu::count(hal_, ch::kRdEventStat);
}
void Spu::spu_write_event_mask(unsigned int mask) {
  spu::write_now(hal_, ch::kWrEventMask, mask);
}
unsigned int Spu::spu_read_event_mask() {
  return spu::read_now(hal_, ch::kRdEventMask);
}
void Spu::spu_write_event_ack(unsigned int ack) {
  spu::write_now(hal_, ch::kWrEventAck, ack);
}

// ---- The tag-group manager ----
unsigned int Spu::mfc_tag_reserve() {
  return mfc_multi_tag_reserve(1);
}
unsigned int Spu::mfc_tag_release(unsigned int tag) {
  return mfc_multi_tag_release(tag, 1);
}
unsigned int Spu::mfc_multi_tag_reserve(unsigned int n) {
  if (n == 0 || n > cell::spe::kTags) return kTagInvalid;
  const uint32_t block = n == 32 ? ~0u : (1u << n) - 1;
  for (unsigned int t = 0; t + n <= cell::spe::kTags; ++t) {
    if ((reserved_ & block << t) == 0) {
      reserved_ |= block << t;
      return t;
    }
  }
  return kTagInvalid;
}
unsigned int Spu::mfc_multi_tag_release(unsigned int tag, unsigned int n) {
  if (n == 0 || tag >= cell::spe::kTags || n > cell::spe::kTags - tag) return kTagInvalid;
  const uint32_t block = (n == 32 ? ~0u : (1u << n) - 1) << tag;
  if ((reserved_ & block) != block) return kTagInvalid;
  reserved_ &= ~block;
  return kTagValid;
}

}  // namespace hs::fw::cell_sdk
