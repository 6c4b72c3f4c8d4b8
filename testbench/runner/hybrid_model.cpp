// The hybrid node (node0) and the workloads that run on it.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <tuple>

#include "hw/hybrid/hybrid_node.h"
#include "sw/apps/hybrid_demo.h"
#include "sw/apps/mirror_demo.h"
#include "sw/apps/pcie_stream.h"
#include "sw/apps/pin_dma_unpin_demo.h"
#include "sw/slmpm/shared_memory.h"
#include "testbench/runner/model.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

namespace {

class HybridModel : public Model {
 public:
  HybridModel() : node("node0") {}
  std::vector<Core*> cores() const override { return node.cores(); }
  nlohmann::json workload_results() const override {
    return results ? results() : nlohmann::json::object();
  }

  hybrid::HybridNode node;
  std::function<nlohmann::json()> results;
};

void install_demo(HybridModel& m, uint64_t seed) {
  ParamScope p("workload");
  const int n_acc = static_cast<int>(m.node.accelerators.size());
  const int host_cores = static_cast<int>(m.node.host->core_list.size());
  const auto accs = p.integer(
      "accelerators", 1, "", "accelerators that run the offload (host core a drives accelerator a)",
      Range::between(1, 64));
  fw::demo::Config base;
  base.seed = seed;
  base.host_bytes = static_cast<uint64_t>(p.integer(
      "host_bytes", 256 * 1024, "B", "input the host writes to each accelerator (multiple of 128)",
      Range::between(128, 64 << 20)));
  base.read_bytes = static_cast<uint64_t>(p.integer("read_bytes", 64 * 1024, "B",
                                                    "bytes the host reads back over PCIe",
                                                    Range::between(4, 64 << 20)));
  base.ethernet_bytes = static_cast<uint64_t>(
      p.integer("ethernet_bytes", 16 * 1024, "B", "bytes sent over Ethernet (0: skip the phase)",
                Range::between(0, 16 << 20)));
  base.spes = static_cast<int>(
      p.integer("spes", 8, "", "SPEs that transform the input", Range::between(1, 8)));
  base.block_bytes =
      static_cast<uint32_t>(p.integer("block_bytes", 16 * 1024, "B", "bytes per MFC command",
                                      Range::one_of({1024, 2048, 4096, 8192, 16384})));
  base.compute_cycles_per_byte =
      p.real("compute_cycles_per_byte", 0.25, "cycles", "SPU cycles spent per byte transformed",
             Range::between(0, 1000));
  if (base.host_bytes % 128 != 0) {
    throw InputError(
        fmt::format("workload.host_bytes = {}: must be a multiple of 128", base.host_bytes));
  }
  if (accs > n_acc || accs > host_cores) {
    throw InputError(
        fmt::format("workload.accelerators = {}: the node has {} accelerators and "
                    "{} host cores",
                    accs, n_acc, host_cores));
  }
  if (base.ethernet_bytes > 0 && m.node.eth_per_acc == 0) {
    throw InputError("workload.ethernet_bytes > 0 but node0.ethernet_links_per_accelerator = 0");
  }
  if (base.spes > static_cast<int>(m.node.accelerators[0]->spes.size())) {
    throw InputError(fmt::format("workload.spes = {}: accelerators have {} SPEs", base.spes,
                                 m.node.accelerators[0]->spes.size()));
  }
  if (base.ethernet_bytes == 0) base.ethernet_link = -1;
  auto host_results = std::make_shared<std::vector<fw::demo::HostResults>>(accs);
  for (int a = 0; a < accs; ++a) {
    fw::demo::Config cfg = base;
    cfg.accelerator = a;
    auto& acc = *m.node.accelerators[a];
    m.node.host->core_list[a]->set_firmware([cfg, host_results, a](fw::Hal& hal) {
      fw::demo::host_program(hal, cfg, (*host_results)[a]);
    });
    acc.ppe->set_firmware([cfg](fw::Hal& hal) { fw::demo::ppe_program(hal, cfg); });
    for (int s = 0; s < cfg.spes; ++s) {
      acc.spes[s]->spu.set_firmware([cfg, s](fw::Hal& hal) { fw::demo::spu_program(hal, cfg, s); });
    }
  }
  const uint64_t host_bytes = base.host_bytes, read_bytes = base.read_bytes;
  m.results = [host_results, host_bytes, read_bytes] {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& r : *host_results) {
      auto gbps = [](uint64_t b, double s) { return s > 0 ? b / s / 1e9 : 0.0; };
      j.push_back({{"verified", r.verified},
                   {"host_write_GBps", gbps(host_bytes, r.write_seconds)},
                   {"host_read_GBps", gbps(std::min(read_bytes, host_bytes), r.read_seconds)},
                   {"offload_us", r.offload_seconds * 1e6}});
    }
    return nlohmann::json{{"accelerators", j}};
  };
}

