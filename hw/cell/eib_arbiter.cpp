#include "hw/cell/eib_arbiter.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace hs::cell {

namespace {

// Every element pair's path each way round, [from][to][clockwise].
using PathTable = std::array<std::array<std::array<EibPath, 2>, kEibElements>, kEibElements>;
constexpr PathTable make_paths() {
  PathTable t{};
  for (int f = 0; f < kEibElements; ++f) {
    for (int e = 0; e < kEibElements; ++e) {
      for (int cw = 0; cw < 2; ++cw) {
        t[static_cast<size_t>(f)][static_cast<size_t>(e)][static_cast<size_t>(cw)] =
            path(static_cast<Element>(f), static_cast<Element>(e), cw == 1);
      }
    }
  }
  return t;
}
constexpr PathTable kPaths = make_paths();

}  // namespace

int LowestRingPolicy::pick(uint32_t fitting) {
  return __builtin_ctz(fitting);
}

int RoundRobinRingPolicy::pick(uint32_t fitting) {
  // Rotate so bit next_ comes first; wrap to the lowest ring when none at or after it fits.
  const uint32_t from_next = fitting >> next_ << next_;
  const int r = __builtin_ctz(from_next ? from_next : fitting);
  next_ = (r + 1) % kEibMaxRings;
  return r;
}

std::unique_ptr<RingPolicy> make_ring_policy(const std::string& name) {
  if (name == "lowest") return std::make_unique<LowestRingPolicy>();
  if (name == "round_robin") return std::make_unique<RoundRobinRingPolicy>();
  throw std::logic_error("unknown EIB ring policy '" + name + "'");
}

EibArbiter::EibArbiter(int rings, int transfers_per_ring, std::unique_ptr<RingPolicy> policy)
    : rings_(rings),
      per_ring_(static_cast<uint8_t>(transfers_per_ring)),
      policy_(std::move(policy)) {
  if (rings < 2 || rings > kEibMaxRings || rings % 2 != 0) {
    throw std::logic_error("EIB: rings must be an even number from 2 to 8");
  }
}

uint64_t EibArbiter::grant_command(uint64_t ready) {
  command_.retire_before(retired_);
  const uint64_t c = command_.first_free(ready, 1);
  command_.book(c, c + 1);
  return c;
}

void EibArbiter::retire_before(uint64_t cycle) {
  // Each resource drops what is over when it is next asked about (the answers do not depend
  // on it): a cycle costs nothing for the resources no access touches.
  retired_ = std::max(retired_, cycle);
}

void EibArbiter::retire(Ring& ring) {
  // Transfers are in order of start, not of end: one that started longest_hold_ before
  // retired_ is surely over, a later-starting one may not be yet.
  while (ring.head < ring.transfers.size() &&
         ring.transfers[ring.head].start + longest_hold_ <= retired_) {
    ++ring.head;
  }
  if (ring.head > 32 && ring.head * 2 > ring.transfers.size()) {
    ring.transfers.erase(ring.transfers.begin(),
                         ring.transfers.begin() + static_cast<std::ptrdiff_t>(ring.head));
    ring.head = 0;
  }
}

uint64_t EibArbiter::ring_next(const Ring& ring, uint16_t segments, uint64_t t,
                               uint32_t held) const {
  if (ring.last_end <= t) return t;  // nothing booked from t on
  const std::vector<RingTransfer>& v = ring.transfers;
  // [lo, hi): every transfer that may overlap [t, t + held), in order of start.
  const auto lo = static_cast<size_t>(
      std::partition_point(v.begin() + static_cast<std::ptrdiff_t>(ring.head), v.end(),
                           [&](const RingTransfer& x) { return x.start + longest_hold_ <= t; }) -
      v.begin());
  size_t hi = lo;
  while (hi < v.size() && v[hi].start < t + held) ++hi;
  // A transfer over one of our segments: nothing starting before it ends fits.
  uint64_t next = t;
  for (size_t i = lo; i < hi; ++i) {
    if (v[i].end > t && (v[i].segments & segments)) next = std::max(next, v[i].end);
  }
  if (next != t) return next;
  // Too many transfers at once: the count peaks at t or where one starts, and stays at least
  // that high until the first of those under way then ends.
  for (size_t i = lo; i < hi; ++i) {
    if (v[i].end <= t) continue;
    const uint64_t p = std::max(v[i].start, t);
    int count = 0;
    uint64_t first_end = ~uint64_t{0};
    for (size_t j = lo; j < hi; ++j) {
      if (v[j].start <= p && p < v[j].end) {
        ++count;
        first_end = std::min(first_end, v[j].end);
      }
    }
    if (count >= per_ring_) next = std::max(next, first_end);
  }
  return next;
}

