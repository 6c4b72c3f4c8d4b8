// The default workload: host traffic over PCIe and Ethernet, an SPE offload
// (sw/apps/hybrid_demo.h).
#include <fmt/format.h>

#include <algorithm>

#include "sw/apps/hybrid_demo.h"
#include "testbench/runner/hybrid_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

HYBRIDSIM_WORKLOAD(
    hybrid_demo, HybridModel,
    "the host streams to an accelerator, SPEs transform and write back, every byte checked") {
  m.results_declared.declare({
      {"accelerators/*/verified", "",
       "every byte the accelerator's SPEs wrote back was checked and right"},
      {"accelerators/*/host_write_GBps", "GB/s",
       "the host's write of the input into the accelerator's memory"},
      {"accelerators/*/host_read_GBps", "GB/s", "the host's read of the results back"},
      {"accelerators/*/offload_us", "us", "from the first write to the last result read"},
  });
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
  base.irq_timeout_cycles = static_cast<uint64_t>(p.integer(
      "irq_timeout_cycles", 0, "cycles",
      "how long a program sleeps on an interrupt before polling the device's status (0: eight "
      "times a bound on the run's work, at least 1M cycles)",
      Range::between(0, int64_t{1} << 50)));
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
  // Memories must hold what the programs place in them (sw/apps/hybrid_demo.h).
  const uint64_t last_result = fw::demo::kHostResult +
                               fw::demo::kHostResultStride * static_cast<uint64_t>(accs - 1) +
                               base.host_bytes;
  m.node.host->dram->require(
      last_result, fmt::format("accelerator {}'s result (workload.host_bytes at {:#x})", accs - 1,
                               last_result - base.host_bytes));
  for (int a = 0; a < accs; ++a) {
    const auto& acc = *m.node.accelerators[a];
    acc.dram->require(fw::demo::kAccInput + base.host_bytes,
                      fmt::format("the input (workload.host_bytes at {:#x})", fw::demo::kAccInput));
    if (base.ethernet_bytes > 0) {
      acc.dram->require(fw::demo::kAccEthernetIn + base.ethernet_bytes + 8,
                        fmt::format("the Ethernet block and its flag (workload.ethernet_bytes at "
                                    "{:#x})",
                                    fw::demo::kAccEthernetIn));
    }
    for (int s = 0; s < base.spes; ++s) {
      // Two block buffers at 0, the completion message 256 bytes below 256 KiB and the
      // doorbell-status word 32 bytes above it.
      acc.spes[s]->local_store.require(std::max<uint64_t>(2 * base.block_bytes, 256 * 1024 - 204),
                                       "the SPU's two block buffers (workload.block_bytes), "
                                       "its completion message at 0x3ff00 and doorbell-status "
                                       "word at 0x3ff20");
    }
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

}  // namespace hs::runner
