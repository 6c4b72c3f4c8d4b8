// Runs a program hybridsim drives (sbatch, squeue, gnuplot) and captures what it prints.
#pragma once
#include <string>
#include <vector>

namespace hs::sweep {

struct CommandResult {
  bool started = false;  // false: the program was not found or could not be executed
  int exit_code = -1;
  std::string out, err;
};

// Looks `args[0]` up on PATH; optionally feeds `input` to its standard input.
CommandResult run_command(const std::vector<std::string>& args, const std::string& input = "");

// True if `program` is an executable on PATH.
bool on_path(const std::string& program);

}  // namespace hs::sweep
