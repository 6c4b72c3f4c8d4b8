// Many small timed actions handled without a process of their own: a network of thousands of
// routers posts each packet hop, token return and arbitration here instead of creating a
// SystemC event per router. The heap is a lane of the timeline (timeline.h): its actions run
// in the order of (time, origin, the origin's sequence), merged with every other timed
// wake-up of the kernel, so two actions at one time are ordered by who posted them, never by
// what else is pending. Actions posted for the current instant while the timeline dispatches
// skip the heap: a FIFO keeps them in the order posted, after everything already due.
//
// An action may also carry an order made elsewhere (post_keyed): a message from another
// component keeps the place its sender gave it.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "tlm/kernel/now.h"
#include "tlm/timing/ordered_heap.h"
#include "tlm/timing/timeline.h"

namespace hs {

template <class Action>
class EventHeap : private TimelineLane {
 public:
  using Handler = std::function<void(const Action&)>;

  explicit EventHeap(Handler handler)
      : handler_(std::move(handler)), timeline_(Timeline::instance()) {
    timeline_.add_lane(this);
  }
  ~EventHeap() override { timeline_.remove_lane(this); }
  EventHeap(const EventHeap&) = delete;
  EventHeap& operator=(const EventHeap&) = delete;

  // Runs `a` at absolute time `at` (>= now) in `from`'s place in the order.
  void post(uint64_t at, Origin& from, const Action& a) { post_keyed(from.next(at), a); }
  void post_keyed(const Order& key, const Action& a) {
    if (timeline_.dispatching() && key.at == hs::now().value()) {
      now_queue_.push_back(Entry{key, a});
      if (Timeline::now_paths_kept()) now_paths_.push_back(timeline_.next_path());
      return;
    }
    heap_.push(Entry{key, a});
    timeline_.lane_changed(key.at);
  }
  // Whether an action of this order would have run by now.
  bool passed(const Order& key) const { return timeline_.passed(key); }
  void hold_until(uint64_t at) { timeline_.hold_until(at); }

  size_t pending() const { return heap_.size() + now_queue_.size() - now_head_; }
  uint64_t handled() const { return handled_; }

 private:
  struct Entry {
    Order key;
    Action action;
  };

  const Order* top() const override { return heap_.empty() ? nullptr : &heap_.top().key; }
  uint64_t run_due(uint64_t now, const Order& limit, Order& current) override {
    uint64_t ran = 0;
    const bool limited = limit.at <= now;  // another source has entries due now
    while (!heap_.empty() && heap_.top().key.at <= now && (!limited || heap_.top().key < limit)) {
      const Entry e = heap_.pop();
      current = e.key;
      if (Timeline::now_paths_kept()) timeline_.run_path(e.key);
      ++ran;
      handler_(e.action);
    }
    handled_ += ran;
    return ran;
  }
  uint64_t run_now_queue(Order& current) override {
    uint64_t ran = 0;
    while (now_head_ < now_queue_.size()) {
      const Entry e = now_queue_[now_head_++];
      current = e.key;
      if (Timeline::now_paths_kept()) timeline_.run_path(std::move(now_paths_[now_head_ - 1]));
      ++ran;
      handler_(e.action);
    }
    now_queue_.clear();
    now_paths_.clear();
    now_head_ = 0;
    handled_ += ran;
    return ran;
  }

  Handler handler_;
  Timeline& timeline_;
  OrderedHeap<Entry> heap_;
  std::vector<Entry> now_queue_;                  // actions posted for the instant being dispatched
  std::vector<std::vector<uint64_t>> now_paths_;  // their paths (Timeline::keep_now_paths)
  size_t now_head_ = 0;
  uint64_t handled_ = 0;
};

}  // namespace hs
