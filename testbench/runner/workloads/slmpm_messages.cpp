// SLMPM messages with mode selection (send and put, every accelerator-ID form, both fabrics).
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "sw/apps/messages_demo.h"
#include "testbench/runner/hybrid_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

HYBRIDSIM_WORKLOAD(slmpm_messages, HybridModel,
                   "SLMPM send, put and get of 16 B to 256 KiB, each message's mode selected") {
  m.results_declared.declare({
      {"verified", "", "every message was delivered"},
      {"delivered", "messages", "messages the accelerator received"},
      {"gets", "messages", "messages the host fetched by get"},
      {"smt", "messages", "messages sent through shared memory (mode selection)"},
      {"dma", "messages", "messages sent by DMA (mode selection)"},
      {"pcie", "messages", "messages over PCIe"},
      {"ethernet", "messages", "messages over Ethernet"},
      {"elapsed_us", "us", "the host's time for every message"},
      {"bytes", "B", "message bytes in all"},
      {"ethernet_resends", "frames", "Ethernet frames resent after a loss"},
  });
  namespace demo = fw::messages_demo;
  ParamScope p("workload");
  demo::Config cfg;
  cfg.seed = seed;
  cfg.messages = static_cast<uint64_t>(
      p.integer("messages", 200, "", "messages the host sends", Range::between(1, 1e6)));
  cfg.max_bytes = static_cast<uint32_t>(p.integer("max_bytes", 256 * 1024, "B", "largest message",
                                                  Range::between(16, demo::kBufferBytes)));
  cfg.fixed_size = p.choice("sizes", "spread",
                            "message sizes: spread over orders of magnitude up to max_bytes, or "
                            "every message max_bytes long",
                            {"spread", "fixed"}) == "fixed";
  if (cfg.fixed_size && cfg.max_bytes % 16 != 0) {
    throw InputError(fmt::format(
        "workload.max_bytes = {}: with workload.sizes = fixed it must be a multiple of 16",
        cfg.max_bytes));
  }
  cfg.window = static_cast<uint32_t>(
      p.integer("window", 4, "", "messages in flight", Range::between(1, 64)));
  const auto slots =
      p.integer("receive_slots", 0, "",
                "the accelerator's receive slots for sends (0: one more than the window); a send "
                "finding none free waits for one",
                Range::between(0, demo::kMaxReceiveSlots));
  cfg.receive_slots = slots ? static_cast<uint32_t>(slots) : cfg.window + 1;
  cfg.segments = static_cast<uint32_t>(
      p.integer("segments", 32, "", "message ring segments", Range::between(1, 1024)));
  const std::string ids =
      p.choice("ids", "mixed", "accelerator-ID forms used: a random mix, or one form",
               {"mixed", "pcie", "mac", "global"});
  cfg.ids = ids == "mixed"  ? demo::IdForms::Mixed
            : ids == "pcie" ? demo::IdForms::Pcie
            : ids == "mac"  ? demo::IdForms::Mac
                            : demo::IdForms::Global;
  const std::string ops = p.choice("operations", "mixed", "send, put, get, or a random mix",
                                   {"mixed", "send", "put", "get"});
  cfg.ops = ops == "mixed"  ? demo::Operations::Mixed
            : ops == "send" ? demo::Operations::Send
            : ops == "put"  ? demo::Operations::Put
                            : demo::Operations::Get;
  const bool use_cache =
      p.choice("cache", "cache", "register DMA buffers through the cache or the OS",
               {"cache", "none"}) == "cache";
  cfg.thresholds = declare_slmpm_thresholds();
  ParamScope t("node0.host.slmpm");
  cfg.resend.timeout_ns =
      t.real("ethernet_resend_timeout", cfg.resend.timeout_ns / 1e3, "us",
             "Ethernet channel: the ring's read counter without progress this long, packets "
             "outstanding, before the writer rewrites them (both sides)",
             Range::between(1, 1e6)) *
      1e3;
  cfg.resend.retries = static_cast<uint32_t>(
      t.integer("ethernet_resend_retries", cfg.resend.retries, "",
                "Ethernet channel: rewrites without progress before the transfer fails",
                Range::between(1, 1000)));
  const auto os_cfg = fw::os::OsConfig::declare("node0.host.os");
  const auto cache_cfg = fw::slmpm::CacheConfig::declare("node0.host.slmpm.cache");
  cfg.ethernet = m.node.eth_per_acc > 0;
  if (!m.node.accelerator_dma(0)) {
    throw InputError(
        "workload slmpm_messages needs a DMA engine on the accelerator (node0.dma_engines)");
  }
  if (!cfg.ethernet && (cfg.ids == demo::IdForms::Mac ||
                        cfg.thresholds.default_fabric == fw::slmpm::Fabric::Ethernet)) {
    throw InputError(
        "Ethernet accelerator IDs or an Ethernet default fabric need "
        "node0.ethernet_links_per_accelerator >= 1");
  }
  // The host's sources and get destinations, the accelerator's receive slots, put area, get
  // sources and DMA request area, and the SLMPM's rings (sw/apps/messages_demo.h).
  const uint64_t buffers = uint64_t{demo::kBuffers} * demo::kBufferBytes;
  m.node.host->dram->require(
      std::max(demo::kHostSources, demo::kHostGetDest) + buffers,
      fmt::format("{} message buffers of {} B at {:#x} and {:#x}", demo::kBuffers,
                  demo::kBufferBytes, demo::kHostSources, demo::kHostGetDest));
  m.node.accelerators[0]->dram->require(
      std::max({demo::kAccReceive + (cfg.window + 1) * demo::kBufferBytes,
                demo::kAccPutArea + buffers, demo::kAccGetSources + buffers,
                demo::kAccRequests + 64 * 32}),
      fmt::format("the receive slots (workload.window + 1) at {:#x}, the put and get buffers at "
                  "{:#x} and {:#x} and the DMA request area at {:#x}",
                  demo::kAccReceive, demo::kAccPutArea, demo::kAccGetSources, demo::kAccRequests));
  require_slmpm_regions(m, 1);
  struct State {
    std::unique_ptr<fw::os::OsModel> os;
    std::unique_ptr<fw::slmpm::RegistrationCache> cache;
    demo::Results host, acc;
  };
  auto st = std::make_shared<State>();
  st->os = std::make_unique<fw::os::OsModel>(os_cfg);
  if (use_cache) st->cache = std::make_unique<fw::slmpm::RegistrationCache>(*st->os, cache_cfg);
  for (uint32_t b = 0; b < demo::kBuffers; ++b) {
    std::vector<uint8_t> data(demo::kBufferBytes);
    for (size_t i = 0; i < data.size(); ++i) data[i] = demo::pattern(b, i);
    m.node.host->dram->poke(demo::kHostSources + b * demo::kBufferBytes, data.data(), data.size());
    m.node.accelerators[0]->dram->poke(demo::kAccGetSources + b * demo::kBufferBytes, data.data(),
                                       data.size());
  }
  m.node.host->core_list[0]->set_firmware([cfg, st](fw::Hal& hal) {
    demo::host_program(hal, cfg, *st->os, st->cache.get(), st->host);
  });
  m.node.accelerators[0]->ppe->set_firmware(
      [cfg, st](fw::Hal& hal) { demo::accelerator_program(hal, cfg, st->acc); });
  // Post-run: the cache's invariants (all pinning went through it).
  m.results = [st, cfg] {
    if (st->cache) {
      const std::string bad = st->cache->check_invariants();
      if (!bad.empty()) {
        CheckRegistry::instance().fail(
            "registration cache: bounded, live handles, pins equal the OS's", "registration cache",
            bad);
      }
    }
    const bool verified =
        st->host.finished && st->acc.finished && st->acc.delivered + st->host.gets == cfg.messages;
    if (st->host.finished && !verified) {
      CheckRegistry::instance().fail("SLMPM messages: every message delivered", "slmpm",
                                     "not every message was delivered");
    }
    return nlohmann::json{{"verified", verified},          {"delivered", st->acc.delivered},
                          {"gets", st->host.gets},         {"smt", st->host.smt},
                          {"dma", st->host.dma},           {"pcie", st->host.pcie},
                          {"ethernet", st->host.ethernet}, {"elapsed_us", st->host.elapsed_us},
                          {"bytes", st->host.bytes},       {"ethernet_resends", st->host.resends}};
  };
}

}  // namespace hs::runner
