#include "testbench/runner/run_loop.h"

#include <fmt/format.h>
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "testbench/runner/report_rows.h"
#include "tlm/check/checker.h"

namespace hs::runner {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double now_ns() {
  return sc_core::sc_time_stamp().to_seconds() * 1e9;
}

// The earlier of two limits, either of which may be 0 (none).
double earliest(double a, double b) {
  if (a <= 0) return b;
  if (b <= 0) return a;
  return std::min(a, b);
}

std::string wall_duration(double s) {
  if (s < 90) return fmt::format("{:.0f} s", s);
  if (s < 5400) return fmt::format("{:.0f} min", s / 60);
  return fmt::format("{:.1f} h", s / 3600);
}

}  // namespace

const char* to_string(RunEndReason r) {
  switch (r) {
    case RunEndReason::Finished:
      return "finished";
    case RunEndReason::StopAt:
      return "stopped at sim.stop_at";
    case RunEndReason::TimeLimit:
      return "stopped by sim.time_limit";
    case RunEndReason::Signal:
      return "interrupted";
    case RunEndReason::Violation:
      return "stopped by a check";
    case RunEndReason::KernelError:
      return "stopped by an error";
  }
  return "?";
}

std::string progress_line(double sim_ns, double wall_s, double planned_ns) {
  std::string line = fmt::format("simulated {}", human_time(sim_ns));
  const bool planned = planned_ns > 0 && sim_ns < planned_ns;
  if (planned) {
    line += fmt::format(" of {} ({:.0f}%)", human_time(planned_ns), 100 * sim_ns / planned_ns);
  }
  line += fmt::format("   wall {}", wall_duration(wall_s));
  if (wall_s > 0) line += fmt::format("   {}/wall s", human_time(sim_ns / wall_s));
  if (planned && sim_ns > 0) {
    line += fmt::format("   ETA {}", wall_duration(wall_s * (planned_ns - sim_ns) / sim_ns));
  }
  return line;
}

RunEnd run_kernel(const RunLimits& limits, RunInterrupt& interrupt,
                  const ProgressOptions& progress) {
  using sc_core::sc_time;
  RunEnd end;
  const double limit_ns = earliest(limits.stop_at_ns, limits.time_limit_ns);
  const double planned_ns = earliest(limits.planned_ns, limit_ns);
  const bool show = progress.terminal || progress.every_s > 0;
  const auto t0 = Clock::now();
  double last_line_s = 0;
  bool line_shown = false;
  double slice_ns = 1000;
  try {
    while (true) {
      const double from_ns = now_ns();
      double step = show ? slice_ns : 0;
      if (limit_ns > 0) step = step > 0 ? std::min(step, limit_ns - from_ns) : limit_ns - from_ns;
      const auto slice_t0 = Clock::now();
      if (step > 0) {
        // Never past the last event: an idle model ends the run where its work ended. When the
        // next event lies beyond the slice the model is busy but quiet until then: time moves
        // on to the end of the slice.
        const sc_time now = sc_core::sc_time_stamp(), until = now + sc_time(step, sc_core::SC_NS);
        if (sc_core::sc_pending_activity() &&
            now + sc_core::sc_time_to_pending_activity() > until) {
          sc_core::sc_start(until - now, sc_core::SC_RUN_TO_TIME);
        } else {
          sc_core::sc_start(until - now, sc_core::SC_EXIT_ON_STARVATION);
        }
      } else {
        sc_core::sc_start();
      }
      const double reached = now_ns();
      if (interrupt.signal()) {
        end.reason = RunEndReason::Signal;
        break;
      }
      if (!CheckRegistry::instance().ok()) {
        end.reason = RunEndReason::Violation;
        break;
      }
      if (!sc_core::sc_pending_activity() || sc_core::sc_get_status() == sc_core::SC_STOPPED) {
        end.reason = RunEndReason::Finished;
        break;
      }
      if (limit_ns > 0 && reached >= limit_ns) {
        end.reason = limits.stop_at_ns > 0 && reached >= limits.stop_at_ns
                         ? RunEndReason::StopAt
                         : RunEndReason::TimeLimit;
        break;
      }
      if (show) {
        const double wall = seconds_since(slice_t0), total = seconds_since(t0);
        const std::string line = progress_line(reached, total, planned_ns);
        if (progress.terminal && total >= 1) {
          std::fprintf(stderr, "\r%s\033[K", line.c_str());
          line_shown = true;
        } else if (!progress.terminal && total - last_line_s >= progress.every_s) {
          std::fprintf(stderr, "hybridsim: %s\n", line.c_str());
          last_line_s = total;
        }
        // About five slices a second, whatever the model's speed.
        slice_ns = std::clamp(wall > 0 ? slice_ns * 0.2 / wall : slice_ns * 10, 1.0, 1e12);
      }
    }
  } catch (const sc_core::sc_report& r) {
    end.reason = RunEndReason::KernelError;
    end.kernel_error = r.what();
  } catch (const std::exception& e) {
    end.reason = RunEndReason::KernelError;
    end.kernel_error = e.what();
  }
  if (line_shown) std::fprintf(stderr, "\r\033[K");
  return end;
}

}  // namespace hs::runner
