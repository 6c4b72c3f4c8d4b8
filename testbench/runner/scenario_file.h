// Scenario files: JSON describing what to simulate and with which parameters.
//
//   {
//     "description": "one hybrid node, host and accelerator traffic",
//     "machine": "hybrid",
//     "workload": "hybrid_demo",
//     "seed": 1,
//     "params": { "node0.pcie0.lanes": 8, "workload.host_bytes": "64KiB" }
//   }
//
// `params` may also nest objects ({"node0": {"pcie0": {"lanes": 8}}}); names are the dotted
// paths. Every parameter is reported with the file and line it came from.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace hs::runner {

struct Scenario {
  std::string path;
  std::string description;
  std::string machine = "hybrid";
  std::string workload;
  uint64_t seed = 1;
  nlohmann::json params = nlohmann::json::object();       // flattened: dotted name -> value
  nlohmann::json param_lines = nlohmann::json::object();  // dotted name -> line in the file
};

// Finds a scenario by path, or by name among the built-in scenarios (testbench/scenarios).
// Throws InputError if there is no such file.
std::string resolve_scenario(const std::string& name_or_path);

// Reads and validates a scenario file. Throws InputError naming the file, line and problem.
Scenario load_scenario(const std::string& path);

// Names of the built-in scenarios.
std::vector<std::string> builtin_scenarios();

// A launcher's scenario (testbench/scenarios/launchers/NAME.json: `hybridsim mpirun`'s, and
// hybrid_program's, which `hybridsim run` finds by name), completed with parameters naming a
// program; not a built-in scenario of its own (it cannot run without one).
std::string launcher_scenario(const std::string& name);

}  // namespace hs::runner
