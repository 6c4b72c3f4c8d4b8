// The transpose motif (sw/apps/motif_transpose.h): alltoalls within the rows, then within the
// columns, of a 2D grid of ranks, as in a pencil-decomposed 3D FFT.
#include <fmt/format.h>

#include "sw/apps/motif_transpose.h"
#include "testbench/runner/mpi_job.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

namespace {
// The largest divisor of n no greater than its square root: the squarest grid's rows.
int squarest_rows(int n) {
  int rows = 1;
  for (int d = 1; d * d <= n; ++d) {
    if (n % d == 0) rows = d;
  }
  return rows;
}
}  // namespace

HYBRIDSIM_WORKLOAD(transpose, TorusModel,
                   "3D-FFT transposes: alltoall within the rows, then the columns, of a 2D grid "
                   "of ranks") {
  m.results_declared.declare({
      {"grid", "", "the ranks' 2D grid, rows x columns"},
      {"block_bytes", "B", "bytes each rank sends to each rank of its row or column"},
  });
  auto job = declare_mpi_job(m);
  fw::motifs::TransposeConfig cfg;
  declare_iterations(cfg.iterations, cfg.warmup);
  ParamScope p("workload");
  const int rows = static_cast<int>(p.integer(
      "rows", 0, "ranks", "rows of the grid of ranks (0: the squarest grid); they divide the ranks",
      Range::between(0, 1 << 20)));
  cfg.bytes = static_cast<uint32_t>(
      p.integer("bytes", cfg.bytes, "B", "per pair in each alltoall", Range::between(1, 1 << 22)));
  cfg.compute_cycles = static_cast<uint64_t>(
      p.integer("compute_cycles", static_cast<int64_t>(cfg.compute_cycles), "cycles",
                "compute before each alltoall", Range::between(0, 1e9)));
  cfg.algorithms = job->algorithms;
  const auto& reg = ParamRegistry::instance();
  const int ranks = job->ranks();
  cfg.rows = rows == 0 ? squarest_rows(ranks) : rows;
  if (ranks % cfg.rows != 0) {
    throw InputError(reg.refusal(
        "workload.rows", fmt::format("= {}: the rows must divide the {} ranks", cfg.rows, ranks)));
  }
  const int cols = ranks / cfg.rows;
  // The job's check of mpi.algorithm.alltoall covers the rows' and columns' communicators:
  // a divisor of a power of two is one.
  if (uint64_t{cfg.bytes} * static_cast<uint64_t>(std::max(cfg.rows, cols)) >
      (uint64_t{32} << 20)) {
    throw InputError(reg.refusal("workload.bytes",
                                 fmt::format("= {}: {} blocks exceed the motif's 32 MiB buffers",
                                             cfg.bytes, std::max(cfg.rows, cols))));
  }
  auto timing = install_motif(m, job, [cfg](auto& comm, auto& coll, auto& t) {
    fw::motifs::transpose(comm, coll, cfg, t);
  });
  m.results = [job, timing, cfg, cols] {
    nlohmann::json r = motif_json(*job, *timing);
    r["grid"] = fmt::format("{}x{}", cfg.rows, cols);
    r["block_bytes"] = cfg.bytes;
    return r;
  };
}

}  // namespace hs::runner
