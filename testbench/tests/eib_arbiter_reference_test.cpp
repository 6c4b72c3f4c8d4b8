// The EIB arbiter keeps its bookings as spans per resource; this suite replays random
// traffic (fixed seeds) through it and through a straightforward reference that books every
// bus cycle of every resource in a CycleTable and searches cycle by cycle, exactly as
// eib_arbiter.h states the rules, and requires the same grants and the same bookings.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "hw/cell/eib_arbiter.h"
#include "hw/cell/eib_topology.h"
#include "testbench/support/cycle_table.h"

using namespace hs;
using namespace hs::cell;

namespace {

// The rules of eib_arbiter.h, one bus cycle at a time.
class ReferenceArbiter {
 public:
  ReferenceArbiter(int rings, int per_ring, std::unique_ptr<RingPolicy> policy)
      : rings_(rings), per_ring_(per_ring), policy_(std::move(policy)) {}

  bool clockwise(int ring) const { return ring < rings_ / 2; }
  void retire_before(uint64_t cycle) { table_.retire_before(cycle); }
  const EibCycle& booked(uint64_t cycle) const { return table_.get(cycle); }

  uint64_t grant_command(uint64_t ready) {
    uint64_t c = ready;
    while (table_.get(c).command) ++c;
    table_.at(c).command = true;
    return c;
  }

  DataGrant grant_data(Element from, Element to, uint64_t ready, uint32_t cycles) {
    const int cw_hops = clockwise_hops(from, to);
    const EibPath cw = path(from, to, true), ccw = path(from, to, false);
    const int hops = std::min(cw.hops, ccw.hops);
    uint32_t allowed = 0;
    for (int r = 0; r < rings_; ++r) {
      const bool short_way =
          clockwise(r) ? cw_hops > 0 && cw_hops <= kEibElements / 2 : cw_hops >= kEibElements / 2;
      if (short_way) allowed |= 1u << r;
    }
    const auto on_bit = static_cast<uint16_t>(1u << position(from));
    const auto off_bit = static_cast<uint16_t>(1u << position(to));
    const uint32_t held = cycles + static_cast<uint32_t>(std::max(hops - 1, 0));
    const auto lag = static_cast<uint64_t>(hops);
    for (uint64_t t = ready;; ++t) {
      bool ramps_free = true;
      for (uint64_t c = t; c < t + cycles; ++c) {
        if ((table_.get(c).on_ramps & on_bit) || (table_.get(c + lag).off_ramps & off_bit)) {
          ramps_free = false;
        }
      }
      if (!ramps_free) continue;
      uint32_t fitting = 0;
      for (int r = 0; r < rings_; ++r) {
        if (!(allowed & 1u << r)) continue;
        const uint16_t segments = (clockwise(r) ? cw : ccw).segments;
        bool fits = true;
        for (uint64_t c = t; c < t + held; ++c) {
          const EibCycle& s = table_.get(c);
          if ((s.segments[static_cast<size_t>(r)] & segments) ||
              s.transfers[static_cast<size_t>(r)] >= per_ring_) {
            fits = false;
          }
        }
        if (fits) fitting |= 1u << r;
      }
      if (allowed && !fitting) continue;
      DataGrant g;
      g.start = t;
      g.ring = allowed ? policy_->pick(fitting) : -1;
      g.path = g.ring < 0 ? EibPath{} : clockwise(g.ring) ? cw : ccw;
      for (uint64_t c = t; c < t + cycles; ++c) {
        table_.at(c).on_ramps |= on_bit;
        table_.at(c + lag).off_ramps |= off_bit;
      }
      for (uint64_t c = t; g.ring >= 0 && c < t + held; ++c) {
        table_.at(c).segments[static_cast<size_t>(g.ring)] |= g.path.segments;
        ++table_.at(c).transfers[static_cast<size_t>(g.ring)];
      }
      return g;
    }
  }

