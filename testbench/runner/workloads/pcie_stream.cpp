// Streaming DMA across PCIe from the SPEs (sw/apps/pcie_stream.h).
#include <fmt/format.h>

#include <algorithm>

#include "sw/apps/pcie_stream.h"
#include "testbench/runner/hybrid_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

HYBRIDSIM_WORKLOAD(pcie_stream, HybridModel,
                   "eight SPEs stream between their local stores and host memory across PCIe") {
  m.results_declared.declare({
      {"bytes", "B", "bytes the SPEs moved in all"},
      {"throughput_GBps", "GB/s", "bytes moved per second of the run"},
      {"tlps", "TLPs", "the transfer's TLPs: MWr for PUT; MRd and CplD for GET"},
  });
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
  // SPE s streams through 16 MiB of host memory from s x 16 MiB, with eight command buffers
  // in its local store (sw/apps/pcie_stream.cpp).
  const uint64_t window = std::min<uint64_t>(cfg.bytes_per_spe, uint64_t{16} << 20);
  m.node.host->dram->require((static_cast<uint64_t>(spes - 1) << 24) + window,
                             fmt::format("SPE {}'s stream (workload.bytes_per_spe, up to 16 MiB "
                                         "per SPE from SPE x 16 MiB)",
                                         spes - 1));
  for (int s = 0; s < spes; ++s) {
    acc.spes[s]->local_store.require(
        std::min<uint64_t>(cfg.bytes_per_spe, 8 * uint64_t{cfg.command_bytes}),
        fmt::format("eight {} B command buffers", cfg.command_bytes));
  }
  for (int s = 0; s < spes; ++s) {
    acc.spes[s]->spu.set_firmware([cfg, s](fw::Hal& hal) { fw::stream::spu_program(hal, cfg, s); });
  }
  const uint64_t total = cfg.bytes_per_spe * static_cast<uint64_t>(spes);
  auto* link = &m.node.pcie(0, 0);
  const bool put = cfg.to_host;
  m.results = [total, link, put] {
    const double t = sc_core::sc_time_stamp().to_seconds();
    return nlohmann::json{{"bytes", total},
                          {"throughput_GBps", t > 0 ? total / t / 1e9 : 0.0},
                          // The accelerator requests: PUT is MWr upstream (direction 1); GET is MRd
                          // upstream and CplD downstream (direction 0).
                          {"tlps", put ? link->packets(1, hs::link::PacketKind::Write)
                                       : link->packets(1, hs::link::PacketKind::Read) +
                                             link->packets(0, hs::link::PacketKind::ReadData)}};
  };
}

}  // namespace hs::runner
