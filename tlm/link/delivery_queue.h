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
#include <algorithm>
#include <functional>
#include <stdexcept>
#include <systemc>
#include <utility>
#include <vector>

#include "tlm/kernel/now.h"
#include "tlm/link/delivery_workers.h"

namespace hs {

template <class T>
class DeliveryQueue : private DeliveryJob {
 public:
  using Taker = std::function<void(T&)>;

  explicit DeliveryQueue(Taker take) : take_(std::move(take)) {}

  void push(const sc_core::sc_time& arrival, T item) {
    if (arrival < hs::now() || (count_ > 0 && arrival < slot(count_ - 1).first)) {
      throw std::logic_error("DeliveryQueue: arrivals out of order");
    }
    if (count_ == ring_.size()) grow();
    slot(count_++) = {arrival, std::move(item)};
    if (!serving_) {
      serving_ = true;
      DeliveryWorkers::instance().start(*this);
    }
  }

  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }

 private:
  // Serves the queue until it is empty: waits for each item's arrival, then takes it. Items
  // pushed meanwhile (by the link, or by the taker itself) are served in the same visit.
  void serve() override {
    while (count_ > 0) {
      const sc_core::sc_time at = slot(0).first;
      if (at > hs::now()) sc_core::wait(at - hs::now());
      T item = std::move(slot(0).second);
      head_ = (head_ + 1) & (ring_.size() - 1);
      --count_;
      take_(item);
    }
    serving_ = false;
  }

  // A ring buffer that only grows (its size a power of two): steady streams allocate nothing.
  std::pair<sc_core::sc_time, T>& slot(size_t i) { return ring_[(head_ + i) & (ring_.size() - 1)]; }
  void grow() {
    std::vector<std::pair<sc_core::sc_time, T>> bigger(std::max<size_t>(16, ring_.size() * 2));
    for (size_t i = 0; i < count_; ++i) bigger[i] = std::move(slot(i));
    ring_.swap(bigger);
    head_ = 0;
  }

  Taker take_;
  std::vector<std::pair<sc_core::sc_time, T>> ring_;
  size_t head_ = 0, count_ = 0;
  bool serving_ = false;
};

}  // namespace hs
