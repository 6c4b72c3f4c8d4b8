// SPE DMA streams across one Cell's EIB (sw/apps/cell_dma.h): which SPEs stream, to what,
// and the steady-state throughput they reach (stream_meter.h).
#include <fmt/format.h>

#include <memory>

#include "hw/cell/eib_topology.h"
#include "hw/hybrid/address_map.h"
#include "sw/apps/cell_dma.h"
#include "testbench/runner/hybrid_model.h"
#include "testbench/runner/stream_meter.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

namespace amap = hybrid::amap;

namespace {

struct Workload {
  int spes;
  bool local_store;  // target: a partner's local store, or DRAM
  bool put;
  bool near;
  uint64_t bytes_per_spe;
  uint32_t command_bytes;
};

constexpr uint64_t kMinBytes = 64 * 1024;  // the window's least: 48 KiB per SPE
constexpr uint64_t kMinCommands = 64;      // the window's least: 48 commands per SPE
constexpr uint32_t kHalfStore = 128 * 1024;
constexpr uint64_t kDramRegion = uint64_t{16} << 20;

Workload declare() {
  ParamScope p("workload");
  Workload w;
  w.spes = static_cast<int>(p.integer("spes", 8, "", "SPEs streaming", Range::between(1, 8)));
  w.local_store = p.choice("target", "local_store",
                           "what the SPEs stream to or from: local_store (each SPE its partner "
                           "SPE's local store) or memory (DRAM, through the MIC)",
                           {"local_store", "memory"}) == "local_store";
  w.put = p.choice("direction", "put", "put: local store -> target; get: target -> local store",
                   {"put", "get"}) == "put";
  w.near = p.choice("placement", "near",
                    "near: partners whose paths do not overlap (memory: the SPEs nearest the MIC); "
                    "far: partners across the ring (memory: the SPEs farthest from the MIC)",
                    {"near", "far"}) == "near";
  w.bytes_per_spe = static_cast<uint64_t>(p.integer(
      "bytes_per_spe", 4 << 20, "B", "bytes each SPE streams", Range::between(16, 1ll << 34)));
  w.command_bytes = static_cast<uint32_t>(p.integer("command_bytes", 16384, "B",
                                                    "bytes per MFC command (a multiple of 16)",
                                                    Range::between(16, 16384)));
  return w;
}

void validate(const Workload& w, size_t spes_built) {
  if (w.command_bytes % 16 != 0) {
    throw InputError(
        fmt::format("workload.command_bytes = {}: MFC commands above 8 B move a "
                    "multiple of 16 B",
                    w.command_bytes));
  }
  if (w.bytes_per_spe % 16 != 0) {
    throw InputError(
        fmt::format("workload.bytes_per_spe = {}: must be a multiple of 16", w.bytes_per_spe));
  }
  if (w.bytes_per_spe < std::max(kMinBytes, kMinCommands * w.command_bytes)) {
    throw InputError(fmt::format(
        "workload.bytes_per_spe = {} is too short for a steady-state window: it needs at least "
        "{} B ({} commands of workload.command_bytes = {} B, and at least {} B)",
        w.bytes_per_spe, std::max(kMinBytes, kMinCommands * w.command_bytes), kMinCommands,
        w.command_bytes, kMinBytes));
  }
  if (w.local_store && w.spes % 2 != 0) {
    throw InputError(
        fmt::format("workload.spes = {}: workload.target = local_store pairs each "
                    "SPE with a partner, so the number of SPEs must be even",
                    w.spes));
  }
  if (static_cast<size_t>(w.spes) > spes_built) {
    throw InputError(
        fmt::format("workload.spes = {}: node0.acc0.spes = {} SPEs are built", w.spes, spes_built));
  }
}

// The streaming SPEs, and for local_store each one's partner (element positions:
// eib_topology.h). near pairs neighbours round the ring (SPE0-SPE2, SPE1-SPE3, SPE4-SPE6,
// SPE5-SPE7: one hop each, paths disjoint); far pairs opposite ones (SPE0-SPE7, SPE1-SPE6,
// SPE2-SPE5, SPE3-SPE4: six hops, half the ring). For memory, SPE n is the (n+1)-th nearest
// to the MIC, so near takes SPE0 up and far SPE7 down.
struct Stream {
  int spe;
  int partner;  // -1: DRAM
};
std::vector<Stream> streams(const Workload& w) {
  std::vector<Stream> v;
  if (!w.local_store) {
    for (int i = 0; i < w.spes; ++i) v.push_back({w.near ? i : 7 - i, -1});
    return v;
  }
  constexpr int kNear[4][2] = {{0, 2}, {1, 3}, {4, 6}, {5, 7}};
  constexpr int kFar[4][2] = {{0, 7}, {1, 6}, {2, 5}, {3, 4}};
  for (int i = 0; i < w.spes / 2; ++i) {
    const int* pair = w.near ? kNear[i] : kFar[i];
    v.push_back({pair[0], pair[1]});
    v.push_back({pair[1], pair[0]});
  }
  return v;
}

}  // namespace

