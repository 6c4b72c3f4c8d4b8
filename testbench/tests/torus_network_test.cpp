// The torus network: minimal routes with wrap-around, zero-load latency linear in hops,
// link payload efficiency, deadlock freedom and saturation under uniform random traffic.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <vector>

#include "hw/torus/network/torus_network.h"
#include "testbench/support/node_fixture.h"
#include "testbench/support/scenario_run.h"
#include "tlm/kernel/now.h"

using namespace hs;
using namespace hs::torus;

namespace {

// Records deliveries; accepts everything.
struct Sink : NodeEndpoint {
  TorusNetwork* net = nullptr;
  int node = 0;
  std::vector<std::pair<double, Packet>> got;  // delivery time (ns), packet
  bool accept(const Packet&) override { return true; }
  void deliver(Packet* p) override {
    got.emplace_back(hs::now().to_seconds() * 1e9, *p);
    net->pool().give(p);
  }
  void injection_ready(int) override {}
};

struct Net {
  NetworkConfig cfg;
  std::unique_ptr<TorusNetwork> net;
  std::vector<Sink> sinks;
  explicit Net(NetworkConfig c) : cfg(c) {
    net = std::make_unique<TorusNetwork>("net", cfg);
    sinks.resize(cfg.nodes());
    for (int i = 0; i < cfg.nodes(); ++i) {
      sinks[i].net = net.get();
      sinks[i].node = i;
      net->attach(i, &sinks[i]);
    }
  }
  Packet* packet(int src, int dest, uint32_t payload) {
    Packet* p = net->pool().take();
    p->src = src;
    p->dest = dest;
    p->payload_bytes = static_cast<uint16_t>(payload);
    p->chunks = static_cast<uint8_t>(cfg.chunks_for(payload));
    p->vc_class = VcClass::Dynamic;
    return p;
  }
};

NetworkConfig ring8() {
  NetworkConfig c;
  c.x = 8;
  c.y = 1;
  c.z = 1;
  return c;
}

}  // namespace

TEST(TorusShape, MinimalOffsetsUseWrapAround) {
  TorusShape s(8, 4, 3, true);
  const int a = s.node({{0, 0, 0}});
  EXPECT_EQ(s.offset(a, s.node({{7, 0, 0}}), 0), -1) << "one hop back over the wrap link";
  EXPECT_EQ(s.offset(a, s.node({{3, 0, 0}}), 0), 3);
  EXPECT_EQ(s.offset(a, s.node({{5, 0, 0}}), 0), -3);
  EXPECT_EQ(s.offset(a, s.node({{4, 0, 0}}), 0), 4) << "half way: ties go +";
  EXPECT_TRUE(s.tie(a, s.node({{4, 0, 0}}), 0));
  EXPECT_EQ(s.offset(a, s.node({{0, 0, 2}}), 2), -1);
  EXPECT_EQ(s.hops(a, s.node({{7, 3, 2}})), 3);
  EXPECT_EQ(s.neighbour(a, kXMinus), s.node({{7, 0, 0}}));
  EXPECT_EQ(s.dor_dir(a, s.node({{7, 3, 2}})), kXMinus);
  TorusShape mesh(8, 4, 3, false);
  EXPECT_EQ(mesh.offset(a, mesh.node({{7, 0, 0}}), 0), 7);
  EXPECT_EQ(mesh.neighbour(a, kXMinus), -1);
}

// Power-of-two shapes find coordinates by shifts and masks, others by division: both number
// nodes x fastest, and route the same way between the same coordinates.
TEST(TorusShape, PowerOfTwoAndOtherSizesNumberAndRouteAlike) {
  for (const auto& size : std::vector<std::array<int, 3>>{
           {8, 8, 8}, {4, 2, 8}, {8, 1, 4}, {1, 1, 1}, {3, 5, 2}, {6, 4, 4}, {7, 1, 3}}) {
    const TorusShape s(size[0], size[1], size[2], true);
    for (int n = 0; n < s.nodes(); ++n) {
      const Coord c = s.coord(n);
      EXPECT_EQ(c.v[0], n % size[0]);
      EXPECT_EQ(c.v[1], n / size[0] % size[1]);
      EXPECT_EQ(c.v[2], n / (size[0] * size[1]));
      EXPECT_EQ(s.node(c), n);
    }
    // A route's hop count and first directions from the offsets, for a sample of pairs.
    for (int a = 0; a < s.nodes(); a += 3) {
      for (int b = 0; b < s.nodes(); b += 5) {
        int hops = 0, dor = -1;
        for (int d = 0; d < 3; ++d) {
          const int o = s.offset(a, b, d);
          hops += std::abs(o);
          if (dor < 0 && o != 0) dor = 2 * d + (o > 0 ? 0 : 1);
        }
        EXPECT_EQ(s.hops(a, b), hops);
        EXPECT_EQ(s.dor_dir(a, b), dor);
        std::array<int, kDirs> dirs{};
        const int m = s.minimal_dirs(a, b, dirs);
        EXPECT_EQ(m > 0 ? dirs[0] : -1, dor) << "the first minimal direction is dimension order";
      }
    }
  }
}