void install_stream(HybridModel& m, uint64_t) {
  ParamScope p("workload");
  fw::stream::Config cfg;
  cfg.bytes_per_spe = static_cast<uint64_t>(p.integer(
      "bytes_per_spe", 4 << 20, "B", "bytes each SPE streams", Range::between(16, 1ll << 34)));
  cfg.to_host = p.choice("direction", "put", "put: SPEs write host memory; get: they read it",
                         {"put", "get"}) == "put";
  const auto spes = p.integer("spes", 8, "", "SPEs streaming", Range::between(1, 8));
  if (cfg.bytes_per_spe % 16 != 0) {
    throw InputError(
        fmt::format("workload.bytes_per_spe = {}: must be a multiple of 16", cfg.bytes_per_spe));
  }
  auto& acc = *m.node.accelerators[0];
  if (spes > static_cast<int64_t>(acc.spes.size())) {
    throw InputError(
        fmt::format("workload.spes = {}: accelerators have {} SPEs", spes, acc.spes.size()));
  }
  for (int s = 0; s < spes; ++s) {
    acc.spes[s]->spu.set_firmware([cfg, s](fw::Hal& hal) { fw::stream::spu_program(hal, cfg, s); });
  }
  const uint64_t total = cfg.bytes_per_spe * static_cast<uint64_t>(spes);
  auto* link = &m.node.pcie(0, 0);
  const bool put = cfg.to_host;
  m.results = [total, link, put] {
    const double t = sc_core::sc_time_stamp().to_seconds();
    return nlohmann::json{
        {"bytes", total},
        {"throughput_GBps", t > 0 ? total / t / 1e9 : 0.0},
        // The accelerator requests: PUT is MWr upstream (direction 1); GET is MRd
        // upstream and CplD downstream (direction 0).
        {"tlps", put ? link->tlps(1, TlpKind::MWr)
                     : link->tlps(1, TlpKind::MRd) + link->tlps(0, TlpKind::CplD)}};
  };
}

