// Interrupt faults at a core's interrupt input and the firmware's recovery by polling after a
// timed-out wait; DMA faults: a corrupted descriptor halts the engine and the firmware names
// it, a hung engine is caught by the liveness check. Bad fault parameters are refused naming
// the parameter.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hw/hybrid/address_map.h"
#include "hw/hybrid/hybrid_node.h"
#include "sw/hal/dma.h"
#include "sw/hal/irq_wait.h"
#include "testbench/support/node_fixture.h"
#include "testbench/support/scenario_run.h"
#include "tlm/check/checker.h"
#include "tlm/check/liveness.h"
#include "tlm/common/errors.h"
#include "tlm/stats/statistics.h"

using namespace hs;
using hs::testing::first_violation;
using hs::testing::make_hybrid_node;
using hs::testing::set_param;
using sc_core::SC_NS;
using sc_core::sc_time;
namespace amap = hs::hybrid::amap;
namespace fwdma = hs::fw::dma;
using Json = nlohmann::json;

namespace {

constexpr unsigned kLine = 5;
constexpr uint64_t kTimeoutCycles = 50'000;
constexpr uint64_t kStatus = amap::kHostIrq + 1 * amap::kDoorbellStride + 4;  // core 1's

uint64_t stat(const std::string& group, const char* name) {
  const StatGroup* g = StatsRegistry::instance().find(group);
  if (!g) ADD_FAILURE() << "no statistics group " << group;
  return g ? g->to_json(sc_core::sc_time_stamp())[name].get<uint64_t>() : 0;
}

// Host core 0 rings core 1's doorbell at each time in `rings`; core 1 begins to wait for each
// 1 us before it (rings are far enough apart that the previous wait has ended), with the
// recovering doorbell wait, and notes when each wait began and ended, and what one poll of
// its doorbell status (a read and a clearing write) costs.
struct DoorbellRounds {
  std::vector<sc_time> rung, began, woke;
  sc_time poll_cost;
  uint32_t lines_taken = 0;
};

// Returns the node, whose statistics the test reads.
std::unique_ptr<hybrid::HybridNode> run_doorbell_rounds(DoorbellRounds& r,
                                                        const std::vector<sc_time>& rings) {
  auto node = make_hybrid_node();
  node->host->core_list[0]->set_firmware([&r, rings](fw::Hal& hal) {
    for (const sc_time& t : rings) {
      sc_core::wait(t - sc_core::sc_time_stamp());
      r.rung.push_back(sc_core::sc_time_stamp());
      hal.reg_write(amap::kHostIrq + 1 * amap::kDoorbellStride, kLine);
    }
  });
  node->host->core_list[1]->set_firmware([&r, rings](fw::Hal& hal) {
    for (const sc_time& t : rings) {
      const sc_time begin = t - sc_time(1000, SC_NS);
      if (sc_core::sc_time_stamp() < begin) sc_core::wait(begin - sc_core::sc_time_stamp());
      r.began.push_back(sc_core::sc_time_stamp());
      r.lines_taken |=
          fw::irq::wait_doorbell(hal, 1u << kLine, fw::irq::doorbell_status(hal, kStatus),
                                 kTimeoutCycles, "test doorbell");
      r.woke.push_back(sc_core::sc_time_stamp());
    }
    const sc_time t0 = sc_core::sc_time_stamp();
    hal.reg_write(kStatus, hal.reg_read(kStatus) & 0);
    r.poll_cost = sc_core::sc_time_stamp() - t0;
  });
  sc_core::sc_start();
  EXPECT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_EQ(r.woke.size(), rings.size());
  if (r.woke.size() != rings.size()) r.woke.resize(rings.size());
  return node;
}

sc_time host_cycles(uint64_t n) {
  return sc_time(static_cast<double>(n) / 1.8e9, sc_core::SC_SEC);  // the host's default clock
}

}  // namespace

