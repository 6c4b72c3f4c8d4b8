#include "testbench/bench/parallel_scaling_case.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
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

// The machine the model projects a partitioned run onto.
constexpr int kModelProcesses = 16;

std::vector<std::string> list_from_env(const char* name, const char* fallback) {
  const char* env = std::getenv(name);
  std::vector<std::string> out;
  std::stringstream in(env ? env : fallback);
  for (std::string t; std::getline(in, t, ',');) {
    if (!t.empty()) out.push_back(t);
  }
  return out;
}

std::vector<int> process_counts(int cores) {
  std::vector<int> out;
  if (std::getenv("HYBRIDSIM_BENCH_PARALLEL_PROCESSES")) {
    for (const std::string& p : list_from_env("HYBRIDSIM_BENCH_PARALLEL_PROCESSES", "")) {
      const int n = std::atoi(p.c_str());
      if (n < 1) {
        throw std::runtime_error("HYBRIDSIM_BENCH_PARALLEL_PROCESSES: '" + p +
                                 "' is not a process count (1 or more)");
      }
      out.push_back(n);
    }
    if (out.empty() || out.front() != 1) out.insert(out.begin(), 1);  // the baseline
    return out;
  }
  for (int p = 1; p <= cores; p *= 2) out.push_back(p);
  return out;
}

// One simulation to time: a workload on a torus with its parameters.
struct Case {
  std::string label, workload, torus;
  std::vector<std::string> sets;
  double load = -1;  // traffic only
};

std::vector<Case> cases() {
  std::vector<Case> out;
  auto shape = [](const std::string& torus) {
    int x = 0, y = 0, z = 0;
    if (std::sscanf(torus.c_str(), "%dx%dx%d", &x, &y, &z) != 3 || x < 1 || y < 1 || z < 1) {
      throw std::runtime_error("parallel_scaling: torus '" + torus + "' is not XxYxZ");
    }
    return std::vector<std::string>{fmt::format("torus.network.x={}", x),
                                    fmt::format("torus.network.y={}", y),
                                    fmt::format("torus.network.z={}", z)};
  };
  for (const std::string& t : list_from_env("HYBRIDSIM_BENCH_PARALLEL_TORI", "32x32x32")) {
    for (double load : {0.1, 0.8}) {
      Case c{fmt::format("traffic {} load {}", t, load), "torus_traffic", t, shape(t), load};
      c.sets.push_back(fmt::format("workload.load={}", load));
      out.push_back(std::move(c));
    }
  }
  for (const std::string& t : list_from_env("HYBRIDSIM_BENCH_PARALLEL_HALO3D", "16x16x16")) {
    Case c{fmt::format("halo3d {}", t), "halo3d", t, shape(t)};
    c.sets.push_back("workload.iterations=1");
    out.push_back(std::move(c));
  }
  return out;
}

// The report of one run: `processes` 1 is the plain command, more go under mpirun.
Json run_once(const Case& c, int processes, const fs::path& report) {
  std::vector<std::string> args;
  if (processes > 1) {
    args = {HYBRIDSIM_MPIEXEC, "--oversubscribe", "-np", std::to_string(processes)};
  }
  for (const std::string& a : {std::string(HYBRIDSIM_BIN), std::string("run"), c.workload,
                               std::string("--quiet"), std::string("--report"), report.string()}) {
    args.push_back(a);
  }
  for (const std::string& set : c.sets) {
    args.push_back("--set");
    args.push_back(set);
  }
  const auto r = sweep::run_command(args);
  if (!r.started || r.exit_code != 0) {
    throw std::runtime_error(fmt::format("parallel_scaling: {} with {} processes failed: {}{}",
                                         c.label, processes, r.out, r.err));
  }
  std::ifstream in(report);
  return Json::parse(in);
}

