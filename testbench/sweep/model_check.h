// Checks a sweep against the model before any point runs: the scenario elaborates with the
// first point's values (so every parameter name exists), and every value of every axis is
// one its parameter accepts (type, range, choices); every stat names a report field, a
// statistic the elaborated model registers, or a result its workload declares
// ("results:PATH").
#pragma once
#include <string>
#include <vector>

#include "testbench/sweep/sweep_file.h"

namespace hs::sweep {

// Adds every problem to `problems`. `spec` needs its scenario and axes (read_sweep leaves them
// empty when they are unsound). Elaborates a model in this process (never runs it), so call it
// at most once per process, before forking any point.
void check_against_model(const SweepSpec& spec, InputProblems& problems);

// Reads a sweep file and checks it against the model. Throws one InputError listing every
// problem of the file's structure and of its values, so a single run shows them all. `sets`
// ("NAME=VALUE", from --set) fix parameters at every point, beside the file's "fixed".
SweepSpec load_checked_sweep(const std::string& path, const std::vector<std::string>& sets = {});

}  // namespace hs::sweep
