// The allreduce motif (sw/apps/mpi_motifs.h): compute, then allreduce a vector, in a loop.
#include <memory>

#include "testbench/runner/mpi_job.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

HYBRIDSIM_WORKLOAD(allreduce, TorusModel,
                   "allreduce in a loop: each rank computes, then allreduces a vector") {
  m.results_declared.declare({
      {"vector_bytes", "B", "the vector each rank allreduces"},
  });
  auto job = declare_mpi_job(m);
  ParamScope p("workload");
  fw::motifs::AllreduceConfig cfg;
  cfg.iterations = static_cast<int>(
      p.integer("iterations", cfg.iterations, "", "timed iterations", Range::between(1, 100000)));
  cfg.warmup = static_cast<int>(
      p.integer("warmup", cfg.warmup, "", "untimed iterations first", Range::between(0, 1000)));
  cfg.bytes = static_cast<uint32_t>(
      p.integer("bytes", cfg.bytes, "B", "vector per rank", Range::between(8, 16 << 20)));
  cfg.compute_cycles = static_cast<uint64_t>(
      p.integer("compute_cycles", static_cast<int64_t>(cfg.compute_cycles), "cycles",
                "compute between allreduces", Range::between(0, 1e9)));
  cfg.type =
      fw::mpi::parse_datatype(p.choice("datatype", "double", "element type", {"double", "int64"}));
  auto timing =
      std::make_shared<std::vector<fw::motifs::Timing>>(static_cast<size_t>(job->ranks()));
  m.keep.push_back(timing);
  declare_motif_results(m);
  install_ranks(
      m, job,
      [cfg, timing](fw::mpi::Comm& comm, fw::mpi::Collectives& coll) {
        fw::motifs::allreduce_loop(comm, coll, cfg, (*timing)[static_cast<size_t>(comm.rank())]);
      },
      timing_figures(timing));
  m.results = [job, timing, cfg] {
    nlohmann::json r = motif_json(*job, *timing);
    r["vector_bytes"] = cfg.bytes;
    return r;
  };
}

}  // namespace hs::runner
