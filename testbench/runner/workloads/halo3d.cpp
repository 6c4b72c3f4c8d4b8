// The halo3d motif (sw/apps/mpi_motifs.h): a periodic 3D grid of ranks swapping faces with
// their 6 neighbours (or faces, edges and corners with 26) between compute steps.
#include <fmt/format.h>

#include <memory>
#include <regex>
#include <string>

#include "testbench/runner/mpi_job.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

HYBRIDSIM_WORKLOAD(halo3d, TorusModel,
                   "3D halo exchange: each rank computes, then swaps faces with its 6 "
                   "neighbours (26: also edges and corners)") {
  m.results_declared.declare({
      {"grid", "", "the ranks' grid, XxYxZ"},
      {"face_bytes", "B", "bytes of one face sent to a neighbour"},
      {"neighbours", "ranks", "neighbours each rank exchanges with (6 or 26)"},
  });
  auto job = declare_mpi_job(m);
  ParamScope p("workload");
  fw::motifs::HaloConfig cfg;
  cfg.iterations = static_cast<int>(
      p.integer("iterations", cfg.iterations, "", "timed iterations", Range::between(1, 100000)));
  cfg.warmup = static_cast<int>(
      p.integer("warmup", cfg.warmup, "", "untimed iterations first", Range::between(0, 1000)));
  cfg.cells = static_cast<int>(p.integer("cells", cfg.cells, "cells",
                                         "cells along each edge of a rank's block",
                                         Range::between(1, 1024)));
  cfg.bytes_per_cell =
      static_cast<uint32_t>(p.integer("bytes_per_cell", cfg.bytes_per_cell, "B",
                                      "bytes a face carries per cell", Range::between(1, 1024)));
  cfg.cycles_per_cell = p.real("cycles_per_cell", cfg.cycles_per_cell, "cycles",
                               "compute per cell and iteration", Range::between(0, 1e6));
  cfg.neighbours = static_cast<int>(
      p.integer("neighbours", cfg.neighbours, "",
                "6: a face to each neighbour across a face; 26: also an edge and a corner to "
                "those across them",
                Range::between(6, 26)));
  if (cfg.neighbours != 6 && cfg.neighbours != 26) {
    throw InputError(ParamRegistry::instance().refusal(
        "workload.neighbours", fmt::format("= {}: it is 6 or 26", cfg.neighbours)));
  }
  const std::string grid =
      p.text("grid", "balanced",
             "the ranks' grid: 'balanced' (factors as even as they go, like MPI_Dims_create) or "
             "XxYxZ, x fastest (on a torus whose shape it is, in SMP mode with the XYZT mapping, "
             "every neighbour is one hop away)");
  if (grid != "balanced") {
    // Up to six digits a side: the product cannot overflow and any torus's ranks fit.
    static const std::regex kShape("([1-9][0-9]{0,5})x([1-9][0-9]{0,5})x([1-9][0-9]{0,5})");
    std::smatch side;
    if (!std::regex_match(grid, side, kShape)) {
      throw InputError(ParamRegistry::instance().refusal(
          "workload.grid", fmt::format("= '{}': it is 'balanced' or XxYxZ with each of X, Y "
                                       "and Z at least 1 (8x8x8)",
                                       grid)));
    }
    const int x = std::stoi(side[1]), y = std::stoi(side[2]), z = std::stoi(side[3]);
    if (int64_t{x} * y * z != job->ranks()) {
      throw InputError(ParamRegistry::instance().refusal(
          "workload.grid", fmt::format("= '{}' holds {} ranks; the job has {}", grid,
                                       int64_t{x} * y * z, job->ranks())));
    }
    cfg.grid = {x, y, z};
  }
  const uint64_t face = uint64_t(cfg.cells) * cfg.cells * cfg.bytes_per_cell;
  const uint64_t halo = fw::motifs::halo_bytes_per_rank(cfg);
  if (halo > (uint64_t{32} << 20)) {
    throw InputError(
        fmt::format("workload.cells = {}: {} neighbours' halos of {} B in all exceed "
                    "the motif's 32 MiB buffers",
                    cfg.cells, cfg.neighbours, halo));
  }
  auto timing =
      std::make_shared<std::vector<fw::motifs::Timing>>(static_cast<size_t>(job->ranks()));
  m.keep.push_back(timing);
  declare_motif_results(m);
  install_ranks(
      m, job,
      [cfg, timing](fw::mpi::Comm& comm, fw::mpi::Collectives&) {
        fw::motifs::halo3d(comm, cfg, (*timing)[static_cast<size_t>(comm.rank())]);
      },
      timing_figures(timing));
  const auto dims = fw::motifs::halo_grid(cfg, job->ranks());
  m.results = [job, timing, dims, face, cfg] {
    nlohmann::json r = motif_json(*job, *timing);
    r["grid"] = fmt::format("{}x{}x{}", dims[0], dims[1], dims[2]);
    r["face_bytes"] = face;
    r["neighbours"] = cfg.neighbours;
    return r;
  };
}

}  // namespace hs::runner