HYBRIDSIM_WORKLOAD(
    cell_dma, HybridModel,
    "SPEs stream between local stores, or to DRAM, across the EIB: steady-state bandwidth") {
  m.results_declared.declare({
      {"spes", "", "the SPEs that streamed"},
      {"aggregate_GBps", "GB/s", "the SPEs' bandwidths over the steady-state window, summed"},
      {"per_spe_GBps", "GB/s", "each SPE's bandwidth over the steady-state window"},
      {"mean_command_latency_ns", "ns",
       "issue to completion, mean over the commands completed in the window"},
      {"window_start_ns", "ns", "the steady-state window's start"},
      {"window_end_ns", "ns", "the steady-state window's end"},
      {"window_commands", "commands", "commands completed in the window"},
  });
  const Workload w = declare();
  auto& acc = *m.node.accelerators[0];
  validate(w, acc.spes.size());
  const std::vector<Stream> ss = streams(w);
  for (const Stream& s : ss) {
    const int needed = std::max(s.spe, s.partner);
    if (static_cast<size_t>(needed) >= acc.spes.size()) {
      throw InputError(fmt::format(
          "workload.placement = {} streams with SPE{}, but node0.acc0.spes = {} SPEs are built",
          w.near ? "near" : "far", needed, acc.spes.size()));
    }
  }
  auto meter = std::make_shared<StreamMeter>(static_cast<int>(ss.size()), w.bytes_per_spe, 0.125,
                                             sc_core::sc_time(100, sc_core::SC_NS));
  for (size_t i = 0; i < ss.size(); ++i) {
    const Stream& s = ss[i];
    fw::cell_dma::Config cfg;
    cfg.bytes = w.bytes_per_spe;
    cfg.command_bytes = w.command_bytes;
    cfg.put = w.put;
    // Own buffer in the lower half of the local store; the partner's upper half is the region,
    // so partners streaming at each other never touch the same bytes.
    cfg.ls_base = 0;
    cfg.ls_span = kHalfStore;
    if (s.partner >= 0) {
      cfg.region = amap::acc_spe(s.partner) + amap::kSpeLocalStore + kHalfStore;
      cfg.region_span = kHalfStore;
    } else {
      cfg.region = amap::kAccDram + static_cast<uint64_t>(s.spe) * kDramRegion;
      cfg.region_span = std::min(w.bytes_per_spe, kDramRegion);
      acc.dram->require(
          cfg.region + cfg.region_span,
          fmt::format("SPE{}'s stream region (up to 16 MiB from SPE x 16 MiB)", s.spe));
    }
    auto& spe = *acc.spes[static_cast<size_t>(s.spe)];
    const int stream = static_cast<int>(i);
    spe.mfc.watch_transfers([meter, stream](uint32_t bytes, const sc_core::sc_time& at) {
      meter->delivered(stream, bytes, at);
    });
    spe.mfc.watch_commands(
        [meter, stream](const sc_core::sc_time& issued, const sc_core::sc_time& done) {
          meter->command_done(stream, issued, done);
        });
    spe.spu.set_firmware([cfg](fw::Hal& hal) { fw::cell_dma::spu_program(hal, cfg); });
  }
  m.results = [meter, ss] {
    const SteadyWindow win = meter->window();
    // A run cut short may end before a steady window has passed: then the check does not run.
    CheckRegistry::instance().check_finished_work(
        "cell_dma: the SPEs stream together for a steady-state window", win.found, "workload", [] {
          return "no interval in which every SPE had moved an eighth of its bytes and none had "
                 "reached its last eighth (streams of very different speeds: raise "
                 "workload.bytes_per_spe or compare fewer SPEs)";
        });
    nlohmann::json per_spe = nlohmann::json::array(), spes = nlohmann::json::array();
    double aggregate = 0;
    for (size_t i = 0; i < ss.size(); ++i) {
      const double bps = win.found ? win.bytes_per_second[i] : 0.0;
      aggregate += bps;
      per_spe.push_back(bps / 1e9);
      spes.push_back(ss[i].spe);
    }
    return nlohmann::json{{"spes", spes},
                          {"aggregate_GBps", aggregate / 1e9},
                          {"per_spe_GBps", per_spe},
                          {"mean_command_latency_ns", win.mean_command_latency_ns},
                          {"window_start_ns", win.start.to_seconds() * 1e9},
                          {"window_end_ns", win.end.to_seconds() * 1e9},
                          {"window_commands", win.commands}};
  };
}

}  // namespace hs::runner
