// `hybridsim mpirun -n N [options] PROGRAM [ARGS...]`: runs an MPI program built with
// hybridsim-mpicc as N ranks on the torus machine, as a machine's launcher would. The program's
// standard output and error are the ranks' (--label prefixes each line with its rank); the
// report (--report), trace (--trace) and waveform (--vcd) are a run's usual ones; nothing else
// is printed unless the run fails, when what failed goes to standard error.
//
// The machine: the launcher's scenario (testbench/scenarios/launchers/mpirun.json) with the
// program, its arguments and mpi.ranks=N; unless --set gives the torus's dimensions, the
// smallest balanced torus whose nodes hold N ranks in the node mode (mpi.mode).
//
// Exit status: 0 when every rank called MPI_Finalize and returned 0 and every check passed;
// else the first failing rank's status (exit's, MPI_Abort's, 128 + a signal), 1 for any other
// failure (a deadlock, an MPI error, a checker), 2 for bad input.
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hs::cli {

class MpirunCommand {
 public:
  explicit MpirunCommand(CLI::App& app);
  ~MpirunCommand();
  // The exit code if mpirun was chosen, else nullopt.
  std::optional<int> dispatch();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// The torus dimensions (x, y, z) for `nodes` nodes: balanced factors, largest first.
std::vector<int> torus_for(int nodes);

}  // namespace hs::cli
