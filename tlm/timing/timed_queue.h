// Items in flight that must be handed over at their arrival time, in arrival order: packets
// on a wire, completions on their way back. A spawned method fires at each arrival, woken
// through the timeline (timeline.h) in the queue's own place in the order, so delivery costs
// no thread switch (its activations know their place, timeline.h's AlarmWakePlace). Arrival times
// must be pushed in non-decreasing order (true for any FIFO channel); a violation is a model bug.
#pragma once
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <systemc>
// sc_spawn, which <systemc> declares only with SC_INCLUDE_DYNAMIC_PROCESSES.
#include <sysc/kernel/sc_dynamic_processes.h>
#include <utility>
#include "tlm/kernel/now.h"
#include "tlm/timing/timed_ring.h"
#include "tlm/timing/timeline.h"

namespace hs {

template <class T>
class TimedQueue {
 public:
  using Handler = std::function<void(T&)>;

  // Must be constructed during elaboration (inside the owning module's constructor).
  TimedQueue(const char* name, Handler on_arrival)
      : on_arrival_(std::move(on_arrival)), origin_(child_name(name)), arrival_(origin_) {
    sc_core::sc_spawn_options opts;
    opts.spawn_method();
    opts.set_sensitivity(&arrival_.event());
    opts.dont_initialize();
    const sc_core::sc_process_handle process =
        sc_core::sc_spawn([this] { fire(); }, sc_core::sc_gen_unique_name(name), &opts);
    if (Timeline::activations_kept()) place_ = std::make_unique<AlarmWakePlace>(arrival_, process);
  }

  void push(const sc_core::sc_time& at, T item) {
    const sc_core::sc_time now = hs::now();
    if (at < now) throw std::logic_error("TimedQueue: an arrival in the past");
    items_.push(at, std::move(item));
    if (items_.size() == 1) arrival_.ring_in(at - now);
  }

  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }

 private:
  void fire() {
    const sc_core::sc_time now = hs::now();
    while (!items_.empty() && items_.front_time() <= now) {
      T item = items_.pop();
      on_arrival_(item);
    }
    if (!items_.empty()) arrival_.ring_in(items_.front_time() - now);
  }

  Handler on_arrival_;
  Origin origin_;
  Alarm arrival_;
  std::unique_ptr<AlarmWakePlace> place_;  // the arrivals' place (when activations are kept)
  TimedRing<T> items_;
};

}  // namespace hs
