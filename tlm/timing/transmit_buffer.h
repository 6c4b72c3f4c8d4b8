// A transmitter's buffer of `depth` packets waiting for or on the wire. A poster whose local
// time finds every slot holding a packet that has not finished serialising blocks until the
// oldest one leaves; posters that block are served in arrival order, one wake-up each.
// This is the back-pressure a busy link exerts on whoever feeds it.
#pragma once
#include <algorithm>
#include <deque>
#include <systemc>
#include <vector>

#include "tlm/kernel/now.h"
#include "tlm/timing/event_pool.h"

namespace hs {

class TransmitBuffer {
 public:
  explicit TransmitBuffer(size_t depth) : slot_free_(depth, sc_core::SC_ZERO_TIME) {}

  // Moves the caller's local time `local` (>= now) to when it may claim a slot, blocking the
  // calling thread if it must wait. The caller then claims with occupy_until() before it
  // waits for anything else.
  void wait_for_slot(sc_core::sc_time& local) {
    if (waiters_.empty() && !claim_pending_ && slot_free_[next_] <= local) return;
    Waiter w{events_.take()};
    waiters_.push_back(&w);
    if (waiters_.size() == 1 && !claim_pending_) wake_front_when_free(now());
    sc_core::wait(*w.turn_event);  // notified once, when it is first and the slot has freed
    events_.give(w.turn_event);
    waiters_.pop_front();   // it is the front; it must not outlive this frame in the queue
    claim_pending_ = true;  // no one may claim before it does
    local = std::max(local, now());
  }

  // Records that the packet just posted (at time `t_now`) leaves the buffer at `end`; returns
  // the occupancy.
  int occupy_until(const sc_core::sc_time& end, const sc_core::sc_time& t_now) {
    slot_free_[next_] = end;
    next_ = (next_ + 1) % slot_free_.size();
    claim_pending_ = false;
    if (!waiters_.empty()) wake_front_when_free(t_now);
    return static_cast<int>(std::count_if(slot_free_.begin(), slot_free_.end(),
                                          [&](const sc_core::sc_time& t) { return t > t_now; }));
  }

 private:
  struct Waiter {
    sc_core::sc_event* turn_event;
  };
  void wake_front_when_free(const sc_core::sc_time& t_now) {
    Waiter* w = waiters_.front();
    const sc_core::sc_time& at = slot_free_[next_];
    w->turn_event->notify(at > t_now ? at - t_now : sc_core::SC_ZERO_TIME);
  }

  std::vector<sc_core::sc_time> slot_free_;  // ring, oldest slot at next_
  size_t next_ = 0;
  std::deque<Waiter*> waiters_;  // blocked posters, oldest first
  bool claim_pending_ = false;   // the woken poster has not claimed its slot yet
  EventPool events_;
};

}  // namespace hs