void EibArbiter::book_ring(Ring& ring, uint16_t segments, uint64_t start, uint64_t end) {
  std::vector<RingTransfer>& v = ring.transfers;
  // Grants come roughly in order of start: look for the place from the back.
  size_t i = v.size();
  while (i > ring.head && v[i - 1].start > start) --i;
  v.insert(v.begin() + static_cast<std::ptrdiff_t>(i), RingTransfer{start, end, segments});
  longest_hold_ = std::max(longest_hold_, end - start);
  ring.last_end = std::max(ring.last_end, end);
}

EibArbiter::Route EibArbiter::route(Element from, Element to) const {
  const int cw_hops = clockwise_hops(from, to);
  Route rt;
  rt.cw = kPaths[static_cast<size_t>(position(from))][static_cast<size_t>(position(to))][1];
  rt.ccw = kPaths[static_cast<size_t>(position(from))][static_cast<size_t>(position(to))][0];
  rt.hops = std::min(rt.cw.hops, rt.ccw.hops);
  // Rings that run a short way round.
  const uint32_t cw_rings = (1u << (rings_ / 2)) - 1;
  const uint32_t ccw_rings = ((1u << rings_) - 1) & ~cw_rings;
  rt.allowed = 0;
  if (cw_hops > 0 && cw_hops <= kEibElements / 2) rt.allowed |= cw_rings;
  if (cw_hops >= kEibElements / 2) rt.allowed |= ccw_rings;
  return rt;
}

DataGrant EibArbiter::find_data(const Route& rt, SpanSet& on, SpanSet& off, uint64_t ready,
                                uint32_t cycles) {
  const auto lag = static_cast<uint64_t>(rt.hops);
  // The path is held until the last 16 bytes have crossed its last segment.
  const uint32_t held = cycles + static_cast<uint32_t>(std::max(rt.hops - 1, 0));
  // The earliest start at which the ramps and some allowed ring are free; every cycle skipped
  // is one at which one of them is not.
  uint64_t t = ready;
  uint32_t fitting = 0;
  for (;;) {
    for (;;) {
      t = on.first_free(t, cycles);
      const uint64_t u = off.first_free(t + lag, cycles) - lag;
      if (u == t) break;
      t = u;
    }
    if (!rt.allowed) break;
    uint64_t next = ~uint64_t{0};
    for (uint32_t m = rt.allowed; m; m &= m - 1) {
      const int r = __builtin_ctz(m);
      const uint64_t n = ring_next(ring_[static_cast<size_t>(r)],
                                   (clockwise(r) ? rt.cw : rt.ccw).segments, t, held);
      if (n == t) {
        fitting |= 1u << r;
      } else {
        next = std::min(next, n);
      }
    }
    if (fitting) break;
    t = next;
  }
  DataGrant g;
  g.start = t;
  g.ring = rt.allowed ? policy_->pick(fitting) : -1;
  g.path = g.ring < 0 ? EibPath{} : clockwise(g.ring) ? rt.cw : rt.ccw;
  return g;
}

void EibArbiter::book_data(const Route& rt, SpanSet& on, SpanSet& off, const DataGrant& g,
                           uint32_t cycles) {
  const auto lag = static_cast<uint64_t>(rt.hops);
  const uint32_t held = cycles + static_cast<uint32_t>(std::max(rt.hops - 1, 0));
  on.book(g.start, g.start + cycles);
  off.book(g.start + lag, g.start + lag + cycles);
  if (g.ring >= 0) {
    book_ring(ring_[static_cast<size_t>(g.ring)], g.path.segments, g.start, g.start + held);
  }
}

DataGrant EibArbiter::grant_data(Element from, Element to, uint64_t ready, uint32_t cycles) {
  const Route rt = route(from, to);
  SpanSet& on = on_ramp_[static_cast<size_t>(position(from))];
  SpanSet& off = off_ramp_[static_cast<size_t>(position(to))];
  on.retire_before(retired_);
  off.retire_before(retired_);
  for (uint32_t m = rt.allowed; m; m &= m - 1) {
    retire(ring_[static_cast<size_t>(__builtin_ctz(m))]);
  }
  const DataGrant g = find_data(rt, on, off, ready, cycles);
  book_data(rt, on, off, g, cycles);
  return g;
}

