// A set of byte ranges [lo, hi) kept merged: which bytes of a message a side holds, has
// discarded or has committed. Firmware and the checkers both use it.
#pragma once
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <utility>
#include <vector>

namespace hs::fw::ami {

class ByteRanges {
 public:
  using Range = std::pair<uint64_t, uint64_t>;

  // Adds [lo, hi); returns the bytes of it that were already in the set.
  uint64_t add(uint64_t lo, uint64_t hi) {
    if (lo >= hi) return 0;
    const uint64_t overlap = overlap_with(lo, hi);
    total_ += (hi - lo) - overlap;
    auto it = r_.upper_bound(lo);
    if (it != r_.begin() && std::prev(it)->second >= lo) --it;
    while (it != r_.end() && it->first <= hi) {
      lo = std::min(lo, it->first);
      hi = std::max(hi, it->second);
      it = r_.erase(it);
    }
    r_.emplace(lo, hi);
    return overlap;
  }
  uint64_t overlap_with(uint64_t lo, uint64_t hi) const {
    uint64_t n = 0;
    auto it = r_.upper_bound(lo);
    if (it != r_.begin()) --it;
    for (; it != r_.end() && it->first < hi; ++it) {
      const uint64_t a = std::max(lo, it->first), b = std::min(hi, it->second);
      if (a < b) n += b - a;
    }
    return n;
  }
  bool contains(uint64_t lo, uint64_t hi) const { return overlap_with(lo, hi) == hi - lo; }
  // The ranges of [lo, hi) not in the set, ascending.
  std::vector<Range> gaps(uint64_t lo, uint64_t hi) const {
    std::vector<Range> out;
    uint64_t at = lo;
    auto it = r_.upper_bound(lo);
    if (it != r_.begin()) --it;
    for (; it != r_.end() && it->first < hi; ++it) {
      if (it->second <= at) continue;
      if (it->first > at) out.emplace_back(at, std::min(it->first, hi));
      at = std::max(at, it->second);
    }
    if (at < hi) out.emplace_back(at, hi);
    return out;
  }
  uint64_t total() const { return total_; }
  bool empty() const { return r_.empty(); }
  const std::map<uint64_t, uint64_t>& ranges() const { return r_; }

 private:
  std::map<uint64_t, uint64_t> r_;  // lo -> hi, disjoint and not touching
  uint64_t total_ = 0;
};

}  // namespace hs::fw::ami
