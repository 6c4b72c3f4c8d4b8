// Protocol and model invariants, each under a readable name ("torus routing: every hop is
// minimal"), with how often it was evaluated and how often it failed. A violation is recorded
// with its check, time and component and stops the simulation; the run then exits with code 1.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "tlm/parallel/bytes.h"

namespace hs {

// One named invariant and its tallies.
struct Check {
  std::string name;
  uint64_t evaluations = 0, failures = 0;
  // Set when the check applied but could not run (the work it checks was cut short). A check
  // with no evaluations and no such reason did not apply to the run.
  std::string not_run;
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
  // A checker replaying a log of events (a parallel run's, at each window's end:
  // docs/parallel.md) records its violations at the time of the event replayed, as the run
  // that watched the event live does, not at the window's end; nullopt returns to the
  // simulated time.
  void replaying_at(std::optional<sc_core::sc_time> at) { replay_at_ = at; }
  // A run stopped before its work was done (sim.stop_at, sim.time_limit, a signal, or a
  // violation or error that stopped the kernel): checks that need the work to be finished
  // (every packet delivered, every message's data compared) do not run; they are reported as
  // not run, never as failed.
  void set_cut_short(bool s) { cut_short_ = s; }
  bool cut_short() const { return cut_short_; }
  // One evaluation of a check of finished work (data compared, every packet delivered), made
  // at the end of the run. On a run cut short it is only registered, so the report lists it as
  // not run: the work it checks was never finished, which is not a failure of the model.
  // `message` is built only when the check fails.
  template <class Message>
  void check_finished_work(const std::string& name, bool ok, const std::string& component,
                           Message message) {
    Check& c = check(name);
    if (cut_short_) {
      c.not_run = "the run ended before the work it checks was done";
      return;
    }
    ++c.evaluations;
    if (!ok) fail(c, component, message());
  }
  const std::vector<Violation>& violations() const { return violations_; }
  // Names of the checks that failed, in order of first failure, each once.
  std::vector<std::string> failed_checks() const;
  // {"passed", "violations": [{check, component, message, time_ns}],
  //  "invariants": [{name, evaluations, failures, passed, [not_run]}] (sorted by name)}.
  nlohmann::json to_json() const;
  // A parallel run: every partition's tallies and violations, added to this process's (the
  // one that reports). Violations stay in the order of simulated time, as one process records
  // them; same-time violations of different partitions keep partition order.
  Bytes save() const;
  void merge(const Bytes& partition);

 private:
  std::vector<Violation> violations_;
  std::map<std::string, Check> checks_;  // map nodes never move: references stay valid
  bool cut_short_ = false;
  std::optional<sc_core::sc_time> replay_at_;
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
