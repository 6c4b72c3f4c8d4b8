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

}  // namespace

std::string progress_line(double sim_ns, double wall_s, double deltas_per_s, double end_ns) {
  std::string line = fmt::format("simulated {}   wall {:.1f} s   {:.3g} delta cycles/s",
                                 human_time(sim_ns), wall_s, deltas_per_s);
  if (end_ns > 0 && sim_ns > 0 && sim_ns < end_ns) {
    line += fmt::format("   ETA {:.0f} s", wall_s * (end_ns - sim_ns) / sim_ns);
  }
  return line;
}

RunEnd run_kernel(const RunLimits& limits, RunInterrupt& interrupt, bool progress) {
  using sc_core::sc_time;
  RunEnd end;
  const double end_ns = limits.stop_at_ns > 0 && limits.time_limit_ns > 0
                            ? std::min(limits.stop_at_ns, limits.time_limit_ns)
                            : std::max(limits.stop_at_ns, limits.time_limit_ns);
  const auto t0 = Clock::now();
  double slice_ns = 1000;
  try {
    while (true) {
      const double now_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
      double step = progress ? slice_ns : 0;
      if (end_ns > 0) step = step > 0 ? std::min(step, end_ns - now_ns) : end_ns - now_ns;
      const auto slice_t0 = Clock::now();
      const uint64_t deltas0 = sc_core::sc_delta_count();
      if (step > 0) {
        // To the limit the time advances even when idle (a clean stop covers its whole window);
        // a progress slice ends at the last event when the model goes idle.
        const bool to_limit = end_ns > 0 && now_ns + step >= end_ns;
        sc_core::sc_start(sc_time(step, sc_core::SC_NS),
                          to_limit ? sc_core::SC_RUN_TO_TIME : sc_core::SC_EXIT_ON_STARVATION);
      } else {
        sc_core::sc_start();
      }
      const double reached = sc_core::sc_time_stamp().to_seconds() * 1e9;
      const bool idle = !sc_core::sc_pending_activity();
      const bool at_end = end_ns > 0 && reached >= end_ns;
      if (idle && end_ns > 0 && reached < end_ns) {
        // Idle before the end of a progress run: the window still ends where it would have.
        sc_core::sc_start(sc_time(end_ns - reached, sc_core::SC_NS));
      }
      if (idle || at_end || interrupt.signal() || !CheckRegistry::instance().ok() ||
          sc_core::sc_get_status() == sc_core::SC_STOPPED) {
        end.stopped_at = at_end && !idle && limits.stop_at_ns > 0 && reached >= limits.stop_at_ns;
        break;
      }
      if (progress) {
        const double wall = seconds_since(slice_t0);
        const double rate = wall > 0 ? (sc_core::sc_delta_count() - deltas0) / wall : 0;
        std::fprintf(stderr, "\r%s\033[K",
                     progress_line(reached, seconds_since(t0), rate, end_ns).c_str());
        // About five lines a second, whatever the model's speed.
        slice_ns = std::clamp(wall > 0 ? slice_ns * 0.2 / wall : slice_ns * 10, 1.0, 1e12);
      }
    }
  } catch (const sc_core::sc_report& r) {
    end.kernel_error = r.what();
  } catch (const std::exception& e) {
    end.kernel_error = e.what();
  }
  if (progress) std::fprintf(stderr, "\r\033[K");
  return end;
}

}  // namespace hs::runner
