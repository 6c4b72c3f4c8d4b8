// The torus router's policies and the rules they rely on: buffer tokens are conserved, the
// high-priority VC goes first, every arbiter keeps a starvation bound at saturation, every
// combination of routing function, selection rule and arbiter stays deadlock free, and without
// the bubble rule the escape rings do deadlock, which the run reports packet by packet.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "hw/torus/network/torus_network.h"
#include "testbench/support/scenario_run.h"
#include "tlm/kernel/now.h"
#include "tlm/params/param_registry.h"

using namespace hs;
using namespace hs::torus;
using hs::testing::passed;
using hs::testing::run_scenario;
using hs::testing::violations;

namespace {

using Json = nlohmann::json;

// A saturating 4x4x4 run (offered twice the bisection bound) with extra settings.
Json saturated(std::vector<std::string> sets, uint64_t seed = 1) {
  sets.insert(sets.end(), {"torus.network.x=4", "torus.network.y=4", "torus.network.z=4",
                           "workload.load=2.0", "workload.warmup=5000", "workload.duration=30000"});
  return run_scenario("torus_traffic", sets, seed);
}

// Records the order packets arrive in; accepts everything.
struct Recorder : NodeEndpoint {
  TorusNetwork* net = nullptr;
  std::vector<Packet> got;
  bool accept(const Packet&) override { return true; }
  void deliver(Packet* p) override {
    got.push_back(*p);
    net->pool().give(p);
  }
  void injection_ready(int) override {}
};

}  // namespace

TEST(TorusRouterPolicy, TokensNeverGoNegativeAndAllReturnWhenTheNetworkDrains) {
  for (const char* arbitration : {"age", "round_robin"}) {
    for (const char* routing : {"deterministic", "adaptive"}) {
      const Json r = saturated({std::string("torus.network.arbitration=") + arbitration,
                                std::string("torus.network.routing=") + routing,
                                "torus.network.vc_buffer=16"});
      ASSERT_TRUE(passed(r)) << arbitration << " " << routing << " " << violations(r);
      const Json& net = r["stats"]["torus.network"];
      EXPECT_GE(net["min_free_tokens"].get<double>(), 0) << arbitration << " " << routing;
      EXPECT_LT(net["min_free_tokens"].get<double>(), 8)
          << "saturation used the buffers up to their last packet";
      EXPECT_EQ(net["tokens_outstanding"].get<double>(), 0) << arbitration << " " << routing;
    }
  }
}

TEST(TorusRouterPolicy, EveryRoutingSelectionAndArbiterCombinationDeliversEverything) {
  for (const char* selection : {"most_tokens", "random", "least_recent"}) {
    for (const char* arbitration : {"age", "round_robin"}) {
      const Json r = saturated({std::string("torus.network.selection=") + selection,
                                std::string("torus.network.arbitration=") + arbitration,
                                "torus.network.routing=adaptive"});
      ASSERT_TRUE(passed(r)) << selection << " " << arbitration << " " << violations(r);
      EXPECT_EQ(r["results"]["packets_delivered"].get<uint64_t>(),
                r["results"]["packets_generated"].get<uint64_t>() -
                    r["results"]["packets_refused_at_source"].get<uint64_t>());
      EXPECT_GT(r["results"]["accepted_load"].get<double>(), 0.5)
          << selection << " " << arbitration;
    }
  }
}

TEST(TorusRouterPolicy, HighPriorityPacketsLeaveBeforeNormalOnesReadyAtTheSameTime) {
  // One network per arbiter, side by side in one simulation.
  const std::vector<std::string> arbiters = {"age", "round_robin"};
  std::vector<std::unique_ptr<TorusNetwork>> nets;
  std::vector<std::vector<Recorder>> ends(arbiters.size(), std::vector<Recorder>(4));
  for (size_t a = 0; a < arbiters.size(); ++a) {
    NetworkConfig cfg;
    cfg.x = 4;
    cfg.y = 1;
    cfg.z = 1;
    cfg.arbitration = arbiters[a];
    nets.push_back(std::make_unique<TorusNetwork>(("net_" + arbiters[a]).c_str(), cfg));
    TorusNetwork& net = *nets.back();
    for (int i = 0; i < 4; ++i) {
      ends[a][i].net = &net;
      net.attach(i, &ends[a][i]);
    }
    // Four normal packets in four FIFOs, then one high-priority packet, all to node 1.
    for (int q = 0; q <= 4; ++q) {
      Packet* p = net.pool().take();
      p->src = 0;
      p->dest = 1;
      p->chunks = 8;
      p->sw0 = static_cast<uint32_t>(q);
      p->vc_class = q == 4 ? VcClass::HighPriority : VcClass::Dynamic;
      ASSERT_TRUE(net.inject(q == 4 ? net.high_priority_queue() : q, p));
    }
  }
  sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_US));
  for (size_t a = 0; a < arbiters.size(); ++a) {
    const auto& got = ends[a][1].got;
    ASSERT_EQ(got.size(), 5u) << arbiters[a];
    EXPECT_EQ(got[0].vc_class, VcClass::HighPriority) << arbiters[a];
    EXPECT_EQ(got[0].sw0, 4u) << arbiters[a];
  }
}

