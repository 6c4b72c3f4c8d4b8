// A single-node Slurm cluster on 127.0.0.1 for tests: munged, slurmctld and slurmd from
// Debian's munge and slurm-wlm, started in the foreground as this process's children from a
// slurm.conf generated in a fresh temporary directory (free ports, linuxproc process
// tracking, no task plugin, no cgroup.conf), and stopped by their pids. SLURM_CONF is set in
// this process's environment so that sbatch and squeue, and anything started from here,
// talk to it.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace hs::testing {

class LocalSlurm {
 public:
  // Starts the daemons and waits until the node is idle; throws std::runtime_error with the
  // daemons' logs if they do not come up.
  LocalSlurm();
  ~LocalSlurm();  // stops every daemon it started and removes the directory
  LocalSlurm(const LocalSlurm&) = delete;
  LocalSlurm& operator=(const LocalSlurm&) = delete;

  const std::string& dir() const { return dir_; }
  const std::string& conf() const { return conf_; }
  std::string partition() const { return "hstest"; }
  // The daemons' logs, for failure messages.
  std::string logs() const;

 private:
  pid_t spawn(const std::vector<std::string>& args, const std::string& log);
  void stop();

  std::string dir_, conf_;
  std::vector<pid_t> daemons_;  // in start order
};

}  // namespace hs::testing
