// The host-accelerator path's latency and bandwidth as a program sees them (sw/apps/host_path.h):
// the validation's figures for either topology.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <numeric>

#include "sw/apps/host_path.h"
#include "testbench/runner/hybrid_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

namespace {
uint8_t source_byte(uint64_t i) {
  return static_cast<uint8_t>((i * 131 + (i >> 8)) & 0xff);
}
}  // namespace

HYBRIDSIM_WORKLOAD(host_path, HybridModel,
                   "a host core's posted writes and reads across the path, and the accelerator's "
                   "DMA engine streaming both ways: latency and sustained bandwidth") {
  m.results_declared.declare({
      {"verified", "", "both copies equal the source, byte for byte"},
      {"write_one_way_ns", "ns", "a host core's posted write to Cell memory, mean one-way"},
      {"read_round_trip_ns", "ns", "a host core's read of Cell memory, mean round trip"},
      {"host_to_cell_GBps", "GB/s", "the accelerator's DMA stream from host memory"},
      {"cell_to_host_GBps", "GB/s", "the accelerator's DMA stream into host memory"},
  });
  namespace hp = fw::host_path;
  ParamScope p("workload");
  hp::Config cfg;
  cfg.accelerator = static_cast<int>(p.integer("accelerator", 0, "",
                                               "the accelerator (host core a drives accelerator a)",
                                               Range::between(0, 63)));
  cfg.samples = static_cast<int>(
      p.integer("samples", 8, "", "latency samples of each kind", Range::between(1, 1000)));
  cfg.bytes = static_cast<uint64_t>(p.integer("bytes", 4 << 20, "B",
                                              "bytes each DMA copy moves (multiple of 128)",
                                              Range::between(128, 256 << 20)));
  if (cfg.bytes % 128 != 0) {
    throw InputError(fmt::format("workload.bytes = {}: must be a multiple of 128", cfg.bytes));
  }
  const int a = cfg.accelerator;
  if (a >= static_cast<int>(m.node.accelerators.size()) ||
      a >= static_cast<int>(m.node.host->core_list.size())) {
    throw InputError(
        fmt::format("workload.accelerator = {}: the node has {} accelerators and {} "
                    "host cores",
                    a, m.node.accelerators.size(), m.node.host->core_list.size()));
  }
  if (!m.node.accelerator_dma(a)) {
    throw InputError(
        "workload host_path needs a DMA engine for the accelerator (node0.dma_engines = "
        "accelerator or both)");
  }
  auto& acc = *m.node.accelerators[static_cast<size_t>(a)];
  m.node.host->dram->require(hp::kHostCopy + cfg.bytes,
                             fmt::format("the copies (workload.bytes at {:#x} and {:#x})",
                                         hp::kHostSource, hp::kHostCopy));
  acc.dram->require(hp::kAccCopy + cfg.bytes,
                    fmt::format("the copy (workload.bytes at {:#x})", hp::kAccCopy));
  std::vector<uint8_t> source(cfg.bytes);
  for (uint64_t i = 0; i < cfg.bytes; ++i) source[i] = source_byte(i);
  m.node.host->dram->poke(hp::kHostSource, source.data(), source.size());

  auto host = std::make_shared<hp::HostResults>();
  auto ppe = std::make_shared<hp::PpeResults>();
  auto arrivals = std::make_shared<std::vector<uint64_t>>();  // ps, per sample
  Memory* acc_dram = acc.dram.get();
  acc_dram->watch_writes(hp::kAccSamples, hp::kAccSamples + 64 * uint64_t(cfg.samples),
                         [arrivals, acc_dram](const tlm::tlm_generic_payload&) {
                           arrivals->push_back(acc_dram->access_start().value());
                         });
  m.node.host->core_list[static_cast<size_t>(a)]->set_firmware(
      [cfg, host](fw::Hal& hal) { hp::host_program(hal, cfg, *host); });
  acc.ppe->set_firmware([cfg, ppe](fw::Hal& hal) { hp::ppe_program(hal, cfg, *ppe); });

  auto* node = &m.node;
  m.results = [cfg, host, ppe, arrivals, node, a] {
    nlohmann::json j;
    std::vector<double> write_ns;
    for (size_t i = 0; i < arrivals->size() && i < host->write_issue_ps.size(); ++i) {
      write_ns.push_back(static_cast<double>((*arrivals)[i] - host->write_issue_ps[i]) / 1e3);
    }
    auto mean = [](const std::vector<double>& v) {
      return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / v.size();
    };
    auto gbps = [&](double ns) { return ns > 0 ? cfg.bytes / ns : 0.0; };
    // Both copies must equal the source, byte for byte.
    bool verified = host->done && ppe->done && write_ns.size() == size_t(cfg.samples);
    if (verified) {
      std::vector<uint8_t> got(cfg.bytes);
      node->accelerators[static_cast<size_t>(a)]->dram->peek(fw::host_path::kAccCopy, got.data(),
                                                             got.size());
      for (uint64_t i = 0; verified && i < cfg.bytes; ++i) verified = got[i] == source_byte(i);
      node->host->dram->peek(fw::host_path::kHostCopy, got.data(), got.size());
      for (uint64_t i = 0; verified && i < cfg.bytes; ++i) verified = got[i] == source_byte(i);
    }
    j["verified"] = verified;
    j["write_one_way_ns"] = mean(write_ns);
    j["read_round_trip_ns"] = mean(host->read_ns);
    j["host_to_cell_GBps"] = gbps(ppe->to_cell_ns);
    j["cell_to_host_GBps"] = gbps(ppe->to_host_ns);
    return j;
  };
}

}  // namespace hs::runner
