// Runs a program hybridsim drives (sbatch, squeue, gnuplot) and captures what it prints.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace hs::sweep {

struct CommandResult {
  bool started = false;  // false: the program was not found or could not be executed
  int exit_code = -1;
  std::string out, err;
};

// Looks `args[0]` up on PATH and waits for it; its standard input is empty.
CommandResult run_command(const std::vector<std::string>& args);

struct StartOptions {
  std::vector<std::string> env;  // "NAME=VALUE" added to the environment
  bool own_group = false;        // a process group of its own (terminal signals miss it)
  bool die_with_parent = false;  // SIGTERM when this process dies (no orphaned daemons)
};

// Starts `args` (args[0] looked up on PATH) in the background with its stdout and stderr in
// `log_path`. Returns its pid (reap it with waitpid); throws ToolError if it cannot fork. If
// the program cannot be executed, the child writes why to the log and exits 127.
pid_t start_logged(const std::vector<std::string>& args, const std::string& log_path,
                   const StartOptions& options = {});

// True if `program` is an executable on PATH.
bool on_path(const std::string& program);

}  // namespace hs::sweep
