// A resource that serves one occupancy at a time, in the order requests reach it: a wire, a
// memory port, a bus ring. Requests reserve it from their ready time; a busy resource makes
// them start later, which is how contention and back-pressure arise in the model.
#pragma once
#include <algorithm>
#include <systemc>

namespace hs {

class SerialResource {
 public:
  // Occupies the resource for `duration` from the first instant >= `ready` it is free.
  // Returns the start of the occupancy.
  sc_core::sc_time reserve(const sc_core::sc_time& ready, const sc_core::sc_time& duration) {
    sc_core::sc_time start = std::max(ready, free_at_);
    free_at_ = start + duration;
    return start;
  }
  const sc_core::sc_time& free_at() const { return free_at_; }

 private:
  sc_core::sc_time free_at_ = sc_core::SC_ZERO_TIME;
};

}  // namespace hs
