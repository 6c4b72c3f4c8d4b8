// Protocol and model invariant violations found during a run. A violation is recorded with
// its time and component and stops the simulation; the run then exits with code 1.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <systemc>
#include <vector>

namespace hs {

class CheckRegistry {
 public:
  static CheckRegistry& instance();

  struct Violation {
    std::string component, message;
    sc_core::sc_time at;
  };

  // Records a violation and asks the kernel to pause at the end of the current delta.
  void fail(const std::string& component, const std::string& message);
  // The evaluation counter of a named invariant (so reports show what was checked); the
  // reference stays valid for the life of the registry.
  uint64_t& evaluations(const std::string& invariant) { return checks_[invariant]; }

  bool ok() const { return violations_.empty(); }
  const std::vector<Violation>& violations() const { return violations_; }
  nlohmann::json to_json() const;

 private:
  std::vector<Violation> violations_;
  std::map<std::string, uint64_t> checks_;
};

// Evaluates an invariant; on failure records it against `component`. The counter is looked
// up once per call site, so a passing check costs an increment and the test.
#define HS_CHECK(cond, component, message)                                                       \
  do {                                                                                           \
    static uint64_t& hs_check_evaluations_ = ::hs::CheckRegistry::instance().evaluations(#cond); \
    ++hs_check_evaluations_;                                                                     \
    if (!(cond)) ::hs::CheckRegistry::instance().fail(component, message);                       \
  } while (0)

}  // namespace hs
