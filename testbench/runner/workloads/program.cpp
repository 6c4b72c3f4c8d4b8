// The `program` workload: a message-passing program from a text file (docs/programs.md),
// parsed and checked as every rank before the run (testbench/runner/program/), then run by
// every rank's core through sw/mpi (sw/apps/mpi_program_rank.h).
#include <fmt/format.h>
#include <algorithm>
#include <memory>

#include "sw/apps/mpi_program_rank.h"
#include "testbench/runner/mpi_job.h"
#include "testbench/runner/program/program_check.h"
#include "testbench/runner/program/program_file.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

namespace fp = hs::fw::program;

namespace {
// Each rank's torus coordinates and core, and the rank on each node's cores.
fp::Layout layout_of(const TorusModel& m, const MpiJob& job) {
  const auto& shape = m.machine.shape();
  fp::Layout l;
  l.dims = {shape.size(0), shape.size(1), shape.size(2)};
  l.ranks_per_node = job.map->ranks_per_node();
  l.rank_at.assign(static_cast<size_t>(shape.nodes() * l.ranks_per_node), 0);
  for (int r = 0; r < job.ranks(); ++r) {
    const auto& place = job.map->place(r);
    const auto c = shape.coord(place.node);
    l.place.push_back({c.v[0], c.v[1], c.v[2], place.t});
    l.rank_at[static_cast<size_t>(place.node * l.ranks_per_node + place.t)] = r;
  }
  return l;
}
}  // namespace

HYBRIDSIM_WORKLOAD(program, TorusModel,
                   "a message-passing program from a file (workload.program), checked as "
                   "every rank before the run") {
  m.results_declared.declare({
      {"program", "", "the program file"},
      {"total_time_ns", "ns", "the slowest rank's time from start to end"},
      {"payload_bytes_verified", "B", "received payload bytes compared with what was sent"},
      {"statements_checked", "statements", "statements checked before the run"},
      {"point_to_point_messages", "messages",
       "point-to-point messages the program sends, by the check"},
      {"point_to_point_bytes", "B", "bytes in those messages"},
      {"collective_calls_per_rank", "calls", "collective calls each rank makes"},
  });
  auto job = declare_mpi_job(m);
  ParamScope p("workload");
  const std::string given =
      p.text("program", "",
             "the program file (docs/programs.md); relative to the scenario file that sets it, "
             "else to the current directory");
  const std::string name = p.name("program");
  if (given.empty()) {
    throw InputError(
        fmt::format("parameter '{}': the program workload needs a program file "
                    "(--set {}=FILE)",
                    name, name));
  }
  const ParamInfo* info = ParamRegistry::instance().find(name);
  const std::string path = program::resolve_program_path(given, info ? info->source : "");
  auto prog = std::make_shared<fp::Program>();
  auto layout = std::make_shared<fp::Layout>(layout_of(m, *job));
  program::ProgramCensus census;
  try {
    *prog = program::load_program(path);
    census = program::check_program(*prog, *layout, path);
  } catch (const InputError& e) {
    throw InputError(fmt::format("parameter '{}': {}", name, e.what()));
  }
  auto results = std::make_shared<std::vector<fp::RankResult>>(static_cast<size_t>(job->ranks()));
  m.keep.push_back(prog);
  m.keep.push_back(layout);
  m.keep.push_back(results);
  RankFigures figures;  // a parallel run: each rank's result
  figures.save = [results](int rank, ByteWriter& w) {
    const fp::RankResult& r = (*results)[static_cast<size_t>(rank)];
    save_timing(r.timing, w);
    for (uint64_t v : {r.total_cycles, r.compute_cycles, r.payload_bytes_checked}) w.put(v);
  };
  figures.merge = [results](int rank, ByteReader& in) {
    fp::RankResult& r = (*results)[static_cast<size_t>(rank)];
    r.timing = load_timing(in);
    for (uint64_t* v : {&r.total_cycles, &r.compute_cycles, &r.payload_bytes_checked}) {
      *v = in.get<uint64_t>();
    }
  };
  install_ranks(
      m, job,
      [prog, layout, results](fw::mpi::Comm& comm, fw::mpi::Collectives& coll) {
        fp::run_rank(comm, coll, *prog, *layout, (*results)[static_cast<size_t>(comm.rank())]);
      },
      figures);
  declare_motif_results(m);
  m.results = [job, results, census, path] {
    std::vector<fw::motifs::Timing> timing;
    uint64_t slowest = 0, checked = 0;
    for (const auto& r : *results) {
      timing.push_back(r.timing);
      slowest = std::max(slowest, r.total_cycles);
      checked += r.payload_bytes_checked;
    }
    nlohmann::json j = motif_json(*job, timing);
    j["program"] = path;
    j["total_time_ns"] = static_cast<double>(slowest) * 1e9 / job->core_hz;
    j["payload_bytes_verified"] = checked;
    j["statements_checked"] = census.statements;
    j["point_to_point_messages"] = census.messages;
    j["point_to_point_bytes"] = census.bytes;
    j["collective_calls_per_rank"] = census.collectives;
    return j;
  };
}

}  // namespace hs::runner
