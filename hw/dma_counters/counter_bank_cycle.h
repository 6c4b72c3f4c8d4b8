// The counter bank at the pin level, one rising edge at a time: the ports of
// rtl/dma_counter_bank.sv and a C++ model of them built on CounterBankState. The RTL adapter
// drives the Verilated block with CounterPins; the lockstep test drives both with the same pins
// and compares CounterOutputs after every edge.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "hw/dma_counters/counter_bank.h"
#include "hw/dma_counters/counter_timing.h"

namespace hs::counters {

// Inputs sampled at one rising edge.
struct CounterPins {
  bool reg_valid = false, reg_write = false, reg_wide = false;
  uint32_t reg_addr = 0;
  uint64_t reg_wdata = 0;
  bool dec_valid = false;
  uint32_t dec_id = 0, dec_bytes = 0;
  bool dec_check = false;
  uint64_t dec_addr = 0;
  uint32_t dec_len = 0;

  static CounterPins read(uint32_t offset, bool wide);
  static CounterPins write(uint32_t offset, uint64_t value, bool wide);
  static CounterPins decrement(uint32_t counter, uint32_t bytes, bool check = false,
                               uint64_t addr = 0, uint32_t len = 0);
};

// Outputs after an edge.
struct CounterOutputs {
  bool reg_err = false;   // the access sampled at the edge was not a register
  bool rd_valid = false;  // read data from READ_LATENCY edges ago
  uint64_t rd_data = 0;
  bool dec_hit_zero = false, dec_underflow = false, dec_out_of_bounds = false;
  uint32_t status = 0;     // group g's subgroup bits at g x (per_group / 8)
  uint32_t irq_level = 0;  // bit per group
  uint32_t irq = 0;        // irq_level delayed by HIT_ZERO_LATENCY edges
  bool operator==(const CounterOutputs& o) const;
  bool operator!=(const CounterOutputs& o) const { return !(*this == o); }
};

// What the lookup port shows for one counter.
struct CounterView {
  uint32_t value = 0, base = 0, max = 0;
  bool hit_zero = false, enabled = false, underflow = false, out_of_bounds = false;
  bool operator==(const CounterView& o) const;
};

// A counter bank at the pin level: the RTL block or its C++ model.
class CounterBlock {
 public:
  virtual ~CounterBlock() = default;
  virtual const BankShape& shape() const = 0;
  // One rising edge with rst_n low: back to reset values, pipelines cleared.
  virtual void reset() = 0;
  // One rising edge (at `time_ps`, for waveforms) with these inputs.
  virtual const CounterOutputs& edge(const CounterPins& in, uint64_t time_ps) = 0;
  // The lookup port: one counter's state as of the last edge.
  virtual CounterView lookup(uint32_t counter) = 0;
};

// The C++ model of the block, cycle by cycle.
class CounterBankCycleModel final : public CounterBlock {
 public:
  CounterBankCycleModel(const BankShape& shape, const CounterTiming& timing);
  const BankShape& shape() const override { return state_.shape(); }
  void reset() override;
  const CounterOutputs& edge(const CounterPins& in, uint64_t time_ps = 0) override;
  CounterView lookup(uint32_t counter) override;
  const CounterBankState& state() const { return state_; }

 private:
  uint32_t status_bits() const;
  uint32_t irq_bits() const;

  CounterBankState state_;
  CounterTiming timing_;
  std::deque<CounterOutputs> read_pipe_;  // rd_valid/rd_data per stage
  std::deque<uint32_t> irq_pipe_;
  CounterOutputs out_;
};

}  // namespace hs::counters
