// The host operating system's memory registration (pinning) service, as firmware sees it:
// register a virtual range (pin its pages, get a handle to their physical addresses for DMA)
// and deregister it. Both are expensive system calls whose cost is charged, in cycles, to the
// calling core. The OS refuses to pin when free unpinned memory would fall below a threshold.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "sw/hal/hal.h"

namespace hs::fw::os {

using Handle = uint64_t;

struct OsConfig {
  uint64_t register_cycles = 20000;     // fixed cost of a register call
  uint64_t register_page_cycles = 500;  // plus per pinned page
  uint64_t deregister_cycles = 10000;
  uint64_t deregister_page_cycles = 200;
  uint64_t page_bytes = 4096;
  uint64_t memory_bytes = uint64_t{16} << 30;  // pinnable memory in total
  uint64_t refuse_below_bytes = 0;             // refuse if free unpinned memory would drop below
  // Declares these as parameters under `prefix` (e.g. node0.host.os).
  static OsConfig declare(const std::string& prefix);
};

class OsModel {
 public:
  explicit OsModel(const OsConfig& cfg) : cfg_(cfg) {}

  // Pins [lo, hi); returns its handle, or nothing if the OS refuses (memory pressure).
  std::optional<Handle> register_range(Hal& hal, uint64_t lo, uint64_t hi);
  // Unpins a registration; false if `h` is not a live handle.
  bool deregister(Hal& hal, Handle h);
  // The live registration with exactly this range, if any (for pass-through deregisters).
  std::optional<Handle> find_exact(uint64_t lo, uint64_t hi) const;

  bool live(Handle h) const { return regs_.count(h) != 0; }
  uint64_t pinned_bytes() const { return pinned_bytes_; }
  // Page-rounded bytes a range pins.
  uint64_t pinned_size(uint64_t lo, uint64_t hi) const;
  // True if every byte of [lo, hi) lies in some live registration.
  bool covers(uint64_t lo, uint64_t hi) const;

  struct Counters {
    uint64_t register_calls = 0, deregister_calls = 0, refusals = 0, cycles = 0;
  };
  const Counters& counters() const { return counters_; }
  const OsConfig& config() const { return cfg_; }
  // For checkers (a probe on the simulated OS, not used by firmware): called when pages of
  // [lo, hi) stop being pinned.
  void observe_unpins(std::function<void(uint64_t lo, uint64_t hi)> observer) {
    unpin_observer_ = std::move(observer);
  }

 private:
  struct Registration {
    uint64_t lo, hi, bytes;
  };
  OsConfig cfg_;
  std::map<Handle, Registration> regs_;
  Handle next_handle_ = 1;
  uint64_t pinned_bytes_ = 0;
  Counters counters_;
  std::function<void(uint64_t, uint64_t)> unpin_observer_;
};

}  // namespace hs::fw::os
