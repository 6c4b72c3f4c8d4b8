#include "testbench/sweep/model_check.h"

#include <fmt/format.h>

#include "testbench/runner/simulation.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::sweep {

void check_against_model(const SweepSpec& spec) {
  const auto points = expand(spec);
  runner::RunOptions o;
  o.scenario = spec.scenario;
  o.sets = points.front().assignments(spec);
  o.quiet = true;
  try {
    runner::Simulation sim(o);  // elaborates and checks every parameter; never runs
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: scenario '{}' with the first point's values:\n{}", spec.path,
                                 spec.scenario, e.what()));
  }
  std::string problems;
  const auto& registry = ParamRegistry::instance();
  for (const auto& axis : spec.axes) {
    for (size_t n = 0; n < axis.names.size(); ++n) {
      for (const auto& v : axis.values[n]) {
        const std::string why = registry.check_value(axis.names[n], v);
        if (!why.empty()) {
          problems += fmt::format("{}{}: params.{}: value {}: {}", problems.empty() ? "" : "\n",
                                  spec.path, axis.names[n], v.dump(), why);
        }
      }
    }
  }
  if (!problems.empty()) throw InputError(problems);
}

}  // namespace hs::sweep
