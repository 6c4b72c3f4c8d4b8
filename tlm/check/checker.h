// Protocol and model invariants, each under a readable name ("torus routing: every hop is
// minimal"), with how often it was evaluated and how often it failed. A violation is recorded
// with its check, time and component and stops the simulation; the run then exits with code 1.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <systemc>
#include <vector>

namespace hs {

// One named invariant and its tallies.
struct Check {
  std::string name;
  uint64_t evaluations = 0, failures = 0;
};

class CheckRegistry {
 public:
  static CheckRegistry& instance();

  struct Violation {
    std::string check, component, message;
    sc_core::sc_time at;
  };

  // The invariant called `name`, registered on first use (so a report lists it even before it
  // is evaluated); the reference stays valid for the life of the registry.
  Check& check(const std::string& name);
  // Records a violation of `check` and asks the kernel to pause at the end of the current delta.
  void fail(Check& check, const std::string& component, const std::string& message);
  void fail(const std::string& check_name, const std::string& component,
            const std::string& message) {
    fail(check(check_name), component, message);
  }

  bool ok() const { return violations_.empty(); }
  // A run stopped cleanly at a fixed time (sim.stop_at) with work in progress: checks that
  // need the work to be finished (every packet delivered, every firmware done) do not apply.
  void set_stopped_with_work_left(bool s) { stopped_with_work_left_ = s; }
  bool stopped_with_work_left() const { return stopped_with_work_left_; }
  const std::vector<Violation>& violations() const { return violations_; }
  // Names of the checks that failed, in order of first failure, each once.
  std::vector<std::string> failed_checks() const;
  // {"passed", "violations": [{check, component, message, time_ns}],
  //  "invariants": [{name, evaluations, failures, passed}] (sorted by name)}.
  nlohmann::json to_json() const;

 private:
  std::vector<Violation> violations_;
  std::map<std::string, Check> checks_;  // map nodes never move: references stay valid
  bool stopped_with_work_left_ = false;
};

// Evaluates `cond` as one evaluation of `check` (a Check&); on failure records it against
// `component`. `message` is only built when the check fails.
#define HS_EXPECT(check, cond, component, message)                                \
  do {                                                                            \
    ::hs::Check& hs_expect_check_ = (check);                                      \
    ++hs_expect_check_.evaluations;                                               \
    if (!(cond)) {                                                                \
      ::hs::CheckRegistry::instance().fail(hs_expect_check_, component, message); \
    }                                                                             \
  } while (0)

// The same with the check named by a string; it is looked up once per call site, so a
// passing check costs an increment and the test.
#define HS_CHECK(cond, check_name, component, message)                                 \
  do {                                                                                 \
    static ::hs::Check& hs_check_ = ::hs::CheckRegistry::instance().check(check_name); \
    HS_EXPECT(hs_check_, cond, component, message);                                    \
  } while (0)

}  // namespace hs
