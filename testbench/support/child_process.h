// Runs work that builds its own SystemC model in a forked child process (a kernel elaborates
// once per process) and returns the JSON it produced, or an object with "error" if it threw
// or died. Used by benchmarks and by tests that sweep many seeds.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>

namespace hs::testing {

nlohmann::json run_in_child(const std::function<nlohmann::json()>& work);

}  // namespace hs::testing
