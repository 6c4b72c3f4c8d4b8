// Test support: per-cycle booking state of a synchronous resource (a bus whose transfers start on
// clock edges): one entry of type T per clock cycle, from the oldest cycle still of interest on.
//
// Rules it relies on: the owner calls retire_before(c) as time passes, and from then on never
// asks about a cycle before c; the entries are a circular table indexed by absolute cycle
// number, so a retired entry is reused (reset to T{}) when a later cycle lands on its slot.
// A booking further ahead than the table reaches grows it. T must be cheap to copy.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace hs {

template <class T>
class CycleTable {
 public:
  explicit CycleTable(size_t initial_cycles = 1024) : entries_(round_up(initial_cycles)) {}

  // Cycles before `cycle` will never be asked about again.
  void retire_before(uint64_t cycle) {
    if (cycle > floor_) floor_ = cycle;
  }

  // The state of `cycle` (T{} if nothing is booked in it).
  const T& get(uint64_t cycle) const {
    const Entry& e = entries_[cycle & (entries_.size() - 1)];
    return e.cycle == cycle ? e.value : empty_;
  }

  // The state of `cycle` for booking, created empty if needed.
  T& at(uint64_t cycle) {
    if (cycle - floor_ >= entries_.size()) grow(cycle);
    Entry& e = entries_[cycle & (entries_.size() - 1)];
    if (e.cycle != cycle) e = Entry{cycle, T{}};
    return e.value;
  }

 private:
  struct Entry {
    uint64_t cycle = ~uint64_t{0};
    T value{};
  };
  static size_t round_up(size_t n) {
    size_t p = 1;
    while (p < n) p <<= 1;
    return p;
  }
  // Re-places the live entries (cycles >= floor) in a table that reaches `cycle`.
  void grow(uint64_t cycle) {
    std::vector<Entry> bigger(round_up(static_cast<size_t>(cycle - floor_ + 1) * 2));
    for (Entry& e : entries_) {
      if (e.cycle != ~uint64_t{0} && e.cycle >= floor_) {
        bigger[e.cycle & (bigger.size() - 1)] = std::move(e);
      }
    }
    entries_ = std::move(bigger);
  }

  std::vector<Entry> entries_;
  uint64_t floor_ = 0;
  T empty_{};
};

}  // namespace hs
