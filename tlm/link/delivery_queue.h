// The receiving end of a link: what the link carries (TLPs, frames, packets) waits here from
// its arrival until the receiver has taken it. This is the one delivery mechanism of every
// link in the model (both PCIe directions, Ethernet, torus DMA reception).
//
// Rules:
// - Items are taken one at a time, in arrival order, each no earlier than its arrival time.
//   Arrival times must be pushed in non-decreasing order (true of any FIFO channel); a
//   violation is a model bug and throws.
// - The taker runs on a thread (a borrowed delivery worker), so the receiver's target may
//   wait; while it waits, the items behind it wait too, as behind a busy receive port.
// - The taker delivers into the target (b_transport), honours the delay the target returns
//   (the item is taken when that delay has passed), and schedules the return of the item's
//   flow-control credits from that time. The queue itself holds no timing: the taker owns it.
// - A receiver that is idle holds no thread.
#pragma once
#include <functional>
#include <stdexcept>
#include <systemc>
#include <utility>

#include "tlm/kernel/now.h"
#include "tlm/link/delivery_workers.h"
#include "tlm/timing/timed_ring.h"

namespace hs {

template <class T>
class DeliveryQueue : private DeliveryJob {
 public:
  using Taker = std::function<void(T&)>;

  explicit DeliveryQueue(Taker take) : take_(std::move(take)) {}

  void push(const sc_core::sc_time& arrival, T item) {
    if (arrival < hs::now()) throw std::logic_error("DeliveryQueue: an arrival in the past");
    items_.push(arrival, std::move(item));
    if (!serving_) {
      serving_ = true;
      DeliveryWorkers::instance().start(*this);
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
      if (at > hs::now()) sc_core::wait(at - hs::now());
      T item = items_.pop();
      take_(item);
    }
    serving_ = false;
  }

  Taker take_;
  TimedRing<T> items_;
  bool serving_ = false;
};

}  // namespace hs
