// The physical limits every run respects, checked at its end over the window it covered
// ([0, end], a time-limited run's included): no resource busy more than all the time, no link
// above its line rate, no memory port above its bandwidth, no buffer holding more than it has
// room for. Components declare each limit next
// to the statistic it bounds (tlm/stats/statistics.h); this evaluates every declared limit of
// every statistic group, reported or detached, as one evaluation of its named check, and
// records a violation against the group naming the statistic and the figures.
#pragma once
#include <systemc>

#include "tlm/stats/statistics.h"

namespace hs {

inline constexpr const char* kUtilisationLimit = "physical limits: no resource busy over 100%";
inline constexpr const char* kLineRateLimit = "physical limits: no link above its line rate";
inline constexpr const char* kPortBandwidthLimit =
    "physical limits: no memory port above its bandwidth";
inline constexpr const char* kCapacityLimit = "physical limits: no buffer above its capacity";

// A reading passes if it is within its ceiling plus allowance, to a relative 1e-9 (so a run
// that saturates a resource exactly is not failed by rounding in the arithmetic).
inline constexpr double kLimitTolerance = 1e-9;

const char* limit_check_name(Limit::Kind kind);
bool within_limit(const Limit::Reading& r);

// Evaluates every declared limit over [0, end]. Each check is registered even if nothing in
// the model declares a limit of its kind, so every report lists all four. A partition of a
// parallel run other than the reporting one checks only the groups it alone built
// (`own_only`: StatGroup::place() >= 0); the reporting one checks the rest once merged.
void check_physical_limits(const sc_core::sc_time& end, bool own_only = false);

}  // namespace hs
