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
  violations_.push_back(
      {check.name, component, message, replay_at_.value_or(sc_core::sc_time_stamp())});
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

Bytes CheckRegistry::save() const {
  ByteWriter w;
  w.put<uint64_t>(checks_.size());
  for (const auto& [name, c] : checks_) {
    w.put_string(name);
    w.put(c.evaluations);
    w.put(c.failures);
    w.put_string(c.not_run);
  }
  w.put<uint64_t>(violations_.size());
  for (const auto& v : violations_) {
    w.put_string(v.check);
    w.put_string(v.component);
    w.put_string(v.message);
    w.put(v.at.value());
  }
  return w.take();
}

void CheckRegistry::merge(const Bytes& partition) {
  ByteReader r(partition);
  for (auto n = r.get<uint64_t>(); n > 0; --n) {
    Check& c = check(r.get_string());
    c.evaluations += r.get<uint64_t>();
    c.failures += r.get<uint64_t>();
    const std::string not_run = r.get_string();
    if (c.not_run.empty()) c.not_run = not_run;
  }
  for (auto n = r.get<uint64_t>(); n > 0; --n) {
    Violation v;
    v.check = r.get_string();
    v.component = r.get_string();
    v.message = r.get_string();
    v.at = sc_core::sc_time::from_value(r.get<uint64_t>());
    violations_.push_back(std::move(v));
  }
  // Each partition's list is in time order: a stable sort interleaves them by time.
  std::stable_sort(violations_.begin(), violations_.end(),
                   [](const Violation& a, const Violation& b) { return a.at < b.at; });
}

}  // namespace hs
