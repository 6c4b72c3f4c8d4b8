// Faults of the torus node's DMA engine and of its cores' interrupt inputs, seen through the
// DCMF-like messaging layer. A corrupted descriptor halts the engine's injection and the
// firmware names the engine, the FIFO, the descriptor and the address (woken by the error
// interrupt, or polling); a stalled engine is named by the liveness check, which stays quiet on
// long transfers. Ping-pongs of every protocol with interrupts dropped or delivered late
// complete with verified data, recovering each lost interrupt by polling after the wait's
// timeout. Bad fault parameters are refused naming the parameter.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "testbench/support/scenario_run.h"
#include "tlm/check/liveness.h"

using hs::testing::passed;
using hs::testing::run_scenario;
using hs::testing::violations;
using Json = nlohmann::json;

namespace {

// Node A is x0y0z0, node B two hops away at x2y0z0 (torus_pingpong's workload.hops).
std::vector<std::string> pingpong(std::vector<std::string> sets) {
  for (const char* s : {"torus.network.x=4", "torus.network.y=4", "torus.network.z=2",
                        "workload.hops=2", "workload.iterations=3"}) {
    sets.emplace_back(s);
  }
  return sets;
}

// A ping-pong run of pingpong(sets); a run refused as bad input fails the test.
Json run_pingpong(std::vector<std::string> sets, uint64_t seed) {
  Json r = run_scenario("torus_pingpong", pingpong(std::move(sets)), seed);
  if (r.contains("error")) ADD_FAILURE() << r.dump();
  return r;
}

const Json& first_violation(const Json& r) {
  static const Json none = Json::object();
  const Json& v = r["checks"]["violations"];
  return v.empty() ? none : v[0];
}

std::string message(const Json& r) {
  return first_violation(r).value("message", "");
}

uint64_t stat(const Json& r, const std::string& group, const char* name) {
  const Json& g = r["stats"][group];
  return g.contains(name) ? g[name].get<uint64_t>() : 0;
}

// What the firmware says of a corrupted first descriptor (node A's first send: FIFO 0, the
// messaging layer's data FIFO at the start of its injection memory).
constexpr const char* kHaltMessage =
    "torus DMA engine at 0xf0000000 halted on a bus error: the descriptor at 0x1000000 in "
    "injection FIFO 0 accessed 0xdead0000000000, which no target maps";

}  // namespace

TEST(TorusDmaFaults, CorruptedDescriptorHaltsInjectionAndTheFirmwareNamesIt) {
  for (const char* protocol : {"eager", "rendezvous", "split"}) {
    const Json r = run_pingpong({std::string("workload.protocol=") + protocol,
                                 "workload.bytes=4096", "torus.node.dma.bad_descriptor_at=\"1\""},
                                1);
    EXPECT_FALSE(passed(r)) << protocol;
    const Json& v = first_violation(r);
    EXPECT_EQ(v.value("component", ""), "torus.x0y0z0.core0") << protocol;
    EXPECT_NE(message(r).find(kHaltMessage), std::string::npos) << protocol << ": " << message(r);
    EXPECT_EQ(stat(r, "torus.x0y0z0.dma", "bad_descriptors"), 1u) << protocol;
    EXPECT_EQ(stat(r, "torus.x0y0z0.dma", "errors"), 1u) << protocol;
    EXPECT_EQ(stat(r, "torus.x0y0z0.dma", "sent_memory_fifo"), 0u) << protocol;
    // Found at once by the error interrupt, not by the liveness check's timeout.
    EXPECT_LT(v.value("time_ns", 1e9), 20000.0) << protocol;
  }
}

TEST(TorusDmaFaults, PollingFirmwareFindsTheHaltWithoutAnInterrupt) {
  const Json r = run_pingpong({"workload.protocol=eager", "workload.interrupts=false",
                               "torus.node.dma.bad_descriptor_at=\"1\""},
                              1);
  EXPECT_FALSE(passed(r));
  EXPECT_EQ(first_violation(r).value("component", ""), "torus.x0y0z0.core0");
  EXPECT_NE(message(r).find(kHaltMessage), std::string::npos) << message(r);
  // After status_poll_cycles (500k cycles at 850 MHz: 588 us) without progress, before the
  // engine's 10 ms liveness timeout.
  const double t = first_violation(r).value("time_ns", 0.0);
  EXPECT_GT(t, 500e3 / 0.85);
  EXPECT_LT(t, 2 * 500e3 / 0.85);
}

