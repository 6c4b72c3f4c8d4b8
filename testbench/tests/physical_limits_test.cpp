// Physical limits checked in every run, and the windowed statistics they read: busy time and
// bytes moved count only what lies inside the run's window [0, end] (a transfer in progress by
// its elapsed share); each rule (utilisation at most 1, a link within its line rate, a memory
// port within its bandwidth) fails on impossible figures, naming the component and the
// figures; exact saturation with picosecond-rounded transfers passes; and a time-limited run of
// the default scenario reports its PCIe links within their line rate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "testbench/support/scenario_run.h"
#include "tlm/check/checker.h"
#include "tlm/check/physical_limits.h"
#include "tlm/common/errors.h"
#include "tlm/stats/statistics.h"

using namespace hs;
using Json = nlohmann::json;
using sc_core::sc_time;

namespace {

sc_time ps(uint64_t v) {
  return sc_time::from_value(v);
}
sc_time ns(double v) {
  return sc_time(v, sc_core::SC_NS);
}

// The violations of `check`, as "component: message" lines.
std::vector<std::string> violations_of(const char* check) {
  std::vector<std::string> out;
  for (const auto& v : CheckRegistry::instance().violations()) {
    if (v.check == check) out.push_back(v.component + ": " + v.message);
  }
  return out;
}

uint64_t evaluations_of(const char* check) {
  return CheckRegistry::instance().check(check).evaluations;
}

bool mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

// ---- Windowed accounting ----

TEST(WindowedStats, UtilisationCountsOnlyTheBusyTimeInsideTheWindow) {
  StatGroup g("test.wire");
  BusyTime& busy = g.busy("utilisation", "test");
  busy.add(ns(0), ns(4000));
  busy.add(ns(4000), ns(6000));  // booked to finish after a 5 us window ends
  EXPECT_DOUBLE_EQ(busy.utilisation(ns(5000)), 1.0);
  EXPECT_DOUBLE_EQ(busy.utilisation(ns(6000)), 1.0);
  EXPECT_DOUBLE_EQ(busy.utilisation(ns(12000)), 0.5);
  EXPECT_EQ(g.to_json(ns(5000))["utilisation"].get<double>(), 1.0);
}

// ---- Merging the partitions of a parallel run ----

// What two partitions record of one group, merged, is what the whole machine records.
TEST(PartitionMerge, TwoPartitionsOfAGroupMergeIntoTheWholeGroup) {
  struct Figures {
    StatGroup g;
    Counter& packets;
    Histogram& latency;
    ByteFlow& bytes;
    BusyTime& busy;
    explicit Figures(const std::string& path)
        : g(path),
          packets(g.counter("packets", "packets", "test")),
          latency(g.histogram("latency", "ns", "test")),
          bytes(g.bytes("bytes", "test")),
          busy(g.busy("busy", "test")) {}
    void record(uint64_t n, double sample, uint64_t from_ns, uint64_t to_ns) {
      packets += n;
      latency.sample(sample);
      bytes.add(ns(from_ns), ns(to_ns), 1000);
      busy.add(ns(from_ns), ns(to_ns));
    }
  };
  Figures whole("test.merge_whole"), first("test.merge"), second("test.merge");
  whole.record(3, 0.5, 0, 100);
  first.record(3, 0.5, 0, 100);
  whole.record(4, 700.25, 150, 300);  // still moving at the window's end (250 ns)
  second.record(4, 700.25, 150, 300);
  ByteWriter w;
  second.g.save(w);
  const Bytes saved = w.take();
  ByteReader r(saved);
  first.g.merge(r);
  EXPECT_TRUE(r.done());
  EXPECT_EQ(first.g.to_json(ns(250)), whole.g.to_json(ns(250)));
  EXPECT_EQ(first.latency.min, 0.5);
  EXPECT_EQ(first.latency.max, 700.25);
}

// A level is not a sum: merging one changed in two partitions is refused, never guessed.
TEST(PartitionMerge, ALevelChangedInTwoPartitionsIsRefused) {
  StatGroup a("test.level"), b("test.level");
  Occupancy& la = a.occupancy("queue", "packets", "test");
  Occupancy& lb = b.occupancy("queue", "packets", "test");
  la.set(2, ns(10));
  lb.set(3, ns(20));
  ByteWriter w;
  b.save(w);
  const Bytes saved = w.take();
  ByteReader r(saved);
  EXPECT_THROW(a.merge(r), ModelError);
  // One partition's level alone moves as it is.
  StatGroup c("test.level"), d("test.level");
  Occupancy& ld = d.occupancy("queue", "packets", "test");
  c.occupancy("queue", "packets", "test");
  ld.set(5, ns(10));
  ByteWriter w2;
  d.save(w2);
  const Bytes saved2 = w2.take();
  ByteReader r2(saved2);
  c.merge(r2);
  EXPECT_EQ(c.to_json(ns(30)), d.to_json(ns(30)));
}

// A machine's total over its nodes (StatGroup::sum): each partition sums its own nodes, and the
// merged figure is the sum over all; a derived figure is not a sum and is not merged.
TEST(PartitionMerge, SumsOverEachPartitionsPartsAddUp) {
  double mine = 3, theirs = 4;
  StatGroup a("test.sum"), b("test.sum");
  a.sum("packets", "packets", "test", [&mine] { return mine; });
  a.derived("ratio", "", "test", [] { return 0.5; });
  b.sum("packets", "packets", "test", [&theirs] { return theirs; });
  b.derived("ratio", "", "test", [] { return 0.5; });
  ByteWriter w;
  b.save(w);
  const Bytes saved = w.take();
  ByteReader r(saved);
  a.merge(r);
  EXPECT_TRUE(r.done());
  EXPECT_EQ(a.to_json(ns(10))["packets"].get<double>(), 7);
  EXPECT_EQ(a.to_json(ns(10))["ratio"].get<double>(), 0.5);
  mine = 5;  // read at report time, as a derived figure is
  EXPECT_EQ(a.to_json(ns(10))["packets"].get<double>(), 9);
}

// The partitions' groups must be the same ones: another group's figures are refused.
TEST(PartitionMerge, FiguresOfAnotherGroupAreRefused) {
  StatGroup a("test.one"), b("test.other");
  ByteWriter w;
  b.save(w);
  const Bytes saved = w.take();
  ByteReader r(saved);
  EXPECT_THROW(a.merge(r), ModelError);
}

// A port records each transfer once, as its bytes' flow, and that flow is also its busy time:
// the same figure as busy time recorded interval by interval, in every window.
TEST(WindowedStats, BusyTimeOfFlowsEqualsTheirTransfersRecordedAsBusyTime) {
  StatGroup g("test.port");
  ByteFlow& reads = g.bytes("bytes_read", "test");
  ByteFlow& writes = g.bytes("bytes_written", "test");
  BusyTime& from_flows = g.busy("port_utilisation", "test", {&reads, &writes});
  BusyTime& direct = g.busy("direct_utilisation", "test");
  // Back-to-back transfers that merge, alternating flows, gaps, one booked past some windows.
  const uint64_t at[][3] = {{0, 1000, 64},        {1000, 2500, 128},   {2500, 2501, 1},
                            {7000, 9333, 96},     {9333, 12000, 4096}, {20000, 20000, 0},
                            {20001, 30007, 4096}, {30007, 31000, 8}};
  for (size_t i = 0; i < std::size(at); ++i) {
    (i % 3 == 1 ? writes : reads).add(ps(at[i][0]), ps(at[i][1]), at[i][2]);
    direct.add(ps(at[i][0]), ps(at[i][1]));
  }
  for (uint64_t end :
       {0, 1, 999, 1000, 2500, 2501, 5000, 9334, 11999, 20000, 25000, 31000, 40000}) {
    EXPECT_EQ(from_flows.busy_ps(ps(end)), direct.busy_ps(ps(end))) << "window [0, " << end << "]";
    EXPECT_EQ(from_flows.utilisation(ps(end)), direct.utilisation(ps(end))) << end;
  }
  EXPECT_EQ(from_flows.busy_ps(ps(40000)), 2501.0 + 5000 + 10006 + 993);
  // Busy time added directly counts too (an access that moves no bytes still holds the port).
  from_flows.add(ps(50000), ps(50100));
  EXPECT_EQ(from_flows.busy_ps(ps(60000)), 2501.0 + 5000 + 10006 + 993 + 100);
}

TEST(WindowedStats, BytesOfATransferInProgressCountByItsElapsedShare) {
  StatGroup g("test.port");
  ByteFlow& bytes = g.bytes("bytes", "test");
  bytes.add(ns(0), ns(1000), 1000);
  bytes.add(ns(4000), ns(6000), 1000);
  EXPECT_DOUBLE_EQ(bytes.within(ns(5000)), 1500.0);
  EXPECT_DOUBLE_EQ(bytes.within(ns(3000)), 1000.0);
  EXPECT_DOUBLE_EQ(bytes.rate(ns(5000)), 1500.0 / 5e-6);
  EXPECT_EQ(bytes.transfers_within(ns(3000)), 1u);
  EXPECT_EQ(bytes.transfers_within(ns(5000)), 2u);
  EXPECT_EQ(bytes.total(), 2000u);
  EXPECT_EQ(g.to_json(ns(5000))["bytes"].get<uint64_t>(), 1500u);
}

// Intervals arrive as a model books them (in any order, some ahead of time) while time
// advances; the kept list is folded in as intervals end. Every window the run can take (now or
// later) still sees exactly the brute-force total.
TEST(WindowedStats, FoldingFinishedIntervalsKeepsEveryLaterWindowExact) {
  WindowedTotal total;
  struct Iv {
    uint64_t s, e, amount;
  };
  std::vector<Iv> all;
  auto brute = [&all](uint64_t t) {
    double sum = 0;
    for (const Iv& iv : all) {
      if (iv.e <= t) {
        sum += static_cast<double>(iv.amount);
      } else if (iv.s < t) {
        sum += static_cast<double>(iv.amount) * static_cast<double>(t - iv.s) /
               static_cast<double>(iv.e - iv.s);
      }
    }
    return sum;
  };
  uint64_t lcg = 12345;
  auto next = [&lcg](uint64_t bound) {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return (lcg >> 33) % bound;
  };
  for (int step = 0; step < 400; ++step) {
    const uint64_t now = sc_core::sc_time_stamp().value();
    for (int k = 0; k < 3; ++k) {
      const uint64_t s = now + next(20000);  // up to 20 ns ahead, in no particular order
      const uint64_t e = s + next(5000);     // zero-length transfers included
      const uint64_t amount = 1 + next(512);
      all.push_back({s, e, amount});
      total.add(ps(s), ps(e), amount);
    }
    for (uint64_t ahead : {uint64_t{0}, uint64_t{3000}, uint64_t{40000}}) {
      ASSERT_NEAR(total.within(ps(now + ahead)), brute(now + ahead), 1e-6)
          << "step " << step << ", window " << now + ahead << " ps";
    }
    sc_core::sc_start(ps(1000 + next(4000)));
  }
  uint64_t amounts = 0;
  for (const Iv& iv : all) amounts += iv.amount;
  EXPECT_EQ(total.total(), amounts);
  // A window before the time of intervals already folded in cannot be taken.
  EXPECT_THROW(total.within(ps(0)), ModelError);
}

// ---- Each rule fires on impossible figures, naming the component and the figures ----

TEST(PhysicalLimits, AResourceBookedTwiceIsBusyOverAllTheTimeAndFailsTheRun) {
  StatGroup g("test.port");
  BusyTime& busy = g.busy("port_utilisation", "test");
  busy.add(ns(0), ns(1000));
  busy.add(ns(500), ns(1000));  // overlaps the first booking
  check_physical_limits(ns(1000));
  const auto v = violations_of(kUtilisationLimit);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_TRUE(mentions(v[0], "test.port: port_utilisation is 1.5 over the run's 1000 ns")) << v[0];
  EXPECT_EQ(evaluations_of(kUtilisationLimit), 1u);
  EXPECT_FALSE(CheckRegistry::instance().ok());
}

TEST(PhysicalLimits, ALinkAboveItsLineRateFailsTheRun) {
  StatGroup g("test.link.down");
  ByteFlow& wire = g.bytes("wire_bytes", "test");
  g.rate_ceiling(Limit::Kind::LineRate, "wire_bytes", 1e9, {&wire});
  wire.add(ns(0), ns(1000), 1100);  // 1100 B in 1 us over a 1 GB/s wire
  check_physical_limits(ns(1000));
  const auto v = violations_of(kLineRateLimit);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_TRUE(mentions(v[0],
                       "test.link.down: wire_bytes moved 1.1 GB/s over the run's 1000 ns, "
                       "above the line rate of 1 GB/s"))
      << v[0];
  EXPECT_EQ(evaluations_of(kLineRateLimit), 1u);
}

TEST(PhysicalLimits, AMemoryPortAboveItsBandwidthFailsTheRunOnReadsAndWritesTogether) {
  StatGroup g("test.dram");
  ByteFlow& reads = g.bytes("bytes_read", "test");
  ByteFlow& writes = g.bytes("bytes_written", "test");
  g.rate_ceiling(Limit::Kind::PortBandwidth, "bytes_read + bytes_written", 10e9, {&reads, &writes});
  reads.add(ns(0), ns(1000), 6000);   // 6 GB/s of reads and 6 GB/s of writes on a 10 GB/s port:
  writes.add(ns(0), ns(1000), 6000);  // each alone fits, together they cannot
  check_physical_limits(ns(1000));
  const auto v = violations_of(kPortBandwidthLimit);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_TRUE(mentions(v[0],
                       "test.dram: bytes_read + bytes_written moved 12 GB/s over the run's "
                       "1000 ns, above the port bandwidth of 10 GB/s"))
      << v[0];
}

// A custom limit (figures kept outside the statistics, as the torus keeps its links) and the
// limits of groups that are not reported are checked too.
TEST(PhysicalLimits, DetachedGroupsAndCustomLimitsAreChecked) {
  StatsRegistry::instance().set_detached(true);
  StatGroup g("test.torus");
  StatsRegistry::instance().set_detached(false);
  ASSERT_EQ(StatsRegistry::instance().find("test.torus"), nullptr);
  g.limit({Limit::Kind::Utilisation, "link_utilisation_max", "fraction", [](const sc_time&) {
             return Limit::Reading{1.25, 1.0, 0.0};
           }});
  check_physical_limits(ns(1000));
  const auto v = violations_of(kUtilisationLimit);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_TRUE(mentions(v[0], "test.torus: link_utilisation_max is 1.25")) << v[0];
}

// ---- Honest runs pass ----

// A wire of 3 GB/s (333.33 ps per byte) sending 1-byte transfers back to back, each rounded to
// the nearest picosecond (333 ps): it moves 0.1% over its line rate, which the half-picosecond
// per transfer that the time resolution admits covers. One picosecond shorter is a wire
// genuinely faster than its line rate.
TEST(PhysicalLimits, ExactSaturationWithRoundedTransferTimesPasses) {
  StatGroup ok("test.saturated");
  ByteFlow& wire = ok.bytes("wire_bytes", "test");
  BusyTime& busy = ok.busy("utilisation", "test");
  ok.rate_ceiling(Limit::Kind::LineRate, "wire_bytes", 3e9, {&wire});
  StatGroup fast("test.too_fast");
  ByteFlow& fast_wire = fast.bytes("wire_bytes", "test");
  fast.rate_ceiling(Limit::Kind::LineRate, "wire_bytes", 3e9, {&fast_wire});
  for (uint64_t i = 0; i < 3000; ++i) {
    wire.add(ps(i * 333), ps((i + 1) * 333), 1);
    busy.add(ps(i * 333), ps((i + 1) * 333));
    fast_wire.add(ps(i * 332), ps((i + 1) * 332), 1);
  }
  // When the fast wire finishes, the saturated one has a transfer in progress.
  check_physical_limits(ps(3000 * 332));
  check_physical_limits(ps(3000 * 333));
  const auto v = violations_of(kLineRateLimit);
  ASSERT_EQ(v.size(), 1u) << ::testing::PrintToString(v);
  EXPECT_TRUE(mentions(v[0], "test.too_fast: wire_bytes moved 3.01")) << v[0];
  EXPECT_TRUE(violations_of(kUtilisationLimit).empty());
  EXPECT_EQ(evaluations_of(kLineRateLimit), 4u);
  EXPECT_EQ(evaluations_of(kUtilisationLimit), 2u);
}

// The run the limits were written for: a time-limited default run reserves wire time for TLPs
// that finish after its end. Its links now report at most their line rate and utilisation 1,
// and the three limit checks are listed in its report, evaluated on every link and port, and
// passed. (The run itself fails: its firmware cannot finish in 5 us.)
TEST(PhysicalLimits, ATimeLimitedDefaultRunStaysWithinLineRate) {
  const Json r = hs::testing::run_scenario("default", {"sim.time_limit=5us"});
  ASSERT_TRUE(r.contains("stats")) << r.dump();
  EXPECT_EQ(r["simulated_time_ns"].get<double>(), 5000.0);
  const Json& down = r["stats"]["node0.pcie0.down"];
  const double line = down["line_rate_GBps"].get<double>();
  EXPECT_LE(down["utilisation"].get<double>(), 1.0);
  EXPECT_LE(down["payload_bandwidth_GBps"].get<double>(), line);
  EXPECT_LE(down["wire_bytes"].get<double>() / 5e-6 / 1e9, line * (1 + 1e-9));
  // The link is saturated in this window: the honest figure is close to 1, not above it.
  EXPECT_GT(down["utilisation"].get<double>(), 0.9);
  for (const auto& [path, stats] : r["stats"].items()) {
    for (const char* u : {"utilisation", "port_utilisation"}) {
      if (stats.contains(u)) {
        EXPECT_LE(stats[u].get<double>(), 1.0) << path << " " << u;
      }
    }
  }
  for (const char* check : {kUtilisationLimit, kLineRateLimit, kPortBandwidthLimit}) {
    EXPECT_GT(hs::testing::evaluations(r, check), 0u) << check;
  }
  for (const auto& c : r["checks"]["invariants"]) {
    if (std::string(c["name"]).rfind("physical limits", 0) == 0) {
      EXPECT_TRUE(c["passed"].get<bool>()) << hs::testing::violations(r);
    }
  }
}

// A starved host DRAM port (0.2 GB/s) that the accelerator's writes across PCIe book far
// beyond the end of a 500 us window: its figures stay physical, and so do the checks.
TEST(PhysicalLimits, AnOverbookedMemoryPortReportsAtMostItsBandwidth) {
  const Json r = hs::testing::run_scenario(
      "default", {"sim.time_limit=500us", "node0.host.dram.bandwidth=0.2"});
  ASSERT_TRUE(r.contains("stats")) << r.dump();
  const Json& dram = r["stats"]["node0.host.dram"];
  EXPECT_GT(dram["port_utilisation"].get<double>(), 0.3);  // the window sees the port at work
  EXPECT_LE(dram["port_utilisation"].get<double>(), 1.0);
  EXPECT_LE(dram["read_bandwidth_GBps"].get<double>() + dram["write_bandwidth_GBps"].get<double>(),
            0.2 * (1 + 1e-9));
  EXPECT_LE(static_cast<double>(dram["bytes_read"].get<uint64_t>() +
                                dram["bytes_written"].get<uint64_t>()),
            0.2e9 * 500e-6 * (1 + 1e-9));
  EXPECT_GT(hs::testing::evaluations(r, kPortBandwidthLimit), 0u);
  for (const auto& c : r["checks"]["invariants"]) {
    if (std::string(c["name"]).rfind("physical limits", 0) == 0) {
      EXPECT_TRUE(c["passed"].get<bool>()) << hs::testing::violations(r);
    }
  }
}

// A torus loaded past its bisection bound and stopped mid-flight: packets still serialising on
// the busiest links count only their elapsed share, so no link reports more than all the time
// and the links together stay within their line rate.
TEST(PhysicalLimits, ATimeLimitedSaturatedTorusKeepsItsLinksWithinLimits) {
  const Json r = hs::testing::run_scenario(
      "torus_traffic", {"workload.load=3", "sim.time_limit=10us", "torus.network.x=4",
                        "torus.network.y=4", "torus.network.z=4"});
  ASSERT_TRUE(r.contains("stats")) << r.dump();
  const Json& net = r["stats"]["torus.network"];
  // Saturated links. No link can be busy before the first packet is wholly in its injection
  // FIFO (7 chunks at the fill rate after the header: 172 ns of the 10 us), hence not 0.99.
  EXPECT_GT(net["link_utilisation_max"].get<double>(), 0.98);
  EXPECT_LE(net["link_utilisation_max"].get<double>(), 1.0);
  const double ceiling =
      net["links"].get<double>() * r["params"]["torus.network.link_rate"].get<double>();
  EXPECT_LE(net["link_bytes"].get<double>() / 10e-6, ceiling * (1 + 1e-9));
  for (const char* check : {kUtilisationLimit, kLineRateLimit}) {
    EXPECT_GT(hs::testing::evaluations(r, check), 0u) << check;
  }
  for (const auto& c : r["checks"]["invariants"]) {
    if (std::string(c["name"]).rfind("physical limits", 0) == 0) {
      EXPECT_TRUE(c["passed"].get<bool>()) << hs::testing::violations(r);
    }
  }
}
