#include "testbench/bench/mpi_speed_case.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "testbench/sweep/external_command.h"

namespace hs::bench {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

constexpr int kRanks = 512;
constexpr double kTarget = 0.8;  // C program's messages per wall second / program language's
constexpr const char* kIterations = "20";

// One run of the hybridsim command `args` with its report written to `report` (the option goes
// right after the command's name and its scenario: mpirun passes what follows the program to
// the program): the report's figures and the whole process's wall time (elaboration
// included).
Json run_once(std::vector<std::string> args, size_t options_at, const std::string& report) {
  args.insert(args.begin() + static_cast<std::ptrdiff_t>(options_at), {"--report", report});
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = sweep::run_command(args);
  const double process =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!r.started || r.exit_code != 0) {
    throw std::runtime_error("mpi_program_speed: '" + args[1] + "' failed: " + r.err);
  }
  std::ifstream in(report);
  const Json j = Json::parse(in);
  const double messages = j["results"]["messages"].get<double>();
  const double wall = j["run"]["wall_seconds"].get<double>();
  return {{"messages", messages},
          {"simulation_wall_seconds", wall},
          {"process_wall_seconds", process},
          {"messages_per_wall_second", messages / wall},
          {"simulated_us", j["simulated_time_ns"].get<double>() * 1e-3},
          {"peak_rss_MiB", j["run"]["peak_rss_MiB"].get<double>()}};
}

Json mpi_program_speed() {
  const fs::path dir =
      fs::temp_directory_path() / ("hybridsim_bench_mpi_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::vector<std::string> c_program = {HYBRIDSIM_BIN,
                                              "mpirun",
                                              "-n",
                                              std::to_string(kRanks),
                                              "--set",
                                              "program.compute=zero",
                                              HYBRIDSIM_MPI_PROGRAMS "/hs_halo3d",
                                              "8",
                                              "8",
                                              "8",
                                              kIterations};
  const std::vector<std::string> language = {HYBRIDSIM_BIN,
                                             "run",
                                             "program_halo",
                                             "--set",
                                             "workload.program=" HYBRIDSIM_SOURCE_DIR
                                             "/testbench/mpi_programs/bench/halo3d_20.txt",
                                             "--set",
                                             "torus.network.x=8",
                                             "--set",
                                             "torus.network.y=8",
                                             "--set",
                                             "torus.network.z=8"};
  // Alternating, best of two each: drift in the machine's load hits both alike.
  Json c, p;
  for (int round = 0; round < 2; ++round) {
    const auto faster = [](Json& best, Json run) {
      if (best.is_null() || run["simulation_wall_seconds"].get<double>() <
                                best["simulation_wall_seconds"].get<double>()) {
        best = std::move(run);
      }
    };
    faster(c, run_once(c_program, 4, (dir / "c.json").string()));
    faster(p, run_once(language, 3, (dir / "language.json").string()));
  }
  fs::remove_all(dir);
  const double ratio =
      c["messages_per_wall_second"].get<double>() / p["messages_per_wall_second"].get<double>();
  const double extra_kib =
      (c["peak_rss_MiB"].get<double>() - p["peak_rss_MiB"].get<double>()) * 1024.0 / kRanks;
  return {{"ranks", kRanks},
          {"c_program", c},
          {"program_language", p},
          {"ratio", ratio},
          {"target_ratio", kTarget},
          {"meets_target", ratio >= kTarget},
          {"c_rank_KiB", c["peak_rss_MiB"].get<double>() * 1024.0 / kRanks},
          {"program_language_rank_KiB", p["peak_rss_MiB"].get<double>() * 1024.0 / kRanks},
          {"c_rank_extra_KiB", extra_kib},
          {"c_command", c_program},
          {"program_language_command", language}};
}

}  // namespace

Json run_mpi_speed_case(const std::string& name) {
  if (name == "mpi_program_speed") return mpi_program_speed();
  return Json();
}

void print_mpi_speed_summary(const Json& all) {
  if (!all.contains("mpi_program_speed") || !all["mpi_program_speed"].contains("ratio")) return;
  const Json& s = all["mpi_program_speed"];
  const auto line = [](const char* what, const Json& r) {
    std::printf("%-44s %14.0f  (%.0f messages in %.2f s; %.0f MiB peak)\n", what,
                r["messages_per_wall_second"].get<double>(), r["messages"].get<double>(),
                r["simulation_wall_seconds"].get<double>(), r["peak_rss_MiB"].get<double>());
  };
  line("MPI halo3d, 512 ranks, C: messages / wall s", s["c_program"]);
  line("the same, program language: messages / wall s", s["program_language"]);
  std::printf(
      "C program / program language: %.2f (target %.1f: %s); memory a rank: C %.0f KiB, program "
      "language %.0f KiB, C %+.0f KiB\n",
      s["ratio"].get<double>(), s["target_ratio"].get<double>(),
      s["meets_target"].get<bool>() ? "met" : "MISSED", s["c_rank_KiB"].get<double>(),
      s["program_language_rank_KiB"].get<double>(), s["c_rank_extra_KiB"].get<double>());
}

bool mpi_speed_failed(const Json& all) {
  return all.contains("mpi_program_speed") &&
         !all["mpi_program_speed"].value("meets_target", false);
}

}  // namespace hs::bench
