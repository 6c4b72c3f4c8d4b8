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
  explicit Clock(double hz = 1e9) : hz_(hz) {}
  double hz() const { return hz_; }
  sc_core::sc_time period() const { return cycles(1); }
  sc_core::sc_time cycles(uint64_t n) const {
    return picoseconds(static_cast<double>(n) * 1e12 / hz_);
  }
  // Whole cycles elapsed at time t (a timebase register).
  uint64_t cycle_at(const sc_core::sc_time& t) const {
    return static_cast<uint64_t>(std::floor(t.to_seconds() * hz_ + 1e-6));
  }

 private:
  double hz_;
};

}  // namespace hs
