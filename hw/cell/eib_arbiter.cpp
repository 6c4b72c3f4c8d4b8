#include "hw/cell/eib_arbiter.h"

#include <algorithm>
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

DataGrant EibArbiter::grant_data(Element from, Element to, uint64_t ready, uint32_t cycles) {
  const int cw_hops = clockwise_hops(from, to);
  const EibPath& cw =
      kPaths[static_cast<size_t>(position(from))][static_cast<size_t>(position(to))][1];
  const EibPath& ccw =
      kPaths[static_cast<size_t>(position(from))][static_cast<size_t>(position(to))][0];
  const int hops = std::min(cw.hops, ccw.hops);
  // Rings that run a short way round.
  const uint32_t cw_rings = (1u << (rings_ / 2)) - 1;
  const uint32_t ccw_rings = ((1u << rings_) - 1) & ~cw_rings;
  uint32_t allowed = 0;
  if (cw_hops > 0 && cw_hops <= kEibElements / 2) allowed |= cw_rings;
  if (cw_hops >= kEibElements / 2) allowed |= ccw_rings;
  SpanSet& on = on_ramp_[static_cast<size_t>(position(from))];
  SpanSet& off = off_ramp_[static_cast<size_t>(position(to))];
  on.retire_before(retired_);
  off.retire_before(retired_);
  for (uint32_t m = allowed; m; m &= m - 1) retire(ring_[static_cast<size_t>(__builtin_ctz(m))]);
  const auto lag = static_cast<uint64_t>(hops);
  // The path is held until the last 16 bytes have crossed its last segment.
  const uint32_t held = cycles + static_cast<uint32_t>(std::max(hops - 1, 0));

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
    if (!allowed) break;
    uint64_t next = ~uint64_t{0};
    for (uint32_t m = allowed; m; m &= m - 1) {
      const int r = __builtin_ctz(m);
      const uint64_t n =
          ring_next(ring_[static_cast<size_t>(r)], (clockwise(r) ? cw : ccw).segments, t, held);
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
  g.ring = allowed ? policy_->pick(fitting) : -1;
  g.path = g.ring < 0 ? EibPath{} : clockwise(g.ring) ? cw : ccw;
  on.book(t, t + cycles);
  off.book(t + lag, t + lag + cycles);
  if (g.ring >= 0) book_ring(ring_[static_cast<size_t>(g.ring)], g.path.segments, t, t + held);
  return g;
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
