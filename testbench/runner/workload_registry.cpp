#include "testbench/runner/workload_registry.h"

#include <fmt/format.h>

#include <algorithm>

#include "tlm/common/errors.h"

namespace hs::runner {

// Defined in the file the build generates from the workloads it finds (workload_list.cpp).
void register_builtin_workloads();

namespace {

std::vector<WorkloadInfo>& registry() {
  static std::vector<WorkloadInfo> r;
  return r;
}

// The built-in workloads go first, whoever asks first, so a name of one's own that is taken
// is refused whenever it is registered.
bool g_loading_builtins = false;
void ensure_builtins() {
  static bool done = false;
  if (done) return;
  done = true;
  g_loading_builtins = true;
  register_builtin_workloads();
  g_loading_builtins = false;
}

}  // namespace

void register_workload(WorkloadInfo info) {
  if (!g_loading_builtins) ensure_builtins();
  auto& r = registry();
  const auto at =
      std::lower_bound(r.begin(), r.end(), info.name,
                       [](const WorkloadInfo& w, const std::string& n) { return w.name < n; });
  if (at != r.end() && at->name == info.name) {
    throw InputError(
        fmt::format("workload '{}' is registered twice (one is '{}')", info.name, at->description));
  }
  r.insert(at, std::move(info));
}

const std::vector<WorkloadInfo>& workloads() {
  ensure_builtins();
  return registry();
}

const WorkloadInfo* find_workload(const std::string& name) {
  for (const auto& w : workloads()) {
    if (w.name == name) return &w;
  }
  return nullptr;
}

}  // namespace hs::runner
