// Pin/DMA/unpin (sw/apps/pin_dma_unpin_demo.h).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <tuple>
#include "testbench/runner/hybrid_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

#include "hw/hybrid/address_map.h"
#include "sw/apps/pin_dma_unpin_demo.h"
#include "tlm/check/checker.h"
#include "tlm/payload/extensions.h"

namespace hs::runner {

namespace {
constexpr const char* kNoDmaAfterUnpin =
    "pin/DMA/unpin: no DMA write into a region after its unpin";
constexpr const char* kCompletionsInOrder =
    "pin/DMA/unpin: completion sequence numbers advance in order";
constexpr const char* kReuseIntact = "pin/DMA/unpin: data written into an unpinned region stays";
}  // namespace

// Pin/DMA/unpin: P on host core 0; application 0 on host core 1 feeding the host's
// DMA engine (engine 0); application 1 on accelerator 0's PPE feeding its engine (engine 1),
// its control block in host memory across PCIe. Checkers: no engine write into a region
// after its unpin; completion sequence numbers in order per engine; P's new data intact.
HYBRIDSIM_WORKLOAD(pin_dma_unpin, HybridModel,
                   "two applications DMA into pinned host regions while one region is unpinned") {
  m.results_declared.declare({
      {"unpin_ns", "ns", "when the region was unpinned"},
      {"applications/*/issued", "requests", "DMA requests the application issued"},
      {"applications/*/rejected", "requests", "requests rejected (their region unpinned)"},
      {"applications/*/entrance", "", "the DICB's entrance count left in host memory"},
      {"applications/*/exit", "", "the DICB's exit count left in host memory"},
      {"completion_writes", "writes", "completion records written"},
      {"late_dma_writes", "writes",
       "DMA writes that landed after the unpin (0 when the protocol is safe)"},
      {"reuse_intact", "", "data written into the unpinned region afterwards was left intact"},
  });
  namespace pdu = fw::pdu;
  namespace demo = fw::pdu_demo;
  ParamScope p("workload");
  demo::Common c;
  c.cb.base = 0x5000'0000;
  c.embodiment = p.choice("embodiment", "A",
                          "A: completions write the engine's DECB; B: they write the region's MRCB",
                          {"A", "B"}) == "A"
                     ? pdu::Embodiment::A
                     : pdu::Embodiment::B;
  const std::string rule = p.choice("rule", "repaired",
                                    "unpin rule: the working one, the source's literal one, or "
                                    "no checks at all",
                                    {"repaired", "literal", "unsafe"});
  c.regions =
      static_cast<int>(p.integer("regions", 2, "", "pinned regions", Range::between(2, 64)));
  c.region_bytes = static_cast<uint64_t>(p.integer(
      "region_bytes", 64 * 1024, "B", "bytes per region", Range::between(4096, 64 << 20)));
  c.region_stride = (c.region_bytes + (1 << 20) - 1) / (1 << 20) * (1 << 20);
  demo::PConfig pc;
  pc.rule = rule == "repaired"  ? pdu::UnpinRule::Repaired
            : rule == "literal" ? pdu::UnpinRule::Literal
                                : pdu::UnpinRule::Unsafe;
  pc.unpin_after_cycles = static_cast<uint64_t>(
      p.integer("unpin_after_cycles", 40'000, "cycles", "P's compute between pinning and unpinning",
                Range::between(0, 1e12)));
  pc.unpin_regions = static_cast<int>(
      p.integer("unpin_regions", 1, "", "regions P unpins (0, 1, ...)", Range::between(0, 64)));
  pc.stall_cycles = static_cast<uint64_t>(
      p.integer("stall_cycles", 200'000'000, "cycles",
                "fail the run if an unpin waits longer than this", Range::between(1000, 1e13)));
  demo::InjectorConfig ic;
  ic.injections = static_cast<int>(p.integer(
      "injections", 100, "", "DMA requests each application tries", Range::between(0, 1e6)));
  ic.max_bytes = static_cast<uint32_t>(
      p.integer("max_bytes", 8192, "B", "largest random transfer", Range::between(16, 1 << 20)));
  ic.max_gap_cycles = static_cast<uint64_t>(
      p.integer("max_gap_cycles", 4000, "cycles",
                "largest compute between an application's requests", Range::between(0, 1e9)));
  ic.unrelated_bytes = static_cast<uint64_t>(p.integer(
      "unrelated_bytes", 0, "B",
      "> 0: instead of random traffic, application 1 sends a short transfer to region 0 and "
      "then this many bytes to region 1 on the same engine",
      Range::between(0, 64 << 20)));
  const auto os_cfg = fw::os::OsConfig::declare("node0.host.os");
  if (!m.node.host->dma || !m.node.accelerator_dma(0)) {
    throw InputError(
        "workload pin_dma_unpin needs DMA engines on the host and the accelerator: "
        "set node0.dma_engines=both");
  }
  if (pc.unpin_regions > c.regions) {
    throw InputError(fmt::format("workload.unpin_regions = {} exceeds workload.regions = {}",
                                 pc.unpin_regions, c.regions));
  }
  if (ic.max_bytes > c.region_bytes || ic.unrelated_bytes > c.region_bytes) {
    throw InputError(
        "workload.max_bytes and workload.unrelated_bytes must fit in workload.region_bytes");
  }
  // Host: the control blocks, the host engine's request area, the regions and the host
  // application's source; the accelerator: its engine's request area and source. Requests sit
  // at 0x5100'0000 and sources at 0x7000'0000 in each engine's own memory.
  constexpr uint64_t kRequests = 0x5100'0000, kSource = 0x7000'0000;
  constexpr uint64_t kRequestArea = 64 * 32, kControlBlocks = 0x1'0000;
  const uint64_t source_bytes = std::max<uint64_t>(ic.max_bytes, ic.unrelated_bytes);
  m.node.host->dram->require(
      std::max({c.region(c.regions - 1) + c.region_bytes, c.cb.base + kControlBlocks,
                kRequests + kRequestArea, kSource + ic.max_bytes}),
      fmt::format("workload.regions = {} regions of workload.region_bytes from {:#x}, the "
                  "control blocks at {:#x} and the DMA requests and source at {:#x} and {:#x}",
                  c.regions, c.region(0), c.cb.base, kRequests, kSource));
  m.node.accelerators[0]->dram->require(
      std::max(kRequests + kRequestArea, kSource + source_bytes),
      fmt::format("the DMA requests at {:#x} and the source at {:#x}", kRequests, kSource));
  pc.c = c;
  auto os = std::make_shared<fw::os::OsModel>(os_cfg);
  struct State {
    demo::PResults p;
    demo::InjectorResults inj[2];
    std::vector<bool> unpinned;
    std::vector<uint64_t> last_completion;  // per engine (A) or per region x engine (B)
    uint64_t late_writes = 0;
    uint64_t completion_writes = 0;
  };
  auto st = std::make_shared<State>();
  st->unpinned.assign(static_cast<size_t>(c.regions), false);
  st->last_completion.assign(static_cast<size_t>(c.regions * c.engines), 0);

  // Firmware.
  m.node.host->core_list[0]->set_firmware(
      [pc, os, st](fw::Hal& hal) { demo::p_program(hal, *os, pc, st->p); });
  for (int app = 0; app < 2; ++app) {
    demo::InjectorConfig cfg = ic;
    cfg.c = c;
    cfg.app = app;
    cfg.engine = app;
    cfg.seed = seed * 100 + static_cast<uint64_t>(app);
    cfg.source = kSource;
    cfg.view.requests = cfg.view.requests_engine = kRequests;
    if (app == 0) {
      cfg.view.engine_regs = hybrid::amap::kHostDmaEngine;
      cfg.unrelated_bytes = 0;  // the unrelated pattern runs on the accelerator's engine only
      if (ic.unrelated_bytes > 0) cfg.injections = 0;
      m.node.host->core_list[1]->set_firmware(
          [cfg, st](fw::Hal& hal) { demo::injector_program(hal, cfg, st->inj[0]); });
    } else {
      cfg.view.host = cfg.view.host_from_engine = hybrid::amap::host_via_pcie(0);
      cfg.view.engine_regs = hybrid::amap::kAccDmaEngine;
      m.node.accelerators[0]->ppe->set_firmware(
          [cfg, st](fw::Hal& hal) { demo::injector_program(hal, cfg, st->inj[1]); });
    }
  }

  // Checkers.
  const int p_core = m.node.host->core_list[0]->core_index();
  os->observe_unpins([st, c](uint64_t lo, uint64_t) {
    for (int r = 0; r < c.regions; ++r) {
      if (c.region(r) == lo) st->unpinned[static_cast<size_t>(r)] = true;
    }
  });
  for (int r = 0; r < c.regions; ++r) {
    m.node.host->dram->watch_writes(
        c.region(r), c.region(r) + c.region_bytes,
        [st, r, p_core, c](const tlm::tlm_generic_payload& gp) {
          if (!st->unpinned[static_cast<size_t>(r)]) return;
          const auto* who = gp.get_extension<InitiatorExt>();
          if (who && who->initiator_id == p_core) return;  // P reusing its memory
          ++st->late_writes;
          CheckRegistry::instance().fail(
              kNoDmaAfterUnpin, "pin_dma_unpin",
              fmt::format("a DMA engine wrote {} B at +{:#x} into region {} after it "
                          "was unpinned",
                          gp.get_data_length(), gp.get_address() - c.region(r), r));
        });
  }
  auto watch_completion = [st](uint64_t addr, size_t slot, bool contiguous, std::string what) {
    return std::make_tuple(addr, slot, contiguous, std::move(what));
  };
  std::vector<std::tuple<uint64_t, size_t, bool, std::string>> completions;
  for (int k = 0; k < c.engines; ++k) {
    if (c.embodiment == pdu::Embodiment::A) {
      completions.push_back(watch_completion(c.cb.decb(k) + pdu::ControlBlocks::kCompleted,
                                             static_cast<size_t>(k), true,
                                             fmt::format("engine {} DECB", k)));
    } else {
      for (int r = 0; r < c.regions; ++r) {
        completions.push_back(watch_completion(c.cb.mrcb(r) + pdu::ControlBlocks::cseq(k),
                                               static_cast<size_t>(r * c.engines + k), false,
                                               fmt::format("region {} engine {} cseq", r, k)));
      }
    }
  }
  for (const auto& [addr, slot, contiguous, what] : completions) {
    m.node.host->dram->watch_writes(
        addr, addr + 8,
        [st, slot = slot, contiguous = contiguous, what = what,
         p_core](const tlm::tlm_generic_payload& gp) {
          const auto* who = gp.get_extension<InitiatorExt>();
          if (who && who->initiator_id == p_core) return;  // P initialising the MRCB at pin time
          uint64_t v = 0;
          std::memcpy(&v, gp.get_data_ptr(), std::min<size_t>(8, gp.get_data_length()));
          ++st->completion_writes;
          uint64_t& last = st->last_completion[slot];
          const bool ok = contiguous ? v == last + 1 : v > last;
          if (!ok) {
            CheckRegistry::instance().fail(
                kCompletionsInOrder, "pin_dma_unpin",
                fmt::format("{} completion {} after {}: sequence numbers must {}", what, v, last,
                            contiguous ? "advance by one" : "increase"));
          }
          last = v;
        });
  }

  HybridModel* model = &m;
  m.results = [st, c, pc, model] {
    bool reuse_intact = true;
    for (int r = 0; r < pc.unpin_regions && st->p.finished; ++r) {
      std::vector<uint8_t> got(c.region_bytes);
      model->node.host->dram->peek(c.region(r), got.data(), got.size());
      reuse_intact &=
          std::all_of(got.begin(), got.end(), [&](uint8_t b) { return b == pc.reuse_byte; });
    }
    if (!reuse_intact) {
      CheckRegistry::instance().fail(kReuseIntact, "pin_dma_unpin",
                                     "data P wrote into an unpinned region was overwritten by DMA");
    }
    nlohmann::json apps = nlohmann::json::array();
    for (int a = 0; a < 2; ++a) {
      uint64_t counts[2] = {0, 0};  // the DICB's entrance and exit, as left in host memory
      model->node.host->dram->peek(c.cb.dicb(a), counts, sizeof counts);
      apps.push_back({{"issued", st->inj[a].issued},
                      {"rejected", st->inj[a].rejected},
                      {"entrance", counts[0]},
                      {"exit", counts[1]}});
    }
    return nlohmann::json{{"unpin_ns", st->p.unpin_ns},
                          {"applications", apps},
                          {"completion_writes", st->completion_writes},
                          {"late_dma_writes", st->late_writes},
                          {"reuse_intact", reuse_intact}};
  };
}

}  // namespace hs::runner