 private:
  int rings_;
  int per_ring_;
  std::unique_ptr<RingPolicy> policy_;
  CycleTable<EibCycle> table_;
};

struct Config {
  int rings;
  int per_ring;
  const char* policy;
  uint32_t max_cycles;  // data-phase length: 16 at an 8 B ring width
  uint64_t spread;      // how far ahead of now a transfer may be ready
  int elements;         // transfers among the first `elements` ring positions (crowding)
};

// Two arbiters booked the same segments, transfers, ramps and command slot in cycle `c`.
::testing::AssertionResult same_bookings(const EibCycle& x, const EibCycle& y, uint64_t c) {
  if (x.segments == y.segments && x.transfers == y.transfers && x.on_ramps == y.on_ramps &&
      x.off_ramps == y.off_ramps && x.command == y.command) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "bookings differ in cycle " << c;
}

// Replays `steps` random requests through both arbiters; stops at the first difference.
void replay(const Config& cfg, uint32_t seed, int steps) {
  SCOPED_TRACE(::testing::Message() << "rings " << cfg.rings << ", per ring " << cfg.per_ring
                                    << ", " << cfg.policy << ", seed " << seed);
  EibArbiter fast(cfg.rings, cfg.per_ring, make_ring_policy(cfg.policy));
  ReferenceArbiter ref(cfg.rings, cfg.per_ring, make_ring_policy(cfg.policy));
  std::mt19937_64 rng(seed);
  auto uniform = [&rng](uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
  };
  uint64_t now = 0;
  for (int i = 0; i < steps; ++i) {
    if (uniform(0, 3) == 0) {
      now += uniform(0, 6);
      fast.retire_before(now);
      ref.retire_before(now);
    }
    const uint64_t ready = now + uniform(0, cfg.spread);
    if (uniform(0, 4) == 0) {
      ASSERT_EQ(fast.grant_command(ready), ref.grant_command(ready)) << "step " << i;
      continue;
    }
    const auto from = static_cast<Element>(uniform(0, static_cast<uint64_t>(cfg.elements - 1)));
    const auto to = static_cast<Element>(uniform(0, static_cast<uint64_t>(cfg.elements - 1)));
    const auto cycles = static_cast<uint32_t>(uniform(1, cfg.max_cycles));
    const DataGrant a = fast.grant_data(from, to, ready, cycles);
    const DataGrant b = ref.grant_data(from, to, ready, cycles);
    ASSERT_EQ(a.start, b.start) << "step " << i;
    ASSERT_EQ(a.ring, b.ring) << "step " << i;
    ASSERT_EQ(a.path.segments, b.path.segments) << "step " << i;
    ASSERT_EQ(a.path.hops, b.path.hops) << "step " << i;
    if (i % 64 == 0) {
      for (uint64_t c = now; c < now + cfg.spread + 64; ++c) {
        ASSERT_TRUE(same_bookings(fast.booked(c), ref.booked(c), c));
      }
    }
  }
}

}  // namespace

TEST(EibArbiterReference, TheBuiltEibsGrantsMatchTheCycleByCycleRules) {
  for (const char* policy : {"lowest", "round_robin"}) {
    for (uint32_t seed = 1; seed <= 4; ++seed) {
      replay(Config{4, 3, policy, 8, 40, kEibElements}, seed, 4000);
      replay(Config{4, 3, policy, 8, 200, 4}, seed, 4000);  // crowded: few elements
    }
  }
}

TEST(EibArbiterReference, OtherRingCountsWidthsAndTransfersPerRingMatchToo) {
  const Config configs[] = {{2, 1, "lowest", 16, 60, kEibElements},
                            {8, 6, "round_robin", 4, 30, kEibElements},
                            {6, 2, "lowest", 16, 100, 7},
                            {2, 3, "round_robin", 8, 10, kEibElements}};
  for (const Config& cfg : configs) {
    for (uint32_t seed = 11; seed <= 13; ++seed) replay(cfg, seed, 3000);
  }
}

TEST(EibArbiterReference, RetiringKeepsTheBookingsToWhatLiesAhead) {
  // A long stream: SPE0 to SPE2 back to back, one 128 B command after another.
  EibArbiter a(4, 3, make_ring_policy("lowest"));
  uint64_t ready = 0;
  size_t most = 0;
  for (int i = 0; i < 100000; ++i) {
    a.retire_before(ready);
    const uint64_t slot = a.grant_command(ready);
    const DataGrant g = a.grant_data(spe_element(0), spe_element(2), slot + 8, 8);
    ready = g.start;  // the next command goes once this one's data is under way
    most = std::max(most, a.live_bookings());
  }
  EXPECT_LT(most, 64u);
}

