#include "sw/user/heap_arena.h"

#include <fmt/format.h>
#include <algorithm>
#include <cstring>

namespace hs::user {

HeapArena::HeapArena(void* base, size_t bytes)
    : base_(static_cast<char*>(base)), bytes_(bytes & ~size_t{15}), small_free_(65) {}

HeapArena::Header* HeapArena::header_of(const void* p) const {
  return reinterpret_cast<Header*>(const_cast<char*>(static_cast<const char*>(p)) - kHeader);
}

size_t HeapArena::take_range(size_t total) {
  auto fit = free_by_size_.lower_bound(total);
  if (fit != free_by_size_.end()) {
    const size_t size = fit->first, offset = fit->second;
    free_by_size_.erase(fit);
    free_by_offset_.erase(offset);
    if (size > total) give_range(offset + total, size - total);
    return offset;
  }
  if (bytes_ - top_ < total) return ~size_t{0};
  const size_t offset = top_;
  top_ += total;
  return offset;
}

void HeapArena::give_range(size_t offset, size_t total) {
  // Merge with the free neighbours; a range ending at the top lowers the top instead.
  auto next = free_by_offset_.lower_bound(offset);
  if (next != free_by_offset_.end() && next->first == offset + total) {
    total += next->second;
    auto range = free_by_size_.equal_range(next->second);
    for (auto it = range.first; it != range.second; ++it) {
      if (it->second == next->first) {
        free_by_size_.erase(it);
        break;
      }
    }
    next = free_by_offset_.erase(next);
  }
  if (next != free_by_offset_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      auto range = free_by_size_.equal_range(prev->second);
      for (auto it = range.first; it != range.second; ++it) {
        if (it->second == prev->first) {
          free_by_size_.erase(it);
          break;
        }
      }
      offset = prev->first;
      total += prev->second;
      free_by_offset_.erase(prev);
    }
  }
  if (offset + total == top_) {
    top_ = offset;
    return;
  }
  free_by_offset_.emplace(offset, total);
  free_by_size_.emplace(total, offset);
}

void* HeapArena::allocate(size_t bytes, size_t align) {
  if (align == 0 || (align & (align - 1)) != 0) return nullptr;
  if (bytes > bytes_) return nullptr;
  align = std::max<size_t>(align, 16);
  const size_t capacity = std::max<size_t>(16, (bytes + 15) & ~size_t{15});
  size_t offset, pad = 0;
  if (align == 16 && capacity <= kSmallLimit) {
    auto& list = small_free_[small_class(capacity)];
    if (!list.empty()) {
      offset = list.back();
      list.pop_back();
    } else {
      offset = take_range(kHeader + capacity);
      if (offset == ~size_t{0}) return nullptr;
    }
  } else {
    // Room to move the header up to the next multiple of `align`.
    offset = take_range(kHeader + capacity + align - 16);
    if (offset == ~size_t{0}) return nullptr;
    const uintptr_t user = reinterpret_cast<uintptr_t>(base_ + offset + kHeader);
    pad = (align - user % align) % align;
    // The slack after the block goes back at once.
    const size_t slack = align - 16 - pad;
    if (slack > 0) give_range(offset + kHeader + pad + capacity, slack);
  }
  auto* h = reinterpret_cast<Header*>(base_ + offset + pad);
  h->magic = kLive;
  h->pad = static_cast<uint32_t>(pad);
  h->capacity = capacity;
  in_use_ += kHeader + pad + capacity;
  peak_ = std::max(peak_, in_use_);
  return base_ + offset + pad + kHeader;
}

bool HeapArena::check(const void* p, Header*& h, std::string& why) const {
  const auto at = reinterpret_cast<uintptr_t>(p);
  if (!owns(p) || at % 16 != 0 || static_cast<const char*>(p) < base_ + kHeader) {
    why = fmt::format("{}: invalid pointer (not a block of the heap)", p);
    return false;
  }
  h = header_of(p);
  if (h->magic == kFree) {
    why = fmt::format("{}: double free", p);
    return false;
  }
  if (h->magic != kLive || h->capacity > bytes_ ||
      static_cast<const char*>(p) + h->capacity > base_ + top_ ||
      static_cast<const char*>(p) - kHeader - h->pad < base_) {
    why = fmt::format("{}: invalid pointer, or a block whose header the program overwrote", p);
    return false;
  }
  return true;
}

bool HeapArena::release(void* p, std::string& why) {
  Header* h = nullptr;
  if (!check(p, h, why)) return false;
  const size_t capacity = h->capacity, pad = h->pad;
  const size_t offset = static_cast<size_t>(static_cast<char*>(p) - kHeader - pad - base_);
  h->magic = kFree;
  in_use_ -= kHeader + pad + capacity;
  if (pad == 0 && capacity <= kSmallLimit) {
    small_free_[small_class(capacity)].push_back(offset);
  } else {
    give_range(offset, kHeader + pad + capacity);
  }
  return true;
}

void* HeapArena::reallocate(void* p, size_t bytes, std::string& why) {
  Header* h = nullptr;
  if (!check(p, h, why)) return nullptr;
  if (bytes <= h->capacity) return p;
  void* q = allocate(bytes, 16);
  if (!q) return nullptr;
  std::memcpy(q, p, h->capacity);
  release(p, why);
  return q;
}

size_t HeapArena::usable_size(const void* p) const {
  Header* h = nullptr;
  std::string why;
  return check(p, h, why) ? h->capacity : 0;
}

}  // namespace hs::user
