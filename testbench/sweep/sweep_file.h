// Sweep files: which scenario to run, which parameters to vary and how, the seeds, and the
// statistics to collect.
//
//   {
//     "scenario": "pcie_stream",
//     "fixed":  { "workload.bytes": 1048576 },                  set on every point
//     "params": {                                              each one an axis
//       "node0.pcie0.lanes": [1, 4, 8],
//       "node0.pcie0.max_payload": {"from": 128, "to": 4096, "factor": 2},
//       "workload.transfers": [4, 8, 16]
//     },
//     "zip": [["node0.pcie0.max_payload", "workload.transfers"]],   walked together
//     "repeats": 3, "seed": 1,                                 or "seeds": [1, 7, 9]
//     "stats": ["simulated_time_ns", "node0.pcie0.up:payload_bandwidth_GBps",
//               "results:accelerators/0/host_write_GBps"]
//   }
//
// Axes are crossed, the first in the file varying slowest; names listed together in "zip"
// form one axis whose lists must have equal length. Value lists and ranges: value_range.h.
//
// A sampled sweep (a soak) draws its points at random instead of crossing the axes:
//
//     "sample": {"points": 1000, "draw": 1},  "seed": 1
//
// Point i takes, on every axis (a zipped axis as one), a value drawn uniformly from that
// axis's values, and runs with seed `seed` + i, so every point has its own seed. The draw is
// a pure function of ("draw", i): the first n points of a sample are the same whatever
// "points" says, and a rerun resumes. "repeats" and "seeds" do not apply.
// A stat is a top-level report field, "GROUP:STAT" for a component statistic, or
// "results:PATH" (slash-separated) inside the workload's results.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tlm/common/errors.h"

namespace hs::sweep {

// The most points one sweep may have: a bigger one is almost always a mistake in a range.
inline constexpr size_t kMaxPoints = 1'000'000;

struct SweepAxis {
  std::vector<std::string> names;                   // one name, or several zipped
  std::vector<std::vector<nlohmann::json>> values;  // values[k] belongs to names[k]
  size_t size() const { return values.front().size(); }
};

struct SweepSpec {
  std::string path;      // the sweep file
  std::string scenario;  // scenario name or path, as `hybridsim run` takes it
  // Digest of the scenario's contents: part of every point's key, so editing the scenario
  // file reruns its points instead of reusing stale results.
  std::string scenario_digest;
  nlohmann::json fixed = nlohmann::json::object();
  std::vector<SweepAxis> axes;
  std::vector<uint64_t> seeds{1};  // sampled: one entry, the first point's seed
  std::vector<std::string> stats{"simulated_time_ns"};
  // Sampled sweeps: the number of points drawn (0: axes crossed) and the draw's seed.
  size_t sample_points = 0;
  uint64_t sample_draw = 1;
  // "processes": P runs each point as one simulation partitioned over P processes
  // (docs/parallel.md): mpirun -np P locally, srun -n P on Slurm. Not part of a point's key:
  // a point's results do not depend on it.
  int processes = 1;
  bool sampled() const { return sample_points > 0; }

  // Swept parameter names, axis by axis (a zipped axis contributes all its names).
  std::vector<std::string> swept_names() const;
  // Seeds times every axis's length; saturates at the largest size_t instead of wrapping.
  size_t point_count() const;
  // Throws InputError naming `where` if the sweep has more than kMaxPoints points.
  void check_point_count(const std::string& where) const;

  // The spec as plain JSON (ranges expanded, zip explicit) and back: sweeps are frozen into
  // their output directory so Slurm tasks and `collect` see exactly what was submitted.
  nlohmann::json to_json() const;
  static SweepSpec from_json(const nlohmann::json& j, const std::string& where);
};

struct SweepPoint {
  size_t index = 0;
  std::vector<nlohmann::json> values;  // one per swept name, in swept_names() order
  uint64_t seed = 1;
  std::string key;  // identifies the point's inputs across runs (for resume)

  // "name=value" assignments for `hybridsim run --set` (fixed ones first).
  std::vector<std::string> assignments(const SweepSpec& spec) const;
  nlohmann::json params(const SweepSpec& spec) const;  // swept name -> value
};

// Reads and validates a sweep file's structure, adding every problem to `problems`, each
// naming the file and field. The spec returned holds the parts that were sound (a scenario
// only if it exists; an axis per parameter whose values are sound, zipped only if the zip
// group is), for checking against the model; with any problem it must not be run.
SweepSpec read_sweep(const std::string& path, InputProblems& problems);
// The same, throwing one InputError that lists every problem.
SweepSpec load_sweep(const std::string& path);

// Every point in order: axes crossed (first slowest), each combination once per seed; or,
// for a sampled sweep, its points drawn at random. Throws InputError for a sweep over
// kMaxPoints (checked before anything is expanded).
std::vector<SweepPoint> expand(const SweepSpec& spec);

// A stable 16-hex-digit hash of the scenario (name and contents), every parameter value and
// the seed.
std::string point_key(const SweepSpec& spec, const SweepPoint& point);

// The digest of a scenario file's contents as JSON (so layout and whitespace do not count);
// of its bytes if it is not JSON.
std::string scenario_digest(const std::string& scenario_path);

}  // namespace hs::sweep
