// A sweep's output directory:
//   sweep.json      the sweep as it was run (ranges expanded), for Slurm tasks and `collect`
//   points/         one record, report and log per point (point_store.h)
//   results.csv     one row per point: point, seed, swept parameters, status, stats, error
//   results.json    the same with metadata: hybridsim version and git revision, the sweep,
//                   and per point its parameters, seed, status, error, host and wall time
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testbench/sweep/point_store.h"
#include "testbench/sweep/sweep_file.h"

namespace hs::sweep {

void save_sweep(const SweepSpec& spec, const std::string& dir);
// Throws InputError if DIR holds no sweep.
SweepSpec load_saved_sweep(const std::string& dir);

// Extracts one stat from a run report; null if the report does not have it.
nlohmann::json select_stat(const nlohmann::json& report, const std::string& stat);

struct ResultsSummary {
  size_t passed = 0, failed = 0, missing = 0;
  std::vector<std::string> absent_stats;  // stats no passed point's report has
  std::vector<std::string> failures;      // "point N (status): error" per failed point
};

// Writes results.csv and results.json from the records of `points`.
ResultsSummary write_results(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                             const PointStore& store, const std::string& dir,
                             const std::string& backend);

}  // namespace hs::sweep
