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

// ---- Inside an SPE ------------------------------------------------------------------------
// SPE n's window in the accelerator's map (acc_spe(n)), as every EIB master sees it: its local
// store, its problem-state and privileged-2 registers (hw/cell/spe_interface.h).
constexpr uint64_t kSpeLocalStore = 0x0;
constexpr uint64_t kSpeProblemState = 0x4'0000;
constexpr uint64_t kSpePriv2 = 0x6'0000;
// The SPU's own view: its local store at 0 and, for it alone, its channels and run control.
constexpr uint64_t kSpeChannels = 0x1000'0000;
constexpr uint64_t kSpeControl = 0x1000'1000;

// Interrupt doorbells: write the line number to kIrq + core * 8.
constexpr uint64_t kDoorbellStride = 8;

}  // namespace hs::hybrid::amap
