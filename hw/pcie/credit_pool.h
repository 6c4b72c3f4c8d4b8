// A receiver's flow-control credits of one kind (posted header, posted data, ...), as the
// transmitter sees them. Credits are consumed when a TLP starts on the wire and come back when
// the receiver's UpdateFC reaches the transmitter; both times are known when the TLP is sent,
// so the pool keeps the pending returns in time order and answers "when are n credits free?".
#pragma once
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <systemc>
#include <utility>
#include <vector>

namespace hs::pcie {

class CreditPool {
 public:
  explicit CreditPool(uint32_t capacity = 0) : capacity_(capacity) {}  // 0 = infinite

  // Earliest time >= t at which n credits are free.
  sc_core::sc_time available_at(uint32_t n, const sc_core::sc_time& t) {
    if (capacity_ == 0) return t;
    if (n > capacity_) throw std::logic_error("TLP needs more credits than advertised");
    retire(t);
    if (used_ + n <= capacity_) return t;
    uint32_t in_use = used_;
    for (size_t i = 0; i < count_; ++i) {
      const auto& [when, units] = pending(i);
      in_use -= units;
      if (in_use + n <= capacity_) return when;
    }
    throw std::logic_error("credit pool inconsistent");
  }

  // Takes n credits at `at` (which must be >= available_at(n, at)); they return at `back`.
  void consume(uint32_t n, const sc_core::sc_time& at, const sc_core::sc_time& back) {
    if (capacity_ == 0) return;
    retire(at);
    used_ += n;
    if (used_ > capacity_) throw std::logic_error("credits overdrawn");
    if (count_ == returns_.size()) grow();
    pending(count_++) = {back, n};
    peak_ = std::max(peak_, used_);
  }

  uint32_t capacity() const { return capacity_; }
  uint32_t in_use(const sc_core::sc_time& t) {
    retire(t);
    return used_;
  }
  uint32_t peak() const { return peak_; }

 private:
  void retire(const sc_core::sc_time& t) {
    while (count_ > 0 && pending(0).first <= t) {
      used_ -= pending(0).second;
      head_ = (head_ + 1) & (returns_.size() - 1);
      --count_;
    }
  }
  // Pending returns, oldest first, in a ring that only grows.
  // The ring's size is a power of two, so indexing is a mask.
  std::pair<sc_core::sc_time, uint32_t>& pending(size_t i) {
    return returns_[(head_ + i) & (returns_.size() - 1)];
  }
  void grow() {
    std::vector<std::pair<sc_core::sc_time, uint32_t>> bigger(
        std::max<size_t>(16, returns_.size() * 2));
    for (size_t i = 0; i < count_; ++i) bigger[i] = pending(i);
    returns_.swap(bigger);
    head_ = 0;
  }
  uint32_t capacity_;
  uint32_t used_ = 0;
  uint32_t peak_ = 0;
  std::vector<std::pair<sc_core::sc_time, uint32_t>> returns_;
  size_t head_ = 0, count_ = 0;
};

}  // namespace hs::pcie
