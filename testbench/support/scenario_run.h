// Running scenarios from tests and benchmarks: in this process (once per process: a SystemC
// kernel elaborates once), or in a forked child so one test can run and compare several.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hs::runner {
struct RunOptions;
}

namespace hs::testing {

// Runs a scenario (file or built-in name) with overrides; returns its JSON report.
nlohmann::json run_scenario_here(const std::string& scenario, const std::vector<std::string>& sets,
                                 std::optional<uint64_t> seed = std::nullopt);
// The same in a child process; on a crash or exception the result has "error".
nlohmann::json run_scenario(const std::string& scenario, const std::vector<std::string>& sets,
                            std::optional<uint64_t> seed = std::nullopt);
// A child-process run with every run option (traces, report file) the command line has.
nlohmann::json run_scenario(const runner::RunOptions& options);

inline bool passed(const nlohmann::json& report) {
  return report.value("status", "") == "passed";
}
inline std::string violations(const nlohmann::json& report) {
  return report.contains("checks") ? report["checks"]["violations"].dump() : report.dump();
}
// How often the report says the named check was evaluated (0 if it is not listed).
inline uint64_t evaluations(const nlohmann::json& report, const std::string& check) {
  if (!report.contains("checks")) return 0;
  for (const auto& c : report["checks"]["invariants"]) {
    if (c["name"] == check) return c["evaluations"].get<uint64_t>();
  }
  return 0;
}

}  // namespace hs::testing
