// A random mix of MFC commands on one Cell (sw/apps/cell_mfc_mix.h), for the seed soak: the
// plan comes from the seed, the MFC checker watches the ordering, and this workload checks
// that every copy left the right bytes.
#include <fmt/format.h>

#include <memory>
#include <vector>

#include "hw/hybrid/address_map.h"
#include "sw/apps/cell_mfc_mix.h"
#include "testbench/runner/hybrid_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

namespace mix = fw::cell_mix;

HYBRIDSIM_WORKLOAD(cell_mfc_mix, HybridModel,
                   "a random mix of MFC commands, lists, fences and barriers from the seed: data "
                   "and ordering checked") {
  m.results_declared.declare({
      {"copies", "commands", "GETs and PUTs whose bytes were checked"},
      {"wrong", "commands", "of those, copies that left wrong bytes"},
  });
  ParamScope p("workload");
  const auto spes =
      static_cast<int>(p.integer("spes", 8, "", "SPEs running a plan", Range::between(1, 8)));
  mix::Config cfg;
  cfg.commands = static_cast<int>(
      p.integer("commands", 200, "", "commands (and waits) per SPE", Range::between(0, 100000)));
  cfg.tags = static_cast<uint32_t>(
      p.integer("tags", 4, "", "tags the commands use, from 0 up", Range::between(1, 32)));
  cfg.max_bytes = static_cast<uint32_t>(
      p.integer("max_bytes", 4096, "B", "largest transfer or list element (a multiple of 16)",
                Range::between(16, 16384)));
  cfg.proxy_commands = static_cast<int>(p.integer(
      "proxy_commands", 8, "", "proxy commands per SPE from the PPE", Range::between(0, 10000)));
  if (cfg.max_bytes % 16 != 0) {
    throw InputError(
        fmt::format("workload.max_bytes = {}: must be a multiple of 16", cfg.max_bytes));
  }
  auto& acc = *m.node.accelerators[0];
  if (spes > static_cast<int>(acc.spes.size())) {
    throw InputError(fmt::format("workload.spes = {}: node0.acc0.spes = {} SPEs are built", spes,
                                 acc.spes.size()));
  }
  acc.dram->require(mix::kDramEnd, "the command mix's source and destination regions");
  auto plans = std::make_shared<std::vector<mix::Plan>>();
  for (int s = 0; s < spes; ++s) plans->push_back(mix::make_plan(cfg, s, seed));
  std::vector<uint8_t> bytes(0x4'0000);
  for (int s = 0; s < spes; ++s) {
    auto& spe = *acc.spes[static_cast<size_t>(s)];
    for (uint64_t i = 0; i < bytes.size(); ++i) bytes[i] = mix::source_byte(s, true, i);
    acc.dram->poke(mix::dram_source(s), bytes.data(), bytes.size());
    for (uint64_t i = 0; i < mix::kLsSourceBytes; ++i) bytes[i] = mix::source_byte(s, false, i);
    spe.local_store.poke(mix::kLsSource, bytes.data(), mix::kLsSourceBytes);
    const mix::Plan* plan = &(*plans)[static_cast<size_t>(s)];
    spe.spu.set_firmware([plans, plan](fw::Hal& hal) { mix::spu_program(hal, *plan); });
  }
  if (cfg.proxy_commands > 0) {
    acc.ppe->set_firmware([plans](fw::Hal& hal) {
      std::vector<const mix::Plan*> v;
      for (const auto& pl : *plans) v.push_back(&pl);
      mix::ppe_program(hal, v);
    });
  }
  auto* accel = &acc;
  m.results = [plans, accel] {
    uint64_t copies = 0, wrong = 0;
    std::string first;
    std::vector<uint8_t> got;
    for (size_t s = 0; s < plans->size(); ++s) {
      for (const mix::Copy& c : (*plans)[s].copies) {
        ++copies;
        got.resize(c.bytes);
        if (c.into_local_store) {
          accel->spes[s]->local_store.peek(c.destination, got.data(), c.bytes);
        } else {
          accel->dram->peek(c.destination, got.data(), c.bytes);
        }
        for (uint32_t i = 0; i < c.bytes; ++i) {
          if (got[i] ==
              mix::source_byte(static_cast<int>(s), c.into_local_store, c.source_offset + i))
            continue;
          if (wrong++ == 0) {
            first = fmt::format("SPE{}: a {} of {} B to {:#x} has byte {} wrong", s,
                                c.into_local_store ? "GET" : "PUT", c.bytes, c.destination, i);
          }
          break;
        }
      }
    }
    CheckRegistry::instance().check_finished_work(
        "cell_mfc_mix: every copy leaves the right bytes", wrong == 0, "workload",
        [&] { return fmt::format("{} of {} copies wrong; first: {}", wrong, copies, first); });
    return nlohmann::json{{"copies", copies}, {"wrong", wrong}};
  };
}

}  // namespace hs::runner
