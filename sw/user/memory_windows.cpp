#include "sw/user/memory_windows.h"

#include <fmt/format.h>
#include <algorithm>
#include <stdexcept>

namespace hs::user {

const MemoryWindow& MemoryWindows::add(const void* host, uint64_t bytes, bool writable,
                                       const std::string& what) {
  const uintptr_t lo = reinterpret_cast<uintptr_t>(host) & ~uintptr_t{kPage - 1};
  const uintptr_t hi = (reinterpret_cast<uintptr_t>(host) + bytes + kPage - 1) & ~(kPage - 1);
  const uint64_t span = hi - lo;
  if (span > end_ - next_) {
    throw std::length_error(fmt::format(
        "the program's {} ({} KiB) do not fit in its {} MiB of simulated memory ({} KiB "
        "left)",
        what, span >> 10, (end_ - base_) >> 20, (end_ - next_) >> 10));
  }
  MemoryWindow w{lo, next_, span, writable, what};
  next_ += span;
  auto at = std::upper_bound(
      windows_.begin(), windows_.end(), w,
      [](const MemoryWindow& a, const MemoryWindow& b) { return a.host < b.host; });
  return *windows_.insert(at, w);
}

const MemoryWindow* MemoryWindows::holding(const void* p, size_t len) const {
  const auto a = reinterpret_cast<uintptr_t>(p);
  auto it = std::upper_bound(windows_.begin(), windows_.end(), a,
                             [](uintptr_t x, const MemoryWindow& w) { return x < w.host; });
  if (it == windows_.begin()) return nullptr;
  --it;
  if (a - it->host >= it->bytes || len > it->bytes - (a - it->host)) return nullptr;
  return &*it;
}

std::optional<uint64_t> MemoryWindows::to_simulated(const void* p, size_t len) const {
  const MemoryWindow* w = holding(p, len);
  if (!w) return std::nullopt;
  return w->simulated + (reinterpret_cast<uintptr_t>(p) - w->host);
}

bool MemoryWindows::writable(const void* p, size_t len) const {
  const MemoryWindow* w = holding(p, len);
  return w && w->writable;
}

void* MemoryWindows::to_host(uint64_t addr, size_t len) const {
  for (const auto& w : windows_) {
    if (addr >= w.simulated && addr - w.simulated < w.bytes &&
        len <= w.bytes - (addr - w.simulated)) {
      return reinterpret_cast<void*>(w.host + (addr - w.simulated));
    }
  }
  return nullptr;
}

}  // namespace hs::user
