// Torus link faults. A CRC error costs its link exactly the corrupted copy's serialisation and
// the retransmission turnaround, and every packet still arrives once and in order; the
// counters equal the faults injected; error rates deliver every packet and every byte over
// several seeds, the same way for the same seed. A failed link ends the run as soon as the
// network can make no more progress, listing the stuck traffic exactly. Bad fault parameters
// are refused before the run, naming the parameter and the entry.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "hw/torus/network/torus_network.h"
#include "testbench/support/scenario_run.h"
#include "tlm/check/checker.h"
#include "tlm/fault/fault_streams.h"
#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"
#include "tlm/stats/statistics.h"

using namespace hs;
using namespace hs::torus;
using hs::testing::passed;
using hs::testing::run_scenario;
using hs::testing::violations;
using Json = nlohmann::json;

namespace {

constexpr uint32_t kPayload = 240;  // a full 256-byte packet
constexpr int kPackets = 40;

// Takes every packet; records delivery times (ps) and the sequence numbers in sw0.
struct Sink : NodeEndpoint {
  TorusNetwork* net = nullptr;
  std::vector<uint64_t> at_ps;
  std::vector<uint32_t> seq;
  bool accept(const Packet&) override { return true; }
  void deliver(Packet* p) override {
    at_ps.push_back(hs::now().value());
    seq.push_back(p->sw0);
    net->pool().give(p);
  }
  void injection_ready(int) override {}
};

// Two nodes on a mesh (one link each way): node 0 streams `packets` full packets to node 1 on
// the deterministic VC, keeping its injection FIFOs full, so the link alone sets the pace.
struct Stream : NetworkTimer {
  std::unique_ptr<TorusNetwork> net;
  Sink sinks[2];
  int packets, injected = 0;
  Stream(const char* name, const NetworkConfig::CrcErrors& crc, int n) : packets(n) {
    NetworkConfig cfg;
    cfg.x = 2;
    cfg.y = 1;
    cfg.z = 1;
    cfg.wrap = false;
    cfg.link_crc_error = crc;
    net = std::make_unique<TorusNetwork>(name, cfg);
    for (int i = 0; i < 2; ++i) {
      sinks[i].net = net.get();
      net->attach(i, &sinks[i]);
    }
    net->schedule(sc_core::SC_ZERO_TIME, this, 0);
  }
  void on_timer(int) override {
    while (injected < packets) {
      Packet* p = net->pool().take();
      p->src = 0;
      p->dest = 1;
      p->payload_bytes = kPayload;
      p->chunks = static_cast<uint8_t>(net->config().chunks_for(kPayload));
      p->sw0 = static_cast<uint32_t>(injected);
      if (!net->inject(injected % net->config().injection_queues, p)) {
        net->pool().give(p);
        break;
      }
      ++injected;
    }
    if (injected < packets)
      net->schedule(hs::now() + sc_core::sc_time(100, sc_core::SC_NS), this, 0);
  }
  const Sink& received() const { return sinks[1]; }
};

// Traversals to corrupt, numbered on each link (the stream uses only node 0's +x link).
NetworkConfig::CrcErrors listed(std::vector<uint64_t> at, const std::string& name) {
  NetworkConfig::CrcErrors s;
  s.at.every = std::move(at);
  s.name = name;
  return s;
}

uint64_t stat(const std::string& group, const char* name) {
  const StatGroup* g = StatsRegistry::instance().find(group);
  if (!g) ADD_FAILURE() << "no statistics group " << group;
  return g ? g->to_json(sc_core::sc_time_stamp())[name].get<uint64_t>() : 0;
}

// The picoseconds the model holds a link for one CRC error of a full packet.
uint64_t crc_cost_ps(const NetworkConfig& c) {
  auto ps = [](double ns) { return static_cast<uint64_t>(ns * 1e3 + 0.5); };
  return ps(c.serialisation_ns(kMaxChunks)) + ps(c.retry_turnaround_ns());
}

void expect_once_in_order(const Sink& s, int packets) {
  ASSERT_EQ(s.seq.size(), static_cast<size_t>(packets));
  for (int i = 0; i < packets; ++i) EXPECT_EQ(s.seq[i], static_cast<uint32_t>(i));
}

std::vector<std::string> small_torus(std::vector<std::string> sets) {
  for (const char* s : {"torus.network.x=4", "torus.network.y=4", "torus.network.z=2"}) {
    sets.emplace_back(s);
  }
  return sets;
}

}  // namespace

