// The EIB as built: ring order and paths, the data arbiter cycle by cycle (rings shared by
// disjoint transfers, overlapping ones waiting or moving, the short way round, ramps, the
// command bus), and one SPE's ramps limiting what it moves through the assembled node.
#include <gtest/gtest.h>

#include <bitset>

#include "hw/cell/eib_arbiter.h"
#include "hw/cell/eib_topology.h"
#include "hw/hybrid/address_map.h"
#include "sw/hal/mfc.h"
#include "testbench/runner/stream_meter.h"
#include "testbench/support/node_fixture.h"
#include "tlm/stats/statistics.h"
#include "testbench/support/cycle_table.h"

using namespace hs;
using namespace hs::cell;
using hs::testing::first_violation;
using hs::testing::make_hybrid_node;
using hs::testing::set_param;
namespace amap = hs::hybrid::amap;

namespace {

EibArbiter arbiter(const char* policy = "lowest") {
  return EibArbiter(4, 3, make_ring_policy(policy));
}

int popcount(uint16_t m) {
  return static_cast<int>(std::bitset<16>(m).count());
}

}  // namespace

TEST(EibTopology, ElementsSitInTheHardwaresRingOrder) {
  const Element order[] = {Element::PPE,  Element::SPE1,  Element::SPE3,  Element::SPE5,
                           Element::SPE7, Element::IOIF1, Element::IOIF0, Element::SPE6,
                           Element::SPE4, Element::SPE2,  Element::SPE0,  Element::MIC};
  for (int i = 0; i < kEibElements; ++i) EXPECT_EQ(position(order[i]), i);
  for (int s = 0; s < 8; ++s) {
    EXPECT_EQ(std::string(to_string(spe_element(s))), "spe" + std::to_string(s));
  }
}

TEST(EibArbiter, ThreeTransfersWithDisjointPathsShareOneRing) {
  EibArbiter a = arbiter();
  // One hop each, clockwise, on segments 0, 2 and 4.
  const DataGrant g1 = a.grant_data(Element::PPE, Element::SPE1, 10, 8);
  const DataGrant g2 = a.grant_data(Element::SPE3, Element::SPE5, 10, 8);
  const DataGrant g3 = a.grant_data(Element::SPE7, Element::IOIF1, 10, 8);
  for (const DataGrant& g : {g1, g2, g3}) {
    EXPECT_EQ(g.start, 10u);
    EXPECT_EQ(g.ring, 0);
  }
  EXPECT_EQ(a.booked(10).transfers[0], 3);
  EXPECT_EQ(a.booked(10).segments[0], 0b10101);
  // A fourth disjoint one finds ring 0 full (three transfers) and takes the other clockwise.
  const DataGrant g4 = a.grant_data(Element::IOIF0, Element::SPE6, 10, 8);
  EXPECT_EQ(g4.start, 10u);
  EXPECT_EQ(g4.ring, 1);
}

TEST(EibArbiter, AnOverlappingTransferTakesAnotherRingOfItsDirection) {
  EibArbiter a = arbiter();
  const DataGrant first = a.grant_data(Element::PPE, Element::SPE3, 0, 8);    // segments 0, 1
  const DataGrant second = a.grant_data(Element::SPE1, Element::SPE5, 0, 8);  // 1, 2
  EXPECT_EQ(first.ring, 0);
  EXPECT_EQ(second.start, 0u);
  EXPECT_EQ(second.ring, 1);
  EXPECT_TRUE(a.clockwise(second.ring));
}

TEST(EibArbiter, AnOverlappingTransferWaitsForTheEarliestRingWhosePathFrees) {
  EibArbiter a = arbiter();
  // Ring 0, segments 0-1, held for 4 cycles plus 1 while the last 16 B cross the second hop.
  a.grant_data(Element::PPE, Element::SPE3, 0, 4);
  a.grant_data(Element::SPE1, Element::SPE5, 0, 8);  // ring 1, segments 1-2, cycles 0-8
  // MIC -> SPE7 (segments 11, 0, 1, 2, 3) overlaps both clockwise rings; five hops may not go
  // counter-clockwise, so it waits for ring 0 to free at cycle 5.
  const DataGrant g = a.grant_data(Element::MIC, Element::SPE7, 0, 8);
  EXPECT_EQ(g.start, 5u);
  EXPECT_EQ(g.ring, 0);
  EXPECT_EQ(g.path.hops, 5);
}

