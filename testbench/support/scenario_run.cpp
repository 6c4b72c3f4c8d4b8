#include "testbench/support/scenario_run.h"

#include <sstream>

#include "testbench/runner/simulation.h"
#include "testbench/support/child_process.h"

namespace hs::testing {

namespace {
nlohmann::json run_here(runner::RunOptions o) {
  o.quiet = true;
  runner::Simulation sim(o);
  std::ostringstream ignored;
  sim.run(ignored);
  return sim.report();
}
}  // namespace

nlohmann::json run_scenario_here(const std::string& scenario, const std::vector<std::string>& sets,
                                 std::optional<uint64_t> seed) {
  runner::RunOptions o;
  o.scenario = scenario;
  o.sets = sets;
  o.seed = seed;
  return run_here(o);
}

nlohmann::json run_scenario(const runner::RunOptions& options) {
  return run_in_child([&] { return run_here(options); });
}

nlohmann::json run_scenario(const std::string& scenario, const std::vector<std::string>& sets,
                            std::optional<uint64_t> seed) {
  return run_in_child([&] { return run_scenario_here(scenario, sets, seed); });
}

}  // namespace hs::testing