TEST(IrqFaults, DroppedInterruptIsRecoveredByPollingExactlyOneTimeoutAfterTheWaitBegan) {
  set_param("node0.host.core1.irq_drop_at", "1");
  DoorbellRounds r;
  // Round 1 rings while core 1 waits and is lost; round 2, after the recovery, is delivered.
  const auto node = run_doorbell_rounds(r, {sc_time(2000, SC_NS), sc_time(200000, SC_NS)});
  // Lost: core 1 sleeps the whole timeout, then one poll (read the latch, clear it).
  EXPECT_EQ(r.woke[0] - r.began[0], host_cycles(kTimeoutCycles) + r.poll_cost);
  // Delivered: core 1 wakes as the doorbell lands, well before its timeout.
  const sc_time delivery = r.woke[1] - r.rung[1];
  EXPECT_LT(delivery, sc_time(200, SC_NS));
  // What the lost interrupt cost over a delivered one.
  const sc_time extra = r.woke[0] - (r.rung[0] + delivery);
  EXPECT_EQ(extra, r.began[0] + host_cycles(kTimeoutCycles) + r.poll_cost - r.rung[0] - delivery);
  EXPECT_GT(extra, host_cycles(kTimeoutCycles) - sc_time(2000, SC_NS));
  EXPECT_EQ(r.lines_taken, 1u << kLine);
  EXPECT_EQ(stat("node0.host.core1", "irq_dropped"), 1u);
  EXPECT_EQ(stat("node0.host.core1", "irq_timeouts"), 1u);
  EXPECT_EQ(stat("node0.host.core1", "irq_recovered_by_polling"), 1u);
  EXPECT_EQ(stat("node0.host.core1", "interrupts"), 1u);  // round 2's, taken
}

TEST(IrqFaults, FaultFreeDoorbellWaitNeverTimesOut) {
  DoorbellRounds r;
  const auto node = run_doorbell_rounds(r, {sc_time(2000, SC_NS), sc_time(200000, SC_NS)});
  EXPECT_EQ(r.woke[0] - r.rung[0], r.woke[1] - r.rung[1]);  // both delivered alike
  EXPECT_EQ(stat("node0.host.core1", "irq_dropped"), 0u);
  EXPECT_EQ(stat("node0.host.core1", "irq_timeouts"), 0u);
  EXPECT_EQ(stat("node0.host.core1", "irq_recovered_by_polling"), 0u);
  EXPECT_EQ(stat("node0.host.core1", "interrupts"), 2u);
}

TEST(IrqFaults, LateInterruptCostsExactlyItsDelay) {
  set_param("node0.host.core1.irq_late_at", "1");
  set_param("node0.host.core1.irq_late_delay", 7000);
  DoorbellRounds r;
  const auto node = run_doorbell_rounds(r, {sc_time(2000, SC_NS), sc_time(200000, SC_NS)});
  EXPECT_EQ((r.woke[0] - r.rung[0]) - (r.woke[1] - r.rung[1]), sc_time(7000, SC_NS));
  EXPECT_EQ(stat("node0.host.core1", "irq_delayed"), 1u);
  EXPECT_EQ(stat("node0.host.core1", "irq_timeouts"), 0u);
  EXPECT_EQ(stat("node0.host.core1", "interrupts"), 2u);
}

TEST(IrqFaults, LateInterruptPastTheTimeoutIsRecoveredAndWithdrawn) {
  // Delivered after core 1 has timed out and cleared the line: the late interrupt must not
  // satisfy round 2's wait (it would wake before round 2's doorbell).
  set_param("node0.host.core1.irq_late_at", "1");
  set_param("node0.host.core1.irq_late_delay", 40000);  // beyond the 27.8 us timeout
  DoorbellRounds r;
  const auto node = run_doorbell_rounds(r, {sc_time(2000, SC_NS), sc_time(200000, SC_NS)});
  EXPECT_EQ(r.woke[0] - r.began[0], host_cycles(kTimeoutCycles) + r.poll_cost);
  EXPECT_GE(r.woke[1], r.rung[1]);
  EXPECT_EQ(stat("node0.host.core1", "irq_delayed"), 1u);
  EXPECT_EQ(stat("node0.host.core1", "irq_recovered_by_polling"), 1u);
}

TEST(IrqFaults, CountsEqualTheInjectedFaults) {
  set_param("node0.host.core1.irq_drop_at", "1,3");
  set_param("node0.host.core1.irq_late_at", "2,3");  // 3 is dropped: a drop wins
  set_param("node0.host.core1.irq_late_delay", 1000);
  DoorbellRounds r;
  const auto node = run_doorbell_rounds(r, {sc_time(2000, SC_NS), sc_time(100000, SC_NS),
                                            sc_time(200000, SC_NS), sc_time(300000, SC_NS)});
  EXPECT_EQ(stat("node0.host.core1", "irq_dropped"), 2u);
  EXPECT_EQ(stat("node0.host.core1", "irq_delayed"), 1u);
  EXPECT_EQ(stat("node0.host.core1", "irq_timeouts"), 2u);
  EXPECT_EQ(stat("node0.host.core1", "irq_recovered_by_polling"), 2u);
  EXPECT_EQ(stat("node0.host.core1", "interrupts"), 2u);
}

