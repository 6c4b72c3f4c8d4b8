// Runs sweep points as `hybridsim run` processes, up to `jobs` at a time, and records each
// one in the point store as it finishes. A failing point is recorded with its error and the
// others go on. Used by the local backend and, inside each Slurm array task, by the Slurm
// backend, so both produce the same records.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "testbench/sweep/point_store.h"
#include "testbench/sweep/sweep_file.h"

namespace hs::sweep {

struct PoolStatus {
  size_t done = 0, failed = 0, running = 0;
  bool interrupted = false;  // SIGINT or SIGTERM: the rest were not started or were stopped
};

// How a point of a sweep with "processes": P > 1 is started: `mpirun -np P` on this machine,
// `srun --ntasks=P --mpi=pmix` inside a Slurm allocation (docs/parallel.md).
enum class PointLauncher { Local, Slurm };

// The command that runs `run_args` (hybridsim run ...) over `processes` processes.
std::vector<std::string> point_command(int processes, PointLauncher launcher,
                                       std::vector<std::string> run_args);

// `self` is the hybridsim executable. `on_change` is called after every start and finish,
// and once at the end. On SIGINT or SIGTERM no further point starts and the running ones are
// stopped unrecorded (the final status says `interrupted`), so a rerun resumes cleanly.
void run_points(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                const PointStore& store, const std::string& self, int jobs,
                const std::function<void(const PoolStatus&)>& on_change,
                PointLauncher launcher = PointLauncher::Local);

// The first line of a point's log that says what went wrong ("hybridsim: error: ...").
std::string first_error_line(const std::string& log_path);

}  // namespace hs::sweep
