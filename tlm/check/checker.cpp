#include "tlm/check/checker.h"

namespace hs {

CheckRegistry& CheckRegistry::instance() {
  static CheckRegistry registry;
  return registry;
}

void CheckRegistry::fail(const std::string& component, const std::string& message) {
  violations_.push_back({component, message, sc_core::sc_time_stamp()});
  // Pause rather than stop: the runner can then unwind the threads still suspended.
  if (sc_core::sc_is_running()) sc_core::sc_pause();
}

nlohmann::json CheckRegistry::to_json() const {
  nlohmann::json v = nlohmann::json::array();
  for (const auto& x : violations_) {
    v.push_back(
        {{"component", x.component}, {"message", x.message}, {"time_ns", x.at.to_seconds() * 1e9}});
  }
  return {{"passed", ok()}, {"violations", v}, {"evaluations", checks_}};
}

}  // namespace hs
