// MPI conformance on every rank (sw/apps/mpi_conformance.h): point-to-point semantics checked
// by the ranks themselves, matching and every collective's result by the MPI checker.
#include <fmt/format.h>
#include <algorithm>
#include <memory>

#include "sw/apps/mpi_conformance.h"
#include "testbench/runner/mpi_job.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

HYBRIDSIM_WORKLOAD(mpi_conformance, TorusModel,
                   "MPI semantics on every rank: matching, wildcards, the unexpected queue, "
                   "and every collective verified") {
  m.results_declared.declare({
      {"p2p_buffers_checked", "buffers",
       "point-to-point receive buffers compared with what was sent"},
      {"collective_ns/*", "ns", "the slowest rank's time for each collective of the last round"},
  });
  auto job = declare_mpi_job(m);
  ParamScope p("workload");
  fw::conformance::Config cfg;
  cfg.p2p = p.flag("p2p", true, "run the point-to-point checks");
  cfg.collectives = p.flag("collectives", true, "run every collective");
  const auto largest = static_cast<uint32_t>(
      p.integer("largest_message", 200000, "B",
                "the ring exchange's sizes (0, 8, 1000, 4000, 40000, 200000 B) up to this",
                Range::between(0, 1 << 24)));
  cfg.p2p_sizes.erase(std::remove_if(cfg.p2p_sizes.begin(), cfg.p2p_sizes.end(),
                                     [largest](uint32_t b) { return b > largest; }),
                      cfg.p2p_sizes.end());
  cfg.bytes = static_cast<uint32_t>(p.integer("bytes", cfg.bytes, "B",
                                              "collective vector per rank (per pair: alltoall)",
                                              Range::between(8, 1 << 22)));
  cfg.repeat = static_cast<int>(
      p.integer("repeat", cfg.repeat, "", "rounds of collectives", Range::between(1, 1000)));
  cfg.type = fw::mpi::parse_datatype(
      p.choice("datatype", "int64", "reduction element type", {"int64", "double"}));
  cfg.op = fw::mpi::parse_op(p.choice("op", "sum", "reduction", {"sum", "max", "min"}));
  m.machine.node(m.machine.partition->local_nodes().front())
      .dram->require(fw::mpi::rank_memory(job->map->ranks_per_node() - 1) + uint64_t{64 << 20} +
                         uint64_t{cfg.bytes} * static_cast<uint64_t>(job->ranks()),
                     "the conformance program's buffers");
  if (uint64_t{cfg.bytes} * static_cast<uint64_t>(job->ranks()) > (uint64_t{32} << 20)) {
    throw InputError(
        fmt::format("workload.bytes = {}: alltoall over {} ranks needs more than "
                    "the program's 32 MiB buffers",
                    cfg.bytes, job->ranks()));
  }
  auto results =
      std::make_shared<std::vector<fw::conformance::Results>>(static_cast<size_t>(job->ranks()));
  m.keep.push_back(results);
  RankFigures figures;  // a parallel run: each rank's checks and its calls' times
  figures.save = [results](int rank, ByteWriter& w) {
    const auto& r = (*results)[static_cast<size_t>(rank)];
    w.put(r.p2p_checks);
    w.put<uint64_t>(r.collective_cycles.size());
    for (const auto& [call, cycles] : r.collective_cycles) {
      w.put_string(call);
      w.put(cycles);
    }
  };
  figures.merge = [results](int rank, ByteReader& in) {
    auto& r = (*results)[static_cast<size_t>(rank)];
    r.p2p_checks = in.get<uint64_t>();
    r.collective_cycles.resize(in.get<uint64_t>());
    for (auto& [call, cycles] : r.collective_cycles) {
      call = in.get_string();
      cycles = in.get<uint64_t>();
    }
  };
  install_ranks(
      m, job,
      [cfg, results](fw::mpi::Comm& comm, fw::mpi::Collectives& coll) {
        fw::conformance::run(comm, coll, cfg, (*results)[static_cast<size_t>(comm.rank())]);
      },
      figures);
  m.results = [job, results] {
    nlohmann::json r = job->json();
    uint64_t checks = 0;
    for (const auto& x : *results) checks += x.p2p_checks;
    r["p2p_buffers_checked"] = checks;
    nlohmann::json t = nlohmann::json::object();
    // The slowest rank's time for each call of the last round.
    for (size_t i = 0; i < (*results)[0].collective_cycles.size(); ++i) {
      uint64_t most = 0;
      for (const auto& x : *results) most = std::max(most, x.collective_cycles[i].second);
      t[(*results)[0].collective_cycles[i].first] = most / job->core_hz * 1e9;
    }
    r["collective_ns"] = t;
    return r;
  };
}

}  // namespace hs::runner
