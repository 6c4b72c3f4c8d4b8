// Checks a sweep against the model before any point runs: the scenario elaborates with the
// first point's values (so every parameter name exists), and every value of every axis is
// one its parameter accepts (type, range, choices); every stat names a report field or a
// statistic the elaborated model registers (workload results exist only after a run, so
// "results:PATH" stats are checked by the warning at the end of the sweep).
#pragma once
#include <string>

#include "testbench/sweep/sweep_file.h"

namespace hs::sweep {

// Adds every problem to `problems`. `spec` needs its scenario and axes (read_sweep leaves them
// empty when they are unsound). Elaborates a model in this process (never runs it), so call it
// at most once per process, before forking any point.
void check_against_model(const SweepSpec& spec, InputProblems& problems);

// Reads a sweep file and checks it against the model. Throws one InputError listing every
// problem of the file's structure and of its values, so a single run shows them all.
SweepSpec load_checked_sweep(const std::string& path);

}  // namespace hs::sweep
