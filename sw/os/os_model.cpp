#include "sw/os/os_model.h"

#include <algorithm>
#include <vector>

#include "tlm/params/param_registry.h"

namespace hs::fw::os {

OsConfig OsConfig::declare(const std::string& prefix) {
  ParamScope p(prefix);
  OsConfig c;
  auto cycles = [&](const char* leaf, uint64_t def, const char* desc) {
    return static_cast<uint64_t>(
        p.integer(leaf, static_cast<int64_t>(def), "cycles", desc, Range::between(0, 1e9)));
  };
  c.register_cycles =
      cycles("register_cycles", c.register_cycles, "fixed cost of registering a range");
  c.register_page_cycles =
      cycles("register_page_cycles", c.register_page_cycles, "registration cost per pinned page");
  c.deregister_cycles =
      cycles("deregister_cycles", c.deregister_cycles, "fixed cost of deregistering a range");
  c.deregister_page_cycles = cycles("deregister_page_cycles", c.deregister_page_cycles,
                                    "deregistration cost per unpinned page");
  c.page_bytes =
      static_cast<uint64_t>(p.integer("page_size", static_cast<int64_t>(c.page_bytes), "B",
                                      "page size", Range::one_of({4096, 65536, 2 * 1024 * 1024})));
  c.memory_bytes = static_cast<uint64_t>(
      p.integer("pinnable_memory", static_cast<int64_t>(c.memory_bytes), "B",
                "memory the OS can pin in total", Range::between(4096, 1e15)));
  c.refuse_below_bytes = static_cast<uint64_t>(
      p.integer("refuse_below", static_cast<int64_t>(c.refuse_below_bytes), "B",
                "the OS refuses to pin if free unpinned memory would drop below this",
                Range::between(0, 1e15)));
  return c;
}

uint64_t OsModel::pinned_size(uint64_t lo, uint64_t hi) const {
  const uint64_t first = lo / cfg_.page_bytes, last = (hi + cfg_.page_bytes - 1) / cfg_.page_bytes;
  return (last - first) * cfg_.page_bytes;
}

std::optional<Handle> OsModel::register_range(Hal& hal, uint64_t lo, uint64_t hi) {
  ++counters_.register_calls;
  const uint64_t bytes = pinned_size(lo, hi);
  const uint64_t cost =
      cfg_.register_cycles + cfg_.register_page_cycles * (bytes / cfg_.page_bytes);
  counters_.cycles += cost;
  hal.compute(cost);
  const uint64_t free_after =
      cfg_.memory_bytes - std::min(cfg_.memory_bytes, pinned_bytes_ + bytes);
  if (pinned_bytes_ + bytes > cfg_.memory_bytes || free_after < cfg_.refuse_below_bytes) {
    ++counters_.refusals;
    return std::nullopt;
  }
  const Handle h = next_handle_++;
  regs_[h] = {lo, hi, bytes};
  pinned_bytes_ += bytes;
  return h;
}

bool OsModel::deregister(Hal& hal, Handle h) {
  auto it = regs_.find(h);
  ++counters_.deregister_calls;
  if (it == regs_.end()) return false;
  const uint64_t cost =
      cfg_.deregister_cycles + cfg_.deregister_page_cycles * (it->second.bytes / cfg_.page_bytes);
  counters_.cycles += cost;
  hal.compute(cost);
  pinned_bytes_ -= it->second.bytes;
  const uint64_t lo = it->second.lo, hi = it->second.hi;
  regs_.erase(it);
  if (unpin_observer_) unpin_observer_(lo, hi);
  return true;
}

std::optional<Handle> OsModel::find_exact(uint64_t lo, uint64_t hi) const {
  for (const auto& [h, r] : regs_) {
    if (r.lo == lo && r.hi == hi) return h;
  }
  return std::nullopt;
}

bool OsModel::covers(uint64_t lo, uint64_t hi) const {
  std::vector<std::pair<uint64_t, uint64_t>> v;
  for (const auto& [h, r] : regs_) v.emplace_back(r.lo, r.hi);
  std::sort(v.begin(), v.end());
  uint64_t reach = lo;
  for (const auto& [a, b] : v) {
    if (a > reach) break;
    reach = std::max(reach, b);
    if (reach >= hi) return true;
  }
  return reach >= hi;
}

}  // namespace hs::fw::os
