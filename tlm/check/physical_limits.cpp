#include "tlm/check/physical_limits.h"

#include <fmt/format.h>

#include "tlm/check/checker.h"

namespace hs {

const char* limit_check_name(Limit::Kind kind) {
  switch (kind) {
    case Limit::Kind::Utilisation:
      return kUtilisationLimit;
    case Limit::Kind::LineRate:
      return kLineRateLimit;
    case Limit::Kind::PortBandwidth:
      return kPortBandwidthLimit;
    case Limit::Kind::Capacity:
      return kCapacityLimit;
  }
  return kUtilisationLimit;
}

bool within_limit(const Limit::Reading& r) {
  return r.measured <= (r.ceiling + r.allowance) * (1 + kLimitTolerance);
}

namespace {

std::string describe(const Limit& l, const Limit::Reading& r, const sc_core::sc_time& end) {
  const double window_ns = static_cast<double>(end.value()) / 1e3;
  switch (l.kind) {
    case Limit::Kind::Utilisation:
      return fmt::format("{} is {:.9g} over the run's {:.12g} ns: busy more than all the time",
                         l.stat, r.measured, window_ns);
    case Limit::Kind::LineRate:
      return fmt::format(
          "{} moved {:.9g} {} over the run's {:.12g} ns, above the line rate of {:.9g} {}", l.stat,
          r.measured, l.unit, window_ns, r.ceiling, l.unit);
    case Limit::Kind::PortBandwidth:
      return fmt::format(
          "{} moved {:.9g} {} over the run's {:.12g} ns, above the port bandwidth of {:.9g} {}",
          l.stat, r.measured, l.unit, window_ns, r.ceiling, l.unit);
    case Limit::Kind::Capacity:
      return fmt::format("{} held {:.9g} {} at its peak, above its capacity of {:.9g}", l.stat,
                         r.measured, l.unit, r.ceiling);
  }
  return l.stat;
}

}  // namespace

void check_physical_limits(const sc_core::sc_time& end, bool own_only) {
  auto& registry = CheckRegistry::instance();
  Check* checks[] = {&registry.check(kUtilisationLimit), &registry.check(kLineRateLimit),
                     &registry.check(kPortBandwidthLimit), &registry.check(kCapacityLimit)};
  for (const StatGroup* g : StatsRegistry::instance().all_groups()) {
    if (own_only && g->place() < 0) continue;
    g->settle(end);
    for (const Limit& l : g->limits()) {
      const Limit::Reading r = l.read(end);
      HS_EXPECT(*checks[static_cast<int>(l.kind)], within_limit(r), g->path(), describe(l, r, end));
    }
  }
}

}  // namespace hs
