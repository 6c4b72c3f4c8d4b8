#include "sw/apps/pin_dma_unpin_demo.h"

#include <random>

namespace hs::fw::pdu_demo {

void p_program(Hal& hal, os::OsModel& os, const PConfig& cfg, PResults& out) {
  std::vector<pdu::Region> pinned;
  {
    Phase p(hal, "pin regions");
    for (int r = 0; r < cfg.c.regions; ++r) {
      pinned.push_back(pdu::pin(hal, os, cfg.c.cb, r, cfg.c.region(r),
                                cfg.c.region(r) + cfg.c.region_bytes, cfg.c.engines));
    }
  }
  hal.compute(cfg.unpin_after_cycles);
  for (int r = 0; r < cfg.unpin_regions; ++r) {
    Phase p(hal, "unpin");
    const uint64_t t0 = hal.cycles();
    pdu::unpin(hal, os, cfg.c.cb, r, pinned[static_cast<size_t>(r)], cfg.c.embodiment, cfg.rule,
               cfg.c.apps, cfg.c.engines, cfg.stall_cycles);
    out.unpin_ns.push_back(static_cast<double>(hal.cycles() - t0) / hal.clock_hz() * 1e9);
    // The pages are P's (or anyone's) again: new contents that no DMA may overwrite.
    std::vector<uint8_t> reuse(cfg.c.region_bytes, cfg.reuse_byte);
    hal.store(cfg.c.region(r), reuse.data(), reuse.size());
  }
  out.finished = true;
}

void injector_program(Hal& hal, const InjectorConfig& cfg, InjectorResults& out) {
  Phase phase(hal, "inject DMA");
  pdu::Injector inj(hal, cfg.c.cb, cfg.view, cfg.app, cfg.engine, cfg.c.embodiment);
  // An application learns of the regions once P has published them.
  for (int r = 0; r < cfg.c.regions; ++r) {
    while (hal.load<uint64_t>(cfg.view.host + cfg.c.cb.mrcb(r) + pdu::ControlBlocks::kValid) == 0) {
      hal.compute(200);
    }
  }
  if (cfg.unrelated_bytes > 0) {
    // A short transfer into region 0, then a long unrelated one into region 1, same engine.
    inj.inject(0, cfg.source, 0, 256);
    inj.inject(1, cfg.source, 0, static_cast<uint32_t>(cfg.unrelated_bytes));
  } else {
    std::mt19937_64 rng(cfg.seed);
    for (int i = 0; i < cfg.injections; ++i) {
      hal.compute(rng() % (cfg.max_gap_cycles + 1));
      const int region = static_cast<int>(rng() % static_cast<uint64_t>(cfg.c.regions));
      const uint32_t len = static_cast<uint32_t>(16 * (1 + rng() % (cfg.max_bytes / 16)));
      const uint64_t offset = 16 * (rng() % ((cfg.c.region_bytes - len) / 16 + 1));
      inj.inject(region, cfg.source, offset, len);
    }
  }
  out.issued = inj.issued();
  out.rejected = inj.rejected();
  out.finished = true;
}

}  // namespace hs::fw::pdu_demo
