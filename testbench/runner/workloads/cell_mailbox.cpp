// Mailbox ping-pong between the PPE and each SPE in turn (sw/apps/cell_micro.h).
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <numeric>

#include "sw/apps/cell_micro.h"
#include "testbench/runner/hybrid_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

HYBRIDSIM_WORKLOAD(cell_mailbox, HybridModel,
                   "mailbox ping-pong between the PPE and each SPE: round-trip latency") {
  m.results_declared.declare({
      {"round_trip_ns", "ns", "the PPE's mailbox round trip with an SPE, mean over the SPEs"},
      {"min_round_trip_ns", "ns", "the shortest round trip"},
      {"per_spe_round_trip_ns", "ns", "each SPE's mean round trip"},
  });
  ParamScope p("workload");
  const auto spes = static_cast<int>(
      p.integer("spes", 8, "", "SPEs the PPE ping-pongs with, in turn", Range::between(1, 8)));
  const auto rounds = static_cast<int>(
      p.integer("rounds", 100, "", "round trips per SPE", Range::between(1, 1000000)));
  auto& acc = *m.node.accelerators[0];
  if (spes > static_cast<int>(acc.spes.size())) {
    throw InputError(fmt::format("workload.spes = {}: node0.acc0.spes = {} SPEs are built", spes,
                                 acc.spes.size()));
  }
  for (int s = 0; s < spes; ++s) {
    acc.spes[static_cast<size_t>(s)]->spu.set_firmware(
        [rounds](fw::Hal& hal) { fw::cell_micro::mailbox_echo(hal, rounds); });
  }
  auto cycles = std::make_shared<std::vector<std::vector<uint64_t>>>(static_cast<size_t>(spes));
  acc.ppe->set_firmware([cycles, spes, rounds](fw::Hal& hal) {
    for (int s = 0; s < spes; ++s) {
      (*cycles)[static_cast<size_t>(s)] = fw::cell_micro::mailbox_round_trips(hal, s, rounds);
    }
  });
  const double hz = acc.clock_hz;
  m.results = [cycles, hz] {
    nlohmann::json per = nlohmann::json::array();
    double sum = 0, n = 0;
    uint64_t lo = ~uint64_t{0};
    for (const auto& v : *cycles) {
      if (v.empty()) continue;
      const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
      per.push_back(mean / hz * 1e9);
      sum += mean * static_cast<double>(v.size());
      n += static_cast<double>(v.size());
      lo = std::min(lo, *std::min_element(v.begin(), v.end()));
    }
    if (n == 0) return nlohmann::json::object();
    return nlohmann::json{{"round_trip_ns", sum / n / hz * 1e9},
                          {"min_round_trip_ns", static_cast<double>(lo) / hz * 1e9},
                          {"per_spe_round_trip_ns", per}};
  };
}

}  // namespace hs::runner
