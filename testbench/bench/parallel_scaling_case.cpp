#include "testbench/bench/parallel_scaling_case.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "testbench/sweep/external_command.h"

namespace hs::bench {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

std::vector<std::string> tori() {
  const char* env = std::getenv("HYBRIDSIM_BENCH_PARALLEL_TORI");
  std::vector<std::string> out;
  std::stringstream in(env ? env : "16x16x16,32x32x32");
  for (std::string t; std::getline(in, t, ',');) out.push_back(t);
  return out;
}

// The report of one run: `processes` 1 is the plain command, more go under mpirun.
Json run_once(const std::string& torus, double load, int processes, const fs::path& report) {
  int x = 0, y = 0, z = 0;
  if (std::sscanf(torus.c_str(), "%dx%dx%d", &x, &y, &z) != 3) {
    throw std::runtime_error("parallel_scaling: torus '" + torus + "' is not XxYxZ");
  }
  std::vector<std::string> args;
  if (processes > 1) {
    args = {HYBRIDSIM_MPIEXEC, "--oversubscribe", "-np", std::to_string(processes)};
  }
  for (const std::string& a :
       {std::string(HYBRIDSIM_BIN), std::string("run"), std::string("torus_traffic"),
        std::string("--quiet"), std::string("--report"), report.string()}) {
    args.push_back(a);
  }
  for (const std::string& set :
       {fmt::format("torus.network.x={}", x), fmt::format("torus.network.y={}", y),
        fmt::format("torus.network.z={}", z), fmt::format("workload.load={}", load)}) {
    args.push_back("--set");
    args.push_back(set);
  }
  const auto r = sweep::run_command(args);
  if (!r.started || r.exit_code != 0) {
    throw std::runtime_error(
        fmt::format("parallel_scaling: {} at load {} with {} processes "
                    "failed: {}{}",
                    torus, load, processes, r.out, r.err));
  }
  std::ifstream in(report);
  return Json::parse(in);
}

Json scaling() {
  if (std::string(HYBRIDSIM_MPIEXEC).empty()) {
    return {{"error", "built without MPI: no mpirun to start partitioned runs"}};
  }
  // Open MPI refuses to start as root unless told it may (containers, CI).
  if (geteuid() == 0) {
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  }
  const int cores = std::max(2, static_cast<int>(std::thread::hardware_concurrency()));
  const fs::path dir =
      fs::temp_directory_path() / ("hybridsim_bench_parallel_" + std::to_string(getpid()));
  fs::create_directories(dir);
  Json rows = Json::array();
  bool identical = true;
  for (const std::string& torus : tori()) {
    for (double load : {0.1, 0.8}) {
      Json seq = run_once(torus, load, 1, dir / "seq.json");
      const double seq_wall = seq["run"]["wall_seconds"].get<double>();
      seq.erase("run");
      for (int p = 1; p <= cores; p *= 2) {
        const Json par = p == 1 ? Json() : run_once(torus, load, p, dir / "par.json");
        const double wall = p == 1 ? seq_wall : par["run"]["wall_seconds"].get<double>();
        Json row = {{"torus", torus},
                    {"load", load},
                    {"processes", p},
                    {"wall_seconds", wall},
                    {"speedup", seq_wall / wall},
                    {"efficiency", seq_wall / wall / p}};
        if (p > 1) {
          const Json& run = par["run"];
          row["sync_share"] = run["parallel"]["sync_share"];
          row["imbalance"] = run["parallel"]["imbalance"];
          row["windows"] = run["parallel"]["windows"];
          row["cut_messages"] = run["parallel"]["cut_messages"];
          row["peak_rss_MiB"] = run["peak_rss_MiB"];
          Json model = par;
          model.erase("run");
          row["identical"] = model == seq;
          identical = identical && model == seq;
        }
        rows.push_back(std::move(row));
      }
    }
  }
  fs::remove_all(dir);
  return {{"rows", rows}, {"cores", cores}, {"identical", identical}};
}

}  // namespace

Json run_parallel_scaling_case(const std::string& name) {
  if (name != "parallel_scaling") return nullptr;
  return scaling();
}

void print_parallel_scaling_summary(const Json& all) {
  if (!all.contains("parallel_scaling") || !all["parallel_scaling"].contains("rows")) return;
  std::printf(
      "\npartitioned torus traffic (%d cores): torus, load, P, wall s, speed-up, "
      "efficiency, sync share, imbalance, identical\n",
      all["parallel_scaling"]["cores"].get<int>());
  for (const Json& r : all["parallel_scaling"]["rows"]) {
    std::printf("  %-10s %.1f  P=%-3d %8.2f s  x%5.2f  %5.1f%%",
                r["torus"].get<std::string>().c_str(), r["load"].get<double>(),
                r["processes"].get<int>(), r["wall_seconds"].get<double>(),
                r["speedup"].get<double>(), 100 * r["efficiency"].get<double>());
    if (r.contains("sync_share")) {
      std::printf("  sync %4.1f%%  imbalance %.2f  %s", 100 * r["sync_share"].get<double>(),
                  r["imbalance"].get<double>(), r["identical"].get<bool>() ? "yes" : "NO");
    }
    std::printf("\n");
  }
}

bool parallel_scaling_failed(const Json& all) {
  return all.contains("parallel_scaling") && !all["parallel_scaling"].value("identical", false);
}

}  // namespace hs::bench
