// Clocks and rate arithmetic. Times are computed from the cycle or byte count in one step (not
// by adding rounded periods), so long runs do not accumulate rounding error.
#pragma once
#include <cmath>
#include <cstdint>
#include <systemc>

namespace hs {

// hybridsim keeps SystemC's default 1 ps time resolution, so a time value counts picoseconds.
inline sc_core::sc_time picoseconds(double ps) {
  return sc_core::sc_time::from_value(static_cast<sc_core::sc_time::value_type>(ps + 0.5));
}

// Time to move `bytes` at `bytes_per_second`.
inline sc_core::sc_time transfer_time(uint64_t bytes, double bytes_per_second) {
  return picoseconds(static_cast<double>(bytes) * 1e12 / bytes_per_second);
}

class Clock {
 public:
  explicit Clock(double hz = 1e9) : hz_(hz) {
    // A period of whole picoseconds (a 1.6 GHz bus: 625 ps) is counted in integers: the same
    // times as the floating-point forms below, exact at any length of run, and cheaper.
    const double p = 1e12 / hz;
    if (p >= 1 && p < 4e9 && p == std::floor(p)) {
      period_ps_ = static_cast<uint64_t>(p);
      period_ = picoseconds(p);
    }
  }
  double hz() const { return hz_; }
  sc_core::sc_time period() const { return cycles(1); }
  sc_core::sc_time cycles(uint64_t n) const {
    if (period_ps_) return period_ * static_cast<double>(n);  // exact below 2^53 ps
    return picoseconds(static_cast<double>(n) * 1e12 / hz_);
  }
  // Whole cycles elapsed at time t (a timebase register).
  uint64_t cycle_at(const sc_core::sc_time& t) const {
    if (period_ps_) return t.value() / period_ps_;
    return static_cast<uint64_t>(std::floor(t.to_seconds() * hz_ + 1e-6));
  }
  // The first cycle edge at or after t.
  uint64_t cycle_at_or_after(const sc_core::sc_time& t) const {
    if (period_ps_) return (t.value() + period_ps_ - 1) / period_ps_;
    // The nudge absorbs the rounding of a time that sits on an edge.
    const double c = std::ceil(t.to_seconds() * hz_ - 1e-6);
    return c > 0 ? static_cast<uint64_t>(c) : 0;
  }

 private:
  double hz_;
  uint64_t period_ps_ = 0;  // 0: the period is not a whole number of picoseconds
  sc_core::sc_time period_;
};

}  // namespace hs
