// Byte storage for simulated memories. Large ones (DRAM) allocate pages on first write, so a
// 4 GiB accelerator DRAM costs only what the workload touches; small ones (a local store) are
// one flat buffer, which is faster to reach. Unwritten bytes read as zero.
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
  void write(uint64_t addr, const uint8_t* src, uint64_t len);

 private:
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
};

}  // namespace hs
