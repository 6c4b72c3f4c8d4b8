// Checks a sweep against the model before any point runs: the scenario elaborates with the
// first point's values (so every parameter name exists), and every value of every axis is
// one its parameter accepts (type, range, choices).
#pragma once
#include "testbench/sweep/sweep_file.h"

namespace hs::sweep {

// Throws InputError listing every problem. Elaborates a model in this process (never runs
// it), so call it at most once per process, before forking any point.
void check_against_model(const SweepSpec& spec);

}  // namespace hs::sweep
