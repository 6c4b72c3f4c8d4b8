#include "hw/dma_counters/counter_block_adapter.h"

#include <fmt/format.h>
#include <stdexcept>

#include "tlm/kernel/now.h"

namespace hs::counters {

CounterBlockAdapter::CounterBlockAdapter(const std::string& name,
                                         std::unique_ptr<CounterBlock> block, const Clock& clock,
                                         const CounterTiming& timing)
    : CounterBank(name),
      block_(std::move(block)),
      timing_(timing),
      edges_(clock),
      stats_(name, edges_),
      wakes_((name + "_irq").c_str(), [this](Wake& w) { wake(w); }) {}

void CounterBlockAdapter::ensure_reset() const {
  if (!reset_done_) {
    block_->reset();
    reset_done_ = true;
  }
}

void CounterBlockAdapter::advance_to(uint64_t edge) {
  ensure_reset();
  if (next_edge_ >= edge) return;
  // Idle edges change the block only while the interrupt delay line still carries a change of
  // irq_level; the rest are skipped (the clock is gated). A read's pipeline is clocked by the
  // read itself, and the registered decrement results are read only at their own edge.
  for (uint64_t e = next_edge_; e < edge && e <= settled_after_; ++e) step(e, CounterPins{});
  next_edge_ = edge;
}

const CounterOutputs& CounterBlockAdapter::step(uint64_t edge, const CounterPins& pins) {
  const CounterOutputs& out = block_->edge(pins, edges_.time_of(edge).value());
  ++evaluated_;
  next_edge_ = edge + 1;
  if (const uint32_t rose = out.irq & ~last_irq_) rises_.emplace_back(edge, rose);
  last_irq_ = out.irq;
  const uint32_t level_rose = out.irq_level & ~last_level_;
  if (out.irq_level != last_level_) {
    settled_after_ = std::max(settled_after_, edge + timing_.hit_zero_latency);
  }
  last_level_ = out.irq_level;
  for (uint32_t g = 0; level_rose >> g; ++g) {
    if (level_rose >> g & 1) {
      const uint64_t at = edge + timing_.hit_zero_latency;
      wakes_.push(edges_.time_of(at), Wake{at, g});
    }
  }
  return out;
}

const CounterOutputs& CounterBlockAdapter::request(const EdgeClaim& claim, const CounterPins& pins,
                                                   uint32_t edges) {
  const uint64_t s = claim.taken;
  advance_to(s);
  const CounterOutputs* out = &step(s, pins);
  for (uint32_t i = 1; i < edges; ++i) out = &step(s + i, CounterPins{});
  return *out;
}

void CounterBlockAdapter::wake(const Wake& w) {
  advance_to(w.edge + 1);
  if (!rises_.empty() && rises_.front().first < w.edge) {
    throw std::logic_error(
        fmt::format("counter block: interrupt rise at edge {} (groups {:#x}) "
                    "that no irq_level rise announced",
                    rises_.front().first, rises_.front().second));
  }
  if (rises_.empty() || rises_.front().first != w.edge || !(rises_.front().second >> w.group & 1)) {
    throw std::logic_error(
        fmt::format("counter block: group {} interrupt expected to rise at "
                    "edge {} ({} edges after irq_level) did not",
                    w.group, w.edge, timing_.hit_zero_latency));
  }
  rises_.front().second &= ~(1u << w.group);
  if (rises_.front().second == 0) rises_.pop_front();
  if (irq.bound()) irq.raise(w.group);
}

RegisterAccess CounterBlockAdapter::read(uint32_t offset, unsigned width, uint64_t& v) {
  if ((width != 4 && width != 8) || offset >= kBankSpan) return {};
  const CounterPins p = CounterPins::read(offset, width == 8);
  // reg_err is registered at the read's own edge; the data arrives read_latency edges later.
  const uint32_t latency = std::max(timing_.read_latency, 1u);
  const EdgeClaim c = edges_.claim_access(hs::now(), latency);
  const uint64_t s = c.taken;
  advance_to(s);
  const CounterOutputs* out = &step(s, p);
  const bool err = out->reg_err;
  for (uint32_t i = 1; i < latency; ++i) out = &step(s + i, CounterPins{});
  if (err) return {false, edges_.waited(c)};
  if (!out->rd_valid) {
    throw std::logic_error(
        fmt::format("counter block: no read data {} edges after the read of "
                    "offset {:#x}",
                    latency, offset));
  }
  v = out->rd_data;
  return {true, edges_.waited(c)};
}

RegisterAccess CounterBlockAdapter::write(uint32_t offset, uint64_t v, unsigned width) {
  if ((width != 4 && width != 8) || offset >= kBankSpan) return {};
  const EdgeClaim c = edges_.claim_access(hs::now(), 1);
  if (request(c, CounterPins::write(offset, v, width == 8), 1).reg_err) {
    return {false, edges_.waited(c)};
  }
  if (offset < kGroupBase && offset % kCounterStride == kValue && on_value_write_) {
    on_value_write_(offset / kCounterStride, static_cast<uint32_t>(v));
  }
  return {true, edges_.waited(c)};
}

DecrementResult CounterBlockAdapter::decrement(uint32_t counter, uint32_t bytes, bool check_bounds,
                                               uint64_t addr, uint32_t len) {
  const CounterOutputs& out =
      request(edges_.claim(hs::now(), 1),
              CounterPins::decrement(counter, bytes, check_bounds, addr, len), 1);
  DecrementResult r;
  r.hit_zero = out.dec_hit_zero;
  r.underflow = out.dec_underflow;
  r.out_of_bounds = out.dec_out_of_bounds;
  return r;
}

}  // namespace hs::counters
