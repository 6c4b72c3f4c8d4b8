#include "tlm/parallel/launcher.h"

#include <cstdlib>

namespace hs {

namespace {

int env_int(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : 0;
}

}  // namespace

Launch launched() {
  Launch l;
  if (const int n = env_int("OMPI_COMM_WORLD_SIZE"); n > 0) {
    return {n, env_int("OMPI_COMM_WORLD_RANK"), "mpirun"};
  }
  if (const int n = env_int("PMI_SIZE"); n > 0) return {n, env_int("PMI_RANK"), "a PMI launcher"};
  const char* step = std::getenv("SLURM_STEP_ID");
  if (step && std::string(step) != "batch") {
    if (const int n = env_int("SLURM_STEP_NUM_TASKS"); n > 0) {
      return {n, env_int("SLURM_PROCID"), "srun"};
    }
  }
  return l;
}

}  // namespace hs
