// How a program's ordinary host pointers correspond to the simulated memory of the node or
// core it runs on.
//
// The rule: every byte a program owns lies in a host window of its simulated memory
// (tlm/memory/sparse_storage.h): its heap (sw/user/heap_arena.h), its globals and statics
// (the writable segments of its private module copy), its stack (its core's fiber stack),
// and its code and constants (read-only windows). A window maps a host range one-to-one onto a
// simulated range, so the program reads and writes its variables as host memory while a DMA
// engine, the message layer or a checker reaches the same bytes at their simulated
// addresses. An API that takes a buffer (MPI_Send) translates the pointer with to_simulated;
// memory the program did not get from those four places (thread-local blocks the C library
// allocated, its own mmap) has no simulated address, and such an API stages it through a
// buffer of the heap instead (and says so in its documentation).
//
// Windows are laid out from the bottom of the instance's simulated region, each starting on a
// page boundary, in the order they are added; the heap takes what is left.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hs::user {

struct MemoryWindow {
  uintptr_t host = 0;  // page-aligned
  uint64_t simulated = 0;
  uint64_t bytes = 0;  // whole pages
  bool writable = true;
  std::string what;  // "heap", "stack", "globals", "code and constants"
};

class MemoryWindows {
 public:
  static constexpr uint64_t kPage = 4096;

  // The instance's simulated region: [base, base + bytes).
  MemoryWindows(uint64_t base, uint64_t bytes) : base_(base), end_(base + bytes), next_(base) {}

  // Places the host range [host, host + bytes) (widened to whole pages) at the next free
  // simulated address. Throws std::length_error when the region has no room left, naming
  // `what` and the sizes.
  const MemoryWindow& add(const void* host, uint64_t bytes, bool writable, const std::string& what);
  // The rest of the region, for the heap: its simulated base and size.
  uint64_t free_base() const { return next_; }
  uint64_t free_bytes() const { return end_ - next_; }

  // The simulated address of [p, p + len) when one window holds all of it.
  std::optional<uint64_t> to_simulated(const void* p, size_t len) const;
  // Whether that window may be written (a receive buffer must be).
  bool writable(const void* p, size_t len) const;
  // The host address of simulated [addr, addr + len) when one window holds all of it.
  void* to_host(uint64_t addr, size_t len) const;

  const std::vector<MemoryWindow>& all() const { return windows_; }
  uint64_t base() const { return base_; }

 private:
  const MemoryWindow* holding(const void* p, size_t len) const;
  uint64_t base_, end_, next_;
  std::vector<MemoryWindow> windows_;  // in host address order
};

}  // namespace hs::user
