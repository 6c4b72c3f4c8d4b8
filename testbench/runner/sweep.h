// Parameter sweeps: the cross product of parameter lists, each point run as its own
// `hybridsim run` process (local, in parallel), results gathered into one CSV.
//
//   {
//     "scenario": "default",
//     "params": { "node0.pcie0.lanes": [1, 4, 8], "node0.pcie0.max_payload": [128, 256] },
//     "seeds": [1],
//     "stats": ["simulated_time_ns", "node0.pcie0.up:payload_bandwidth_GBps"]
//   }
//
// A stat is a top-level report field, "GROUP:STAT" for a component statistic, or
// "results:PATH" (slash-separated) inside the workload results.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hs::runner {

struct SweepSpec {
  std::string path;
  std::string scenario;
  std::vector<std::string> names;                   // swept parameters, in file order
  std::vector<std::vector<nlohmann::json>> values;  // their value lists
  std::vector<uint64_t> seeds;
  std::vector<std::string> stats;
};

struct SweepPoint {
  size_t index;
  std::vector<nlohmann::json> values;  // one per swept parameter
  uint64_t seed;
};

// Reads and validates a sweep file; throws InputError.
SweepSpec load_sweep(const std::string& path);
std::vector<SweepPoint> expand(const SweepSpec& spec);
// One CSV field (RFC 4180): quoted when it holds a comma, quote or line break.
std::string csv_field(const nlohmann::json& value);
// Extracts one stat from a run report; returns null JSON if absent.
nlohmann::json select_stat(const nlohmann::json& report, const std::string& stat);

// Runs every point with `jobs` processes at once using the executable `self`; writes
// DIR/results.csv and DIR/point_N.{json,log}. Returns 0 if every point passed, else 1.
int run_sweep(const SweepSpec& spec, const std::string& self, int jobs, const std::string& out_dir,
              bool quiet);

}  // namespace hs::runner