// One corrupted packet in a two-node stream: every packet from it on arrives exactly one
// corrupted copy plus one turnaround later than without the fault (the link, held for both,
// and its token returns pace the stream), and the stream still arrives once, in order.
TEST(TorusLinkFaults, OneCrcErrorCostsTheCorruptedCopyAndTheTurnaround) {
  Stream clean("clean", {}, kPackets);
  Stream faulty("faulty", listed({10}, "faulty.link_crc_error"), kPackets);
  ParamRegistry::instance().finalize();
  sc_core::sc_start();
  expect_once_in_order(clean.received(), kPackets);
  expect_once_in_order(faulty.received(), kPackets);
  const uint64_t cost = crc_cost_ps(faulty.net->config());
  EXPECT_EQ(cost, 621176u + 22000u) << "264 B at 425 MB/s, then 6 ns wire + 16 ns token return";
  for (int i = 0; i < kPackets; ++i) {
    const uint64_t shift = faulty.received().at_ps[i] - clean.received().at_ps[i];
    EXPECT_EQ(shift, i < 9 ? 0 : cost) << "packet " << i;
  }
  EXPECT_EQ(faulty.net->crc_errors(0, kXPlus), 1u);
  EXPECT_EQ(stat("faulty", "crc_errors"), 1u);
  EXPECT_EQ(stat("faulty", "retransmissions"), 1u);
  EXPECT_EQ(stat("faulty", "retransmitted_bytes"), 264u);
  EXPECT_EQ(stat("faulty", "crc_hold_ps"), cost);
  EXPECT_EQ(stat("clean", "crc_errors"), 0u);
  // The corrupted copy's bytes crossed the wire too; the link was held, not idle, meanwhile.
  EXPECT_EQ(stat("faulty", "link_bytes"), stat("clean", "link_bytes") + 264u);
  EXPECT_EQ(faulty.net->link_busy_ps(0, kXPlus, hs::now().value()),
            clean.net->link_busy_ps(0, kXPlus, hs::now().value()) + cost);
  EXPECT_EQ(faulty.net->tokens_outstanding(), 0) << "tokens taken once, returned once";
  for (const auto& v : CheckRegistry::instance().violations()) ADD_FAILURE() << v.message;
}

// Listed traversals are corrupted exactly once each; a retransmission is a traversal too, so
// listing the one after a corrupted packet's corrupts its retransmission: three faults, three
// times the cost, on the only link the stream uses.
TEST(TorusLinkFaults, CountsEqualTheFaultsInjected) {
  Stream clean("clean", {}, kPackets);
  Stream faulty("faulty", listed({2, 20, 21}, "faulty.link_crc_error"), kPackets);
  ParamRegistry::instance().finalize();
  sc_core::sc_start();
  expect_once_in_order(faulty.received(), kPackets);
  const uint64_t cost = crc_cost_ps(faulty.net->config());
  EXPECT_EQ(faulty.received().at_ps.back() - clean.received().at_ps.back(), 3 * cost);
  EXPECT_EQ(faulty.net->crc_errors(0, kXPlus), 3u);
  EXPECT_EQ(faulty.net->crc_errors(1, kXMinus), 0u);
  EXPECT_EQ(stat("faulty", "crc_errors"), 3u);
  EXPECT_EQ(stat("faulty", "retransmissions"), 3u);
  EXPECT_EQ(stat("faulty", "retransmitted_bytes"), 3u * 264u);
  EXPECT_EQ(stat("faulty", "packet_hops"), static_cast<uint64_t>(kPackets))
      << "a retransmission is not another hop";
}