TEST(EibArbiter, TransfersGoTheShortWayAndNeverMoreThanHalfwayRound) {
  for (int f = 0; f < kEibElements; ++f) {
    for (int t = 0; t < kEibElements; ++t) {
      if (f == t) continue;
      EibArbiter a = arbiter();
      const auto from = static_cast<Element>(f), to = static_cast<Element>(t);
      const DataGrant g = a.grant_data(from, to, 0, 8);
      const int cw = clockwise_hops(from, to);
      const int shortest = std::min(cw, kEibElements - cw);
      EXPECT_EQ(g.path.hops, shortest) << to_string(from) << " -> " << to_string(to);
      EXPECT_LE(g.path.hops, 6);
      EXPECT_EQ(popcount(g.path.segments), g.path.hops);
      if (cw != 6) {
        EXPECT_EQ(a.clockwise(g.ring), cw < 6) << to_string(from) << " -> " << to_string(to);
      }
      EXPECT_EQ(g.path.clockwise, a.clockwise(g.ring));
    }
  }
}

TEST(EibArbiter, ThePpeReachesSpe0CounterClockwiseThroughTheMic) {
  EibArbiter a = arbiter();
  const DataGrant g = a.grant_data(Element::PPE, Element::SPE0, 0, 8);
  EXPECT_FALSE(a.clockwise(g.ring));
  EXPECT_EQ(g.path.hops, 2);
  EXPECT_EQ(g.path.segments, (1u << 11) | (1u << 10));  // PPE-MIC, MIC-SPE0
}

TEST(EibArbiter, ASixHopTransferTakesTheOtherDirectionWhenItsFirstIsTaken) {
  EibArbiter a = arbiter();
  // Both clockwise rings carry data over segment 1, which SPE1 -> SPE6 clockwise needs.
  a.grant_data(Element::PPE, Element::SPE5, 0, 8);  // segments 0-2
  a.grant_data(Element::MIC, Element::SPE7, 0, 8);  // segments 11, 0-3
  const DataGrant g = a.grant_data(Element::SPE1, Element::SPE6, 0, 8);
  EXPECT_EQ(g.start, 0u);
  EXPECT_EQ(g.path.hops, 6);
  EXPECT_FALSE(a.clockwise(g.ring));
  // Unhindered, the lowest ring (clockwise) takes it.
  EibArbiter b = arbiter();
  EXPECT_TRUE(b.clockwise(b.grant_data(Element::SPE1, Element::SPE6, 0, 8).ring));
}

TEST(EibArbiter, APathIsHeldUntilTheLastBytesCrossIt) {
  EibArbiter a = arbiter();
  // Six hops on ring 0 over segments 1-6, 8 cycles of data: the tail leaves segment 6 at the
  // end of cycle 12.
  const DataGrant first = a.grant_data(Element::SPE1, Element::SPE6, 0, 8);
  EXPECT_EQ(a.booked(12).segments[0], first.path.segments);
  EXPECT_EQ(a.booked(13).segments[0], 0);
  // The destination's off-ramp takes the data as it arrives, six cycles after it left.
  EXPECT_EQ(a.booked(5).off_ramps & (1u << position(Element::SPE6)), 0u);
  EXPECT_NE(a.booked(6).off_ramps & (1u << position(Element::SPE6)), 0u);
  EXPECT_NE(a.booked(13).off_ramps & (1u << position(Element::SPE6)), 0u);
  EXPECT_EQ(a.booked(14).off_ramps & (1u << position(Element::SPE6)), 0u);
}

TEST(EibArbiter, AnElementsRampsCarryOneTransferEachWay) {
  EibArbiter a = arbiter();
  // Two transfers out of SPE1 on disjoint paths: the on-ramp serialises them.
  EXPECT_EQ(a.grant_data(Element::SPE1, Element::SPE3, 0, 8).start, 0u);
  EXPECT_EQ(a.grant_data(Element::SPE1, Element::PPE, 0, 8).start, 8u);
  // Two into SPE6 from either side: the off-ramp serialises them.
  EXPECT_EQ(a.grant_data(Element::IOIF0, Element::SPE6, 0, 8).start, 0u);
  EXPECT_EQ(a.grant_data(Element::SPE4, Element::SPE6, 0, 8).start, 8u);
  // One out of and one into the same element at once: separate ramps.
  EXPECT_EQ(a.grant_data(Element::SPE5, Element::SPE7, 0, 8).start, 0u);
  EXPECT_EQ(a.grant_data(Element::IOIF1, Element::SPE5, 0, 8).start, 0u);
}

