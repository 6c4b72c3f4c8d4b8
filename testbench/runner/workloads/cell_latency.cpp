// DMA latency on one Cell (sw/apps/cell_micro.h): SPE0 issues one GET or PUT at a time and
// waits for it, from memory or from another SPE's local store.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <numeric>

#include "hw/cell/mfc_command.h"
#include "hw/hybrid/address_map.h"
#include "sw/apps/cell_micro.h"
#include "testbench/runner/hybrid_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

namespace amap = hybrid::amap;

HYBRIDSIM_WORKLOAD(cell_latency, HybridModel,
                   "one SPE's DMA latency: a GET or PUT at a time, from memory or a local store") {
  m.results_declared.declare({
      {"bytes", "B", "the size of each DMA command"},
      {"commands", "commands", "commands timed, one at a time"},
      {"mean_latency_ns", "ns", "issue to tag-group completion, mean"},
      {"min_latency_ns", "ns", "issue to completion, the shortest"},
      {"max_latency_ns", "ns", "issue to completion, the longest"},
      {"mean_latency_cycles", "cycles", "the mean in SPU cycles"},
  });
  ParamScope p("workload");
  fw::cell_micro::Latency cfg;
  cfg.put = p.choice("direction", "get", "get: into SPE0's local store; put: out of it",
                     {"get", "put"}) == "put";
  const bool memory =
      p.choice("target", "memory",
               "memory (DRAM through the MIC) or local_store (SPE1's, one hop round the ring)",
               {"memory", "local_store"}) == "memory";
  cfg.bytes = static_cast<uint32_t>(
      p.integer("bytes", 128, "B", "bytes per command", Range::between(1, 16384)));
  cfg.iterations = static_cast<int>(
      p.integer("iterations", 32, "", "commands, one after another", Range::between(1, 100000)));
  if (std::string why = cell::transfer_rule(cfg.bytes, 0, 0); !why.empty()) {
    throw InputError(fmt::format("workload.bytes = {}: {}", cfg.bytes, why));
  }
  auto& acc = *m.node.accelerators[0];
  if (!memory && acc.spes.size() < 2) {
    throw InputError("workload.target = local_store needs node0.acc0.spes >= 2 (SPE1's)");
  }
  cfg.span = 64 * 1024;
  cfg.ea = memory ? amap::kAccDram + 0x100000 : amap::acc_spe(1) + 0x20000;
  if (memory) acc.dram->require(0x100000 + cfg.span, "the latency test's 64 KiB region");
  auto cycles = std::make_shared<std::vector<uint64_t>>();
  acc.spes[0]->spu.set_firmware(
      [cfg, cycles](fw::Hal& hal) { *cycles = fw::cell_micro::dma_latency(hal, cfg); });
  const double hz = acc.clock_hz;
  m.results = [cycles, hz, cfg] {
    if (cycles->empty()) return nlohmann::json::object();
    const auto [lo, hi] = std::minmax_element(cycles->begin(), cycles->end());
    const double mean =
        std::accumulate(cycles->begin(), cycles->end(), 0.0) / static_cast<double>(cycles->size());
    return nlohmann::json{{"bytes", cfg.bytes},
                          {"commands", cycles->size()},
                          {"mean_latency_ns", mean / hz * 1e9},
                          {"min_latency_ns", static_cast<double>(*lo) / hz * 1e9},
                          {"max_latency_ns", static_cast<double>(*hi) / hz * 1e9},
                          {"mean_latency_cycles", mean}};
  };
}

}  // namespace hs::runner
