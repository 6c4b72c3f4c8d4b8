// The `mpi_program` workload (what `hybridsim mpirun` runs): a user's MPI program, built with
// hybridsim-mpicc into a module (workload.program), run as every rank of an MPI job on the
// torus machine. Each rank is a private instance of the program (sw/user/) on its core, with
// its memory as host windows of its node's rank window, calling MPI through the binding
// (sw/mpi/api/). The MPI checker verifies every match and collective as in any MPI run.
//
// How the job ends: every rank must call MPI_Finalize and return 0 (or exit(0)). A rank that
// exits with another status, aborts, crashes, calls MPI_Abort or makes an erroneous MPI call
// (MPI_ERRORS_ARE_FATAL) fails the run naming the rank, what happened and where; the first
// such end's status is the job's exit status (results.exit_status), which mpirun returns.
#include <fmt/format.h>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "sw/mpi/api/mpi_rank.h"
#include "testbench/runner/mpi_job.h"
#include "testbench/runner/user_programs.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/check/checker.h"
#include "tlm/common/errors.h"
#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

namespace {

constexpr const char* kRankEnds = "MPI program: every rank calls MPI_Finalize and returns 0";
constexpr const char* kMpiCalls =
    "MPI program: every MPI call is correct (no MPI error, no MPI_Abort)";

// The job's ranks and how they ended.
struct ProgramJob {
  std::shared_ptr<const user::ProgramImage> image;
  std::unique_ptr<user::ProgramOutput> output;
  std::vector<std::unique_ptr<user::ProgramInstance>> instances;
  std::vector<std::unique_ptr<fw::mpi::api::MpiRank>> ranks;
  fw::mpi::api::MpiJobLink link;
  UserProgramParams params;
  int exit_status = 0;  // the first abnormal end's
  bool failed = false;
  std::vector<std::string> ends;  // abnormal ends, in order
  double last_end_ns = 0;
  std::vector<bool> reported;  // a rank whose failure is already recorded

  void fail(int rank, int status, const std::string& why, const char* check) {
    if (!failed) exit_status = status;
    failed = true;
    reported[static_cast<size_t>(rank)] = true;
    ends.push_back(why);
    CheckRegistry::instance().fail(check, fmt::format("rank {}", rank), why);
  }

  // After rank r's program returned to its firmware.
  void ended(int r) {
    user::ProgramInstance& p = *instances[static_cast<size_t>(r)];
    const auto& mpi = *ranks[static_cast<size_t>(r)];
    last_end_ns = std::max(last_end_ns, hs::now().to_seconds() * 1e9);
    static Check& ends_check = CheckRegistry::instance().check(kRankEnds);
    ++ends_check.evaluations;
    if (reported[static_cast<size_t>(r)]) return;  // an MPI error or MPI_Abort said why
    using End = user::ProgramInstance::End;
    std::string why;
    if (p.end() != End::Exited) {
      why = fmt::format("rank {} {}", r, p.end_description());
    } else if (p.exit_status() != 0) {
      why = fmt::format("rank {} exited with status {}", r, p.exit_status());
    } else if (mpi.initialized() && !mpi.finalized()) {
      why = fmt::format("rank {} returned without calling MPI_Finalize", r);
    } else if (!mpi.initialized()) {
      return;  // a program that never used MPI
    } else {
      return;
    }
    fail(r, p.exit_status() != 0 ? p.exit_status() : 1, why, kRankEnds);
  }
};

}  // namespace

