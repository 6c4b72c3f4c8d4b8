#include "testbench/sweep/model_check.h"

#include <fmt/format.h>

#include "testbench/runner/simulation.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"

namespace hs::sweep {

void check_against_model(const SweepSpec& spec, InputProblems& problems) {
  SweepPoint first;  // each axis's first value; the seed does not matter to elaboration
  for (const auto& axis : spec.axes) {
    for (const auto& values : axis.values) first.values.push_back(values.front());
  }
  runner::RunOptions o;
  o.scenario = spec.scenario;
  o.sets = first.assignments(spec);
  o.sets_source = spec.path + ": sweep value";
  o.quiet = true;
  // Elaboration checks the fixed values and every axis's first value (names, types, ranges)
  // and lists all it finds; the registry it fills then checks every later value, so one run
  // reports every problem even when the first point is already wrong.
  problems.attempt([&] {
    try {
      runner::Simulation sim(o);  // elaborates and checks every parameter; never runs
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}: scenario '{}' with the first point's values:\n{}",
                                   spec.path, spec.scenario, e.what()));
    }
  });
  const auto& registry = ParamRegistry::instance();
  for (const auto& axis : spec.axes) {
    for (size_t n = 0; n < axis.names.size(); ++n) {
      for (size_t k = 1; k < axis.values[n].size(); ++k) {
        const auto& v = axis.values[n][k];
        const std::string why = registry.check_value(axis.names[n], v);
        if (!why.empty()) {
          problems.add(
              fmt::format("{}: params.{}: value {}: {}", spec.path, axis.names[n], v.dump(), why));
        }
      }
    }
  }
}

SweepSpec load_checked_sweep(const std::string& path) {
  InputProblems problems;
  SweepSpec spec = read_sweep(path, problems);
  if (!spec.scenario.empty() && !spec.axes.empty()) check_against_model(spec, problems);
  problems.throw_if_any();
  return spec;
}

}  // namespace hs::sweep