void EibArbiter::grant_access(Element from, Element to, uint64_t ready,
                              const std::vector<uint32_t>& cycles, bool with_commands,
                              uint32_t arbitration_cycles, std::vector<uint64_t>& slots,
                              std::vector<DataGrant>& grants) {
  const size_t n = cycles.size();
  slots.clear();
  grants.clear();
  const Route rt = route(from, to);
  SpanSet& on = on_ramp_[static_cast<size_t>(position(from))];
  SpanSet& off = off_ramp_[static_cast<size_t>(position(to))];
  const auto lag = static_cast<uint64_t>(rt.hops);
  command_.retire_before(retired_);
  on.retire_before(retired_);
  off.retire_before(retired_);
  for (uint32_t m = rt.allowed; m; m &= m - 1) {
    retire(ring_[static_cast<size_t>(__builtin_ctz(m))]);
  }
  // Nothing booked from `ready` on by anyone else: each grant then depends only on this
  // access's own earlier ones.
  bool clear = on.free_from() <= ready && off.free_from() <= ready + lag &&
               (!with_commands || command_.free_from() <= ready);
  for (uint32_t m = rt.allowed; clear && m; m &= m - 1) {
    clear = ring_[static_cast<size_t>(__builtin_ctz(m))].last_end <= ready;
  }
  size_t i = 0;
  if (clear) {
    // Writes: command i takes slot ready + i; its data may go arbitration_cycles later, which
    // is never before the previous command's data has left the on-ramp (each takes at least
    // a cycle), so the data phases run back to back. Reads: back to back from `ready`.
    std::array<uint64_t, kEibMaxRings> own_end{};  // the access's last transfer on each ring
    uint64_t t = with_commands ? ready + arbitration_cycles : ready;
    for (; i < n; ++i) {
      const uint32_t held = cycles[i] + static_cast<uint32_t>(std::max(rt.hops - 1, 0));
      DataGrant g;
      g.start = t;
      if (rt.allowed) {
        // A ring fits unless one of the access's own transfers (same segments) still holds it.
        uint32_t fitting = 0;
        for (uint32_t m = rt.allowed; m; m &= m - 1) {
          const int r = __builtin_ctz(m);
          if (own_end[static_cast<size_t>(r)] <= t) fitting |= 1u << r;
        }
        if (!fitting) break;  // it waits for a ring: the rest command by command
        g.ring = policy_->pick(fitting);
        g.path = clockwise(g.ring) ? rt.cw : rt.ccw;
        own_end[static_cast<size_t>(g.ring)] = t + held;
        book_ring(ring_[static_cast<size_t>(g.ring)], g.path.segments, t, t + held);
      }
      grants.push_back(g);
      if (with_commands) slots.push_back(ready + i);
      t += cycles[i];
    }
    if (i > 0) {
      const uint64_t first = grants.front().start, end = t;  // the ramps' run
      on.book(first, end);
      off.book(first + lag, end + lag);
      if (with_commands) command_.book(ready, ready + i);
    }
  }
  // Command by command, as the EIB grants them one at a time.
  uint64_t next_ready = with_commands && i > 0 ? ready + i : ready;
  for (; i < n; ++i) {
    uint64_t start = ready;
    if (with_commands) {
      const uint64_t slot = grant_command(next_ready);
      slots.push_back(slot);
      start = slot + arbitration_cycles;
      next_ready = slot + 1;
    }
    grants.push_back(grant_data(from, to, start, cycles[i]));
  }
}

EibCycle EibArbiter::booked(uint64_t cycle) const {
  EibCycle s;
  for (int r = 0; r < rings_; ++r) {
    const Ring& ring = ring_[static_cast<size_t>(r)];
    for (size_t i = ring.head; i < ring.transfers.size(); ++i) {
      const RingTransfer& x = ring.transfers[i];
      if (x.start > cycle) break;
      if (cycle < x.end) {
        s.segments[static_cast<size_t>(r)] |= x.segments;
        ++s.transfers[static_cast<size_t>(r)];
      }
    }
  }
  for (int e = 0; e < kEibElements; ++e) {
    const auto bit = static_cast<uint16_t>(1u << e);
    if (on_ramp_[static_cast<size_t>(e)].busy(cycle)) s.on_ramps |= bit;
    if (off_ramp_[static_cast<size_t>(e)].busy(cycle)) s.off_ramps |= bit;
  }
  s.command = command_.busy(cycle);
  return s;
}

size_t EibArbiter::live_bookings() const {
  size_t n = command_.size();
  for (int e = 0; e < kEibElements; ++e) {
    n += on_ramp_[static_cast<size_t>(e)].size() + off_ramp_[static_cast<size_t>(e)].size();
  }
  for (int r = 0; r < rings_; ++r) {
    const Ring& ring = ring_[static_cast<size_t>(r)];
    n += ring.transfers.size() - ring.head;
  }
  return n;
}

}  // namespace hs::cell
