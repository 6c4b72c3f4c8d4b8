#include "tlm/parallel/launcher.h"

#include <fmt/format.h>
#include <cstdlib>

namespace hs {

namespace {

int env_int(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : 0;
}

bool env_set(const char* name) {
  return std::getenv(name) != nullptr;
}

}  // namespace

Launch launched() {
  if (const int n = env_int("OMPI_COMM_WORLD_SIZE"); n > 0) {
    return {n, env_int("OMPI_COMM_WORLD_RANK"), "mpirun", ""};
  }
  const char* step = std::getenv("SLURM_STEP_ID");
  if (step && std::string(step) != "batch") {
    if (const int n = env_int("SLURM_STEP_NUM_TASKS"); n > 0) {
      Launch l{n, env_int("SLURM_PROCID"), "srun", ""};
      // srun --mpi=pmix gives every task a PMIx server to ask; without one Open MPI cannot
      // find the other tasks.
      if (n > 1 && !env_set("PMIX_RANK")) {
        const char* how = std::getenv("SLURM_MPI_TYPE");
        l.unreachable = fmt::format(
            "srun started it without PMIx ({}), and Open MPI reaches the other tasks of a Slurm "
            "job step only through PMIx: start it with srun --mpi=pmix -n {} hybridsim run ..., "
            "or with mpirun -np {} hybridsim run ...",
            how ? fmt::format("--mpi={}", how) : std::string("no PMIx server in its environment"),
            n, n);
      }
      return l;
    }
  }
  if (const int n = env_int("PMI_SIZE"); n > 0) {
    Launch l{n, env_int("PMI_RANK"), "a PMI launcher", ""};
    if (n > 1) {
      l.unreachable = fmt::format(
          "Open MPI cannot join the processes of a PMI launcher other than its own mpirun or "
          "Slurm's srun --mpi=pmix: start it with mpirun -np {} hybridsim run ...",
          n);
    }
    return l;
  }
  return {};
}

}  // namespace hs