// Mirrored packet counters (seed 000) between host core a and accelerator a's PPE, both
// directions at once, with post-run checks: no MRd TLP in mirrored mode, mirrors equal their
// sources, every counter copy equal to its owner's value.
void install_mirror(HybridModel& m, uint64_t seed) {
  namespace shm = fw::slmpm::shm;
  ParamScope p("workload");
  const int n_acc = static_cast<int>(m.node.accelerators.size());
  const auto accs = p.integer("accelerators", 1, "", "host-accelerator pairs exchanging updates",
                              Range::between(1, 64));
  const std::string mode = p.choice("mode", "mirrored",
                                    "mirrored: counters kept locally and written remotely; "
                                    "baseline: each side reads the peer's counter across PCIe",
                                    {"mirrored", "baseline"});
  const std::string publish =
      p.choice("publish", "eager",
               "read-counter publication: after every batch, lazily by the writer's backlog "
               "(and when idle), or by the source's literal rule (stalls)",
               {"eager", "lazy", "lazy_literal"});
  fw::mirror::Config base;
  base.seed = seed;
  base.mode =
      mode == "mirrored" ? fw::slmpm::CounterMode::Mirrored : fw::slmpm::CounterMode::Baseline;
  base.publish = publish == "eager"  ? fw::slmpm::Publish::Eager
                 : publish == "lazy" ? fw::slmpm::Publish::Lazy
                                     : fw::slmpm::Publish::LazyLiteral;
  const auto segments =
      static_cast<uint32_t>(p.integer("segments", 16, "", "ring segments N (one packet each)",
                                      Range::between(1, shm::kMaxSegments)));
  base.threshold =
      static_cast<uint32_t>(p.integer("threshold", 8, "packets", "lazy publication threshold",
                                      Range::between(1, shm::kMaxSegments)));
  base.variables = static_cast<uint32_t>(
      p.integer("variables", 16, "", "tracked values per side", Range::between(1, 1024)));
  const std::string directions = p.choice("directions", "both", "which rings carry updates",
                                          {"both", "acc_to_host", "host_to_acc"});
  const auto updates = static_cast<uint64_t>(
      p.integer("updates", 500, "", "updates each sending side makes", Range::between(0, 1e8)));
  base.gap_cycles = static_cast<uint64_t>(p.integer(
      "gap_cycles", 2000, "cycles", "mean compute between updates", Range::between(0, 1e9)));
  base.stall_cycles = static_cast<uint64_t>(p.integer(
      "stall_cycles", 20'000'000, "cycles",
      "fail the run if neither direction progresses this long", Range::between(1000, 1e12)));
  if (base.threshold > segments) {
    throw InputError(fmt::format("workload.threshold = {} exceeds workload.segments = {}",
                                 base.threshold, segments));
  }
  if (accs > n_acc || accs > static_cast<int64_t>(m.node.host->core_list.size())) {
    throw InputError(
        fmt::format("workload.accelerators = {}: the node has {} accelerators and "
                    "{} host cores",
                    accs, n_acc, m.node.host->core_list.size()));
  }
  const uint64_t a2h = directions != "host_to_acc" ? updates : 0;
  const uint64_t h2a = directions != "acc_to_host" ? updates : 0;
  struct Pair {
    fw::mirror::Results host, acc;
  };
  auto results = std::make_shared<std::vector<Pair>>(accs);
  for (int a = 0; a < accs; ++a) {
    fw::mirror::Config host_side = base, acc_side = base;
    host_side.accelerator = acc_side.accelerator = a;
    host_side.outbound = shm::host_to_acc(a, 0, segments);
    host_side.inbound = shm::acc_to_host(a, 0, segments);
    host_side.updates = h2a;
    host_side.peer_updates = a2h;
    host_side.source = shm::host_region(a) + shm::kSource;
    host_side.mirror = shm::host_region(a) + shm::kMirror;
    host_side.seed = seed * 1000 + 2 * static_cast<uint64_t>(a);
    acc_side.outbound = host_side.inbound;
    acc_side.inbound = host_side.outbound;
    acc_side.updates = a2h;
    acc_side.peer_updates = h2a;
    acc_side.source = shm::kAccRegion + shm::kSource;
    acc_side.mirror = shm::kAccRegion + shm::kMirror;
    acc_side.seed = seed * 1000 + 2 * static_cast<uint64_t>(a) + 1;
    m.node.host->core_list[a]->set_firmware([host_side, results, a](fw::Hal& hal) {
      fw::mirror::side_program(hal, host_side, (*results)[a].host);
    });
    m.node.accelerators[a]->ppe->set_firmware([acc_side, results, a](fw::Hal& hal) {
      fw::mirror::side_program(hal, acc_side, (*results)[a].acc);
    });
  }
  HybridModel* model = &m;
  const bool mirrored = base.mode == fw::slmpm::CounterMode::Mirrored;
  const uint32_t vars = base.variables;
  m.results = [results, model, mirrored, vars, segments] {
    nlohmann::json j = nlohmann::json::array();
    auto& checks = CheckRegistry::instance();
    for (size_t a = 0; a < results->size(); ++a) {
      const auto& r = (*results)[a];
      auto& node = model->node;
      auto& host_mem = *node.host->dram;
      auto& acc_mem = *node.accelerators[a]->dram;
      const auto& link = node.pcie(static_cast<int>(a), 0);
      const uint64_t mrd = link.tlps(0, TlpKind::MRd) + link.tlps(1, TlpKind::MRd);
      if (mirrored && mrd != 0) {
        checks.fail("workload", fmt::format("mirrored counters issued {} remote reads (MRd) on "
                                            "pcie{}",
                                            mrd, a));
      }
      bool verified = r.host.finished && r.acc.finished;
      if (verified) {
        const uint64_t bytes = uint64_t{vars} * sizeof(fw::slmpm::Packet::value);
        std::vector<uint8_t> src(bytes), mir(bytes);
        // Each side's mirror equals the other side's source values.
        acc_mem.peek(shm::kAccRegion + shm::kSource, src.data(), bytes);
        host_mem.peek(shm::host_region(static_cast<int>(a)) + shm::kMirror, mir.data(), bytes);
        verified &= src == mir;
        host_mem.peek(shm::host_region(static_cast<int>(a)) + shm::kSource, src.data(), bytes);
        acc_mem.peek(shm::kAccRegion + shm::kMirror, mir.data(), bytes);
        verified &= src == mir;
        if (mirrored) {
          // Once traffic stops every remote copy equals its owner's value.
          auto word = [](Memory& mem, uint64_t addr) {
            uint64_t v = 0;
            mem.peek(addr, &v, 8);
            return v;
          };
          const uint64_t region = shm::host_region(static_cast<int>(a));
          verified &= word(host_mem, region + shm::kJCopy) == r.acc.sent;  // J of acc->host
          verified &= word(acc_mem, shm::kAccRegion + shm::kKCopy) == r.host.received;  // K
          verified &= word(acc_mem, shm::kAccRegion + shm::kJCopy) == r.host.sent;      // L
          verified &= word(host_mem, region + shm::kKCopy) == r.acc.received;           // M
        }
        if (!verified)
          checks.fail("workload",
                      fmt::format("mirrored values or counters differ (accelerator {})", a));
      }
      auto side = [&](const fw::mirror::Results& s) {
        return nlohmann::json{{"sent", s.sent},
                              {"received", s.received},
                              {"publications", s.publications},
                              {"remote_reads", s.remote_reads},
                              {"ring_full_polls", s.ring_full_polls},
                              {"mean_latency_ns", s.received ? s.latency_sum_ns / s.received : 0.0},
                              {"max_latency_ns", s.latency_max_ns}};
      };
      j.push_back({{"verified", verified},
                   {"segments", segments},
                   {"pcie_mrd", mrd},
                   {"pcie_mwr", link.tlps(0, TlpKind::MWr) + link.tlps(1, TlpKind::MWr)},
                   {"host", side(r.host)},
                   {"accelerator", side(r.acc)}});
    }
    return nlohmann::json{{"pairs", j}};
  };
}

