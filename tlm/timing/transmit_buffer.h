// A transmitter's buffer of `depth` packets waiting for or on the wire. An initiator posting a
// packet waits while every slot holds a packet that has not finished serialising; this is
// the back-pressure a full link exerts on whoever feeds it.
#pragma once
#include <systemc>
#include <vector>

namespace hs {

class TransmitBuffer {
 public:
  explicit TransmitBuffer(size_t depth) : slot_free_(depth, sc_core::SC_ZERO_TIME) {}

  // Blocks the calling thread until a slot is free.
  void wait_for_slot() const {
    const sc_core::sc_time& free_at = slot_free_[next_];
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (free_at > now) sc_core::wait(free_at - now);
  }
  // Records that the packet just posted leaves the buffer at `end`; returns the occupancy.
  int occupy_until(const sc_core::sc_time& end) {
    slot_free_[next_] = end;
    next_ = (next_ + 1) % slot_free_.size();
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    int depth = 0;
    for (const auto& t : slot_free_) depth += t > now ? 1 : 0;
    return depth;
  }

 private:
  std::vector<sc_core::sc_time> slot_free_;  // ring, oldest slot at next_
  size_t next_ = 0;
};

}  // namespace hs
