// The liveness check of a unit that takes work (a DMA engine): while it has work outstanding
// it must advance it at least once every `liveness_timeout`; a unit that does not is stuck,
// and the run fails naming it and its outstanding work.
//
// Rules it keeps:
// - No events while the unit is idle: the deadline is armed when work arrives (busy()) and
//   cancelled when the last of it finishes (idle()), so a run's end time is unchanged.
// - progress() only notes the time; the deadline, when reached, re-arms from the last
//   progress, so a busy unit costs one event per timeout, not one per step.
// Parameter, under the unit's scope: `liveness_timeout` (ns; 0: off).
#pragma once
#include <functional>
#include <string>
#include <systemc>

#include "tlm/timing/timeline.h"

namespace hs {

class ParamScope;

// The check's name in reports.
constexpr const char* kLivenessCheck = "liveness: a unit with work outstanding makes progress";

class LivenessCheck {
 public:
  // `describe` states the outstanding work for the report ("2 requests, the first at 0x...").
  LivenessCheck(const ParamScope& scope, std::string unit, std::function<std::string()> describe,
                double default_timeout_ns);
  void busy();
  void progress() { last_progress_ = sc_core::sc_time_stamp(); }
  void idle();
  const sc_core::sc_time& timeout() const { return timeout_; }

 private:
  void expire();
  std::string unit_;
  std::function<std::string()> describe_;
  sc_core::sc_time timeout_;
  sc_core::sc_time last_progress_;
  bool busy_ = false;
  Origin origin_;
  Alarm deadline_;
};

}  // namespace hs
