// The C++ implementation of a counter bank: CounterBankState plus the block's timing. A
// decrement's effect on the value is immediate; the group interrupt rises
// `hit_zero_latency` cycles of the DMA clock later (the RTL's pipeline), and register reads
// cost `read_latency` cycles (charged by the DMA's register file).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <systemc>

#include "hw/dma_counters/counter_bank.h"
#include "tlm/timing/clock.h"
#include "tlm/timing/timed_queue.h"

namespace hs::counters {

struct CounterTiming {
  uint32_t read_latency = 2;      // cycles from register read request to data
  uint32_t hit_zero_latency = 2;  // cycles from a decrement to the interrupt line
};

class CounterBankModel : public CounterBank {
 public:
  // Must be constructed during elaboration (it spawns the interrupt delivery process).
  CounterBankModel(const std::string& name, const BankShape& shape, const Clock& clock,
                   const CounterTiming& timing);

  const BankShape& shape() const override { return state_.shape(); }
  bool read(uint32_t offset, unsigned width, uint64_t& value) override {
    return state_.read(offset, width, value);
  }
  bool write(uint32_t offset, uint64_t value, unsigned width) override;
  DecrementResult decrement(uint32_t counter, uint32_t bytes, bool check_bounds, uint64_t addr,
                            uint32_t len) override;
  uint32_t value(uint32_t counter) const override { return state_.value(counter); }
  uint64_t base_address(uint32_t counter) const override { return state_.base_address(counter); }
  void on_interrupt(std::function<void(uint32_t)> fn) override { on_irq_ = std::move(fn); }
  void on_value_write(std::function<void(uint32_t, uint32_t)> fn) override {
    on_value_write_ = std::move(fn);
  }
  const CounterBankState& state() const { return state_; }

 private:
  // Schedules the interrupt of every group whose line rose since `before`.
  void raise_rising(const std::vector<bool>& before);
  std::vector<bool> lines() const;

  CounterBankState state_;
  sc_core::sc_time hit_zero_delay_;
  TimedQueue<uint32_t> interrupts_;
  std::function<void(uint32_t)> on_irq_;
  std::function<void(uint32_t, uint32_t)> on_value_write_;
};

}  // namespace hs::counters