TEST(IrqFaults, DemoRecoversFromLostInterruptsOnEveryCoreAndVerifiesItsData) {
  // Lost: the host's result MSI, the PPE's start doorbell, SPU 0's first interrupt and
  // SPU 1's second (an MFC interrupt). The derived timeouts apply.
  const Json base = hs::testing::run_scenario("default", {"workload.spes=2"});
  const Json r = hs::testing::run_scenario(
      "default",
      {"workload.spes=2", "node0.host.core0.irq_drop_at=\"1\"", "node0.acc0.ppe.irq_drop_at=\"1\"",
       "node0.acc0.spe0.spu.irq_drop_at=\"1\"", "node0.acc0.spe1.spu.irq_drop_at=\"2\""});
  ASSERT_TRUE(hs::testing::passed(r)) << hs::testing::violations(r);
  EXPECT_EQ(r["results"]["accelerators"][0]["verified"], true);
  const Json& s = r["stats"];
  for (const char* core :
       {"node0.host.core0", "node0.acc0.ppe", "node0.acc0.spe0.spu", "node0.acc0.spe1.spu"}) {
    EXPECT_EQ(s[core]["irq_dropped"], 1) << core;
  }
  for (const char* core : {"node0.host.core0", "node0.acc0.ppe", "node0.acc0.spe1.spu"}) {
    EXPECT_EQ(s[core]["irq_recovered_by_polling"], 1) << core;
  }
  // The lost start doorbell alone holds the PPE for its whole timeout (sw/apps/hybrid_demo.h).
  const double ppe_timeout_ns = 8.0 * (256 + 64 + 16) * 1024 * (0.25 + 3.2e9 / 100e6) / 3.2;
  EXPECT_GT(r["simulated_time_ns"].get<double>(),
            base["simulated_time_ns"].get<double>() + ppe_timeout_ns);
}

TEST(IrqFaults, DemoWithoutFaultsNeverTimesOut) {
  const Json base = hs::testing::run_scenario("default", {"workload.spes=2"});
  ASSERT_TRUE(hs::testing::passed(base)) << hs::testing::violations(base);
  for (const auto& [name, g] : base["stats"].items()) {
    if (g.contains("irq_timeouts")) {
      EXPECT_EQ(g["irq_timeouts"], 0) << name;
    }
  }
}

TEST(DmaFaults, CorruptedDescriptorHaltsTheEngineAndFirmwareNamesEngineDescriptorAndAddress) {
  set_param("node0.acc0.dma.bad_descriptor_at", "2");
  auto node = make_hybrid_node();
  constexpr uint64_t kRequest = 0x0800'0000;
  node->accelerators[0]->ppe->set_firmware([](fw::Hal& hal) {
    fwdma::write_request(hal, kRequest,
                         {fwdma::copy(0x100000, 0x300000, 4096),
                          fwdma::copy(0x200000, 0x400000, 64), fwdma::write_value(0x500000, 1)});
    fwdma::submit(hal, amap::kAccDmaEngine, kRequest);
    fwdma::wait_completed(hal, amap::kAccDmaEngine, 1);
  });
  sc_core::sc_start();
  ASSERT_FALSE(CheckRegistry::instance().ok());
  const auto& v = CheckRegistry::instance().violations().front();
  EXPECT_EQ(v.component, "node0.acc0.ppe");
  EXPECT_NE(v.message.find("DMA engine at 0xa10000000 halted on a bus error: descriptor 1 of the "
                           "request at 0x8000000 (descriptor at 0x8000020) accessed "
                           "0xdead0000000000, which no target maps"),
            std::string::npos)
      << v.message;
  EXPECT_EQ(stat("node0.acc0.dma", "bad_descriptors"), 1u);
  EXPECT_EQ(stat("node0.acc0.dma", "requests"), 0u);
}

TEST(DmaFaults, CorruptedDescriptorFailsAProtocolRunWithTheFirmwaresMessage) {
  const Json r = hs::testing::run_scenario(
      "pin_dma_unpin", {"node0.dma_engines=both", "node0.host.dma.bad_descriptor_at=\"3\"",
                        "node0.acc0.dma.bad_descriptor_at=\"3\""});
  ASSERT_FALSE(r.contains("error")) << r["error"];
  EXPECT_FALSE(hs::testing::passed(r));
  EXPECT_NE(hs::testing::violations(r).find("halted on a bus error: descriptor"), std::string::npos)
      << hs::testing::violations(r);
}

