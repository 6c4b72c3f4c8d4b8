// The pingpong_pairs motif (sw/apps/motif_pingpong_pairs.h): every rank ping-pongs with its
// partner at once; each pair's half round trip and bandwidth, summarised over the pairs.
#include <fmt/format.h>
#include <algorithm>
#include <stdexcept>

#include "sw/apps/motif_pingpong_pairs.h"
#include "testbench/runner/mpi_job.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

HYBRIDSIM_WORKLOAD(pingpong_pairs, TorusModel,
                   "all ranks in pairs ping-pong at once: half round-trip latency and bandwidth "
                   "per pair") {
  m.results_declared.declare({
      {"pairing", "", "how ranks were paired"},
      {"pairs", "pairs", "pairs ping-ponging at once"},
      {"message_bytes", "B", "message size"},
      {"half_round_trip_ns/*", "ns", "half a round trip over the pairs: mean, min and max"},
      {"bandwidth_MBps/*", "MB/s",
       "message bytes per half round trip over the pairs: mean, min and max"},
  });
  auto job = declare_mpi_job(m);
  fw::motifs::PingpongConfig cfg;
  declare_iterations(cfg.iterations, cfg.warmup);
  ParamScope p("workload");
  cfg.bytes = static_cast<uint32_t>(
      p.integer("bytes", cfg.bytes, "B", "each ping and echo", Range::between(0, 32 << 20)));
  const std::string pairing = p.choice(
      "pairing", "neighbour",
      "neighbour (one hop apart), random (a seeded shuffle) or bisection (r with r + size/2)",
      {std::begin(fw::motifs::kPairingNames), std::end(fw::motifs::kPairingNames)});
  const auto pairing_seed = static_cast<uint64_t>(
      p.integer("seed", 1, "", "the random pairing's seed", Range::between(0, 1e15)));
  try {
    cfg.partner = fw::motifs::pair_ranks(fw::motifs::parse_pairing(pairing), *job->map,
                                         m.machine.shape(), pairing_seed);
  } catch (const std::invalid_argument& e) {
    throw InputError(ParamRegistry::instance().refusal("workload.pairing",
                                                       fmt::format("= {}: {}", pairing, e.what())));
  }
  auto timing = install_motif(
      m, job, [cfg](auto& comm, auto&, auto& t) { fw::motifs::pingpong_pairs(comm, cfg, t); });
  m.results = [job, timing, cfg, pairing] {
    nlohmann::json r = motif_json(*job, *timing);
    // Each pair's figures from its pinger (the lower rank): a round trip per iteration.
    const double ns = 1e9 / job->core_hz;
    std::vector<double> half;
    for (size_t i = 0; i < timing->size(); ++i) {
      const auto& t = (*timing)[i];
      if (static_cast<int>(i) > cfg.partner[i] || t.iteration_cycles.empty()) continue;
      double sum = 0;
      for (uint64_t c : t.iteration_cycles) sum += static_cast<double>(c);
      half.push_back(sum / static_cast<double>(t.iteration_cycles.size()) / 2 * ns);
    }
    r["pairing"] = pairing;
    r["pairs"] = half.size();
    r["message_bytes"] = cfg.bytes;
    if (half.empty()) return r;
    const auto [lo, hi] = std::minmax_element(half.begin(), half.end());
    double mean = 0;
    for (double h : half) mean += h / static_cast<double>(half.size());
    r["half_round_trip_ns"] = {{"mean", mean}, {"min", *lo}, {"max", *hi}};
    // Bandwidth per pair: a message's bytes over its half round trip (MB/s = B/us).
    const auto mbps = [&](double h) { return cfg.bytes / h * 1e3; };
    double bw_mean = 0;
    for (double h : half) bw_mean += mbps(h) / static_cast<double>(half.size());
    r["bandwidth_MBps"] = {{"mean", bw_mean}, {"min", mbps(*hi)}, {"max", mbps(*lo)}};
    return r;
  };
}

}  // namespace hs::runner