// The calibrated hardware latency (network_config.h): injection FIFO store and forward, a
// wire per link, a router per transit node, one serialisation. It replaced a single hop latency
// per link, which no choice of constants could fit to all three published Blue Gene/P figures.
TEST(TorusNetwork, ZeroLoadLatencyFollowsTheCalibratedHopTiming) {
  auto cfg = ring8();
  cfg.x = 16;
  Net n(cfg);
  ParamRegistry::instance().finalize();
  // One packet at a time, far apart, to nodes 1..8 hops away.
  for (int h = 1; h <= 8; ++h) {
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));
    ASSERT_TRUE(n.net->inject(0, n.packet(0, h, 240)));
  }
  sc_core::sc_start();
  for (int h = 1; h <= 8; ++h) {
    ASSERT_EQ(n.sinks[h].got.size(), 1u);
    const double sent = 10000.0 * h;
    const double expected = 7 * 32 / 1.3 + h * 6.0 + (h - 1) * 43.0 + (8 * 32 + 8) / 0.425;
    EXPECT_NEAR(cfg.zero_load_latency_ns(h, 8), expected, 1e-9);
    EXPECT_NEAR(n.sinks[h].got[0].first - sent, expected, 0.01) << h;
    EXPECT_EQ(n.sinks[h].got[0].second.hops, h);
  }
}

TEST(TorusNetwork, LinkPayloadEfficiencyMatchesAnalytic) {
  Net n(ring8());
  ParamRegistry::instance().finalize();
  const int packets = 2000;
  int injected = 0;
  // Keep the injection FIFOs full: a stream limited by the link alone.
  std::function<void()> pump = [&] {
    while (injected < packets) {
      Packet* p = n.packet(0, 1, 240);
      if (!n.net->inject(injected % 8, p)) {
        n.net->pool().give(p);
        break;
      }
      ++injected;
    }
  };
  struct Pump : NetworkTimer {
    std::function<void()>* f;
    TorusNetwork* net;
    void on_timer(int) override {
      (*f)();
      net->schedule(hs::now() + sc_core::sc_time(100, sc_core::SC_NS), this, 0);
    }
  } timer;
  timer.f = &pump;
  timer.net = n.net.get();
  n.net->schedule(sc_core::SC_ZERO_TIME, &timer, 0);
  sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_MS));
  const auto& got = n.sinks[1].got;
  ASSERT_EQ(got.size(), static_cast<size_t>(packets));
  const double t = got.back().first - got[99].first;
  const double measured = (packets - 100) * 240.0 / t * 1e9;
  const double analytic = ring8().link_bytes_per_second * ring8().payload_efficiency(256);
  EXPECT_NEAR(measured / analytic, 1.0, 0.001) << measured << " vs " << analytic;
}

TEST(TorusNetwork, RoutesAreMinimalAndUseWrapLinks) {
  NetworkConfig cfg;
  cfg.x = 4;
  cfg.y = 4;
  cfg.z = 4;
  Net n(cfg);
  std::map<uint64_t, std::vector<int>> route;  // packet id -> nodes visited
  std::set<int> dirs_used;
  bool wrapped = false;
  const TorusShape& s = n.net->shape();
  n.net->observe_hops([&](const Packet& p, int from, int dir) {
    const int to = s.neighbour(from, dir);
    ASSERT_GE(to, 0);
    EXPECT_EQ(s.hops(to, p.dest), s.hops(from, p.dest) - 1) << "non-minimal hop";
    dirs_used.insert(dir);
    const Coord a = s.coord(from), b = s.coord(to);
    if (std::abs(a.v[dimension(dir)] - b.v[dimension(dir)]) > 1) wrapped = true;
  });
  ParamRegistry::instance().finalize();
  int sent = 0;
  for (int src = 0; src < s.nodes(); src += 3) {
    for (int dest = 0; dest < s.nodes(); dest += 5) {
      if (src == dest) continue;
      Packet* p = n.packet(src, dest, 100);
      p->sw0 = static_cast<uint32_t>(dest);
      while (!n.net->inject(sent % 8, p)) sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
      ++sent;
    }
  }
  sc_core::sc_start();
  int got = 0;
  for (int i = 0; i < s.nodes(); ++i) {
    for (const auto& [t, p] : n.sinks[i].got) {
      EXPECT_EQ(p.dest, i);
      EXPECT_EQ(static_cast<int>(p.sw0), i);
      EXPECT_EQ(p.hops, s.hops(p.src, p.dest));
      ++got;
    }
  }
  EXPECT_EQ(got, sent);
  EXPECT_EQ(dirs_used.size(), 6u);
  EXPECT_TRUE(wrapped) << "some minimal routes cross a wrap-around link";
}

