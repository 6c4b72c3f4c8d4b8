#include "tlm/check/checker.h"

#include <algorithm>

namespace hs {

CheckRegistry& CheckRegistry::instance() {
  static CheckRegistry registry;
  return registry;
}

Check& CheckRegistry::check(const std::string& name) {
  Check& c = checks_[name];
  c.name = name;
  return c;
}

void CheckRegistry::fail(Check& check, const std::string& component, const std::string& message) {
  ++check.failures;
  // A failure found outside an evaluation (a model error path) still counts as one.
  check.evaluations = std::max(check.evaluations, check.failures);
  violations_.push_back({check.name, component, message, sc_core::sc_time_stamp()});
  // Pause rather than stop: the runner can then unwind the threads still suspended.
  if (sc_core::sc_is_running()) sc_core::sc_pause();
}

std::vector<std::string> CheckRegistry::failed_checks() const {
  std::vector<std::string> names;
  for (const auto& v : violations_) {
    if (std::find(names.begin(), names.end(), v.check) == names.end()) names.push_back(v.check);
  }
  return names;
}

nlohmann::json CheckRegistry::to_json() const {
  nlohmann::json v = nlohmann::json::array();
  for (const auto& x : violations_) {
    v.push_back({{"check", x.check},
                 {"component", x.component},
                 {"message", x.message},
                 {"time_ns", x.at.to_seconds() * 1e9}});
  }
  nlohmann::json invariants = nlohmann::json::array();
  for (const auto& [name, c] : checks_) {
    nlohmann::json entry = {{"name", name},
                            {"evaluations", c.evaluations},
                            {"failures", c.failures},
                            {"passed", c.failures == 0}};
    if (!c.not_run.empty() && c.evaluations == 0) entry["not_run"] = c.not_run;
    invariants.push_back(std::move(entry));
  }
  return {{"passed", ok()}, {"violations", v}, {"invariants", invariants}};
}

}  // namespace hs
