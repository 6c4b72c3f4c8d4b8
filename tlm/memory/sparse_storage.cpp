#include "tlm/memory/sparse_storage.h"

#include <fmt/format.h>
#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>

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
  if (windows_.empty()) return read_backing(addr, dst, len);
  while (len > 0) {
    const HostWindow* w = window_at_or_above(addr);
    if (!w || w->lo >= addr + len) return read_backing(addr, dst, len);
    if (w->lo > addr) {  // the part below the window
      const uint64_t n = w->lo - addr;
      read_backing(addr, dst, n);
      addr += n, dst += n, len -= n;
    }
    const uint64_t n = std::min(len, w->hi - addr);
    std::memcpy(dst, w->host + (addr - w->lo), n);
    addr += n, dst += n, len -= n;
  }
}

bool SparseStorage::write(uint64_t addr, const uint8_t* src, uint64_t len) {
  if (windows_.empty()) {
    write_backing(addr, src, len);
    return true;
  }
  // Refused whole, before any byte lands, when the range touches a read-only window.
  const HostWindow* const end = windows_.data() + windows_.size();
  for (const HostWindow* w = window_at_or_above(addr); w && w != end && w->lo < addr + len; ++w) {
    if (!w->writable) return false;
  }
  while (len > 0) {
    const HostWindow* w = window_at_or_above(addr);
    if (!w || w->lo >= addr + len) {
      write_backing(addr, src, len);
      return true;
    }
    if (w->lo > addr) {
      const uint64_t n = w->lo - addr;
      write_backing(addr, src, n);
      addr += n, src += n, len -= n;
    }
    const uint64_t n = std::min(len, w->hi - addr);
    std::memcpy(w->host + (addr - w->lo), src, n);
    addr += n, src += n, len -= n;
  }
  return true;
}

const SparseStorage::HostWindow* SparseStorage::window_at_or_above(uint64_t addr) const {
  auto it = std::upper_bound(windows_.begin(), windows_.end(), addr,
                             [](uint64_t a, const HostWindow& w) { return a < w.hi; });
  return it == windows_.end() ? nullptr : &*it;
}

void SparseStorage::map_host(uint64_t addr, void* host, uint64_t len, bool writable) {
  if (len == 0 || (addr | len) & (kPageSize - 1)) {
    throw std::invalid_argument(
        fmt::format("host window of {} B at {:#x}: windows cover whole 4 KiB pages", len, addr));
  }
  const HostWindow* next = window_at_or_above(addr);
  if (next && next->lo < addr + len) {
    throw std::invalid_argument(
        fmt::format("host window [{:#x}, {:#x}) overlaps the window [{:#x}, {:#x})", addr,
                    addr + len, next->lo, next->hi));
  }
  // What the range held is dropped (flat storage keeps its bytes hidden under the window).
  for (uint64_t i = addr >> kPageBits; i < (addr + len) >> kPageBits; ++i) pages_.erase(i);
  last_index_ = ~uint64_t{0};
  last_page_ = nullptr;
  const HostWindow w{addr, addr + len, static_cast<uint8_t*>(host), writable};
  windows_.insert(
      std::upper_bound(windows_.begin(), windows_.end(), w,
                       [](const HostWindow& a, const HostWindow& b) { return a.lo < b.lo; }),
      w);
}

void SparseStorage::unmap_host(uint64_t addr) {
  auto it = std::find_if(windows_.begin(), windows_.end(),
                         [&](const HostWindow& w) { return w.lo == addr; });
  if (it == windows_.end()) return;
  // The range reads as zero again (flat storage kept its old bytes under the window).
  if (flat_) std::memset(flat_.get() + it->lo, 0, it->hi - it->lo);
  windows_.erase(it);
}

uint8_t* SparseStorage::host_pointer(uint64_t addr, uint64_t len) const {
  const HostWindow* w = window_at_or_above(addr);
  if (!w || w->lo > addr || len > w->hi - addr) return nullptr;
  return w->host + (addr - w->lo);
}

void SparseStorage::read_backing(uint64_t addr, uint8_t* dst, uint64_t len) const {
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

void SparseStorage::write_backing(uint64_t addr, const uint8_t* src, uint64_t len) {
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
