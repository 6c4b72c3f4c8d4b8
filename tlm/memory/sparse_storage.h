// Byte storage for simulated memories. Large ones (DRAM) allocate pages on first write, so a
// 4 GiB accelerator DRAM costs only what the workload touches; small ones (a local store) are
// one flat buffer, which is faster to reach. Unwritten bytes read as zero.
//
// Host windows: a range of the simulated memory can be made to *be* a range of host memory
// (map_host), so a user program's ordinary pointers (its heap, globals, stack) and the
// simulated addresses the hardware uses name the same bytes: a DMA engine writing the range
// writes the program's variables, and the program's own stores are what the engine reads.
// Rules:
// - A window covers whole 4 KiB pages of the simulated memory, and windows never overlap.
// - The storage never allocates or frees a window's bytes; whoever maps a window unmaps it
//   (or outlives the storage) before freeing them.
// - What the range held before it was mapped is dropped; after unmap_host it reads as zero.
// - A read-only window (program text and constants) refuses writes: write() returns false
//   and changes nothing, so the memory can answer with an error as the hardware would.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <unordered_map>
#include <vector>

namespace hs {

class SparseStorage {
 public:
  // 4 KiB pages: a torus node's firmware touches a handful of scattered regions (FIFOs,
  // descriptors, buffers), and a page per region keeps a 73,728-node machine in memory.
  static constexpr uint64_t kPageBits = 12;
  static constexpr uint64_t kPageSize = uint64_t{1} << kPageBits;

  static constexpr uint64_t kFlatLimit = 16 << 20;  // memories up to this size are flat

  // `capacity` 0: sparse without a declared size (test and helper memories).
  explicit SparseStorage(uint64_t capacity = 0);
  void read(uint64_t addr, uint8_t* dst, uint64_t len) const;
  // False (nothing written) when the range touches a read-only host window.
  bool write(uint64_t addr, const uint8_t* src, uint64_t len);

  // Host windows (above). Throws std::invalid_argument for a window that is not page-aligned
  // or overlaps another; unmap_host takes the address a window was mapped at.
  void map_host(uint64_t addr, void* host, uint64_t len, bool writable);
  void unmap_host(uint64_t addr);
  // The host bytes behind [addr, addr + len) when one window holds them all, else nullptr.
  uint8_t* host_pointer(uint64_t addr, uint64_t len) const;

 private:
  struct HostWindow {
    uint64_t lo, hi;  // [lo, hi) in the simulated memory
    uint8_t* host;
    bool writable;
  };
  // The window holding `addr`, or the next one above it (nullptr: none above).
  const HostWindow* window_at_or_above(uint64_t addr) const;
  void read_backing(uint64_t addr, uint8_t* dst, uint64_t len) const;
  void write_backing(uint64_t addr, const uint8_t* src, uint64_t len);
  uint8_t* page(uint64_t index, bool create) const;
  // Zeroed memory from calloc: fresh pages come zeroed from the OS, so large simulated
  // memories cost no user-space zero-filling (value-initialising arrays would memset them).
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  using Block = std::unique_ptr<uint8_t[], Free>;
  static Block zeroed(uint64_t bytes);
  Block flat_;
  mutable std::unordered_map<uint64_t, Block> pages_;
  mutable uint64_t last_index_ = ~uint64_t{0};
  mutable uint8_t* last_page_ = nullptr;
  std::vector<HostWindow> windows_;  // by address
};

}  // namespace hs
