#include "testbench/bench/torus_scale_case.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <sstream>
#include <systemc>
#include <vector>

#include "testbench/runner/simulation.h"
#include "testbench/support/child_process.h"

namespace hs::bench {

using Json = nlohmann::json;

namespace {

// The targets for the full machine.
constexpr int kFull[3] = {72, 32, 32};
constexpr double kMaxElaborationSeconds = 30;
constexpr double kMaxPeakRssGiB = 8;

double wall_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Records when the kernel starts simulating: everything before is elaboration (the model
// built, ports bound, end_of_elaboration callbacks run).
struct ElaborationProbe : sc_core::sc_module {
  explicit ElaborationProbe(sc_core::sc_module_name n) : sc_module(n) {}
  void start_of_simulation() override { at = wall_now(); }
  double at = 0;
};

// One machine size, in this (child) process.
Json measure(int x, int y, int z) {
  const double t0 = wall_now();
  ElaborationProbe probe("elaboration_probe");
  runner::RunOptions o;
  o.scenario = "torus_traffic";
  o.quiet = true;
  o.sets = {fmt::format("torus.network.x={}", x),
            fmt::format("torus.network.y={}", y),
            fmt::format("torus.network.z={}", z),
            "workload.pattern=uniform",
            "workload.warmup=0",
            "workload.duration=10000"};
  runner::Simulation sim(o);
  std::ostringstream ignored;
  sim.run(ignored);
  const double t1 = wall_now();
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  const Json& r = sim.report();
  const double nodes = static_cast<double>(x) * y * z;
  const double rss = static_cast<double>(ru.ru_maxrss) * 1024;
  return {{"torus", fmt::format("{}x{}x{}", x, y, z)},
          {"nodes", static_cast<int>(nodes)},
          {"status", r.value("status", std::string("?"))},
          {"elaboration_seconds", probe.at - t0},
          {"run_seconds", t1 - probe.at},
          {"simulated_us", r["simulated_time_ns"].get<double>() / 1e3},
          {"packet_hops", r["results"].value("packet_hops", 0.0)},
          {"peak_rss_MiB", rss / (1 << 20)},
          {"bytes_per_node", rss / nodes}};
}

Json scale() {
  const std::vector<std::vector<int>> sizes = {
      {8, 8, 8}, {16, 16, 16}, {32, 32, 32}, {64, 32, 32}, {kFull[0], kFull[1], kFull[2]}};
  Json rows = Json::array();
  bool ok = true;
  for (const auto& s : sizes) {
    Json row = hs::testing::run_in_child([&] { return measure(s[0], s[1], s[2]); });
    if (row.contains("error")) {
      row["torus"] = fmt::format("{}x{}x{}", s[0], s[1], s[2]);
      row["status"] = row["error"];
    }
    ok = ok && row.value("status", std::string()) == "passed";
    if (s[0] == kFull[0] && s[1] == kFull[1] && s[2] == kFull[2] && row.contains("nodes")) {
      ok = ok && row["elaboration_seconds"].get<double>() <= kMaxElaborationSeconds &&
           row["peak_rss_MiB"].get<double>() <= kMaxPeakRssGiB * 1024;
    }
    rows.push_back(row);
  }
  return {{"rows", rows},
          {"targets",
           {{"torus", fmt::format("{}x{}x{}", kFull[0], kFull[1], kFull[2])},
            {"max_elaboration_seconds", kMaxElaborationSeconds},
            {"max_peak_rss_GiB", kMaxPeakRssGiB}}},
          {"targets_met", ok}};
}

}  // namespace

Json run_torus_scale_case(const std::string& name) {
  if (name == "torus_scale") return scale();
  return Json();
}

void print_torus_scale_summary(const Json& all) {
  if (!all.contains("torus_scale")) return;
  const Json& j = all["torus_scale"];
  std::printf("%-9s %6s  %10s  %8s  %9s  %10s  %s\n", "torus", "nodes", "elaborate", "run 10us",
              "peak RSS", "per node", "status");
  for (const auto& row : j["rows"]) {
    if (!row.contains("nodes")) {
      std::printf("%-9s failed: %s\n", row["torus"].get<std::string>().c_str(),
                  row["status"].dump().c_str());
      continue;
    }
    std::printf("%-9s %6d  %8.2f s  %6.2f s  %5.0f MiB  %6.1f KiB  %s\n",
                row["torus"].get<std::string>().c_str(), row["nodes"].get<int>(),
                row["elaboration_seconds"].get<double>(), row["run_seconds"].get<double>(),
                row["peak_rss_MiB"].get<double>(), row["bytes_per_node"].get<double>() / 1024,
                row["status"].get<std::string>().c_str());
  }
  std::printf("torus_scale targets (%s: elaboration <= %.0f s, peak RSS <= %.0f GiB): %s\n",
              j["targets"]["torus"].get<std::string>().c_str(),
              j["targets"]["max_elaboration_seconds"].get<double>(),
              j["targets"]["max_peak_rss_GiB"].get<double>(),
              j["targets_met"].get<bool>() ? "met" : "MISSED");
}

bool torus_scale_failed(const Json& all) {
  return all.contains("torus_scale") && !all["torus_scale"].value("targets_met", false);
}

}  // namespace hs::bench
