// A measurement window a workload plans, [start, end), and the part of it a run reached.
//
// Rules:
// - Every rate and mean over a window is computed over the part reached: [start, min(end,
//   run's end)]. A run cut short (sim.stop_at, a watchdog, a signal) never divides by time
//   it did not simulate.
// - A window the run never entered (it ended at or before `start`) has no figures: a workload
//   reports them as null, which reports print as "not reached".
// - The report describes the window with to_json(): its planned edges, the end reached and
//   whether it was reached whole, in part or not at all.
#pragma once
#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <systemc>

namespace hs {

struct MeasurementWindow {
  enum class Reached { None, Part, Whole };

  uint64_t start_ps = 0, end_ps = 0;  // planned, [start, end)

  MeasurementWindow() = default;
  MeasurementWindow(uint64_t start, uint64_t end) : start_ps(start), end_ps(end) {}
  static MeasurementWindow ns(double start_ns, double end_ns) {
    return {static_cast<uint64_t>(start_ns * 1e3), static_cast<uint64_t>(end_ns * 1e3)};
  }

  // The end of the part reached by a run that ended at `run_end_ps`.
  uint64_t reached_end_ps(uint64_t run_end_ps) const {
    return std::clamp(run_end_ps, start_ps, end_ps);
  }
  Reached reached(uint64_t run_end_ps) const {
    if (run_end_ps <= start_ps) return Reached::None;
    return run_end_ps >= end_ps ? Reached::Whole : Reached::Part;
  }
  // Seconds of the window the run covered (0 when not reached).
  double seconds(uint64_t run_end_ps) const {
    return static_cast<double>(reached_end_ps(run_end_ps) - start_ps) / 1e12;
  }
  // `value` when the window was reached, null otherwise.
  nlohmann::json figure(uint64_t run_end_ps, double value) const {
    return reached(run_end_ps) == Reached::None ? nlohmann::json(nullptr) : nlohmann::json(value);
  }
  // The halves [start, mid) and [mid, end), for checking that a window was steady.
  MeasurementWindow half(int h) const {
    const uint64_t mid = start_ps + (end_ps - start_ps) / 2;
    return h == 0 ? MeasurementWindow{start_ps, mid} : MeasurementWindow{mid, end_ps};
  }

  // {"start_ns", "end_ns" (reached), "planned_end_ns", "reached": "whole"|"part"|"not reached"}.
  nlohmann::json to_json(uint64_t run_end_ps) const {
    static constexpr const char* kReached[] = {"not reached", "part", "whole"};
    return {{"start_ns", static_cast<double>(start_ps) / 1e3},
            {"end_ns", static_cast<double>(reached_end_ps(run_end_ps)) / 1e3},
            {"planned_end_ns", static_cast<double>(end_ps) / 1e3},
            {"reached", kReached[static_cast<int>(reached(run_end_ps))]}};
  }
};

}  // namespace hs
