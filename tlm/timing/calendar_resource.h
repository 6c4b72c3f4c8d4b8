// A resource that serves one occupancy at a time and books each request into the first gap
// that fits after it is ready: a memory port, a bus ring. Initiators running ahead on their
// local time book slightly in the future; a request ready earlier still uses the idle time
// before such a booking instead of queueing behind it. (Wires, whose packet order matters,
// use the strictly first-come SerialResource.)
#pragma once
#include <algorithm>
#include <systemc>
#include <utility>
#include <vector>
#include "tlm/kernel/now.h"

namespace hs {

class CalendarResource {
 public:
  // Earliest start >= ready of a gap `duration` long.
  sc_core::sc_time earliest(const sc_core::sc_time& ready, const sc_core::sc_time& duration) {
    prune();
    sc_core::sc_time t = ready;
    for (const auto& [start, end] : booked_) {
      if (end <= t) continue;
      if (start >= t + duration) break;
      t = end;
    }
    return t;
  }

  // Books [start, start + duration), which must be free (as earliest() found it).
  void book(const sc_core::sc_time& start, const sc_core::sc_time& duration) {
    const sc_core::sc_time end = start + duration;
    auto it =
        std::lower_bound(booked_.begin(), booked_.end(), start,
                         [](const auto& iv, const sc_core::sc_time& s) { return iv.first < s; });
    // Merge with touching neighbours so streams collapse into one interval.
    if (it != booked_.begin() && std::prev(it)->second == start) {
      auto prev = std::prev(it);
      prev->second = end;
      if (it != booked_.end() && it->first == end) {
        prev->second = it->second;
        booked_.erase(it);
      }
      return;
    }
    if (it != booked_.end() && it->first == end) {
      it->first = start;
      return;
    }
    booked_.insert(it, {start, end});
  }

  sc_core::sc_time reserve(const sc_core::sc_time& ready, const sc_core::sc_time& duration) {
    const sc_core::sc_time start = earliest(ready, duration);
    book(start, duration);
    return start;
  }

 private:
  void prune() {
    const sc_core::sc_time now = hs::now();
    auto keep = std::find_if(booked_.begin(), booked_.end(),
                             [&](const auto& iv) { return iv.second > now; });
    booked_.erase(booked_.begin(), keep);
  }
  std::vector<std::pair<sc_core::sc_time, sc_core::sc_time>> booked_;  // sorted, disjoint
};

}  // namespace hs
