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
  explicit TokenPool(uint32_t tokens) : free_(tokens), capacity_(tokens) {}

  // Blocks the calling thread until it holds a token.
  void acquire() {
    if (free_ > 0 && waiters_.empty()) {
      --free_;
      return;
    }
    Waiter w{false, events_.take()};
    waiters_.push_back(&w);
    while (!w.granted) sc_core::wait(*w.granted_event);
    events_.give(w.granted_event);
  }
  // Returns a token (from any process kind); the oldest waiter, if any, receives it.
  void release() {
    if (waiters_.empty()) {
      ++free_;
      return;
    }
    Waiter* w = waiters_.front();
    waiters_.pop_front();
    w->granted = true;
    w->granted_event->notify(sc_core::SC_ZERO_TIME);
  }
  uint32_t in_use() const { return capacity_ - free_; }
  uint32_t capacity() const { return capacity_; }

 private:
  struct Waiter {
    bool granted;
    sc_core::sc_event* granted_event;
  };
  uint32_t free_;
  uint32_t capacity_;
  std::deque<Waiter*> waiters_;
  EventPool events_;
};

}  // namespace hs
