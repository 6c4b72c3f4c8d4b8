// SLMPM messages on the hybrid node: modes chosen by ID form, size and monitored load, every
// message delivered intact (checked byte by byte by the accelerator), over random seeds.
#include <gtest/gtest.h>

#include <random>

#include "sw/slmpm/receive_slots.h"
#include "testbench/runner/simulation.h"
#include "testbench/support/child_process.h"
#include "testbench/support/scenario_run.h"

using Json = nlohmann::json;

namespace {

using hs::testing::passed;
using hs::testing::violations;

Json run(const std::vector<std::string>& sets, uint64_t seed = 1) {
  Json r = hs::testing::run_scenario("slmpm_messages", sets, seed);
  if (r.contains("error")) ADD_FAILURE() << "run failed: " << r["error"];
  return r;
}

uint64_t count(const Json& r, const char* k) {
  return r["results"][k].get<uint64_t>();
}

}  // namespace

TEST(SlmpmMessages, EveryMessageArrivesIntactWhateverItsMode) {
  const Json r = run({});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_EQ(count(r, "delivered") + count(r, "gets"), 200u);
  EXPECT_GT(count(r, "gets"), 0u);
  EXPECT_GT(count(r, "smt"), 0u);
  EXPECT_GT(count(r, "dma"), 0u);
  EXPECT_GT(count(r, "ethernet"), 0u);
}

TEST(SlmpmMessages, GetsAreServedByTheAcceleratorsDmaPutIntoHostMemory) {
  // The host's get: a request the accelerator answers by DMA PUT; the host checks the bytes.
  const Json r = run({"workload.operations=get", "workload.messages=60", "workload.ids=mac"});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_EQ(count(r, "gets"), 60u);
  EXPECT_EQ(count(r, "dma"), 60u);
  EXPECT_EQ(count(r, "ethernet"), 0u) << "Ethernet carries no reads: gets always use PCIe";
}

TEST(SlmpmMessages, EthernetMacIdsTravelByEthernetAsSharedMemoryTransfers) {
  const Json r = run({"workload.ids=mac", "workload.messages=60", "workload.operations=send"});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_EQ(count(r, "ethernet"), 60u);
  EXPECT_EQ(count(r, "dma"), 0u);
}

TEST(SlmpmMessages, PcieIdsNeverUseEthernet) {
  const Json r = run({"workload.ids=pcie", "workload.messages=60"});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_EQ(count(r, "ethernet"), 0u);
}

TEST(SlmpmMessages, MessagesBelowTheDmaThresholdGoByTheSharedMemoryProtocol) {
  const Json r = run({"workload.ids=pcie", "workload.operations=put", "workload.max_bytes=2048",
                      "workload.messages=60"});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_EQ(count(r, "dma"), 0u);
  EXPECT_EQ(count(r, "smt"), 60u);
}

TEST(SlmpmMessages, GlobalIdsMoveToEthernetOnlyWhenPcieIsBusy) {
  const Json busy =
      run({"workload.ids=global", "node0.host.slmpm.queue_threshold=1024", "workload.window=8"});
  const Json idle = run(
      {"workload.ids=global", "node0.host.slmpm.queue_threshold=100000000", "workload.window=8"});
  ASSERT_TRUE(passed(busy)) << violations(busy);
  ASSERT_TRUE(passed(idle)) << violations(idle);
  EXPECT_GT(count(busy, "ethernet"), 0u);
  EXPECT_EQ(count(idle, "ethernet"), 0u);
}

TEST(SlmpmMessages, SendsIntoACongestedRingGoByDma) {
  const std::vector<std::string> base = {"workload.ids=pcie", "workload.operations=send",
                                         "workload.window=8", "node0.host.slmpm.dma_min_bytes=0"};
  auto congested = base, calm = base;
  congested.push_back("node0.host.slmpm.shm_threshold=0");
  calm.push_back("node0.host.slmpm.shm_threshold=1");
  const Json c = run(congested), k = run(calm);
  ASSERT_TRUE(passed(c)) << violations(c);
  ASSERT_TRUE(passed(k)) << violations(k);
  EXPECT_GT(count(c, "dma"), 0u);
  EXPECT_EQ(count(k, "dma"), 0u);
}

