// The sweep commands behind the CLI: run a sweep (locally or on Slurm), run one Slurm array
// task's points, and collect a sweep's results.
#pragma once
#include <string>

#include "testbench/sweep/sweep_file.h"

namespace hs::sweep {

struct SweepOptions {
  std::string self;  // the hybridsim executable that runs each point
  std::string out_dir;
  int jobs = 1;  // local: points at once; Slurm: CPUs (and points at once) per array task
  bool quiet = false;
  bool dry_run = false;  // check and count the points, run nothing
  std::string backend = "local";
  // Slurm only.
  std::string partition, time_limit;
  size_t chunk = 0;  // points per array task; 0 picks one
  bool detach = false;
  double poll_seconds = 2;
};

// Exit code of a sweep stopped by SIGINT or SIGTERM (128 + SIGINT, as a shell reports it).
inline constexpr int kInterruptedExit = 130;

// Runs the points of `spec` (read with load_checked_sweep, so checked against the model) not
// already passed in out_dir and writes the results. Returns
// 0 if every point passed, 1 if any failed (each recorded with its error), kInterruptedExit
// if interrupted (the results written so far are kept).
int run_sweep(const SweepSpec& spec, const SweepOptions& opts);

// Re-reads a sweep directory: waits for its Slurm job if one is in flight (unless
// `wait` is false), then writes the results. Same return values as run_sweep.
int collect(const std::string& dir, bool wait, bool quiet, double poll_seconds);

// Summary lines and the exit code for a finished (or collected) sweep.
int report_results(const SweepSpec& spec, const std::string& dir, const std::string& backend,
                   bool quiet);

}  // namespace hs::sweep
