// The SLMPM's cache of registered (pinned) address ranges.
//
// The application's register/deregister calls come here instead of to the OS. A register that
// falls entirely within a cached range is a hit: no system call, the entry's counter goes up
// and its handle (plus the offset inside it) comes back. A deregister hit only counts down;
// pages are unpinned when an entry is evicted. Entries are kept newest first; the victim is
// the entry with the lowest counter, the oldest among equals.
//
// Choices where the source is silent or wrong:
// - a miss on a full cache evicts first, then registers, so a pinned budget is never exceeded;
// - an OS refusal evicts a victim and retries, until it succeeds or nothing is evictable;
// - a deregister that hits no entry passes through to the OS if the OS has exactly that range
//   registered, and is an error otherwise; a deregister hit on an entry whose counter is
//   already 0 is an error (more deregisters than registers);
// - safety mode never evicts an entry whose counter is above 0 (no handle in use goes stale):
//   a full cache of in-use entries is then an error returned to the application.
#pragma once
#include <cstdint>
#include <list>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sw/hal/hal.h"
#include "sw/os/os_model.h"

namespace hs::fw::slmpm {

struct CacheConfig {
  size_t max_entries = 64;  // 0: unlimited
  bool safety = false;      // never evict entries in use
  static CacheConfig declare(const std::string& prefix);
};

struct Registration {
  os::Handle handle = 0;
  uint64_t offset = 0;  // of the requested range inside the registered one
  bool hit = false;
};

struct CacheEntry {
  uint64_t lo, hi;
  os::Handle handle;
  int64_t counter;
  uint64_t inserted;  // insertion sequence: larger is newer
};

class RegistrationCache {
 public:
  RegistrationCache(os::OsModel& os, const CacheConfig& cfg) : os_(os), cfg_(cfg) {}

  // Registers [lo, hi). On failure returns nothing and sets `error` to why.
  std::optional<Registration> register_range(Hal& hal, uint64_t lo, uint64_t hi,
                                             std::string& error);
  // Deregisters [lo, hi). Returns false with `error` set on misuse. When entries overlap, the
  // newest containing [lo, hi) counts down, which need not be the one its register counted.
  bool deregister(Hal& hal, uint64_t lo, uint64_t hi, std::string& error);
  // Deregisters [lo, hi) that register_range() answered with `handle`: counts down exactly the
  // entry that register counted, even if a newer overlapping entry also contains the range
  // (otherwise that entry would reach 0 while its own DMA is in flight). A handle already
  // evicted has nothing left to count down.
  bool deregister(Hal& hal, uint64_t lo, uint64_t hi, os::Handle handle, std::string& error);

  // Entries newest first.
  const std::list<CacheEntry>& entries() const { return entries_; }
  // The cache's invariants (for checkers): within its size limit, and, when all pinning goes
  // through it, the OS pins exactly what its entries hold. Returns "" or what is wrong.
  std::string check_invariants() const;
  // For the stale-handle checker: a handle whose entry was evicted.
  bool evicted(os::Handle h) const { return evicted_.count(h) != 0; }

  struct Counters {
    uint64_t hits = 0, misses = 0, evictions = 0, os_refusals_retried = 0, deregister_hits = 0,
             deregister_passthrough = 0, deregister_evicted = 0;
  };
  const Counters& counters() const { return counters_; }

 private:
  std::list<CacheEntry>::iterator find_containing(uint64_t lo, uint64_t hi);
  std::list<CacheEntry>::iterator victim();
  bool evict(Hal& hal);  // false if nothing is evictable

  os::OsModel& os_;
  CacheConfig cfg_;
  std::list<CacheEntry> entries_;
  std::set<os::Handle> evicted_;
  uint64_t next_sequence_ = 0;
  Counters counters_;
};

}  // namespace hs::fw::slmpm