// Through the runner: a chosen turnaround replaces the default round trip in the link time a
// CRC error costs (the first traversal of node 0's +x link is the first ping's only packet, 3
// chunks), and the run ends later by at most that (the receiver may not be waiting for it yet).
TEST(TorusLinkFaults, TurnaroundParameterSetsTheCost) {
  const auto base = run_scenario("torus_pingpong", small_torus({"workload.bytes=64"}), 1);
  const auto slow =
      run_scenario("torus_pingpong",
                   small_torus({"workload.bytes=64", "torus.network.link_crc_error_at=x0y0z0:+x#1",
                                "torus.network.crc_retry_turnaround=1000"}),
                   1);
  ASSERT_TRUE(passed(base)) << violations(base);
  ASSERT_TRUE(passed(slow)) << violations(slow);
  const Json& net = slow["stats"]["torus.network"];
  EXPECT_EQ(net["crc_errors"].get<uint64_t>(), 1u);
  const NetworkConfig defaults;
  const uint64_t hold = net["crc_hold_ps"].get<uint64_t>();
  EXPECT_EQ(hold, 1000000u + static_cast<uint64_t>(defaults.serialisation_ns(3) * 1e3 + 0.5));
  const double later =
      slow["simulated_time_ns"].get<double>() - base["simulated_time_ns"].get<double>();
  EXPECT_GT(later, 0);
  EXPECT_LE(later, hold / 1e3 + 1e-6);
}

// Error rates up to 1e-2 over several seeds: the ping-pong firmware checks every byte it
// receives, the torus checkers every hop and counter; every fault is retransmitted once.
TEST(TorusLinkFaults, RateBasedErrorsDeliverEveryByteOverSeeds) {
  uint64_t errors_total = 0;
  for (uint64_t seed : {1, 2, 3, 4}) {
    const auto r = run_scenario(
        "torus_pingpong",
        small_torus({"workload.bytes=65536", "workload.hops=3", "workload.protocol=split",
                     "workload.iterations=2", "torus.network.link_crc_error_rate=0.01"}),
        seed);
    ASSERT_TRUE(passed(r)) << "seed " << seed << " " << violations(r);
    const Json& net = r["stats"]["torus.network"];
    const uint64_t errors = net["crc_errors"].get<uint64_t>();
    EXPECT_EQ(net["retransmissions"].get<uint64_t>(), errors);
    // Whole packets resent: 40 B (one chunk and framing) to 264 B each.
    EXPECT_GE(net["retransmitted_bytes"].get<uint64_t>(), errors * 40);
    EXPECT_LE(net["retransmitted_bytes"].get<uint64_t>(), errors * 264);
    EXPECT_EQ(net["packets_delivered"], net["packets_injected"]);
    // About 1% of the traversals: loose bounds that still fail if faults stop or run away.
    const double hops = net["packet_hops"].get<double>();
    EXPECT_GT(errors, hops * 0.002) << "seed " << seed;
    EXPECT_LT(errors, hops * 0.03) << "seed " << seed;
    errors_total += errors;
  }
  EXPECT_GT(errors_total, 0u);
}

TEST(TorusLinkFaults, SyntheticTrafficUnderErrorsDeliversEveryPacket) {
  for (uint64_t seed : {5, 6, 7}) {
    const auto r = run_scenario(
        "torus_traffic",
        small_torus({"workload.load=0.6", "workload.duration=6000", "workload.warmup=1000",
                     "torus.network.link_crc_error_rate=0.02"}),
        seed);
    ASSERT_TRUE(passed(r)) << "seed " << seed << " " << violations(r);
    const Json& res = r["results"];
    EXPECT_EQ(res["packets_delivered"].get<uint64_t>(),
              res["packets_generated"].get<uint64_t>() -
                  res["packets_refused_at_source"].get<uint64_t>());
    EXPECT_GT(r["stats"]["torus.network"]["crc_errors"].get<uint64_t>(), 0u);
    EXPECT_EQ(r["stats"]["torus.network"]["tokens_outstanding"].get<double>(), 0.0);
  }
}

TEST(TorusLinkFaults, SameSeedSameRunOtherSeedOtherFaults) {
  const auto sets = small_torus(
      {"workload.load=0.5", "workload.duration=4000", "torus.network.link_crc_error_rate=0.01"});
  const auto a = run_scenario("torus_traffic", sets, 11);
  const auto b = run_scenario("torus_traffic", sets, 11);
  const auto c = run_scenario("torus_traffic", sets, 12);
  ASSERT_TRUE(passed(a) && passed(b) && passed(c)) << violations(a) << violations(c);
  EXPECT_EQ(a["stats"]["torus.network"], b["stats"]["torus.network"]);
  EXPECT_EQ(a["results"], b["results"]);
  EXPECT_NE(a["stats"]["torus.network"], c["stats"]["torus.network"]);
}