TEST(TorusDmaFaults, LostErrorInterruptIsFoundAfterTheWaitTimesOut) {
  // Node A's core 0 loses every interrupt: the halt is found when its wait times out.
  const Json r = run_pingpong({"workload.protocol=eager", "torus.node.dma.bad_descriptor_at=\"1\"",
                               "torus.node.core0.irq_drop_rate=1"},
                              1);
  EXPECT_FALSE(passed(r));
  EXPECT_NE(message(r).find(kHaltMessage), std::string::npos) << message(r);
  EXPECT_GE(stat(r, "torus.x0y0z0.core0", "irq_dropped"), 1u);
  EXPECT_EQ(stat(r, "torus.x0y0z0.core0", "irq_timeouts"), 1u);
  // One interrupt timeout (10M cycles at 850 MHz), before the engine's 50 ms liveness timeout.
  const double t = first_violation(r).value("time_ns", 0.0);
  EXPECT_GT(t, 10e6 / 0.85);
  EXPECT_LT(t, 10e6 / 0.85 + 100e3);
}

TEST(TorusDmaFaults, LivenessCheckNamesAHaltedEngineNoFirmwareLooksAt) {
  // Node A's core loses every interrupt and waits longer than the liveness timeout.
  const Json r =
      run_pingpong({"workload.protocol=eager", "torus.node.dma.bad_descriptor_at=\"1\"",
                    "torus.node.core0.irq_drop_rate=1", "torus.node.dma.liveness_timeout=1000000"},
                   1);
  EXPECT_EQ(first_violation(r).value("check", ""), hs::kLivenessCheck);
  EXPECT_EQ(first_violation(r).value("component", ""), "torus.x0y0z0.dma");
  EXPECT_NE(message(r).find("FIFO 0 at descriptor 0x1000000; halted on a bus error: read of 240 B "
                            "at 0xdead0000000000 failed"),
            std::string::npos)
      << message(r);
}

TEST(TorusDmaFaults, FaultFreeRunsHaltNothingAndCountNoFaults) {
  const Json r = run_pingpong({"workload.protocol=split", "workload.bytes=65536"}, 1);
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_EQ(r["results"]["data_verified"], true);
  for (const char* node : {"torus.x0y0z0.dma", "torus.x2y0z0.dma"}) {
    EXPECT_EQ(stat(r, node, "bad_descriptors"), 0u) << node;
    EXPECT_EQ(stat(r, node, "stalls"), 0u) << node;
    EXPECT_EQ(stat(r, node, "errors"), 0u) << node;
  }
}

TEST(TorusDmaFaults, LivenessCheckNamesAStalledEngineAndItsOutstandingWork) {
  const Json r = run_pingpong({"workload.protocol=eager", "torus.node.dma.stall_at=\"1\"",
                               "torus.node.dma.liveness_timeout=50000"},
                              1);
  EXPECT_FALSE(passed(r));
  const Json& v = first_violation(r);
  EXPECT_EQ(v.value("check", ""), hs::kLivenessCheck);
  EXPECT_EQ(v.value("component", ""), "torus.x0y0z0.dma");
  EXPECT_NE(message(r).find("stuck: no progress for 50000 ns with work outstanding: 1 injection "
                            "FIFO(s) holding descriptors, FIFO 0 at descriptor 0x1000000; the "
                            "injection engine stalled"),
            std::string::npos)
      << message(r);
  EXPECT_EQ(stat(r, "torus.x0y0z0.dma", "stalls"), 1u);
}

TEST(TorusDmaFaults, LivenessCheckStaysQuietOnLongTransfersWithAShortTimeout) {
  // 1 MiB each way takes milliseconds; every packet is progress, so 20 us never passes idle.
  for (const char* protocol : {"eager", "rendezvous", "split"}) {
    const Json r =
        run_pingpong({std::string("workload.protocol=") + protocol, "workload.bytes=1048576",
                      "workload.iterations=1", "torus.node.dma.liveness_timeout=20000"},
                     1);
    ASSERT_TRUE(passed(r)) << protocol << " " << violations(r);
    EXPECT_GT(r["simulated_time_ns"].get<double>(), 100 * 20000.0) << protocol;
  }
}

