#include "hw/dma_counters/counter_bank_model.h"

#include "tlm/kernel/now.h"

namespace hs::counters {

CounterBankModel::CounterBankModel(const std::string& name, const BankShape& shape,
                                   const Clock& clock, const CounterTiming& timing)
    : state_(shape),
      hit_zero_delay_(clock.cycles(timing.hit_zero_latency)),
      interrupts_((name + "_irq").c_str(), [this](uint32_t& g) {
        if (on_irq_) on_irq_(g);
      }) {}

std::vector<bool> CounterBankModel::lines() const {
  std::vector<bool> v(state_.shape().groups);
  for (uint32_t g = 0; g < v.size(); ++g) v[g] = state_.irq(g);
  return v;
}

void CounterBankModel::raise_rising(const std::vector<bool>& before) {
  for (uint32_t g = 0; g < before.size(); ++g) {
    if (!before[g] && state_.irq(g)) interrupts_.push(hs::now() + hit_zero_delay_, g);
  }
}

bool CounterBankModel::write(uint32_t offset, uint64_t value, unsigned width) {
  const auto before = lines();
  const bool ok = state_.write(offset, value, width);
  if (ok && offset < kGroupBase && offset % kCounterStride == kValue && on_value_write_) {
    on_value_write_(offset / kCounterStride, static_cast<uint32_t>(value));
  }
  raise_rising(before);
  return ok;
}

DecrementResult CounterBankModel::decrement(uint32_t counter, uint32_t bytes, bool check_bounds,
                                            uint64_t addr, uint32_t len) {
  const uint32_t g = counter / state_.shape().per_group;
  const bool before = state_.irq(g);
  const DecrementResult r = state_.decrement(counter, bytes, check_bounds, addr, len);
  if (r.hit_zero && !before && state_.irq(g)) interrupts_.push(hs::now() + hit_zero_delay_, g);
  return r;
}

}  // namespace hs::counters