TEST(TorusNetwork, DeadlockFreeUnderSaturatingUniformRandomTraffic) {
  for (const char* routing : {"deterministic", "adaptive"}) {
    for (uint64_t seed : {1, 2, 3}) {
      const auto r = hs::testing::run_scenario(
          "torus_traffic",
          {"torus.network.x=4", "torus.network.y=4", "torus.network.z=4",
           std::string("torus.network.routing=") + routing, "workload.load=2.0",
           "workload.duration=20000", "torus.network.vc_buffer=16"},
          seed);
      ASSERT_TRUE(hs::testing::passed(r))
          << routing << " seed " << seed << " " << hs::testing::violations(r);
      EXPECT_EQ(r["results"]["packets_delivered"].get<uint64_t>(),
                r["results"]["packets_generated"].get<uint64_t>() -
                    r["results"]["packets_refused_at_source"].get<uint64_t>());
      EXPECT_GT(r["stats"]["torus.network"]["escape_hops"].get<uint64_t>(), 0u);
    }
  }
}

TEST(TorusNetwork, LatencyGrowsWithLoadAndThroughputSaturates) {
  std::vector<double> latency, accepted;
  for (double load : {0.1, 0.5, 1.0, 1.5}) {
    const auto r = hs::testing::run_scenario(
        "torus_traffic", {"torus.network.x=4", "torus.network.y=4", "torus.network.z=4",
                          "workload.load=" + std::to_string(load), "workload.duration=30000"});
    ASSERT_TRUE(hs::testing::passed(r)) << hs::testing::violations(r);
    latency.push_back(r["results"]["mean_latency_ns"].get<double>());
    accepted.push_back(r["results"]["accepted_load"].get<double>());
  }
  for (size_t i = 1; i < latency.size(); ++i) EXPECT_GT(latency[i], latency[i - 1]) << i;
  EXPECT_NEAR(accepted[0], 0.1, 0.02) << "below saturation, accepted = offered";
  EXPECT_LT(accepted[3], 1.4) << "saturated: accepted stays below the offered 1.5";
  EXPECT_GT(*std::max_element(accepted.begin(), accepted.end()), 0.7)
      << "saturation reaches at least 70% of the bisection bound";
}

// Past saturation the window's halves agree on the accepted load and on network latency
// (injection FIFO to delivery, each half over the packets it delivered), which splits exactly
// into transit and the injection FIFO wait; the wait in the source queues in front keeps
// growing.
TEST(TorusNetwork, PastSaturationNetworkLatencyIsSteadyWhileTheSourceQueuesGrow) {
  const auto r = hs::testing::run_scenario(
      "torus_traffic", {"torus.network.x=4", "torus.network.y=4", "torus.network.z=4",
                        "torus.network.routing=deterministic", "workload.load=2.0",
                        "workload.warmup=200000", "workload.duration=100000"});
  ASSERT_TRUE(hs::testing::passed(r)) << hs::testing::violations(r);
  const auto& res = r["results"];
  auto half = [&](const std::string& what, int h) {
    return res[(h ? "second_half_" : "first_half_") + what].get<double>();
  };
  auto agree = [&](const std::string& what) {
    const double a = half(what, 0), b = half(what, 1);
    return std::abs(a - b) <= 0.05 * std::max(a, b);
  };
  EXPECT_TRUE(agree("accepted_load"));
  EXPECT_TRUE(agree("network_latency_ns"));
  for (int h = 0; h < 2; ++h) {
    EXPECT_NEAR(half("network_latency_ns", h),
                half("transit_latency_ns", h) + half("injection_wait_ns", h), 1e-6)
        << h;
    EXPECT_GT(half("transit_latency_ns", h), 0) << h;
  }
  EXPECT_GT(half("source_queue_ns", 1), half("source_queue_ns", 0));
}