// Pin/DMA/unpin (seed 003): P on host core 0; application 0 on host core 1 feeding the host's
// DMA engine (engine 0); application 1 on accelerator 0's PPE feeding its engine (engine 1),
// its control block in host memory across PCIe. Checkers: no engine write into a region
// after its unpin; completion sequence numbers in order per engine; P's new data intact.
void install_pin_dma_unpin(HybridModel& m, uint64_t seed) {
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
  if (!m.node.host->dma || !m.node.accelerators[0]->dma) {
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
    cfg.source = 0x7000'0000;
    cfg.view.requests = cfg.view.requests_engine = 0x5100'0000;
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
              "pin_dma_unpin",
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
                "pin_dma_unpin",
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
      CheckRegistry::instance().fail("pin_dma_unpin",
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

using Installer = std::function<void(HybridModel&, uint64_t)>;
const std::map<std::string, Installer>& hybrid_workloads() {
  static const std::map<std::string, Installer> w = {{"hybrid_demo", install_demo},
                                                     {"mirrored_counters", install_mirror},
                                                     {"pcie_stream", install_stream},
                                                     {"pin_dma_unpin", install_pin_dma_unpin}};
  return w;
}

}  // namespace

std::unique_ptr<Model> build_model(const std::string& machine, const std::string& workload,
                                   uint64_t seed) {
  if (machine != "hybrid") {
    throw InputError(fmt::format("unknown machine '{}' (machines: hybrid)", machine));
  }
  auto it = hybrid_workloads().find(workload);
  if (it == hybrid_workloads().end()) {
    std::string known;
    for (const auto& [name, _] : hybrid_workloads()) known += (known.empty() ? "" : ", ") + name;
    throw InputError(
        fmt::format("unknown workload '{}' for machine hybrid (workloads: {})", workload, known));
  }
  auto m = std::make_unique<HybridModel>();
  it->second(*m, seed);
  return m;
}

std::vector<std::string> known_workloads() {
  std::string line = "hybrid:";
  for (const auto& [name, _] : hybrid_workloads()) line += " " + name;
  return {line};
}

}  // namespace hs::runner