TEST(EibArbiter, TheCommandBusTakesOneCommandPerCycle) {
  EibArbiter a = arbiter();
  EXPECT_EQ(a.grant_command(5), 5u);
  EXPECT_EQ(a.grant_command(5), 6u);
  EXPECT_EQ(a.grant_command(4), 4u);
  EXPECT_EQ(a.grant_command(4), 7u);
}

TEST(EibArbiter, RoundRobinSpreadsTransfersOverTheRingsOfADirection) {
  EibArbiter lowest = arbiter("lowest"), rr = arbiter("round_robin");
  // One hop clockwise each, far apart in time: nothing contends.
  EXPECT_EQ(lowest.grant_data(Element::PPE, Element::SPE1, 0, 8).ring, 0);
  EXPECT_EQ(lowest.grant_data(Element::PPE, Element::SPE1, 100, 8).ring, 0);
  EXPECT_EQ(rr.grant_data(Element::PPE, Element::SPE1, 0, 8).ring, 0);
  EXPECT_EQ(rr.grant_data(Element::PPE, Element::SPE1, 100, 8).ring, 1);
  EXPECT_EQ(rr.grant_data(Element::PPE, Element::SPE1, 200, 8).ring, 0);
}

TEST(CycleTable, BookingsFarAheadGrowTheTableAndKeepEarlierOnes) {
  CycleTable<int> t(4);
  t.at(1) = 7;
  t.at(1000) = 9;  // beyond the initial four cycles
  EXPECT_EQ(t.get(1), 7);
  EXPECT_EQ(t.get(1000), 9);
  EXPECT_EQ(t.get(2), 0);
  t.retire_before(500);
  EXPECT_EQ(t.at(1000), 9);
  EXPECT_EQ(t.at(1000 + 1024), 0);  // a new cycle, not an old entry's slot
}

namespace {

// SPE0 streams 2 MiB each way it is asked to (PUTs to SPE2's local store, GETs from it, or
// both, alternating 1 KiB commands with 16 transfers in flight, so both directions are under
// way at once); returns the rate of each stream over the run, GB/s (the start-up, some
// 50 ns, is under 0.1% of the 82 us a stream takes at 25.6 GB/s).
double one_spe(bool puts, bool gets) {
  constexpr uint64_t kBytes = 2 << 20;
  constexpr uint32_t kCommand = 1024;
  set_param("node0.acc0.spe0.mfc.outstanding", 16);
  auto node = make_hybrid_node();
  auto& acc = *node->accelerators[0];
  sc_core::sc_time end;
  acc.spes[0]->spu.set_firmware([&](fw::Hal& hal) {
    const uint64_t partner = amap::acc_spe(2) + amap::kSpeLocalStore;
    for (uint64_t off = 0; off < kBytes; off += kCommand) {
      const auto slot = static_cast<uint32_t>(off % 65536);
      if (puts) fw::mfc::put(hal, slot, partner + 131072 + slot, kCommand, 0);
      if (gets) fw::mfc::get(hal, 65536 + slot, partner + slot, kCommand, 1);
    }
    fw::mfc::wait_tags(hal, 3);
    end = sc_core::sc_time_stamp();
  });
  sc_core::sc_start();
  EXPECT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  // What SPE0 moved went through its ramps, and no more: PUT data out, GET data in.
  const auto eib = StatsRegistry::instance().find("node0.acc0.eib")->to_json(end);
  EXPECT_EQ(eib["spe0_on_ramp_bytes"].get<uint64_t>(), puts ? kBytes : 0);
  EXPECT_EQ(eib["spe0_off_ramp_bytes"].get<uint64_t>(), gets ? kBytes : 0);
  return static_cast<double>(kBytes) / end.to_seconds() / 1e9;
}

constexpr double kRamp = 25.6;  // GB/s: 16 B per bus cycle at 1.6 GHz

}  // namespace

TEST(EibRamps, OneSpeSendsNoMoreThanItsOnRampCarries) {
  const double out = one_spe(true, false);
  EXPECT_LE(out, kRamp * 1.0001);
  EXPECT_GE(out, kRamp * 0.99);
}

TEST(EibRamps, OneSpeReceivesNoMoreThanItsOffRampCarries) {
  const double in = one_spe(false, true);
  EXPECT_LE(in, kRamp * 1.0001);
  EXPECT_GE(in, kRamp * 0.99);
}

TEST(EibRamps, OneSpeSendsAndReceivesAtOnceOnItsTwoRamps) {
  const double each = one_spe(true, true);
  EXPECT_LE(each, kRamp * 1.0001);
  EXPECT_GE(each, kRamp * 0.99);
}
