#include "tlm/memory/sparse_storage.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace hs {

uint8_t* SparseStorage::page(uint64_t index, bool create) const {
  if (index == last_index_) return last_page_;
  auto it = pages_.find(index);
  if (it == pages_.end()) {
    if (!create) return nullptr;
    it = pages_.emplace(index, zeroed(kPageSize)).first;
  }
  last_index_ = index;
  last_page_ = it->second.get();
  return last_page_;
}

SparseStorage::Block SparseStorage::zeroed(uint64_t bytes) {
  auto* p = static_cast<uint8_t*>(std::calloc(1, bytes));
  if (!p) throw std::bad_alloc();
  return Block(p);
}

SparseStorage::SparseStorage(uint64_t capacity) {
  if (capacity > 0 && capacity <= kFlatLimit) flat_ = zeroed(capacity);
}

void SparseStorage::read(uint64_t addr, uint8_t* dst, uint64_t len) const {
  if (flat_) {
    std::memcpy(dst, flat_.get() + addr, len);  // the caller checked the range
    return;
  }
  while (len > 0) {
    uint64_t off = addr & (kPageSize - 1);
    uint64_t n = std::min(len, kPageSize - off);
    if (const uint8_t* p = page(addr >> kPageBits, false)) {
      std::memcpy(dst, p + off, n);
    } else {
      std::memset(dst, 0, n);
    }
    addr += n;
    dst += n;
    len -= n;
  }
}

void SparseStorage::write(uint64_t addr, const uint8_t* src, uint64_t len) {
  if (flat_) {
    std::memcpy(flat_.get() + addr, src, len);
    return;
  }
  while (len > 0) {
    uint64_t off = addr & (kPageSize - 1);
    uint64_t n = std::min(len, kPageSize - off);
    std::memcpy(page(addr >> kPageBits, true) + off, src, n);
    addr += n;
    src += n;
    len -= n;
  }
}

}  // namespace hs