// Each link numbers its own traversals and draws from its own stream: which of a link's packets
// are corrupted depends on the run's seed and that link alone, not on what other links carry.
TEST(TorusLinkFaults, EachLinkDrawsItsOwnFaults) {
  auto hits = [](uint64_t seed, bool other_traffic) {
    hs::set_run_seed(seed);
    FaultStreams::Listed listed;
    listed.on_stream = {{0, 5}};  // the 5th traversal of link 0 only
    FaultStreams links(0.2, listed, "torus.network.link_crc_error", 3);
    std::vector<bool> link0;
    for (int i = 0; i < 200; ++i) {
      link0.push_back(links.hit(0));
      if (other_traffic) links.hit(1 + i % 2);
    }
    EXPECT_EQ(links.events(0), 200u);
    return link0;
  };
  const auto alone = hits(11, false);
  EXPECT_EQ(hits(11, true), alone) << "other links' traffic changed link 0's faults";
  EXPECT_NE(hits(12, false), alone) << "another seed, the same faults";
  EXPECT_TRUE(alone[4]) << "the listed traversal is hit";
  const auto count = std::count(alone.begin(), alone.end(), true);
  EXPECT_GT(count, 20);
  EXPECT_LT(count, 70);
}

// A line of four nodes whose link x1y0z0:+x has failed: three packets 0->3 cross to node 1 and
// wait in its escape input from x0y0z0 for the failed link; two 1->2 wait at the head of node
// 1's injection FIFO 0 for it too; one 0->1, ahead of them, arrives. The run ends as soon as
// nothing can move, the check fires once, and the report lists exactly those groups.
TEST(TorusLinkFaults, FailedLinkEndsTheRunListingTheStuckTraffic) {
  NetworkConfig cfg;
  cfg.x = 4;
  cfg.y = 1;
  cfg.z = 1;
  cfg.wrap = false;
  cfg.failed_links = {{1, kXPlus, 0}};
  TorusNetwork net("line", cfg);
  Sink sinks[4];
  for (int i = 0; i < 4; ++i) {
    sinks[i].net = &net;
    net.attach(i, &sinks[i]);
  }
  ParamRegistry::instance().finalize();
  auto send = [&](int src, int dest, int queue) {
    Packet* p = net.pool().take();
    p->src = src;
    p->dest = dest;
    p->payload_bytes = 16;
    p->chunks = 1;
    ASSERT_TRUE(net.inject(queue, p));
  };
  send(0, 1, 0);  // first in the FIFO: behind the others it would wait at node 1's input too
  for (int i = 0; i < 3; ++i) send(0, 3, 0);
  send(1, 2, 0);
  send(1, 2, 0);
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  EXPECT_LT(hs::now().to_seconds(), 1e-6) << "ended when stuck, not at the time limit";
  EXPECT_EQ(sinks[1].seq.size(), 1u);
  EXPECT_EQ(net.in_flight(), 5u);
  EXPECT_TRUE(net.link_failed(1, kXPlus));
  EXPECT_FALSE(net.link_failed(0, kXPlus));
  const auto& stuck = net.stuck_traffic();
  ASSERT_EQ(stuck.size(), 2u);
  // Source, destination, node, queue, what it waits for, packets.
  const auto group = [](const StuckTraffic& g) {
    return std::make_tuple(g.src, g.dest, g.node, g.queue, g.waits_for, g.packets);
  };
  EXPECT_EQ(group(stuck[0]), std::make_tuple(0, 3, 1, std::string("input +x VC escape"),
                                             std::string("failed link x1y0z0:+x"), 3u));
  EXPECT_EQ(group(stuck[1]), std::make_tuple(1, 2, 1, std::string("injection FIFO 0"),
                                             std::string("failed link x1y0z0:+x"), 2u));
  const auto& v = CheckRegistry::instance().violations();
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].check, "torus links: no traffic is stuck behind a failed link");
  EXPECT_NE(v[0].message.find("failed link x1y0z0:+x (at 0 ns)"), std::string::npos)
      << v[0].message;
  EXPECT_NE(v[0].message.find("3 packets x0y0z0->x3y0z0 at x1y0z0 input +x VC escape, waiting "
                              "for failed link x1y0z0:+x"),
            std::string::npos)
      << v[0].message;
}

