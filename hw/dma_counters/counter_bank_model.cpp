#include "hw/dma_counters/counter_bank_model.h"

#include <algorithm>

#include "tlm/kernel/now.h"

namespace hs::counters {

CounterBankModel::CounterBankModel(const std::string& name, const BankShape& shape,
                                   const Clock& clock, const CounterTiming& timing)
    : CounterBank(name),
      state_(shape),
      timing_(timing),
      edges_(clock),
      stats_(name, edges_),
      interrupts_((name + "_irq").c_str(), [this](uint32_t& g) {
        if (irq.bound()) irq.raise(g);
      }) {}

uint32_t CounterBankModel::lines() const {
  uint32_t bits = 0;
  for (uint32_t g = 0; g < state_.shape().groups; ++g) bits |= uint32_t{state_.irq(g)} << g;
  return bits;
}

void CounterBankModel::raise_rising(uint32_t before, uint64_t edge) {
  const uint32_t rose = lines() & ~before;
  for (uint32_t g = 0; g < state_.shape().groups; ++g) {
    if (rose >> g & 1) interrupts_.push(edges_.time_of(edge + timing_.hit_zero_latency), g);
  }
}

RegisterAccess CounterBankModel::read(uint32_t offset, unsigned width, uint64_t& value) {
  if ((width != 4 && width != 8) || offset >= kBankSpan) return {};
  const EdgeClaim c = edges_.claim_access(hs::now(), std::max(timing_.read_latency, 1u));
  return {state_.read(offset, width, value), edges_.waited(c)};
}

RegisterAccess CounterBankModel::write(uint32_t offset, uint64_t value, unsigned width) {
  if ((width != 4 && width != 8) || offset >= kBankSpan) return {};
  const EdgeClaim c = edges_.claim_access(hs::now(), 1);
  const uint32_t before = lines();
  const bool ok = state_.write(offset, value, width);
  if (ok && offset < kGroupBase && offset % kCounterStride == kValue && on_value_write_) {
    on_value_write_(offset / kCounterStride, static_cast<uint32_t>(value));
  }
  raise_rising(before, c.taken);
  return {ok, edges_.waited(c)};
}

DecrementResult CounterBankModel::decrement(uint32_t counter, uint32_t bytes, bool check_bounds,
                                            uint64_t addr, uint32_t len) {
  const uint64_t edge = edges_.claim(hs::now(), 1).taken;
  const uint32_t before = lines();
  const DecrementResult r = state_.decrement(counter, bytes, check_bounds, addr, len);
  raise_rising(before, edge);
  return r;
}

}  // namespace hs::counters
