// Error kinds that map to hybridsim's exit codes: model failures (1), bad input (2), and
// failures of external tools (3).
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

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

// Gathers the problems of one input so a single run reports them all, not only the first.
class InputProblems {
 public:
  void add(const std::string& problem) { list_.push_back(problem); }
  // Runs `check`; an InputError it throws is recorded instead of propagated. Returns whether
  // the check passed, so dependent checks can be skipped.
  template <class Check>
  bool attempt(Check&& check) {
    try {
      check();
      return true;
    } catch (const InputError& e) {
      add(e.what());
      return false;
    }
  }
  bool empty() const { return list_.empty(); }
  // Throws one InputError listing every problem, a line each.
  void throw_if_any() const {
    if (list_.empty()) return;
    std::string all;
    for (const auto& p : list_) all += (all.empty() ? "" : "\n") + p;
    throw InputError(all);
  }

 private:
  std::vector<std::string> list_;
};

}  // namespace hs
