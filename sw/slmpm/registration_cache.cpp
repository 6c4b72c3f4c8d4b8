#include "sw/slmpm/registration_cache.h"

#include <fmt/format.h>

#include "tlm/params/param_registry.h"

namespace hs::fw::slmpm {

CacheConfig CacheConfig::declare(const std::string& prefix) {
  ParamScope p(prefix);
  CacheConfig c;
  c.max_entries = static_cast<size_t>(p.integer("max_entries", static_cast<int64_t>(c.max_entries),
                                                "entries", "cached registrations (0: unlimited)",
                                                Range::between(0, 1 << 20)));
  c.safety = p.flag("safety", c.safety,
                    "never evict an entry whose counter is above 0 (no stale handles)");
  return c;
}

std::list<CacheEntry>::iterator RegistrationCache::find_containing(uint64_t lo, uint64_t hi) {
  // Newest first: overlapping entries may coexist; the most recent one serves.
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->lo <= lo && hi <= it->hi) return it;
  }
  return entries_.end();
}

std::list<CacheEntry>::iterator RegistrationCache::victim() {
  auto best = entries_.end();
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (cfg_.safety && it->counter > 0) continue;
    // Lowest counter; the list is newest first, so a later equal one is older and wins ties.
    if (best == entries_.end() || it->counter <= best->counter) best = it;
  }
  return best;
}

bool RegistrationCache::evict(Hal& hal) {
  auto v = victim();
  if (v == entries_.end()) return false;
  os_.deregister(hal, v->handle);
  evicted_.insert(v->handle);
  entries_.erase(v);
  ++counters_.evictions;
  return true;
}

std::optional<Registration> RegistrationCache::register_range(Hal& hal, uint64_t lo, uint64_t hi,
                                                              std::string& error) {
  if (hi <= lo) {
    error = fmt::format("register of an empty or reversed range [{:#x}, {:#x})", lo, hi);
    return std::nullopt;
  }
  if (auto it = find_containing(lo, hi); it != entries_.end()) {
    ++it->counter;
    ++counters_.hits;
    return Registration{it->handle, lo - it->lo, true};
  }
  ++counters_.misses;
  if (cfg_.max_entries && entries_.size() >= cfg_.max_entries && !evict(hal)) {
    error = fmt::format(
        "registration cache full ({} entries, all in use): cannot register "
        "[{:#x}, {:#x})",
        entries_.size(), lo, hi);
    return std::nullopt;
  }
  for (;;) {
    if (auto h = os_.register_range(hal, lo, hi)) {
      entries_.push_front({lo, hi, *h, 1, next_sequence_++});
      return Registration{*h, 0, false};
    }
    ++counters_.os_refusals_retried;
    if (!evict(hal)) {
      error = fmt::format(
          "unable to register [{:#x}, {:#x}): the OS refuses to pin more memory "
          "and no cached registration can be released",
          lo, hi);
      return std::nullopt;
    }
  }
}

std::string RegistrationCache::check_invariants() const {
  if (cfg_.max_entries && entries_.size() > cfg_.max_entries) {
    return fmt::format("{} entries exceed the limit of {}", entries_.size(), cfg_.max_entries);
  }
  uint64_t pinned = 0;
  for (const auto& e : entries_) {
    if (!os_.live(e.handle))
      return fmt::format("entry [{:#x}, {:#x}) holds a dead handle", e.lo, e.hi);
    if (e.counter < 0)
      return fmt::format("entry [{:#x}, {:#x}) has counter {}", e.lo, e.hi, e.counter);
    pinned += os_.pinned_size(e.lo, e.hi);
  }
  if (pinned != os_.pinned_bytes()) {
    return fmt::format("the OS pins {} B but the cached entries hold {} B", os_.pinned_bytes(),
                       pinned);
  }
  return "";
}

bool RegistrationCache::deregister(Hal& hal, uint64_t lo, uint64_t hi, std::string& error) {
  if (auto it = find_containing(lo, hi); it != entries_.end()) {
    if (it->counter == 0) {
      error = fmt::format("deregister of [{:#x}, {:#x}) without a matching register", lo, hi);
      return false;
    }
    --it->counter;
    ++counters_.deregister_hits;
    return true;
  }
  if (auto h = os_.find_exact(lo, hi)) {
    ++counters_.deregister_passthrough;
    return os_.deregister(hal, *h);
  }
  error = fmt::format("deregister of [{:#x}, {:#x}): not registered", lo, hi);
  return false;
}

bool RegistrationCache::deregister(Hal& hal, uint64_t lo, uint64_t hi, os::Handle handle,
                                   std::string& error) {
  for (auto& e : entries_) {
    if (e.handle != handle) continue;
    if (lo < e.lo || e.hi < hi) {
      error = fmt::format("deregister of [{:#x}, {:#x}) with the handle of [{:#x}, {:#x})", lo, hi,
                          e.lo, e.hi);
      return false;
    }
    if (e.counter == 0) {
      error = fmt::format("deregister of [{:#x}, {:#x}) without a matching register", lo, hi);
      return false;
    }
    --e.counter;
    ++counters_.deregister_hits;
    return true;
  }
  if (evicted_.count(handle)) {
    // Unpinned when it was evicted (the stale-handle hazard the checker reports).
    ++counters_.deregister_evicted;
    return true;
  }
  return deregister(hal, lo, hi, error);  // not registered through the cache
}

}  // namespace hs::fw::slmpm
