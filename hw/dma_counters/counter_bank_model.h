// The C++ implementation of a counter bank: CounterBankState plus the block's timing, for
// speed. A request's effect on the state is immediate; it takes the clock edge
// counter_timing.h assigns it, exactly as the RTL adapter does, and an interrupt it raises
// appears `hit_zero_latency` edges after that edge. A register access returns how long it
// waited for that edge. The co-simulation test checks that this
// and the RTL give identical simulations.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <systemc>

#include "hw/dma_counters/counter_bank.h"
#include "hw/dma_counters/counter_bank_stats.h"
#include "hw/dma_counters/counter_timing.h"
#include "tlm/timing/clock.h"
#include "tlm/timing/timed_queue.h"

namespace hs::counters {

class CounterBankModel final : public CounterBank {
 public:
  // Must be constructed during elaboration (it spawns the interrupt delivery process).
  CounterBankModel(const std::string& name, const BankShape& shape, const Clock& clock,
                   const CounterTiming& timing);

  const BankShape& shape() const override { return state_.shape(); }
  RegisterAccess read(uint32_t offset, unsigned width, uint64_t& value) override;
  RegisterAccess write(uint32_t offset, uint64_t value, unsigned width) override;
  DecrementResult decrement(uint32_t counter, uint32_t bytes, bool check_bounds, uint64_t addr,
                            uint32_t len) override;
  uint32_t value(uint32_t counter) const override { return state_.value(counter); }
  uint64_t base_address(uint32_t counter) const override { return state_.base_address(counter); }
  void on_value_write(std::function<void(uint32_t, uint32_t)> fn) override {
    on_value_write_ = std::move(fn);
  }
  const CounterEdges& edges() const override { return edges_; }
  const CounterBankState& state() const { return state_; }

 private:
  uint32_t lines() const;
  // Schedules the interrupt of every group whose line rose since `before`, for the request
  // that took edge `edge`.
  void raise_rising(uint32_t before, uint64_t edge);

  CounterBankState state_;
  CounterTiming timing_;
  CounterEdges edges_;
  CounterBankStats stats_;
  TimedQueue<uint32_t> interrupts_;
  std::function<void(uint32_t, uint32_t)> on_value_write_;
};

}  // namespace hs::counters
