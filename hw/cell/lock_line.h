// The lock lines of one Cell's atomic units: each unit's reservation and the lines its
// atomic cache holds, kept coherent by snooping every access the EIB carries.
//
// - A GETLLAR reserves the 128-byte line it loads. The reservation is lost when any other
//   element writes any byte of the line (another SPE's PUT, PUTLLC or PUTLLUC, the PPE's
//   store, a write from the host through an I/O interface); the element's own writes do not
//   lose it (its PUTLLC and PUTLLUC end it themselves).
// - An atomic cache holds up to `capacity` lines, least recently used out first. A line is
//   shared (another element may hold it too) or modified (this unit stored into it, and no
//   other element has touched it since). Another element's read of a line makes it shared;
//   its write takes it from the cache. The unit needs the bus only for a line it does not
//   hold (a GETLLAR's load) or holds shared (a store must claim it: the write goes out on the
//   EIB, which takes it from the other caches and loses their reservations); a store into a
//   modified line stays in the unit.
// - Memory is always current: a store into a modified line updates it at once on the debug
//   path (no bus time, no snoop), as the line's owner would supply it to any reader. So
//   readers see the right data; what the caches change is the time the atomic commands take.
// The EIB shows the snoop every access at the moment it performs it (eib.h), so of two
// racing accesses the one the model performs first wins. The PPE's own atomics are
// compare-and-swap (hw/cpu/core.h): they keep no reservation, but their read and store act
// on the SPEs' lines like any element's.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "hw/cell/eib_topology.h"

namespace hs::cell {

// Sees each access the EIB carries: the element it comes from, the bytes it touches, and
// whether it writes them.
class EibSnoop {
 public:
  virtual ~EibSnoop() = default;
  virtual void snoop(Element from, uint64_t addr, uint64_t len, bool write) = 0;
};

class LockLineReservations : public EibSnoop {
 public:
  static constexpr uint64_t kLine = 128;
  enum class State { Absent, Shared, Modified };

  // A holder (an atomic unit) at `element` with a cache of `capacity` lines; `on_lost` is
  // called when another element's write loses its reservation. Returns the holder's number.
  int add_holder(Element element, int capacity, std::function<void()> on_lost) {
    holders_.push_back({element, capacity, false, 0, {}, std::move(on_lost)});
    return static_cast<int>(holders_.size()) - 1;
  }

  void reserve(int holder, uint64_t ea) {
    Holder& h = at(holder);
    h.reserved = true;
    h.reservation = line_of(ea);
    cover(h.reservation);
  }
  bool holds(int holder, uint64_t ea) const {
    const Holder& h = holders_[static_cast<size_t>(holder)];
    return h.reserved && h.reservation == line_of(ea);
  }
  void release(int holder) { at(holder).reserved = false; }

  State state(int holder, uint64_t ea) {
    Line* l = find(at(holder), ea);
    return !l ? State::Absent : l->modified ? State::Modified : State::Shared;
  }
  // The line is in the holder's cache now (a load filled it, or a store claimed it).
  void cache(int holder, uint64_t ea, bool modified) {
    Holder& h = at(holder);
    Line* l = find(h, ea);
    if (!l) {
      if (static_cast<int>(h.lines.size()) == h.capacity) {
        h.lines.erase(
            std::min_element(h.lines.begin(), h.lines.end(),
                             [](const Line& a, const Line& b) { return a.used < b.used; }));
      }
      h.lines.push_back({line_of(ea), false, 0});
      l = &h.lines.back();
      cover(l->ea);
    }
    l->modified = modified;
    l->used = ++clock_;
  }

  void snoop(Element from, uint64_t addr, uint64_t len, bool write) override {
    if (addr >= hi_ || addr + len <= lo_) return;  // the common case: no line near
    for (Holder& h : holders_) {
      if (h.element == from) continue;
      const auto touches = [&](uint64_t line) { return addr < line + kLine && line < addr + len; };
      if (write && h.reserved && touches(h.reservation)) {
        h.reserved = false;
        h.on_lost();
      }
      for (auto it = h.lines.begin(); it != h.lines.end();) {
        if (!touches(it->ea)) {
          ++it;
        } else if (write) {
          it = h.lines.erase(it);
        } else {
          it->modified = false;
          ++it;
        }
      }
    }
  }

 private:
  struct Line {
    uint64_t ea;
    bool modified;
    uint64_t used;  // for least-recently-used replacement
  };
  struct Holder {
    Element element;
    int capacity;
    bool reserved;
    uint64_t reservation;
    std::vector<Line> lines;
    std::function<void()> on_lost;
  };
  static uint64_t line_of(uint64_t ea) { return ea & ~(kLine - 1); }
  Holder& at(int holder) { return holders_[static_cast<size_t>(holder)]; }
  Line* find(Holder& h, uint64_t ea) {
    for (Line& l : h.lines) {
      if (l.ea == line_of(ea)) return &l;
    }
    return nullptr;
  }
  // Every line ever reserved or cached lies in [lo_, hi_): a quick reject for the snoop.
  void cover(uint64_t line) {
    lo_ = std::min(lo_, line);
    hi_ = std::max(hi_, line + kLine);
  }

  std::vector<Holder> holders_;
  uint64_t clock_ = 0;
  uint64_t lo_ = ~uint64_t{0}, hi_ = 0;
};

}  // namespace hs::cell
