// A receiver's flow-control credits for one kind of traffic, as its transmitter sees them:
// header credits (one per packet) and data credits (in whatever unit the link counts: 16-byte
// units for PCIe, frames for Ethernet).
//
// Rules this pool keeps, and relies on:
// - Credits are consumed when a packet starts on the wire. Their return time is unknown then:
//   it is scheduled by the receiver when it has taken the packet (release()), and a link
//   adds the time its credit update takes to fly back.
// - Releases come in consumption order (a receiver takes its packets in arrival order), and
//   their times never decrease: a later release earlier than the one before it is moved to it.
// - available_at() answers only from returns already scheduled. When the credits a packet
//   needs depend on a return the receiver has not scheduled yet, it says so (nullopt), and
//   the transmitter waits for released() before asking again. That is how a receiver that
//   drains slowly throttles its transmitter.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <systemc>
#include <vector>

namespace hs {

class CreditPool {
 public:
  // A capacity of 0 means infinite (the receiver advertises no limit).
  CreditPool(uint32_t header_capacity = 0, uint32_t data_capacity = 0)
      : header_cap_(header_capacity), data_cap_(data_capacity) {}

  bool infinite() const { return !header_cap_ && !data_cap_; }
  uint32_t headers_in_use() const { return headers_used_; }
  uint32_t data_in_use() const { return data_used_; }

  // Earliest time >= t at which one header credit and `data` data credits are free, from the
  // returns scheduled so far; nullopt if that depends on a return not yet scheduled.
  std::optional<sc_core::sc_time> available_at(uint32_t data, const sc_core::sc_time& t) {
    if (data_cap_ && data > data_cap_)
      throw std::logic_error("packet needs more data credits than advertised");
    retire(t);
    uint32_t hdr = headers_used_, dat = data_used_;
    if (fits(hdr, dat, data)) return t;
    for (size_t i = 0; i < scheduled_; ++i) {
      const Return& r = pending(i);
      hdr -= 1;
      dat -= r.data;
      if (fits(hdr, dat, data)) return std::max(t, r.at);
    }
    wanted_ = true;  // someone will wait for released()
    return std::nullopt;
  }

  // Takes the credits at `at` (available_at(data, at) must have answered <= at). Their return
  // is scheduled later by release().
  void consume(uint32_t data, const sc_core::sc_time& at) {
    if (infinite()) return;
    retire(at);
    if (!fits(headers_used_, data_used_, data)) throw std::logic_error("credits overdrawn");
    ++headers_used_;
    data_used_ += data;
    if (count_ == returns_.size()) grow();
    pending(count_++) = {sc_core::SC_ZERO_TIME, data};
  }

  // The receiver has taken the oldest packet whose return is unscheduled: its credits are
  // back at the transmitter at `back`.
  void release(const sc_core::sc_time& back) {
    if (infinite()) return;
    if (scheduled_ == count_) throw std::logic_error("credit release without a consumption");
    last_back_ = std::max(last_back_, back);
    pending(scheduled_++).at = last_back_;
    if (wanted_) {  // only a transmitter told "not yet" is waiting: no event per packet
      wanted_ = false;
      released_.notify(sc_core::SC_ZERO_TIME);
    }
  }

  // Notified (one delta later) when a return is scheduled after available_at() said nullopt.
  const sc_core::sc_event& released() const { return released_; }

 private:
  struct Return {
    sc_core::sc_time at;
    uint32_t data;
  };
  bool fits(uint32_t hdr, uint32_t dat, uint32_t data) const {
    return (!header_cap_ || hdr + 1 <= header_cap_) && (!data_cap_ || dat + data <= data_cap_);
  }
  void retire(const sc_core::sc_time& t) {
    while (scheduled_ > 0 && pending(0).at <= t) {
      --headers_used_;
      data_used_ -= pending(0).data;
      head_ = (head_ + 1) & (returns_.size() - 1);
      --count_;
      --scheduled_;
    }
  }
  // Outstanding consumptions, oldest first, in a ring whose size is a power of two; the first
  // `scheduled_` of them have their return time.
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
  size_t head_ = 0, count_ = 0, scheduled_ = 0;
  sc_core::sc_time last_back_ = sc_core::SC_ZERO_TIME;
  bool wanted_ = false;
  sc_core::sc_event released_;
};

}  // namespace hs
