#include "tlm/check/liveness.h"

#include <fmt/format.h>
// sc_spawn, which <systemc> declares only with SC_INCLUDE_DYNAMIC_PROCESSES.
#include <sysc/kernel/sc_dynamic_processes.h>

#include "tlm/check/checker.h"
#include "tlm/params/param_registry.h"

namespace hs {

LivenessCheck::LivenessCheck(const ParamScope& scope, std::string unit,
                             std::function<std::string()> describe, double default_timeout_ns)
    : unit_(std::move(unit)),
      describe_(std::move(describe)),
      origin_(unit_ + ".liveness"),
      deadline_(origin_) {
  const double ns = scope.real("liveness_timeout", default_timeout_ns, "ns",
                               "longest time with work outstanding and no progress before the "
                               "run fails as stuck (0: off)",
                               Range::between(0, 1e12));
  timeout_ = sc_core::sc_time(ns, sc_core::SC_NS);
  if (ns == 0) return;
  CheckRegistry::instance().check(kLivenessCheck);  // listed in reports even when it passes
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.set_sensitivity(&deadline_.event());
  opts.dont_initialize();
  sc_core::sc_spawn([this] { expire(); }, sc_core::sc_gen_unique_name("liveness"), &opts);
}

void LivenessCheck::busy() {
  if (busy_) return;
  busy_ = true;
  last_progress_ = sc_core::sc_time_stamp();
  if (timeout_ > sc_core::SC_ZERO_TIME) deadline_.ring_in(timeout_);
}

void LivenessCheck::idle() {
  busy_ = false;
  deadline_.cancel();
}

void LivenessCheck::expire() {
  if (!busy_) return;
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  Check& check = CheckRegistry::instance().check(kLivenessCheck);
  ++check.evaluations;
  if (now - last_progress_ < timeout_) {
    deadline_.ring_in(last_progress_ + timeout_ - now);
    return;
  }
  CheckRegistry::instance().fail(
      check, unit_,
      fmt::format("stuck: no progress for {:.0f} ns with work outstanding: {}",
                  (now - last_progress_).to_seconds() * 1e9, describe_()));
}

}  // namespace hs
