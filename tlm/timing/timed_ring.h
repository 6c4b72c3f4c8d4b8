// Items stamped with a time, first in first out, in a ring buffer that only grows (its size a
// power of two, so indexing is a mask): steady streams allocate nothing per item. The queues
// of things in flight on a wire (TimedQueue, DeliveryQueue) keep their items here.
// Rule: times are pushed in non-decreasing order; a violation is a model bug and throws.
#pragma once
#include <algorithm>
#include <stdexcept>
#include <systemc>
#include <utility>
#include <vector>

namespace hs {

template <class T>
class TimedRing {
 public:
  void push(const sc_core::sc_time& at, T item) {
    if (count_ > 0 && at < slot(count_ - 1).first) {
      throw std::logic_error("timed ring: items pushed out of time order");
    }
    if (count_ == ring_.size()) grow();
    slot(count_++) = {at, std::move(item)};
  }
  const sc_core::sc_time& front_time() { return slot(0).first; }
  T pop() {
    T item = std::move(slot(0).second);
    head_ = (head_ + 1) & (ring_.size() - 1);
    --count_;
    return item;
  }
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }

 private:
  std::pair<sc_core::sc_time, T>& slot(size_t i) { return ring_[(head_ + i) & (ring_.size() - 1)]; }
  void grow() {
    std::vector<std::pair<sc_core::sc_time, T>> bigger(std::max<size_t>(16, ring_.size() * 2));
    for (size_t i = 0; i < count_; ++i) bigger[i] = std::move(slot(i));
    ring_.swap(bigger);
    head_ = 0;
  }

  std::vector<std::pair<sc_core::sc_time, T>> ring_;
  size_t head_ = 0, count_ = 0;
};

}  // namespace hs
