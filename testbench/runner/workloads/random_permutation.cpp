// The random_permutation motif (sw/apps/motif_random_permutation.h): every rank sends to its
// image under a seeded random derangement each iteration.
#include <fmt/format.h>

#include "sw/apps/motif_random_permutation.h"
#include "testbench/runner/mpi_job.h"
#include "testbench/runner/workload_registry.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::runner {

HYBRIDSIM_WORKLOAD(random_permutation, TorusModel,
                   "each iteration every rank sends to its image under a seeded random "
                   "derangement and receives from its preimage") {
  m.results_declared.declare({
      {"message_bytes", "B", "message size"},
      {"seed", "", "the seed of the permutations"},
  });
  auto job = declare_mpi_job(m);
  fw::motifs::PermutationConfig cfg;
  declare_iterations(cfg.iterations, cfg.warmup);
  ParamScope p("workload");
  cfg.bytes = static_cast<uint32_t>(
      p.integer("bytes", cfg.bytes, "B", "each rank's message", Range::between(0, 32 << 20)));
  cfg.compute_cycles = static_cast<uint64_t>(
      p.integer("compute_cycles", static_cast<int64_t>(cfg.compute_cycles), "cycles",
                "compute before each exchange", Range::between(0, 1e9)));
  cfg.seed = static_cast<uint64_t>(p.integer("seed", static_cast<int64_t>(cfg.seed), "",
                                             "the permutations' seed", Range::between(0, 1e15)));
  if (job->ranks() < 2) {
    throw InputError(ParamRegistry::instance().refusal(
        "mpi.mode", "runs 1 rank: a derangement needs at least 2"));
  }
  auto timing = install_motif(
      m, job, [cfg](auto& comm, auto&, auto& t) { fw::motifs::random_permutation(comm, cfg, t); });
  m.results = [job, timing, cfg] {
    nlohmann::json r = motif_json(*job, *timing);
    r["message_bytes"] = cfg.bytes;
    r["seed"] = cfg.seed;
    return r;
  };
}

}  // namespace hs::runner