// Where a partitioned run's time goes, and the wall time it would take with `n` processes on
// cores of their own (docs/parallel.md, "Where the time goes"):
//   wall(n) = work / n x imbalance + windows x window_cost(n)
// work: all partitions' time running their own events (the simulation's work, cut traffic
// included); imbalance: the busiest partition's work over the mean, taken as measured;
// window_cost: one window's exchange and vote where nobody waits, the least any partition
// spent per window (the slowest partition waits least). The exchange goes to neighbours only,
// but the vote is a global reduction whose cost grows with log2 of the processes, so the
// measured cost is scaled by log2(n) / log2(P) (P: the processes measured).
Json time_model(const Json& parallel, int processes, double seq_wall) {
  double work = 0, least_sync = -1;
  for (const Json& p : parallel["by_partition"]) {
    work += p["work_seconds"].get<double>();
    const double s = p["sync_seconds"].get<double>();
    least_sync = least_sync < 0 ? s : std::min(least_sync, s);
  }
  const double windows = parallel["windows"].get<double>();
  const double window_cost = windows > 0 ? least_sync / windows : 0;
  const double imbalance = parallel["imbalance"].get<double>();
  const int n = kModelProcesses;
  const double scale = std::log2(n) / std::log2(std::max(2, processes));
  const double wall = work / n * imbalance + windows * window_cost * scale;
  return {{"work_seconds", work},
          {"window_cost_us", window_cost * 1e6},
          {"model_processes", n},
          {"model_wall_seconds", wall},
          {"model_sync_share", wall > 0 ? windows * window_cost * scale / wall : 0.0},
          {"model_efficiency", wall > 0 ? seq_wall / (n * wall) : 0.0}};
}

