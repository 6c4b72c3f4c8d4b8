#include "hw/cell/eib_arbiter.h"

#include <algorithm>
#include <stdexcept>

namespace hs::cell {

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
  uint64_t c = ready;
  while (table_.get(c).command) ++c;
  table_.at(c).command = true;
  return c;
}

bool EibArbiter::ramp_clash(uint16_t on_bit, uint16_t off_bit, uint64_t t, uint32_t cycles,
                            int hops, uint64_t& clash) const {
  for (uint64_t c = t + cycles; c-- > t;) {
    if (table_.get(c).on_ramps & on_bit) {
      clash = c;
      return true;
    }
    if (table_.get(c + static_cast<uint64_t>(hops)).off_ramps & off_bit) {
      clash = c;
      return true;
    }
  }
  return false;
}

bool EibArbiter::ring_fits(int ring, uint16_t segments, uint64_t t, uint32_t cycles) const {
  const auto r = static_cast<size_t>(ring);
  for (uint64_t c = t; c < t + cycles; ++c) {
    const EibCycle& s = table_.get(c);
    if ((s.segments[r] & segments) || s.transfers[r] >= per_ring_) return false;
  }
  return true;
}

DataGrant EibArbiter::grant_data(Element from, Element to, uint64_t ready, uint32_t cycles) {
  const int cw_hops = clockwise_hops(from, to);
  const EibPath cw = path(from, to, true), ccw = path(from, to, false);
  const int hops = std::min(cw.hops, ccw.hops);
  // Rings that run a short way round.
  const uint32_t cw_rings = (1u << (rings_ / 2)) - 1;
  const uint32_t ccw_rings = ((1u << rings_) - 1) & ~cw_rings;
  uint32_t allowed = 0;
  if (cw_hops > 0 && cw_hops <= kEibElements / 2) allowed |= cw_rings;
  if (cw_hops >= kEibElements / 2) allowed |= ccw_rings;
  const auto on_bit = static_cast<uint16_t>(1u << position(from));
  const auto off_bit = static_cast<uint16_t>(1u << position(to));
  // The path is held until the last 16 bytes have crossed its last segment.
  const uint32_t held = cycles + static_cast<uint32_t>(std::max(hops - 1, 0));

  DataGrant g;
  for (uint64_t t = ready;;) {
    uint64_t clash = 0;
    if (ramp_clash(on_bit, off_bit, t, cycles, hops, clash)) {
      t = clash + 1;
      continue;
    }
    uint32_t fitting = 0;
    for (uint32_t m = allowed; m; m &= m - 1) {
      const int r = __builtin_ctz(m);
      if (ring_fits(r, (clockwise(r) ? cw : ccw).segments, t, held)) fitting |= 1u << r;
    }
    if (allowed && !fitting) {
      ++t;
      continue;
    }
    g.start = t;
    g.ring = allowed ? policy_->pick(fitting) : -1;
    g.path = g.ring < 0 ? EibPath{} : clockwise(g.ring) ? cw : ccw;
    break;
  }
  for (uint64_t c = g.start; c < g.start + cycles; ++c) {
    table_.at(c).on_ramps |= on_bit;
    table_.at(c + static_cast<uint64_t>(hops)).off_ramps |= off_bit;
  }
  if (g.ring >= 0) {
    const auto r = static_cast<size_t>(g.ring);
    for (uint64_t c = g.start; c < g.start + held; ++c) {
      EibCycle& s = table_.at(c);
      s.segments[r] |= g.path.segments;
      ++s.transfers[r];
    }
  }
  return g;
}

}  // namespace hs::cell
