// The sweep3d motif (sw/apps/motif_sweep3d.h): wavefronts from the corners of a 2D grid of
// ranks, pipelined over blocks of k-planes.
#include <fmt/format.h>

#include "sw/apps/motif_sweep3d.h"
#include "testbench/runner/mpi_job.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

HYBRIDSIM_WORKLOAD(sweep3d, TorusModel,
                   "wavefront sweeps over a 2D grid of ranks from its corners, pipelined over "
                   "blocks of k-planes") {
  m.results_declared.declare({
      {"grid", "", "the ranks' 2D grid, XxY"},
      {"blocks_per_sweep", "blocks", "blocks of k-planes each sweep pipelines"},
      {"octants", "", "sweep directions per iteration"},
  });
  auto job = declare_mpi_job(m);
  fw::motifs::Sweep3dConfig cfg;
  declare_iterations(cfg.iterations, cfg.warmup);
  ParamScope p("workload");
  const int px = static_cast<int>(p.integer(
      "px", 0, "ranks", "ranks along i of the grid (0: the torus's x extent); it divides the ranks",
      Range::between(0, 1 << 20)));
  cfg.cells = static_cast<int>(p.integer("cells", cfg.cells, "cells",
                                         "cells along i and along j of a rank's block",
                                         Range::between(1, 1024)));
  cfg.nz = static_cast<int>(
      p.integer("nz", cfg.nz, "planes", "k-planes of the grid", Range::between(1, 1 << 16)));
  cfg.kblock = static_cast<int>(p.integer("kblock", cfg.kblock, "planes",
                                          "k-planes a block: the pipeline's grain",
                                          Range::between(1, 1 << 16)));
  cfg.octants = static_cast<int>(p.integer("octants", cfg.octants, "",
                                           "sweeps an iteration, from corners 0..octants-1",
                                           Range::between(1, 8)));
  cfg.bytes_per_cell =
      static_cast<uint32_t>(p.integer("bytes_per_cell", cfg.bytes_per_cell, "B",
                                      "bytes a face carries per cell", Range::between(1, 1024)));
  cfg.cycles_per_cell = p.real("cycles_per_cell", cfg.cycles_per_cell, "cycles",
                               "compute per cell of a block", Range::between(0, 1e6));
  const auto& reg = ParamRegistry::instance();
  cfg.px = px == 0 ? m.machine.shape().size(0) : px;
  if (job->ranks() % cfg.px != 0) {
    throw InputError(reg.refusal(
        "workload.px",
        fmt::format("= {}: the grid's rows must divide the {} ranks", cfg.px, job->ranks())));
  }
  const uint64_t face = uint64_t(cfg.cells) * std::min(cfg.kblock, cfg.nz) * cfg.bytes_per_cell;
  if (face > (uint64_t{8} << 20)) {
    throw InputError(reg.refusal(
        "workload.kblock",
        fmt::format("= {}: a face of {} B exceeds the motif's 8 MiB buffers", cfg.kblock, face)));
  }
  auto timing = install_motif(
      m, job, [cfg](auto& comm, auto&, auto& t) { fw::motifs::sweep3d(comm, cfg, t); });
  m.results = [job, timing, cfg] {
    nlohmann::json r = motif_json(*job, *timing);
    r["grid"] = fmt::format("{}x{}", cfg.px, job->ranks() / cfg.px);
    r["blocks_per_sweep"] = fw::motifs::sweep3d_blocks(cfg);
    r["octants"] = cfg.octants;
    return r;
  };
}

}  // namespace hs::runner
