#include "hw/dma_counters/counter_bank.h"

namespace hs::counters {

CounterBankState::CounterBankState(const BankShape& shape)
    : shape_(shape),
      value_(shape.counters(), kResetValue),
      base_(shape.counters(), 0),
      max_(shape.counters(), 0),
      enabled_(shape.groups, 0),
      hit_zero_(shape.groups, 0),
      underflow_(shape.groups, 0),
      bounds_(shape.groups, 0),
      irq_enable_(shape.groups, 0) {}

uint32_t CounterBankState::group_status(uint32_t g) const {
  const uint64_t live = hit_zero_[g] & enabled_[g];
  uint32_t status = 0;
  for (uint32_t s = 0; s * kSubgroup < shape_.per_group; ++s) {
    if ((live >> (s * kSubgroup)) & 0xFF) status |= 1u << s;
  }
  return status;
}

bool CounterBankState::read(uint32_t offset, unsigned width, uint64_t& v) const {
  if (offset < kGroupBase) {
    const uint32_t c = offset / kCounterStride, reg = offset % kCounterStride;
    if (c >= shape_.counters() || width != 4) return false;
    switch (reg) {
      case kValue:
        v = value_[c];
        return true;
      case kBase:
        v = base_[c];
        return true;
      case kMax:
        if (!shape_.reception) return false;
        v = max_[c];
        return true;
      default:
        return false;  // INCREMENT and DECREMENT are write-only
    }
  }
  const uint32_t g = (offset - kGroupBase) / kGroupStride,
                 reg = (offset - kGroupBase) % kGroupStride;
  if (g >= shape_.groups) return false;
  const bool wide = width == 8;
  switch (reg) {
    case kEnabled:
      v = enabled_[g];
      return wide;
    case kHitZero:
      v = hit_zero_[g];
      return wide;
    case kUnderflow:
      v = underflow_[g];
      return wide;
    case kBounds:
      v = bounds_[g];
      return wide && shape_.reception;
    case kStatus:
      v = group_status(g);
      return width == 4;
    case kIrqEnable:
      v = irq_enable_[g];
      return width == 4;
    default:
      return false;
  }
}

bool CounterBankState::write(uint32_t offset, uint64_t v, unsigned width) {
  if (offset < kGroupBase) {
    const uint32_t c = offset / kCounterStride, reg = offset % kCounterStride;
    if (c >= shape_.counters() || width != 4) return false;
    const auto v32 = static_cast<uint32_t>(v);
    switch (reg) {
      case kValue:
        value_[c] = v32;
        return true;
      case kIncrement:
        value_[c] += v32;  // extending a transfer; a wrap here is the writer's arithmetic
        return true;
      case kBase:
        base_[c] = v32;
        return true;
      case kMax:
        if (!shape_.reception) return false;
        max_[c] = v32;
        return true;
      case kDecrement:
        decrement(c, v32);
        return true;
      default:
        return false;
    }
  }
  const uint32_t g = (offset - kGroupBase) / kGroupStride,
                 reg = (offset - kGroupBase) % kGroupStride;
  if (g >= shape_.groups) return false;
  const uint64_t m = v & group_mask();
  switch (reg) {
    case kEnable:
      enabled_[g] |= m;
      return width == 8;
    case kDisable:
      enabled_[g] &= ~m;
      return width == 8;
    case kClearHitZero:
      hit_zero_[g] &= ~m;
      return width == 8;
    case kClearErrors:
      underflow_[g] &= ~m;
      bounds_[g] &= ~m;
      return width == 8;
    case kIrqEnable:
      irq_enable_[g] = static_cast<uint32_t>(v) & 1;
      return width == 4;
    default:
      return false;
  }
}

DecrementResult CounterBankState::decrement(uint32_t c, uint32_t bytes, bool check_bounds,
                                            uint64_t addr, uint32_t len) {
  DecrementResult r;
  if (check_bounds && shape_.reception &&
      (addr < base_address(c) || addr + len - 1 > max_address(c) || len == 0)) {
    set(bounds_, c);
    r.out_of_bounds = true;
    return r;
  }
  if (bytes > value_[c]) {
    value_[c] = 0;
    set(underflow_, c);
    r.underflow = true;
    return r;
  }
  if (bytes == 0) return r;
  value_[c] -= bytes;
  if (value_[c] == 0) {
    set(hit_zero_, c);
    r.hit_zero = true;
  }
  return r;
}

}  // namespace hs::counters
