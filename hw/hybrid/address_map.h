// The hybrid node's address map, shared by the hardware models (which decode it) and the
// firmware (which uses it). Defined here once.
#pragma once
#include <cstdint>

namespace hs::hybrid::amap {

// ---- Host physical address space -------------------------------------------------------
constexpr uint64_t kHostDram = 0x0;
constexpr uint64_t kHostDramMax = uint64_t{1} << 40;        // DRAM may grow up to 1 TiB
constexpr uint64_t kHostIrq = 0x0000'0F00'0000'0000;        // MSI doorbells, one per host core
constexpr uint64_t kHostDmaEngine = 0x0000'0E00'0000'0000;  // the host's DMA engine, if placed
// Accelerator `acc` seen through its link `link` of each fabric. Every window exposes the
// accelerator's whole local address space (below), so acc_local + window = host address.
// Room for 65536 accelerators of 16 links each.
constexpr uint64_t kAccPcieWindows = 0x0100'0000'0000'0000;
constexpr uint64_t kAccEthernetWindows = 0x0200'0000'0000'0000;
constexpr uint64_t kAccWindowSize = uint64_t{1} << 36;  // 64 GiB of accelerator space per link
constexpr uint64_t acc_via_pcie(int acc, int link) {
  return kAccPcieWindows + (uint64_t(acc) << 40) + (uint64_t(link) << 36);
}
constexpr uint64_t acc_via_ethernet(int acc, int link) {
  return kAccEthernetWindows + (uint64_t(acc) << 40) + (uint64_t(link) << 36);
}

// ---- Accelerator (Cell BE) local address space ----------------------------------------
constexpr uint64_t kAccDram = 0x0;
constexpr uint64_t kAccDramMax = uint64_t{32} << 30;  // below the SPE windows
constexpr uint64_t kAccSpeWindows = 0x8'0000'0000;    // SPE n: local store and MFC registers
constexpr uint64_t kAccSpeStride = 0x2000'0000;
constexpr uint64_t acc_spe(int spe) {
  return kAccSpeWindows + uint64_t(spe) * kAccSpeStride;
}
constexpr uint64_t kAccIrq = 0xA'0000'0000;        // doorbells: PPE is core 0, SPE n is n + 1
constexpr uint64_t kAccDmaEngine = 0xA'1000'0000;  // the accelerator's DMA engine, if placed
// The host seen from the accelerator through its link `link` of each fabric: host physical
// address + window.
constexpr uint64_t kHostPcieWindows = 0x0100'0000'0000'0000;
constexpr uint64_t kHostEthernetWindows = 0x0200'0000'0000'0000;
constexpr uint64_t kHostWindowSize = uint64_t{1} << 48;  // the whole host map, MSI included
constexpr uint64_t host_via_pcie(int link) {
  return kHostPcieWindows + (uint64_t(link) << 48);
}
constexpr uint64_t host_via_ethernet(int link) {
  return kHostEthernetWindows + (uint64_t(link) << 48);
}

// ---- Inside an SPE (the SPU's own view; also offsets within acc_spe(n)) -------------------
constexpr uint64_t kSpeLocalStore = 0x0;
constexpr uint64_t kSpeMfcRegs = 0x1000'0000;

// MFC command registers (offsets from kSpeMfcRegs). The SPU programs a command by writing
// LSA, EA, SIZE and TAG, then CMD, which enqueues it.
namespace mfc {
constexpr uint64_t kLsa = 0x00;         // local-store address (4 B)
constexpr uint64_t kEa = 0x08;          // effective address on the EIB (8 B)
constexpr uint64_t kSize = 0x10;        // bytes: 1, 2, 4, 8 or a multiple of 16 up to 16 KiB
constexpr uint64_t kTag = 0x14;         // tag group 0..31
constexpr uint64_t kCmd = 0x18;         // write kCmdGet / kCmdPut to enqueue
constexpr uint64_t kQueueSpace = 0x1C;  // free command-queue entries (read)
constexpr uint64_t kTagMask = 0x20;     // tag groups the SPU waits for
constexpr uint64_t kTagStatus = 0x24;   // bit t set: tag group t has nothing outstanding (masked)
constexpr uint64_t kError = 0x28;       // last rejected command's error code (read clears)
constexpr uint32_t kCmdPut = 0x20;      // local store -> effective address
constexpr uint32_t kCmdGet = 0x40;      // effective address -> local store
constexpr unsigned kIrqTagGroup = 0;    // SPU interrupt line: a tag group completed
constexpr unsigned kIrqQueueSpace = 1;  // SPU interrupt line: a queue entry freed
constexpr uint32_t kMaxTransfer = 16 * 1024;
constexpr uint32_t kQueueEntries = 16;
}  // namespace mfc

// Interrupt doorbells: write the line number to kIrq + core * 8.
constexpr uint64_t kDoorbellStride = 8;

}  // namespace hs::hybrid::amap
