// The SPEs' local stores in the PPE program's address space, as the hardware maps them into the
// effective-address space: spe_ls_area_get's pointer, which the PPE program loads and stores
// through like any memory, and which a proxy DMA or another SPE's DMA may name as an effective
// address.
//
// How: each local store has a 256 KiB range of host address space, inaccessible until touched.
// The program's first access to a page faults (the crash guard asks this mapping first,
// sw/user/crash_guard.h); the page is filled with the local store's bytes and made readable;
// a store to it faults once more and makes it writable (dirty). At the program's next call
// into the simulator (sync), dirty pages are written back to the local store and every touched
// page becomes inaccessible again, all at once (untimed, before anything else can run). SPUs and
// DMA change a local store only while the PPE program is inside a call (the simulation advances
// only there), so what the program reads is what the SPU would read, and what it stored reaches the
// local store before any SPU can look.
//
// Timing: the loads and stores themselves run natively, as the rest of the PPE program's code
// (charged by the compute model). After the write-back, each touched page costs the PPE a timed
// 4 KiB access of its local store across the EIB (a load: the same path and size as the
// page's fill or write-back): per page, not the hardware's per-access cost of uncached MMIO,
// which is higher for scattered words.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sw/hal/hal.h"

namespace hs::fw::cell_program {

class LsMapping {
 public:
  static constexpr uint64_t kLsBytes = 256 * 1024;
  static constexpr uint64_t kPage = 4096;
  // Untimed reads and writes of SPE `spe`'s local store (the debug path).
  using Peek = std::function<void(int spe, uint64_t offset, void* dst, uint64_t len)>;
  using Poke = std::function<void(int spe, uint64_t offset, const void* src, uint64_t len)>;
  // `real(spe)`: the local store's real address for the PPE's timed accesses.
  LsMapping(int spes, Peek peek, Poke poke, std::function<uint64_t(int spe)> real);
  ~LsMapping();
  LsMapping(const LsMapping&) = delete;
  LsMapping& operator=(const LsMapping&) = delete;

  void* area(int spe) const;
  // The real address of [p, p + len) when it lies in one local store's mapping.
  std::optional<uint64_t> to_real(const void* p, uint64_t len) const;
  // Writes dirty pages back and invalidates every touched page, through `hal` (timed).
  void sync(Hal& hal);
  // From the fault handler: whether `addr` is a page of the mapping, now made accessible.
  bool resolve(const void* addr);

 private:
  enum class Page : uint8_t { Absent, Clean, Dirty };
  int spes_;
  Peek peek_;
  Poke poke_;
  std::function<uint64_t(int)> real_;
  char* base_ = nullptr;
  std::vector<Page> pages_;        // per page of every local store
  std::vector<uint32_t> touched_;  // page numbers, in the order touched (reserved: no allocation
                                   // in the fault handler)
};

}  // namespace hs::fw::cell_program
