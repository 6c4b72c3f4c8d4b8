// A pool of identical tokens (read tags, buffer entries) handed out first come, first
// served. A released token goes straight to the oldest waiter, which alone wakes: no
// thundering herd when many threads wait, and no starvation.
#pragma once
#include <cstdint>
#include <deque>
#include <systemc>

#include "tlm/timing/event_pool.h"

namespace hs {

class TokenPool {
 public:
  explicit TokenPool(uint32_t tokens) : free_(tokens) {}

  // Blocks the calling thread until it holds a token.
  void acquire() {
    if (free_ > 0 && waiters_.empty()) {
      --free_;
      ++in_use_;
      return;
    }
    Waiter w{false, events_.take()};
    waiters_.push_back(&w);
    while (!w.granted) sc_core::wait(*w.granted_event);
    events_.give(w.granted_event);
  }
  // Returns a token (from any process kind); the oldest waiter, if any, receives it.
  void release() {
    --in_use_;
    if (waiters_.empty()) {
      ++free_;
      return;
    }
    Waiter* w = waiters_.front();
    waiters_.pop_front();
    w->granted = true;
    ++in_use_;  // handed straight to the waiter
    w->granted_event->notify(sc_core::SC_ZERO_TIME);
  }
  // Tokens held; a reference, so it can be traced as a signal.
  const uint32_t& in_use() const { return in_use_; }

 private:
  struct Waiter {
    bool granted;
    sc_core::sc_event* granted_event;
  };
  uint32_t free_;
  uint32_t in_use_ = 0;
  std::deque<Waiter*> waiters_;
  EventPool events_;
};

}  // namespace hs