namespace {

// An access's commands granted one at a time, as the EIB would without grant_access.
void grant_one_by_one(EibArbiter& a, Element from, Element to, uint64_t ready,
                      const std::vector<uint32_t>& cycles, bool with_commands, uint32_t arbitration,
                      std::vector<uint64_t>& slots, std::vector<DataGrant>& grants) {
  slots.clear();
  grants.clear();
  for (const uint32_t c : cycles) {
    uint64_t start = ready;
    if (with_commands) {
      const uint64_t slot = a.grant_command(ready);
      slots.push_back(slot);
      start = slot + arbitration;
      ready = slot + 1;
    }
    grants.push_back(a.grant_data(from, to, start, c));
  }
}

// Random accesses of 1 to 40 commands (some with other traffic ahead of them, some on an idle
// bus) through grant_access and command by command: the same grants and bookings throughout.
void replay_accesses(const Config& cfg, uint32_t seed, int steps) {
  SCOPED_TRACE(::testing::Message() << "rings " << cfg.rings << ", per ring " << cfg.per_ring
                                    << ", " << cfg.policy << ", seed " << seed);
  EibArbiter whole(cfg.rings, cfg.per_ring, make_ring_policy(cfg.policy));
  EibArbiter single(cfg.rings, cfg.per_ring, make_ring_policy(cfg.policy));
  std::mt19937_64 rng(seed);
  auto uniform = [&rng](uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
  };
  std::vector<uint64_t> slots_a, slots_b;
  std::vector<DataGrant> grants_a, grants_b;
  uint64_t now = 0;
  for (int i = 0; i < steps; ++i) {
    if (uniform(0, 2) == 0) {
      now += uniform(0, 400);  // sometimes far enough for the bus to be idle again
      whole.retire_before(now);
      single.retire_before(now);
    }
    const uint64_t ready = now + uniform(0, cfg.spread);
    const auto from = static_cast<Element>(uniform(0, static_cast<uint64_t>(cfg.elements - 1)));
    const auto to = static_cast<Element>(uniform(0, static_cast<uint64_t>(cfg.elements - 1)));
    std::vector<uint32_t> cycles(uniform(1, 40), cfg.max_cycles);
    cycles.back() = static_cast<uint32_t>(uniform(1, cfg.max_cycles));  // a short last command
    const bool with_commands = uniform(0, 1) == 1;
    const auto arbitration = static_cast<uint32_t>(uniform(0, 10));
    whole.grant_access(from, to, ready, cycles, with_commands, arbitration, slots_a, grants_a);
    grant_one_by_one(single, from, to, ready, cycles, with_commands, arbitration, slots_b,
                     grants_b);
    ASSERT_EQ(slots_a, slots_b) << "step " << i;
    ASSERT_EQ(grants_a.size(), grants_b.size()) << "step " << i;
    for (size_t k = 0; k < grants_a.size(); ++k) {
      ASSERT_EQ(grants_a[k].start, grants_b[k].start) << "step " << i << ", command " << k;
      ASSERT_EQ(grants_a[k].ring, grants_b[k].ring) << "step " << i << ", command " << k;
      ASSERT_EQ(grants_a[k].path.segments, grants_b[k].path.segments) << "step " << i;
    }
    if (i % 32 == 0) {
      for (uint64_t c = now; c < now + cfg.spread + 400; ++c) {
        ASSERT_TRUE(same_bookings(whole.booked(c), single.booked(c), c));
      }
    }
  }
}

}  // namespace

TEST(EibArbiterReference, AnAccessGrantedAtOnceGetsWhatItsCommandsOneByOneWould) {
  const Config configs[] = {
      {4, 3, "lowest", 8, 40, kEibElements},  {4, 3, "round_robin", 8, 200, 4},
      {2, 1, "lowest", 16, 60, kEibElements}, {8, 6, "round_robin", 4, 30, kEibElements},
      {6, 2, "lowest", 16, 100, 7},           {2, 3, "round_robin", 8, 10, kEibElements}};
  for (const Config& cfg : configs) {
    for (uint32_t seed = 21; seed <= 23; ++seed) replay_accesses(cfg, seed, 400);
  }
}
