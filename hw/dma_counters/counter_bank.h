// A bank of DMA byte counters (G groups x C counters): the critical path of every DMA
// completion. A counter is set to the bytes a transfer will move; each packet subtracts its
// payload; the transition to zero sets hit-zero once and, if the counter is enabled and its
// group's interrupt is enabled, raises the group's interrupt line until cleared.
//
// Defined behaviour (the RTL implementation must match it):
// - Underflow (bytes > value) sets the counter's sticky UNDERFLOW bit and leaves the value at
//   0 without setting hit-zero; it never wraps.
// - Disabled counters still count and set hit-zero, but never contribute to STATUS or
//   interrupts.
// - Writing VALUE never sets hit-zero (even when writing 0); only a decrement does.
// - A register write and a decrement in the same cycle: the write lands first.
// - Timing (counter_timing.h): the bank's port takes one request per DMA-clock edge. A register
//   access sampled at an edge that a decrement or another access holds waits for the next free
//   edge, and the access returns that wait (RegisterAccess::waited) for its requester to add to
//   the access's latency: contention on the port is felt by the core, not only counted. Both
//   implementations compute the wait with the same CounterEdges rule, so C++ and RTL banks give
//   identical access times.
// - Reset: values 0xFFFFFFFF, base and max 0, all disabled, no hit-zero, no errors, interrupts
//   disabled.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <vector>

#include "hw/dma_counters/counter_registers.h"
#include "hw/dma_counters/counter_timing.h"
#include "tlm/irq/interrupt_pin.h"

namespace hs::counters {

struct BankShape {
  uint32_t groups = 4;
  uint32_t per_group = 64;
  bool reception = false;  // has MAX and bounds checks
  uint32_t counters() const { return groups * per_group; }
};

struct DecrementResult {
  bool hit_zero = false;   // this decrement took the counter to zero
  bool underflow = false;  // bytes exceeded the value
  bool out_of_bounds = false;
};

// The bank's architectural state and its rules, with no notion of time: the C++ model wraps it
// with latencies, and tests compare it with the RTL cycle by cycle.
class CounterBankState {
 public:
  explicit CounterBankState(const BankShape& shape);
  const BankShape& shape() const { return shape_; }

  // Whether an access of this width and direction names a register (the block's decoder).
  bool is_register(uint32_t offset, unsigned width, bool write) const;
  // Register access; false, with no effect, for an access that is not a register.
  bool read(uint32_t offset, unsigned width, uint64_t& value) const;
  bool write(uint32_t offset, uint64_t value, unsigned width);
  // A decrement port: counter, bytes, and for reception the destination range to bounds-check
  // (check_bounds false skips it). An out-of-bounds packet does not decrement.
  DecrementResult decrement(uint32_t counter, uint32_t bytes, bool check_bounds = false,
                            uint64_t addr = 0, uint32_t len = 0);

  uint32_t value(uint32_t c) const { return value_.empty() ? kResetValue : value_[c]; }
  uint64_t base_address(uint32_t c) const { return uint64_t{base_.empty() ? 0 : base_[c]} << 4; }
  uint64_t max_address(uint32_t c) const {
    return (uint64_t{max_.empty() ? 0 : max_[c]} << 4) + 15;
  }
  bool hit_zero(uint32_t c) const { return bit(hit_zero_, c); }
  bool enabled(uint32_t c) const { return bit(enabled_, c); }
  bool underflow(uint32_t c) const { return bit(underflow_, c); }
  bool out_of_bounds(uint32_t c) const { return bit(bounds_, c); }
  uint32_t group_status(uint32_t g) const;
  bool irq(uint32_t g) const { return (irq_enable_[g] & 1) && group_status(g) != 0; }

 private:
  static bool bit(const std::vector<uint64_t>& m, uint32_t c, uint32_t per_group) {
    return (m[c / per_group] >> (c % per_group)) & 1;
  }
  bool bit(const std::vector<uint64_t>& m, uint32_t c) const { return bit(m, c, shape_.per_group); }
  void set(std::vector<uint64_t>& m, uint32_t c) {
    m[c / shape_.per_group] |= uint64_t{1} << (c % shape_.per_group);
  }
  uint64_t group_mask() const {
    return shape_.per_group == 64 ? ~uint64_t{0} : (uint64_t{1} << shape_.per_group) - 1;
  }

  // The per-counter registers exist from the first write or decrement; until then every
  // counter holds its reset values (a large machine's idle banks cost no storage).
  void materialize();
  BankShape shape_;
  std::vector<uint32_t> value_, base_, max_;
  std::vector<uint64_t> enabled_, hit_zero_, underflow_, bounds_;  // per group
  std::vector<uint32_t> irq_enable_;
};

// A register access through the bank's port.
struct RegisterAccess {
  bool ok = false;  // it named a register (else it had no effect)
  // How long it waited for a free edge: from the edge that sampled it to the edge it took
  // (zero without a collision). The requester's access takes this much longer.
  sc_core::sc_time waited = sc_core::SC_ZERO_TIME;
  bool operator==(const RegisterAccess& o) const { return ok == o.ok && waited == o.waited; }
};

// Adds an access's wait to the requester's annotated delay; whether it named a register.
inline bool feel(const RegisterAccess& a, sc_core::sc_time& delay) {
  delay += a.waited;
  return a.ok;
}

// What a DMA engine needs from a counter bank, whichever implementation sits behind it.
class CounterBank {
 public:
  // `irq`: line g rises when group g's interrupt line rises (tlm/irq/interrupt_pin.h). A bank
  // tested alone may leave it unbound: its interrupts then go nowhere.
  IrqOut irq;

  explicit CounterBank(const std::string& name) : irq(name + ".irq") {}
  virtual ~CounterBank() = default;
  virtual const BankShape& shape() const = 0;
  virtual RegisterAccess read(uint32_t offset, unsigned width, uint64_t& value) = 0;
  virtual RegisterAccess write(uint32_t offset, uint64_t value, unsigned width) = 0;
  virtual DecrementResult decrement(uint32_t counter, uint32_t bytes, bool check_bounds,
                                    uint64_t addr, uint32_t len) = 0;
  virtual uint32_t value(uint32_t counter) const = 0;
  virtual uint64_t base_address(uint32_t counter) const = 0;
  // The clock edges the bank's requests took (counts, slips and access waits, for statistics).
  virtual const CounterEdges& edges() const = 0;
  // Called after every counter-value write (checkers open a new transfer episode).
  virtual void on_value_write(std::function<void(uint32_t counter, uint32_t value)> fn) = 0;
};

}  // namespace hs::counters
