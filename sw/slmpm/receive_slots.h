// The accelerator's receive area for messages the host sends without naming a destination:
// `count` slots of `bytes` each, handed out round robin but only when free. A slot is claimed
// when the accelerator answers a message's header (or starts its DMA) and released once the
// message has been delivered, so a later message can never land in a slot whose message is
// still arriving. Headers arrive in a different order from the one the host sent them in (two
// fabrics, SMT and DMA side by side), so counting arrivals alone cannot guarantee that.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

namespace hs::fw::slmpm {

class ReceiveSlots {
 public:
  ReceiveSlots(uint64_t base, uint32_t count, uint64_t bytes);
  // The next free slot's address in round-robin order, now claimed; nothing if all are busy.
  std::optional<uint64_t> claim();
  // Frees the slot at `address`; false if no claim() returned it or it is already free.
  bool release(uint64_t address);
  uint32_t busy() const { return busy_count_; }

 private:
  uint64_t base_, bytes_;
  std::vector<bool> busy_;
  uint32_t next_ = 0, busy_count_ = 0;
};

}  // namespace hs::fw::slmpm
