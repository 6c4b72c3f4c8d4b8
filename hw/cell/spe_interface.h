// The SPE's programming interface as the hardware presents it, in the Cell Broadband Engine
// Architecture's numbers: the SPU's channels, the MFC's command opcodes, the SPU's event bits,
// the DMA list element, and the registers any EIB master (the PPE, the host through a link,
// another SPE's DMA) reaches in an SPE's problem-state and privileged-2 areas. The model
// decodes them here; firmware and the SDK headers use the same numbers.
//
// How the model presents the SPU's channels: the SPU reaches them as registers in its own
// view only (amap::kSpeChannels), channel c's data at c * kChannelStride and its count at
// c * kChannelStride + kCountOffset. A channel instruction that would stall on the hardware
// (reading a channel whose count is 0, writing one whose count is 0) is firmware that reads
// the count, and while it is 0 waits on SPU interrupt line c, which the SPE raises whenever
// channel c's count becomes non-zero (sw/cell/channels.h does this for every SDK call). A
// data access at count 0 is refused as a model error: it would stall the SPU forever.
//
// Byte order: every memory in the model keeps the host's byte order, so a list element is
// two 32-bit words in that order: word 0 holds the stall-and-notify bit (bit 31), 16
// reserved bits and the transfer size (bits 0-14), word 1 the effective address's low word.
#pragma once
#include <cstdint>

