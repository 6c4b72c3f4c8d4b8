// The receiving end of a link: what the link carries (TLPs, frames, packets) waits here from
// its arrival until the receiver has taken it. This is the one delivery mechanism of every
// link in the model (both PCIe directions, Ethernet, torus DMA reception).
//
// Rules:
// - Items are taken one at a time, in arrival order, each no earlier than its arrival time.
//   Arrival times must be pushed in non-decreasing order (true of any FIFO channel); a
//   violation is a model bug and throws.
// - By default the taker runs on a thread (a borrowed delivery worker), so the receiver's
//   target may wait; while it waits, the items behind it wait too, as behind a busy receive
//   port.
// - A receiver whose target never waits (memories, registers, address decoders, a link that
//   refuses what another link delivered) may be taken in place instead (take_in_place(),
//   before the simulation starts): each item is then taken in a method at its arrival, with
//   no thread switch. The items, their order and their times are the same; a wait in a target
//   so declared is a SystemC error (wait() is not allowed in a method), never a silent change.
// - The taker delivers into the target (b_transport), honours the delay the target returns
//   (the item is taken when that delay has passed), and schedules the return of the item's
//   flow-control credits from that time. The queue itself holds no timing: the taker owns it.
// - A receiver that is idle holds no thread.
// - Arrivals wake the taker through the timeline (tlm/timing/timeline.h), in the queue's own
//   place in the order of same-time wake-ups.
#pragma once
#include <functional>
#include <memory>
#include <stdexcept>
#include <systemc>
#include <utility>

// sc_spawn, which <systemc> declares only with SC_INCLUDE_DYNAMIC_PROCESSES.
#include <sysc/kernel/sc_dynamic_processes.h>

#include "tlm/kernel/now.h"
#include "tlm/link/delivery_workers.h"
#include "tlm/timing/timed_ring.h"
#include "tlm/timing/timeline.h"

namespace hs {

template <class T>
class DeliveryQueue : private DeliveryJob {
 public:
  using Taker = std::function<void(T&)>;

  // Constructed during elaboration, by the receiver (whose name identifies the queue).
  explicit DeliveryQueue(Taker take)
      : take_(std::move(take)), origin_(child_name("delivery")), due_(origin_) {}

  // The receiver's target never waits: take each item in a method at its arrival rather than
  // on a worker thread. Only before the simulation starts (a method is spawned for it).
  void take_in_place() {
    if (in_place_) return;
    if (sc_core::sc_is_running()) {
      throw std::logic_error("DeliveryQueue: take_in_place() after the simulation started");
    }
    in_place_ = true;
    sc_core::sc_spawn_options opts;
    opts.spawn_method();
    opts.set_sensitivity(&due_.event());
    opts.dont_initialize();
    sc_core::sc_spawn([this] { take_due(); }, sc_core::sc_gen_unique_name("delivery"), &opts);
  }
  bool takes_in_place() const { return in_place_; }

  void push(const sc_core::sc_time& arrival, T item) {
    const sc_core::sc_time now = hs::now();
    if (arrival < now) throw std::logic_error("DeliveryQueue: an arrival in the past");
    items_.push(arrival, std::move(item));
    if (serving_) return;
    serving_ = true;
    if (!in_place_) {
      DeliveryWorkers::instance().start(*this);
    } else if (arrival == now) {
      due_.ring_now();  // in this evaluation phase, as a worker started now would take it
    } else {
      due_.ring_in(arrival - now);
    }
  }

  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }

 private:
  // Serves the queue until it is empty: waits for each item's arrival, then takes it. Items
  // pushed meanwhile (by the link, or by the taker itself) are served in the same visit.
  void serve() override {
    while (!items_.empty()) {
      const sc_core::sc_time at = items_.front_time();
      if (at > hs::now()) {
        due_.ring_in(at - hs::now());
        sc_core::wait(due_.event());
      }
      T item = items_.pop();
      take_(item);
    }
    serving_ = false;
  }

  // The method of a queue taken in place: takes every item that has arrived, in order, then
  // sleeps until the next one arrives.
  void take_due() {
    const sc_core::sc_time now = hs::now();
    while (!items_.empty() && items_.front_time() <= now) {
      T item = items_.pop();
      take_(item);
    }
    if (items_.empty()) {
      serving_ = false;
    } else {
      due_.ring_in(items_.front_time() - now);
    }
  }

  Taker take_;
  TimedRing<T> items_;
  bool serving_ = false;  // a worker serves the queue, or the method's next visit is due
  bool in_place_ = false;
  Origin origin_;
  Alarm due_;  // rings when the front item arrives
};

}  // namespace hs
