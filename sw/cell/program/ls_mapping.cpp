#include "sw/cell/program/ls_mapping.h"

#include <sys/mman.h>
#include <new>

#include "sw/user/crash_guard.h"

namespace hs::fw::cell_program {

LsMapping::LsMapping(int spes, Peek peek, Poke poke, std::function<uint64_t(int)> real)
    : spes_(spes), peek_(std::move(peek)), poke_(std::move(poke)), real_(std::move(real)) {
  const uint64_t bytes = kLsBytes * static_cast<uint64_t>(spes_);
  void* m = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  base_ = static_cast<char*>(m);
  pages_.assign(bytes / kPage, Page::Absent);
  touched_.reserve(pages_.size());
  user::add_fault_resolver(this, [](void* self, const void* addr) {
    return static_cast<LsMapping*>(self)->resolve(addr);
  });
}

LsMapping::~LsMapping() {
  user::remove_fault_resolver(this);
  munmap(base_, kLsBytes * static_cast<uint64_t>(spes_));
}

void* LsMapping::area(int spe) const {
  return base_ + kLsBytes * static_cast<uint64_t>(spe);
}

std::optional<uint64_t> LsMapping::to_real(const void* p, uint64_t len) const {
  const auto* c = static_cast<const char*>(p);
  if (c < base_ || len > kLsBytes) return std::nullopt;
  const auto off = static_cast<uint64_t>(c - base_);
  const uint64_t spe = off / kLsBytes;
  if (spe >= static_cast<uint64_t>(spes_) || off % kLsBytes + len > kLsBytes) return std::nullopt;
  return real_(static_cast<int>(spe)) + off % kLsBytes;
}

bool LsMapping::resolve(const void* addr) {
  const auto* c = static_cast<const char*>(addr);
  if (c < base_ || c >= base_ + pages_.size() * kPage) return false;
  const auto n = static_cast<uint32_t>(static_cast<uint64_t>(c - base_) / kPage);
  char* page = base_ + uint64_t{n} * kPage;
  switch (pages_[n]) {
    case Page::Absent: {
      mprotect(page, kPage, PROT_READ | PROT_WRITE);
      const uint64_t at = uint64_t{n} * kPage;
      peek_(static_cast<int>(at / kLsBytes), at % kLsBytes, page, kPage);
      mprotect(page, kPage, PROT_READ);
      pages_[n] = Page::Clean;
      touched_.push_back(n);
      return true;
    }
    case Page::Clean:  // readable, so the fault was a store
      mprotect(page, kPage, PROT_READ | PROT_WRITE);
      pages_[n] = Page::Dirty;
      return true;
    case Page::Dirty:
      return false;  // accessible: not a fault of ours
  }
  return false;
}

void LsMapping::sync(Hal& hal) {
  if (touched_.empty()) return;
  // The write-back and invalidation first, with nothing else running; then the time.
  std::vector<uint32_t> pages;
  pages.swap(touched_);
  touched_.reserve(pages_.size());
  for (uint32_t n : pages) {
    char* page = base_ + uint64_t{n} * kPage;
    const uint64_t at = uint64_t{n} * kPage;
    if (pages_[n] == Page::Dirty)
      poke_(static_cast<int>(at / kLsBytes), at % kLsBytes, page, kPage);
    pages_[n] = Page::Absent;
    mprotect(page, kPage, PROT_NONE);
  }
  std::vector<char> scratch(kPage);
  for (uint32_t n : pages) {
    const uint64_t at = uint64_t{n} * kPage;
    hal.load(real_(static_cast<int>(at / kLsBytes)) + at % kLsBytes, scratch.data(), kPage);
  }
}

}  // namespace hs::fw::cell_program