namespace hs::cell::spe {

// ---- SPU channels ------------------------------------------------------------------------
namespace ch {
constexpr unsigned kRdEventStat = 0, kWrEventMask = 1, kWrEventAck = 2;
constexpr unsigned kRdSigNotify1 = 3, kRdSigNotify2 = 4;
constexpr unsigned kWrDec = 7, kRdDec = 8;
constexpr unsigned kRdEventMask = 11, kRdTagMask = 12;
constexpr unsigned kMfcLsa = 16, kMfcEah = 17, kMfcEal = 18, kMfcSize = 19, kMfcTagId = 20;
constexpr unsigned kMfcCmd = 21, kWrTagMask = 22, kWrTagUpdate = 23, kRdTagStat = 24;
constexpr unsigned kRdListStallStat = 25, kWrListStallAck = 26, kRdAtomicStat = 27;
constexpr unsigned kWrOutMbox = 28, kRdInMbox = 29, kWrOutIntrMbox = 30;
constexpr unsigned kCount = 32;
}  // namespace ch
constexpr uint64_t kChannelStride = 8;
constexpr uint64_t kCountOffset = 4;
// "SPU_RdInMbox", ... ("" if not a channel).
inline const char* channel_name(unsigned channel) {
  switch (channel) {
    case ch::kRdEventStat:
      return "SPU_RdEventStat";
    case ch::kWrEventMask:
      return "SPU_WrEventMask";
    case ch::kWrEventAck:
      return "SPU_WrEventAck";
    case ch::kRdSigNotify1:
      return "SPU_RdSigNotify1";
    case ch::kRdSigNotify2:
      return "SPU_RdSigNotify2";
    case ch::kWrDec:
      return "SPU_WrDec";
    case ch::kRdDec:
      return "SPU_RdDec";
    case ch::kRdEventMask:
      return "SPU_RdEventMask";
    case ch::kRdTagMask:
      return "MFC_RdTagMask";
    case ch::kMfcLsa:
      return "MFC_LSA";
    case ch::kMfcEah:
      return "MFC_EAH";
    case ch::kMfcEal:
      return "MFC_EAL";
    case ch::kMfcSize:
      return "MFC_Size";
    case ch::kMfcTagId:
      return "MFC_TagID";
    case ch::kMfcCmd:
      return "MFC_Cmd";
    case ch::kWrTagMask:
      return "MFC_WrTagMask";
    case ch::kWrTagUpdate:
      return "MFC_WrTagUpdate";
    case ch::kRdTagStat:
      return "MFC_RdTagStat";
    case ch::kRdListStallStat:
      return "MFC_RdListStallStat";
    case ch::kWrListStallAck:
      return "MFC_WrListStallAck";
    case ch::kRdAtomicStat:
      return "MFC_RdAtomicStat";
    case ch::kWrOutMbox:
      return "SPU_WrOutMbox";
    case ch::kRdInMbox:
      return "SPU_RdInMbox";
    case ch::kWrOutIntrMbox:
      return "SPU_WrOutIntrMbox";
    default:
      return "";
  }
}

// Tag-status update requests (written to kWrTagUpdate).
enum TagUpdate : uint32_t { kTagUpdateImmediate = 0, kTagUpdateAny = 1, kTagUpdateAll = 2 };

// Atomic status (read from kRdAtomicStat): PUTLLC failed (its reservation was lost), PUTLLUC
// done, GETLLAR done. A PUTLLC that stored reads as 0.
constexpr uint32_t kAtomicPutllcFailed = 1, kAtomicPutllucDone = 2, kAtomicGetllarDone = 4;

// ---- SPU events (event status, mask and acknowledgement) ------------------------------------
namespace event {
constexpr uint32_t kTagStatusUpdate = 0x1, kListStall = 0x2, kCommandQueueAvailable = 0x8;
constexpr uint32_t kInMbox = 0x10, kDecrementer = 0x20, kOutIntrMboxAvailable = 0x40;
constexpr uint32_t kOutMboxAvailable = 0x80, kSignal2 = 0x100, kSignal1 = 0x200;
constexpr uint32_t kReservationLost = 0x400;
constexpr uint32_t kAll = 0x7FB;
}  // namespace event

// ---- MFC commands ------------------------------------------------------------------------
// A command word is (transfer class << 24) | (replacement class << 16) | opcode; the classes
// are accepted and have no effect in the model.
namespace op {
constexpr uint32_t kPut = 0x20, kGet = 0x40;
constexpr uint32_t kBarrierBit = 0x1, kFenceBit = 0x2, kListBit = 0x4;
constexpr uint32_t kSndsig = 0xA0;  // + kBarrierBit / kFenceBit
constexpr uint32_t kBarrier = 0xC0, kEieio = 0xC8, kSync = 0xCC;
constexpr uint32_t kGetllar = 0xD0, kPutllc = 0xB4, kPutlluc = 0xB0, kPutqlluc = 0xB8;
}  // namespace op

constexpr uint32_t kSpuQueueEntries = 16;     // commands the SPU queues
constexpr uint32_t kProxyQueueEntries = 8;    // commands the PPE (or another master) queues
constexpr uint32_t kMaxTransfer = 16 * 1024;  // bytes of one transfer or list element
constexpr uint32_t kMaxListElements = 2048;
constexpr uint32_t kLockLine = 128;  // bytes of the atomic commands' line
constexpr uint32_t kTags = 32;

struct ListElement {
  uint32_t word0;  // stall-and-notify (bit 31), reserved (bits 15-30), size (bits 0-14)
  uint32_t eal;
  bool stall_and_notify() const { return (word0 >> 31) != 0; }
  uint32_t size() const { return word0 & 0x7FFF; }
};
static_assert(sizeof(ListElement) == 8);

// ---- Problem-state area (offsets from amap::kSpeProblemState), 4-byte registers -----------
namespace ps {
constexpr uint64_t kMfcLsa = 0x3004;
constexpr uint64_t kMfcEa = 0x3008;          // 8 bytes: EAH:EAL
constexpr uint64_t kMfcSizeTag = 0x3010;     // size << 16 | tag
constexpr uint64_t kMfcClassCmd = 0x3014;    // write: the command word (enqueues); read: status
constexpr uint64_t kMfcQStatus = 0x3104;     // free proxy entries; bit 31 set when empty
constexpr uint64_t kPrxyQueryType = 0x3204;  // tag-group query: 0 none, 1 any, 2 all
constexpr uint64_t kPrxyQueryMask = 0x321C;
constexpr uint64_t kPrxyTagStatus = 0x322C;  // masked tag groups with nothing outstanding
constexpr uint64_t kSpuOutMbox = 0x4004;     // read: the outbound mailbox's entry
constexpr uint64_t kSpuInMbox = 0x400C;      // write: into the inbound mailbox
constexpr uint64_t kSpuMboxStat = 0x4014;    // see mbox_stat below
constexpr uint64_t kSpuRunCntl = 0x401C;     // 1: run, 0: stop
constexpr uint64_t kSpuStatus = 0x4024;      // see status below
constexpr uint64_t kSpuNpc = 0x4034;         // next program counter (the entry point)
constexpr uint64_t kSigNotify1 = 0x1400C;
constexpr uint64_t kSigNotify2 = 0x1C00C;
constexpr uint64_t kSize = 0x20000;

// Command status (read at kMfcClassCmd) after the last command written there.
constexpr uint32_t kCmdEnqueued = 0, kCmdInvalid = 1, kCmdQueueFull = 2;
constexpr uint32_t kQStatusEmpty = 0x8000'0000;
// SPU_Mbox_Stat: outbound entries (bits 0-7), inbound free slots (8-15), outbound interrupt
// entries (16-23).
constexpr uint32_t mbox_stat(uint32_t out, uint32_t in_free, uint32_t out_intr) {
  return out | in_free << 8 | out_intr << 16;
}
// SPU_Status: running (bit 0), stopped by stop-and-signal (bit 1), the stop code above bit 16.
constexpr uint32_t kStatusRunning = 0x1, kStatusStoppedByStop = 0x2;
constexpr uint32_t kStopCodeShift = 16;
}  // namespace ps

// ---- Privileged-2 area (offsets from amap::kSpePriv2) --------------------------------------
namespace priv2 {
constexpr uint64_t kSpuOutIntrMbox = 0x4000;  // 8 bytes: read the outbound interrupt mailbox
constexpr uint64_t kSpuCfg = 0x4078;          // 8 bytes: bit 0 / 1: signal 1 / 2 in OR mode
constexpr uint64_t kSize = 0x20000;
}  // namespace priv2

// ---- The SPU's run control in its own view (offsets from amap::kSpeControl) ---------------
// Not channels: how a program loader on the SPU meets the PPE's run control. It waits for a
// run request (SPU line kRunLine), reads the entry point, marks itself running, runs the
// program and stops with a code (the stop-and-signal instruction), which interrupts the PPE.
namespace ctl {
constexpr uint64_t kRunRequest = 0x0;  // read: 1 while SPU_RunCntl asks to run a stopped SPU
constexpr uint64_t kNpc = 0x4;         // read: SPU_NPC, the entry point
constexpr uint64_t kStart = 0x8;       // write: the SPU is running (SPU_Status)
constexpr uint64_t kStop = 0xC;        // write: stop and signal with this code
constexpr uint64_t kSize = 0x1000;
}  // namespace ctl

// ---- Interrupt lines ---------------------------------------------------------------------
// SPU: line c is raised when channel c's count becomes non-zero (see above); kRunLine when
// the PPE asks a stopped SPU to run.
constexpr unsigned kRunLine = 31;
// PPE: the line of SPE n's class-2 interrupts (outbound interrupt mailbox written, SPU
// stopped, a proxy tag-group query satisfied); the PPE reads the SPE's registers for which.
constexpr unsigned kPpeLineBase = 16;
constexpr unsigned ppe_line(int spe) {
  return kPpeLineBase + static_cast<unsigned>(spe);
}

}  // namespace hs::cell::spe
