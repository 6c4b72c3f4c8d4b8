// An atomic counter incremented by several SPEs under lock-line reservations
// (sw/apps/cell_micro.h): throughput against the number of SPEs, and the PUTLLCs lost.
#include <fmt/format.h>

#include <memory>

#include "hw/hybrid/address_map.h"
#include "sw/apps/cell_micro.h"
#include "testbench/runner/hybrid_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

namespace amap = hybrid::amap;

HYBRIDSIM_WORKLOAD(cell_atomic, HybridModel,
                   "SPEs increment one atomic counter with GETLLAR/PUTLLC: throughput, retries") {
  m.results_declared.declare({
      {"spes", "SPEs", "SPEs incrementing the counter"},
      {"increments", "increments", "increments made in all"},
      {"counter", "", "the counter's final value (equals the increments)"},
      {"increments_per_us", "increments/us", "increments per microsecond, all SPEs together"},
      {"ns_per_increment", "ns", "time per increment, all SPEs together"},
      {"failed_putllc", "commands", "conditional stores that failed (reservation lost)"},
      {"failed_per_increment", "", "failed conditional stores per increment"},
  });
  ParamScope p("workload");
  const auto spes =
      static_cast<int>(p.integer("spes", 8, "", "SPEs incrementing", Range::between(1, 8)));
  const auto increments = static_cast<int>(
      p.integer("increments", 100, "", "increments per SPE", Range::between(1, 1000000)));
  auto& acc = *m.node.accelerators[0];
  if (spes > static_cast<int>(acc.spes.size())) {
    throw InputError(fmt::format("workload.spes = {}: node0.acc0.spes = {} SPEs are built", spes,
                                 acc.spes.size()));
  }
  constexpr uint64_t kCounter = 0x10000;  // a 128-byte line of DRAM
  constexpr uint32_t kLine = 0x3FF80;     // each SPU's copy, at the top of its local store
  auto failed = std::make_shared<std::vector<uint64_t>>(static_cast<size_t>(spes));
  auto end = std::make_shared<sc_core::sc_time>();
  auto done = std::make_shared<int>(0);
  for (int s = 0; s < spes; ++s) {
    acc.spes[static_cast<size_t>(s)]->spu.set_firmware([=](fw::Hal& hal) {
      (*failed)[static_cast<size_t>(s)] =
          fw::cell_micro::atomic_increments(hal, amap::kAccDram + kCounter, kLine, increments);
      if (++*done == spes) *end = sc_core::sc_time_stamp();
    });
  }
  Memory* dram = acc.dram.get();
  m.results = [=] {
    uint32_t counter = 0;
    dram->peek(kCounter, &counter, 4);
    const uint64_t total = static_cast<uint64_t>(spes) * static_cast<uint64_t>(increments);
    CheckRegistry::instance().check_finished_work(
        "cell_atomic: no increment is lost", counter == total, "workload",
        [&] { return fmt::format("the counter reads {} after {} increments", counter, total); });
    uint64_t lost = 0;
    for (uint64_t f : *failed) lost += f;
    const double us = end->to_seconds() * 1e6;
    return nlohmann::json{
        {"spes", spes},
        {"increments", total},
        {"counter", counter},
        {"increments_per_us", us > 0 ? static_cast<double>(total) / us : 0.0},
        {"ns_per_increment", total > 0 ? us * 1e3 / static_cast<double>(total) : 0.0},
        {"failed_putllc", lost},
        {"failed_per_increment", static_cast<double>(lost) / static_cast<double>(total)}};
  };
}

}  // namespace hs::runner
