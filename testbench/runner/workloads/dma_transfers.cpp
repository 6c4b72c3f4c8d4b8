// SLMPM DMA transfers with the registration cache, or without it (baseline), and a
// checker that every DMA access to host buffers hits memory the OS has pinned: a stale handle
// (a registration evicted while its transfer is still pending) is caught the moment the DMA
// touches the unpinned pages.
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "sw/apps/transfer_demo.h"
#include "sw/slmpm/shared_memory.h"
#include "testbench/runner/hybrid_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"
#include "tlm/payload/extensions.h"

namespace hs::runner {

HYBRIDSIM_WORKLOAD(dma_transfers, HybridModel,
                   "SLMPM DMA transfers through the registration cache (or the OS every time)") {
  m.results_declared.declare({
      {"verified", "", "the accelerator's slots hold exactly the host's buffers"},
      {"elapsed_us", "us", "the host's time for every transfer"},
      {"retries", "transfers", "transfers retried after a refused registration"},
      {"os_register_calls", "calls", "registrations the OS performed (pinning)"},
      {"os_deregister_calls", "calls", "deregistrations the OS performed"},
      {"os_cycles", "cycles", "host cycles spent in the OS's registration calls"},
      {"unpinned_dma_accesses", "accesses",
       "DMA accesses to unpinned memory (0 when the protocol is safe)"},
      {"cache/hits", "lookups", "registration cache hits"},
      {"cache/misses", "lookups", "registration cache misses"},
      {"cache/evictions", "entries", "registrations the cache evicted"},
  });
  namespace demo = fw::transfer_demo;
  ParamScope p("workload");
  demo::Config cfg;
  const bool use_cache = p.choice("cache", "cache",
                                  "register buffers through the SLMPM's cache, or every time "
                                  "through the OS (baseline)",
                                  {"cache", "none"}) == "cache";
  cfg.transfers = static_cast<uint64_t>(p.integer(
      "transfers", 1000, "", "host-to-accelerator DMA transfers", Range::between(1, 1e7)));
  cfg.buffers = static_cast<uint32_t>(p.integer(
      "buffers", 4, "", "host buffers the transfers cycle over", Range::between(1, 4096)));
  cfg.buffer_bytes = static_cast<uint32_t>(p.integer("buffer_bytes", 64 * 1024, "B",
                                                     "bytes per buffer and transfer",
                                                     Range::between(16, 16 << 20)));
  cfg.window = static_cast<uint32_t>(
      p.integer("window", 1, "", "transfers in flight at once", Range::between(1, 64)));
  cfg.segments = static_cast<uint32_t>(
      p.integer("segments", 16, "", "message ring segments", Range::between(1, 1024)));
  const auto os_cfg = fw::os::OsConfig::declare("node0.host.os");
  const auto cache_cfg = fw::slmpm::CacheConfig::declare("node0.host.slmpm.cache");
  if (!m.node.accelerator_dma(0)) {
    throw InputError(
        "workload dma_transfers needs a DMA engine on the accelerator "
        "(node0.dma_engines = accelerator or both)");
  }
  if (cfg.buffer_bytes % 16 != 0) {
    throw InputError(
        fmt::format("workload.buffer_bytes = {}: must be a multiple of 16", cfg.buffer_bytes));
  }
  // Buffers (host) and their slots (accelerator) sit below the SLMPM's shared memory.
  const uint64_t area = fw::slmpm::shm::kAccRegion - demo::kAccReceive;
  static_assert(fw::slmpm::shm::kAccRegion - demo::kAccReceive ==
                    fw::slmpm::shm::kHostRegion - demo::kHostBuffers,
                "host buffers and accelerator slots share one layout");
  if (uint64_t{cfg.buffers} * cfg.stride() > area) {
    throw InputError(fmt::format(
        "workload.buffers = {} of workload.buffer_bytes = {} (each in a {} KiB slot) need {} KiB; "
        "the transfer area holds {} KiB",
        cfg.buffers, cfg.buffer_bytes, cfg.stride() >> 10,
        (uint64_t{cfg.buffers} * cfg.stride()) >> 10, area >> 10));
  }
  // Host buffers and their accelerator slots, the accelerator's DMA request area and the
  // SLMPM's rings (sw/apps/transfer_demo.h).
  const uint32_t last = cfg.buffers - 1;
  m.node.host->dram->require(cfg.buffer(last) + cfg.buffer_bytes,
                             fmt::format("workload.buffers = {} buffers of workload.buffer_bytes "
                                         "from {:#x}",
                                         cfg.buffers, demo::kHostBuffers));
  m.node.accelerators[0]->dram->require(
      std::max(cfg.slot(last) + cfg.buffer_bytes, demo::kAccRequests + 64 * 32),
      fmt::format("the receive slots of workload.buffers from {:#x} and the DMA request area "
                  "at {:#x}",
                  demo::kAccReceive, demo::kAccRequests));
  require_slmpm_regions(m, 1);
  struct State {
    std::unique_ptr<fw::os::OsModel> os;
    std::unique_ptr<fw::slmpm::RegistrationCache> cache;
    demo::Results host;
    uint64_t unpinned_accesses = 0;
  };
  auto st = std::make_shared<State>();
  st->os = std::make_unique<fw::os::OsModel>(os_cfg);
  if (use_cache) st->cache = std::make_unique<fw::slmpm::RegistrationCache>(*st->os, cache_cfg);

  m.node.host->core_list[0]->set_firmware([cfg, st](fw::Hal& hal) {
    demo::host_program(hal, cfg, *st->os, st->cache.get(), st->host);
  });
  m.node.accelerators[0]->ppe->set_firmware(
      [cfg](fw::Hal& hal) { demo::accelerator_program(hal, cfg); });
  // Host buffers hold a pattern the accelerator must receive.
  for (uint32_t b = 0; b < cfg.buffers; ++b) {
    std::vector<uint8_t> data(cfg.buffer_bytes);
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(b * 31 + i);
    m.node.host->dram->poke(cfg.buffer(b), data.data(), data.size());
  }
  // Checker: DMA (arriving over PCIe) may only touch pinned host memory.
  m.node.host->dram->watch_accesses(
      cfg.buffer(0), cfg.buffer(cfg.buffers), [st](const tlm::tlm_generic_payload& gp) {
        if (!from_device_link(gp)) return;  // the host's own accesses
        const uint64_t a = gp.get_address(), n = gp.get_data_length();
        if (st->os->covers(a, a + n)) return;
        ++st->unpinned_accesses;
        CheckRegistry::instance().fail(
            "SLMPM transfers: DMA touches only pinned host memory", "slmpm",
            fmt::format("DMA {} of host memory [{:#x}, {:#x}) that is not pinned: a stale "
                        "registration handle",
                        gp.is_read() ? "read" : "write", a, a + n));
      });
  HybridModel* model = &m;
  // Post-run: the cache's invariants (all pinning went through it).
  m.results = [st, cfg, model, use_cache] {
    if (st->cache) {
      const std::string bad = st->cache->check_invariants();
      if (!bad.empty()) {
        CheckRegistry::instance().fail(
            "registration cache: bounded, live handles, pins equal the OS's", "registration cache",
            bad);
      }
    }
    bool verified = st->host.finished;
    for (uint32_t b = 0; verified && b < std::min<uint64_t>(cfg.buffers, cfg.transfers); ++b) {
      std::vector<uint8_t> got(cfg.buffer_bytes), want(cfg.buffer_bytes);
      model->node.accelerators[0]->dram->peek(cfg.slot(b), got.data(), got.size());
      model->node.host->dram->peek(cfg.buffer(b), want.data(), want.size());
      verified = got == want;
    }
    if (st->host.finished && !verified) {
      CheckRegistry::instance().fail(
          "SLMPM transfers: the accelerator receives the host buffers", "slmpm",
          "data received by the accelerator differs from the host buffers");
    }
    const auto& os = st->os->counters();
    nlohmann::json j = {{"verified", verified},
                        {"elapsed_us", st->host.elapsed_us},
                        {"retries", st->host.retries},
                        {"os_register_calls", os.register_calls},
                        {"os_deregister_calls", os.deregister_calls},
                        {"os_cycles", os.cycles},
                        {"unpinned_dma_accesses", st->unpinned_accesses}};
    if (use_cache) {
      const auto& c = st->cache->counters();
      j["cache"] = {{"hits", c.hits}, {"misses", c.misses}, {"evictions", c.evictions}};
    }
    return j;
  };
}

}  // namespace hs::runner
