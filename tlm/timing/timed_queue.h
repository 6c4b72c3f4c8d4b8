// Items in flight that must be handed over at their arrival time, in arrival order: packets
// on a wire, completions on their way back. A spawned method fires at each arrival, so
// delivery costs no thread switch. Arrival times must be pushed in non-decreasing order
// (true for any FIFO channel); a violation is a model bug.
#pragma once
#include <deque>
#include <functional>
#include <stdexcept>
#include <string>
#include <systemc>
#include <utility>

namespace hs {

template <class T>
class TimedQueue {
 public:
  using Handler = std::function<void(T&)>;

  // Must be constructed during elaboration (inside the owning module's constructor).
  TimedQueue(const char* name, Handler on_arrival) : on_arrival_(std::move(on_arrival)) {
    sc_core::sc_spawn_options opts;
    opts.spawn_method();
    opts.set_sensitivity(&event_);
    opts.dont_initialize();
    sc_core::sc_spawn([this] { fire(); }, sc_core::sc_gen_unique_name(name), &opts);
  }

  void push(const sc_core::sc_time& at, T item) {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (at < now || (!items_.empty() && at < items_.back().first)) {
      throw std::logic_error("TimedQueue: arrivals out of order");
    }
    bool was_empty = items_.empty();
    items_.emplace_back(at, std::move(item));
    if (was_empty) event_.notify(at - now);
  }

  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }

 private:
  void fire() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    while (!items_.empty() && items_.front().first <= now) {
      T item = std::move(items_.front().second);
      items_.pop_front();
      on_arrival_(item);
    }
    if (!items_.empty()) event_.notify(items_.front().first - now);
  }

  Handler on_arrival_;
  sc_core::sc_event event_;
  std::deque<std::pair<sc_core::sc_time, T>> items_;
};

}  // namespace hs