HYBRIDSIM_WORKLOAD(mpi_program, TorusModel,
                   "an MPI program built with hybridsim-mpicc (workload.program), one private "
                   "instance per rank: what hybridsim mpirun runs") {
  auto job = declare_mpi_job(m);
  m.results_declared.declare({
      {"program", "", "the program run, as given to mpirun"},
      {"exit_status", "", "mpirun's exit status: 0, or the first rank's failing status"},
      {"abnormal_ends", "", "ranks that ended without MPI_Finalize, or aborted, in order"},
      {"compute_model", "", "how host code between MPI calls is charged: scaled, fixed or zero"},
      {"program_compute_cycles", "cycles", "core cycles charged for the ranks' own code"},
      {"calls_into_the_simulator", "calls", "MPI and runtime calls the ranks made"},
      {"host_bytes_per_rank", "B", "host memory a rank's private copy of the program takes"},
      {"heap_peak_bytes_max", "B", "the largest heap a rank reached"},
      {"collectives_unverified", "calls",
       "collective calls whose results the checker could not verify (user operations)"},
      {"job_time_ns", "ns", "from the job's start to its last rank's end"},
  });
  ParamScope p("workload");
  const std::string program_param = p.name("program");
  const std::string path = p.text("program", "", "the program module hybridsim-mpicc built");
  const std::string args_text =
      p.text("args", "[]", "the program's arguments, a JSON list of strings (argv[1...])");
  if (path.empty()) {
    throw InputError(
        fmt::format("parameter '{}': the mpi_program workload needs a program "
                    "(hybridsim mpirun -n N PROGRAM)",
                    program_param));
  }
  std::vector<std::string> args;
  try {
    const auto j = nlohmann::json::parse(args_text);
    if (!j.is_array()) throw std::invalid_argument("not a list");
    for (const auto& a : j) {
      if (!a.is_string()) throw std::invalid_argument("not a list of strings");
      args.push_back(a.get<std::string>());
    }
  } catch (const std::exception& e) {
    throw InputError(fmt::format("parameter '{}' = {}: expects a JSON list of strings ({})",
                                 p.name("args"), args_text, e.what()));
  }
  auto pj = std::make_shared<ProgramJob>();
  pj->params = declare_user_program_params();
  ParamScope mp("mpi");
  pj->link.poll_cycles = static_cast<uint64_t>(
      mp.integer("poll_cycles", 100, "cycles",
                 "core cycles each polling call costs (MPI_Test*, MPI_Iprobe), besides the "
                 "layer's own accesses",
                 Range::between(0, 1e9)));
  pj->link.pack_bytes_per_cycle =
      mp.real("pack_bytes_per_cycle", 8, "B/cycle",
              "the core packing and unpacking staged buffers (derived datatypes)",
              Range::between(0.01, 1e3));
  pj->link.pack_run_cycles = static_cast<uint64_t>(
      mp.integer("pack_run_cycles", 4, "cycles",
                 "core cycles per contiguous piece packed or unpacked", Range::between(0, 1e6)));
  pj->image = read_program(path, program_param);
  pj->output = std::make_unique<user::ProgramOutput>(stdout, stderr, pj->params.labels);
  pj->link.cfg = &job->cfg;
  pj->link.algorithms = &job->algorithms;
  pj->link.map = job->map.get();
  pj->link.shape = m.machine.shape();
  pj->link.trace = job->trace();
  ProgramJob* state = pj.get();
  pj->link.fail = [state](int rank, int status, const std::string& why) {
    state->fail(rank, status, why, kMpiCalls);
  };
  CheckRegistry::instance().check(kRankEnds);
  CheckRegistry::instance().check(kMpiCalls);
  const int n = job->ranks();
  pj->reported.assign(static_cast<size_t>(n), false);
  MpiJob* j = job.get();
  for (int r = 0; r < n; ++r) {
    const auto& place = job->map->place(r);
    torus::ComputeNode& node = m.machine.node(place.node);
    user::InstanceSetup s;
    s.name = fmt::format("rank {}", r);
    s.label = std::to_string(r);
    s.args = args;
    s.region_base = fw::mpi::rank_memory(place.t);
    s.region_bytes = fw::mpi::kRankScratch;
    s.stack_bytes = pj->params.stack_bytes;
    s.stack_param = pj->params.stack_param;
    s.compute = pj->params.compute;
    s.output = pj->output.get();
    try {
      pj->instances.push_back(
          std::make_unique<user::ProgramInstance>(pj->image, std::move(s), windows_in(*node.dram)));
    } catch (const std::runtime_error& e) {
      throw InputError(fmt::format("parameter '{}': {}", program_param, e.what()));
    }
    pj->ranks.push_back(
        std::make_unique<fw::mpi::api::MpiRank>(*pj->instances.back(), pj->link, r));
    Core* core = node.core_list[static_cast<size_t>(place.t)].get();
    core->set_stack(pj->params.stack_bytes, true);
    core->set_firmware([state, j, r](fw::Hal& hal) {
      state->instances[static_cast<size_t>(r)]->run(hal);
      j->counts[static_cast<size_t>(r)] = state->ranks[static_cast<size_t>(r)]->counts();
      j->finished[static_cast<size_t>(r)] = true;
      state->ended(r);
    });
  }
  // A rank that never finishes is named by its MPI call (and the line that made it).
  std::vector<std::pair<const Core*, int>> rank_of_core;
  for (int r = 0; r < n; ++r) {
    const auto& place = job->map->place(r);
    rank_of_core.emplace_back(
        m.machine.node(place.node).core_list[static_cast<size_t>(place.t)].get(), r);
  }
  m.core_notes = [state, rank_of_core](const Core* c) -> std::string {
    for (const auto& [core, r] : rank_of_core) {
      if (core != c) continue;
      const std::string call = state->ranks[static_cast<size_t>(r)]->current_call();
      return fmt::format("rank {}{}", r, call.empty() ? "" : ": " + call);
    }
    return "";
  };
  m.keep.push_back(pj);
  m.results = [job, pj, path] {
    nlohmann::json r = job->json();
    r["program"] = path;
    r["exit_status"] = pj->exit_status;
    r["abnormal_ends"] = pj->ends;
    r["compute_model"] = user::compute_kind_name(pj->params.compute.kind);
    uint64_t compute = 0, calls = 0, host = 0, heap_peak = 0;
    for (const auto& i : pj->instances) {
      compute += i->compute_cycles();
      calls += i->calls();
      host += i->host_bytes();
      if (const auto* h = i->heap_if_started())
        heap_peak = std::max<uint64_t>(heap_peak, h->peak());
    }
    r["program_compute_cycles"] = compute;
    r["calls_into_the_simulator"] = calls;
    r["host_bytes_per_rank"] = pj->instances.empty() ? 0 : host / pj->instances.size();
    r["heap_peak_bytes_max"] = heap_peak;
    r["collectives_unverified"] = job->checker->collectives_unverified();
    r["job_time_ns"] = pj->last_end_ns;
    return r;
  };
}

}  // namespace hs::runner
