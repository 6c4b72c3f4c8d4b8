#include "testbench/cli/mpirun_command.h"

#include <fmt/format.h>
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "testbench/runner/scenario_file.h"
#include "testbench/runner/simulation.h"
#include "tlm/common/balanced_dims.h"
#include "tlm/common/errors.h"

namespace hs::cli {

struct MpirunCommand::State {
  CLI::App* cmd = nullptr;
  int ranks = 0;
  std::vector<std::string> sets;
  std::string report, trace, vcd, seed;
  bool label = false;
};

MpirunCommand::MpirunCommand(CLI::App& app) : s_(std::make_unique<State>()) {
  auto* c = app.add_subcommand(
      "mpirun",
      "Run an MPI program built with hybridsim-mpicc as N ranks on the torus machine: "
      "mpirun -n N [options] PROGRAM [ARGS...]");
  s_->cmd = c;
  c->add_option("-n", s_->ranks, "the number of ranks")->required()->check(CLI::PositiveNumber);
  c->add_option("--set", s_->sets,
                "override a parameter: name=value (the machine's shape, mpi.mode, mpi.mapping, "
                "program.compute, ...)")
      ->type_name("NAME=VALUE")
      ->allow_extra_args(false);
  c->add_option("--report", s_->report, "write the run's full report as JSON");
  c->add_option("--trace", s_->trace,
                "write the transaction timelines (each rank's MPI calls as spans on its core)");
  c->add_option("--vcd", s_->vcd, "write a waveform, FILE.vcd or FILE.fst");
  c->add_option("--seed", s_->seed, "random seed (faults)");
  c->add_flag("-l,--label", s_->label, "prefix each line of output with its rank ([3] ...)");
  // Everything from the program on is the program's, options included.
  c->prefix_command();
  c->footer(
      "The program is a module hybridsim-mpicc or hybridsim-mpicxx built; its arguments follow "
      "it. Exit status: 0 when every rank finalized and returned 0; the first failing rank's "
      "status; 1 for other failures (deadlock, MPI error, checker); 2 for bad input.");
}

MpirunCommand::~MpirunCommand() = default;

std::vector<int> torus_for(int nodes) {
  return hs::balanced_dims(nodes, 3);
}

std::optional<int> MpirunCommand::dispatch() {
  if (!s_->cmd->parsed()) return std::nullopt;
  const auto rest = s_->cmd->remaining();
  if (rest.empty()) {
    throw InputError("mpirun: no program given (hybridsim mpirun -n N PROGRAM [ARGS...])");
  }
  runner::RunOptions o;
  o.scenario = runner::launcher_scenario("mpirun");
  o.sets_source = "mpirun";
  std::error_code ec;
  const auto program = std::filesystem::absolute(rest[0], ec);
  nlohmann::json args = nlohmann::json::array();
  for (size_t i = 1; i < rest.size(); ++i) args.push_back(rest[i]);
  // The launcher's own settings first; the user's --set come after and win.
  std::vector<std::string> sets = {"workload.program=" + (ec ? rest[0] : program.string()),
                                   "workload.args=" + nlohmann::json(args.dump()).dump(),
                                   fmt::format("mpi.ranks={}", s_->ranks)};
  if (s_->label) sets.push_back("program.labels=true");
  const auto given = [&](const std::string& name) {
    return std::any_of(s_->sets.begin(), s_->sets.end(),
                       [&](const std::string& s) { return s.rfind(name + "=", 0) == 0; });
  };
  if (!given("torus.network.x") && !given("torus.network.y") && !given("torus.network.z")) {
    std::string mode = "smp";
    for (const auto& s : s_->sets) {
      if (s.rfind("mpi.mode=", 0) == 0) mode = s.substr(9);
    }
    const int per_node = mode == "vn" ? 4 : mode == "dual" ? 2 : 1;
    const auto dims = torus_for((s_->ranks + per_node - 1) / per_node);
    sets.push_back(fmt::format("torus.network.x={}", dims[0]));
    sets.push_back(fmt::format("torus.network.y={}", dims[1]));
    sets.push_back(fmt::format("torus.network.z={}", dims[2]));
  }
  sets.insert(sets.end(), s_->sets.begin(), s_->sets.end());
  o.sets = sets;
  o.report_path = s_->report;
  o.trace_path = s_->trace;
  o.vcd_path = s_->vcd;
  o.quiet = true;
  if (!s_->seed.empty()) o.seed = std::stoull(s_->seed);
  std::fflush(stdout);
  runner::Simulation sim(o);
  std::ostringstream unused;
  const int rc = sim.run(unused);
  std::fflush(stdout);
  const auto& report = sim.report();
  if (rc == 0) return 0;
  for (const auto& v : report["checks"]["violations"]) {
    std::cerr << "hybridsim mpirun: " << v.value("message", std::string()) << "\n";
  }
  const int status = report["results"].value("exit_status", 0);
  return status != 0 ? status : rc;
}

}  // namespace hs::cli
