#include "testbench/runner/workload_registry.h"

#include <algorithm>

namespace hs::runner {

// Defined in the file the build generates from the workloads it finds (workload_list.cpp).
void register_builtin_workloads();

namespace {
std::vector<WorkloadInfo>& registry() {
  static std::vector<WorkloadInfo> r;
  return r;
}
}  // namespace

void register_workload(WorkloadInfo info) {
  auto& r = registry();
  const auto at =
      std::lower_bound(r.begin(), r.end(), info.name,
                       [](const WorkloadInfo& w, const std::string& n) { return w.name < n; });
  r.insert(at, std::move(info));
}

const std::vector<WorkloadInfo>& workloads() {
  static const bool registered = (register_builtin_workloads(), true);
  (void)registered;
  return registry();
}

const WorkloadInfo* find_workload(const std::string& name) {
  for (const auto& w : workloads()) {
    if (w.name == name) return &w;
  }
  return nullptr;
}

}  // namespace hs::runner
