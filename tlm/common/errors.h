// Error kinds that map to hybridsim's exit codes: model failures (1), bad input (2), and
// failures of external tools (3).
#pragma once
#include <stdexcept>
#include <string>

namespace hs {

// Something the user supplied is wrong (scenario file, parameter, command-line value).
// Raised before simulation starts wherever possible; exit code 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The model detected a violated invariant or a firmware fault during simulation; exit code 1.
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A program hybridsim drives on the user's behalf (gnuplot, Slurm's sbatch/squeue) is missing
// or failed; exit code 3.
class ToolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace hs
