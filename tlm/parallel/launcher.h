// What a parallel launcher (Open MPI's mpirun, Slurm's srun, another PMI launcher) says about
// the process it started: how many processes make up the job, which one this is, and whether
// Open MPI can reach the others from this launch, read from the launcher's environment
// without initialising MPI (docs/parallel.md).
//
// Rules:
// - A process not started by a launcher, or by one that started it alone, is one process.
// - The batch script of an sbatch job that asks for several tasks is one process (its tasks
//   are started by the srun calls inside it, not by the script itself).
// - Debian's Open MPI meets Slurm through PMIx only (it is built against PMIx, without
//   Slurm's PMI-1 or PMI-2 libraries): the tasks of `srun --mpi=pmix` find one another; tasks
//   started by srun any other way (`--mpi=none`, `--mpi=pmi2`) would each come up as a job
//   of one, or be stopped by Open MPI, so `unreachable` says why and how to start it instead,
//   and the run is refused before MPI is touched. The same goes for a PMI launcher that is
//   not Open MPI's or Slurm's (MPICH's hydra).
#pragma once
#include <string>

namespace hs {

struct Launch {
  int processes = 1;     // processes the launcher started together
  int rank = 0;          // this one's number among them
  std::string launcher;  // "mpirun", "srun" or "a PMI launcher"; "" when alone
  // Empty when MPI can join the processes; else why not and how to start them.
  std::string unreachable;
};

Launch launched();

}  // namespace hs
