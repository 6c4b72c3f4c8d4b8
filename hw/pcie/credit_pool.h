// A receiver's flow-control credits for one TLP type (posted, non-posted, completion), as the
// transmitter sees them: header credits (one per TLP) and data credits (16-byte units).
// Credits are consumed when a TLP starts on the wire and come back together when the
// receiver's UpdateFC reaches the transmitter; both times are known when the TLP is sent, so
// the pool keeps the pending returns in time order and answers "when can this TLP go?".
#pragma once
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <systemc>
#include <vector>

namespace hs::pcie {

class CreditPool {
 public:
  // A capacity of 0 means infinite (the receiver advertises no limit).
  CreditPool(uint32_t header_capacity = 0, uint32_t data_capacity = 0)
      : header_cap_(header_capacity), data_cap_(data_capacity) {}

  // Earliest time >= t at which one header credit and `data` data credits are free.
  sc_core::sc_time available_at(uint32_t data, const sc_core::sc_time& t) {
    if (data_cap_ && data > data_cap_)
      throw std::logic_error("TLP needs more data credits than advertised");
    retire(t);
    uint32_t hdr = headers_used_, dat = data_used_;
    if (fits(hdr, dat, data)) return t;
    for (size_t i = 0; i < count_; ++i) {
      const Return& r = pending(i);
      hdr -= 1;
      dat -= r.data;
      if (fits(hdr, dat, data)) return r.at;
    }
    throw std::logic_error("credit pool inconsistent");
  }

  // Takes the credits at `at` (>= available_at(data, at)); they return at `back`.
  void consume(uint32_t data, const sc_core::sc_time& at, const sc_core::sc_time& back) {
    if (!header_cap_ && !data_cap_) return;
    retire(at);
    ++headers_used_;
    data_used_ += data;
    if (!fits(headers_used_ - 1, data_used_ - data, data))
      throw std::logic_error("credits overdrawn");
    if (count_ == returns_.size()) grow();
    pending(count_++) = {back, data};
  }

 private:
  struct Return {
    sc_core::sc_time at;
    uint32_t data;
  };
  bool fits(uint32_t hdr, uint32_t dat, uint32_t data) const {
    return (!header_cap_ || hdr + 1 <= header_cap_) && (!data_cap_ || dat + data <= data_cap_);
  }
  void retire(const sc_core::sc_time& t) {
    while (count_ > 0 && pending(0).at <= t) {
      --headers_used_;
      data_used_ -= pending(0).data;
      head_ = (head_ + 1) & (returns_.size() - 1);
      --count_;
    }
  }
  // Pending returns, oldest first, in a ring whose size is a power of two.
  Return& pending(size_t i) { return returns_[(head_ + i) & (returns_.size() - 1)]; }
  void grow() {
    std::vector<Return> bigger(std::max<size_t>(16, returns_.size() * 2));
    for (size_t i = 0; i < count_; ++i) bigger[i] = pending(i);
    returns_.swap(bigger);
    head_ = 0;
  }

  uint32_t header_cap_, data_cap_;
  uint32_t headers_used_ = 0, data_used_ = 0;
  std::vector<Return> returns_;
  size_t head_ = 0, count_ = 0;
};

}  // namespace hs::pcie
