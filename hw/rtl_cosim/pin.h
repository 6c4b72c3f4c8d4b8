// A pin between C++ and a Verilated SystemC model, with immediate update.
//
// An sc_signal changes only in the update phase, so a model reading it sees the new value a
// delta cycle later. The co-simulation adapters instead drive a Verilated block inside a
// single call (set the inputs, evaluate an edge, read the outputs), so their pins take a
// written value at once. Nothing waits on a pin: the block is evaluated explicitly (see
// verilated_eval.h), and its events never fire.
#pragma once
#include <systemc>

namespace hs::rtl {

template <class T>
class PinBase : public sc_core::sc_signal_inout_if<T> {
 public:
  void set(const T& v) { value_ = v; }
  const T& get() const { return value_; }

  const T& read() const override { return value_; }
  const T& get_data_ref() const override { return value_; }
  void write(const T& v) override { value_ = v; }
  bool event() const override { return false; }
  const sc_core::sc_event& value_changed_event() const override { return never(); }
  const sc_core::sc_event& default_event() const override { return never(); }

 protected:
  // One event for every pin (a large machine has tens of thousands of pins); it is never
  // notified, and lives as long as the process.
  static const sc_core::sc_event& never() {
    static const sc_core::sc_event* e = new sc_core::sc_event("hs_rtl_pin_never");
    return *e;
  }
  T value_{};
};

template <class T>
class Pin final : public PinBase<T> {};

template <>
class Pin<bool> final : public PinBase<bool> {
 public:
  const sc_core::sc_event& posedge_event() const override { return never(); }
  const sc_core::sc_event& negedge_event() const override { return never(); }
  bool posedge() const override { return false; }
  bool negedge() const override { return false; }
};

}  // namespace hs::rtl
