// A program instance's private heap (malloc, new) over one range of host memory that is also
// a host window of the instance's simulated memory (sw/user/memory_windows.h), so every block
// the program allocates has a simulated address a DMA engine can reach.
//
// Rules:
// - Blocks are 16-byte aligned (or as asked, a power of two), each behind a 16-byte header
//   in the arena, as a C library's are: a program that writes before its block breaks the
//   header, and free() then reports the corruption instead of going on.
// - Small blocks (up to kSmallLimit) come from per-size free lists; larger ones are placed
//   best-fit among the free ranges, which merge with their neighbours when freed. Fresh
//   memory comes from the bottom of the arena upwards.
// - The arena's bookkeeping (free lists, ranges) lives outside it, in the simulator.
// - Nothing here is shared between instances.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hs::user {

class HeapArena {
 public:
  static constexpr size_t kHeader = 16;
  static constexpr size_t kSmallLimit = 1024;

  HeapArena(void* base, size_t bytes);
  HeapArena(const HeapArena&) = delete;
  HeapArena& operator=(const HeapArena&) = delete;

  // nullptr when the heap has no room (or `align` is not a power of two).
  void* allocate(size_t bytes, size_t align = 16);
  // A block of this heap, or nullptr; otherwise an error: `why` says what is wrong (an
  // invalid pointer, a double free, a header the program overwrote).
  bool release(void* p, std::string& why);
  // The block moved or grown to `bytes` (its contents kept), or nullptr when there is no room
  // (the old block is then untouched).
  void* reallocate(void* p, size_t bytes, std::string& why);
  // Usable bytes of a block of this heap (0: not one of its blocks).
  size_t usable_size(const void* p) const;

  bool owns(const void* p) const {
    const auto* c = static_cast<const char*>(p);
    return c >= base_ && c < base_ + bytes_;
  }
  char* base() const { return base_; }
  size_t bytes() const { return bytes_; }
  size_t in_use() const { return in_use_; }   // bytes of blocks, headers included
  size_t peak() const { return peak_; }       // the most in_use has been
  size_t high_water() const { return top_; }  // the most of the arena ever touched

 private:
  struct Header {
    uint32_t magic;
    uint32_t pad;       // bytes between the block's start and this header (over-aligned blocks)
    uint64_t capacity;  // usable bytes after the header
  };
  static_assert(sizeof(Header) == kHeader);
  static constexpr uint32_t kLive = 0x4C495645;                          // "LIVE"
  static constexpr uint32_t kFree = 0x46524545;                          // "FREE"
  static size_t small_class(size_t bytes) { return (bytes + 15) / 16; }  // 1..64
  Header* header_of(const void* p) const;
  // A range of `total` bytes (a multiple of 16) from the free ranges or the top; ~0 if none.
  size_t take_range(size_t total);
  void give_range(size_t offset, size_t total);
  bool check(const void* p, Header*& h, std::string& why) const;

  char* base_;
  size_t bytes_;
  size_t top_ = 0;  // first never-used byte
  size_t in_use_ = 0, peak_ = 0;
  std::vector<std::vector<size_t>> small_free_;  // by class: offsets of free blocks
  std::map<size_t, size_t> free_by_offset_;      // large free ranges: offset -> bytes
  std::multimap<size_t, size_t> free_by_size_;   // the same: bytes -> offset
};

}  // namespace hs::user
