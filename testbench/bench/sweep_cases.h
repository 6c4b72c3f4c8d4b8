// Sweep runner benchmark: what `hybridsim sweep` costs per point beyond the simulations it
// runs, and the wall time of a 100-point local sweep.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace hs::bench {

nlohmann::json run_sweep_case(const std::string& name);  // null if not a sweep case
void print_sweep_summary(const nlohmann::json& all);

}  // namespace hs::bench
