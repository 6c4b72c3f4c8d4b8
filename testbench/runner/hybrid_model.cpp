// Machines and workloads by name.
#include <fmt/format.h>

#include <functional>
#include <map>

#include "testbench/runner/hybrid_model.h"
#include "tlm/common/errors.h"

namespace hs::runner {

namespace {

using Installer = std::function<void(HybridModel&, uint64_t)>;
const std::map<std::string, Installer>& hybrid_workloads() {
  static const std::map<std::string, Installer> w = {
      {"dma_transfers", install_dma_transfers},         {"hybrid_demo", install_hybrid_demo},
      {"mirrored_counters", install_mirrored_counters}, {"pcie_stream", install_pcie_stream},
      {"pin_dma_unpin", install_pin_dma_unpin},         {"slmpm_messages", install_slmpm_messages}};
  return w;
}

}  // namespace

std::unique_ptr<Model> build_model(const std::string& machine, const std::string& workload,
                                   uint64_t seed) {
  if (machine != "hybrid") {
    throw InputError(fmt::format("unknown machine '{}' (machines: hybrid)", machine));
  }
  auto it = hybrid_workloads().find(workload);
  if (it == hybrid_workloads().end()) {
    std::string known;
    for (const auto& [name, _] : hybrid_workloads()) known += (known.empty() ? "" : ", ") + name;
    throw InputError(
        fmt::format("unknown workload '{}' for machine hybrid (workloads: {})", workload, known));
  }
  auto m = std::make_unique<HybridModel>();
  it->second(*m, seed);
  return m;
}

std::vector<std::string> known_workloads() {
  std::string line = "hybrid:";
  for (const auto& [name, _] : hybrid_workloads()) line += " " + name;
  return {line};
}

}  // namespace hs::runner
