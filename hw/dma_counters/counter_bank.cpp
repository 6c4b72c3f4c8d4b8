#include "hw/dma_counters/counter_bank.h"

namespace hs::counters {

CounterBankState::CounterBankState(const BankShape& shape)
    : shape_(shape),
      enabled_(shape.groups, 0),
      hit_zero_(shape.groups, 0),
      underflow_(shape.groups, 0),
      bounds_(shape.groups, 0),
      irq_enable_(shape.groups, 0) {}

void CounterBankState::materialize() {
  if (!value_.empty()) return;
  value_.assign(shape_.counters(), kResetValue);
  base_.assign(shape_.counters(), 0);
  max_.assign(shape_.counters(), 0);
}

uint32_t CounterBankState::group_status(uint32_t g) const {
  const uint64_t live = hit_zero_[g] & enabled_[g];
  uint32_t status = 0;
  for (uint32_t s = 0; s * kSubgroup < shape_.per_group; ++s) {
    if ((live >> (s * kSubgroup)) & 0xFF) status |= 1u << s;
  }
  return status;
}

bool CounterBankState::is_register(uint32_t offset, unsigned width, bool write) const {
  const bool wide = width == 8;
  if (width != 4 && !wide) return false;
  if (offset < kGroupBase) {
    if (offset / kCounterStride >= shape_.counters() || wide) return false;
    switch (offset % kCounterStride) {
      case kValue:
      case kBase:
        return true;
      case kIncrement:
      case kDecrement:
        return write;
      case kMax:
        return shape_.reception;
      default:
        return false;
    }
  }
  if ((offset - kGroupBase) / kGroupStride >= shape_.groups) return false;
  switch ((offset - kGroupBase) % kGroupStride) {
    case kEnabled:
    case kHitZero:
    case kUnderflow:
      return !write && wide;
    case kBounds:
      return !write && wide && shape_.reception;
    case kEnable:
    case kDisable:
    case kClearHitZero:
    case kClearErrors:
      return write && wide;
    case kStatus:
      return !write && !wide;
    case kIrqEnable:
      return !wide;
    default:
      return false;
  }
}

bool CounterBankState::read(uint32_t offset, unsigned width, uint64_t& v) const {
  if (!is_register(offset, width, false)) return false;
  if (offset < kGroupBase) {
    const uint32_t c = offset / kCounterStride;
    switch (offset % kCounterStride) {
      case kValue:
        v = value(c);
        break;
      case kBase:
        v = base_address(c) >> 4;
        break;
      default:  // kMax
        v = max_address(c) >> 4;
        break;
    }
    return true;
  }
  const uint32_t g = (offset - kGroupBase) / kGroupStride;
  switch ((offset - kGroupBase) % kGroupStride) {
    case kEnabled:
      v = enabled_[g];
      break;
    case kHitZero:
      v = hit_zero_[g];
      break;
    case kUnderflow:
      v = underflow_[g];
      break;
    case kBounds:
      v = bounds_[g];
      break;
    case kStatus:
      v = group_status(g);
      break;
    default:  // kIrqEnable
      v = irq_enable_[g];
      break;
  }
  return true;
}

bool CounterBankState::write(uint32_t offset, uint64_t v, unsigned width) {
  if (!is_register(offset, width, true)) return false;
  if (offset < kGroupBase) {
    const uint32_t c = offset / kCounterStride;
    const auto v32 = static_cast<uint32_t>(v);
    materialize();
    switch (offset % kCounterStride) {
      case kValue:
        value_[c] = v32;
        break;
      case kIncrement:
        value_[c] += v32;  // extending a transfer; a wrap here is the writer's arithmetic
        break;
      case kBase:
        base_[c] = v32;
        break;
      case kMax:
        max_[c] = v32;
        break;
      default:  // kDecrement
        decrement(c, v32);
        break;
    }
    return true;
  }
  const uint32_t g = (offset - kGroupBase) / kGroupStride;
  const uint64_t m = v & group_mask();
  switch ((offset - kGroupBase) % kGroupStride) {
    case kEnable:
      enabled_[g] |= m;
      break;
    case kDisable:
      enabled_[g] &= ~m;
      break;
    case kClearHitZero:
      hit_zero_[g] &= ~m;
      break;
    case kClearErrors:
      underflow_[g] &= ~m;
      bounds_[g] &= ~m;
      break;
    default:  // kIrqEnable
      irq_enable_[g] = static_cast<uint32_t>(v) & 1;
      break;
  }
  return true;
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
  materialize();
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
