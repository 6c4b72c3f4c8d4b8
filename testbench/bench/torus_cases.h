// Torus machine benchmark cases (model accuracy against analytic limits, protocol latency
// versus message size, simulation speed; scale has its own case, torus_scale_case.h). Each case
// runs its scenarios in child processes and returns its figures as JSON; print_torus_summary writes
// the readable lines.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hs::bench {

// Case names this file provides, and the case runner (nullopt-like: empty JSON if unknown).
const std::vector<std::string>& torus_cases();
nlohmann::json run_torus_case(const std::string& name);
void print_torus_summary(const nlohmann::json& all);
// True if the load sweep ran and some point failed its run or its steady-window check (the
// halves of a window disagree by more than 5%).
bool torus_load_sweep_failed(const nlohmann::json& all);

}  // namespace hs::bench
