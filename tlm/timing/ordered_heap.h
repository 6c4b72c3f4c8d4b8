// A min-heap of entries by their `key` (an Order, timeline.h): 4-ary, half the depth of a
// binary heap, and the children it compares sit side by side in memory. O(log n) per entry.
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

namespace hs {

template <class Entry>
class OrderedHeap {
 public:
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  const Entry& top() const { return heap_.front(); }

  void push(const Entry& e) {
    size_t i = heap_.size();
    heap_.push_back(e);
    while (i > 0) {
      const size_t parent = (i - 1) / kArity;
      if (!(e.key < heap_[parent].key)) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }

  Entry pop() {
    const Entry top = heap_.front();
    const Entry last = heap_.back();
    heap_.pop_back();
    const size_t n = heap_.size();
    if (n == 0) return top;
    // Bottom-up (Floyd): the hole goes down to a leaf along the earliest children without
    // comparing them to `last`, which then moves up from there; taken from the bottom, it
    // rarely moves far, so this saves a compare per level.
    size_t i = 0;
    for (;;) {
      const size_t first = kArity * i + 1;
      if (first >= n) break;
      size_t best = first;
      for (size_t c = first + 1; c < std::min(first + kArity, n); ++c) {
        best = heap_[c].key < heap_[best].key ? c : best;
      }
      heap_[i] = heap_[best];
      i = best;
    }
    while (i > 0) {
      const size_t parent = (i - 1) / kArity;
      if (!(last.key < heap_[parent].key)) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = last;
    return top;
  }

 private:
  static constexpr size_t kArity = 4;
  std::vector<Entry> heap_;
};

}  // namespace hs
