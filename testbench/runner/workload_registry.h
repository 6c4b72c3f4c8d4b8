// Workloads by name. Each file under testbench/runner/workloads/ defines one workload with
// HYBRIDSIM_WORKLOAD and registers itself: the build lists the files it finds there, so a new
// workload is one file (plus its firmware under sw/apps/ if it runs new firmware), named as
// the workload is.
//
//   HYBRIDSIM_WORKLOAD(my_workload, TorusModel, "what it does, in one line") {
//     m.results_declared.declare({       // every result, with its unit and description
//         {"latency_ns", "ns", "one-way latency, mean over the messages"}});
//     ParamScope p("workload");           // declare its workload.* parameters
//     ...                                 // install firmware, arm checkers
//     m.results = [...] { return Json{...}; };
//   }
//
// A result the workload reports without declaring it fails the run, naming it
// (result_catalogue.h), so `hybridsim stats`, sweeps and the report always know its unit.
//
// The body sees `m` (the machine model) and `seed`. Bad parameters throw InputError.
//
// Built-in workloads (runner/workloads/*.cpp) are registered by the build. A program of one's
// own, linked with the installed runner (hybridsim::runner), defines its workload with the
// same macro and calls hs_register_workload_NAME() before building a Simulation
// (testbench/examples/own_workload). A name already registered is refused (InputError).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "testbench/runner/model.h"

namespace hs::runner {

struct WorkloadInfo {
  std::string name;
  std::string machine;  // the model it installs on: "hybrid" or "torus"
  std::string description;
  std::function<void(Model&, uint64_t seed)> install;
};

// Throws InputError if a workload of that name is registered already.
void register_workload(WorkloadInfo info);
// Every workload, by name.
const std::vector<WorkloadInfo>& workloads();
const WorkloadInfo* find_workload(const std::string& name);

}  // namespace hs::runner

#define HYBRIDSIM_WORKLOAD(NAME, MACHINE_MODEL, DESCRIPTION)                                       \
  static void hs_install_##NAME(MACHINE_MODEL& m, uint64_t seed);                                  \
  void hs_register_workload_##NAME() {                                                             \
    ::hs::runner::register_workload(                                                               \
        {#NAME, MACHINE_MODEL::kMachine, DESCRIPTION, [](::hs::runner::Model& model, uint64_t s) { \
           hs_install_##NAME(static_cast<MACHINE_MODEL&>(model), s);                               \
         }});                                                                                      \
  }                                                                                                \
  static void hs_install_##NAME([[maybe_unused]] MACHINE_MODEL& m, [[maybe_unused]] uint64_t seed)
