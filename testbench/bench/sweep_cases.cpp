#include "testbench/bench/sweep_cases.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "testbench/sweep/external_command.h"
#include "testbench/sweep/model_check.h"
#include "testbench/sweep/sweep_command.h"
#include "testbench/sweep/sweep_file.h"

namespace hs::bench {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kPoints = 100;

// 100 points of the default scenario: the host writes 64 KiB to 6.25 MiB to an accelerator.
const char* kSweep = R"({"scenario": "default",
  "params": {"workload.host_bytes": {"from": 65536, "to": 6553600, "step": 65536}},
  "stats": ["simulated_time_ns", "results:accelerators/0/host_write_GBps"]})";

double timed(const std::vector<std::string>& args) {
  const auto t0 = Clock::now();
  const auto r = sweep::run_command(args);
  if (!r.started || r.exit_code != 0) {
    throw std::runtime_error("benchmark command failed: " + args[1] + ": " + r.err);
  }
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// CPU time this process has used itself (its children's excluded).
double own_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

// The runner's own cost, free of the noise in the points' run times: the sweep run inside this
// process, whose CPU time then excludes the points (child processes). The model check
// (one elaboration per sweep) is timed apart.
Json runner_cpu(const std::string& file, const std::string& out) {
  const double check_cpu0 = own_cpu_seconds();
  const auto check_t0 = Clock::now();
  const auto spec = sweep::load_checked_sweep(file);
  const double check_wall = std::chrono::duration<double>(Clock::now() - check_t0).count();
  const double check_cpu = own_cpu_seconds() - check_cpu0;
  sweep::SweepOptions opts;
  opts.self = HYBRIDSIM_BIN;
  opts.out_dir = out;
  opts.quiet = true;
  const double cpu0 = own_cpu_seconds();
  if (sweep::run_sweep(spec, opts) != 0) throw std::runtime_error("in-process sweep failed");
  const double cpu = own_cpu_seconds() - cpu0;
  return {{"runner_cpu_ms_per_point", cpu / kPoints * 1e3},
          {"model_check_cpu_ms", check_cpu * 1e3},
          {"model_check_wall_ms", check_wall * 1e3}};
}

// The same `hybridsim run` commands the sweep runner starts, one after another.
double direct_runs(const sweep::SweepSpec& spec, const std::string& dir) {
  double total = 0;
  for (const auto& p : sweep::expand(spec)) {
    std::vector<std::string> args = {
        HYBRIDSIM_BIN,          "run",      spec.scenario,       "--quiet", "--seed",
        std::to_string(p.seed), "--report", dir + "/direct.json"};
    for (const auto& a : p.assignments(spec)) {
      args.push_back("--set");
      args.push_back(a);
    }
    total += timed(args);
  }
  return total;
}

Json sweep_overhead() {
  const fs::path dir =
      fs::temp_directory_path() / ("hybridsim_bench_sweep_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string file = (dir / "sweep.json").string();
  std::ofstream(file) << kSweep;
  const auto spec = sweep::load_sweep(file);
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);  // as the runner sets it for its points
  // Best of two for both, alternating, so drift in machine load hits both alike.
  double direct = 1e30, serial = 1e30;
  for (int round = 0; round < 2; ++round) {
    direct = std::min(direct, direct_runs(spec, dir.string()));
    const std::string out = (dir / ("serial" + std::to_string(round))).string();
    serial = std::min(
        serial, timed({HYBRIDSIM_BIN, "sweep", file, "--jobs", "1", "--quiet", "--out", out}));
  }
  const std::string parallel_out = (dir / "parallel").string();
  const double parallel = timed({HYBRIDSIM_BIN, "sweep", file, "--quiet", "--out", parallel_out});
  const double resumed = timed({HYBRIDSIM_BIN, "sweep", file, "--quiet", "--out", parallel_out});
  Json result = runner_cpu(file, (dir / "in_process").string());
  std::ifstream meta_file(parallel_out + "/results.json");
  const Json meta = Json::parse(meta_file);
  double process = 0, sim = 0;
  for (const auto& p : meta["points"]) {
    process += p["wall_seconds"].get<double>();
    sim += p["sim_wall_seconds"].get<double>();
  }
  fs::remove_all(dir);
  result.update({{"points", kPoints},
                 {"direct_runs_seconds", direct},
                 {"sweep_jobs1_seconds", serial},
                 {"runner_overhead_ms_per_point", (serial - direct) / kPoints * 1e3},
                 {"sweep_jobs", std::max(1u, std::thread::hardware_concurrency())},
                 {"sweep_seconds", parallel},
                 {"points_per_second", kPoints / parallel},
                 {"resumed_sweep_seconds", resumed},
                 {"mean_point_process_ms", process / kPoints * 1e3},
                 {"mean_point_simulation_ms", sim / kPoints * 1e3}});
  return result;
}

}  // namespace

Json run_sweep_case(const std::string& name) {
  if (name == "sweep_overhead") return sweep_overhead();
  return Json();
}

void print_sweep_summary(const Json& all) {
  if (!all.contains("sweep_overhead") || !all["sweep_overhead"].contains("points")) return;
  const Json& s = all["sweep_overhead"];
  std::printf(
      "sweep runner: %.2f ms of its own CPU per point, plus a model check of %.0f ms per sweep; "
      "%.1f ms per point beyond the runs themselves in wall time (%d points: %.2f s as a sweep "
      "with --jobs 1, %.2f s as direct runs)\n",
      s["runner_cpu_ms_per_point"].get<double>(), s["model_check_wall_ms"].get<double>(),
      s["runner_overhead_ms_per_point"].get<double>(), kPoints,
      s["sweep_jobs1_seconds"].get<double>(), s["direct_runs_seconds"].get<double>());
  std::printf(
      "sweep: %d points in %.2f s with --jobs %d (%.0f points/s); resumed with all in results: "
      "%.3f s; per point: process %.1f ms, simulation %.1f ms\n",
      kPoints, s["sweep_seconds"].get<double>(), s["sweep_jobs"].get<int>(),
      s["points_per_second"].get<double>(), s["resumed_sweep_seconds"].get<double>(),
      s["mean_point_process_ms"].get<double>(), s["mean_point_simulation_ms"].get<double>());
}

}  // namespace hs::bench
