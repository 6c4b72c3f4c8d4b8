// Runs the kernel for a run: until the model goes idle, a clean stop time (sim.stop_at), a
// time limit (sim.time_limit), a checker's pause or a signal. With progress on, it runs in
// slices of simulated time sized to about a fifth of a wall second each and prints a progress
// line on standard error between them; slicing never changes the model's behaviour (a slice
// ends at a time, never inside one, and an idle model ends the run at its last event).
#pragma once
#include <string>

#include "testbench/runner/run_interrupt.h"

namespace hs::runner {

struct RunLimits {
  double stop_at_ns = 0;     // 0: none; a clean end of the run's window
  double time_limit_ns = 0;  // 0: none; a watchdog: work left at it is a failure
};

struct RunEnd {
  bool stopped_at = false;  // reached stop_at with work still to do
  std::string kernel_error;
};

RunEnd run_kernel(const RunLimits& limits, RunInterrupt& interrupt, bool progress);

// The progress line for one moment of a run (exposed for tests).
std::string progress_line(double sim_ns, double wall_s, double deltas_per_s, double end_ns);

}  // namespace hs::runner
