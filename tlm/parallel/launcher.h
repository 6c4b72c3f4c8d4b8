// What a parallel launcher (Open MPI's mpirun, a PMI launcher, Slurm's srun) says about the
// process it started: how many processes make up the job and which one this is, read from the
// launcher's environment without initialising MPI.
//
// Rules:
// - A process not started by a launcher, or by one that started it alone, is one process.
// - The batch script of an sbatch job that asks for several tasks is one process (its tasks
//   are started by the srun calls inside it, not by the script itself).
#pragma once
#include <string>

namespace hs {

struct Launch {
  int processes = 1;     // processes the launcher started together
  int rank = 0;          // this one's number among them
  std::string launcher;  // "mpirun", "srun" or "a PMI launcher"; "" when alone
};

Launch launched();

}  // namespace hs
