// Items in flight that must be handed over at their arrival time, in arrival order: packets
// on a wire, completions on their way back. A spawned method fires at each arrival, so
// delivery costs no thread switch. Arrival times must be pushed in non-decreasing order
// (true for any FIFO channel); a violation is a model bug.
#pragma once
#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <systemc>
// sc_spawn, which <systemc> declares only with SC_INCLUDE_DYNAMIC_PROCESSES.
#include <sysc/kernel/sc_dynamic_processes.h>
#include <utility>
#include <vector>
#include "tlm/kernel/now.h"

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
    const sc_core::sc_time now = hs::now();
    if (at < now || (count_ > 0 && at < slot(count_ - 1).first)) {
      throw std::logic_error("TimedQueue: arrivals out of order");
    }
    if (count_ == ring_.size()) grow();
    slot(count_) = {at, std::move(item)};
    if (++count_ == 1) event_.notify(at - now);
  }

  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }

 private:
  // A ring buffer that only grows: steady streams allocate nothing per item.
  // The ring's size is a power of two, so indexing is a mask.
  std::pair<sc_core::sc_time, T>& slot(size_t i) { return ring_[(head_ + i) & (ring_.size() - 1)]; }
  void grow() {
    std::vector<std::pair<sc_core::sc_time, T>> bigger(std::max<size_t>(16, ring_.size() * 2));
    for (size_t i = 0; i < count_; ++i) bigger[i] = std::move(slot(i));
    ring_.swap(bigger);
    head_ = 0;
  }
  void fire() {
    const sc_core::sc_time now = hs::now();
    while (count_ > 0 && slot(0).first <= now) {
      T item = std::move(slot(0).second);
      head_ = (head_ + 1) & (ring_.size() - 1);
      --count_;
      on_arrival_(item);
    }
    if (count_ > 0) event_.notify(slot(0).first - now);
  }

  Handler on_arrival_;
  sc_core::sc_event event_;
  std::vector<std::pair<sc_core::sc_time, T>> ring_;
  size_t head_ = 0, count_ = 0;
};

}  // namespace hs