// Through the runner: a ping-pong whose route crosses a link that fails mid-run fails with the
// stuck traffic in the report's results, and the message names the link and its time.
TEST(TorusLinkFaults, FailedLinkMidRunIsReportedInTheRunReport) {
  const auto r =
      run_scenario("torus_pingpong",
                   small_torus({"workload.bytes=4096", "workload.hops=2", "workload.iterations=20",
                                "torus.network.routing=deterministic",
                                "torus.network.failed_links=x1y0z0:+x@20000"}),
                   1);
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_EQ(r["status"], "failed");
  const Json& v = r["checks"]["violations"];
  ASSERT_EQ(v.size(), 1u) << v.dump();
  EXPECT_EQ(v[0]["check"], "torus links: no traffic is stuck behind a failed link");
  EXPECT_NE(v[0]["message"].get<std::string>().find("x1y0z0:+x (at 20000 ns)"), std::string::npos)
      << v[0]["message"];
  EXPECT_GE(v[0]["time_ns"].get<double>(), 20000.0);
  const Json& stuck = r["results"]["stuck_traffic"];
  ASSERT_FALSE(stuck.empty());
  uint64_t packets = 0;
  for (const auto& s : stuck) {
    // Only the ping's direction crosses x1y0z0:+x: its packets wait at x1y0z0 or behind it.
    EXPECT_EQ(s["source"], "x0y0z0") << s.dump();
    EXPECT_EQ(s["destination"], "x2y0z0") << s.dump();
    packets += s["packets"].get<uint64_t>();
  }
  EXPECT_EQ(stuck[0]["node"], "x0y0z0");
  EXPECT_EQ(stuck.back()["node"], "x1y0z0");
  EXPECT_EQ(stuck.back()["waits_for"], "failed link x1y0z0:+x");
  const Json& net = r["stats"]["torus.network"];
  EXPECT_EQ(packets,
            net["packets_injected"].get<uint64_t>() - net["packets_delivered"].get<uint64_t>());
}

TEST(TorusLinkFaults, BadFaultParametersAreRefusedNamingTheParameter) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"torus.network.link_crc_error_rate=0.6", "'torus.network.link_crc_error_rate'"},
      {"torus.network.link_crc_error_at=3,x", "'torus.network.link_crc_error_at'"},
      {"torus.network.crc_retry_turnaround=-1", "'torus.network.crc_retry_turnaround'"},
      {"torus.network.failed_links=x1y0z0+x", "entry 'x1y0z0+x': no ':'"},
      {"torus.network.failed_links=x1y0z0:+x,x9y0z0:-x", "entry 'x9y0z0:-x': node x9y0z0 lies"},
      {"torus.network.failed_links=x1y0:+x", "entry 'x1y0:+x': 'x1y0' is not a node name"},
      {"torus.network.failed_links=x1y0z0:+w", "entry 'x1y0z0:+w': '+w' is not a direction"},
      {"torus.network.failed_links=x1y0z0:+x@soon", "'soon' is not a time"},
      {"torus.network.failed_links=x1y0z0:+x@-5", "'-5' is not a time"},
      {"torus.network.failed_links=x1y0z0:+x,x1y0z0:+x", "the link is listed twice"},
  };
  for (const auto& [set, expected] : bad) {
    const auto r = run_scenario("torus_traffic", small_torus({set}), 1);
    ASSERT_TRUE(r.contains("error")) << set << " was accepted";
    const std::string e = r["error"].get<std::string>();
    EXPECT_NE(e.find(expected), std::string::npos) << set << ": " << e;
    if (set.find("failed_links") != std::string::npos) {
      EXPECT_NE(e.find("'torus.network.failed_links'"), std::string::npos) << e;
    }
  }
  // A mesh has no link off its edge.
  const auto r = run_scenario(
      "torus_traffic",
      small_torus({"torus.network.wrap=false", "torus.network.failed_links=x3y0z0:+x"}), 1);
  ASSERT_TRUE(r.contains("error"));
  EXPECT_NE(r["error"].get<std::string>().find("node x3y0z0 has no +x link in this mesh"),
            std::string::npos)
      << r["error"];
}