// At twice the saturation load the longest an in-transit packet waits at the head of a router
// input stays within a few starvation bounds: a request waiting past the bound is served first,
// and an in-transit one the bubble rule keeps out of a ring holds that ring's entry. Injection
// FIFO heads wait longer (in-transit packets go first: that is the back-pressure on the
// sources); under round robin the bound shortens their longest wait too. "Unbounded" is a
// bound beyond the run (1e9 ns: no request ever counts as starved).
TEST(TorusRouterPolicy, StarvationBoundKeepsRouterWaitsBoundedAtSaturation) {
  struct Waits {
    double transit, injection;
  };
  auto worst = [](const std::string& arbitration, const std::string& bound) {
    const Json r = saturated({"torus.network.routing=deterministic",
                              "torus.network.arbitration=" + arbitration,
                              "torus.network.starvation_bound=" + bound});
    EXPECT_TRUE(passed(r)) << violations(r);
    const Json& n = r["stats"]["torus.network"];
    return Waits{n["transit_wait_max"].get<double>(), n["injection_wait_max"].get<double>()};
  };
  // The age arbiter (in-transit first, oldest first): in-transit waits shorter with the bound.
  // (Its injection FIFOs wait as long either way: in-transit packets always go first.)
  const Waits age = worst("age", "2000"), age_unbounded = worst("age", "1e9");
  EXPECT_LT(age.transit, 5 * 2000);
  EXPECT_LT(age.transit, age_unbounded.transit);
  // Round robin serves injection and in-transit alike: the bound mostly rescues injection
  // FIFO heads, and in-transit waits stay within a few bounds.
  const Waits rr = worst("round_robin", "2000"), rr_unbounded = worst("round_robin", "1e9");
  EXPECT_LT(rr.transit, 15 * 2000);
  EXPECT_LT(rr.injection, 0.6 * rr_unbounded.injection);
}

TEST(TorusRouterPolicy, WithoutTheBubbleRuleTheEscapeRingsDeadlockAndTheRunNamesThePackets) {
  const Json r = saturated({"torus.network.routing=deterministic",
                            "torus.network.bubble_rule=false", "torus.network.vc_buffer=16"});
  ASSERT_FALSE(passed(r));
  bool named = false;
  for (const auto& v : r["checks"]["violations"]) {
    if (v["check"] == "torus traffic: every packet delivered (no deadlock)") {
      const std::string m = v["message"].get<std::string>();
      named = m.find("packet ") != std::string::npos && m.find("waiting at (") != std::string::npos;
    }
  }
  EXPECT_TRUE(named) << violations(r);
  // The same run with the rule delivers everything.
  EXPECT_TRUE(
      passed(saturated({"torus.network.routing=deterministic", "torus.network.vc_buffer=16"})));
}

TEST(TorusRouterPolicy, PoliciesAreChosenByNameAndUnknownNamesAreRejected) {
  EXPECT_EQ(routing_functions().names(), (std::vector<std::string>{"adaptive", "deterministic"}));
  EXPECT_EQ(output_selections().names(),
            (std::vector<std::string>{"most_tokens", "random", "least_recent"}));
  EXPECT_EQ(output_arbiters().names(), (std::vector<std::string>{"age", "round_robin"}));
  EXPECT_THROW(output_arbiters().get("fifo"), InputError);
  const Json r = run_scenario("torus_traffic", {"torus.network.arbitration=fifo"});
  EXPECT_NE(r.dump().find("torus.network.arbitration"), std::string::npos) << r.dump();
}
