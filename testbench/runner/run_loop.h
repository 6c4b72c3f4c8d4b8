// Runs the kernel for a run: until the model goes idle, a clean stop time (sim.stop_at), a
// watchdog (sim.time_limit), a checker's pause or a signal.
//
// Rules:
// - The simulated end of a run is the time of its last event, or the time it was stopped at:
//   time never advances past the last event, so a run that finishes before sim.stop_at or
//   sim.time_limit reports exactly what it reports without them.
// - Progress slices (a progress line between them) never change the model's behaviour: a slice
//   ends at a time, never inside one, and an idle model ends the run at its last event.
// - Progress shows the simulated time reached, the share of the planned time done when the
//   plan is known (stop_at, time_limit or the workload's own end), the wall rate and an ETA.
//   On a terminal it is one line rewritten in place, from the second wall second on; otherwise
//   a plain line every `progress_every_s` wall seconds.
#pragma once
#include <string>

#include "testbench/runner/run_interrupt.h"

namespace hs::runner {

struct RunLimits {
  double stop_at_ns = 0;     // 0: none; a clean end of the run's window
  double time_limit_ns = 0;  // 0: none; a watchdog: work left at it is a failure
  double planned_ns = 0;     // the workload's own planned end (0: unknown), for progress only
};

// Why a run ended.
enum class RunEndReason {
  Finished,    // the model went idle: all its work was done
  StopAt,      // sim.stop_at reached with work in progress
  TimeLimit,   // sim.time_limit reached with work left (a failure)
  Signal,      // SIGINT or SIGTERM
  Violation,   // a checker found a violation and paused the kernel
  KernelError  // the kernel or a model threw
};
const char* to_string(RunEndReason r);

struct RunEnd {
  RunEndReason reason = RunEndReason::Finished;
  std::string kernel_error;
  // Stopped before the model finished its work (stop_at, time limit, signal): figures over a
  // window the run never reached are not reported, checks that need the work done do not run.
  bool cut_short() const {
    return reason == RunEndReason::StopAt || reason == RunEndReason::TimeLimit ||
           reason == RunEndReason::Signal;
  }
};

struct ProgressOptions {
  bool terminal = false;  // a line rewritten in place
  double every_s = 0;     // otherwise a plain line this often (0: none)
};

RunEnd run_kernel(const RunLimits& limits, RunInterrupt& interrupt,
                  const ProgressOptions& progress);

// The progress line for one moment of a run (exposed for tests): the simulated time reached,
// the share of `planned_ns` done and an ETA when it is known (> 0), and the wall rate.
std::string progress_line(double sim_ns, double wall_s, double planned_ns);

}  // namespace hs::runner
