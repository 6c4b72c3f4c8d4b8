// Mirrored packet counters (sw/apps/mirror_demo.h).
#include <fmt/format.h>

#include <memory>
#include "testbench/runner/hybrid_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

#include "sw/apps/mirror_demo.h"
#include "sw/slmpm/shared_memory.h"
#include "tlm/check/checker.h"

namespace hs::runner {

// Mirrored packet counters between host core a and accelerator a's PPE, both
// directions at once, with post-run checks: no MRd TLP in mirrored mode, mirrors equal their
// sources, every counter copy equal to its owner's value.
HYBRIDSIM_WORKLOAD(mirrored_counters, HybridModel,
                   "host and PPE mirror tracked values through rings (mirrored or baseline)") {
  m.results_declared.declare({
      {"pairs/*/verified", "", "mirrors and counter copies equal their owners once traffic stops"},
      {"pairs/*/segments", "", "ring segments"},
      {"pairs/*/pcie_mrd", "TLPs",
       "remote reads (MRd) on the pair's PCIe link (0 in mirrored mode)"},
      {"pairs/*/pcie_mwr", "TLPs", "posted writes (MWr) on the pair's PCIe link"},
      {"pairs/*/*/sent", "packets", "packets this side sent"},
      {"pairs/*/*/received", "packets", "packets this side received"},
      {"pairs/*/*/publications", "writes", "counter publications to the other side"},
      {"pairs/*/*/read_batches", "batches", "batches of packets read at once"},
      {"pairs/*/*/remote_reads", "reads", "reads across PCIe of the other side's counters"},
      {"pairs/*/*/ring_full_polls", "polls", "polls that found the ring full"},
      {"pairs/*/*/mean_latency_ns", "ns", "send to receipt, mean per packet"},
      {"pairs/*/*/max_latency_ns", "ns", "send to receipt, the largest"},
  });
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
  require_slmpm_regions(m, static_cast<int>(accs));
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
      const uint64_t mrd =
          link.packets(0, hs::link::PacketKind::Read) + link.packets(1, hs::link::PacketKind::Read);
      if (mirrored && mrd != 0) {
        checks.fail("mirrored counters: no remote read (MRd) in mirrored mode", "workload",
                    fmt::format("mirrored counters issued {} remote reads (MRd) on "
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
          checks.fail("mirrored counters: mirrors and counter copies equal their owners",
                      "workload",
                      fmt::format("mirrored values or counters differ (accelerator {})", a));
      }
      auto side = [&](const fw::mirror::Results& s) {
        return nlohmann::json{{"sent", s.sent},
                              {"received", s.received},
                              {"publications", s.publications},
                              {"read_batches", s.read_batches},
                              {"remote_reads", s.remote_reads},
                              {"ring_full_polls", s.ring_full_polls},
                              {"mean_latency_ns", s.received ? s.latency_sum_ns / s.received : 0.0},
                              {"max_latency_ns", s.latency_max_ns}};
      };
      j.push_back({{"verified", verified},
                   {"segments", segments},
                   {"pcie_mrd", mrd},
                   {"pcie_mwr", link.packets(0, hs::link::PacketKind::Write) +
                                    link.packets(1, hs::link::PacketKind::Write)},
                   {"host", side(r.host)},
                   {"accelerator", side(r.acc)}});
    }
    return nlohmann::json{{"pairs", j}};
  };
}

}  // namespace hs::runner
