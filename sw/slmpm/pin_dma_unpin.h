// Pin, DMA, unpin: never let a DMA engine touch memory that is no longer pinned.
//
// Shared control blocks, in host memory (the accelerator reaches them across PCIe):
//   MRCB per region: valid, range, DMA address; embodiment B adds per engine the completed
//        sequence number of this region's requests (cseq) and the last one issued for it.
//   DICB per application: entrance and exit counts of its issue path.
//   DECB per engine: issued and completed sequence numbers.
// Each engine is fed by one application here, so "take a sequence number and enqueue" is
// atomic per engine without a lock.
//
// Issue (application A on engine k): entrance += 1; read valid; if invalid, exit += 1 and
// stop. Otherwise s = ++issued[k], enqueue the data descriptors followed by a completion write
// of s (to DECB[k].completed in embodiment A, to MRCB.cseq[k] in B), exit += 1.
//
// Unpin (the first application, P), repaired rules: valid = false; snapshot every entrance
// and wait until each exit reaches it; then wait until every engine's completed count reaches
// its issued snapshot (A) or this region's last issued number (B); then unpin through the OS.
// Literal rules (the source as written): A's "entrance >= exit" and backwards engine test pass
// at once (no waiting: unsafe); B's "cseq[k] >= issued[k]" waits forever once another region
// used engine k. Unsafe: no checks at all.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sw/hal/hal.h"
#include "sw/os/os_model.h"

namespace hs::fw::pdu {

enum class Embodiment { A, B };
enum class UnpinRule { Repaired, Literal, Unsafe };

constexpr int kMaxEngines = 4;

// Control-block addresses in host memory (host-local), for `regions`, `apps`, `engines`.
struct ControlBlocks {
  uint64_t base = 0;
  static constexpr uint64_t kMrcbBytes = 128, kDicbBytes = 64, kDecbBytes = 64;
  uint64_t mrcb(int r) const { return base + 0x0000 + kMrcbBytes * static_cast<uint64_t>(r); }
  uint64_t dicb(int a) const { return base + 0x4000 + kDicbBytes * static_cast<uint64_t>(a); }
  uint64_t decb(int k) const { return base + 0x6000 + kDecbBytes * static_cast<uint64_t>(k); }
  // Fields.
  static constexpr uint64_t kValid = 0, kLo = 8, kHi = 16, kDmaAddr = 24;
  static uint64_t cseq(int k) { return 32 + 8 * static_cast<uint64_t>(k); }
  static uint64_t last_issued(int k) { return 64 + 8 * static_cast<uint64_t>(k); }
  static constexpr uint64_t kEntrance = 0, kExit = 8;
  static constexpr uint64_t kIssued = 0, kCompleted = 8;
};

// How one processor reaches things: host memory, and its engine.
struct View {
  uint64_t host = 0;              // add to a host address to reach it from this processor
  uint64_t host_from_engine = 0;  // add to a host address to reach it from the engine
  uint64_t engine_regs = 0;       // the engine's registers as this processor sees them
  uint64_t requests = 0;          // where this processor builds requests (its view)
  uint64_t requests_engine = 0;   // the same memory as the engine sees it
};

class Injector {
 public:
  Injector(Hal& hal, const ControlBlocks& cb, const View& view, int app, int engine,
           Embodiment emb);
  // Tries to DMA `length` bytes from `src` (engine view) into region r at `offset`. Returns
  // false if the region was not valid (nothing enqueued).
  bool inject(int region, uint64_t src, uint64_t offset, uint32_t length);
  uint64_t rejected() const { return rejected_; }
  uint64_t issued() const { return issued_; }

 private:
  Hal& hal_;
  ControlBlocks cb_;
  View view_;
  int app_, engine_;
  Embodiment emb_;
  uint64_t entrance_ = 0, exit_ = 0, issued_ = 0, rejected_ = 0;
  uint64_t slot_ = 0;  // request slots rotate through a small area
};

struct Region {
  uint64_t lo = 0, hi = 0;
  os::Handle handle = 0;
};

// P pins [lo, hi) and publishes its MRCB (valid, range, DMA address).
Region pin(Hal& hal, os::OsModel& os, const ControlBlocks& cb, int region, uint64_t lo, uint64_t hi,
           int engines);
// P unpins region r under `rule`; returns once the OS call is done.
void unpin(Hal& hal, os::OsModel& os, const ControlBlocks& cb, int region, const Region& reg,
           Embodiment emb, UnpinRule rule, int apps, int engines, uint64_t stall_cycles,
           uint64_t poll_cycles = 100);

}  // namespace hs::fw::pdu