TEST(DmaFaults, LivenessCheckNamesAStalledEngineAndItsOutstandingWork) {
  set_param("node0.acc0.dma.stall_at", "1");
  set_param("node0.acc0.dma.liveness_timeout", 50000);
  auto node = make_hybrid_node();
  node->accelerators[0]->ppe->set_firmware([](fw::Hal& hal) {
    fwdma::write_request(hal, 0x0800'0000, {fwdma::copy(0x100000, 0x300000, 4096)});
    fwdma::submit(hal, amap::kAccDmaEngine, 0x0800'0000);
    fwdma::wait_completed(hal, amap::kAccDmaEngine, 1);
  });
  sc_core::sc_start();
  ASSERT_FALSE(CheckRegistry::instance().ok());
  const auto& v = CheckRegistry::instance().violations().front();
  EXPECT_EQ(v.check, kLivenessCheck);
  EXPECT_EQ(v.component, "node0.acc0.dma");
  EXPECT_NE(v.message.find("stuck: no progress for 50000 ns with work outstanding: 1 request(s) "
                           "outstanding, the first at 0x8000000, descriptor at 0x8000000"),
            std::string::npos)
      << v.message;
  EXPECT_EQ(stat("node0.acc0.dma", "stalls"), 1u);
}

TEST(DmaFaults, LivenessCheckStaysQuietOnALongTransferWithAShortTimeout) {
  // A 1 MiB put to the host takes far longer than the 20 us timeout, but every 4 KiB chunk
  // is progress: the deadline re-arms many times and never fires.
  set_param("node0.acc0.dma.liveness_timeout", 20000);
  auto node = make_hybrid_node();
  node->accelerators[0]->ppe->set_firmware([](fw::Hal& hal) {
    fwdma::write_request(hal, 0x0800'0000,
                         {fwdma::copy(0x100000, amap::host_via_pcie(0) + 0x100000, 1 << 20)});
    fwdma::submit(hal, amap::kAccDmaEngine, 0x0800'0000);
    fwdma::wait_completed(hal, amap::kAccDmaEngine, 1);
  });
  sc_core::sc_start();
  ASSERT_TRUE(CheckRegistry::instance().ok()) << first_violation();
  EXPECT_GT(sc_core::sc_time_stamp(), sc_time(200000, SC_NS));
  EXPECT_GT(CheckRegistry::instance().check(kLivenessCheck).evaluations, 5u);
  EXPECT_EQ(CheckRegistry::instance().check(kLivenessCheck).failures, 0u);
}

namespace {
// Builds the node with one bad parameter; returns the refusal's text.
std::string refusal(const std::string& name, const Json& value) {
  set_param(name, value);
  try {
    auto node = make_hybrid_node();
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}
}  // namespace

TEST(FaultParams, DropRateAboveOneIsRefusedNamingTheParameter) {
  EXPECT_NE(refusal("node0.host.core0.irq_drop_rate", 2).find("node0.host.core0.irq_drop_rate"),
            std::string::npos);
}

TEST(FaultParams, BadLateListIsRefusedNamingTheParameter) {
  EXPECT_NE(refusal("node0.acc0.ppe.irq_late_at", "2,y").find("node0.acc0.ppe.irq_late_at"),
            std::string::npos);
}

TEST(FaultParams, ZeroLateDelayIsRefusedNamingTheParameter) {
  EXPECT_NE(refusal("node0.host.core0.irq_late_delay", 0).find("node0.host.core0.irq_late_delay"),
            std::string::npos);
}

TEST(FaultParams, NegativeLivenessTimeoutIsRefusedNamingTheParameter) {
  EXPECT_NE(refusal("node0.acc0.dma.liveness_timeout", -1).find("node0.acc0.dma.liveness_timeout"),
            std::string::npos);
}

TEST(FaultParams, BadDescriptorListIsRefusedNamingTheParameter) {
  EXPECT_NE(
      refusal("node0.acc0.dma.bad_descriptor_at", "0").find("node0.acc0.dma.bad_descriptor_at"),
      std::string::npos);
}

TEST(FaultParams, NegativeDemoTimeoutIsRefusedNamingTheParameter) {
  const Json r = hs::testing::run_scenario("default", {"workload.irq_timeout_cycles=-5"});
  EXPECT_NE(r.dump().find("workload.irq_timeout_cycles"), std::string::npos) << r.dump();
}