TEST(SlmpmMessages, ASendNeverLandsInAReceiveSlotWhoseMessageIsStillArriving) {
  // Sends by both fabrics and by DMA: headers reach the accelerator in another order than the
  // host sent them, and a long Ethernet message is still arriving when five later headers
  // have come in. Handing slots out by arrival count gave one of them its slot.
  const Json r = run({"workload.operations=send"}, 2);
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_EQ(count(r, "delivered"), 200u);
  EXPECT_GT(count(r, "ethernet"), 0u);
  EXPECT_GT(count(r, "dma"), 0u);
}

TEST(SlmpmMessages, SendsWaitForAFreeReceiveSlotWhenEveryOneIsBusy) {
  // One slot, eight messages in flight: each send waits for the one before it to be delivered.
  const Json r = run({"workload.operations=send", "workload.window=8", "workload.receive_slots=1",
                      "workload.messages=80"});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_EQ(count(r, "delivered"), 80u);
}

TEST(SlmpmMessages, OverlappingGetsIntoOneBufferEachReleaseTheirOwnRegistration) {
  // Sixteen in flight over eight buffers: two gets of different sizes into one host buffer
  // hold overlapping cached registrations at once; each done must count down its own.
  const Json r = run({"workload.operations=get", "workload.window=16", "workload.messages=100"});
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_EQ(count(r, "gets"), 100u);
}

TEST(SlmpmMessages, ReceiveSlotsForTheLargestWindowStayClearOfPutsAndGetSources) {
  // 41 receive slots of 1 MiB: the receive area must not reach put destinations or the
  // buffers gets read from.
  const Json r = run({"workload.window=40", "workload.messages=150"}, 3);
  ASSERT_TRUE(passed(r)) << violations(r);
  EXPECT_EQ(count(r, "delivered") + count(r, "gets"), 150u);
  EXPECT_GT(count(r, "gets"), 0u);
  EXPECT_GT(count(r, "smt"), 0u);
}

TEST(ReceiveSlots, AClaimedSlotIsNeverHandedOutAgainUntilReleased) {
  hs::fw::slmpm::ReceiveSlots slots(0x1000, 3, 0x100);
  EXPECT_EQ(slots.claim(), 0x1000u);
  EXPECT_EQ(slots.claim(), 0x1100u);
  EXPECT_TRUE(slots.release(0x1000));
  // Round robin resumes after the last slot handed out, skipping the busy one.
  EXPECT_EQ(slots.claim(), 0x1200u);
  EXPECT_EQ(slots.claim(), 0x1000u);
  EXPECT_EQ(slots.claim(), std::nullopt) << "every slot is busy";
  EXPECT_EQ(slots.busy(), 3u);
  EXPECT_TRUE(slots.release(0x1100));
  EXPECT_EQ(slots.claim(), 0x1100u);
}

TEST(ReceiveSlots, ReleasingASlotThatIsNotClaimedIsRefused) {
  hs::fw::slmpm::ReceiveSlots slots(0x1000, 2, 0x100);
  EXPECT_FALSE(slots.release(0x1000));
  const auto a = slots.claim();
  ASSERT_TRUE(a);
  EXPECT_FALSE(slots.release(*a + 8)) << "not a slot's address";
  EXPECT_FALSE(slots.release(0x1000 + 2 * 0x100)) << "past the area";
  EXPECT_TRUE(slots.release(*a));
  EXPECT_FALSE(slots.release(*a)) << "released twice";
}

TEST(SlmpmMessages, RandomSizesWindowsModesAndLatenciesOverManySeeds) {
  int failures = 0;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    std::mt19937_64 rng(seed);
    const char* ids[] = {"mixed", "pcie", "mac", "global"};
    const std::vector<std::string> sets = {
        "workload.messages=" + std::to_string(20 + rng() % 60),
        "workload.max_bytes=" + std::to_string(16 << (rng() % 15)),
        "workload.window=" + std::to_string(1 + rng() % 8),
        "workload.segments=" + std::to_string(1 + rng() % 32),
        std::string("workload.ids=") + ids[rng() % 4],
        "node0.host.slmpm.queue_threshold=" + std::to_string(rng() % 200000),
        "node0.pcie0.latency=" + std::to_string(50 + rng() % 2000)};
    const Json r = run(sets, seed);
    const bool ok = !r.contains("error") && passed(r) && r["results"]["verified"].get<bool>();
    if (!ok) {
      ADD_FAILURE() << "seed " << seed << ": "
                    << (r.contains("error") ? r["error"].dump() : violations(r));
      if (++failures > 3) return;
    }
  }
}
