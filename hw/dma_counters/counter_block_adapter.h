// A CounterBank over a pin-level CounterBlock (the Verilated RTL, or its C++ cycle model): each
// call becomes one request on the block's clock, at the edge counter_timing.h assigns it.
//
// - Register writes and decrements: one edge with the request on the pins; results come from
//   the block's registered outputs.
// - Register reads: the read edge, then idle edges until the read pipeline delivers the data.
// - A register access returns how long it waited for its edge: the same CounterEdges rule as
//   the C++ model, so both give identical access times.
// - value() and base_address(): the block's combinational lookup port.
// - Between requests the clock is gated: idle edges are evaluated only while the interrupt
//   delay line still carries a change (at most hit_zero_latency of them); skipping the rest
//   changes nothing the block shows, and saves evaluations.
// - Interrupts: when irq_level rises at edge e, a wake-up is scheduled for the edge e +
//   hit_zero_latency; it clocks the block up to that edge and raises the interrupt of every
//   group whose irq output rose there. An expected rise that does not appear is a model error.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "hw/dma_counters/counter_bank.h"
#include "hw/dma_counters/counter_bank_cycle.h"
#include "hw/dma_counters/counter_bank_stats.h"
#include "hw/dma_counters/counter_timing.h"
#include "tlm/timing/timed_queue.h"

namespace hs::counters {

class CounterBlockAdapter final : public CounterBank {
 public:
  // Must be constructed during elaboration (it spawns the interrupt wake-up process).
  CounterBlockAdapter(const std::string& name, std::unique_ptr<CounterBlock> block,
                      const Clock& clock, const CounterTiming& timing);

  const BankShape& shape() const override { return block_->shape(); }
  RegisterAccess read(uint32_t offset, unsigned width, uint64_t& value) override;
  RegisterAccess write(uint32_t offset, uint64_t value, unsigned width) override;
  DecrementResult decrement(uint32_t counter, uint32_t bytes, bool check_bounds, uint64_t addr,
                            uint32_t len) override;
  uint32_t value(uint32_t counter) const override {
    ensure_reset();
    return block_->lookup(counter).value;
  }
  uint64_t base_address(uint32_t counter) const override {
    ensure_reset();
    return uint64_t{block_->lookup(counter).base} << 4;
  }
  void on_value_write(std::function<void(uint32_t, uint32_t)> fn) override {
    on_value_write_ = std::move(fn);
  }
  const CounterEdges& edges() const override { return edges_; }

  CounterBlock& block() { return *block_; }
  uint64_t evaluated_edges() const { return evaluated_; }

 private:
  struct Wake {
    uint64_t edge;
    uint32_t group;
  };
  // The block leaves reset (one edge with rst_n low) before its first use.
  void ensure_reset() const;
  // Clocks idle edges so that the next edge evaluated is `edge`.
  void advance_to(uint64_t edge);
  const CounterOutputs& step(uint64_t edge, const CounterPins& pins);
  // Clocks a request in at the edge it was given, then the idle edges it holds the port for;
  // the outputs after its last edge.
  const CounterOutputs& request(const EdgeClaim& claim, const CounterPins& pins, uint32_t edges);
  void wake(const Wake& w);

  std::unique_ptr<CounterBlock> block_;
  CounterTiming timing_;
  CounterEdges edges_;
  CounterBankStats stats_;
  mutable bool reset_done_ = false;
  uint64_t next_edge_ = 0, evaluated_ = 0;
  uint64_t settled_after_ = 0;  // from this edge on, idle edges change nothing
  uint32_t last_level_ = 0, last_irq_ = 0;
  std::deque<std::pair<uint64_t, uint32_t>> rises_;  // (edge, groups whose irq rose there)
  TimedQueue<Wake> wakes_;
  std::function<void(uint32_t, uint32_t)> on_value_write_;
};

}  // namespace hs::counters
