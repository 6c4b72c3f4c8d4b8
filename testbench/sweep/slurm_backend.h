// The Slurm backend: a sweep's pending points go to one job array (`sbatch --array`), one
// array task per chunk of points; each task runs `hybridsim sweep-task`, which runs its
// points with the same point pool as a local sweep and records them in the sweep directory
// (which must be on a file system the compute nodes share). The submitting process polls
// `squeue` and the records until the job has left the queue, or detaches and leaves that
// to `hybridsim collect`.
//
//   DIR/slurm/current.json          the job in flight: id, submission folder, chunks
//   DIR/slurm/submit-N/job.sh       the batch script as submitted (resubmittable by hand)
//   DIR/slurm/submit-N/tasks.json   which points each array task runs
//   DIR/slurm/submit-N/task-T.out   each array task's output
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "testbench/sweep/point_store.h"
#include "testbench/sweep/sweep_command.h"
#include "testbench/sweep/sweep_file.h"

namespace hs::sweep {

struct SlurmJob {
  std::string id;
  std::string submit_dir;
  size_t tasks = 0;
  std::vector<std::vector<std::string>> chunks;  // point keys, per array task
  std::vector<std::string> keys() const;
};

// Throws InputError unless `t` is a Slurm time limit: minutes, MM:SS, HH:MM:SS, D-HH,
// D-HH:MM or D-HH:MM:SS.
void check_slurm_time(const std::string& t);

// Submits `points` (none: submits nothing and returns an empty job). Throws ToolError if
// sbatch is missing or refuses the job, with sbatch's message.
SlurmJob submit_to_slurm(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                         const SweepOptions& opts);

// The job most recently submitted for the sweep in `dir`, if any.
std::optional<SlurmJob> current_slurm_job(const std::string& dir);

// True while any of the job's array tasks is pending, running or completing.
bool slurm_job_active(const SlurmJob& job);

// Shows progress (of a sweep of `total` points) until the job has left the queue; a point no
// task recorded is recorded as "lost", naming the task's output file.
void wait_for_slurm(const SlurmJob& job, const PointStore& store, size_t total, bool quiet,
                    double poll_seconds);

// Runs array task `task` of tasks file `tasks_file` (inside the allocation). Returns 0 if
// every point passed, else 1.
int run_slurm_task(const std::string& tasks_file, size_t task, const std::string& self);

}  // namespace hs::sweep