// The figure: speed-up against processes, one line per case, beside the ideal.
void write_figure(const Json& rows) {
  const char* env = std::getenv("HYBRIDSIM_BENCH_PARALLEL_FIGURE");
  const fs::path gp = env ? env : "parallel_scaling.gp";
  fs::path svg = gp;
  svg.replace_extension(".svg");
  std::vector<std::string> labels;
  for (const Json& r : rows) {
    const std::string l = r["case"].get<std::string>();
    if (std::find(labels.begin(), labels.end(), l) == labels.end()) labels.push_back(l);
  }
  int most = 1;
  for (const Json& r : rows) most = std::max(most, r["processes"].get<int>());
  std::ofstream out(gp);
  out << "set terminal svg size 960,600 font 'sans,11' background '#ffffff'\n"
      << "set output '" << svg.string() << "'\n"
      << "set title 'Partitioned runs: speed-up against the one-process run' noenhanced\n"
      << "set xlabel 'processes (mpirun -np P)' noenhanced\n"
      << "set ylabel 'speed-up (one-process wall time / wall time)' noenhanced\n"
      << "set grid\nset key outside right top noenhanced\nset pointsize 0.8\n"
      << "set xrange [0.8:" << most * 1.25 << "]\nset yrange [0:" << most * 1.1 << "]\n"
      << "set logscale x 2\n";
  for (size_t i = 0; i < labels.size(); ++i) {
    out << "$s" << i << " << EOD\n";
    for (const Json& r : rows) {
      if (r["case"] == labels[i]) {
        out << r["processes"].get<int>() << " " << r["speedup"].get<double>() << "\n";
      }
    }
    out << "EOD\n";
  }
  out << "plot x title 'ideal' with lines dashtype 2 lc rgb '#888888'";
  for (size_t i = 0; i < labels.size(); ++i) {
    out << ", $s" << i << " using 1:2 title '" << labels[i] << "' with linespoints";
  }
  out << "\n";
  out.close();
  if (std::system("command -v gnuplot >/dev/null 2>&1") == 0) {
    const std::string cmd = "gnuplot '" + gp.string() + "'";
    if (std::system(cmd.c_str()) != 0) {
      std::fprintf(stderr, "parallel_scaling: gnuplot failed on %s\n", gp.string().c_str());
    }
  }
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
  for (const Case& c : cases()) {
    Json seq = run_once(c, 1, dir / "seq.json");
    const double seq_wall = seq["run"]["wall_seconds"].get<double>();
    const double seq_rss = seq["run"]["peak_rss_MiB"].get<double>();
    // Shared library pages count once in the processes' total of proportional set sizes.
    const double seq_pss = seq["run"]["pss_at_end_MiB"].get<double>();
    seq.erase("run");
    for (int p : process_counts(cores)) {
      Json row = {
          {"case", c.label}, {"workload", c.workload}, {"torus", c.torus}, {"processes", p}};
      if (c.load >= 0) row["load"] = c.load;
      if (p == 1) {
        row.update({{"wall_seconds", seq_wall},
                    {"speedup", 1.0},
                    {"efficiency", 1.0},
                    {"peak_rss_MiB", seq_rss},
                    {"peak_rss_MiB_total", seq_rss},
                    {"pss_at_end_MiB_total", seq_pss}});
        rows.push_back(std::move(row));
        continue;
      }
      Json par = run_once(c, p, dir / "par.json");
      const Json& run = par["run"];
      const Json& parallel = run["parallel"];
      const double wall = run["wall_seconds"].get<double>();
      double rss_max = 0;
      for (const Json& q : parallel["by_partition"]) {
        rss_max = std::max(rss_max, q["peak_rss_MiB"].get<double>());
      }
      row.update({{"wall_seconds", wall},
                  {"speedup", seq_wall / wall},
                  {"efficiency", seq_wall / wall / p},
                  {"sync_share", parallel["sync_share"]},
                  {"imbalance", parallel["imbalance"]},
                  {"windows", parallel["windows"]},
                  {"cut_messages", parallel["cut_messages"]},
                  {"peak_rss_MiB", rss_max},
                  {"peak_rss_MiB_total", parallel["peak_rss_MiB_total"]},
                  {"pss_at_end_MiB_total", parallel["pss_at_end_MiB_total"]},
                  {"model", time_model(parallel, p, seq_wall)}});
      par.erase("run");
      row["identical"] = par == seq;
      identical = identical && par == seq;
      rows.push_back(std::move(row));
    }
  }
  fs::remove_all(dir);
  write_figure(rows);
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
      "\npartitioned runs (%d cores): case, P, wall s, speed-up, efficiency, peak memory "
      "(largest process / all), proportional set size of all at the end, sync share, imbalance, "
      "identical\n",
      all["parallel_scaling"]["cores"].get<int>());
  for (const Json& r : all["parallel_scaling"]["rows"]) {
    std::printf("  %-28s P=%-3d %8.2f s  x%5.2f  %5.1f%%  %7.0f / %7.0f MiB  PSS %7.0f MiB",
                r["case"].get<std::string>().c_str(), r["processes"].get<int>(),
                r["wall_seconds"].get<double>(), r["speedup"].get<double>(),
                100 * r["efficiency"].get<double>(), r["peak_rss_MiB"].get<double>(),
                r["peak_rss_MiB_total"].get<double>(), r["pss_at_end_MiB_total"].get<double>());
    if (r.contains("sync_share")) {
      const Json& m = r["model"];
      std::printf(
          "  sync %4.1f%%  imbalance %.2f  %s\n      model: work %.2f s, %.0f windows at %.2f "
          "us; on %d cores %.2f s, efficiency %.0f%%, sync %.1f%%",
          100 * r["sync_share"].get<double>(), r["imbalance"].get<double>(),
          r["identical"].get<bool>() ? "yes" : "NO", m["work_seconds"].get<double>(),
          r["windows"].get<double>(), m["window_cost_us"].get<double>(),
          m["model_processes"].get<int>(), m["model_wall_seconds"].get<double>(),
          100 * m["model_efficiency"].get<double>(), 100 * m["model_sync_share"].get<double>());
    }
    std::printf("\n");
  }
}

bool parallel_scaling_failed(const Json& all) {
  return all.contains("parallel_scaling") && !all["parallel_scaling"].value("identical", false);
}

}  // namespace hs::bench