TEST(TorusDmaFaults, RandomCorruptionIsReportedNeverDeliveredAsData) {
  // Every run either verifies its data or fails with the firmware's report of the halt.
  int halted = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const Json r = run_pingpong({"workload.protocol=auto", "workload.bytes=8192",
                                 "torus.node.dma.bad_descriptor_rate=0.05"},
                                seed);
    if (passed(r)) {
      EXPECT_EQ(r["results"]["data_verified"], true) << "seed " << seed;
      continue;
    }
    ++halted;
    EXPECT_NE(message(r).find("halted on a bus error: the descriptor at"), std::string::npos)
        << "seed " << seed << ": " << message(r);
  }
  EXPECT_GT(halted, 0);
}

TEST(TorusDmaFaults, BadFaultParametersAreRefusedNamingTheParameter) {
  for (const char* set : {"torus.node.dma.bad_descriptor_at=\"2,x\"", "torus.node.dma.stall_rate=2",
                          "torus.node.dma.liveness_timeout=-1"}) {
    const Json r = run_scenario("torus_pingpong", pingpong({set}), 1);
    ASSERT_TRUE(r.contains("error")) << set << ": " << r.dump();
    const std::string param = std::string(set).substr(0, std::string(set).find('='));
    EXPECT_NE(r["error"].get<std::string>().find(param), std::string::npos)
        << set << ": " << r["error"];
  }
}

// DCMF waits for its completions by interrupt with a timeout; a lost interrupt is recovered by
// the poll after the timeout, a late one costs its delay.
TEST(DcmfIrqFaults, PingPongOfEveryProtocolRecoversLostInterruptsAndVerifiesItsData) {
  for (const char* protocol : {"eager", "rendezvous", "split"}) {
    uint64_t dropped = 0, recovered = 0, delayed = 0;
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      const Json r =
          run_pingpong({std::string("workload.protocol=") + protocol, "workload.bytes=16384",
                        "workload.iterations=6", "torus.node.core0.irq_drop_rate=0.2",
                        "torus.node.core0.irq_late_rate=0.2"},
                       seed);
      ASSERT_TRUE(passed(r)) << protocol << " seed " << seed << " " << violations(r);
      EXPECT_EQ(r["results"]["data_verified"], true) << protocol << " seed " << seed;
      for (const char* core : {"torus.x0y0z0.core0", "torus.x2y0z0.core0"}) {
        dropped += stat(r, core, "irq_dropped");
        recovered += stat(r, core, "irq_recovered_by_polling");
        delayed += stat(r, core, "irq_delayed");
        // Every wait that timed out found work the lost interrupt announced, or the peer's.
        EXPECT_LE(stat(r, core, "irq_recovered_by_polling"), stat(r, core, "irq_timeouts"))
            << protocol << " " << core;
      }
    }
    EXPECT_GT(dropped, 0u) << protocol;
    EXPECT_GT(recovered, 0u) << protocol;
    EXPECT_GT(delayed, 0u) << protocol;
  }
}

TEST(DcmfIrqFaults, ALostInterruptCostsTheWaitsTimeout) {
  // Each node's first interrupt is lost: its core sleeps out the wait's timeout (10M cycles at
  // 850 MHz, 11.8 ms) and recovers by polling.
  const Json base = run_pingpong({"workload.protocol=eager", "workload.bytes=64"}, 1);
  const Json r = run_pingpong(
      {"workload.protocol=eager", "workload.bytes=64", "torus.node.core0.irq_drop_at=\"1\""}, 1);
  ASSERT_TRUE(passed(base)) << violations(base);
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_EQ(r["results"]["data_verified"], true);
  uint64_t recovered = 0;
  for (const char* core : {"torus.x0y0z0.core0", "torus.x2y0z0.core0"}) {
    EXPECT_EQ(stat(r, core, "irq_dropped"), 1u) << core;
    recovered += stat(r, core, "irq_recovered_by_polling");
  }
  EXPECT_GE(recovered, 1u);
  const double timeout_ns = 10e6 / 0.85;
  const double extra =
      r["simulated_time_ns"].get<double>() - base["simulated_time_ns"].get<double>();
  EXPECT_GT(extra, timeout_ns * 0.99);
  EXPECT_LT(extra, recovered * timeout_ns * 1.01);
}

TEST(DcmfIrqFaults, FaultFreePingPongNeverTimesOut) {
  const Json r = run_pingpong({"workload.protocol=split"}, 1);
  ASSERT_TRUE(passed(r)) << violations(r);
  for (const char* core : {"torus.x0y0z0.core0", "torus.x2y0z0.core0"}) {
    EXPECT_EQ(stat(r, core, "irq_timeouts"), 0u) << core;
    EXPECT_EQ(stat(r, core, "irq_dropped"), 0u) << core;
  }
}
