#include "testbench/sweep/model_check.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>
#include <set>

#include "testbench/runner/simulation.h"
#include "tlm/common/errors.h"
#include "tlm/params/param_registry.h"
#include "tlm/stats/statistics.h"

namespace hs::sweep {

namespace {

// Report fields a run always writes (runner/simulation.cpp).
const std::set<std::string> kReportFields = {
    "hybridsim",         "scenario", "description", "machine", "workload", "seed", "status",
    "simulated_time_ns", "results",  "checks",      "params",  "stats",    "run"};

// "name.part": one figure of a histogram or an occupancy, as the statistics CSV names it.
bool names_a_figure(const StatGroup& g, const std::string& name) {
  const auto dot = name.rfind('.');
  if (dot == std::string::npos || !g.has(name.substr(0, dot))) return false;
  const std::string part = name.substr(dot + 1);
  return part == "mean" || part == "count" || part == "min" || part == "max" || part == "peak";
}

// A stat naming a report field, a component statistic or a result is checked against the
// elaborated model: every component registers its statistics when it is built, and the
// workload declares its results when it is installed.
void check_stats(const SweepSpec& spec, const runner::Simulation& sim, InputProblems& problems) {
  const auto& results = sim.model().results_declared;
  const auto& stats = StatsRegistry::instance();
  for (const auto& stat : spec.stats) {
    const auto colon = stat.find(':');
    if (colon == std::string::npos) {
      if (!kReportFields.count(stat)) {
        problems.add(fmt::format("{}: stat '{}' is not a report field (fields: {})", spec.path,
                                 stat, fmt::join(kReportFields, ", ")));
      }
      continue;
    }
    const std::string group = stat.substr(0, colon), name = stat.substr(colon + 1);
    if (group == "results") {
      if (!results.find(name)) {
        const std::string near = results.closest(name);
        problems.add(fmt::format(
            "{}: stat '{}': workload '{}' reports no result '{}'{} (hybridsim stats {} lists "
            "them)",
            spec.path, stat, sim.scenario().workload, name,
            near.empty() ? "" : " (did you mean 'results:" + near + "'?)", spec.scenario));
      }
      continue;
    }
    const StatGroup* g = stats.find(group);
    if (!g) {
      problems.add(fmt::format("{}: stat '{}': scenario '{}' has no component '{}' with statistics",
                               spec.path, stat, spec.scenario, group));
    } else if (!g->has(name) && !names_a_figure(*g, name)) {
      problems.add(fmt::format("{}: stat '{}': component '{}' has no statistic '{}'", spec.path,
                               stat, group, name));
    }
  }
}

}  // namespace

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
    std::unique_ptr<runner::Simulation> sim;
    try {
      sim = std::make_unique<runner::Simulation>(o);  // elaborates and checks; never runs
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}: scenario '{}' with the first point's values:\n{}",
                                   spec.path, spec.scenario, e.what()));
    }
    check_stats(spec, *sim, problems);  // while the model's statistics are registered
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

SweepSpec load_checked_sweep(const std::string& path, const std::vector<std::string>& sets) {
  InputProblems problems;
  SweepSpec spec = read_sweep(path, problems);
  // --set NAME=VALUE fixes a parameter at every point, as the file's "fixed" does; a parameter
  // the file sweeps cannot also be fixed.
  const auto swept = spec.swept_names();
  for (const auto& a : sets) {
    problems.attempt([&] {
      const auto eq = a.find('=');
      if (eq == std::string::npos || eq == 0) {
        throw InputError(fmt::format("--set: expected NAME=VALUE, got '{}'", a));
      }
      const std::string name = a.substr(0, eq), text = a.substr(eq + 1);
      if (std::find(swept.begin(), swept.end(), name) != swept.end()) {
        throw InputError(
            fmt::format("--set {}: {} sweeps '{}'; drop it from --set, or from the file's axes", a,
                        path, name));
      }
      nlohmann::json value = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
      if (value.is_discarded() || value.is_null() || value.is_structured()) value = text;
      spec.fixed[name] = value;
    });
  }
  if (!spec.scenario.empty() && !spec.axes.empty()) check_against_model(spec, problems);
  problems.throw_if_any();
  return spec;
}

}  // namespace hs::sweep
