// Machines and workloads by name.
#include <fmt/format.h>

#include <functional>
#include <map>

#include "sw/slmpm/shared_memory.h"
#include "testbench/runner/hybrid_model.h"
#include "testbench/runner/torus_model.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/common/spelling.h"
#include "tlm/params/param_registry.h"
#include "tlm/payload/extensions.h"

namespace hs::runner {

namespace {

// In any scenario, no read that crosses a link (an MRd arriving from the other side) may touch
// SLMPM ring data or a mirrored counter copy: those are only ever written across a link.
void arm_no_remote_reads_checker(hybrid::HybridNode& node) {
  namespace shm = fw::slmpm::shm;
  constexpr const char* kNoRemoteRead = "SLMPM: no remote read of ring data or counter copies";
  CheckRegistry::instance().check(kNoRemoteRead);  // listed even when nothing touches a ring
  auto watch = [](Memory& mem, uint64_t base, const std::string& where) {
    auto on_access = [where](const tlm::tlm_generic_payload& gp) {
      const bool remote_read = gp.is_read() && from_device_link(gp);
      HS_CHECK(!remote_read, kNoRemoteRead, "slmpm",
               fmt::format("remote read of {} at {:#x} ({} B): ring data and counter copies are "
                           "only written across a link",
                           where, gp.get_address(), gp.get_data_length()));
    };
    for (uint64_t ch : {uint64_t{0}, shm::kEthernetChannel}) {
      mem.watch_accesses(base + ch + shm::kRing, base + ch + shm::kRing + 64 * 1024, on_access);
      mem.watch_accesses(base + ch + shm::kJCopy, base + ch + shm::kJCopy + 8, on_access);
      mem.watch_accesses(base + ch + shm::kKCopy, base + ch + shm::kKCopy + 8, on_access);
    }
  };
  for (size_t a = 0; a < node.accelerators.size(); ++a) {
    watch(*node.host->dram, shm::host_region(static_cast<int>(a)),
          fmt::format("the host's SLMPM ring or counter for accelerator {}", a));
    watch(*node.accelerators[a]->dram, shm::kAccRegion,
          fmt::format("accelerator {}'s SLMPM ring or counter", a));
  }
}

}  // namespace

void require_slmpm_regions(const HybridModel& m, int accelerators) {
  namespace shm = fw::slmpm::shm;
  for (int a = 0; a < accelerators; ++a) {
    m.node.host->dram->require(shm::host_region(a) + shm::kHostRegionStride,
                               fmt::format("the SLMPM's shared memory for accelerator {} at {:#x}",
                                           a, shm::host_region(a)));
    m.node.accelerators[static_cast<size_t>(a)]->dram->require(
        shm::kAccRegion + shm::kHostRegionStride,
        fmt::format("the SLMPM's shared memory at {:#x}", shm::kAccRegion));
  }
}

fw::slmpm::Thresholds declare_slmpm_thresholds() {
  ParamScope t("node0.host.slmpm");
  fw::slmpm::Thresholds th;
  th.queue_bytes = static_cast<uint64_t>(t.integer("queue_threshold", 256 * 1024, "B",
                                                   "bytes in flight beyond which a link is avoided",
                                                   Range::between(0, 1e12)));
  th.shm_utilisation =
      t.real("shm_threshold", 0.75, "fraction", "ring utilisation beyond which a send goes by DMA",
             Range::between(0, 1));
  th.dma_min_bytes = static_cast<uint64_t>(t.integer(
      "dma_min_bytes", 4096, "B", "messages smaller than this go by SMT", Range::between(0, 1e9)));
  th.default_fabric = t.choice("default_fabric", "pcie", "fabric of a global accelerator ID",
                               {"pcie", "ethernet"}) == "pcie"
                          ? fw::slmpm::Fabric::Pcie
                          : fw::slmpm::Fabric::Ethernet;
  return th;
}

HybridModel::HybridModel() : node("node0") {
  arm_no_remote_reads_checker(node);
  for (auto& acc : node.accelerators) {
    for (auto& spe : acc->spes) spe->mfc.observe(&mfc_checker);
  }
}

std::unique_ptr<Model> build_model(const std::string& machine, const std::string& workload,
                                   uint64_t seed) {
  std::unique_ptr<Model> m;
  if (machine != HybridModel::kMachine && machine != TorusModel::kMachine) {
    throw InputError(fmt::format("unknown machine '{}' (machines: hybrid, torus)", machine));
  }
  const WorkloadInfo* w = find_workload(workload);
  if (!w || w->machine != machine) {
    std::vector<std::string> names;
    std::string listed;
    for (const auto& k : workloads()) {
      if (k.machine != machine) continue;
      names.push_back(k.name);
      listed += (listed.empty() ? "" : ", ") + k.name;
    }
    const std::string guess = closest(workload, names);
    throw InputError(fmt::format("unknown workload '{}' for machine {}{} (workloads: {})", workload,
                                 machine,
                                 w ? fmt::format(": it runs on the {} machine", w->machine)
                                 : guess.empty() ? ""
                                                 : fmt::format("; did you mean '{}'?", guess),
                                 listed));
  }
  if (machine == HybridModel::kMachine) {
    m = std::make_unique<HybridModel>();
  } else {
    m = std::make_unique<TorusModel>();
  }
  w->install(*m, seed);
  return m;
}

std::vector<std::string> known_workloads() {
  std::string hybrid = "hybrid:", torus = "torus:";
  for (const auto& w : workloads()) (w.machine == "hybrid" ? hybrid : torus) += " " + w.name;
  return {hybrid, torus};
}

}  // namespace hs::runner
