#include "sw/slmpm/receive_slots.h"

#include <stdexcept>

namespace hs::fw::slmpm {

ReceiveSlots::ReceiveSlots(uint64_t base, uint32_t count, uint64_t bytes)
    : base_(base), bytes_(bytes), busy_(count, false) {
  if (count == 0) throw std::invalid_argument("a receive area needs at least one slot");
}

std::optional<uint64_t> ReceiveSlots::claim() {
  const auto n = static_cast<uint32_t>(busy_.size());
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t s = (next_ + i) % n;
    if (busy_[s]) continue;
    busy_[s] = true;
    ++busy_count_;
    next_ = (s + 1) % n;
    return base_ + uint64_t{s} * bytes_;
  }
  return std::nullopt;
}

bool ReceiveSlots::release(uint64_t address) {
  if (address < base_ || (address - base_) % bytes_ != 0) return false;
  const uint64_t s = (address - base_) / bytes_;
  if (s >= busy_.size() || !busy_[s]) return false;
  busy_[s] = false;
  --busy_count_;
  return true;
}

}  // namespace hs::fw::slmpm
