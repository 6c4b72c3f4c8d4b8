// Double-buffered streams on one Cell (sw/apps/cell_micro.h): each SPE GETs its own region of
// memory block by block into two buffers, computing on one while the other fills.
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "hw/hybrid/address_map.h"
#include "sw/apps/cell_micro.h"
#include "testbench/runner/hybrid_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

namespace amap = hybrid::amap;

HYBRIDSIM_WORKLOAD(cell_stream, HybridModel,
                   "double-buffered GET streams from memory: bandwidth against buffer size") {
  m.results_declared.declare({
      {"buffer_bytes", "B", "each of the two buffers the stream alternates between"},
      {"per_spe_GBps", "GB/s", "the bandwidth one SPE's stream reached"},
      {"aggregate_GBps", "GB/s", "the SPEs' bandwidths summed"},
      {"time_us", "us", "the stream's time"},
  });
  ParamScope p("workload");
  fw::cell_micro::Stream cfg;
  const auto spes =
      static_cast<int>(p.integer("spes", 1, "", "SPEs streaming", Range::between(1, 8)));
  cfg.bytes = static_cast<uint64_t>(p.integer(
      "bytes_per_spe", 1 << 20, "B", "bytes each SPE streams", Range::between(16, 1ll << 30)));
  cfg.buffer = static_cast<uint32_t>(p.integer(
      "buffer_bytes", 16384, "B", "each of the two buffers (a multiple of 16, up to 64 KiB)",
      Range::between(16, 65536)));
  cfg.compute_cycles_per_byte =
      p.real("compute_cycles_per_byte", 0.0, "cycles", "SPU cycles of work per byte of each block",
             Range::between(0, 1000));
  if (cfg.buffer % 16 != 0 || cfg.bytes % 16 != 0) {
    throw InputError(fmt::format(
        "workload.buffer_bytes = {}, workload.bytes_per_spe = {}: both must be multiples of 16",
        cfg.buffer, cfg.bytes));
  }
  auto& acc = *m.node.accelerators[0];
  if (spes > static_cast<int>(acc.spes.size())) {
    throw InputError(fmt::format("workload.spes = {}: node0.acc0.spes = {} SPEs are built", spes,
                                 acc.spes.size()));
  }
  constexpr uint64_t kRegion = uint64_t{64} << 20;
  if (cfg.bytes > kRegion) {
    throw InputError(
        fmt::format("workload.bytes_per_spe = {}: at most 64 MiB (each SPE's region)", cfg.bytes));
  }
  acc.dram->require(static_cast<uint64_t>(spes) * kRegion, "the streams' regions (64 MiB per SPE)");
  auto cycles = std::make_shared<std::vector<uint64_t>>(static_cast<size_t>(spes));
  for (int s = 0; s < spes; ++s) {
    fw::cell_micro::Stream c = cfg;
    c.ea = amap::kAccDram + static_cast<uint64_t>(s) * kRegion;
    acc.spes[static_cast<size_t>(s)]->spu.set_firmware([c, cycles, s](fw::Hal& hal) {
      (*cycles)[static_cast<size_t>(s)] = fw::cell_micro::double_buffered_get(hal, c);
    });
  }
  const double hz = acc.clock_hz;
  m.results = [cycles, hz, cfg, spes] {
    const uint64_t slowest = *std::max_element(cycles->begin(), cycles->end());
    const double seconds = static_cast<double>(slowest) / hz;
    const double each = seconds > 0 ? static_cast<double>(cfg.bytes) / seconds / 1e9 : 0.0;
    return nlohmann::json{{"buffer_bytes", cfg.buffer},
                          {"per_spe_GBps", each},
                          {"aggregate_GBps", each * spes},
                          {"time_us", seconds * 1e6}};
  };
}

}  // namespace hs::runner
